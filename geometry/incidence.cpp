// Building the incidence structure from declared `through` lists and exact geometry.
#include <algorithm>
#include <array>
#include <boost/pending/disjoint_sets.hpp>
#include <cmath>
#include <deque>
#include <geotruth/incidence.hpp>
#include <geotruth/work_limit.hpp>
#include <map>
#include <numeric>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>

#include "geometry/predicates.hpp"
#include "geometry/segments.hpp"

namespace geotruth {

const char* mode_name(IncidenceMode mode) {
  switch (mode) {
    case IncidenceMode::declared:
      return "declared";
    case IncidenceMode::geometric:
      return "geometric";
    case IncidenceMode::merged:
      return "merged";
  }
  return "?";
}

namespace {

using namespace geometry;

// Union-find over indices 0..n-1.
class Groups {
 public:
  explicit Groups(std::size_t n) : rank_(n), parent_(n), sets_(rank_.data(), parent_.data()) {
    for (std::size_t i = 0; i < n; ++i) sets_.make_set(i);
  }
  void join(std::size_t a, std::size_t b) { sets_.union_set(a, b); }
  std::size_t find(std::size_t a) { return sets_.find_set(a); }

 private:
  std::vector<std::size_t> rank_, parent_;
  boost::disjoint_sets<std::size_t*, std::size_t*> sets_;
};

// One drawn straight piece (a Scene line) as the builder sees it.
struct Piece {
  std::vector<std::size_t> members;                // points on it by declaration (geometric mode: its ends only)
  std::optional<EndPoints> extent;                 // where drawn: its end points, or a ray or line clipped to the frame
  std::optional<std::pair<Rational, Rational>> z;  // depth at the two ends (solid geometry)
  std::string name;
  std::pair<std::size_t, std::size_t> ends;  // the scene points at its two ends
};

class Builder {
 public:
  Builder(const Scene& scene, IncidenceMode mode, const Bands& bands)
      : scene_(scene),
        placed_(positions(scene)),
        mode_(mode),
        bands_(bands, scene.frame),
        eps_(bands_.eps_num()),
        eps2_(bands_.eps_num_squared()),
        eps_vis2_(bands_.eps_vis_squared()) {
    out_.mode = mode;
    out_.px_per_unit = bands_.px_per_unit();
    if (mode == IncidenceMode::merged) out_.collinear_eps_squared = bands_.eps_num_squared();
  }

  Incidence build() {
    // Copied in place into room reserved up front: a moved GMP rational allocates anew.
    out_.vertices.reserve(scene_.points.size());
    for (std::size_t i = 0; i < scene_.points.size(); ++i) {
      const Point& p = scene_.points[i];
      out_.vertices.push_back({i, p.at, p.labelled});
    }
    make_pieces();
    merge_pieces();
    if (uses_declarations()) check_declared_points();
    if (uses_geometry()) attach_points_geometrically();
    merge_lines_sharing_two_points();
    if (uses_geometry()) add_crossings();
    order_points_along_lines();
    attach_circle_points();
    report_bends();
    return std::move(out_);
  }

 private:
  bool uses_geometry() const { return mode_ != IncidenceMode::declared; }
  bool uses_declarations() const { return mode_ != IncidenceMode::geometric; }
  // A finding about a point and a line or circle; `squared_slack` (frame units) is decided by
  // the band unless the kind's own severity applies.
  void finding(FindingKind kind, std::size_t point, std::string element, std::optional<Rational> squared_slack,
               std::string detail) {
    std::optional<double> slack_px;
    std::optional<Decision> decision;
    if (squared_slack) {
      slack_px = bands_.squared_to_px(*squared_slack);
      decision = bands_.decide_squared(*squared_slack);
    }
    std::vector<std::string> elements;
    if (point < scene_.points.size()) elements.push_back(scene_.points[point].id);
    if (!element.empty()) elements.push_back(std::move(element));
    out_.findings.push_back(make_finding(kind, std::move(elements), std::move(detail), slack_px, decision));
  }

  void make_pieces() {
    pieces_.reserve(scene_.lines.size());
    for (const Line& line : scene_.lines) {
      Piece piece;
      const Point& first = scene_.points[line.through.front()];
      const Point& last = scene_.points[line.through.back()];
      piece.name = line.id.empty() ? line_name(first.id, last.id) : line.id;
      piece.ends = {line.through.front(), line.through.back()};
      if (uses_declarations())
        piece.members = line.through;
      else
        piece.members = {line.through.front(), line.through.back()};
      if (first.at && last.at) {
        piece.extent = drawn_ends(*first.at, *last.at, line.extent);
        if (first.z && last.z && line.extent == Extent::segment) piece.z = std::make_pair(*first.z, *last.z);
      } else if (mode_ == IncidenceMode::geometric) {
        finding(FindingKind::missing_position, first.at ? line.through.back() : line.through.front(), piece.name,
                std::nullopt, "geometric mode needs coordinates; the piece is kept with its ends only");
      }
      pieces_.push_back(std::move(piece));
    }
  }

