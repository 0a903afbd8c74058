// Pair families of centred curves: concentric shapes, tangent circles and ellipses, and a circle
// or ellipse circumscribed about, inscribed in or tangent to an edge of a polygon.
#include "geometry/predicates.hpp"
#include "geometry/relations/engine.hpp"

#include <algorithm>

namespace geotruth::geometry::relations {
namespace {

using K = RelationKind;

// Filter for a curve's tangency to a circle (or to a sector's arc, on its circle): every distance
// from the circle's centre to the curve lies within the curve's reach of its centre's distance d.
// When that keeps the curve clearly off the circle, every tangency fails far and true is returned.
bool clearly_off_circle(const RelationDecider& decide, const View& circle, const View& curve, RelationCheck& out) {
  const double d = distance(curve.centre_d, circle.centre_d), reach = std::max(curve.ra_d, curve.rb_d);
  const double rough = std::max({d - reach - circle.ra_d, circle.ra_d - d - reach, 0.0});
  if (!decide.clearly_fails(rough)) return false;
  for (const K kind : {K::external_tangent, K::internal_tangent, K::tangent})
    out.relations.push_back(decide.far(kind, rough));
  return true;
}

// Tangency of a circle and an ellipse: the circle's radius equals the nearest distance from its
// centre to the ellipse (outside: external; inside: internal) or the farthest (the ellipse
// inside the circle: internal), found at the exact critical points of conics.hpp level_extremes.
void circle_ellipse_tangent(const RelationDecider& decide, const View& circle, const View& ellipse,
                            RelationCheck& out) {
  if (clearly_off_circle(decide, circle, ellipse, out)) return;
  // The circle's level function along the ellipse is |x − c|²/r²: its extremes are the ellipse's
  // nearest and farthest points from the circle's centre, the radial gaps | |x − c| − r |.
  const auto [nearest, farthest] = level_extremes(conic_of(ellipse), conic_of(circle));
  const Vec2 d = minus(*circle.centre, *ellipse.centre);
  const Rational x = dot(d, ellipse.e1), y = dot(d, ellipse.e2);
  const bool outside = x * x / (ellipse.ra * ellipse.ra) + y * y / (ellipse.rb * ellipse.rb) > 1;
  const ShapeRelation external = outside ? decide.by_estimate(K::external_tangent, nearest.radial_gap)
                                         : RelationDecider::impossible(K::external_tangent);
  const double internal_gap = std::min(outside ? 1e300 : nearest.radial_gap, farthest.radial_gap);
  const ShapeRelation internal = decide.by_estimate(K::internal_tangent, internal_gap);
  out.relations.push_back(external);
  out.relations.push_back(internal);
  out.relations.push_back(RelationDecider::best(K::tangent, {external, internal}));
}

// Tangency of two ellipses, from the extremes of each one's level function along the other
// (conics.hpp level_extremes: exact critical points, no sampling). External: the least level of
// one along the other is 1 and neither centre lies inside the other; internal: the greatest level
// of one along the other is 1 (that one inside). The slack is the radial gap at that extreme.
void ellipse_ellipse_tangent(const RelationDecider& decide, const View& a, const View& b, RelationCheck& out) {
  {  // Filter: centres farther apart than both major semi-axes and the band cannot touch.
    const double rough = distance(a.centre_d, b.centre_d) - std::max(a.ra_d, a.rb_d) - std::max(b.ra_d, b.rb_d);
    if (decide.clearly_fails(rough)) {
      for (const K kind : {K::external_tangent, K::internal_tangent, K::tangent})
        out.relations.push_back(decide.far(kind, rough));
      return;
    }
  }
  const auto [b_on_a_low, b_on_a_high] = level_extremes(conic_of(a), conic_of(b));
  const auto [a_on_b_low, a_on_b_high] = level_extremes(conic_of(b), conic_of(a));
  const bool apart = !ellipse_has_point(conic_of(b), *a.centre) && !ellipse_has_point(conic_of(a), *b.centre);
  const ShapeRelation external =
      apart ? decide.by_estimate(K::external_tangent, std::min(b_on_a_low.radial_gap, a_on_b_low.radial_gap))
            : RelationDecider::impossible(K::external_tangent);
  const ShapeRelation internal =
      decide.by_estimate(K::internal_tangent, std::min(b_on_a_high.radial_gap, a_on_b_high.radial_gap));
  out.relations.push_back(external);
  out.relations.push_back(internal);
  out.relations.push_back(RelationDecider::best(K::tangent, {external, internal}));
}

// The curve passes through every vertex of the polygon (every tip of a star).
ShapeRelation through_vertices(const RelationDecider& decide, K kind, const View& curve, const View& polygon) {
  const std::size_t n = polygon.vertices.size(), stride = polygon.tip_stride;
  double rough = 0;
  for (std::size_t i = 0; i < n; i += stride)
    rough = std::max(rough, RelationDecider::curve_gap(polygon.vertices_d[i], curve));
  if (decide.clearly_fails(rough)) return decide.far(kind, rough);
  std::vector<ShapeRelation> parts;
  for (std::size_t i = 0; i < n; i += stride) parts.push_back(decide.point_on(kind, vertex(polygon, i), curve));
  return RelationDecider::worst(kind, parts);
}

// The double gap between the side (a, b) and the curve: |distance − radius| for a circle (to the
// segment), |distance − support| for an ellipse (to the side's line). Precondition: a ≠ b.
double side_gap(const View& curve, const D2& a, const D2& b) {
  if (curve.kind == ViewKind::circle) return std::abs(segment_distance(curve.centre_d, a, b) - curve.ra_d);
  const D2 normal{a.y - b.y, b.x - a.x};
  return std::abs(std::abs(dot(normal, minus(curve.centre_d, a))) -
                  std::hypot(curve.ra_d * dot(normal, curve.e1d), curve.rb_d * dot(normal, curve.e2d))) /
         std::hypot(normal.x, normal.y);
}

// touches_sides decided in double when every side's gap and the centre's side of every edge are
// clear of their band edges; nullopt otherwise. `gaps` are side_gap of each side (i, i + 1).
std::optional<ShapeRelation> touches_sides_filtered(const RelationDecider& decide, K kind, const View& polygon,
                                                    const View& curve, const std::vector<double>& gaps) {
  const std::size_t n = polygon.vertices.size();
  std::vector<ShapeRelation> parts;
  int turn = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const D2 &a = polygon.vertices_d[i], &b = polygon.vertices_d[(i + 1) % n];
    const double size = scale({a, b, curve.centre_d}) + curve.ra_d + curve.rb_d;
    if (distance(a, b) < 1e-6 * size) return std::nullopt;  // a (nearly) repeated vertex: the exact path
    auto part = decide.filtered(kind, gaps[i], size);
    const double o = cross(minus(b, a), minus(curve.centre_d, a));
    if (!part || std::abs(o) < 1e-9 * size * size) return std::nullopt;
    parts.push_back(*part);
    const int side = o > 0 ? 1 : -1;
    if (turn == 0) turn = side;
    if (side != turn) parts.push_back(RelationDecider::impossible(kind));  // centre outside
  }
  return RelationDecider::worst(kind, parts);
}

// The curve touches every side of the polygon from inside.
ShapeRelation touches_sides(const RelationDecider& decide, K kind, const View& polygon, const View& curve) {
  const std::size_t n = polygon.vertices.size();
  std::vector<double> gaps(n, 0.0);  // each side's gap in double (0 for a repeated vertex)
  for (std::size_t i = 0; i < n; ++i) {
    const D2 &a = polygon.vertices_d[i], &b = polygon.vertices_d[(i + 1) % n];
    if (a.x != b.x || a.y != b.y) gaps[i] = side_gap(curve, a, b);
  }
  if (const double rough = *std::max_element(gaps.begin(), gaps.end()); decide.clearly_fails(rough))
    return decide.far(kind, rough);
  if (auto filtered = touches_sides_filtered(decide, kind, polygon, curve, gaps)) return *filtered;
  std::vector<ShapeRelation> parts;
  int turn = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Pt a = vertex(polygon, i), b = vertex(polygon, i + 1);
    if (a.exact == b.exact) continue;  // a repeated vertex: no side
    if (curve.kind == ViewKind::circle) {
      parts.push_back(
          decide.by_root_gap(kind, squared_distance_to_segment(*curve.centre, a.exact, b.exact), curve.ra * curve.ra));
    } else {
      parts.push_back(line_tangent(decide, kind, a, b, curve));
    }
    const int side = orientation(a.exact, b.exact, *curve.centre);
    if (turn == 0) turn = side;
    if (side == 0 || side != turn) parts.push_back(RelationDecider::impossible(kind));  // centre outside
  }
  return RelationDecider::worst(kind, parts);
}

