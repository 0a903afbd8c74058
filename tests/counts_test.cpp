// Tangram counts against closed forms and hand-worked figures, in every incidence mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <geotruth/counts.hpp>
#include <geotruth/input.hpp>
#include <map>

#include "figures.hpp"
#include "test_paths.hpp"

using namespace geotruth;

namespace {

std::size_t binom(std::size_t n, std::size_t k) {
  if (k > n) return 0;
  std::size_t r = 1;
  for (std::size_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

TangramCounts counts(const Scene& s, IncidenceMode mode = IncidenceMode::merged, CountOptions options = {}) {
  return count_figure(s, build_incidence(s, mode), options);
}

Scene scene_from(std::string_view text) {
  return std::get<Scene>(read_scene(text));
}

std::vector<std::string> finding_kinds(const Incidence& inc) {
  std::vector<std::string> kinds;
  for (const auto& f : inc.findings) kinds.push_back(finding_kind_name(f.kind));
  return kinds;
}

const IncidenceMode kModes[] = {IncidenceMode::declared, IncidenceMode::geometric, IncidenceMode::merged};

}  // namespace

class CevianTriangle : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(CevianTriangle, ClosedFormsInEveryMode) {
  const auto [k, m] = GetParam();
  const Scene s = figures::cevian_triangle(k, m);
  const std::size_t apex_lines = k + 2, horizontals = m + 1;
  for (auto mode : kModes) {
    const TangramCounts c = counts(s, mode, {false, true});
    SCOPED_TRACE(mode_name(mode));
    EXPECT_EQ(c.letters, 1 + apex_lines * horizontals);
    EXPECT_EQ(c.segments, apex_lines * binom(m + 2, 2) + horizontals * binom(k + 2, 2));
    EXPECT_EQ(c.triangles, binom(k + 2, 2) * (m + 1));
    EXPECT_EQ(c.quadrilaterals, binom(k + 2, 2) * binom(m + 1, 2));
    EXPECT_EQ(c.circles, 0u);
    EXPECT_EQ(c.total, c.letters + c.segments + c.triangles);
  }
}

TEST_P(CevianTriangle, GeometryFindsUndeclaredIncidences) {
  const auto [k, m] = GetParam();
  // Lines declared by their ends only; inner crossings are labelled points nobody declared.
  const Scene s = figures::cevian_triangle(k, m, true, false);
  EXPECT_EQ(counts(s, IncidenceMode::geometric).triangles, binom(k + 2, 2) * (m + 1));
  const Incidence merged = build_incidence(s, IncidenceMode::merged);
  EXPECT_EQ(count_figure(s, merged).triangles, binom(k + 2, 2) * (m + 1));
  const auto kinds = finding_kinds(merged);
  // Undeclared: the m upper crossings on each apex line, the k inner crossings on each horizontal.
  const std::size_t inner = static_cast<std::size_t>((k + 2) * m + (m + 1) * k);
  EXPECT_EQ(static_cast<std::size_t>(std::count(kinds.begin(), kinds.end(), "undeclared_on_line")), inner);
}

TEST_P(CevianTriangle, InvariantUnderExactSimilarity) {
  const auto [k, m] = GetParam();
  const Scene s = figures::cevian_triangle(k, m, true, false);
  const TangramCounts before = counts(s, IncidenceMode::geometric, {false, true});
  for (const auto& [scale, dx, dy] : {std::tuple<Rational, Rational, Rational>{1, 0, 0},
                                      {Rational(1, 7), Rational(1000, 3), -5},
                                      {Rational(13, 2), Rational(-1, 9), Rational(22, 7)}}) {
    const TangramCounts after = counts(figures::transformed(s, scale, dx, dy), IncidenceMode::geometric, {false, true});
    EXPECT_EQ(after.segments, before.segments);
    EXPECT_EQ(after.triangles, before.triangles);
    EXPECT_EQ(after.quadrilaterals, before.quadrilaterals);
  }
}

INSTANTIATE_TEST_SUITE_P(KAndM, CevianTriangle,
                         ::testing::Combine(::testing::Values(0, 1, 2, 4), ::testing::Values(0, 1, 3)));

TEST(Counts, DeclaredModeEqualsGeometricModeOnExactFixtures) {
  for (const Scene& s :
       {figures::cevian_triangle(3, 2), figures::general_position(7), figures::hexagon_with_diagonals()}) {
    const Incidence declared = build_incidence(s, IncidenceMode::declared);
    const Incidence geometric = build_incidence(s, IncidenceMode::geometric);
    auto line_sets = [&](const Incidence& inc) {
      std::vector<std::vector<std::size_t>> sets;
      for (const auto& l : inc.lines) {
        std::vector<std::size_t> named;
        for (auto v : l.vertices)
          if (inc.vertices[v].point) named.push_back(*inc.vertices[v].point);
        std::sort(named.begin(), named.end());
        sets.push_back(named);
      }
      std::sort(sets.begin(), sets.end());
      return sets;
    };
    EXPECT_EQ(line_sets(declared), line_sets(geometric)) << s.id;
    const auto a = count_figure(s, declared), b = count_figure(s, geometric);
    EXPECT_EQ(a.segments, b.segments) << s.id;
    EXPECT_EQ(a.triangles, b.triangles) << s.id;
  }
}

TEST(Counts, LinesInGeneralPosition) {
  for (int n : {3, 4, 6, 9}) {
    const TangramCounts labelled = counts(figures::general_position(n));
    EXPECT_EQ(labelled.triangles, binom(n, 3)) << n;
    EXPECT_EQ(labelled.segments, n * binom(n - 1, 2)) << n;
    EXPECT_EQ(labelled.letters, binom(n, 2)) << n;
    // Crossings unlabelled: no triangle formed by letters, C(n,3) with --any-vertex.
    const Scene bare = figures::general_position(n, false);
    EXPECT_EQ(counts(bare).triangles, 0u);
    EXPECT_EQ(counts(bare, IncidenceMode::geometric, {true, false}).triangles, binom(n, 3)) << n;
  }
}

TEST(Counts, ConcurrentLines) {
  // n segments A_i–O–B_i through O, at angles given by Pythagorean directions: 3n segments, no triangle.
  Scene s;
  s.id = "concurrent";
  const std::size_t o = figures::add_point(s, "O", 320, 320);
  const int dirs[5][2] = {{1, 0}, {0, 1}, {3, 4}, {4, -3}, {5, 12}};
  for (int i = 0; i < 5; ++i) {
    const std::size_t a =
        figures::add_point(s, figures::id_of({"A", std::to_string(i)}), 320 + 20 * dirs[i][0], 320 + 20 * dirs[i][1]);
    const std::size_t b =
        figures::add_point(s, figures::id_of({"B", std::to_string(i)}), 320 - 20 * dirs[i][0], 320 - 20 * dirs[i][1]);
    figures::add_line(s, {a, o, b});
  }
  for (auto mode : kModes) {
    const TangramCounts c = counts(s, mode);
    EXPECT_EQ(c.segments, 15u);
    EXPECT_EQ(c.triangles, 0u);
    EXPECT_EQ(c.letters, 11u);
  }
  // One transversal A0–A1 closes a triangle A0 O A1 only.
  figures::add_line(s, {1, 3});
  EXPECT_EQ(counts(s).triangles, 1u);
}

TEST(Counts, HexagonWithAllDiagonals) {
  const Scene s = figures::hexagon_with_diagonals();
  const TangramCounts letters = counts(s);
  EXPECT_EQ(letters.segments, 15u);
  EXPECT_EQ(letters.triangles, 20u);  // every triple of the 6 vertices
  const Incidence inc = build_incidence(s, IncidenceMode::geometric);
  EXPECT_EQ(inc.vertices.size() - s.points.size(), 13u);           // interior crossings of a regular hexagon
  EXPECT_EQ(count_figure(s, inc, {true, false}).triangles, 110u);  // OEIS A006600, n = 6
}

TEST(Counts, InscribedTriangleTangramStyle) {
  const Scene s = scene_from(R"({"id":"t","points":[{"id":"A","at":[320,120]},{"id":"B","at":[160,440]},
    {"id":"C","at":[480,440]},{"id":"O","at":[320,320]}],"lines":[{"through":["A","B"]},{"through":["B","C"]},
    {"through":["C","A"]}],"circles":[{"center":"O","radius":200}]})");
  const TangramCounts c = counts(s);
  EXPECT_EQ(c.letters, 4u);
  EXPECT_EQ(c.circles, 1u);
  EXPECT_EQ(c.segments, 3u);
  EXPECT_EQ(c.triangles, 1u);
  EXPECT_EQ(c.difficulty, "Easy");
  // Geometry puts A, B, C on the circle although nobody declared it.
  const Incidence inc = build_incidence(s, IncidenceMode::merged);
  EXPECT_EQ(inc.circle_points[0], (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(finding_kinds(inc), std::vector<std::string>(3, "undeclared_on_circle"));
}

TEST(Counts, Difficulty) {
  EXPECT_STREQ(difficulty_of(15), "Easy");
  EXPECT_STREQ(difficulty_of(16), "Medium");
  EXPECT_STREQ(difficulty_of(30), "Medium");
  EXPECT_STREQ(difficulty_of(31), "Hard");
}

TEST(Counts, PartialCirclesAreNotCircles) {
  const Scene s = scene_from(R"({"id":"arc","circles":[{"center":[1,1],"radius":1,"quadrants":"1100"},
    {"center":[5,5],"radius":1}]})");
  EXPECT_EQ(counts(s).circles, 1u);
}