  // A segment is drawn between its end points; a ray or a line is clipped to the frame.
  std::optional<EndPoints> drawn_ends(const Vec2& a, const Vec2& b, Extent extent) {
    if (extent == Extent::segment) return EndPoints{&a, &b};
    auto clipped = drawn_extent(a, b, extent, scene_.frame);
    if (!clipped) return std::nullopt;
    const auto& kept = clipped_.emplace_back(std::move(*clipped));
    return EndPoints{&kept.first, &kept.second};
  }

  // The ends of the shorter piece lie within ε_num of the longer one's line (a short piece fixes
  // its direction poorly: extended, its line may stray from points that are on the longer one).
  bool collinear_within_band(const Piece& a, const Piece& b) const {
    if (!a.extent || !b.extent) return false;
    auto squared_length = [](const EndPoints& e) -> Rational {
      const Rational dx = e.first->x - e.second->x, dy = e.first->y - e.second->y;
      return dx * dx + dy * dy;
    };
    const bool a_longer = squared_length(*a.extent) >= squared_length(*b.extent);
    const auto [l0, l1] = a_longer ? *a.extent : *b.extent;
    const auto [s0, s1] = a_longer ? *b.extent : *a.extent;
    return compare_squared_distance_to_line(*s0, *l0, *l1, eps2_) <= 0 &&
           compare_squared_distance_to_line(*s1, *l0, *l1, eps2_) <= 0;
  }

  // Collinear within eps and overlapping or touching: one maximal line.
  bool geometrically_one_line(const Piece& a, const Piece& b) const {
    if (!collinear_within_band(a, b)) return false;
    const auto [a0, a1] = *a.extent;
    const auto [b0, b1] = *b.extent;
    auto near_segment = [&](const Vec2* p, const Vec2* s0, const Vec2* s1) {
      return compare_squared_distance_to_segment(*p, *s0, *s1, eps2_) <= 0;
    };
    return near_segment(b0, a0, a1) || near_segment(b1, a0, a1) || near_segment(a0, b0, b1) || near_segment(a1, b0, b1);
  }

  // The pairs of pieces (i < j, in order) that have two or more declared points in common.
  std::vector<std::pair<std::size_t, std::size_t>> pieces_sharing_two_points() const {
    std::vector<std::pair<std::size_t, std::size_t>> sharing;
    std::vector<char> on_first(scene_.points.size(), 0);  // the points of piece i, marked
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
      for (auto m : pieces_[i].members) on_first[m] = 1;
      charge_work(pieces_.size() - i - 1);  // a unit per pair
      for (std::size_t j = i + 1; j < pieces_.size(); ++j) {
        std::size_t common = 0;
        for (auto m : pieces_[j].members) common += on_first[m];
        if (common >= 2) sharing.emplace_back(i, j);
      }
      for (auto m : pieces_[i].members) on_first[m] = 0;
    }
    return sharing;
  }

  // How far these points, where placed, stray from the line through their two extremes (named in
  // scene order).
  struct Straightness {
    Spread spread;
    std::size_t worst = 0;  // the scene point farthest off (0 when none is)
    std::pair<std::size_t, std::size_t> extremes{0, 0};
    bool straight_within(const Rational& r2) const { return spread.compare_off(r2) <= 0; }
  };
  // The same points come up again and again (the pieces of one line in pairs, then together): each
  // set is measured once.
  Straightness straightness(std::vector<std::size_t> points) const {
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    std::erase_if(points, [&](std::size_t m) { return !scene_.points[m].at; });
    if (points.size() < 3) return {};
    charge_work(3 * points.size());
    if (auto known = straightness_of_.find(points); known != straightness_of_.end()) return known->second;
    Straightness result;
    result.spread = placed_.spread(points);
    result.extremes = std::minmax(points[result.spread.first], points[result.spread.second]);
    if (result.spread.has_off()) result.worst = points[result.spread.worst];
    straightness_of_.emplace(std::move(points), result);
    return result;
  }

