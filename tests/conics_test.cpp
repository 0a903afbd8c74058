// Exact crossing counts of ellipses, arcs and segments (geometry/conics.hpp): hand-worked
// configurations, the circular kernel as an independent second method for circles, and
// invariance under an exact rational rotation.
#include "geometry/conics.hpp"
#include "geometry/predicates.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace geotruth;
using namespace geotruth::geometry;

namespace {

Rational q(long p, long d = 1) {
  return Rational(p) / d;  // canonical, unlike mpq_class(p, d)
}

// x²/a² + y²/b² = 1 around c, axes along x and y (or along the rotation `e1`).
ExactEllipse ellipse(Rational cx, Rational cy, Rational a, Rational b, Vec2 e1 = {1, 0}) {
  return {{cx, cy}, a, b, e1, {-e1.y, e1.x}};
}

// The same configuration turned by the exact rotation (3/5, 4/5) about the origin.
const Vec2 kTurn{q(3, 5), q(4, 5)};
Vec2 turned(const Vec2& p) {
  return {kTurn.x * p.x - kTurn.y * p.y, kTurn.y * p.x + kTurn.x * p.y};
}
ExactEllipse turned(const ExactEllipse& e) {
  return {turned(e.centre), e.a, e.b, turned(e.e1), turned(e.e2)};
}
ExactArc turned(const ExactArc& a) {
  return {turned(a.centre), a.r, turned(a.from), turned(a.to)};
}

}  // namespace

TEST(Conics, TwoEllipsesHandWorked) {
  const auto wide = ellipse(0, 0, 2, 1);
  struct Case {
    const char* what;
    ExactEllipse other;
    int crossings;
  };
  for (const auto& c : std::vector<Case>{
           {"the same ellipse turned 90°: four crossings", ellipse(0, 0, 2, 1, {0, 1}), 4},
           {"unit circle: touches at (0, ±1), two tangencies", ellipse(0, 0, 1, 1), 4},
           {"circle r = 2: touches at (±2, 0)", ellipse(0, 0, 2, 2), 4},
           {"circle r = 3/2: four transversal crossings", ellipse(0, 0, q(3, 2), q(3, 2)), 4},
           {"circle r = 1/2 inside: none", ellipse(0, 0, q(1, 2), q(1, 2)), 0},
           {"shifted by 4 along x: touch at (2, 0)", ellipse(4, 0, 2, 1), 2},
           {"shifted by 3 along x: two crossings", ellipse(3, 0, 2, 1), 2},
           {"shifted by 41/10: apart", ellipse(q(41, 10), 0, 2, 1), 0},
           {"circle r = 1 at (2, 1): through (2, 0) and once more", ellipse(2, 1, 1, 1), 2},
           {"circle r = 1 at (0, 2): touches (0, 1)", ellipse(0, 2, 1, 1), 2},
       }) {
    EXPECT_EQ(ellipse_ellipse_crossings(wide, c.other), c.crossings) << c.what;
    EXPECT_EQ(ellipse_ellipse_crossings(c.other, wide), c.crossings) << c.what << " (other way round)";
    EXPECT_EQ(ellipse_ellipse_crossings(turned(wide), turned(c.other)), c.crossings) << c.what << " (turned)";
  }
  EXPECT_EQ(ellipse_ellipse_crossings(wide, wide), std::nullopt);  // the same curve
}

TEST(Conics, NearMissesAreExact) {
  // A circle touching the ellipse x²/4 + y² = 1 at (2, 0) from outside, and the same circle moved
  // by 10⁻¹⁵ either way: no double would tell these apart.
  const auto wide = ellipse(0, 0, 2, 1);
  const Rational tiny = q(1, 1'000'000'000'000'000);
  EXPECT_EQ(ellipse_ellipse_crossings(wide, ellipse(3, 0, 1, 1)), 2);
  EXPECT_EQ(ellipse_ellipse_crossings(wide, ellipse(3 - tiny, 0, 1, 1)), 2);  // two crossings near (2, 0)
  EXPECT_EQ(ellipse_ellipse_crossings(wide, ellipse(3 + tiny, 0, 1, 1)), 0);
  // The segment y = 1 touches it at (0, 1); 10⁻¹⁵ lower it crosses twice, higher it misses.
  EXPECT_EQ(segment_ellipse_crossings({-3, 1}, {3, 1}, wide), 2);
  EXPECT_EQ(segment_ellipse_crossings({-3, 1 - tiny}, {3, 1 - tiny}, wide), 2);
  EXPECT_EQ(segment_ellipse_crossings({-3, 1 + tiny}, {3, 1 + tiny}, wide), 0);
}

TEST(Conics, SegmentsAgainstTheCircularKernel) {
  // Circles as ellipses (a = b) against CGAL's circular kernel, on segments with small integer
  // coordinates: many pass through lattice points on the circle x² + y² = 25 or touch it.
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> coordinate(-7, 7);
  int compared = 0, touching = 0;
  for (int i = 0; i < 3000; ++i) {
    const Vec2 p{coordinate(rng), coordinate(rng)}, r{coordinate(rng), coordinate(rng)};
    if (p == r) continue;
    int kernel = 0;
    for (const auto& x : segment_circle_points(p, r, {0, 0}, 25)) kernel += x.multiplicity;
    const int conic = segment_ellipse_crossings(p, r, ellipse(0, 0, 5, 5));
    EXPECT_EQ(conic, kernel) << "(" << p.x << "," << p.y << ")–(" << r.x << "," << r.y << ")";
    EXPECT_EQ(segment_ellipse_crossings(turned(p), turned(r), turned(ellipse(0, 0, 5, 5))), conic);
    ++compared;
    touching += kernel > 0;
  }
  EXPECT_GT(compared, 2900);
  EXPECT_GT(touching, 500);
}

TEST(Conics, CirclesAgainstTheCircularKernel) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> coordinate(-6, 6), radius(1, 6);
  int tangent = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec2 c1{coordinate(rng), coordinate(rng)}, c2{coordinate(rng), coordinate(rng)};
    const int r1 = radius(rng), r2 = radius(rng);
    if (c1 == c2 && r1 == r2) continue;
    int kernel = 0;
    for (const auto& x : circle_circle_points(c1, r1 * r1, c2, r2 * r2)) {
      kernel += x.multiplicity;
      tangent += x.multiplicity == 2;
    }
    EXPECT_EQ(ellipse_ellipse_crossings(ellipse(c1.x, c1.y, r1, r1), ellipse(c2.x, c2.y, r2, r2)), kernel);
  }
  EXPECT_GT(tangent, 20);  // integer radii and centres give exact tangencies
}