TEST(Counts, QuadrilateralsWithoutCoordinatesUseTheDeclaredOrder) {
  // Convex ABCD with diagonals meeting at O: ABCD only. A bow-tie A-B-D-C (sides AB, BD, DC, CA,
  // where BD and CA cross at O inside both) is excluded by the order along the diagonals.
  const Scene s = scene_from(R"({"id":"q","points":[{"id":"A"},{"id":"B"},{"id":"C"},{"id":"D"},{"id":"O"}],
    "lines":[{"through":["A","B"]},{"through":["B","C"]},{"through":["C","D"]},{"through":["D","A"]},
             {"through":["A","O","C"]},{"through":["B","O","D"]}]})");
  const TangramCounts c = counts(s, IncidenceMode::declared, {false, true});
  EXPECT_EQ(c.triangles, 8u);
  EXPECT_EQ(c.quadrilaterals, 1u);
}

TEST(Counts, ConvexityFromCoordinates) {
  // Dart (concave) A(0,0) B(4,2) C(0,4) D(1,2): sides only. Not convex; the square is.
  const Scene dart = scene_from(R"({"id":"dart","points":[{"id":"A","at":[0,0]},{"id":"B","at":[40,20]},
    {"id":"C","at":[0,40]},{"id":"D","at":[10,20]}],"lines":[{"through":["A","B"]},{"through":["B","C"]},
    {"through":["C","D"]},{"through":["D","A"]}]})");
  EXPECT_EQ(counts(dart, IncidenceMode::merged, {false, true}).quadrilaterals, 0u);
  const Scene square = scene_from(R"({"id":"sq","points":[{"id":"A","at":[0,0]},{"id":"B","at":[40,0]},
    {"id":"C","at":[40,40]},{"id":"D","at":[0,40]}],"lines":[{"through":["A","B"]},{"through":["B","C"]},
    {"through":["C","D"]},{"through":["D","A"]},{"through":["A","C"]},{"through":["B","D"]}]})");
  const TangramCounts c = counts(square, IncidenceMode::merged, {true, true});
  EXPECT_EQ(c.quadrilaterals, 1u);
  EXPECT_EQ(c.triangles, 8u);  // the classic: square with both diagonals, centre as a vertex
}

