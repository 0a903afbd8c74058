// Counting on the incidence graph (Boost.Graph): vertices are figure points and maximal lines,
// edges say "this point lies on this line".
#include <algorithm>
#include <array>
#include <boost/dynamic_bitset.hpp>
#include <boost/graph/adjacency_list.hpp>
#include <geotruth/counts.hpp>
#include <geotruth/work_limit.hpp>
#include <set>
#include <unordered_map>

#include "geometry/predicates.hpp"

namespace geotruth {

std::string vertex_name(const Scene& scene, const Incidence& inc, std::size_t v) {
  if (const auto& p = inc.vertices[v].point) return scene.points[*p].id;
  std::string name = "x";  // unlabelled crossings x1, x2, … (appended: GCC 12 misreads "x" + to_string)
  name += std::to_string(v - scene.points.size() + 1);
  return name;
}

const char* difficulty_of(std::size_t total) {
  return total <= 15 ? "Easy" : total <= 30 ? "Medium" : "Hard";
}

namespace {

using IncidenceGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// meet(l1, l2): the counted vertex where two lines meet, or kNone. Two distinct maximal lines
// usually share at most one point; two pieces through the same two points that are not straight
// together stay two lines (a two-sided figure) and share both: the table keeps the first, and
// `also(l1, l2)` lists the others.
class MeetTable {
 public:
  explicit MeetTable(std::size_t lines) : n_(lines) {
    if (dense()) table_.assign(n_ * n_, kNone);
  }
  void set(std::size_t a, std::size_t b, std::size_t v) {
    if (get(a, b) != kNone) {
      more_[key(a, b)].push_back(v);
      return;
    }
    if (dense())
      table_[a * n_ + b] = table_[b * n_ + a] = v;
    else
      sparse_[key(a, b)] = v;
  }
  std::size_t get(std::size_t a, std::size_t b) const {
    if (dense()) return table_[a * n_ + b];
    auto it = sparse_.find(key(a, b));
    return it == sparse_.end() ? kNone : it->second;
  }
  // Every counted vertex the two lines share (the first is get(a, b)).
  void all(std::size_t a, std::size_t b, std::vector<std::size_t>& out) const {
    out.clear();
    if (const std::size_t v = get(a, b); v != kNone) out.push_back(v);
    if (auto it = more_.find(key(a, b)); it != more_.end()) out.insert(out.end(), it->second.begin(), it->second.end());
  }
  bool has_shared_pairs() const { return !more_.empty(); }

 private:
  bool dense() const { return n_ <= 4096; }
  static std::uint64_t key(std::size_t a, std::size_t b) {
    if (a > b) std::swap(a, b);
    return (static_cast<std::uint64_t>(a) << 32) | b;
  }
  std::size_t n_;
  std::vector<std::size_t> table_;
  std::unordered_map<std::uint64_t, std::size_t> sparse_;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> more_;  // pairs of lines sharing two or more points
};

class Counter {
 public:
  Counter(const Scene& scene, const Incidence& inc, const CountOptions& options)
      : scene_(scene),
        inc_(inc),
        options_(options),
        V_(inc.vertices.size()),
        L_(inc.lines.size()),
        graph_(V_ + L_),
        meet_(L_),
        meets_(L_, boost::dynamic_bitset<>(L_)) {
    for (std::size_t l = 0; l < L_; ++l)
      for (const auto v : inc.lines[l].vertices) boost::add_edge(v, V_ + l, graph_);
    std::vector<std::size_t> lines;  // through vertex v
    for (std::size_t v = 0; v < V_; ++v) {
      if (!counted(v)) continue;
      lines.clear();
      for (auto [it, end] = boost::adjacent_vertices(v, graph_); it != end; ++it) lines.push_back(*it - V_);
      for (std::size_t i = 0; i < lines.size(); ++i)
        for (std::size_t j = i + 1; j < lines.size(); ++j) {
          meet_.set(lines[i], lines[j], v);
          meets_[lines[i]].set(lines[j]);
          meets_[lines[j]].set(lines[i]);
        }
    }
  }

  TangramCounts run() {
    TangramCounts c;
    for (const auto& p : scene_.points) c.letters += p.labelled;
    for (const auto& circle : scene_.circles) c.circles += circle.quadrants == "1111";  // drawn full circles
    if (options_.list) listed_.emplace();
    for (std::size_t l = 0; l < L_; ++l) {
      std::size_t letters = 0;
      for (auto [it, end] = boost::adjacent_vertices(V_ + l, graph_); it != end; ++it)
        letters += inc_.vertices[*it].letter;
      c.segments += letters < 2 ? 0 : letters * (letters - 1) / 2;
      if (listed_) {
        const auto& along = inc_.lines[l].vertices;  // in order along the line
        for (std::size_t i = 0; i < along.size(); ++i)
          for (std::size_t j = i + 1; j < along.size(); ++j)
            if (inc_.vertices[along[i]].letter && inc_.vertices[along[j]].letter)
              listed_->segments.push_back({vertex_name(scene_, inc_, along[i]), vertex_name(scene_, inc_, along[j])});
      }
    }
    c.triangles = triangles();
    if (options_.quadrilaterals) c.quadrilaterals = quadrilaterals();
    c.total = c.letters + c.circles + c.segments + c.triangles;
    c.difficulty = difficulty_of(c.total);
    c.findings = std::move(findings_);
    c.listed = std::move(listed_);
    return c;
  }