  // Whether two lines' points together are straight within ε_vis. If not, the two lines whose
  // shared points would have joined them stay two lines, and the point farthest off is a
  // line_not_straight finding (unless reported as declared off a line already: that fact is the
  // cause). It is a conflict when a shared point lies beyond ε_vis of either line on its own; when
  // each holds its shared points, the two lines merely diverge from near one point (doubtful).
  bool straight_enough(const std::vector<std::size_t>& first, const std::vector<std::size_t>& second,
                       const std::vector<std::size_t>& shared, const std::string& first_name,
                       const std::string& second_name) {
    std::vector<std::size_t> both;
    both.reserve(first.size() + second.size());
    both.insert(both.end(), first.begin(), first.end());
    both.insert(both.end(), second.begin(), second.end());
    const Straightness s = straightness(std::move(both));
    if (s.straight_within(eps_vis2_)) return true;
    std::string names;
    Bend bend{s.worst, line_through(s.extremes), s.spread, std::nullopt, "", true};
    Rational culprit_off = eps_vis2_;  // a shared point off either line on its own is the cause
    const Straightness own_lines[] = {straightness(first), straightness(second)};
    for (auto m : shared) {
      names += (names.empty() ? "" : ", ") + scene_.points[m].id;
      for (const Straightness& line : own_lines) {
        if (!scene_.points[m].at || line.extremes.first == line.extremes.second) continue;
        const Vec2 &p = *scene_.points[m].at, &a = *scene_.points[line.extremes.first].at,
                   &b = *scene_.points[line.extremes.second].at;
        if (compare_squared_distance_to_line(p, a, b, culprit_off) <= 0) continue;  // exact only when farther
        culprit_off = squared_distance_to_line(p, a, b);
        bend = {m, line_through(line.extremes), s.spread, culprit_off, "", false};
      }
    }
    bend.detail = first_name + " and " + second_name + " share " + names +
                  " but are not one straight line, so they stay two lines" +
                  (bend.facts_hold ? " (each holds the shared points within the band: they diverge)"
                                   : " (this shared point is off one of them on its own)");
    bends_.push_back(std::move(bend));
    return false;
  }

  std::string line_through(std::pair<std::size_t, std::size_t> ends) const {
    return line_name(scene_.points[ends.first].id, scene_.points[ends.second].id);
  }

  void report_bends() {
    std::set<std::pair<std::size_t, std::string>> reported;
    for (auto& bend : bends_)
      if (!off_their_line_.count(bend.point) && reported.insert({bend.point, bend.line}).second)
        out_.findings.push_back(make_finding(FindingKind::line_not_straight, {scene_.points[bend.point].id, bend.line},
                                             bend.detail, bands_.squared_to_px(bend.squared_off()),
                                             bend.facts_hold ? Decision::ambiguous : Decision::fails));
  }

  std::vector<std::size_t> ends_of(std::span<const std::size_t> pieces) const {
    std::vector<std::size_t> ends;
    ends.reserve(2 * pieces.size());
    for (auto p : pieces) ends.push_back(pieces_[p].ends.first), ends.push_back(pieces_[p].ends.second);
    return ends;
  }

  static std::vector<std::size_t> shared_points(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
    std::vector<std::size_t> shared;
    for (auto x : a)
      if (std::count(b.begin(), b.end(), x)) shared.push_back(x);
    return shared;
  }

  // Pieces that share two declared points are one line, unless their ends, where placed, bend by
  // more than ε_vis (then they stay two lines, and the bend is a conflict). Geometry adds
  // merges of pieces collinear within ε_num that overlap or touch, but never transitively beyond
  // the band: a set of (declared) lines linked by such pairs is merged only when every two of
  // their pieces are collinear within ε_num, touching or not (a clique), and the whole is straight
  // within ε_vis; a chain, such as a fan of pieces each 0.45 px from the next, stays apart, its
  // pairs doubtful.
  void merge_pieces() {
    const std::size_t n = pieces_.size();
    const std::vector<std::pair<std::size_t, std::size_t>> sharing = pieces_sharing_two_points();
    std::vector<std::pair<std::size_t, std::size_t>> near;
    if (uses_geometry()) {
      std::vector<std::optional<EndPoints>> extents;
      for (const Piece& piece : pieces_) extents.push_back(piece.extent);
      for (const auto& [i, j] : SegmentSet(extents).maybe_collinear_pairs(eps2_))
        if (!std::binary_search(sharing.begin(), sharing.end(), std::make_pair(i, j)) &&
            geometrically_one_line(pieces_[i], pieces_[j]))
          near.emplace_back(i, j);
    }
    // Straightest pairs first, so that one stray fact cannot split a line that the others agree on.
    std::vector<Straightness> bend(sharing.size());
    for (std::size_t k = 0; k < sharing.size(); ++k)
      bend[k] = straightness(ends_of(std::array{sharing[k].first, sharing[k].second}));
    std::vector<std::size_t> order(sharing.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return bend[x].spread.less_off(bend[y].spread); });
    Groups groups(n);
    std::vector<std::vector<std::size_t>> pieces_of(n);  // by group root
    for (std::size_t i = 0; i < n; ++i) pieces_of[i] = {i};
    for (auto k : order) {
      const auto [i, j] = sharing[k];
      const std::size_t a = groups.find(i), b = groups.find(j);
      if (a == b) continue;
      if (!straight_enough(ends_of(pieces_of[a]), ends_of(pieces_of[b]),
                           shared_points(pieces_[i].members, pieces_[j].members), pieces_[i].name, pieces_[j].name))
        continue;
      groups.join(a, b);
      std::vector<std::size_t> joined = std::move(pieces_of[a]);
      joined.insert(joined.end(), pieces_of[b].begin(), pieces_of[b].end());
      pieces_of[a].clear(), pieces_of[b].clear();
      pieces_of[groups.find(a)] = std::move(joined);
    }
    merge_near_cliques(groups, near);
    out_.lines.reserve(n);
    std::vector<std::optional<std::size_t>> line_of_root(n);  // lines in the order of their first piece
    for (std::size_t i = 0; i < n; ++i) {
      auto& line = line_of_root[groups.find(i)];
      if (!line) line = out_.lines.size(), out_.lines.emplace_back();
      out_.lines[*line].pieces.push_back(i);
    }
    for (auto& line : out_.lines) recompute_line(line);
  }