TEST(Conflicts, EveryKindIsReported) {
  // Base A(0,0)–B(400,0). P declared on AB but 4 px off; Q declared on AB beyond B; R on AB,
  // undeclared; S 2 px off AB (ambiguous band). Circle centre O(200,200) r 100: T declared on it but
  // 5 px off; U on it undeclared; V 1 px off it.
  const Scene s = scene_from(R"({"id":"c","points":[{"id":"A","at":[0,0]},{"id":"B","at":[400,0]},
    {"id":"P","at":[100,4]},{"id":"Q","at":[450,0]},{"id":"R","at":[300,0]},{"id":"S","at":[200,2]},
    {"id":"O","at":[200,200]},{"id":"T","at":[305,200]},{"id":"U","at":[200,100]},{"id":"V","at":[99,200]}],
    "lines":[{"through":["A","P","Q","B"]}],
    "circles":[{"center":"O","radius":100,"through":["T"]}]})");
  const Incidence inc = build_incidence(s, IncidenceMode::merged);
  auto find = [&](const std::string& kind, const std::string& point) -> const Finding* {
    for (const auto& f : inc.findings)
      if (finding_kind_name(f.kind) == kind && f.elements.at(0) == point) return &f;
    return nullptr;
  };
  ASSERT_TRUE(find("declared_off_line", "P"));
  EXPECT_DOUBLE_EQ(*find("declared_off_line", "P")->slack_px, 4);
  EXPECT_EQ(find("declared_off_line", "P")->severity, Severity::conflict);  // 4 px ≥ ε_vis = 3 px
  ASSERT_TRUE(find("declared_outside_extent", "Q"));
  EXPECT_DOUBLE_EQ(*find("declared_outside_extent", "Q")->slack_px, 50);
  ASSERT_TRUE(find("undeclared_on_line", "R"));
  ASSERT_TRUE(find("near_miss_line", "S"));
  EXPECT_DOUBLE_EQ(*find("near_miss_line", "S")->slack_px, 2);
  EXPECT_EQ(find("near_miss_line", "S")->severity, Severity::doubtful);
  ASSERT_TRUE(find("declared_off_circle", "T"));
  EXPECT_DOUBLE_EQ(*find("declared_off_circle", "T")->slack_px, 5);
  ASSERT_TRUE(find("undeclared_on_circle", "U"));
  ASSERT_TRUE(find("near_miss_circle", "V"));
  EXPECT_EQ(inc.findings.size(), 7u);
  // Declared facts win within ε_vis (Q lies on the line, beyond its drawn end); P is 4 px off, more
  // than ε_vis: the picture contradicts the fact, so P is not on the line (no line bends beyond
  // ε_vis). S is not declared.
  EXPECT_EQ(count_figure(s, inc).segments, binom(4, 2));  // A, Q, R, B
}

