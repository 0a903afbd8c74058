// The relation engine's internals, shared by its pair families (geometry/relations/*.cpp): the
// view of a shape every family works on, and the decider that turns slacks into relations.
// Not a public header: callers use geometry/relations.hpp.
#pragma once

#include "geometry/conics.hpp"
#include "geometry/relations.hpp"

#include <geotruth/bands.hpp>

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace geotruth::geometry::relations {

// Exact vector arithmetic.
inline Rational dot(const Vec2& u, const Vec2& v) {
  return u.x * v.x + u.y * v.y;
}
inline Rational cross(const Vec2& u, const Vec2& v) {
  return u.x * v.y - u.y * v.x;
}
inline Vec2 minus(const Vec2& a, const Vec2& b) {
  return {a.x - b.x, a.y - b.y};
}
inline Rational norm2(const Vec2& v) {
  return dot(v, v);
}

// Double estimates for the filters (never for a decision: see RelationDecider::filtered).
struct D2 {
  double x, y;
};
inline D2 approx(const Vec2& v) {
  return {v.x.get_d(), v.y.get_d()};
}
inline double distance(const D2& a, const D2& b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}
inline D2 minus(const D2& a, const D2& b) {
  return {a.x - b.x, a.y - b.y};
}
inline double dot(const D2& u, const D2& v) {
  return u.x * v.x + u.y * v.y;
}
inline double cross(const D2& u, const D2& v) {
  return u.x * v.y - u.y * v.x;
}
/// True when both ends of one segment lie clearly (by more than `margin`, a bound on the error of
/// the doubles' cross products) on one side of the other's line: the closed segments do not meet.
bool clearly_apart(const D2& p, const D2& q, const D2& r, const D2& s, double margin);
/// Distance from p to the segment (a, b).
double segment_distance(const D2& p, const D2& a, const D2& b);
/// 1 + the largest |coordinate|: the scale of the points' doubles' rounding.
double scale(std::initializer_list<D2> points);

enum class ViewKind { straight, circle, ellipse, polygon, sector, other };

/// A shape as the relations see it, converted once per scene: exact data for the exact paths and
/// the same in double for the filters.
struct View {
  ViewKind kind = ViewKind::other;
  Vec2 a, b;  // straight: its two points
  Extent extent = Extent::segment;
  std::optional<std::pair<Vec2, Vec2>> drawn;  // straight: the part drawn on the canvas
  std::optional<Vec2> centre;                  // centre-bearing shapes
  Rational ra, rb;                             // circle: ra = rb = r; ellipse: semi-axes
  Vec2 e1{1, 0}, e2{0, 1};                     // ellipse axes (exact unit vectors)
  std::vector<Vec2> vertices;                  // polygon
  bool simple = true;                          // polygon: no two edges meet except adjacent ones at their vertex
  std::size_t tip_stride = 1;  // the vertices a circumscribed curve passes through: all, or a star's tips
  Vec2 arc_from, arc_to;       // sector: unit directions of the arc's ends
  Rational sweep_deg;          // sector: in (0, 360]
  Vec2 arc_start, arc_end;     // sector: the arc's end points (its radii's outer ends)
  D2 ad{}, bd{}, centre_d{}, e1d{1, 0}, e2d{0, 1}, drawn_from{}, drawn_to{}, arc_start_d{}, arc_end_d{};
  double ra_d = 0, rb_d = 0;
  std::vector<D2> vertices_d;
  double size = 1;         // 1 + the largest |coordinate| of the vertices
  std::vector<D2> trace;   // spiral: a polyline of points on the curve (doubles) …
  double trace_error = 0;  // … within this distance of every point of the curve (certified bound)

  bool round() const { return kind == ViewKind::circle || kind == ViewKind::ellipse; }
  /// A circle, ellipse or sector: a curve with a centre that the conic code handles.
  bool curved() const { return centre && kind != ViewKind::other; }
};

View view_of(const Shape& shape, const Frame& frame);

/// How many chords trace a curve whose second derivative is at most `bend` over a parameter span
/// `span` within 1e-5 frame units of it (a chord over a step h stays within bend·h²/8 of its arc):
/// between `fewest` and 4,000, and 4,000 for a span or bend past the doubles (an exact parameter
/// of 1e308 and more), which no int could hold.
int trace_steps(double span, double bend, int fewest);

/// A circle or an ellipse as conics.hpp takes it.
inline ExactEllipse conic_of(const View& v) {
  return {*v.centre, v.ra, v.rb, v.e1, v.e2};
}

/// A point with its double estimate, borrowed from a View.
struct Pt {
  const Vec2& exact;
  D2 d;
};
inline Pt vertex(const View& v, std::size_t i) {
  i %= v.vertices.size();
  return {v.vertices[i], v.vertices_d[i]};
}

/// Turns slacks into decided relations through the run's FrameBands. Every decision has a fast
/// filtered path (a double estimate far from both band edges) and an exact one.
class RelationDecider {
 public:
  /// Keeps a reference to `bands`: they must outlive the decider.
  RelationDecider(const Frame& frame, const Bands& bands) : bands_(bands, frame) {}
  const FrameBands& bands() const { return bands_; }

  /// A relation whose slack² is an exact rational (frame units²).
  ShapeRelation by_squared(RelationKind kind, const Rational& slack2) const;
  /// A relation whose slack is |√x2 − √y2|, decided exactly.
  ShapeRelation by_root_gap(RelationKind kind, const Rational& x2, const Rational& y2) const;
  /// The filtered path: a double slack estimate `rough` (units) from coordinates of magnitude
  /// below `scale`, by a well-conditioned formula (error below 1e-9·scale); nullopt sends the
  /// caller to its exact path.
  std::optional<ShapeRelation> filtered(RelationKind kind, double rough, double scale) const;
  /// A relation whose slack is only known as a double (first-order or sampled estimates).
  ShapeRelation by_estimate(RelationKind kind, double slack_units) const;
  /// A relation that clearly fails, with its double slack estimate.
  ShapeRelation far(RelationKind kind, double slack_units) const;
  /// A relation that cannot hold at all (a zero-length edge, different vertex counts): no slack.
  static ShapeRelation impossible(RelationKind kind) { return {kind, Decision::fails, std::nullopt, std::nullopt}; }
  /// See FrameBands::clearly_fails.
  bool clearly_fails(double rough_units) const { return bands_.clearly_fails(rough_units); }

  /// All parts must hold; ambiguous when none fails but some are too close to call. The slack is
  /// the largest part's (absent when a part cannot hold at all).
  static ShapeRelation worst(RelationKind kind, const std::vector<ShapeRelation>& parts);
  /// The option with the smallest slack (absent slack counts as infinite).
  static ShapeRelation best(RelationKind kind, const std::vector<ShapeRelation>& options);

  /// The segment (p, q) on the segment (r, s), either way round: slack = the larger endpoint gap.
  ShapeRelation endpoints_match(RelationKind kind, Pt p, Pt q, Pt r, Pt s) const;
  /// Parallel: |sin Δ| × the shorter length; perpendicular: |cos Δ| × the shorter length, of the
  /// directions p→q and r→s (slack² exact).
  ShapeRelation direction(RelationKind kind, Pt p, Pt q, Pt r, Pt s, bool parallel) const;
  /// A point on a circle (exact) or an ellipse (first-order estimate).
  ShapeRelation point_on(RelationKind kind, Pt p, const View& curve) const;

  /// The double estimate of a point's distance to a circle or an ellipse.
  static double curve_gap(const D2& p, const View& curve);
  /// Squared distance from a point to the line through p with direction u.
  static Rational line_distance2(const Vec2& point, const Vec2& p, const Vec2& u);

 private:
  ShapeRelation with_px(RelationKind kind, Decision decision, double slack_units) const {
    return {kind, decision, bands_.to_px(slack_units), std::nullopt};
  }
  FrameBands bands_;
};

// The pair families. Each appends to `out` the relations it decides for the ordered pair (a, b)
// (with `directional_only`, only relations whose meaning depends on the order) and names in
// `out.undecided` those it applies to but cannot decide yet. The registry in
// geometry/relations.cpp says which family applies to which kinds.
using PairFamilyFn = void (*)(const RelationDecider&, const View& a, const View& b, bool directional_only,
                              RelationCheck& out);
void relate_centres(const RelationDecider&, const View&, const View&, bool, RelationCheck&);            // curves.cpp
void relate_straight_straight(const RelationDecider&, const View&, const View&, bool, RelationCheck&);  // straight.cpp
void relate_straight_polygon(const RelationDecider&, const View&, const View&, bool, RelationCheck&);   // straight.cpp
void relate_straight_curve(const RelationDecider&, const View&, const View&, bool, RelationCheck&);     // straight.cpp
void relate_round_round(const RelationDecider&, const View&, const View&, bool, RelationCheck&);        // curves.cpp
void relate_round_polygon(const RelationDecider&, const View&, const View&, bool, RelationCheck&);      // curves.cpp
void relate_round_sector(const RelationDecider&, const View&, const View&, bool, RelationCheck&);       // curves.cpp
void relate_polygon_polygon(const RelationDecider&, const View&, const View&, bool, RelationCheck&);    // polygons.cpp
void relate_sector_edges(const RelationDecider&, const View&, const View&, bool, RelationCheck&);       // polygons.cpp
void relate_topology(const RelationDecider&, const View&, const View&, bool, RelationCheck&);           // topology.cpp

/// Tangency of the line through p and q to a circle or ellipse: |distance to centre − support| on
/// the line's normal n, where the support of the ellipse is √(A²(n·e1)² + B²(n·e2)²)/|n|
/// (straight.cpp). Says nothing about where the contact lies.
ShapeRelation line_tangent(const RelationDecider& decide, RelationKind kind, Pt p, Pt q, const View& curve);

/// Whether the direction of `point` from the sector's centre lies on its arc, allowing ε_num at
/// the arc's ends (straight.cpp).
bool on_arc(const RelationDecider& decide, const View& sector, const Vec2& point);

// Checks of one shape (polygons.cpp).
std::optional<ShapeRelation> label_of(const RelationDecider& decider, const View& v, const std::string& kind);
std::optional<std::string> looks_like_of(const RelationDecider& decider, const View& v, const std::string& kind);

}  // namespace geotruth::geometry::relations