  void merge_near_cliques(Groups& groups, const std::vector<std::pair<std::size_t, std::size_t>>& near) {
    std::set<std::pair<std::size_t, std::size_t>> linked;  // declared lines (group roots) near each other
    for (const auto& [i, j] : near) {
      const std::size_t a = groups.find(i), b = groups.find(j);
      if (a != b) linked.insert(std::minmax(a, b));
    }
    if (linked.empty()) return;
    std::map<std::size_t, std::size_t> index;  // root → dense index for the components
    for (const auto& [a, b] : linked) index.emplace(a, index.size()), index.emplace(b, index.size());
    Groups components(index.size());
    for (const auto& [a, b] : linked) components.join(index[a], index[b]);
    std::map<std::size_t, std::vector<std::size_t>> members;  // component → its roots
    for (const auto& [root, k] : index) members[components.find(k)].push_back(root);
    for (const auto& [component, roots] : members) {
      std::vector<std::size_t> pieces;
      for (std::size_t i = 0; i < pieces_.size(); ++i)
        if (std::count(roots.begin(), roots.end(), groups.find(i))) pieces.push_back(i);
      bool clique = straightness(ends_of(pieces)).straight_within(eps_vis2_);
      for (std::size_t x = 0; x < pieces.size() && clique; ++x)
        for (std::size_t y = x + 1; y < pieces.size() && clique; ++y) {
          charge_work();
          clique = groups.find(pieces[x]) == groups.find(pieces[y]) ||
                   collinear_within_band(pieces_[pieces[x]], pieces_[pieces[y]]);
        }
      if (clique) {
        for (std::size_t r : roots) groups.join(roots.front(), r);
        continue;
      }
      std::vector<std::string> names;  // one finding for the whole chain, not one per pair
      for (const auto& [i, j] : near)
        if (const auto it = index.find(groups.find(i)); it != index.end() && components.find(it->second) == component) {
          // Nor are the ends of one attached to the other later (that would chain them again).
          for (auto [piece, other] : {std::pair{i, j}, std::pair{j, i}}) {
            kept_apart_.insert({piece, pieces_[other].ends.first});
            kept_apart_.insert({piece, pieces_[other].ends.second});
            if (std::find(names.begin(), names.end(), pieces_[piece].name) == names.end())
              names.push_back(pieces_[piece].name);
          }
        }
      out_.findings.push_back(make_finding(FindingKind::lines_not_merged, std::move(names),
                                           "collinear within the band in pairs, but not all with each other (or "
                                           "bent beyond the visible band as a whole): merging would chain them",
                                           std::nullopt, Decision::ambiguous));
    }
  }

  bool kept_apart(const MaximalLine& line, std::size_t point) const {
    for (auto p : line.pieces)
      if (kept_apart_.count({p, point})) return true;
    return false;
  }

  // Members, drawn extent and name of a line from its pieces: the extent spans the extreme piece
  // ends, and the line is named by the points at those ends.
  void recompute_line(MaximalLine& line) {
    std::vector<std::size_t> members = line.vertices;
    std::vector<std::size_t> ends;  // of the pieces' drawn ends, as numbered by piece_ends()
    for (auto p : line.pieces) {
      members.insert(members.end(), pieces_[p].members.begin(), pieces_[p].members.end());
      if (pieces_[p].extent) ends.insert(ends.end(), {2 * p, 2 * p + 1});
    }
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    line.vertices = std::move(members);
    if (ends.empty()) {
      const Piece& first = pieces_[line.pieces.front()];
      line.name = line.pieces.size() == 1
                      ? first.name
                      : line_name(scene_.points[first.ends.first].id, scene_.points[first.ends.second].id);
      return;
    }
    const EndPoints& reference = *pieces_[ends.front() / 2].extent;
    if (line.pieces.size() > 1) piece_ends().sort_along(*reference.first, *reference.second, ends);
    auto drawn = [&](std::size_t end) {
      return end % 2 ? pieces_[end / 2].extent->second : pieces_[end / 2].extent->first;
    };
    auto point = [&](std::size_t end) { return end % 2 ? pieces_[end / 2].ends.second : pieces_[end / 2].ends.first; };
    line.ends.emplace(*drawn(ends.front()), *drawn(ends.back()));
    line.name = line.pieces.size() == 1
                    ? pieces_[line.pieces.front()].name
                    : line_name(scene_.points[point(ends.front())].id, scene_.points[point(ends.back())].id);
  }