// The curve touches an edge of the polygon from outside, at a point inside the edge (not at a
// vertex): the nearest such tangency over the edges. A curve inscribed in the polygon touches its
// edges from inside and a circumscribed one meets its vertices: neither is this relation. The
// contact of a circle is the foot of the perpendicular (exact); an ellipse's is found in double,
// as for a straight line (a secondary check).
ShapeRelation touches_an_edge(const RelationDecider& decide, const View& curve, const View& polygon) {
  const std::size_t n = polygon.vertices.size();
  Rational twice_area = 0;
  for (std::size_t i = 0; i < n; ++i) twice_area += cross(polygon.vertices[i], polygon.vertices[(i + 1) % n]);
  const int turn = sgn(twice_area);
  std::vector<ShapeRelation> edges;
  for (std::size_t i = 0; i < n; ++i) {
    const Pt a = vertex(polygon, i), b = vertex(polygon, i + 1);
    const Vec2 u = minus(b.exact, a.exact);
    if (norm2(u) == 0) continue;
    const int side = orientation(a.exact, b.exact, *curve.centre);
    if (side == 0 || side == turn) continue;  // the centre on the polygon's side: touching from inside
    bool inside_edge;
    if (curve.kind == ViewKind::circle) {
      const Rational t = dot(minus(*curve.centre, a.exact), u);
      inside_edge = t > 0 && t < norm2(u);
    } else {  // the ellipse's point with normal n, on the edge's side
      const D2 ud = minus(b.d, a.d), nd{-ud.y, ud.x};
      const double nx = dot(nd, curve.e1d), ny = dot(nd, curve.e2d);
      const double norm = std::hypot(curve.ra_d * nx, curve.rb_d * ny),
                   sign = dot(nd, minus(curve.centre_d, a.d)) > 0 ? -1 : 1;
      const double lx = sign * curve.ra_d * curve.ra_d * nx / norm, ly = sign * curve.rb_d * curve.rb_d * ny / norm;
      const D2 contact{curve.centre_d.x + lx * curve.e1d.x + ly * curve.e2d.x,
                       curve.centre_d.y + lx * curve.e1d.y + ly * curve.e2d.y};
      const double t = dot(minus(contact, a.d), ud) / dot(ud, ud);
      inside_edge = t > 0 && t < 1;
    }
    if (inside_edge) edges.push_back(line_tangent(decide, K::tangent, a, b, curve));
  }
  if (edges.empty()) return RelationDecider::impossible(K::tangent);
  return RelationDecider::best(K::tangent, edges);
}

}  // namespace