TEST(Conics, Arcs) {
  // The quarter arc of the unit circle from 0° to 90°, and the three-quarter arc from 0° to 270°.
  const ExactArc quarter{{0, 0}, 1, {1, 0}, {0, 1}}, three_quarters{{0, 0}, 1, {1, 0}, {0, -1}};
  const ExactArc full{{0, 0}, 1, {1, 0}, {1, 0}};
  struct Case {
    const char* what;
    Vec2 p, r;
    int quarter, three_quarters, full;
  };
  for (const auto& c : std::vector<Case>{
           {"x = 0: (0, 1) ends the quarter, (0, −1) ends the three quarters", {0, -2}, {0, 2}, 1, 2, 2},
           {"y = 1/2: the 30° point on the quarter, 30° and 150° on the three quarters",
            {-2, q(1, 2)},
            {2, q(1, 2)},
            1,
            2,
            2},
           {"y = −1/2: 210° and 330°; only 210° is on the three quarters", {-2, -q(1, 2)}, {2, -q(1, 2)}, 0, 1, 2},
           {"y = 1 touches at 90°, the quarter's end", {-2, 1}, {2, 1}, 2, 2, 2},
           {"x = −1 touches at 180°", {-1, -2}, {-1, 2}, 0, 2, 2},
           {"a chord inside the disc", {q(-1, 2), 0}, {q(1, 2), 0}, 0, 0, 0},
       }) {
    EXPECT_EQ(arc_segment_crossings(quarter, c.p, c.r), c.quarter) << c.what;
    EXPECT_EQ(arc_segment_crossings(three_quarters, c.p, c.r), c.three_quarters) << c.what;
    EXPECT_EQ(arc_segment_crossings(full, c.p, c.r), c.full) << c.what;
    EXPECT_EQ(arc_segment_crossings(turned(quarter), turned(c.p), turned(c.r)), c.quarter) << c.what << " (turned)";
    EXPECT_EQ(arc_segment_crossings(turned(three_quarters), turned(c.p), turned(c.r)), c.three_quarters) << c.what;
  }
  // Against ellipses: x²/4 + y²/(1/4) = 1 meets the unit circle at x = ±√(4/5)·…: four points,
  // at about ±26.6° and ±153.4°; the quarter holds one, the three quarters three.
  const auto flat = ellipse(0, 0, 2, q(1, 2));
  EXPECT_EQ(ellipse_ellipse_crossings(ellipse(0, 0, 1, 1), flat), 4);
  EXPECT_EQ(arc_ellipse_crossings(quarter, flat), 1);
  EXPECT_EQ(arc_ellipse_crossings(three_quarters, flat), 3);
  EXPECT_EQ(arc_ellipse_crossings(full, flat), 4);
  EXPECT_EQ(arc_ellipse_crossings(turned(three_quarters), turned(flat)), 3);
  // The circle r = 1 around (2, 0) touches the unit circle at (1, 0), the quarter's start (the
  // parametrization's point at infinity); 1/10 further it misses.
  EXPECT_EQ(arc_ellipse_crossings(quarter, ellipse(2, 0, 1, 1)), 2);
  EXPECT_EQ(arc_ellipse_crossings(quarter, ellipse(q(21, 10), 0, 1, 1)), 0);
}

TEST(Conics, PointInEllipse) {
  const auto e = ellipse(1, 1, 2, 1, {q(3, 5), q(4, 5)});
  EXPECT_TRUE(ellipse_has_point(e, {1, 1}));
  EXPECT_TRUE(ellipse_has_point(e, {1 + 2 * q(3, 5), 1 + 2 * q(4, 5)}));  // on the curve, major vertex
  EXPECT_FALSE(ellipse_has_point(e, {1 + q(2001, 1000) * q(3, 5), 1 + q(2001, 1000) * q(4, 5)}));
  EXPECT_FALSE(ellipse_has_point(e, {1 - q(11, 10) * q(4, 5), 1 + q(11, 10) * q(3, 5)}));  // past the minor vertex
}