  // The pieces' drawn ends (2p and 2p + 1 for piece p), converted once for sorting along lines.
  const PlacedPoints& piece_ends() {
    if (!piece_ends_) {
      std::vector<const Vec2*> at;
      for (const Piece& piece : pieces_) {
        at.push_back(piece.extent ? piece.extent->first : nullptr);
        at.push_back(piece.extent ? piece.extent->second : nullptr);
      }
      piece_ends_.emplace(std::move(at));
    }
    return *piece_ends_;
  }

  // Depth along a solid-geometry piece agrees with the point's depth.
  bool depth_agrees(const MaximalLine& line, const Point& p) const {
    if (!p.z || !p.at) return true;
    for (auto index : line.pieces) {
      const Piece& piece = pieces_[index];
      if (!piece.z || !piece.extent) continue;
      const Rational t = line_parameter(*p.at, *piece.extent->first, *piece.extent->second);
      if (t < 0 || t > 1) continue;
      const Rational z = piece.z->first + t * (piece.z->second - piece.z->first);
      const Rational dz = z - *p.z;
      return dz * dz <= eps2_;
    }
    return true;
  }

  void attach_points_geometrically() {
    std::vector<Vec2> placed;
    std::vector<std::size_t> point_of;  // PointSet index → scene point
    for (std::size_t i = 0; i < scene_.points.size(); ++i)
      if (scene_.points[i].at) {
        placed.push_back(*scene_.points[i].at);
        point_of.push_back(i);
      }
    const PointSet points(placed);
    for (auto& line : out_.lines) {
      if (!line.ends) continue;
      const auto& [a, b] = *line.ends;
      const std::string& name = line.name;
      const std::set<std::size_t> declared(line.vertices.begin(), line.vertices.end());
      charge_work(scene_.points.size());
      for (auto k : points.near_segment(a, b, eps_vis2_)) {
        const std::size_t i = point_of[k];
        const Point& point = scene_.points[i];
        if (declared.count(i) || !depth_agrees(line, point) || kept_apart(line, i)) continue;
        const Rational to_segment = squared_distance_to_segment(*point.at, a, b);
        if (to_segment <= eps2_) {
          line.vertices.push_back(i);
          if (mode_ == IncidenceMode::merged)
            finding(FindingKind::undeclared_on_line, i, name, to_segment,
                    "lies on the drawn line but is not declared on it");
        } else {
          finding(FindingKind::near_miss_line, i, name, to_segment,
                  "too close to the line to tell whether it is on it (ambiguous band)");
        }
      }
    }
  }

  // Every declared point of a line must lie on the line through its extreme points: inner points
  // (declared_off_line, or declared_outside_extent beyond its ends), and the ends of the pieces
  // merged into it (line_not_straight: the pieces bend), by the band. An inner point off by more
  // than ε_vis is not on the line: the picture contradicts the fact, so no line bends beyond ε_vis.
  void check_declared_points() {
    for (auto& line : out_.lines) {
      if (!line.ends) continue;
      const auto& [a, b] = *line.ends;
      std::set<std::size_t> inner;  // put on a piece by a fact (its through list), not an end of one
      for (auto p : line.pieces) {
        const auto& through = scene_.lines[p].through;
        inner.insert(through.begin() + 1, through.end() - 1);
      }
      std::set<std::size_t> dropped;
      for (auto i : line.vertices) {
        const Point& point = scene_.points[i];
        if (!point.at) continue;
        // Exact distances only for the findings: the filtered comparisons decide the rest.
        const bool off_line = compare_squared_distance_to_line(*point.at, a, b, eps2_) > 0;
        if (!inner.count(i)) {
          if (off_line)
            finding(FindingKind::line_not_straight, i, line.name, squared_distance_to_line(*point.at, a, b),
                    "an end of a piece merged into the line lies off the line through its extreme points");
          continue;
        }
        if (off_line) {
          const Rational to_line = squared_distance_to_line(*point.at, a, b);
          finding(FindingKind::declared_off_line, i, line.name, to_line, "declared on the line but off it");
          if (to_line > eps_vis2_) dropped.insert(i), off_their_line_.insert(i);
        } else if (compare_squared_distance_to_segment(*point.at, a, b, eps2_) > 0) {
          finding(FindingKind::declared_outside_extent, i, line.name, squared_distance_to_segment(*point.at, a, b),
                  "declared on the line but beyond its drawn ends");
        }
      }
      if (dropped.empty()) continue;
      for (auto p : line.pieces) std::erase_if(pieces_[p].members, [&](std::size_t m) { return dropped.count(m); });
      std::erase_if(line.vertices, [&](std::size_t m) { return dropped.count(m); });
    }
  }

