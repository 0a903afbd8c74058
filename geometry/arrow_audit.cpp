// The arrow audit of diagrams drawn with arrow outlines (AI2D): how far each arrow stops from the
// entities its relation names, whether one of its ends clearly belongs to another entity, whether
// its head says it points the other way, and how its arrows and heads are annotated.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <geotruth/findings.hpp>
#include <geotruth/work_limit.hpp>
#include <map>

#include "geometry/arrow_audit.hpp"
#include "geometry/outlines.hpp"

namespace geotruth {
namespace {

using geometry::Outline;

std::string px(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f px", value);
  return buffer;
}

Rational squared(const Vec2& a, const Vec2& b) {
  const Rational dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}

Vec2 centre(const std::array<Rational, 4>& box) {
  return {(box[0] + box[2]) / 2, (box[1] + box[3]) / 2};
}

// −1, 0, +1 as √a − √b is below, at or above eps (≥ 0), exactly.
int compare_root_difference(const Rational& a, const Rational& b, const Rational& eps) {
  if (a < b) return -1;
  return geometry::compare_root_gap(a, b, eps);
}

// Which end of a link a signal puts the head at: +1 the destination, −1 the origin, 0 unknown,
// with how clear that is.
struct Signal {
  int end = 0;
  Decision decision = Decision::holds;
  double slack_px = 0;
};

class ArrowAudit {
 public:
  ArrowAudit(const Scene& scene, const Bands& bands)
      : scene_(scene), bands_(bands, scene.frame), gap_settings_(bands.for_gaps()), gaps_(gap_settings_, scene.frame) {
    for (std::size_t i = 0; i < scene.entities.size(); ++i) {
      entity_index_[scene.entities[i].id] = i;
      outlines_.push_back(geometry::entity_outlines(scene.entities[i]));
    }
    for (const auto& a : scene.arrows) arrows_[a.id] = &a;
  }

  void run(std::vector<Finding>& findings, std::vector<LinkDoubt>& doubts) {
    std::map<std::string, bool> claimed;
    for (std::size_t i = 0; i < scene_.links.size(); ++i) {
      const Link& link = scene_.links[i];
      if (link.arrows.empty()) continue;
      for (const auto& id : link.arrows) claimed[id] = true;
      audit_link(i, findings, doubts);
    }
    for (const auto& a : scene_.arrows)
      if (!claimed.count(a.id))
        findings.push_back(make_finding(FindingKind::arrow_unannotated, {a.id},
                                        "arrow " + a.id + " is drawn but no relation uses it"));
  }

 private:
  struct Ends {
    Vec2 at_from, at_to;
  };

  // The arrow's two ends: its farthest-apart vertices, the one nearer the origin first (by the
  // sum of squared distances of the two pairings).
  Ends ends_of(const std::vector<Outline>& arrows, std::size_t from, std::size_t to) const {
    std::vector<const Vec2*> vertices;
    for (const auto& o : arrows)
      for (const auto& v : o) vertices.push_back(&v);
    charge_work(vertices.size() * vertices.size());
    const Vec2 *a = vertices.front(), *b = vertices.front();
    Rational best = -1;
    for (std::size_t i = 0; i < vertices.size(); ++i)
      for (std::size_t j = i + 1; j < vertices.size(); ++j)
        if (const Rational d = squared(*vertices[i], *vertices[j]); d > best) {
          best = d;
          a = vertices[i];
          b = vertices[j];
        }
    const auto d = [&](const Vec2& p, std::size_t e) {
      return geometry::squared_distance_to_outlines(p, outlines_[e]);
    };
    if (d(*b, from) + d(*a, to) < d(*a, from) + d(*b, to)) std::swap(a, b);
    return {*a, *b};
  }

  // Texts the source marks as an arrow's label, a title, a caption or an aside sit beside arrows
  // without being what they join.
  static bool beside_the_diagram(const Entity& e) {
    return std::any_of(e.tags.begin(), e.tags.end(), [](const std::string& t) {
      return t == "arrow_label" || t == "title" || t == "caption" || t == "section_title" || t == "misc";
    });
  }

  // The entity, other than the link's own two, nearest to p.
  std::optional<std::pair<std::size_t, Rational>> nearest_other(const Vec2& p, std::size_t from, std::size_t to) const {
    std::optional<std::pair<std::size_t, Rational>> best;
    for (std::size_t e = 0; e < outlines_.size(); ++e) {
      if (e == from || e == to || beside_the_diagram(scene_.entities[e])) continue;
      charge_work();
      const Rational d = geometry::squared_distance_to_outlines(p, outlines_[e]);
      if (!best || d < best->second) best = {e, d};
    }
    return best;
  }