void relate_centres(const RelationDecider& decide, const View& a, const View& b, bool directional_only,
                    RelationCheck& out) {
  if (directional_only) return;
  const auto filtered =
      decide.filtered(K::concentric, distance(a.centre_d, b.centre_d), scale({a.centre_d, b.centre_d}));
  out.relations.push_back(filtered ? *filtered : decide.by_squared(K::concentric, norm2(minus(*a.centre, *b.centre))));
}

void relate_round_round(const RelationDecider& decide, const View& a, const View& b, bool directional_only,
                        RelationCheck& out) {
  if (directional_only) return;
  if (a.kind == ViewKind::circle && b.kind == ViewKind::circle) {
    const double d = distance(a.centre_d, b.centre_d), size = scale({a.centre_d, b.centre_d}) + a.ra_d + b.ra_d;
    auto outer_f = decide.filtered(K::external_tangent, std::abs(d - (a.ra_d + b.ra_d)), size);
    auto inner_f = decide.filtered(K::internal_tangent, std::abs(d - std::abs(a.ra_d - b.ra_d)), size);
    const Rational d2 = outer_f && inner_f ? Rational(0) : norm2(minus(*a.centre, *b.centre));
    const ShapeRelation outer =
        outer_f ? *outer_f : decide.by_root_gap(K::external_tangent, d2, (a.ra + b.ra) * (a.ra + b.ra));
    const ShapeRelation inner =
        inner_f ? *inner_f : decide.by_root_gap(K::internal_tangent, d2, (a.ra - b.ra) * (a.ra - b.ra));
    out.relations.push_back(outer);
    out.relations.push_back(inner);
    out.relations.push_back(RelationDecider::best(K::tangent, {outer, inner}));
  } else if (a.kind == ViewKind::circle || b.kind == ViewKind::circle) {
    circle_ellipse_tangent(decide, a.kind == ViewKind::circle ? a : b, a.kind == ViewKind::circle ? b : a, out);
  } else {
    ellipse_ellipse_tangent(decide, a, b, out);
  }
}

