// Letters to their points (docs/reader.md, "Letters to points"). A renderer writes every letter at one
// place relative to its point: matplotlib's annotate as AlphaGeometry (VisOnlyQA) calls it puts the
// letter a fixed distance along the freest direction and then shifts it by a fixed offset; a textbook
// or an annotator writes at about one distance all round. Both are a ring: the letter's centre lies at
// distance r from the point moved by c. The ring is fitted to the picture's own letters (three
// letter–point pairs propose one, the pairs within its tolerance vote, least squares on the winner's),
// so that a letter 100 px from its dot on a large canvas finds it, and a crossing nearer the letter
// than its own dot does not take it.
#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/exception.hpp>
#include <boost/graph/successive_shortest_path_nonnegative_weights.hpp>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <geotruth/reader.hpp>
#include <geotruth/work_limit.hpp>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <string_view>

#include "vision/read/points.hpp"

namespace geotruth::vision::read {
namespace {

// A letter whose small and capital forms have one shape, told apart only by their height (c, o, s,
// v, w, x, z).
bool shaped_as_its_capital(char c) {
  return std::string_view("cosvwxz").find(static_cast<char>(std::tolower(static_cast<unsigned char>(c)))) !=
         std::string_view::npos;
}

// Letters are looked for up to this many letter heights from their point (AlphaGeometry's farthest
// placement on its largest canvases is about 10).
constexpr double kFarReach = 12;
// The old rule's reach: letter heights from the point to the letter's box.
constexpr double kNearReach = 1.6;
// A letter off the ring by this many ring tolerances, and twice the ring's radius, is not written
// beside its point (VisOnlyQA writes some letters farther out than the ring: 0.9 of its radius).
constexpr double kFarOffRing = 3;
// A letter left without a point takes the only free point this many of its heights from its box.
constexpr double kLeftOverReach = 2 * kNearReach;

// A letter's height, the unit of the distances below (4 px at least: a speck read as a letter).
double letter_height(const Glyph& g) {
  return std::max(4.0, g.height);
}

// Distance from p to the letter's box (0 inside it), in pixels.
double box_gap_px(const Glyph& g, P2 p) {
  const double dx = std::max({0.0, g.box.x - p.x, p.x - (g.box.x + g.box.width)});
  const double dy = std::max({0.0, g.box.y - p.y, p.y - (g.box.y + g.box.height)});
  return std::hypot(dx, dy);
}

// The same in letter heights.
double box_distance(const Glyph& g, P2 p) {
  return box_gap_px(g, p) / letter_height(g);
}

// Which points a letter is attached to.
std::vector<bool> lettered_points(const std::vector<Attachment>& attached, std::size_t points) {
  std::vector<bool> lettered(points, false);
  for (const Attachment& a : attached)
    if (a.point >= 0) lettered[static_cast<std::size_t>(a.point)] = true;
  return lettered;
}

struct Ring {
  P2 shift;  // c
  double radius = 0;
};

struct Candidate {
  std::size_t glyph, point;
  P2 offset;       // the letter's centre less the point
  double penalty;  // letter heights: an undotted point in a dotted figure
};

// The circle through three offsets; none when they are (nearly) on one line.
std::optional<Ring> ring_through(P2 a, P2 b, P2 c) {
  const double d = 2 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
  if (std::abs(d) < 1e-6) return std::nullopt;
  const double a2 = a.x * a.x + a.y * a.y, b2 = b.x * b.x + b.y * b.y, c2 = c.x * c.x + c.y * c.y;
  const P2 centre{(a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d,
                  (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d};
  return Ring{centre, dist(centre, a)};
}

// Where a letter's ring places it: its box's centre, or its lower left (matplotlib's annotate
// anchors the text's baseline there).
P2 ring_anchor(const Glyph& glyph, bool lower_left) {
  return lower_left ? P2{static_cast<double>(glyph.box.x), static_cast<double>(glyph.box.y + glyph.box.height)}
                    : glyph.centre;
}

struct Pair {
  double cost;
  std::size_t glyph, point;
};

// The most letters each on a point of its own, one letter a point, and of those pairings the one of
// least total cost: a min-cost max-flow from the letters through the pairs to the points. None
// (every letter -1) if the flow cannot be found.
std::vector<int> most_pairs(const std::vector<Pair>& pairs, std::size_t glyphs, std::size_t points) {
  // Costs are doubles holding whole thousandths of a letter height: the potentials stay exact, and a
  // point the flow can no longer reach gets an infinite distance where Boost adds two of them
  // (integer costs would overflow there).
  using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
  using Graph = boost::adjacency_list<
      boost::vecS, boost::vecS, boost::directedS, boost::no_property,
      boost::property<boost::edge_capacity_t, long,
                      boost::property<boost::edge_residual_capacity_t, long,
                                      boost::property<boost::edge_reverse_t, Traits::edge_descriptor,
                                                      boost::property<boost::edge_weight_t, double>>>>>;
  Graph graph(glyphs + points + 2);
  const std::size_t source = glyphs + points, sink = source + 1;
  auto capacity = boost::get(boost::edge_capacity, graph);
  auto reverse = boost::get(boost::edge_reverse, graph);
  auto weight = boost::get(boost::edge_weight, graph);
  auto residual = boost::get(boost::edge_residual_capacity, graph);
  auto arc = [&](std::size_t from, std::size_t to, double cost) {
    const auto there = boost::add_edge(from, to, graph).first, back = boost::add_edge(to, from, graph).first;
    capacity[there] = 1, capacity[back] = 0;
    weight[there] = cost, weight[back] = -cost;
    reverse[there] = back, reverse[back] = there;
    return there;
  };
  for (std::size_t g = 0; g < glyphs; ++g) arc(source, g, 0);
  for (std::size_t p = 0; p < points; ++p) arc(glyphs + p, sink, 0);
  std::vector<Traits::edge_descriptor> pair_arcs;
  for (const Pair& pair : pairs)
    pair_arcs.push_back(arc(pair.glyph, glyphs + pair.point, std::round(1000 * pair.cost)));
  std::vector<int> point_of(glyphs, -1);
  try {
    boost::successive_shortest_path_nonnegative_weights(graph, source, sink);
  } catch (const boost::negative_edge&) {
    return point_of;
  }
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (residual[pair_arcs[k]] == 0) point_of[pairs[k].glyph] = static_cast<int>(pairs[k].point);
  return point_of;
}

}  // namespace

std::vector<Attachment> attach_letters(const std::vector<Glyph>& glyphs, const std::vector<ReadPoint>& points,
                                       bool dotted, LetterPlacement* placement) {
  // A figure that marks its points with dots names dots (a dot the reader missed aside); and a
  // letter is written off the strokes leaving its point (one seen along a stroke from a point is
  // more likely that stroke's other point's, or another's).
  auto penalty = [&](const Glyph& g, const ReadPoint& p) {
    double cost = dotted && p.dot < 0 ? 2.0 : 0.0;
    const double towards = std::atan2(g.centre.y - p.at.y, g.centre.x - p.at.x);
    double nearest = std::numbers::pi;
    for (const double a : p.leaving) {
      const double d = std::abs(std::remainder(towards - a, 2 * std::numbers::pi));
      nearest = std::min(nearest, d);
    }
    constexpr double kOnStroke = 25 * std::numbers::pi / 180;
    if (nearest < kOnStroke) cost += 0.5 * (kOnStroke - nearest) / kOnStroke;
    return cost;
  };

  // Greedy over the pairs by cost, one letter per point, and each letter's next best point.
  auto assign = [&](std::vector<Pair> pairs, std::vector<Attachment> out, std::vector<bool> taken) {
    std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.cost < b.cost; });
    for (const Pair& pair : pairs) {
      Attachment& a = out[pair.glyph];
      if (a.point >= 0 || taken[pair.point]) continue;
      a.point = static_cast<int>(pair.point), a.cost = pair.cost;
      taken[pair.point] = true;
    }
    for (const Pair& pair : pairs) {
      Attachment& a = out[pair.glyph];
      if (a.point < 0 || static_cast<int>(pair.point) == a.point || a.runner_up >= 0) continue;
      a.runner_up = static_cast<int>(pair.point), a.runner_up_cost = pair.cost;
    }
    return out;
  };
  const std::vector<Attachment> none(glyphs.size());
  const std::vector<bool> free(points.size(), false);

