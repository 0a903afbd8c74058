// Exact predicates: each against a value worked out by hand, with inputs a double cannot hold.
#include "geometry/predicates.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace geotruth;
using namespace geotruth::geometry;

namespace {
Vec2 v(Rational x, Rational y) {
  return {std::move(x), std::move(y)};
}
}  // namespace

TEST(Predicates, OrientationIsExactForThirds) {
  // (0,0), (1/3, 1/3), (2/3, 2/3) are exactly collinear; doubles of 1/3 and 2/3 are not.
  EXPECT_EQ(orientation(v(0, 0), v(Rational(1, 3), Rational(1, 3)), v(Rational(2, 3), Rational(2, 3))), 0);
  EXPECT_EQ(orientation(v(0, 0), v(1, 0), v(0, 1)), 1);
  EXPECT_EQ(orientation(v(0, 0), v(0, 1), v(1, 0)), -1);
  // A point 10^-30 above the line is not on it.
  EXPECT_EQ(orientation(v(0, 0), v(1, 0), v(Rational(1, 2), Rational(1, mpz_class("1000000000000000000000000000000")))),
            1);
}

TEST(Predicates, Distances) {
  // Point (0, 5) to the line through (0,0) and (4,3): |4·5 − 3·0| / 5 = 4 → 16.
  EXPECT_EQ(squared_distance_to_line(v(0, 5), v(0, 0), v(4, 3)), 16);
  // Beyond the segment's end (4,3): distance to (4,3) from (8,6) is 5.
  EXPECT_EQ(squared_distance_to_segment(v(8, 6), v(0, 0), v(4, 3)), 25);
  EXPECT_EQ(line_parameter(v(8, 6), v(0, 0), v(4, 3)), 2);
  EXPECT_EQ(line_parameter(v(Rational(1, 3), 0), v(0, 0), v(1, 0)), Rational(1, 3));
  EXPECT_EQ(point_at(v(0, 0), v(3, 6), Rational(1, 3)), v(1, 2));
}

TEST(Predicates, SegmentCrossing) {
  auto x = segment_crossing(v(0, 0), v(1, 1), v(0, 1), v(1, 0));
  ASSERT_TRUE(x);
  EXPECT_EQ(*x, v(Rational(1, 2), Rational(1, 2)));
  // Touching at an end counts (a T-junction).
  EXPECT_EQ(*segment_crossing(v(0, 0), v(2, 0), v(1, 0), v(1, 5)), v(1, 0));
  EXPECT_FALSE(segment_crossing(v(0, 0), v(1, 0), v(0, 1), v(1, 1)));   // parallel
  EXPECT_FALSE(segment_crossing(v(0, 0), v(2, 0), v(1, 0), v(3, 0)));   // overlap is no crossing
  EXPECT_FALSE(segment_crossing(v(0, 0), v(1, 1), v(2, 0), v(3, -1)));  // lines cross outside
}

TEST(Predicates, DrawnExtentClipsRaysAndLinesToTheFrame) {
  Frame frame;  // 640 × 640
  auto ray = drawn_extent(v(320, 320), v(330, 320), Extent::ray, frame);
  ASSERT_TRUE(ray);
  EXPECT_EQ(ray->first, v(320, 320));
  EXPECT_EQ(ray->second, v(640, 320));
  auto line = drawn_extent(v(100, 0), v(200, 100), Extent::line, frame);
  ASSERT_TRUE(line);
  EXPECT_EQ(line->first, v(100, 0));
  EXPECT_EQ(line->second, v(640, 540));
  auto backwards = drawn_extent(v(200, 100), v(100, 0), Extent::line, frame);
  EXPECT_EQ(backwards->first, v(640, 540));  // direction a → b is kept
  EXPECT_FALSE(drawn_extent(v(700, 700), v(800, 800), Extent::ray, frame));
  auto segment = drawn_extent(v(-5, 0), v(5, 0), Extent::segment, frame);
  EXPECT_EQ(segment->first, v(-5, 0));  // a drawn segment is where it is
}

TEST(Predicates, SegmentCircleMultiplicity) {
  // Circle centre (0,0), radius 5. The chord y = 3 crosses at x = ±4; y = 5 is tangent at (0, 5).
  auto chord = segment_circle_points(v(-10, 3), v(10, 3), v(0, 0), 25);
  ASSERT_EQ(chord.size(), 2u);
  EXPECT_EQ(chord[0].multiplicity, 1);
  EXPECT_DOUBLE_EQ(std::abs(chord[0].x), 4);
  auto tangent = segment_circle_points(v(-10, 5), v(10, 5), v(0, 0), 25);
  ASSERT_EQ(tangent.size(), 1u);
  EXPECT_EQ(tangent[0].multiplicity, 2);
  EXPECT_TRUE(segment_circle_points(v(-10, 6), v(10, 6), v(0, 0), 25).empty());
  // The segment stops before the circle.
  EXPECT_EQ(segment_circle_points(v(-10, 3), v(-4, 3), v(0, 0), 25).size(), 1u);
  EXPECT_TRUE(segment_circle_points(v(-10, 3), v(-5, 3), v(0, 0), 25).empty());
  // Tangency at an irrational-free but double-hostile radius: r = 1/3, line y = 1/3.
  auto third = segment_circle_points(v(-1, Rational(1, 3)), v(1, Rational(1, 3)), v(0, 0), Rational(1, 9));
  ASSERT_EQ(third.size(), 1u);
  EXPECT_EQ(third[0].multiplicity, 2);
}

