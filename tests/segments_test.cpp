// Filtered segment queries (geometry/segments): each against the exact predicates pair by pair, on
// lattice segments full of the cases a filter cannot decide (shared ends, T-junctions, collinear
// overlaps, crossings 10^-30 apart), plus closed forms worked by hand.
#include "geometry/segments.hpp"

#include <gtest/gtest.h>

#include <geotruth/input.hpp>
#include <geotruth/work_limit.hpp>
#include <numeric>
#include <random>

#include "geometry/predicates.hpp"

using namespace geotruth;
using namespace geotruth::geometry;

namespace {

Vec2 v(Rational x, Rational y) {
  return {std::move(x), std::move(y)};
}

const Rational kTiny = Rational(1) / mpz_class("1000000000000000000000000000000");  // 10^-30

std::optional<EndPoints> ends(const std::pair<Vec2, Vec2>& segment) {
  return EndPoints{&segment.first, &segment.second};
}

std::vector<std::optional<EndPoints>> pointers(const std::vector<std::pair<Vec2, Vec2>>& segments) {
  std::vector<std::optional<EndPoints>> out;
  for (const auto& s : segments) out.push_back(ends(s));
  return out;
}

// Segments on a small lattice (many coincidences), a few nudged by 10^-30 (invisible to doubles).
std::vector<std::pair<Vec2, Vec2>> lattice_segments(std::size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> coordinate(0, 6), nudge(0, 5);
  std::vector<std::pair<Vec2, Vec2>> out;
  while (out.size() < n) {
    Vec2 a = v(coordinate(random), coordinate(random)), b = v(coordinate(random), coordinate(random));
    if (a == b) continue;
    if (nudge(random) == 0) b.y += kTiny;
    out.emplace_back(std::move(a), std::move(b));
  }
  return out;
}

}  // namespace

TEST(Segments, CrossingsWorkedByHand) {
  const std::vector<std::pair<Vec2, Vec2>> segments = {
      {v(0, 0), v(4, 4)},               // 0: y = x
      {v(0, 4), v(4, 0)},               // 1: x + y = 4, crosses 0 at (2, 2)
      {v(4, 4), v(6, 4)},               // 2: touches 0 at its end (4, 4)
      {v(1, 1), v(3, 3)},               // 3: on 0 along a stretch (no single point); crosses 1 at (2, 2)
      {v(5, 0), v(5, 1)},               // 4: meets nothing
      {v(0, Rational(1, 3)), v(3, 0)},  // 5: y = 1/3 − x/9 meets y = x at x = 3/10; 1 only at x = 33/8 > 3
      {v(2, 2 + kTiny), v(2, 5)},       // 6: starts 10^-30 above (2, 2): misses 0, 1 and 3
  };
  const auto found = SegmentSet(pointers(segments)).crossings();
  const std::vector<std::tuple<std::size_t, std::size_t, Vec2>> expected = {
      {0, 1, v(2, 2)}, {0, 2, v(4, 4)}, {0, 5, v(Rational(3, 10), Rational(3, 10))}, {1, 3, v(2, 2)}};
  ASSERT_EQ(found.size(), expected.size());
  for (std::size_t k = 0; k < found.size(); ++k) {
    EXPECT_EQ(found[k].first, std::get<0>(expected[k]));
    EXPECT_EQ(found[k].second, std::get<1>(expected[k]));
    EXPECT_EQ(found[k].at, std::get<2>(expected[k]));
  }
}

TEST(Segments, CrossingsAgreeWithTheExactPredicatePairByPair) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto segments = lattice_segments(120, seed);
    std::vector<SegmentCrossing> expected;
    for (std::size_t i = 0; i < segments.size(); ++i)
      for (std::size_t j = i + 1; j < segments.size(); ++j)
        if (auto x = segment_crossing(segments[i].first, segments[i].second, segments[j].first, segments[j].second))
          expected.push_back({i, j, *x});
    const auto found = SegmentSet(pointers(segments)).crossings();
    ASSERT_EQ(found.size(), expected.size()) << "seed " << seed;
    for (std::size_t k = 0; k < found.size(); ++k) {
      EXPECT_EQ(found[k].first, expected[k].first);
      EXPECT_EQ(found[k].second, expected[k].second);
      EXPECT_EQ(found[k].at, expected[k].at);
    }
    EXPECT_GT(expected.size(), 1000u);  // the lattice really is crowded
  }
}