  // The near rule: a letter within 1.6 of its heights of its point's box, nearest first.
  std::vector<Pair> near_pairs;
  for (std::size_t g = 0; g < glyphs.size(); ++g) {
    if (!glyph_names_a_point(glyphs[g])) continue;
    charge_time(points.size());
    for (std::size_t p = 0; p < points.size(); ++p)
      if (const double d = box_distance(glyphs[g], points[p].at); d <= kNearReach)
        near_pairs.push_back({d + penalty(glyphs[g], points[p]), g, p});
  }
  const std::vector<Attachment> near = assign(near_pairs, none, free);
  const auto near_count = std::count_if(near.begin(), near.end(), [](const Attachment& a) { return a.point >= 0; });

  // The ring, from the letters far and near, on the letter's centre (text written centred on its
  // place) or on its box's lower left (matplotlib's annotate anchors the text's baseline there).
  std::vector<double> heights;
  for (const Glyph& g : glyphs) heights.push_back(letter_height(g));
  const double typical_height = median_of(std::move(heights));
  // Position errors: a glyph's box against its anchor (side bearings), the dot's centre: a quarter
  // of a letter's height and a pixel and a half.
  const double tolerance = 0.25 * typical_height + 1.5;
  struct Vote {
    std::size_t matched = 0;
    double residual = 0;
    std::vector<Pair> pairs;
  };
  // More letters matched; as many, the smaller ring (a large one around every point passes near
  // some other point by chance, and letters are written near their points where they can be). A
  // ring half as large again as another must match clearly more (two letters, or a fifth more):
  // among many dots, a large ring passes near some by chance (VisOnlyQA 00326noise_1's JPEG blobs:
  // a ring 77 px about every dot matched 8 letters, and 6 of them wrongly, against 7 on the true).
  auto better = [](const Vote& a, const Ring& ra, const Vote& b, const Ring& rb) {
    const double size_a = ra.radius + std::hypot(ra.shift.x, ra.shift.y),
                 size_b = rb.radius + std::hypot(rb.shift.x, rb.shift.y);
    if (std::abs(size_a - size_b) > 0.5 * std::min(size_a, size_b)) {
      const bool a_larger = size_a > size_b;
      const Vote &large = a_larger ? a : b, &small = a_larger ? b : a;
      const bool large_wins = large.matched >= small.matched + std::max<std::size_t>(2, small.matched / 5);
      return a_larger == large_wins;
    }
    if (a.matched != b.matched) return a.matched > b.matched;
    return a.residual < b.residual;
  };
  std::optional<Ring> best;
  Vote best_vote;
  bool best_lower_left = false;
  for (const bool lower_left : {false, true}) {
    std::vector<Candidate> candidates;
    for (std::size_t g = 0; g < glyphs.size(); ++g) {
      const Glyph& glyph = glyphs[g];
      if (!glyph_names_a_point(glyph)) continue;
      const P2 at = ring_anchor(glyph, lower_left);
      charge_time(points.size());
      for (std::size_t p = 0; p < points.size(); ++p) {
        if (dotted && points[p].dot < 0) continue;  // a dotted figure letters its dots
        const P2 v{at.x - points[p].at.x, at.y - points[p].at.y};
        if (std::hypot(v.x, v.y) <= kFarReach * typical_height)
          candidates.push_back({g, p, v, penalty(glyph, points[p])});
      }
    }
    auto vote = [&](const Ring& ring) {
      std::vector<Pair> pairs;
      for (const Candidate& c : candidates) {
        const double r = std::abs(dist(c.offset, ring.shift) - ring.radius);
        if (r <= tolerance) pairs.push_back({r / typical_height + c.penalty, c.glyph, c.point});
      }
      Vote v;
      const std::vector<Attachment> out = assign(pairs, none, free);
      for (const Attachment& a : out)
        if (a.point >= 0) ++v.matched, v.residual += a.cost;
      v.pairs = std::move(pairs);
      return v;
    };
    std::optional<Ring> local;
    Vote local_vote;
    auto consider = [&](const Ring& ring) {
      if (ring.radius > kFarReach * typical_height) return;
      Vote v = vote(ring);
      if (!local || better(v, ring, local_vote, *local)) local = ring, local_vote = std::move(v);
    };
    if (glyphs.size() < 3 || candidates.size() < 3) continue;
    // Three pairs of three letters and three points propose a ring; a fixed sequence of draws keeps
    // the reading deterministic.
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&](std::size_t n) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<std::size_t>((state >> 33) % n);
    };
    const std::size_t draws = std::min<std::size_t>(3000, candidates.size() * candidates.size());
    for (std::size_t k = 0; k < draws; ++k) {
      charge_time(candidates.size());
      const Candidate& a = candidates[next(candidates.size())];
      const Candidate& b = candidates[next(candidates.size())];
      const Candidate& c = candidates[next(candidates.size())];
      if (a.glyph == b.glyph || a.glyph == c.glyph || b.glyph == c.glyph) continue;
      if (a.point == b.point || a.point == c.point || b.point == c.point) continue;
      if (const auto ring = ring_through(a.offset, b.offset, c.offset)) consider(*ring);
    }
    // The ring refitted to the pairs it matched, while that matches more or fits closer.
    for (int round = 0; round < 3 && local; ++round) {
      const std::vector<Attachment> out = assign(local_vote.pairs, none, free);
      std::vector<P2> offsets;
      for (const Candidate& c : candidates)
        if (out[c.glyph].point == static_cast<int>(c.point)) offsets.push_back(c.offset);
      const auto refit = least_squares_circle(offsets);
      if (!refit) break;
      const std::size_t before = local_vote.matched;
      const double residual = local_vote.residual;
      consider(Ring{refit->centre, refit->radius});
      if (local_vote.matched == before && local_vote.residual >= residual) break;
    }
    if (local && (!best || better(local_vote, *local, best_vote, *best)))
      best = local, best_vote = std::move(local_vote), best_lower_left = lower_left;
  }
  if (std::getenv("GEOTRUTH_READER_DEBUG") && best)
    std::fprintf(stderr, "ring: shift (%.1f, %.1f) radius %.1f matched %zu residual %.2f near %zd%s\n", best->shift.x,
                 best->shift.y, best->radius, best_vote.matched, best_vote.residual, near_count,
                 best_lower_left ? " (lower left)" : "");
  if (placement) {
    *placement = LetterPlacement{false, false, {0, 0}, 0, tolerance, kNearReach * typical_height};
    // A ring that fits as many letters as the near rule attaches, not one through a few by chance.
    if (best && best_vote.matched >= 3 && static_cast<std::ptrdiff_t>(best_vote.matched) >= near_count)
      *placement = LetterPlacement{
          false, best_lower_left, best->shift, best->radius, tolerance, kNearReach * typical_height, true};
  }
  std::vector<Attachment> out;
  // The ring when it attaches clearly more letters than the near rule (a large ring about every point
  // passes near one more by chance).
  const auto matched = static_cast<std::ptrdiff_t>(best ? best_vote.matched : 0);
  if (!best || matched < 3 || matched < near_count + 2 || 4 * matched < 5 * near_count) {
    out = near;
  } else {
    if (placement) placement->ring = true;  // the fitted ring above (it matches more than the near rule)
    // The ring's pairs first (nearer breaking ties), then the letters it leaves to the near rule.
    std::vector<Pair> pairs = best_vote.pairs;
    for (Pair& pair : pairs)
      pair.cost += 0.02 * dist(glyphs[pair.glyph].centre, points[pair.point].at) / typical_height;
    out = assign(pairs, none, free);
    std::vector<bool> taken(points.size(), false);
    for (const Attachment& a : out)
      if (a.point >= 0) taken[a.point] = true;
    std::vector<Pair> rest;
    for (const Pair& pair : near_pairs)
      if (out[pair.glyph].point < 0) rest.push_back({pair.cost + 1, pair.glyph, pair.point});
    out = assign(rest, out, taken);
  }
  // A dotted figure letters every dot: letters left over go to the dots left over, after every other
  // pair (they are far from them, or the rule above would have paired them), as many as can be and
  // at the least total distance (nearest first can give a near tie to the wrong letter and send its
  // rival across the figure).
  if (!dotted) return out;
  // `base` with the most further letters on points of their own from `pairs`, at the least cost. A
  // letter paired here has for its runner-up the point whose reading costs the least in all: that
  // point instead of its own, and the letter there (if any) moved to its own; a letter paired before
  // keeps its runner-up, or takes its cheapest other point from `pairs`.
  auto match = [&](const std::vector<Pair>& pairs, std::vector<Attachment> base) {
    std::vector<int> holder(points.size(), -1);
    for (std::size_t g = 0; g < base.size(); ++g)
      if (base[g].point >= 0) holder[static_cast<std::size_t>(base[g].point)] = static_cast<int>(g);
    std::vector<Pair> open;
    for (const Pair& pair : pairs)
      if (base[pair.glyph].point < 0 && holder[pair.point] < 0) open.push_back(pair);
    const std::vector<int> point_of = most_pairs(open, glyphs.size(), points.size());
    std::vector<bool> fresh(glyphs.size(), false);
    for (const Pair& pair : open)
      if (point_of[pair.glyph] == static_cast<int>(pair.point) && base[pair.glyph].point < 0) {
        base[pair.glyph].point = point_of[pair.glyph], base[pair.glyph].cost = pair.cost;
        holder[pair.point] = static_cast<int>(pair.glyph), fresh[pair.glyph] = true;
      }
    std::map<std::pair<std::size_t, std::size_t>, double> cost_of;
    for (const Pair& pair : pairs) {
      auto [at, added] = cost_of.emplace(std::make_pair(pair.glyph, pair.point), pair.cost);
      if (!added) at->second = std::min(at->second, pair.cost);
    }
    const std::vector<Attachment> before = base;
    for (const Pair& pair : pairs) {
      Attachment& a = base[pair.glyph];
      if (a.point < 0 || static_cast<int>(pair.point) == a.point) continue;
      double alternative = pair.cost;
      if (fresh[pair.glyph] && holder[pair.point] >= 0) {
        const auto other = static_cast<std::size_t>(holder[pair.point]);
        const auto back = cost_of.find({other, static_cast<std::size_t>(a.point)});
        if (back == cost_of.end()) continue;  // the other letter cannot take this one's point
        alternative = pair.cost + back->second - base[other].cost;
      } else if (!fresh[pair.glyph] && before[pair.glyph].runner_up >= 0) {
        continue;
      }
      if (a.runner_up < 0 || alternative < a.runner_up_cost)
        a.runner_up = static_cast<int>(pair.point), a.runner_up_cost = alternative;
    }
    return base;
  };
  std::vector<Pair> far_pairs;
  for (std::size_t g = 0; g < glyphs.size(); ++g) {
    if (!glyph_names_a_point(glyphs[g])) continue;
    charge_time(points.size());
    for (std::size_t p = 0; p < points.size(); ++p) {
      if (points[p].dot < 0) continue;
      const double d = dist(glyphs[g].centre, points[p].at) / typical_height;
      if (d <= kFarReach) far_pairs.push_back({3 + d, g, p});
    }
  }
  out = match(far_pairs, out);

  // Letters and dots both left over: a letter took a dot that another letter, left without one,
  // needed (the ring passed by chance near a neighbour's dot, while the letter's own dot, right beside
  // it, stayed free). Then the pairing that letters the most dots at the least cost is the figure's,
  // a letter already on a dot moving only to one near it (a letter left over whose own dot was not
  // found must not push the others around).
  auto attached = [](const std::vector<Attachment>& a) {
    return std::count_if(a.begin(), a.end(), [](const Attachment& x) { return x.point >= 0; });
  };
  const std::vector<bool> lettered = lettered_points(out, points.size());
  const bool letter_left = std::any_of(out.begin(), out.end(), [&](const Attachment& a) { return a.point < 0; });
  bool dot_left = false;
  for (std::size_t p = 0; p < points.size(); ++p) dot_left |= points[p].dot >= 0 && !lettered[p];
  if (!letter_left || !dot_left) return out;
  std::vector<Pair> all;
  for (const Pair& pair : far_pairs)
    if (out[pair.glyph].point < 0) all.push_back(pair);
  for (std::size_t g = 0; g < glyphs.size(); ++g)
    if (out[g].point >= 0) all.push_back({out[g].cost, g, static_cast<std::size_t>(out[g].point)});
  for (const Pair& pair : near_pairs)
    if (out[pair.glyph].point >= 0 && static_cast<int>(pair.point) != out[pair.glyph].point &&
        points[pair.point].dot >= 0)
      all.push_back({pair.cost + 1, pair.glyph, pair.point});
  std::vector<Attachment> most = match(all, none);
  return attached(most) > attached(out) ? most : out;
}

