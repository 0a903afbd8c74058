// Exact test figures with known counts, shared by the tests and the benchmarks.
#pragma once

#include <geotruth/scene.hpp>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace geotruth::figures {

/// Concatenates id parts (avoids GCC 12's false -Wrestrict on "literal" + std::string).
inline std::string id_of(std::initializer_list<std::string> parts) {
  std::string id;
  for (const auto& part : parts) id += part;
  return id;
}

inline std::size_t add_point(Scene& s, std::string id, Rational x, Rational y, bool labelled = true) {
  Point p;
  p.id = std::move(id);
  p.at = Vec2{std::move(x), std::move(y)};
  p.labelled = labelled;
  s.points.push_back(std::move(p));
  return s.points.size() - 1;
}

inline void add_line(Scene& s, std::vector<std::size_t> through) {
  Line l;
  l.through = std::move(through);
  s.lines.push_back(std::move(l));
}

/// Apex A(320, 80), base B(80, 560)–C(560, 560); k cevians from A to the base at equal steps and
/// m parallels to the base at equal heights; every crossing is a point (labelled or not).
/// Closed forms (all labelled): letters 1 + (k+2)(m+1); segments (k+2)·C(m+2,2) + (m+1)·C(k+2,2);
/// triangles C(k+2,2)·(m+1); convex quadrilaterals C(k+2,2)·C(m+1,2).
/// `declare_inner` false declares each line by its two ends only (geometry must find the rest).
inline Scene cevian_triangle(int k, int m, bool labelled = true, bool declare_inner = true) {
  Scene s;
  s.id = id_of({"cevians-", std::to_string(k), "-parallels-", std::to_string(m)});
  const std::size_t apex = add_point(s, "A", 320, 80);
  // Apex lines j = 0..k+1 reach the base at x = 80 + 480·j/(k+1); horizontal i = 1..m+1 sits at
  // height 80 + 480·i/(m+1) and crosses apex line j at the point a fraction i/(m+1) of the way.
  std::vector<std::vector<std::size_t>> grid(static_cast<std::size_t>(k + 2));
  for (int j = 0; j <= k + 1; ++j)
    for (int i = 1; i <= m + 1; ++i) {
      const Rational foot_x = Rational(80) + Rational(480 * j) / (k + 1);
      const Rational t = Rational(i) / (m + 1);  // mpq_class(p, q) would not reduce i/(m+1)
      grid[j].push_back(add_point(s, id_of({"P", std::to_string(j), "_", std::to_string(i)}), 320 + t * (foot_x - 320),
                                  80 + t * 480, labelled || i == m + 1));
    }
  for (int j = 0; j <= k + 1; ++j) {
    std::vector<std::size_t> through = {apex};
    if (declare_inner)
      through.insert(through.end(), grid[j].begin(), grid[j].end());
    else
      through.push_back(grid[j].back());
    add_line(s, through);
  }
  for (int i = 0; i <= m; ++i) {
    std::vector<std::size_t> through;
    for (int j = 0; j <= k + 1; ++j)
      if (declare_inner || j == 0 || j == k + 1) through.push_back(grid[j][i]);
    add_line(s, through);
  }
  return s;
}

/// n lines tangent to the parabola y = x²/4 at x = 2a (a = 1..n): y = a·x − a², scaled by 4n.
/// No two are parallel and no three concurrent; lines a, b cross at (a + b, a·b)·4n. A crossing
/// lies at least 1/√(1 + n²) from any other line before scaling, so ≥ 3 px after: every
/// non-incidence is clear of the ambiguous band. Each line is drawn between its extreme
/// crossings, extended by one step, with unlabelled end points. Closed forms: triangles C(n,3);
/// with labelled crossings, letters C(n,2) and segments n·C(n−1,2).
inline Scene general_position(int n, bool label_crossings = true) {
  Scene s;
  s.id = id_of({"general-", std::to_string(n)});
  const Rational scale = 4 * n;
  s.frame.width = s.frame.height = scale * (n * n + 2 * n + 2);
  // Explicit Rational: GMP expression templates must not outlive their operands.
  auto at = [&](const Rational& x, const Rational& y) {
    return std::make_pair(Rational(scale * x), Rational(scale * y));
  };
  std::vector<std::vector<std::size_t>> on(n + 1);
  for (int a = 1; a <= n; ++a)
    for (int b = a + 1; b <= n; ++b) {
      auto [x, y] = at(a + b, a * b);
      const std::size_t p =
          add_point(s, id_of({"X", std::to_string(a), "_", std::to_string(b)}), x, y, label_crossings);
      on[a].push_back(p);
      on[b].push_back(p);
    }
  for (int a = 1; a <= n; ++a) {
    // on[a] is already in increasing x = a + b.
    const int lo = a + (a == 1 ? 2 : 1) - 1, hi = a + (a == n ? n - 1 : n) + 1;
    std::vector<std::size_t> through;
    auto [x0, y0] = at(lo, a * lo - a * a);
    through.push_back(add_point(s, id_of({"E", std::to_string(a), "a"}), x0, y0, false));
    through.insert(through.end(), on[a].begin(), on[a].end());
    auto [x1, y1] = at(hi, a * hi - a * a);
    through.push_back(add_point(s, id_of({"E", std::to_string(a), "b"}), x1, y1, false));
    add_line(s, through);
  }
  return s;
}

/// An affinely regular hexagon (the regular one under x → 2x, y → 2y/√3: incidences are kept)
/// with its 6 sides and 9 diagonals drawn between the labelled vertices only. Known counts:
/// 15 segments and 20 triangles on the letters; 110 triangles with every crossing as a vertex.
inline Scene hexagon_with_diagonals() {
  Scene s;
  s.id = "hexagon-all-diagonals";
  const int xy[6][2] = {{2, 0}, {1, 1}, {-1, 1}, {-2, 0}, {-1, -1}, {1, -1}};
  for (int v = 0; v < 6; ++v)
    add_point(s, std::string(1, static_cast<char>('A' + v)), 320 + 100 * xy[v][0], 320 + 100 * xy[v][1]);
  for (std::size_t a = 0; a < 6; ++a)
    for (std::size_t b = a + 1; b < 6; ++b) add_line(s, {a, b});
  return s;
}

/// The scene moved by an exact similarity: rotation by the 3-4-5 angle (cos 3/5, sin 4/5), then
/// scaling, then translation. Incidences, crossings and counts are invariant.
inline Scene transformed(Scene s, const Rational& scale, const Rational& dx, const Rational& dy) {
  const Rational c(3, 5), si(4, 5);
  for (auto& p : s.points) {
    if (!p.at) continue;
    const Rational x = p.at->x, y = p.at->y;
    p.at = Vec2{scale * (c * x - si * y) + dx, scale * (si * x + c * y) + dy};
  }
  return s;
}

}  // namespace geotruth::figures