  // Whether two lines that share two points may be one (straight within ε_vis); asked once a pair.
  bool straight_union(std::size_t x, std::size_t y) {
    const MaximalLine &a = out_.lines[x], &b = out_.lines[y];
    if (bent_pairs_.count(std::minmax(a.pieces.front(), b.pieces.front()))) return false;
    if (straight_enough(a.vertices, b.vertices, shared_points(a.vertices, b.vertices), a.name, b.name)) return true;
    bent_pairs_.insert(std::minmax(a.pieces.front(), b.pieces.front()));
    return false;
  }

  // Two lines that share two points are one line (can happen once geometry adds points).
  void merge_lines_sharing_two_points() {
    for (;;) {
      std::map<std::pair<std::size_t, std::size_t>, std::size_t> shared;
      std::vector<std::pair<std::size_t, std::size_t>> incidences;  // (vertex, line), by vertex then line
      for (std::size_t l = 0; l < out_.lines.size(); ++l)
        for (auto v : out_.lines[l].vertices) incidences.emplace_back(v, l);
      std::sort(incidences.begin(), incidences.end());
      std::optional<std::pair<std::size_t, std::size_t>> pair;
      for (auto at = incidences.begin(); at != incidences.end() && !pair;) {
        const auto next = std::find_if(at, incidences.end(), [&](const auto& i) { return i.first != at->first; });
        for (auto x = at; x != next && !pair; ++x)
          for (auto y = x + 1; y != next && !pair; ++y) {
            charge_work();
            if (++shared[{x->second, y->second}] == 2 && straight_union(x->second, y->second))
              pair = std::make_pair(x->second, y->second);
          }
        at = next;
      }
      if (!pair) return;
      auto& keep = out_.lines[pair->first];
      const auto& gone = out_.lines[pair->second];
      out_.findings.push_back(make_finding(FindingKind::lines_merged, {keep.name, gone.name},
                                           "two drawn lines share two points, so they are one line"));
      keep.pieces.insert(keep.pieces.end(), gone.pieces.begin(), gone.pieces.end());
      keep.vertices.insert(keep.vertices.end(), gone.vertices.begin(), gone.vertices.end());
      out_.lines.erase(out_.lines.begin() + static_cast<std::ptrdiff_t>(pair->second));
      recompute_line(keep);
    }
  }

  void order_points_along_lines() {
    std::vector<const Vec2*> at(out_.vertices.size(), nullptr);
    for (std::size_t v = 0; v < out_.vertices.size(); ++v)
      if (out_.vertices[v].at) at[v] = &*out_.vertices[v].at;
    const PlacedPoints vertices(at);
    for (auto& line : out_.lines) {
      charge_work(line.vertices.size() * 16);  // an exact sort of the line's points
      const bool all_placed =
          line.ends && std::all_of(line.vertices.begin(), line.vertices.end(), [&](std::size_t v) { return at[v]; });
      if (!all_placed) {
        order_by_declarations(line);
        continue;
      }
      vertices.sort_along(line.ends->first, line.ends->second, line.vertices);
    }
  }

  // Without coordinates: merge the orders of the line's `through` lists (a topological sort of
  // "comes right before", each piece turned to agree with the pieces already placed).
  void order_by_declarations(MaximalLine& line) {
    std::vector<std::vector<std::size_t>> sequences;
    for (auto p : line.pieces) sequences.push_back(pieces_[p].members);
    std::map<std::size_t, std::size_t> position;  // from the first sequence, to orient the others
    for (std::size_t k = 0; k < sequences.front().size(); ++k) position[sequences.front()[k]] = k;
    for (std::size_t s = 1; s < sequences.size(); ++s) {
      std::vector<std::pair<std::size_t, std::size_t>> known;  // (index in sequence, position)
      for (std::size_t k = 0; k < sequences[s].size(); ++k)
        if (auto it = position.find(sequences[s][k]); it != position.end()) known.emplace_back(k, it->second);
      if (known.size() >= 2 && (known[0].second > known[1].second))
        std::reverse(sequences[s].begin(), sequences[s].end());
      for (std::size_t k = 0; k < sequences[s].size(); ++k) position.emplace(sequences[s][k], position.size());
    }
    std::map<std::size_t, std::set<std::size_t>> after;
    std::map<std::size_t, std::size_t> indegree;
    for (auto v : line.vertices) indegree[v];
    for (const auto& seq : sequences)
      for (std::size_t k = 0; k + 1 < seq.size(); ++k)
        if (after[seq[k]].insert(seq[k + 1]).second) ++indegree[seq[k + 1]];
    std::vector<std::size_t> order;
    std::set<std::pair<std::size_t, std::size_t>> ready;  // (first-seen position, vertex)
    for (auto [v, d] : indegree)
      if (d == 0) ready.emplace(position.count(v) ? position[v] : SIZE_MAX, v);
    while (!ready.empty()) {
      const std::size_t v = ready.begin()->second;
      ready.erase(ready.begin());
      order.push_back(v);
      for (auto w : after[v])
        if (--indegree[w] == 0) ready.emplace(position.count(w) ? position[w] : SIZE_MAX, w);
    }
    if (order.size() != line.vertices.size()) {
      out_.findings.push_back(make_finding(FindingKind::order_conflict, {line.name},
                                           "the declared orders of points along this line contradict each other"));
      return;
    }
    line.vertices = std::move(order);
  }