TEST(Conflicts, MergedLinesOrderConflictAndMissingPositions) {
  // Two pieces A–C and B–D on one line, each declaring the other's point: one line.
  const Scene s = scene_from(R"({"id":"m","points":[{"id":"A","at":[0,0]},{"id":"B","at":[10,0]},
    {"id":"C","at":[20,0]},{"id":"D","at":[30,0]},{"id":"E","at":[5,50]}],
    "lines":[{"through":["A","C"]},{"through":["B","D"]},{"through":["A","E"]}]})");
  const Incidence geometric = build_incidence(s, IncidenceMode::geometric);
  EXPECT_EQ(geometric.lines.size(), 2u);  // collinear overlapping pieces merge
  EXPECT_EQ(count_figure(s, geometric).segments, 6u + 1u);
  const Scene contradictory = scene_from(R"({"id":"o","points":[{"id":"A"},{"id":"B"},{"id":"C"}],
    "lines":[{"through":["A","B","C"]},{"through":["B","A","C"]}]})");
  EXPECT_EQ(finding_kinds(build_incidence(contradictory, IncidenceMode::declared)),
            std::vector<std::string>{"order_conflict"});
  const Scene unplaced = scene_from(R"({"id":"u","points":[{"id":"A"},{"id":"B","at":[1,1]}],
    "lines":[{"through":["A","B"]}]})");
  EXPECT_EQ(finding_kinds(build_incidence(unplaced, IncidenceMode::geometric)),
            std::vector<std::string>{"missing_position"});
  // Merged mode: a geometric incidence makes two declared lines share two points.
  const Scene sharing = scene_from(R"({"id":"s","points":[{"id":"A","at":[0,0]},{"id":"B","at":[10,0]},
    {"id":"C","at":[20,0]},{"id":"D","at":[30,10]}],
    "lines":[{"through":["A","B"]},{"through":["B","C"]}, {"through":["C","D"]}]})");
  EXPECT_EQ(build_incidence(sharing, IncidenceMode::merged).lines.size(), 2u);
}

