// The one decision model: exact classification at the band edges, conversion between frame units
// and pixels, and `auto` bands estimated from the residuals of declared facts.
#include <gtest/gtest.h>

#include <cmath>
#include <geotruth/bands.hpp>
#include <geotruth/incidence.hpp>
#include <random>

using namespace geotruth;

namespace {

Frame unit_square() {
  Frame f;
  f.width = f.height = 1;
  f.y = YAxis::up;
  return f;
}

// A scene of `facts` declared point-on-line facts: P is the midpoint of A and B, and every
// position is moved by Gaussian noise of `sigma` px (0: exact), written to 0.01 px.
Scene noisy_midpoints(int facts, double sigma, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> coordinate(40, 600);
  std::normal_distribution<double> noise(0, sigma > 0 ? sigma : 1);
  auto jitter = [&](double v) -> Rational {
    const double moved = sigma > 0 ? v + noise(random) : v;
    return Rational(static_cast<long>(std::lround(moved * 100))) / 100;
  };
  Scene s;
  s.id = "noisy";
  for (int k = 0; k < facts; ++k) {
    const double ax = coordinate(random), ay = coordinate(random), bx = coordinate(random), by = coordinate(random);
    if (std::hypot(bx - ax, by - ay) < 100) continue;  // short pieces make the line's own noise dominate
    const std::size_t first = s.points.size();
    const std::string n = std::to_string(k);
    s.points.push_back({"A" + n, Vec2{jitter(ax), jitter(ay)}});
    s.points.push_back({"P" + n, Vec2{jitter((ax + bx) / 2), jitter((ay + by) / 2)}});
    s.points.push_back({"B" + n, Vec2{jitter(bx), jitter(by)}});
    s.lines.push_back({"", {first, first + 1, first + 2}});
  }
  return s;
}

}  // namespace

TEST(Bands, EdgesAreExactInFrameUnits) {
  const Bands bands;  // 0.5 px and 3 px; the unit square is drawn at 640 px
  const FrameBands at640(bands, unit_square());
  EXPECT_EQ(at640.eps_num(), Rational(1, 1280));
  EXPECT_EQ(at640.eps_vis(), Rational(3, 640));
  EXPECT_EQ(at640.decide(Rational(1, 1280)), Decision::holds);  // the edge itself holds
  EXPECT_EQ(at640.decide(Rational(1, 1280) + Rational(1, 1000000000)), Decision::ambiguous);
  EXPECT_EQ(at640.decide(Rational(3, 640) - Rational(1, 1000000000)), Decision::ambiguous);
  EXPECT_EQ(at640.decide(Rational(3, 640)), Decision::fails);  // ε_vis is visible
  EXPECT_EQ(at640.decide_squared(Rational(1, 1280 * 1280)), Decision::holds);
  EXPECT_EQ(at640.decide_squared(Rational(9, 640 * 640)), Decision::fails);
  EXPECT_DOUBLE_EQ(at640.to_px(Rational(1, 64)), 10);
  EXPECT_EQ(at640.to_units(6.4), Rational(6.4) / 640);
  EXPECT_EQ(FrameBands::decide(-1, -1), Decision::holds);
  EXPECT_EQ(FrameBands::decide(0, -1), Decision::holds);
  EXPECT_EQ(FrameBands::decide(1, -1), Decision::ambiguous);
  EXPECT_EQ(FrameBands::decide(1, 0), Decision::fails);
}

TEST(Bands, PixelsPerUnitFollowTheFrameAndTheRenderSize) {
  Bands bands;
  Frame image;  // 640 × 640 pixels: one unit is one pixel
  EXPECT_EQ(bands.pixels_per_unit(image), 1);
  image.width = 1280;  // the longer side is drawn at its own size
  EXPECT_EQ(bands.pixels_per_unit(image), 1);
  EXPECT_EQ(bands.pixels_per_unit(unit_square()), 640);
  bands.render_size_px = 320;
  EXPECT_EQ(bands.pixels_per_unit(image), Rational(1, 4));
  EXPECT_EQ(bands.pixels_per_unit(unit_square()), 320);
}

TEST(Bands, DatasetDefaultsSayWhereTheyCameFrom) {
  EXPECT_EQ(dataset_bands("").source, "default");
  EXPECT_EQ(dataset_bands("geometry3k").source, "dataset:geometry3k");
  EXPECT_GT(dataset_bands("geometry3k").eps_num_px, dataset_bands("").eps_num_px);  // hand-clicked is wider
  EXPECT_EQ(dataset_bands("gepbench").source, "dataset:gepbench");
  EXPECT_TRUE(hand_annotated("ai2d"));
  EXPECT_FALSE(hand_annotated("gepbench"));
}

TEST(Bands, EvidenceQuantilesFromTheHistogram) {
  BandEvidence e;
  for (int k = 0; k < 1000; ++k) e.add(k / 100.0);  // uniform on [0, 10)
  EXPECT_NEAR(e.quantile(0.5), 5, 0.1);
  EXPECT_NEAR(e.quantile(0.9), 9, 0.1);
  EXPECT_EQ(e.count, 1000u);
  EXPECT_EQ(e.exact, 1u);
  e.add(1e9);  // far residuals land in the last bin, they are not lost
  EXPECT_EQ(e.count, 1001u);
  e.add(std::nan(""));  // not a residual
  EXPECT_EQ(e.count, 1001u);
}