  // Two drawn lines that cross inside both extents at no existing point meet at a new,
  // unlabelled vertex; concurrent lines share it. Lines that cross in the picture but are skew
  // in space do not meet. Vertices are appended here and ordered afterwards.
  void add_crossings() {
    const std::size_t n = out_.lines.size();
    std::vector<std::vector<bool>> meet(n, std::vector<bool>(n, false));
    std::map<std::size_t, std::vector<std::size_t>> lines_at;
    for (std::size_t l = 0; l < n; ++l)
      for (auto v : out_.lines[l].vertices) lines_at[v].push_back(l);
    for (const auto& [v, lines] : lines_at)
      for (auto x : lines)
        for (auto y : lines) meet[x][y] = true;
    std::vector<std::optional<EndPoints>> extents;
    for (const MaximalLine& line : out_.lines)
      extents.push_back(line.ends ? std::optional(EndPoints{&line.ends->first, &line.ends->second}) : std::nullopt);
    std::unordered_multimap<std::size_t, std::size_t> crossing_at;  // hash of the exact point → vertex
    auto crossings = SegmentSet(extents).crossings();
    out_.vertices.reserve(out_.vertices.size() + crossings.size());  // growing would copy every vertex
    for (auto& [i, j, x] : crossings) {
      if (meet[i][j] || !depths_meet(out_.lines[i], out_.lines[j], x)) continue;
      const std::size_t hash = exact_hash(x);
      std::optional<std::size_t> known;
      for (auto [it, end] = crossing_at.equal_range(hash); it != end && !known; ++it)
        if (*out_.vertices[it->second].at == x) known = it->second;
      if (!known) {
        crossing_at.emplace(hash, out_.vertices.size());
        out_.vertices.push_back({std::nullopt, std::move(x), false});
      }
      const std::size_t vertex = known.value_or(out_.vertices.size() - 1);
      for (auto line : {i, j}) {
        auto& vertices = out_.lines[line].vertices;
        if (!known || std::find(vertices.begin(), vertices.end(), vertex) == vertices.end()) vertices.push_back(vertex);
      }
    }
  }