TEST(SolidGeometry, SkewLinesDoNotMeet) {
  // In the picture A(0,0)–B(100,100) crosses C(0,100)–D(100,0) at (50,50). With depths, AB is at
  // z = 0 and CD at z = 40 there: skew. With CD at z from −40 to 40 (0 at the crossing) they meet.
  auto scene = [](int zc, int zd) {
    std::string text =
        R"({"id":"solid","points":[{"id":"A","at":[0,0,0]},{"id":"B","at":[100,100,0]},{"id":"C","at":[0,100,ZC]},
      {"id":"D","at":[100,0,ZD]},{"id":"P","at":[0,200,0]}],"lines":[{"through":["A","B"]},
      {"through":["C","D"],"style":"dashed"},{"through":["A","P"]},{"through":["P","C"]}]})";
    text.replace(text.find("ZC"), 2, std::to_string(zc));
    text.replace(text.find("ZD"), 2, std::to_string(zd));
    return text;
  };
  const Scene skew = scene_from(scene(40, 40));
  const Scene meeting = scene_from(scene(-40, 40));
  EXPECT_EQ(build_incidence(skew, IncidenceMode::geometric).vertices.size(), 5u);
  EXPECT_EQ(build_incidence(meeting, IncidenceMode::geometric).vertices.size(), 6u);
  EXPECT_EQ(skew.lines[1].style, Stroke::dashed);
}

TEST(Counts, RaysAndLinesAreDrawnToTheFrameEdge) {
  // A ray from A through B and a full line through E and F, each crossed beyond its points by a
  // segment: the crossings are where the drawn extents, clipped to the 640 px frame, meet.
  const Scene s = scene_from(
      R"({"id":"rays","points":[{"id":"A","at":[100,100]},{"id":"B","at":[200,100]},{"id":"C","at":[400,0]},
      {"id":"D","at":[400,200]},{"id":"E","at":[300,500]},{"id":"F","at":[310,500]},{"id":"G","at":[600,400]},
      {"id":"H","at":[600,600]}],"lines":[{"through":["A","B"],"extent":"ray"},{"through":["C","D"]},
      {"through":["E","F"],"extent":"line"},{"through":["G","H"]}]})");
  const Incidence inc = build_incidence(s, IncidenceMode::geometric);
  ASSERT_EQ(inc.lines.size(), 4u);
  EXPECT_EQ(inc.lines[0].ends, std::make_pair(Vec2{100, 100}, Vec2{640, 100}));
  EXPECT_EQ(inc.lines[2].ends, std::make_pair(Vec2{0, 500}, Vec2{640, 500}));
  ASSERT_EQ(inc.vertices.size(), 10u);
  EXPECT_EQ(inc.vertices[8].at, (Vec2{400, 100}));
  EXPECT_EQ(inc.vertices[9].at, (Vec2{600, 500}));
}