 private:
  bool counted(std::size_t v) const { return options_.any_vertex || inc_.vertices[v].letter; }

  std::string name_of(std::size_t v) const {
    return inc_.vertices[v].point ? scene_.points[*inc_.vertices[v].point].id : "a crossing";
  }

  // Merged mode: corners p, q, r whose triangle's smallest height is within ε_num are collinear
  // by position, whatever the lines say (the facts forgot a line): (2·area)² ≤ ε² · longest side².
  bool collinear_by_position(std::size_t p, std::size_t q, std::size_t r) {
    const Rational& eps2 = inc_.collinear_eps_squared;
    const auto &a = inc_.vertices[p].at, &b = inc_.vertices[q].at, &c = inc_.vertices[r].at;
    if (eps2 == 0 || !a || !b || !c) return false;
    const Rational twice_area = (b->x - a->x) * (c->y - a->y) - (b->y - a->y) * (c->x - a->x);
    auto d2 = [](const Vec2& u, const Vec2& v) -> Rational {
      return (u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y);
    };
    const Rational longest = std::max({d2(*a, *b), d2(*b, *c), d2(*a, *c)});
    if (twice_area * twice_area > eps2 * longest) return false;
    const double height_px =
        longest == 0 ? 0 : std::abs(to_double(twice_area)) / std::sqrt(to_double(longest)) * inc_.px_per_unit;
    findings_.push_back(make_finding(FindingKind::collinear_triangle, {name_of(p), name_of(q), name_of(r)},
                                     "the lines make a triangle, but its corners lie on one line within the band",
                                     height_px));
    return true;
  }

  // A triangle is three distinct corners, not on one line, joined pairwise by three distinct
  // drawn lines. It is found as three lines pairwise meeting at counted vertices: for each pair
  // l1 < l2 that meet, the candidates l3 > l2 are meets[l1] ∧ meets[l2]; its corners are the
  // three meets. Where two lines share two points (a two-sided figure), each choice of corners
  // is a candidate, and a triangle whose side lies on both lines is found twice: then every
  // triangle is counted once by its corners.
  std::size_t triangles() {
    std::size_t count = 0;
    const bool shared_pairs = meet_.has_shared_pairs();
    boost::dynamic_bitset<> both(L_);  // one buffer for every pair
    std::vector<std::size_t> as, bs, cs;
    for (std::size_t l1 = 0; l1 < L_; ++l1)
      for (std::size_t l2 = meets_[l1].find_next(l1); l2 < L_; l2 = meets_[l1].find_next(l2)) {
        (both = meets_[l1]) &= meets_[l2];
        const std::size_t apex = meet_.get(l1, l2);
        charge_work(L_);
        for (std::size_t l3 = both.find_next(l2); l3 < L_; l3 = both.find_next(l3)) {
          if (!shared_pairs) {  // one corner per pair: distinct corners are never on one line
            const std::size_t b = meet_.get(l1, l3), c = meet_.get(l2, l3);
            if (b != apex && !collinear_by_position(apex, b, c)) {
              ++count;
              list_triangle(apex, b, c);
            }
            continue;
          }
          meet_.all(l1, l2, as), meet_.all(l1, l3, bs), meet_.all(l2, l3, cs);
          for (const std::size_t a : as)
            for (const std::size_t b : bs)
              for (const std::size_t c : cs) {
                std::array<std::size_t, 3> corners{a, b, c};
                std::sort(corners.begin(), corners.end());
                if (corners[0] == corners[1] || corners[1] == corners[2] || seen_.count(corners) ||
                    on_one_line(a, b, c))
                  continue;
                seen_.insert(corners);
                if (!collinear_by_position(a, b, c)) {
                  ++count;
                  list_triangle(a, b, c);
                }
              }
        }
      }
    return count;
  }

  // Whether one drawn line holds all three corners (two lines sharing two points let a third
  // corner of one lie on the other).
  bool on_one_line(std::size_t a, std::size_t b, std::size_t c) const {
    for (auto [it, end] = boost::adjacent_vertices(a, graph_); it != end; ++it)
      if (boost::edge(b, *it, graph_).second && boost::edge(c, *it, graph_).second) return true;
    return false;
  }

