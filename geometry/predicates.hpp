// Exact geometric predicates on plain data (Vec2, Rational). CGAL lives only in predicates.cpp.
//
// Every function here decides exactly: inputs are rationals, straight constructions use CGAL's
// Epeck, anything with a square root (circle crossings, distances to circles) uses CGAL's exact
// circular kernel or CORE. Doubles leave this module only as reported slack or coordinates for
// drawing, never as the basis of a decision.
#pragma once

#include <array>
#include <geotruth/bands.hpp>
#include <geotruth/scene.hpp>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace geotruth::geometry {

/// Sign of the cross product (b − a) × (c − a): +1 when a, b, c turn counter-clockwise in a
/// y-up frame, −1 clockwise, 0 exactly collinear (including any coincident points).
int orientation(const Vec2& a, const Vec2& b, const Vec2& c);

/// Squared distance from p to the infinite line through a and b. Precondition: a ≠ b.
Rational squared_distance_to_line(const Vec2& p, const Vec2& a, const Vec2& b);

/// Squared distance from p to the closed segment [a, b]. Precondition: a ≠ b.
Rational squared_distance_to_segment(const Vec2& p, const Vec2& a, const Vec2& b);

/// Sign of (squared distance from p to the line through a, b) − r2, decided on intervals when
/// far from 0 and exactly otherwise. Cheaper than computing the distance. Precondition: a ≠ b.
int compare_squared_distance_to_line(const Vec2& p, const Vec2& a, const Vec2& b, const Rational& r2);

/// As above, for the closed segment [a, b].
int compare_squared_distance_to_segment(const Vec2& p, const Vec2& a, const Vec2& b, const Rational& r2);

/// Parameter t of p's orthogonal projection onto the line a→b: proj(p) = a + t·(b − a), so
/// t ∈ [0, 1] exactly when the projection falls on the segment. Precondition: a ≠ b.
Rational line_parameter(const Vec2& p, const Vec2& a, const Vec2& b);

/// The point a + t·(b − a).
Vec2 point_at(const Vec2& a, const Vec2& b, const Rational& t);

/// The single crossing point of the closed segments [a, b] and [c, d], if they meet in exactly
/// one point (touching ends included). Empty when disjoint or overlapping along a stretch.
/// Preconditions: a ≠ b, c ≠ d.
std::optional<Vec2> segment_crossing(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d);

/// The part of the straight piece through a and b that lies inside the frame rectangle
/// [0, width] × [0, height]: for `segment` the segment itself (unclipped: a drawn segment is
/// drawn where it is), for `ray` from a through b to the frame's edge, for `line` across the
/// frame. Empty when a ray or line misses the frame. Precondition: a ≠ b.
std::optional<std::pair<Vec2, Vec2>> drawn_extent(const Vec2& a, const Vec2& b, Extent extent, const Frame& frame);

/// An axis-aligned box [x0, x1] × [y0, y1] with x0 < x1, y0 < y1 (an entity's box).
using Box = std::array<Rational, 4>;

/// True when the closed segment [a, b] passes through the box's open interior (touching its
/// boundary or running along an edge does not count). A zero-length segment is its point.
bool segment_enters_box(const Vec2& a, const Vec2& b, const Box& box);

/// Exact squared distance from p to the closed box (0 inside).
Rational squared_distance_to_box(const Vec2& p, const Box& box);

/// A closed region: a circle (centre, radius) or a simple polygon.
struct Region {
  std::optional<Vec2> center;
  Rational radius{0};
  std::vector<Vec2> polygon;
};

/// True when `inner` lies inside `outer` (boundaries may touch), decided exactly: circle in circle
/// by |c₁c₂| ≤ r₁ − r₂; polygon in circle by its vertices; circle in polygon by the centre inside
/// and every edge at least r away; polygon in polygon by its vertices inside and no proper edge
/// crossing. Preconditions: polygons are simple.
bool region_contains(const Region& outer, const Region& inner);

/// True when p lies inside or on the region.
bool region_has_point(const Region& region, const Vec2& p);

/// Points converted once for many exact queries: certified interval enclosures decide most
/// queries, exact rationals decide the rest (the answers are always exact).
class PointSet {
 public:
  explicit PointSet(const std::vector<Vec2>& points);
  ~PointSet();
  PointSet(PointSet&&) noexcept;

  /// Indices of the points whose squared distance to the closed segment [a, b] is < r2, in
  /// increasing order. Precondition: a ≠ b.
  std::vector<std::size_t> near_segment(const Vec2& a, const Vec2& b, const Rational& r2) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A point where a curve meets a circle. Its coordinates are algebraic (one square root), so
/// they are given as doubles for reporting; `multiplicity` is exact: 1 a crossing, 2 a tangency.
struct CirclePoint {
  double x = 0, y = 0;
  int multiplicity = 1;
};

/// Where the closed segment [a, b] meets the circle (centre c, squared radius r2 > 0).
std::vector<CirclePoint> segment_circle_points(const Vec2& a, const Vec2& b, const Vec2& c, const Rational& r2);

/// Where two circles meet; empty for disjoint or identical circles. r2 values are squared radii.
std::vector<CirclePoint> circle_circle_points(const Vec2& c1, const Rational& r1_squared, const Vec2& c2,
                                              const Rational& r2_squared);

/// Compares the gap | |p − c| − r | between p and the circle (centre c, radius r = √r2) with
/// eps ≥ 0, exactly (CORE square roots): returns −1, 0 or +1 as gap <, =, > eps.
int compare_circle_gap(const Vec2& p, const Vec2& c, const Rational& r2, const Rational& eps);

/// Compares |√x2 − √y2| with eps ≥ 0 exactly (CORE square roots): −1, 0 or +1. Preconditions:
/// x2, y2 ≥ 0. The building block of tangency and incidence bands: a distance against a radius.
int compare_root_gap(const Rational& x2, const Rational& y2, const Rational& eps);

/// The gap | |p − c| − r | as a double, for reporting slack only.
double circle_gap(const Vec2& p, const Vec2& c, const Rational& r2);

/// A gap between two strokes decided against the run's band, with its size for reporting.
struct GapDecision {
  Decision decision = Decision::fails;
  double slack_px = 0;
};

/// The gap between the strokes of two circles (centres c1, c2, radii √r1², √r2²) where they come
/// closest: the smaller of | |c1c2| − (r1 + r2) | (apart) and | |c1c2| − |r1 − r2| | (one inside
/// the other). Decided exactly (CORE square roots behind a double filter).
GapDecision circle_circle_gap(const Vec2& c1, const Rational& r1_squared, const Vec2& c2, const Rational& r2_squared,
                              const FrameBands& bands);

/// The gap | dist(c, [a, b]) − r | between a circle's stroke and a segment's, decided exactly.
GapDecision circle_segment_gap(const Vec2& c, const Rational& r_squared, const Vec2& a, const Vec2& b,
                               const FrameBands& bands);

}  // namespace geotruth::geometry