TEST(DefaultDataset, TangramCountsMatchTheHandWorkedAnswers) {
  // data/README.md works these out by hand: letters, circles, segments, triangles.
  const std::map<std::string, std::array<std::size_t, 4>> expected = {
      {"tangram-inscribed-triangle", {4, 1, 3, 1}},
      {"tangram-one-cevian", {4, 0, 6, 3}},
      {"tangram-two-cevians-one-parallel", {9, 0, 24, 12}},
      {"tangram-quadrilateral-diagonals-no-coordinates", {5, 0, 10, 8}},
      {"tangram-square-incircle-diagonal", {5, 1, 7, 2}},
  };
  std::ifstream in(std::string(GEOTRUTH_DATA) + "/scenes.jsonl");
  std::size_t checked = 0;
  for (std::string line; std::getline(in, line);) {
    const Scene s = scene_from(line);
    auto it = expected.find(s.id);
    if (it == expected.end()) continue;
    const TangramCounts c = counts(s);
    EXPECT_EQ((std::array<std::size_t, 4>{c.letters, c.circles, c.segments, c.triangles}), it->second) << s.id;
    ++checked;
  }
  EXPECT_EQ(checked, expected.size());
}

// A fan of n segments through one point, neighbours 0.45 px apart at their ends (within ε_num):
// merging is never transitive beyond the band, so every mode keeps n lines: n segments (each
// line's two letters), no triangle. Exact decimal coordinates, as tests/bad_inputs' generator.
Scene fan(int n) {
  std::string points, lines;
  for (int i = 0; i < n; ++i) {
    const double t = i * 0.0015, c = std::cos(t), s = std::sin(t);
    char buffer[200];
    std::snprintf(buffer, sizeof buffer, R"(%s{"id":"A%d","at":[%.6f,%.6f]},{"id":"B%d","at":[%.6f,%.6f]})",
                  i ? "," : "", i, 320 + 300 * c, 320 + 300 * s, i, 320 - 300 * c, 320 - 300 * s);
    points += buffer;
    lines += (i ? "," : "") + std::string(R"({"through":["A)") + std::to_string(i) + R"(","B)" + std::to_string(i) +
             R"("]})";
  }
  return scene_from(R"({"id":"fan","points":[)" + points + R"(],"lines":[)" + lines + "]}");
}

TEST(Counts, NearlyCollinearFanIsNotChainedIntoOneLine) {
  for (const int n : {3, 10, 60})
    for (const auto mode : kModes) {
      const Scene s = fan(n);
      const Incidence inc = build_incidence(s, mode);
      EXPECT_EQ(inc.lines.size(), static_cast<std::size_t>(n)) << n << " " << mode_name(mode);
      EXPECT_EQ(counts(s, mode).segments, static_cast<std::size_t>(n)) << n << " " << mode_name(mode);
      EXPECT_EQ(counts(s, mode).triangles, 0u) << n << " " << mode_name(mode);
    }
}

// Regression: n pieces through the same A and B, each on to its own P_i further along y = 100 (a
// scene of many lines through two points, as a careless export writes). Every pair of pieces shares
// A and B, and every pair's ends {A, P_i, P_j} are a different set of points to test for
// straightness: looking up the sets already tested must not cost the number of sets each time,
// or the scene runs into the 10-second limit. All n + 2 points lie on one line: C(n + 2, 2)
// segments.
TEST(Counts, ManyPiecesThroughTheSameTwoPointsAreOneLine) {
  constexpr int n = 600;
  std::string points = R"({"id":"A","at":[100,100]},{"id":"B","at":[200,100]})", lines;
  for (int i = 0; i < n; ++i) {
    const std::string p = std::to_string(i);
    points.append(R"(,{"id":"P)").append(p).append(R"(","at":[)").append(std::to_string(300 + i)).append(",100]}");
    lines.append(i ? "," : "").append(R"({"through":["A","B","P)").append(p).append(R"("]})");
  }
  const Scene s = scene_from(R"({"id":"through-two","frame":{"width":1000,"height":200},"points":[)" + points +
                             R"(],"lines":[)" + lines + "]}");
  const WorkBudget budget(WorkLimits{});  // the command line's default limits
  for (const auto mode : {IncidenceMode::declared, IncidenceMode::merged}) {
    EXPECT_EQ(build_incidence(s, mode).lines.size(), 1u) << mode_name(mode);
    EXPECT_EQ(counts(s, mode).segments, binom(n + 2, 2)) << mode_name(mode);
  }
}