  // A misassigned end: the relation names `named`, but the end lies at another entity (the named
  // one beyond γ_vis, the other within it, and nearer by at least γ_vis; γ: the detachment band).
  std::optional<std::size_t> misassigned(const std::string& relation, const Vec2& end, std::size_t named,
                                         std::size_t from, std::size_t to, std::vector<Finding>& findings) const {
    const Rational d_named = geometry::squared_distance_to_outlines(end, outlines_[named]);
    if (gaps_.decide_squared(d_named) != Decision::fails) return std::nullopt;
    const auto other = nearest_other(end, from, to);
    // The end must reach the other entity: an end that reaches nothing is detached, not misassigned.
    if (!other || gaps_.decide_squared(other->second) == Decision::fails) return std::nullopt;
    const Decision decision = FrameBands::decide(compare_root_difference(d_named, other->second, gaps_.eps_num()),
                                                 compare_root_difference(d_named, other->second, gaps_.eps_vis()));
    if (decision != Decision::fails) return std::nullopt;
    const std::string& named_id = scene_.entities[named].id;
    const std::string& other_id = scene_.entities[other->first].id;
    const double named_px = bands_.squared_to_px(d_named), other_px = bands_.squared_to_px(other->second);
    findings.push_back(make_finding(FindingKind::link_misassigned, {relation, named_id, other_id},
                                    "the arrow's " + std::string(named == from ? "origin" : "destination") +
                                        " end lies " + px(named_px) + " from " + named_id +
                                        " (named by the relation) but " + px(other_px) + " from " + other_id,
                                    named_px - other_px, decision));
    return other->first;
  }

  // Position: the head box touches one end of the arrow clearly more than the other (an
  // oversized box touching both says nothing), and lies at that end: within ε_vis, its own longer
  // side or a quarter of the arrow's length of it (a head in mid-wire says nothing either).
  Signal position(const ArrowHead& head, const Ends& ends) const {
    const Rational d_from = geometry::squared_distance_to_box(ends.at_from, head.box);
    const Rational d_to = geometry::squared_distance_to_box(ends.at_to, head.box);
    const Rational &far = d_from < d_to ? d_to : d_from, &near = d_from < d_to ? d_from : d_to;
    Signal s;
    const Rational side = std::max(head.box[2] - head.box[0], head.box[3] - head.box[1]);
    if (bands_.decide_squared(near) == Decision::fails && near > side * side &&
        16 * near > squared(ends.at_from, ends.at_to))
      return s;
    s.decision = FrameBands::decide(compare_root_difference(far, near, bands_.eps_num()),
                                    compare_root_difference(far, near, bands_.eps_vis()));
    s.slack_px = std::abs(bands_.squared_to_px(d_from) - bands_.squared_to_px(d_to));
    if (s.decision != Decision::holds) s.end = d_to < d_from ? 1 : -1;
    return s;
  }

  // The way a head points, as a vector: the annotated angle (quantized by the annotators) enters
  // as the doubles of its cosine and sine. Reduced into [0, 360) exactly first: a huge angle's
  // radians overflow a double (cos of inf is NaN).
  static Vec2 direction_of(const ArrowHead& head) {
    const double radians = to_double(reduce_degrees(*head.orientation)) * M_PI / 180;
    return {Rational(std::cos(radians)), Rational(std::sin(radians))};
  }

  // Whether the head points along the wire toward `end`: within 45° of the direction from the
  // arrow's other end to it (a head drawn across a wire marks a current, not the arrow's way).
  static bool along_the_wire(const ArrowHead& head, const Vec2& other, const Vec2& end) {
    if (!head.orientation) return false;
    const Vec2 u = direction_of(head);
    const Rational dx = end.x - other.x, dy = end.y - other.y;
    const Rational dot = u.x * dx + u.y * dy;
    return dot > 0 && 2 * dot * dot >= (dx * dx + dy * dy) * (u.x * u.x + u.y * u.y);
  }

  // Orientation: the way the head points, against where the two entities lie from it.
  Signal pointing(const ArrowHead& head, std::size_t from, std::size_t to) const {
    Signal s;
    if (!head.orientation) return s;
    const Vec2 u = direction_of(head);
    const Vec2 h = centre(head.box);
    auto ahead = [&](std::size_t e) -> Rational {
      const Vec2 c = centre(scene_.entities[e].box);
      return (c.x - h.x) * u.x + (c.y - h.y) * u.y;
    };
    const Rational margin = ahead(to) - ahead(from);
    s.decision = bands_.decide(abs(margin));
    s.slack_px = bands_.to_px(abs(margin));
    if (s.decision != Decision::holds) s.end = margin > 0 ? 1 : -1;
    return s;
  }