void settle_on_ring(const std::vector<Glyph>& glyphs, std::vector<Attachment>& attached,
                    const std::vector<ReadPoint>& points, const LetterPlacement& placement, bool dotted) {
  if (!placement.ring && !placement.fitted) return;
  auto off_ring = [&](std::size_t g, int p) {
    const P2 at = ring_anchor(glyphs[g], placement.lower_left);
    const P2& point = points[static_cast<std::size_t>(p)].at;
    return std::abs(std::hypot(at.x - point.x - placement.shift.x, at.y - point.y - placement.shift.y) -
                    placement.radius);
  };
  auto height = [&](std::size_t g) { return letter_height(glyphs[g]); };
  // Each trade lowers the total by more than the tolerance, so the loop ends.
  for (bool traded = true; traded;) {
    traded = false;
    for (std::size_t a = 0; a < glyphs.size(); ++a) {
      charge_time(glyphs.size() - a);
      for (std::size_t b = a + 1; b < glyphs.size(); ++b) {
        const int pa = attached[a].point, pb = attached[b].point;
        if (pa < 0 || pb < 0 || !glyph_names_a_point(glyphs[a]) || !glyph_names_a_point(glyphs[b])) continue;
        const double before = off_ring(a, pa) + off_ring(b, pb);
        const double a_there = off_ring(a, pb), b_there = off_ring(b, pa);
        if (std::max(a_there, b_there) > placement.tolerance || a_there + b_there + placement.tolerance >= before)
          continue;
        // Each letter's runner-up is the trade undone: the other reading costs the pair `gain` more.
        const double gain = before - (a_there + b_there);
        attached[a] = Attachment{pb, a_there / height(a), pa, (a_there + gain) / height(a)};
        attached[b] = Attachment{pa, b_there / height(b), pb, (b_there + gain) / height(b)};
        traded = true;
      }
    }
  }
  if (dotted) {
    std::vector<bool> lettered = lettered_points(attached, points.size());
    // Letter g moves from its point to the free point nearest the ring among those `eligible`, within
    // the ring's tolerance; the point it leaves is its runner-up.
    auto move_to_ring = [&](std::size_t g, const auto& eligible, const char* from_what) {
      const int from = attached[g].point;
      int to = -1, next = -1;
      double off = placement.tolerance, next_off = placement.tolerance;
      for (std::size_t p = 0; p < points.size(); ++p) {
        if (lettered[p] || !eligible(p)) continue;
        const double d = off_ring(g, static_cast<int>(p));
        if (d <= off)
          next = to, next_off = off, to = static_cast<int>(p), off = d;
        else if (d <= next_off)
          next = static_cast<int>(p), next_off = d;
      }
      if (std::getenv("GEOTRUTH_READER_DEBUG"))
        std::fprintf(stderr, "settle '%s': %s off ring %.1f, point %d off %.1f (tolerance %.1f)\n",
                     glyphs[g].text.c_str(), from_what, from >= 0 ? off_ring(g, from) : -1.0, to, off,
                     placement.tolerance);
      if (to < 0) return;
      // A letter that had no point has for its runner-up the next free point on the ring, if any.
      attached[g] = from >= 0 ? Attachment{to, off / height(g), from, off_ring(g, from) / height(g)}
                              : Attachment{to, off / height(g), next, next_off / height(g)};
      if (from >= 0) lettered[static_cast<std::size_t>(from)] = false;
      lettered[static_cast<std::size_t>(to)] = true;
    };
    // A dotted figure letters its dots: a letter the near rule left on a crossing off the ring moves
    // to the free dot the ring puts it beside (a label written farther from its dot than from a
    // crossing). On the ring, the crossing may be its point (a dot lost in the strokes about it).
    // So does a letter left on a point inside its own box off the ring, or on a dot touching it: the
    // letter's own ink, a joint as thick as a dot or a stroke's end in it (VisOnlyQA 00832's K, on
    // its joint 23 px from its dot on the ring), or strokes crossing close together against it
    // (00131's B, a blob 1 px from its box, 17 px from its dot on the ring).
    auto touches_own_box = [&](std::size_t g, int p) {
      const ReadPoint& point = points[static_cast<std::size_t>(p)];
      return box_gap_px(glyphs[g], point.at) <= point.dot_radius;
    };
    for (std::size_t g = 0; g < glyphs.size(); ++g) {
      const int from = attached[g].point;
      if (from < 0 || !glyph_names_a_point(glyphs[g]) || off_ring(g, from) <= placement.tolerance) continue;
      const bool crossing = points[static_cast<std::size_t>(from)].dot < 0;
      if (crossing || touches_own_box(g, from))
        move_to_ring(
            g, [&](std::size_t p) { return points[p].dot >= 0; }, crossing ? "crossing" : "its own ink");
    }
    // The converse: a letter on a point far off the ring (paired there only because a letter and a
    // dot were left over: a blob where two strokes cross at a narrow angle, read as a dot) moves to
    // the free point the ring puts it beside, its own dot lost in the strokes that meet there.
    for (std::size_t g = 0; g < glyphs.size(); ++g) {
      const int from = attached[g].point;
      if (from >= 0 && glyph_names_a_point(glyphs[g]) &&
          off_ring(g, from) > std::max(kFarOffRing * placement.tolerance, 2 * placement.radius))
        move_to_ring(
            g, [](std::size_t) { return true; }, "point far");
    }
    for (std::size_t g = 0; g < glyphs.size(); ++g)
      if (attached[g].point < 0 && glyph_names_a_point(glyphs[g]))
        move_to_ring(
            g, [](std::size_t) { return true; }, "no point");
  }
  // Last, the runner-up as the ring sees it: a letter on the ring at its point, whose runner-up point
  // is off the ring by more than the tolerance, has no near rival there, however near that point is
  // (VisOnlyQA 00048noise_1: D's glyph is 2 px nearer N's dot than its own, which the ring puts
  // 17.5 px off it). The rival's cost is the letter's own and its distance off the ring.
  for (std::size_t g = 0; g < glyphs.size(); ++g) {
    Attachment& a = attached[g];
    if (a.point < 0 || a.runner_up < 0 || !glyph_names_a_point(glyphs[g])) continue;
    const double own = off_ring(g, a.point), rival = off_ring(g, a.runner_up);
    if (own <= placement.tolerance && rival > own + placement.tolerance)
      a.runner_up_cost = std::max(a.runner_up_cost, a.cost + (rival - own) / height(g));
  }
}