TEST(Segments, AbsentSegmentsPairWithNothing) {
  const std::vector<std::pair<Vec2, Vec2>> segments = {{v(0, 0), v(2, 2)}, {v(0, 2), v(2, 0)}};
  const auto found = SegmentSet({ends(segments[0]), std::nullopt, ends(segments[1])}).crossings();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].first, 0u);
  EXPECT_EQ(found[0].second, 2u);
  EXPECT_EQ(found[0].at, v(1, 1));
}

// The sweep examines only pairs whose boxes overlap: 2,000 short segments in a row cost about
// one pair each, where all pairs would be two million.
TEST(Segments, SparseSegmentsAreNotComparedPairwise) {
  std::vector<std::pair<Vec2, Vec2>> segments;
  for (int k = 0; k < 2000; ++k) segments.emplace_back(v(3 * k, 0), v(3 * k + 2, 1));
  WorkLimits limits;
  limits.max_pairs = 10'000;
  const WorkBudget budget(limits);
  EXPECT_TRUE(SegmentSet(pointers(segments)).crossings().empty());
  EXPECT_TRUE(SegmentSet(pointers(segments)).maybe_collinear_pairs(Rational(1, 4)).empty());
  // The same segments overlapping in x: every pair is examined, and the budget says so.
  for (auto& s : segments) s.second.x += 6000;
  EXPECT_THROW(SegmentSet(pointers(segments)).crossings(), InputError);
}

// Every pair collinear within √r2 that touches within √r2 is kept (the shorter piece's ends within
// √r2 of the longer one's line, as the incidence builder asks), on pieces built to straddle the band.
TEST(Segments, CollinearCandidatesKeepEveryPairWithinTheBand) {
  std::mt19937 random(7);
  std::uniform_int_distribution<int> offset(-8, 8), start(0, 20), length(1, 20);
  const Rational r2 = Rational(1, 4);  // 0.5 px
  std::vector<std::pair<Vec2, Vec2>> pieces;
  for (int k = 0; k < 300; ++k) {
    const int x = start(random);
    // Along y = x / 3, moved off it by multiples of 1/16 (the band's edge, 1/2, is hit exactly).
    const Rational along = Rational(x) / 3, rise = Rational(length(random)) / 3;
    pieces.emplace_back(v(x, along + Rational(offset(random)) / 16),
                        v(x + 3 * rise, along + rise + Rational(offset(random)) / 16));
  }
  const auto candidates = SegmentSet(pointers(pieces)).maybe_collinear_pairs(r2);
  std::size_t within = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    for (std::size_t j = i + 1; j < pieces.size(); ++j) {
      auto length2 = [](const std::pair<Vec2, Vec2>& s) -> Rational {
        const Rational dx = s.second.x - s.first.x, dy = s.second.y - s.first.y;
        return dx * dx + dy * dy;
      };
      const bool i_longer = length2(pieces[i]) >= length2(pieces[j]);
      const auto& longer = i_longer ? pieces[i] : pieces[j];
      const auto& shorter = i_longer ? pieces[j] : pieces[i];
      const bool collinear = compare_squared_distance_to_line(shorter.first, longer.first, longer.second, r2) <= 0 &&
                             compare_squared_distance_to_line(shorter.second, longer.first, longer.second, r2) <= 0;
      const bool touching = compare_squared_distance_to_segment(shorter.first, longer.first, longer.second, r2) <= 0 ||
                            compare_squared_distance_to_segment(shorter.second, longer.first, longer.second, r2) <= 0 ||
                            compare_squared_distance_to_segment(longer.first, shorter.first, shorter.second, r2) <= 0 ||
                            compare_squared_distance_to_segment(longer.second, shorter.first, shorter.second, r2) <= 0;
      if (!collinear || !touching) continue;
      ++within;
      EXPECT_TRUE(std::binary_search(candidates.begin(), candidates.end(), std::make_pair(i, j)))
          << "pair " << i << ", " << j << " is collinear within the band but was left out";
    }
  EXPECT_GT(within, 100u);                       // the test has pairs to lose
  EXPECT_LT(candidates.size(), 300u * 299 / 2);  // and the filter leaves some out
}

TEST(Segments, SortAlongIsTheExactOrder) {
  // Along (0,0) → (3,1): positions by (p − a)·(3, 1). Two points 10^-30 apart, and two points with
  // the same projection (off the line on either side), which keep their given order.
  std::vector<Vec2> points = {v(3, 1),
                              v(0, 0),
                              v(1, kTiny),
                              v(1, 0),
                              v(Rational(3, 2), Rational(1, 2)),
                              v(Rational(1, 3), 0),
                              v(0, 1),
                              v(Rational(1, 3), 0)};
  std::vector<const Vec2*> at;
  for (const auto& p : points) at.push_back(&p);
  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  sort_along(at, v(0, 0), v(3, 1), order);
  // keys: 10, 0, 3 + 10^-30, 3, 5, 1, 1, 1
  EXPECT_EQ(order, (std::vector<std::size_t>{1, 5, 6, 7, 3, 2, 4, 0}));
}