TEST(Predicates, CircleCircle) {
  // Radii 3 and 2 at distance 5: external tangency; at distance 1: internal tangency.
  auto external = circle_circle_points(v(0, 0), 9, v(5, 0), 4);
  ASSERT_EQ(external.size(), 1u);
  EXPECT_EQ(external[0].multiplicity, 2);
  EXPECT_DOUBLE_EQ(external[0].x, 3);
  auto internal = circle_circle_points(v(0, 0), 9, v(1, 0), 4);
  ASSERT_EQ(internal.size(), 1u);
  EXPECT_EQ(internal[0].multiplicity, 2);
  EXPECT_EQ(circle_circle_points(v(0, 0), 9, v(4, 0), 4).size(), 2u);
  EXPECT_TRUE(circle_circle_points(v(0, 0), 9, v(6, 0), 4).empty());
  EXPECT_TRUE(circle_circle_points(v(0, 0), 9, v(0, 0), 4).empty());
}

TEST(Predicates, CircleGapIsDecidedExactly) {
  // |(3,4)| = 5 exactly: gap 0. √2 circle: the point (1,1) sits on it although √2 is irrational.
  EXPECT_EQ(compare_circle_gap(v(3, 4), v(0, 0), 25, 0), 0);
  EXPECT_EQ(compare_circle_gap(v(1, 1), v(0, 0), 2, 0), 0);
  // (1, 1) against radius 1: gap √2 − 1 ≈ 0.414213562 — above 0.41421356, below 0.41421357.
  EXPECT_EQ(compare_circle_gap(v(1, 1), v(0, 0), 1, Rational(10355339, 25000000)), 1);
  EXPECT_EQ(compare_circle_gap(v(1, 1), v(0, 0), 1, Rational(41421357, 100000000)), -1);
  EXPECT_NEAR(circle_gap(v(1, 1), v(0, 0), 1), std::sqrt(2.0) - 1, 1e-12);
}

// Stroke gaps (crosscheck asks these of geometry): a 640-unit frame is drawn at 1 px per unit,
// so the default band is ε_num = 0.5, ε_vis = 3 units.
TEST(Predicates, CircleCircleGapIsDecidedExactlyAtTheBandEdges) {
  const Bands bands;
  const FrameBands fb(bands, Frame{});
  auto gap = [&](const Rational& d, const Rational& r1, const Rational& r2) {
    return circle_circle_gap(v(0, 0), r1 * r1, v(d, 0), r2 * r2, fb);
  };
  EXPECT_EQ(gap(Rational(34, 10), 1, 2).decision, Decision::holds);  // apart by 0.4
  EXPECT_NEAR(gap(Rational(34, 10), 1, 2).slack_px, 0.4, 1e-9);
  EXPECT_EQ(gap(Rational(36, 10), 1, 2).decision, Decision::ambiguous);  // 0.6
  EXPECT_EQ(gap(Rational(61, 10), 1, 2).decision, Decision::fails);      // 3.1
  EXPECT_EQ(gap(Rational(32, 10), 5, 2).decision, Decision::holds);      // nested: |3.2 − 3| = 0.2
  // Exactly on the edge ε_num (0.5 ≤ 0.5 holds) and 10⁻³⁰ past it: only the exact path can tell.
  const Rational tiny(1, mpz_class("1000000000000000000000000000000"));
  EXPECT_EQ(gap(Rational(7, 2), 1, 2).decision, Decision::holds);
  EXPECT_EQ(gap(Rational(7, 2) + tiny, 1, 2).decision, Decision::ambiguous);
  // Irrational radii √2 and √8 with centres 3√2 apart (d² = 18): tangent exactly.
  EXPECT_EQ(circle_circle_gap(v(0, 0), 2, v(3, 3), 8, fb).decision, Decision::holds);
}

TEST(Predicates, CircleSegmentGap) {
  const Bands bands;
  const FrameBands fb(bands, Frame{});
  // Circle r = 5 at the origin; the segment y = 5 + δ from x = −10 to 10.
  auto gap = [&](const Rational& y) { return circle_segment_gap(v(0, 0), 25, v(-10, y), v(10, y), fb); };
  EXPECT_EQ(gap(5).decision, Decision::holds);
  EXPECT_EQ(gap(Rational(11, 2)).decision, Decision::holds);  // 0.5: the edge holds
  EXPECT_EQ(gap(6).decision, Decision::ambiguous);
  EXPECT_EQ(gap(9).decision, Decision::fails);
  EXPECT_NEAR(gap(9).slack_px, 4, 1e-9);
}