void relate_round_polygon(const RelationDecider& decide, const View& a, const View& b, bool directional_only,
                          RelationCheck& out) {
  if (!directional_only)
    out.relations.push_back(a.round() ? touches_an_edge(decide, a, b) : touches_an_edge(decide, b, a));
  if (a.round()) {  // a about b, or a in b
    out.relations.push_back(through_vertices(decide, K::circumscribed, a, b));
    out.relations.push_back(touches_sides(decide, K::inscribed, b, a));
  } else {
    out.relations.push_back(touches_sides(decide, K::circumscribed, a, b));
    out.relations.push_back(through_vertices(decide, K::inscribed, b, a));
  }
}

}  // namespace geotruth::geometry::relations

namespace geotruth::geometry::relations {

// A circle or an ellipse tangent to a sector's arc: tangent to the arc's circle (exactly for a
// circle: |d − (r + R)| and |d − |r − R||; for an ellipse through level_extremes) with the contact
// on the arc. The contact's direction from the sector's centre is known exactly for a circle (along
// the line of centres) and in double for an ellipse; it is checked against the arc's end rays
// with ε_num to spare.
void relate_round_sector(const RelationDecider& decide, const View& a, const View& b, bool directional_only,
                         RelationCheck& out) {
  if (directional_only) return;
  const View& curve = a.kind == ViewKind::sector ? b : a;
  const View& sector = a.kind == ViewKind::sector ? a : b;
  if (clearly_off_circle(decide, sector, curve, out)) return;  // away from the arc's whole circle
  // Whether the contact, in the given direction from the sector's centre, lies on the arc.
  auto on_arc_towards = [&](double dx, double dy) {
    const double length = std::hypot(dx, dy);
    if (length == 0) return false;
    const double r = sector.ra_d / length;
    return on_arc(decide, sector, {sector.centre->x + Rational(dx * r), sector.centre->y + Rational(dy * r)});
  };
  const D2 towards = minus(curve.centre_d, sector.centre_d);  // from the sector's centre to the curve's
  ShapeRelation external = RelationDecider::impossible(K::external_tangent);
  ShapeRelation internal = RelationDecider::impossible(K::internal_tangent);
  if (curve.kind == ViewKind::circle) {
    const Rational d2 = norm2(minus(*curve.centre, *sector.centre));
    if (on_arc_towards(towards.x, towards.y))
      external = decide.by_root_gap(K::external_tangent, d2, (curve.ra + sector.ra) * (curve.ra + sector.ra));
    const bool curve_inside = curve.ra < sector.ra;  // touching from inside the arc's circle, or around it
    if (on_arc_towards(curve_inside ? towards.x : -towards.x, curve_inside ? towards.y : -towards.y))
      internal = decide.by_root_gap(K::internal_tangent, d2, (curve.ra - sector.ra) * (curve.ra - sector.ra));
  } else {
    const ExactEllipse circle{*sector.centre, sector.ra, sector.ra};
    const auto [near, far] = level_extremes(conic_of(curve), circle);  // the arc's circle along the ellipse
    const LevelExtreme inner_far = level_extremes(circle, conic_of(curve)).second;  // the ellipse along the circle
    const bool apart = !ellipse_has_point(conic_of(curve), *sector.centre) && !ellipse_has_point(circle, *curve.centre);
    if (apart && on_arc_towards(near.x - sector.centre_d.x, near.y - sector.centre_d.y))
      external = decide.by_estimate(K::external_tangent, near.radial_gap);
    std::vector<ShapeRelation> inside;
    if (on_arc_towards(far.x - sector.centre_d.x, far.y - sector.centre_d.y))  // the ellipse inside the circle
      inside.push_back(decide.by_estimate(K::internal_tangent, far.radial_gap));
    if (on_arc_towards(inner_far.x - sector.centre_d.x, inner_far.y - sector.centre_d.y))  // the circle inside
      inside.push_back(decide.by_estimate(K::internal_tangent, inner_far.radial_gap));
    if (!inside.empty()) internal = RelationDecider::best(K::internal_tangent, inside);
  }
  out.relations.push_back(external);
  out.relations.push_back(internal);
  out.relations.push_back(RelationDecider::best(K::tangent, {external, internal}));
}

}  // namespace geotruth::geometry::relations