// The control: pieces that are collinear with each other pairwise (a clique) are one line.
// A–B and C–D on y = 100 with C, D between A and B, and E–F tilted by 0.001 within 0.4 px of it:
// one line of 6 letters.
TEST(Counts, PairwiseCollinearPiecesAreMerged) {
  const Scene s =
      scene_from(R"({"id":"c","points":[{"id":"A","at":[0,100]},{"id":"B","at":[600,100]},{"id":"C","at":[100,100]},)"
                 R"({"id":"D","at":[300,100]},{"id":"E","at":[200,100.2]},{"id":"F","at":[500,99.9]}],)"
                 R"("lines":[{"through":["A","B"]},{"through":["C","D"]},{"through":["E","F"]}]})");
  for (const auto mode : {IncidenceMode::geometric, IncidenceMode::merged}) {
    EXPECT_EQ(build_incidence(s, mode).lines.size(), 1u) << mode_name(mode);
    EXPECT_EQ(counts(s, mode).segments, binom(6, 2)) << mode_name(mode);
  }
}

// Quadrilaterals are convex ones only: four lines in general position bound exactly one convex
// quadrilateral (of their three 4-cycles, one is convex, one a dart, one a bow-tie), so n lines
// give C(n,4), from coordinates and, with the coordinates removed, from the orders alone.
TEST(Counts, QuadrilateralsAreConvexOnly) {
  for (const int n : {4, 5, 6, 8}) {
    Scene s = figures::general_position(n);
    EXPECT_EQ(counts(s, IncidenceMode::merged, {false, true}).quadrilaterals, binom(n, 4)) << n;
    for (auto& p : s.points) p.at.reset();
    EXPECT_EQ(counts(s, IncidenceMode::declared, {false, true}).quadrilaterals, binom(n, 4)) << n << " (orders)";
  }
}

// A dart, from orders alone: rows A E B, B C, C D E, D A close A–B–C–D, but line C–D–E meets
// side A–B inside (at E): 0 quadrilaterals, in every order of the rows.
TEST(Counts, DartIsNotAQuadrilateralInAnyRowOrder) {
  std::vector<std::string> rows = {R"({"through":["A","E","B"]})", R"({"through":["B","C"]})",
                                   R"({"through":["C","D","E"]})", R"({"through":["D","A"]})"};
  std::sort(rows.begin(), rows.end());
  do {
    std::string lines;
    for (const auto& r : rows) lines += (lines.empty() ? "" : ",") + r;
    const Scene s = scene_from(R"({"id":"dart","points":[{"id":"A"},{"id":"B"},{"id":"C"},{"id":"D"},{"id":"E"}],)"
                               R"("lines":[)" +
                               lines + "]}");
    EXPECT_EQ(counts(s, IncidenceMode::declared, {false, true}).quadrilaterals, 0u) << lines;
  } while (std::next_permutation(rows.begin(), rows.end()));
}