void take_nearest_free_points(const std::vector<Glyph>& glyphs, std::vector<Attachment>& attached,
                              const std::vector<ReadPoint>& points) {
  std::vector<bool> lettered = lettered_points(attached, points.size());
  for (std::size_t g = 0; g < glyphs.size(); ++g) {
    if (attached[g].point >= 0 || !glyph_names_a_point(glyphs[g])) continue;
    int nearest = -1, next = -1;
    double near_d = std::numeric_limits<double>::infinity(), next_d = near_d;
    for (std::size_t p = 0; p < points.size(); ++p) {
      if (lettered[p]) continue;
      const double d = box_distance(glyphs[g], points[p].at);
      if (d < near_d)
        next = nearest, next_d = near_d, nearest = static_cast<int>(p), near_d = d;
      else if (d < next_d)
        next = static_cast<int>(p), next_d = d;
    }
    if (std::getenv("GEOTRUTH_READER_DEBUG"))
      std::fprintf(stderr, "left over '%s': nearest free point %d at %.2f heights, next %.2f\n", glyphs[g].text.c_str(),
                   nearest, near_d, next_d);
    if (nearest < 0 || near_d > kLeftOverReach || next_d < 2 * near_d) continue;
    attached[g] = Attachment{nearest, near_d, next, next_d};
    lettered[static_cast<std::size_t>(nearest)] = true;
  }
}

