// count --list: the segments, triangles and quadrilaterals the counts count, by their letters,
// checked against a brute force over the letters of the maximal lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <geotruth/counts.hpp>
#include <map>
#include <set>

#include "figures.hpp"

using namespace geotruth;

namespace {

// Brute force: letters on a common maximal line, from the incidence structure.
struct Brute {
  std::vector<std::set<std::string>> lines;
  bool joined(const std::string& a, const std::string& b) const {
    return std::any_of(lines.begin(), lines.end(), [&](const auto& l) { return l.count(a) && l.count(b); });
  }
  bool on_one(const std::vector<std::string>& points) const {
    return std::any_of(lines.begin(), lines.end(), [&](const auto& l) {
      return std::all_of(points.begin(), points.end(), [&](const std::string& p) { return l.count(p); });
    });
  }
};

Brute brute(const Scene& s, const Incidence& inc) {
  Brute b;
  for (const auto& line : inc.lines) {
    std::set<std::string> letters;
    for (auto v : line.vertices)
      if (inc.vertices[v].letter) letters.insert(vertex_name(s, inc, v));
    b.lines.push_back(std::move(letters));
  }
  return b;
}

}  // namespace

class CountList : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(CountList, ListsExactlyWhatItCounts) {
  const auto [k, m] = GetParam();
  const Scene s = figures::cevian_triangle(k, m);
  const Incidence inc = build_incidence(s, IncidenceMode::merged);
  const TangramCounts c = count_figure(s, inc, {false, true, true});
  ASSERT_TRUE(c.listed);
  const FigureList& f = *c.listed;
  EXPECT_EQ(f.segments.size(), c.segments);
  EXPECT_EQ(f.triangles.size(), c.triangles);
  EXPECT_EQ(f.quadrilaterals.size(), *c.quadrilaterals);
  const Brute b = brute(s, inc);
  std::set<std::vector<std::string>> seen;
  for (auto t : f.triangles) {
    ASSERT_EQ(t.size(), 3u);
    EXPECT_TRUE(b.joined(t[0], t[1]) && b.joined(t[1], t[2]) && b.joined(t[0], t[2]));
    EXPECT_FALSE(b.on_one(t));
    std::sort(t.begin(), t.end());
    EXPECT_TRUE(seen.insert(t).second) << "listed twice";
  }
  // Every triangle of the brute force is listed.
  std::vector<std::string> letters;
  for (const auto& p : s.points)
    if (p.labelled) letters.push_back(p.id);
  std::size_t all = 0;
  for (std::size_t i = 0; i < letters.size(); ++i)
    for (std::size_t j = i + 1; j < letters.size(); ++j)
      for (std::size_t l = j + 1; l < letters.size(); ++l) {
        std::vector<std::string> t{letters[i], letters[j], letters[l]};
        if (b.joined(t[0], t[1]) && b.joined(t[1], t[2]) && b.joined(t[0], t[2]) && !b.on_one(t)) {
          ++all;
          std::sort(t.begin(), t.end());
          EXPECT_TRUE(seen.count(t)) << t[0] << t[1] << t[2] << " not listed";
        }
      }
  EXPECT_EQ(all, c.triangles);
  for (const auto& q : f.quadrilaterals) {
    ASSERT_EQ(q.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_TRUE(b.joined(q[i], q[(i + 1) % 4]));
  }
  for (const auto& seg : f.segments) EXPECT_TRUE(b.joined(seg[0], seg[1]));
}

INSTANTIATE_TEST_SUITE_P(Cevians, CountList,
                         ::testing::Values(std::tuple{0, 0}, std::tuple{1, 1}, std::tuple{2, 3}, std::tuple{3, 2}));

TEST(CountList, NotListedUnlessAsked) {
  const Scene s = figures::cevian_triangle(1, 1);
  EXPECT_FALSE(count_figure(s, build_incidence(s, IncidenceMode::merged)).listed);
}