// Three lines through nearly one point make a sub-pixel triangle of unlabelled crossings: with
// --any-vertex it is a triangle of the lines (geometric mode), but in merged mode its corners lie
// within ε_num of one line, so it is not counted and is listed as collinear_triangle.
TEST(Counts, SubPixelTriangleIsNotATriangleInMergedMode) {
  const Scene s = scene_from(
      R"({"id":"t","points":[{"id":"A","at":[0,320]},{"id":"B","at":[640,320]},)"
      R"({"id":"C","at":[320,0]},{"id":"D","at":[320.2,640]},{"id":"E","at":[0,0]},{"id":"F","at":[640,640.3]}],)"
      R"("lines":[{"through":["A","B"]},{"through":["C","D"]},{"through":["E","F"]}]})");
  EXPECT_EQ(counts(s, IncidenceMode::geometric, {true, false}).triangles, 1u);
  const Incidence inc = build_incidence(s, IncidenceMode::merged);
  const TangramCounts merged = count_figure(s, inc, {true, false});
  EXPECT_EQ(merged.triangles, 0u);
  ASSERT_EQ(merged.findings.size(), 1u);
  EXPECT_EQ(merged.findings[0].kind, FindingKind::collinear_triangle);
}

// Regression (Geometry3K diagrams 10 and 28): two pieces through the same two points F and D that
// are not straight together (F–D–B and F–D–J, J 8 px off F–B, D 2.7 px off F–J: the fact wins
// within ε_vis) stay two lines sharing both points, a two-sided figure. A third line through D
// (G–D–H) meets both at D only: no triangle, and no finding about one with a repeated corner
// (it was counted as D, F, D). B–J closes two triangles, F–B–J and D–B–J (one was lost when the
// two lines were taken to share one point). The count is checked against a brute force over the
// letters' triples on the declared `through` lists, written apart from the counter.
TEST(Counts, TwoLinesThroughTheSameTwoPointsMakeNoPhantomTriangle) {
  const Scene s =
      scene_from(R"({"id":"two-sided","frame":{"width":400,"height":300},"points":[{"id":"F","at":[20,150]},)"
                 R"({"id":"D","at":[120,150]},{"id":"B","at":[320,150]},{"id":"J","at":[320,158]},)"
                 R"({"id":"G","at":[120,50]},{"id":"H","at":[120,250]}],)"
                 R"("lines":[{"through":["F","D","B"]},{"through":["F","D","J"]},{"through":["B","J"]},)"
                 R"({"through":["G","D","H"]}]})");
  std::size_t brute = 0;  // triples pairwise on a `through` list, not all on one
  auto on = [&](const Line& l, std::size_t p) { return std::count(l.through.begin(), l.through.end(), p) > 0; };
  auto joined = [&](std::size_t p, std::size_t q) {
    return std::any_of(s.lines.begin(), s.lines.end(), [&](const Line& l) { return on(l, p) && on(l, q); });
  };
  const std::size_t n = s.points.size();
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      for (std::size_t c = b + 1; c < n; ++c)
        brute += joined(a, b) && joined(b, c) && joined(a, c) &&
                 std::none_of(s.lines.begin(), s.lines.end(),
                              [&](const Line& l) { return on(l, a) && on(l, b) && on(l, c); });
  EXPECT_EQ(brute, 2u);
  for (const auto mode : {IncidenceMode::declared, IncidenceMode::merged}) {
    const Incidence inc = build_incidence(s, mode);
    EXPECT_EQ(inc.lines.size(), 4u) << mode_name(mode);
    const TangramCounts c = count_figure(s, inc, {true, false});
    EXPECT_EQ(c.triangles, brute) << mode_name(mode);
    EXPECT_EQ(count_figure(s, inc).triangles, brute) << mode_name(mode);
    for (const auto& f : c.findings) {
      auto names = f.elements;
      std::sort(names.begin(), names.end());
      EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << finding_kind_name(f.kind);
      EXPECT_NE(f.kind, FindingKind::collinear_triangle) << mode_name(mode);
    }
  }
  // By position alone D is off F–J (2.7 px > ε_num): F–J and F–D–B share F only, and only
  // F–B–J is a triangle of letters.
  EXPECT_EQ(counts(s, IncidenceMode::geometric).triangles, 1u);
}