void prefer_junctions_to_ends_at_letters(const std::vector<Glyph>& glyphs, std::vector<Attachment>& attached,
                                         const std::vector<ReadPoint>& points, double reach, bool dotted) {
  auto bare_end = [&](int p) {
    const ReadPoint& point = points[static_cast<std::size_t>(p)];
    return point.dot < 0 && point.pieces.size() == 1 && point.rounds.empty();
  };
  std::vector<bool> lettered = lettered_points(attached, points.size());
  // A free junction (a crossing or a dot no letter has, no centre alone) can take a letter.
  auto free_junction = [&](int p) {
    return p >= 0 && !lettered[static_cast<std::size_t>(p)] && !bare_end(p) &&
           !points[static_cast<std::size_t>(p)].centre_only;
  };
  auto move = [&](std::size_t g, int to, double cost) {
    const Attachment a = attached[g];
    attached[g] = Attachment{to, cost, a.point, a.cost};
    lettered[static_cast<std::size_t>(a.point)] = false;
    lettered[static_cast<std::size_t>(to)] = true;
  };
  for (std::size_t g = 0; g < glyphs.size(); ++g) {
    const Attachment a = attached[g];
    if (a.point < 0 || !glyph_names_a_point(glyphs[g]) || !bare_end(a.point)) continue;
    const P2 end = points[static_cast<std::size_t>(a.point)].at;
    // In a dotted figure, a bare end in the letter's own box is where the letter's ink cut the
    // stroke: the nearest free junction within one and a half letter heights is the point (VisOnlyQA
    // 00881noise_0's G, 22 px from the crossing where its dot is lost in five strokes); with none,
    // the end may be the point, the letter over its dot.
    if (dotted && box_gap_px(glyphs[g], end) <= 1) {
      int to = -1;
      double nearest = 1.5 * letter_height(glyphs[g]);
      for (std::size_t p = 0; p < points.size(); ++p)
        if (free_junction(static_cast<int>(p)) && dist(points[p].at, end) <= nearest)
          nearest = dist(points[p].at, end), to = static_cast<int>(p);
      if (to >= 0) {
        move(g, to, box_gap_px(glyphs[g], points[static_cast<std::size_t>(to)].at) / letter_height(glyphs[g]));
        continue;
      }
    }
    if (a.runner_up_about_as_near() && free_junction(a.runner_up) && box_gap_px(glyphs[g], end) <= reach)
      move(g, a.runner_up, a.runner_up_cost);
  }
}