namespace {

// The first of `candidates` with the largest exact `value`, if it exceeds 0.
template <typename Value>
std::optional<std::size_t> first_exact_largest(std::size_t n, std::size_t skip_a, std::size_t skip_b, Value&& value) {
  std::optional<std::size_t> best;
  Rational best_value = 0;
  for (std::size_t k = 0; k < n; ++k)
    if (k != skip_a && k != skip_b && value(k) > best_value) best = k, best_value = value(k);
  return best;
}

// PlacedPoints::spread against its definition computed in rationals: the farthest point from the
// first, the farthest from that one, and the first point farthest off their line.
void expect_exact_spread(const std::vector<Vec2>& points) {
  std::vector<const Vec2*> at;
  for (const auto& p : points) at.push_back(&p);
  std::vector<std::size_t> all(points.size());
  std::iota(all.begin(), all.end(), 0);
  const Spread spread = PlacedPoints(at).spread(all);
  auto distance = [&](std::size_t i, std::size_t j) {
    const Rational dx = points[i].x - points[j].x, dy = points[i].y - points[j].y;
    return Rational(dx * dx + dy * dy);
  };
  const std::size_t first =
      first_exact_largest(points.size(), 0, 0, [&](std::size_t k) { return distance(0, k); }).value_or(0);
  const std::size_t second = first_exact_largest(points.size(), first, first, [&](std::size_t k) {
                               return distance(first, k);
                             }).value_or(first);
  ASSERT_EQ(std::minmax(spread.first, spread.second), std::minmax(first, second));
  if (first == second) return;
  const Vec2 &a = points[std::min(first, second)], &b = points[std::max(first, second)];
  const auto worst = first_exact_largest(points.size(), first, second,
                                         [&](std::size_t k) { return squared_distance_to_line(points[k], a, b); });
  EXPECT_EQ(spread.has_off(), worst.has_value());
  if (!worst) return;
  EXPECT_EQ(spread.worst, *worst);
  EXPECT_EQ(spread.squared_off(), squared_distance_to_line(points[*worst], a, b));
}

}  // namespace

// Ties everywhere (lattice points: equal distances, collinear triples), decided on the decimal
// grid in integers and, with coordinates 10^-30 apart (no 64-bit grid), in rationals.
TEST(Segments, SpreadIsTheExactFarthestPointOffTheLine) {
  std::mt19937 random(19);
  for (int round = 0; round < 300; ++round) {
    std::vector<Vec2> lattice, fine;
    const int n = 3 + round % 6;
    for (int k = 0; k < n; ++k) {
      const Rational x = Rational(static_cast<int>(random() % 5)) / 10, y = Rational(static_cast<int>(random() % 3));
      lattice.push_back(v(x, y));
      fine.push_back(v(x + (k % 2 ? kTiny : Rational(0)), y));
    }
    expect_exact_spread(lattice);
    expect_exact_spread(fine);
  }
}

// Spread::less_off against the exact squared distances, among spreads of one PlacedPoints: on a
// decimal grid (compared in integers there) with many equal distances, and with points 10^-30
// apart (no 64-bit grid: compared in rationals).
TEST(Segments, SpreadsAreOrderedByTheirExactDistanceOffTheLine) {
  std::mt19937 random(23);
  for (const Rational& nudge : {Rational(0), kTiny}) {
    std::vector<Vec2> points;
    for (int k = 0; k < 12; ++k)
      points.push_back(v(Rational(static_cast<int>(random() % 7)) / 10 + (k % 3 ? Rational(0) : nudge),
                         Rational(static_cast<int>(random() % 4)) / 4));
    std::vector<const Vec2*> at;
    for (const auto& p : points) at.push_back(&p);
    const PlacedPoints placed(at);
    std::vector<Spread> spreads;
    for (std::size_t i = 0; i < points.size(); ++i)
      for (std::size_t j = i + 1; j < points.size(); ++j)
        spreads.push_back(placed.spread({i, j, (i + j) % points.size(), (i * j + 1) % points.size()}));
    for (const Spread& x : spreads)
      for (const Spread& y : spreads) EXPECT_EQ(x.less_off(y), x.squared_off() < y.squared_off());
  }
}