  // The relation a piece of a split connector carries: AI2D writes a relation's id as
  // origin+connector+destination; the link's own name when no id names the piece.
  static std::string relation_of(const Link& link, const std::string& arrow) {
    const std::string piece = "+" + arrow + "+";
    if (link.id.find(piece) != std::string::npos) return link.id;
    for (const auto& id : link.merged)
      if (id.find(piece) != std::string::npos) return id;
    return link_name(link);
  }

  // Each arrow of the link with one head says which way it points; a connector drawn as several
  // arrows (a current shown on each wire) is judged piece by piece, and a finding names the piece's
  // relation. An arrow with two heads names no single direction.
  void check_direction(std::size_t index, std::size_t from, std::size_t to, std::vector<Finding>& findings,
                       std::vector<LinkDoubt>& doubts) const {
    const Link& link = scene_.links[index];
    bool any_head = false;
    for (const auto& arrow : link.arrows) {
      std::vector<const ArrowHead*> heads;
      for (const auto& h : scene_.arrow_heads)
        if (h.arrow == arrow) heads.push_back(&h);
      any_head = any_head || !heads.empty();
      if (heads.size() == 1) check_piece(index, arrow, *heads.front(), from, to, findings, doubts);
    }
    if (!any_head)
      findings.push_back(make_finding(FindingKind::arrow_without_head, {link_name(link)},
                                      "the relation is directed but no arrowhead belongs to its arrow"));
  }

  void check_piece(std::size_t index, const std::string& arrow, const ArrowHead& head, std::size_t from, std::size_t to,
                   std::vector<Finding>& findings, std::vector<LinkDoubt>& doubts) const {
    const Link& link = scene_.links[index];
    const Ends ends = ends_of({arrows_.at(arrow)->polygon}, from, to);
    // A piece whose end on the origin's side is not at the origin says nothing of the relation's
    // direction (a middle piece of a connector, or a connector of other entities): that end must
    // lie within the detachment band of the origin or nearer it than the piece is long.
    const Rational gap = geometry::squared_distance_to_outlines(ends.at_from, outlines_[from]);
    if (gaps_.decide_squared(gap) == Decision::fails && gap >= squared(ends.at_from, ends.at_to)) return;
    // Reversed only when the evidence agrees: the head sits at the origin's end, points toward the
    // origin, and points along the wire there.
    const Signal pos = position(head, ends), ori = pointing(head, from, to);
    if (pos.end != -1 || ori.end != -1 || !along_the_wire(head, ends.at_to, ends.at_from)) return;
    const std::string detail = "the drawing points from " + link.to + " to " + link.from + ": head " + head.id +
                               " sits at the " + link.from + " end (" + px(pos.slack_px) + ") and its orientation " +
                               to_text(*head.orientation) + "° points along the arrow toward " + link.from + " (" +
                               px(ori.slack_px) + ")";
    Finding f = make_finding(FindingKind::arrow_reversed, {relation_of(link, arrow), head.id}, detail,
                             std::min(pos.slack_px, ori.slack_px));
    Link redrawn = link;
    std::swap(redrawn.from, redrawn.to);
    doubts.push_back({index, std::move(redrawn), f});
    findings.push_back(std::move(f));
  }

  // The entity an end of the link's arrow(s) really reaches, when the relation names another. A
  // connector drawn as several arrows is judged arrow by arrow (one piece may join two other
  // entities while the rest join the named ones), and the finding names the piece's relation. An
  // arrow that reaches the named entity is not misassigned, whatever its farthest vertex (the outer
  // corner of a bent wire) comes near.
  std::optional<std::size_t> misassigned_end(const Link& link, std::size_t named, bool at_from,
                                             const std::vector<Rational>& piece_gaps,
                                             std::vector<Finding>& findings) const {
    const std::size_t from = entity_index_.at(link.from), to = entity_index_.at(link.to);
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < link.arrows.size(); ++i) {
      const std::string& arrow = link.arrows[i];
      const std::vector<Outline> piece{arrows_.at(arrow)->polygon};
      // An arrow that reaches the named entity is not misassigned, unless it only passes it: the
      // entity lies between parts of the arrow (its path goes on beyond it on the other side).
      if (gaps_.decide_squared(piece_gaps[i]) != Decision::fails && !passes_by(piece.front(), named)) continue;
      const Ends ends = ends_of(piece, from, to);
      if (auto other =
              misassigned(relation_of(link, arrow), at_from ? ends.at_from : ends.at_to, named, from, to, findings))
        found = other;
    }
    return found;
  }