std::optional<FittedCircle> least_squares_circle(const std::vector<P2>& points) {
  if (points.size() < 3) return std::nullopt;
  double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, sxz = 0, syz = 0, sz = 0;
  const double n = static_cast<double>(points.size());
  for (const P2& v : points) {
    const double z = v.x * v.x + v.y * v.y;
    sx += v.x, sy += v.y, sxx += v.x * v.x, syy += v.y * v.y, sxy += v.x * v.y;
    sxz += v.x * z, syz += v.y * z, sz += z;
  }
  // Solve for (A, B, C) in x² + y² = A x + B y + C, least squares.
  const double m[3][4] = {{sxx, sxy, sx, sxz}, {sxy, syy, sy, syz}, {sx, sy, n, sz}};
  double a[3][4];
  std::copy(&m[0][0], &m[0][0] + 12, &a[0][0]);
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 3; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    if (std::abs(a[pivot][col]) < 1e-9) return std::nullopt;
    std::swap(a[col], a[pivot]);
    for (int r = 0; r < 3; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (int k = col; k < 4; ++k) a[r][k] -= f * a[col][k];
    }
  }
  const double A = a[0][3] / a[0][0], B = a[1][3] / a[1][1], C = a[2][3] / a[2][2];
  const P2 centre{A / 2, B / 2};
  const double r2 = C + centre.x * centre.x + centre.y * centre.y;
  if (r2 < 0) return std::nullopt;
  return FittedCircle{centre, std::sqrt(r2)};
}