  static std::size_t exact_hash(const Vec2& p) {
    auto limbs = [](const mpz_class& z) {
      return std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(z.get_mpz_t()->_mp_d),
                                                            sizeof(mp_limb_t) * mpz_size(z.get_mpz_t()))) ^
             static_cast<std::size_t>(mpz_sgn(z.get_mpz_t()) + 1);
    };
    std::size_t h = 0;
    for (const Rational* q : {&p.x, &p.y})
      for (const mpz_class* z : {&q->get_num(), &q->get_den()}) h = h * 1000003 ^ limbs(*z);
    return h;
  }

  std::optional<Rational> depth_at(const MaximalLine& line, const Vec2& x) const {
    for (auto index : line.pieces) {
      const Piece& piece = pieces_[index];
      if (!piece.z || !piece.extent) continue;
      const Rational t = line_parameter(x, *piece.extent->first, *piece.extent->second);
      if (t >= 0 && t <= 1) return piece.z->first + t * (piece.z->second - piece.z->first);
    }
    return std::nullopt;
  }

  bool depths_meet(const MaximalLine& l1, const MaximalLine& l2, const Vec2& x) const {
    const auto z1 = depth_at(l1, x), z2 = depth_at(l2, x);
    if (!z1 || !z2) return true;
    const Rational dz = *z1 - *z2;
    return dz * dz <= eps2_;
  }

  // A centre that facts name for a drawn circle centred elsewhere (wrong_centre): judged by its
  // distance from the drawn centre; without a position it cannot be measured (doubtful).
  void report_claimed_centre(const ClaimedCentre& claim, const Vec2& centre, const std::string& circle) {
    const Point& p = scene_.points[claim.point];
    std::optional<Rational> squared;
    if (p.at) {
      const Rational dx = p.at->x - centre.x, dy = p.at->y - centre.y;
      squared = dx * dx + dy * dy;
    }
    const Decision decision = squared ? bands_.decide_squared(*squared) : Decision::ambiguous;
    if (decision == Decision::holds) return;
    std::vector<std::string> elements{p.id, circle};
    std::string on;
    for (auto t : claim.through) {
      elements.push_back(scene_.points[t].id);
      on += (on.empty() ? "" : ", ") + scene_.points[t].id;
    }
    out_.findings.push_back(make_finding(
        FindingKind::wrong_centre, std::move(elements),
        p.id + " is named as the centre of the circle" + (on.empty() ? "" : " through " + on) +
            (p.at ? ", but the circle is centred elsewhere" : "; it has no position, and the circle is " + circle),
        squared ? std::optional<double>(bands_.squared_to_px(*squared)) : std::nullopt, decision));
  }

  void attach_circle_points() {
    for (const Circle& circle : scene_.circles) {
      std::vector<std::size_t> on;
      if (uses_declarations()) on = circle.through;
      const auto r2 = radius_squared(scene_, circle);
      const std::string name = circle_name(scene_, static_cast<std::size_t>(&circle - scene_.circles.data()));
      if (mode_ == IncidenceMode::merged && circle.center)
        for (const auto& claim : circle.claimed_centers) report_claimed_centre(claim, *circle.center, name);
      if (uses_geometry() && circle.center && r2) {
        for (std::size_t i = 0; i < scene_.points.size(); ++i) {
          const Point& p = scene_.points[i];
          if (!p.at || (circle.center_point && *circle.center_point == i)) continue;
          const bool declared = std::count(on.begin(), on.end(), i) > 0;
          const Decision decision =
              FrameBands::decide(compare_circle_gap(*p.at, *circle.center, *r2, bands_.eps_num()),
                                 compare_circle_gap(*p.at, *circle.center, *r2, bands_.eps_vis()));
          auto report = [&](FindingKind kind, std::string detail) {
            const double gap = bands_.to_px(circle_gap(*p.at, *circle.center, *r2));
            out_.findings.push_back(make_finding(kind, {p.id, name}, std::move(detail), gap, decision));
          };
          if (declared) {
            if (mode_ == IncidenceMode::merged && decision != Decision::holds)
              report(FindingKind::declared_off_circle, "declared on the circle but off it");
          } else if (decision == Decision::holds) {
            on.push_back(i);
            if (mode_ == IncidenceMode::merged)
              report(FindingKind::undeclared_on_circle, "lies on the circle but is not declared on it");
          } else if (decision == Decision::ambiguous) {
            report(FindingKind::near_miss_circle,
                   "too close to the circle to tell whether it is on it (ambiguous band)");
          }
        }
      }
      std::sort(on.begin(), on.end());
      out_.circle_points.push_back(std::move(on));
    }
  }

  static std::vector<const Vec2*> positions(const Scene& scene) {
    std::vector<const Vec2*> at;
    for (const Point& p : scene.points) at.push_back(p.at ? &*p.at : nullptr);
    return at;
  }

  const Scene& scene_;
  PlacedPoints placed_;  // the scene's points, converted once for the filtered predicates
  IncidenceMode mode_;
  FrameBands bands_;
  const Rational &eps_, &eps2_, &eps_vis2_;
  std::vector<Piece> pieces_;
  // By sorted points; ordered, so that a scene with many distinct sets costs a log per look-up.
  mutable std::map<std::vector<std::size_t>, Straightness> straightness_of_;
  std::deque<std::pair<Vec2, Vec2>> clipped_;  // the drawn ends of rays and lines (pieces point here)
  std::optional<PlacedPoints> piece_ends_;
  std::set<std::pair<std::size_t, std::size_t>> kept_apart_;  // (piece, point): near-collinear, kept apart
  struct Bend {
    std::size_t point;
    std::string line;
    Spread spread;                        // the two lines' points together (distance computed if reported)
    std::optional<Rational> culprit_off;  // the squared distance of a shared point off one line on its own
    std::string detail;
    bool facts_hold;  // each line holds the shared points: doubtful, not a conflict
    const Rational& squared_off() const { return culprit_off ? *culprit_off : spread.squared_off(); }
  };
  std::vector<Bend> bends_;                                   // joins refused because the union bends
  std::set<std::size_t> off_their_line_;                      // points reported as declared off a line
  std::set<std::pair<std::size_t, std::size_t>> bent_pairs_;  // first pieces of two lines that stay apart
  Incidence out_;
};

}  // namespace

Incidence build_incidence(const Scene& scene, IncidenceMode mode, const Bands& bands) {
  return Builder(scene, mode, bands).build();
}

}  // namespace geotruth