  // Whether the arrow runs on past entity e on two sides: two of its vertices beyond γ_vis of e lie
  // in directions from e's box centre at least 120° apart (exactly: u·v < 0 and 4(u·v)² ≥ |u|²|v|²).
  // An arrow that ends at e (a straight or bent wire: every vertex on one side) does not.
  bool passes_by(const Outline& arrow, std::size_t e) const {
    const Vec2 c = centre(scene_.entities[e].box);
    std::vector<Vec2> away;
    for (const auto& v : arrow)
      if (gaps_.decide_squared(geometry::squared_distance_to_outlines(v, outlines_[e])) == Decision::fails)
        away.push_back({v.x - c.x, v.y - c.y});
    charge_work(away.size() * away.size());
    for (std::size_t i = 0; i < away.size(); ++i)
      for (std::size_t j = i + 1; j < away.size(); ++j) {
        const Rational dot = away[i].x * away[j].x + away[i].y * away[j].y;
        if (dot < 0 && 4 * dot * dot >= (away[i].x * away[i].x + away[i].y * away[i].y) *
                                            (away[j].x * away[j].x + away[j].y * away[j].y))
          return true;
      }
    return false;
  }

  void audit_link(std::size_t index, std::vector<Finding>& findings, std::vector<LinkDoubt>& doubts) const {
    const Link& link = scene_.links[index];
    std::vector<Outline> arrows;
    for (const auto& id : link.arrows) arrows.push_back(arrows_.at(id)->polygon);
    const std::size_t from = entity_index_.at(link.from), to = entity_index_.at(link.to);
    if (link.arrows.size() > 1 || !link.merged.empty()) {
      std::vector<std::string> ids{link_name(link)};
      ids.insert(ids.end(), link.merged.begin(), link.merged.end());
      std::string arrow_list;
      for (const auto& a : link.arrows) arrow_list += (arrow_list.empty() ? "" : ", ") + a;
      findings.push_back(make_finding(FindingKind::connector_split, ids,
                                      "one connection drawn as " + std::to_string(link.arrows.size()) +
                                          " arrow polygons (" + arrow_list + "), kept as one link"));
    }
    Link redrawn = link;
    std::optional<Finding> misassignment;
    for (const bool at_from : {true, false}) {
      const std::size_t named = at_from ? from : to;
      // The connection's gap is its nearest arrow's.
      std::vector<Rational> piece_gaps;
      for (const auto& arrow : arrows)
        piece_gaps.push_back(geometry::squared_distance_between({arrow}, outlines_[named]));
      const Rational gap = *std::min_element(piece_gaps.begin(), piece_gaps.end());
      const Decision decision = gaps_.decide_squared(gap);
      if (const auto other = misassigned_end(link, named, at_from, piece_gaps, findings)) {
        (at_from ? redrawn.from : redrawn.to) = scene_.entities[*other].id;
        misassignment = findings.back();
        continue;
      }
      if (decision != Decision::holds)
        findings.push_back(make_finding(FindingKind::link_detached, {link_name(link), scene_.entities[named].id},
                                        "the arrow stops " + px(bands_.squared_to_px(gap)) + " short of " +
                                            scene_.entities[named].id + (at_from ? " (origin)" : " (destination)"),
                                        bands_.squared_to_px(gap), decision));
    }
    if (misassignment) {
      doubts.push_back({index, std::move(redrawn), *misassignment});
      return;  // which way it points is moot while its ends are in doubt
    }
    if (link.directed && from != to) check_direction(index, from, to, findings, doubts);  // a loop has no way round
  }

  const Scene& scene_;
  FrameBands bands_;
  Bands gap_settings_;
  FrameBands gaps_;  // how far an arrow may stop short of what it joins: the detachment band
  std::map<std::string, std::size_t> entity_index_;
  std::vector<std::vector<Outline>> outlines_;
  std::map<std::string, const Arrow*> arrows_;
};

}  // namespace

void arrow_audit(const Scene& scene, const Bands& bands, std::vector<Finding>& findings,
                 std::vector<LinkDoubt>& doubts) {
  if (scene.arrows.empty()) return;
  ArrowAudit(scene, bands).run(findings, doubts);
}

std::vector<LinkDoubt> link_doubts(const Scene& scene, const Bands& bands) {
  std::vector<Finding> findings;
  std::vector<LinkDoubt> doubts;
  arrow_audit(scene, bands, findings, doubts);
  return doubts;
}

}  // namespace geotruth