bool glyph_names_a_point(const Glyph& g) {
  return !g.variable && vision::names_a_point(g.text);
}

bool may_be_no_letter(const Glyph& g) {
  return g.doubtful && g.runner_up.empty() && g.runner_up_confidence > 0;
}

bool runner_up_plausible(const std::vector<Glyph>& glyphs, std::size_t g) {
  const Glyph& glyph = glyphs[g];
  const std::string& r = glyph.runner_up;
  if (r.empty()) return false;
  std::size_t capitals = 0, labels = 0;
  std::vector<char> run;
  for (const Glyph& other : glyphs) {
    if (other.text.empty()) continue;
    ++labels;
    if (std::isupper(static_cast<unsigned char>(other.text[0]))) ++capitals;
    if (&other != &glyph && other.text == r) return false;  // a label read twice is not the reading
    if (other.text.size() == 1 && std::isupper(static_cast<unsigned char>(other.text[0])) && other.text != "O")
      run.push_back(other.text[0]);
  }
  const bool lower = r.size() == 1 && std::islower(static_cast<unsigned char>(r[0]));
  if (lower && capitals >= 0.8 * labels) return false;
  std::sort(run.begin(), run.end());
  run.erase(std::unique(run.begin(), run.end()), run.end());
  const bool consecutive =
      run.size() >= 3 && run.front() == 'A' && run.back() - 'A' + 1 == static_cast<int>(run.size());
  if (!consecutive || r.size() != 1 || r[0] <= run.back() || glyph.found_at_dot) return true;
  // A centre's O past the run only where this glyph's letter is not needed by the run (VisOnlyQA
  // 00907noise_1: a D read 0.52 against O, in a run A to N).
  const bool inside_run = glyph.text.size() == 1 && glyph.text[0] >= 'A' && glyph.text[0] < run.back();
  return r == "O" && !inside_run;
}

