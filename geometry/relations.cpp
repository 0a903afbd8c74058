// The relation engine's registry: which pair family decides which pair of shape kinds.
#include "geometry/relations.hpp"

#include "geometry/relations/engine.hpp"

#include <algorithm>

namespace geotruth::geometry {

const ShapeRelation* RelationCheck::find(RelationKind kind) const {
  for (const auto& r : relations)
    if (r.kind == kind) return &r;
  return nullptr;
}

bool RelationCheck::is_undecided(RelationKind kind) const {
  return std::find(undecided.begin(), undecided.end(), kind) != undecided.end();
}

namespace {

using namespace relations;

bool straight(const View& v) {
  return v.kind == ViewKind::straight;
}
bool polygon(const View& v) {
  return v.kind == ViewKind::polygon;
}

// A family applies to an ordered pair; families that do not care about the order say so by
// accepting both orders.
struct PairFamily {
  bool (*applies)(const View& a, const View& b);
  PairFamilyFn relate;
};

// In output order. Adding a shape kind: give it a View (relations/view.cpp) and, for each kind
// it relates to, a family here.
const PairFamily kFamilies[] = {
    {[](const View& a, const View& b) { return a.centre && b.centre; }, relate_centres},
    {[](const View& a, const View& b) { return straight(a) && straight(b); }, relate_straight_straight},
    {[](const View& a, const View& b) { return (straight(a) && polygon(b)) || (polygon(a) && straight(b)); },
     relate_straight_polygon},
    {[](const View& a, const View& b) {
       auto curve = [](const View& v) { return v.round() || v.kind == ViewKind::sector; };
       return (straight(a) && curve(b)) || (curve(a) && straight(b));
     },
     relate_straight_curve},
    {[](const View& a, const View& b) { return a.round() && b.round(); }, relate_round_round},
    {[](const View& a, const View& b) { return (a.round() && polygon(b)) || (polygon(a) && b.round()); },
     relate_round_polygon},
    {[](const View& a, const View& b) {
       return (a.round() && b.kind == ViewKind::sector) || (a.kind == ViewKind::sector && b.round());
     },
     relate_round_sector},
    {[](const View& a, const View& b) { return polygon(a) && polygon(b); }, relate_polygon_polygon},
    {[](const View& a, const View& b) {  // a sector's radius along a side or a radius of the other
       const bool sa = a.kind == ViewKind::sector, sb = b.kind == ViewKind::sector;
       return (sa && (sb || polygon(b))) || (polygon(a) && sb);
     },
     relate_sector_edges},
    {[](const View&, const View&) { return true; }, relate_topology},
};

// A tangency is tangent only. Where the two shapes can meet in at most two points (a straight
// piece and a circle or ellipse, two circles), a tangency that holds is their one contact: the
// two crossings the exact count gives it (a double point, or two points a rounding apart; the
// count is kept) are no intersection, and shapes that touch are not disjoint either. A tangency in the ambiguous band
// makes those two ambiguous, with its slack.
void tangency_is_not_a_crossing(const View& a, const View& b, RelationCheck& out) {
  const bool at_most_two = (straight(a) && b.round()) || (a.round() && straight(b)) ||
                           (a.kind == ViewKind::circle && b.kind == ViewKind::circle);
  if (!at_most_two) return;
  const ShapeRelation* touch = nullptr;
  for (const auto& r : out.relations)
    if ((r.kind == RelationKind::tangent || r.kind == RelationKind::internal_tangent ||
         r.kind == RelationKind::external_tangent) &&
        (r.holds() || r.ambiguous()) && (!touch || r.holds() > touch->holds()))
      touch = &r;
  if (!touch) return;
  const Decision decision = touch->decision;
  const std::optional<double> slack = touch->slack_px;
  for (auto& r : out.relations) {
    if (r.kind != RelationKind::intersecting && r.kind != RelationKind::disjoint) continue;
    if (r.kind == RelationKind::intersecting && r.crossings && *r.crossings > 2) continue;
    if (decision == Decision::holds) {
      r.decision = Decision::fails;
    } else if (r.holds()) {
      r.decision = Decision::ambiguous;
      r.slack_px = slack;
    }
  }
}

RelationCheck relate_views(const RelationDecider& decider, const View& a, const View& b, bool directional_only) {
  RelationCheck out;
  for (const auto& family : kFamilies)
    if (family.applies(a, b)) family.relate(decider, a, b, directional_only, out);
  tangency_is_not_a_crossing(a, b, out);
  return out;
}

}  // namespace

struct ShapeRelations::Prepared {
  RelationDecider decider;
  std::vector<View> views;
  std::vector<std::string> kinds;  // each shape's declared kind
};

ShapeRelations::ShapeRelations(const std::vector<Shape>& shapes, const Frame& frame, const Bands& bands)
    : prepared_(std::make_unique<Prepared>(Prepared{RelationDecider(frame, bands), {}, {}})) {
  prepared_->views.reserve(shapes.size());
  for (const auto& s : shapes) {
    prepared_->views.push_back(view_of(s, frame));
    prepared_->kinds.push_back(s.kind);
  }
}

ShapeRelations::~ShapeRelations() = default;

RelationCheck ShapeRelations::relate(std::size_t a, std::size_t b, bool directional_only) const {
  return relate_views(prepared_->decider, prepared_->views.at(a), prepared_->views.at(b), directional_only);
}

std::optional<ShapeRelation> ShapeRelations::label_check(std::size_t shape) const {
  return label_of(prepared_->decider, prepared_->views.at(shape), prepared_->kinds.at(shape));
}

std::optional<std::string> ShapeRelations::looks_like(std::size_t shape) const {
  return looks_like_of(prepared_->decider, prepared_->views.at(shape), prepared_->kinds.at(shape));
}

RelationCheck relate(const Shape& a, const Shape& b, const Frame& frame, const Bands& bands, bool directional_only) {
  return relate_views(RelationDecider(frame, bands), view_of(a, frame), view_of(b, frame), directional_only);
}

}  // namespace geotruth::geometry