  void list_triangle(std::size_t a, std::size_t b, std::size_t c) {
    if (listed_)
      listed_->triangles.push_back(
          {vertex_name(scene_, inc_, a), vertex_name(scene_, inc_, b), vertex_name(scene_, inc_, c)});
  }

  // A quadrilateral is a 4-cycle of lines l1-l2-l3-l4 (l1 the smallest, l2 < l4 so each cycle
  // is seen once) whose four corners are distinct counted vertices.
  std::size_t quadrilaterals() {
    std::size_t count = 0;
    boost::dynamic_bitset<> both(L_);  // one buffer for every pair
    for (std::size_t l1 = 0; l1 < L_; ++l1)
      for (std::size_t l2 = meets_[l1].find_next(l1); l2 < L_; l2 = meets_[l1].find_next(l2))
        for (std::size_t l4 = meets_[l1].find_next(l2); l4 < L_; l4 = meets_[l1].find_next(l4)) {
          const std::size_t v12 = meet_.get(l1, l2), v41 = meet_.get(l4, l1);
          if (v12 == v41) continue;
          (both = meets_[l2]) &= meets_[l4];
          charge_work(L_);
          for (std::size_t l3 = both.find_next(l1); l3 < L_; l3 = both.find_next(l3)) {
            if (l3 == l2 || l3 == l4) continue;
            const std::size_t v23 = meet_.get(l2, l3), v34 = meet_.get(l3, l4);
            if (v23 == v12 || v23 == v34 || v34 == v41) continue;
            if (is_convex({v41, v12, v23, v34}, {l1, l2, l3, l4})) {
              ++count;
              if (listed_)
                listed_->quadrilaterals.push_back({vertex_name(scene_, inc_, v41), vertex_name(scene_, inc_, v12),
                                                   vertex_name(scene_, inc_, v23), vertex_name(scene_, inc_, v34)});
            }
          }
        }
    return count;
  }

  // Corners in cyclic order v41, v12, v23, v34: side k joins corners[k] and corners[k+1] on lines[k].
  bool is_convex(const std::array<std::size_t, 4>& corners, const std::array<std::size_t, 4>& lines) const {
    const bool placed =
        std::all_of(corners.begin(), corners.end(), [&](std::size_t v) { return inc_.vertices[v].at.has_value(); });
    if (placed) {
      int sign = 0;
      for (std::size_t k = 0; k < 4; ++k) {
        const int turn = geometry::orientation(*inc_.vertices[corners[k]].at, *inc_.vertices[corners[(k + 1) % 4]].at,
                                               *inc_.vertices[corners[(k + 2) % 4]].at);
        if (turn == 0 || (sign != 0 && turn != sign)) return false;
        sign = turn;
      }
      return true;
    }
    // Without coordinates, from the orders along the lines: a quadrilateral is convex when no side's
    // line meets the opposite side strictly between its corners (then the opposite corners would lie
    // on both sides of it): one such meeting is a dart, two a bow-tie.
    auto meets_inside = [&](std::size_t side, std::size_t opposite) {
      const std::size_t line = lines[opposite];
      const std::size_t x = meet_.get(lines[side], line);
      if (x == kNone) return false;
      const std::size_t p = rank(line, x), a = rank(line, corners[opposite]),
                        b = rank(line, corners[(opposite + 1) % 4]);
      return (a < p && p < b) || (b < p && p < a);
    };
    for (std::size_t side = 0; side < 4; ++side)
      if (meets_inside(side, (side + 2) % 4)) return false;
    return true;
  }

  // The place of vertex v along line l (it lies on it), from a table built on first use: only
  // quadrilaterals of figures without coordinates (line lists) ask, and they ask often.
  std::size_t rank(std::size_t l, std::size_t v) const {
    if (position_.empty()) {
      position_.resize(L_);
      for (std::size_t line = 0; line < L_; ++line) {
        const auto& vertices = inc_.lines[line].vertices;
        for (std::size_t k = 0; k < vertices.size(); ++k) position_[line][vertices[k]] = k;
      }
    }
    return position_[l].at(v);
  }

  const Scene& scene_;
  const Incidence& inc_;
  std::vector<Finding> findings_;
  CountOptions options_;
  std::size_t V_, L_;
  IncidenceGraph graph_;
  MeetTable meet_;
  std::vector<boost::dynamic_bitset<>> meets_;
  std::optional<FigureList> listed_;           // with CountOptions::list
  std::set<std::array<std::size_t, 3>> seen_;  // triangles counted, by sorted corners (lines sharing two points)
  mutable std::vector<std::unordered_map<std::size_t, std::size_t>> position_;  // per line: vertex → rank (rank())
};

}  // namespace

TangramCounts count_figure(const Scene& scene, const Incidence& incidence, const CountOptions& options) {
  return Counter(scene, incidence, options).run();
}

}  // namespace geotruth