bool is_number(const std::string& label) {
  return !label.empty() &&
         std::all_of(label.begin(), label.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

void mark_small_capitals(std::vector<Glyph>& glyphs) {
  auto same_shape_capital = [](const Glyph& g) {
    return g.text.size() == 1 && std::isupper(static_cast<unsigned char>(g.text[0])) &&
           shaped_as_its_capital(g.text[0]);
  };
  for (Glyph& g : glyphs) {
    // Only a sure read: an unsure C or O is as often a bit of a letter strokes cross (VisOnlyQA
    // 00458's F, read as C 8 px tall at 0.24), which the font reads again.
    if (!same_shape_capital(g) || g.confidence < 0.9) continue;
    std::vector<double> others;
    for (const Glyph& o : glyphs) {
      if (&o == &g || o.text.empty()) continue;
      const bool capital = o.text.size() == 1 && std::isupper(static_cast<unsigned char>(o.text[0]));
      if (capital || is_number(o.text)) others.push_back(o.height);
    }
    if (others.size() >= 2 && g.height < 0.8 * median_of(std::move(others))) g.variable = true;
  }
}

void mark_variables(std::vector<Glyph>& glyphs) {
  // A small letter written level with a number just before or after it is that expression's
  // variable (Geometry3K 14's "1/4 x + 5": the fraction's digits stand left of x, above and below
  // its middle) or a degree sign read as o (18's "3)°"), with or without capitals about.
  auto small_letter = [](const Glyph& g) {
    return g.text.size() == 1 && std::islower(static_cast<unsigned char>(g.text[0]));
  };
  auto beside_a_number = [&](const Glyph& g) {
    return std::any_of(glyphs.begin(), glyphs.end(), [&](const Glyph& n) {
      if (n.text.empty() || !std::isdigit(static_cast<unsigned char>(n.text[0]))) return false;
      const double gap = std::max(n.box.x - (g.box.x + g.box.width), g.box.x - (n.box.x + n.box.width));
      const double height = std::max(g.height, n.height);  // a degree sign is far smaller than its number
      return gap <= height && std::abs(n.centre.y - g.centre.y) <= 1.5 * height;
    });
  };
  for (Glyph& g : glyphs)
    if (small_letter(g) && beside_a_number(g)) g.variable = true;
  std::vector<double> capitals;
  for (const Glyph& g : glyphs)
    if (!g.text.empty() && std::isupper(static_cast<unsigned char>(g.text[0]))) capitals.push_back(g.height);
  // Among two capitals or more, a small letter a fifth or more shorter than they are is a variable,
  // and so is one whose capital has another shape (Geometry3K 19 at 200 px: "x°" read as m at 1.00,
  // as tall as the capitals); one that shares its capital's shape (o, x) as tall as they are may be a
  // capital misread.
  if (capitals.size() >= 2) {
    const double capital = median_of(std::move(capitals));
    for (Glyph& g : glyphs)
      if (small_letter(g) && (g.height < 0.8 * capital || !shaped_as_its_capital(g.text[0]))) g.variable = true;
  }
  mark_small_capitals(glyphs);
  // Among numbers with no capital that names a point, every small letter is a variable (Geometry3K
  // 15: 10, 60°, x and y, no point named).
  const bool names = std::any_of(glyphs.begin(), glyphs.end(), [](const Glyph& g) {
    return !g.variable && !g.text.empty() && std::isupper(static_cast<unsigned char>(g.text[0]));
  });
  if (!names && std::any_of(glyphs.begin(), glyphs.end(), [](const Glyph& g) { return is_number(g.text); }))
    for (Glyph& g : glyphs)
      if (small_letter(g)) g.variable = true;
}

}  // namespace geotruth::vision::read

namespace geotruth::vision {

bool names_a_point(const std::string& label) {
  if (label.empty() || !std::isalpha(static_cast<unsigned char>(label[0]))) return false;
  // A number followed by a letter is a coefficient and its variable, whatever comes before it
  // (Geometry3K 20's "(2x + 24)°": its bracket read as C, "C2x").
  const auto digit =
      std::find_if(label.begin(), label.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (std::any_of(digit, label.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); })) return false;
  // A capital followed by a small letter is a word or a bracket and a variable (Geometry3K 20's
  // "(y + 58)°" read as Ly), never a point's name.
  if (std::any_of(label.begin() + 1, label.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); }))
    return false;
  return label.size() == 1 || std::isupper(static_cast<unsigned char>(label[0]));
}

}  // namespace geotruth::vision