// The residual of "P on AB" with every position moved by N(0, σ²) per coordinate has, to first
// order, the perpendicular noise of P minus the line's at P: σ_r² = σ² (1 + (1 − t)² + t²), so
// 1.5 σ² at the midpoint. The auto band is ε_num = 2.5 σ_r, ε_vis = 5 σ_r.
TEST(Bands, AutoRecoversInjectedNoiseWithinAQuarter) {
  for (double sigma : {1.0, 2.0}) {
    const Scene s = noisy_midpoints(3000, sigma, 7);
    BandEvidence evidence;
    add_declared_residuals(s, Bands{}, evidence);
    ASSERT_GT(evidence.count, 1000u) << s.lines.size() << " lines, " << s.points.size() << " points";
    const Bands band = estimate_bands(evidence, dataset_bands(""));
    const double truth = std::sqrt(1.5) * sigma;
    EXPECT_EQ(band.source, "auto") << band.reason;
    EXPECT_NEAR(band.eps_num_px, 2.5 * truth, 0.25 * 2.5 * truth) << band.reason;
    EXPECT_NEAR(band.eps_vis_px, 5 * truth, 0.25 * 5 * truth) << band.reason;
  }
}

TEST(Bands, AutoIsRobustToAFewGrossErrors) {
  Scene s = noisy_midpoints(3000, 1.0, 11);
  // One fact in ten is an annotation error: P moved 20 px off its line.
  for (std::size_t k = 0; k < s.lines.size(); k += 10) s.points[s.lines[k].through[1]].at->y += 20;
  BandEvidence evidence;
  add_declared_residuals(s, Bands{}, evidence);
  const Bands band = estimate_bands(evidence, dataset_bands(""));
  EXPECT_NEAR(band.eps_num_px, 2.5 * std::sqrt(1.5), 0.25 * 2.5 * std::sqrt(1.5)) << band.reason;
}

TEST(Bands, AutoOnExactScenesFallsBackToTheDefault) {
  const Scene s = noisy_midpoints(500, 0, 3);
  BandEvidence evidence;
  add_declared_residuals(s, Bands{}, evidence);
  const Bands band = estimate_bands(evidence, dataset_bands(""));
  EXPECT_EQ(band.source, "default") << band.reason;
  EXPECT_EQ(band.eps_num_px, 0.5);
  EXPECT_EQ(band.eps_vis_px, 3);
  EXPECT_NE(band.reason.find("auto"), std::string::npos);  // says that auto was tried
}

TEST(Bands, AutoWithTooFewResidualsKeepsTheFloor) {
  const Scene s = noisy_midpoints(5, 3.0, 5);
  BandEvidence evidence;
  add_declared_residuals(s, Bands{}, evidence);
  const Bands band = estimate_bands(evidence, dataset_bands("geometry3k"));
  EXPECT_EQ(band.source, "dataset:geometry3k");
  EXPECT_NE(band.reason.find("too few"), std::string::npos);
}

TEST(Bands, GapBandReadsTheDrawingStylesOfArrows) {
  // 80 arrow ends touch (2 px), 20 float 30 px short: the 90th percentile lies halfway into the
  // 30 px bin, so gaps up to 30.05 px hold and 60.1 px is clearly detached.
  BandEvidence gaps;
  for (int i = 0; i < 80; ++i) gaps.add(2);
  for (int i = 0; i < 20; ++i) gaps.add(30);
  Bands b = dataset_bands("ai2d");
  estimate_gap_band(gaps, b);
  EXPECT_NEAR(b.gap_num_px, 30.05, 1e-9);
  EXPECT_NEAR(b.gap_vis_px, 60.1, 1e-9);
  EXPECT_NE(b.gap_reason.find("100 arrow gaps"), std::string::npos) << b.gap_reason;
  const Bands g = b.for_gaps();
  EXPECT_EQ(g.eps_num_px, b.gap_num_px);
  EXPECT_EQ(g.eps_vis_px, b.gap_vis_px);
  // Arrows that all touch: the band's own edges are the least.
  BandEvidence touching;
  for (int i = 0; i < 30; ++i) touching.add(0.5);
  Bands t = dataset_bands("ai2d");
  estimate_gap_band(touching, t);
  EXPECT_EQ(t.gap_num_px, t.eps_num_px);
  EXPECT_EQ(t.gap_vis_px, t.eps_vis_px);
  // Too few gaps: no detachment band, the band itself decides.
  BandEvidence few;
  for (int i = 0; i < 19; ++i) few.add(30);
  Bands f = dataset_bands("ai2d");
  estimate_gap_band(few, f);
  EXPECT_EQ(f.gap_num_px, 0);
  EXPECT_EQ(f.for_gaps().eps_vis_px, f.eps_vis_px);
}

TEST(Bands, ResidualsOfCirclesLeaveOutThePointThatSetsTheRadius) {
  Scene s;
  s.id = "c";
  s.points = {{"O", Vec2{100, 100}}, {"A", Vec2{130, 100}}, {"B", Vec2{100, 132}}, {"C", Vec2{70, 100}}};
  Circle c;
  c.center_point = 0;
  c.center = Vec2{100, 100};
  c.through = {1, 2, 3};  // radii 30, 32, 30: the lower median 30 sets the radius
  s.circles.push_back(c);
  BandEvidence evidence;
  add_declared_residuals(s, Bands{}, evidence);
  EXPECT_EQ(evidence.count, 2u);  // B (2 px off) and the other 30-px point (0 px)
  EXPECT_EQ(evidence.exact, 1u);
  EXPECT_GE(evidence.quantile(1.0), 2.0);  // to the histogram's bin width
  EXPECT_LE(evidence.quantile(1.0), 2.0 + BandEvidence::kBinPx + 1e-9);
}
