#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>
#include <optional>

#include <boost/pending/disjoint_sets.hpp>
#include <geotruth/work_limit.hpp>

#include "vision/read/shapes.hpp"

namespace geotruth::vision::read {
namespace {

Rational px(double v) {
  return Rational(static_cast<long>(std::llround(v * 100))) / 100;
}

struct Corner {
  P2 at;
  std::vector<std::pair<int, int>> ends;  // (piece, 0 start / 1 end)
};

// The point nearest the pieces' lines in least squares.
P2 meeting_point(const std::vector<Piece>& pieces, const Corner& c) {
  double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
  for (const auto& [i, end] : c.ends) {
    const Piece& p = pieces[i];
    const double nx = -p.dir.y, ny = p.dir.x, d = nx * p.origin.x + ny * p.origin.y;
    a11 += nx * nx, a12 += nx * ny, a22 += ny * ny, b1 += nx * d, b2 += ny * d;
  }
  const double det = a11 * a22 - a12 * a12;
  if (det < 1e-6) return c.at;
  const P2 x{(a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det};
  return dist(x, c.at) < 10 ? x : c.at;
}

using Z = std::complex<double>;

// How far the vertices of `z` (in order, either way round) lie from the nearest regular n-gon:
// the largest distance from a vertex to its place on the similarity fitted in least squares
// (centre the mean, z_k ≈ c + a·ω^k: a = Σ (z_k − c)·conj(ω^k) / n).
double regular_gap(const std::vector<Z>& z) {
  const std::size_t n = z.size();
  const Z c = std::accumulate(z.begin(), z.end(), Z{}) / static_cast<double>(n);
  double best = std::numeric_limits<double>::infinity();
  for (double turn : {1.0, -1.0}) {
    std::vector<Z> w(n);
    for (std::size_t k = 0; k < n; ++k)
      w[k] = std::polar(1.0, turn * 2 * std::numbers::pi * static_cast<double>(k) / n);
    Z a{};
    for (std::size_t k = 0; k < n; ++k) a += (z[k] - c) * std::conj(w[k]);
    a /= static_cast<double>(n);
    double gap = 0;
    for (std::size_t k = 0; k < n; ++k) gap = std::max(gap, std::abs(z[k] - c - a * w[k]));
    best = std::min(best, gap);
  }
  return best;
}

// How far a quadrilateral lies from a rectangle: a rectangle's diagonals halve each other (else a
// vertex is |z0 + z2 − z1 − z3| / 2 from the parallelogram) and are of one length (else each end
// is half the difference from it).
double rectangle_gap(const std::vector<Z>& z) {
  return std::max(std::abs(z[0] + z[2] - z[1] - z[3]) / 2, std::abs(std::abs(z[0] - z[2]) - std::abs(z[1] - z[3])) / 2);
}

// How far 2n vertices lie from a regular star (GePBench's: n tips on one circle, n inner corners
// on a smaller one, each halfway between two tips, the outline concave at them): the largest
// distance from a vertex to its place on the fitted star (the tips' ring fitted as in
// regular_gap, the inner ring at the same rotation plus π/n and a real ratio of its radius).
// Infinite when the fitted inner ring does not make the outline concave.
double star_gap(const std::vector<Z>& z) {
  const std::size_t n = z.size() / 2;
  const Z c = std::accumulate(z.begin(), z.end(), Z{}) / static_cast<double>(z.size());
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t first = 0; first < 2; ++first)
    for (double turn : {1.0, -1.0}) {
      auto tip = [&](std::size_t j) { return z[(2 * j + first) % z.size()] - c; };
      auto inner = [&](std::size_t j) { return z[(2 * j + 1 + first) % z.size()] - c; };
      std::vector<Z> w(n);
      for (std::size_t j = 0; j < n; ++j)
        w[j] = std::polar(1.0, turn * 2 * std::numbers::pi * static_cast<double>(j) / n);
      const Z half = std::polar(1.0, turn * std::numbers::pi / static_cast<double>(n));
      Z a{}, b{};
      for (std::size_t j = 0; j < n; ++j) a += tip(j) * std::conj(w[j]), b += inner(j) * std::conj(w[j] * half);
      a /= static_cast<double>(n), b /= static_cast<double>(n);
      if (std::norm(a) == 0) continue;
      const double ratio = (b * std::conj(a)).real() / std::norm(a);
      if (ratio <= 0 || ratio >= std::cos(std::numbers::pi / static_cast<double>(n))) continue;
      double gap = 0;
      for (std::size_t j = 0; j < n; ++j)
        gap = std::max({gap, std::abs(tip(j) - a * w[j]), std::abs(inner(j) - a * ratio * w[j] * half)});
      best = std::min(best, gap);
    }
  return best;
}

// A sector as GePBench draws it (matplotlib's Wedge: from the centre along one radius, round the
// arc, back along the other): two straight pieces of one length from a common end, and the arc
// between their far ends inked.
struct SectorRead {
  P2 centre;
  double radius = 0, start_deg = 0, sweep_deg = 0;  // image angles (y down), from start toward +y
  int sides[2] = {-1, -1};
};

// The share of the arc of (c, r) from `start` over `sweep` (radians) with ink within `tolerance`
// across it, sampled a pixel apart.
double arc_coverage(const Sheet& sheet, P2 c, double r, double start, double sweep, double tolerance) {
  const int n = std::max(8, static_cast<int>(std::abs(sweep) * r));
  int ink = 0, known = 0;
  for (int k = 1; k < n; ++k) {  // the ends are the radii's
    const double t = start + sweep * k / n;
    const P2 u{std::cos(t), std::sin(t)};
    const P2 p{c.x + r * u.x, c.y + r * u.y};
    if (!sheet.inside(p)) continue;
    ++known;
    ink += peak_darkness_across(sheet.paper, p, u, tolerance) >= sheet.paper.ink_level;
  }
  return known ? static_cast<double>(ink) / known : 0;
}

// The sectors among the pieces: pairs of pieces with a common end (the centre, within `merge`; or
// one ending there and the other running on past it by up to 3 × `merge`, along another stroke),
// lengths equal within `merge`, whose far ends are joined by an inked arc about the centre (90 % of
// it, the way round that is inked; the other way not) that passes no third piece's far end from
// that centre (adjacent sectors share a radius), on no full circle read.
std::vector<SectorRead> find_sectors(const Sheet& sheet, const std::vector<Piece>& pieces,
                                     const std::vector<Round>& rounds, double merge) {
  std::vector<SectorRead> out;
  const double tolerance = sheet.stroke_tolerance() + 1;
  auto ends = [&](std::size_t i) { return std::array<P2, 2>{pieces[i].a(), pieces[i].b()}; };
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    charge_time(pieces.size() - i);
    for (std::size_t j = i + 1; j < pieces.size(); ++j)
      for (int ei = 0; ei < 2; ++ei)
        for (int ej = 0; ej < 2; ++ej) {
          const P2 ci = ends(i)[ei], cj = ends(j)[ej];
          if (dist(ci, cj) > 3 * merge) continue;
          P2 c{(ci.x + cj.x) / 2, (ci.y + cj.y) / 2};
          if (dist(ci, cj) > merge) {
            // A radius that runs on past the centre along another stroke through it (the centre on
            // an ellipse's or a polygon's outline): the centre is where the two radii's lines meet,
            // near both ends.
            if (pieces[i].sine_to(pieces[j]) < 0.2 || !crossing(pieces[i], pieces[j], c)) continue;
            if (dist(c, ci) > 3 * merge || dist(c, cj) > 3 * merge || std::min(dist(c, ci), dist(c, cj)) > merge)
              continue;
          }
          const P2 fi = ends(i)[1 - ei], fj = ends(j)[1 - ej];
          if (dist(fi, fj) <= merge) continue;  // two radii to one far end: a stroke drawn twice, no sector
          const double ri = dist(c, fi), rj = dist(c, fj), r = (ri + rj) / 2;
          if (std::abs(ri - rj) > merge || r < 4 * merge) continue;
          if (std::any_of(rounds.begin(), rounds.end(), [&](const Round& o) {
                return o.full && dist(o.centre, c) <= merge && std::abs(o.radius - r) <= merge;
              }))
            continue;
          const double ti = std::atan2(fi.y - c.y, fi.x - c.x), tj = std::atan2(fj.y - c.y, fj.x - c.x);
          double sweep = tj - ti;  // from i's end toward +y
          while (sweep <= 0) sweep += 2 * std::numbers::pi;
          const double one = arc_coverage(sheet, c, r, ti, sweep, tolerance),
                       other = arc_coverage(sheet, c, r, tj, 2 * std::numbers::pi - sweep, tolerance);
          const bool this_way = one >= 0.9 && other < 0.9, that_way = other >= 0.9 && one < 0.9;
          if (!this_way && !that_way) continue;
          SectorRead sector;
          sector.centre = c, sector.radius = r;
          sector.start_deg = (this_way ? ti : tj) * 180 / std::numbers::pi;
          sector.sweep_deg = (this_way ? sweep : 2 * std::numbers::pi - sweep) * 180 / std::numbers::pi;
          sector.sides[0] = static_cast<int>(i), sector.sides[1] = static_cast<int>(j);
          // A third radius ending on the arc: these are two sectors side by side, not one.
          const double from = sector.start_deg * std::numbers::pi / 180,
                       span = sector.sweep_deg * std::numbers::pi / 180;
          bool split = false;
          for (std::size_t k = 0; k < pieces.size() && !split; ++k) {
            if (k == i || k == j) continue;
            for (int ek = 0; ek < 2; ++ek) {
              const P2 near = ends(k)[ek], far = ends(k)[1 - ek];
              if (dist(near, c) > merge || std::abs(dist(far, c) - r) > merge) continue;
              double t = std::atan2(far.y - c.y, far.x - c.x) - from;
              while (t < 0) t += 2 * std::numbers::pi;
              split = split || (t > 0.02 && t < span - 0.02);
            }
          }
          if (!split) out.push_back(sector);
        }
  }
  return out;
}

// A spiral as GePBench draws it (r = a + b·θ, two to six turns) reaches the shape reader as
// short straight pieces along its stroke, with gaps where its turns are too tight to be straight
// and where other strokes cross it. First its arcs: chains of pieces that turn one way by less
// than 50° at each joint. Joints: a piece's end and another's within `merge`, or across a wider gap
// (up to three quarters of the shorter piece) that goes on the way the curve goes; the smoothest
// joints first, each end in one joint, no loop. Kept: the chains of two pieces or more that turn
// one way, by a quarter turn or more, with their pieces' samples, in order, and their turning.
struct Arc {
  std::vector<int> pieces;
  std::vector<P2> samples;
  double turning = 0;  // radians, unsigned
  P2 centre;           // of the circle fitted to the samples
  double radius = 0;
};
std::vector<Arc> find_arcs(const std::vector<Piece>& pieces, const std::vector<bool>& taken, double merge) {
  const double most_turn = 50 * std::numbers::pi / 180;
  const int n = static_cast<int>(pieces.size());
  // The direction a piece runs in when entered by its end `from` (0: at a(), 1: at b()).
  auto heading = [&](int i, int from) { return from == 0 ? pieces[i].dir : P2{-pieces[i].dir.x, -pieces[i].dir.y}; };
  auto end_at = [&](int i, int end) { return end == 0 ? pieces[i].a() : pieces[i].b(); };
  auto turn = [](P2 u, P2 v) { return std::atan2(u.x * v.y - u.y * v.x, u.x * v.x + u.y * v.y); };
  struct Joint {
    double cost;
    int i, e, j, f;
  };
  std::vector<Joint> joints;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int e = 0; e < 2; ++e)
        for (int f = 0; f < 2; ++f) {
          // Along a curve the straight pieces are of like lengths; a polygon's side that a curve
          // crosses is much longer than the pieces either side of the crossing.
          if (taken[i] || taken[j] ||
              std::max(pieces[i].length(), pieces[j].length()) > 2.5 * std::min(pieces[i].length(), pieces[j].length()))
            continue;
          const P2 from = end_at(i, e), to = end_at(j, f), out = heading(i, 1 - e);  // leaving i by e
          const double gap = dist(from, to);
          if (gap > std::max(2 * merge, 0.75 * std::min(pieces[i].length(), pieces[j].length()))) continue;
          if (gap > merge && std::abs(turn(out, {(to.x - from.x) / gap, (to.y - from.y) / gap})) > most_turn) continue;
          const double bend = std::abs(turn(out, heading(j, f)));
          if (bend < most_turn) joints.push_back({bend + 0.02 * gap / merge, i, e, j, f});
        }
  std::sort(joints.begin(), joints.end(), [](const Joint& x, const Joint& y) { return x.cost < y.cost; });
  std::vector<std::array<std::pair<int, int>, 2>> next(pieces.size(), {{{-1, -1}, {-1, -1}}});
  boost::disjoint_sets_with_storage<> chained(pieces.size());  // no joint may close a loop
  for (const Joint& joint : joints) {
    if (next[joint.i][joint.e].first >= 0 || next[joint.j][joint.f].first >= 0) continue;
    if (chained.find_set(joint.i) == chained.find_set(joint.j)) continue;
    chained.union_set(joint.i, joint.j);
    next[joint.i][joint.e] = {joint.j, joint.f};
    next[joint.j][joint.f] = {joint.i, joint.e};
  }
  std::vector<Arc> arcs;
  std::vector<bool> used(pieces.size(), false);
  for (int start = 0; start < n; ++start)
    for (int e = 0; e < 2; ++e) {
      if (taken[start] || used[start] || next[start][e].first >= 0) continue;
      std::vector<int> chain{start};
      used[start] = true;
      double turning = 0;
      int sign_changes = 0, last_sign = 0;
      for (auto [i, out] = std::pair{start, 1 - e}; next[i][out].first >= 0;) {
        const auto [j, f] = next[i][out];
        const double bend = turn(heading(i, 1 - out), heading(j, f));
        const int sign = bend > 0 ? 1 : -1;
        if (std::abs(bend) > 0.05) sign_changes += last_sign != 0 && sign != last_sign, last_sign = sign;
        turning += bend;
        chain.push_back(j), used[j] = true;
        i = j, out = 1 - f;
      }
      if (chain.size() < 2 || sign_changes > 1 || std::abs(turning) < std::numbers::pi / 2) continue;
      Arc arc{chain, {}, std::abs(turning), {}, 0};
      for (std::size_t k = 0; k < chain.size(); ++k) {
        const Piece& piece = pieces[chain[k]];
        // Each piece run from the end that meets the previous one (the first: away from the next).
        const P2 join = k > 0 ? arc.samples.back() : P2{};
        const bool reversed =
            k > 0 ? dist(piece.b(), join) < dist(piece.a(), join)
                  : std::min(dist(piece.a(), pieces[chain[1]].a()), dist(piece.a(), pieces[chain[1]].b())) <
                        std::min(dist(piece.b(), pieces[chain[1]].a()), dist(piece.b(), pieces[chain[1]].b()));
        for (double t = 0; t <= piece.length(); t += 2)
          arc.samples.push_back(piece.at(reversed ? piece.t1 - t : piece.t0 + t));
      }
      const auto circle = least_squares_circle(arc.samples);
      if (!circle) continue;
      arc.centre = circle->centre, arc.radius = circle->radius;
      arcs.push_back(std::move(arc));
    }
  return arcs;
}

// The spiral r = a + b·θ about a centre that best fits points sampled along it, in any order:
// centres tried on a grid of ±40 px round `guess` (an arc's circle is centred within a few growths
// b of the spiral's), refined three times round the best. At each, the polar angles (image
// angles: toward +y) are unwrapped from the inner end outward, and a, b fitted by least squares
// over the turn counts the inner end may start on. A spiral that winds the other way (r growing as
// the angle falls) is fitted as its mirror image across the horizontal through its centre: a
// scene's spiral has no handedness of its own (docs/reader.md, "Shapes").
struct SpiralFit {
  P2 centre;
  double a = 0, b = 0, theta_end = 0;
  bool mirrored = false;
  double rms = 0;  // of the samples' radial distances from the curve
};
SpiralFit fit_spiral(const std::vector<P2>& chain, P2 guess) {
  SpiralFit best;
  double best_error = std::numeric_limits<double>::infinity();
  auto try_centre = [&](P2 c) {
    // Along a spiral the radius grows: ordered by it, the samples are in the curve's order.
    std::vector<P2> samples = chain;
    std::sort(samples.begin(), samples.end(), [&](P2 p, P2 q) { return dist(p, c) < dist(q, c); });
    std::vector<double> psi(samples.size());
    psi[0] = std::atan2(samples[0].y - c.y, samples[0].x - c.x);
    for (std::size_t k = 1; k < samples.size(); ++k) {
      double step = std::atan2(samples[k].y - c.y, samples[k].x - c.x) -
                    std::atan2(samples[k - 1].y - c.y, samples[k - 1].x - c.x);
      step -= 2 * std::numbers::pi * std::round(step / (2 * std::numbers::pi));
      psi[k] = psi[k - 1] + step;
    }
    const bool mirrored = psi.back() < psi.front();
    const double r_in = dist(samples.front(), c);
    const double sense = mirrored ? -1 : 1;
    const double start =
        std::fmod(sense * psi[0] + 4 * std::numbers::pi, 2 * std::numbers::pi);  // θ of the inner end, first turn
    const double n = static_cast<double>(samples.size());
    std::vector<double> theta(samples.size());
    for (int turns = 0; turns <= 6; ++turns) {
      double sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (std::size_t k = 0; k < samples.size(); ++k) {
        theta[k] = start + 2 * std::numbers::pi * turns + sense * (psi[k] - psi[0]);
        const double r = dist(samples[k], c);
        sx += theta[k], sy += r, sxx += theta[k] * theta[k], sxy += theta[k] * r;
      }
      const double det = n * sxx - sx * sx;
      if (det <= 0) continue;
      const double b = (n * sxy - sx * sy) / det, a = (sy - b * sx) / n;
      // a: the radius where the curve starts; inside its innermost sample by far (GePBench's start
      // at the centre). Else a slowly growing curve of many turns fits any arc of a circle.
      if (b <= 0 || a < -2 || a > r_in / 2) continue;
      double error = 0;
      for (std::size_t k = 0; k < samples.size(); ++k) error += std::pow(dist(samples[k], c) - a - b * theta[k], 2);
      if (error < best_error) best_error = error, best = {c, std::max(a, 0.0), b, theta.back(), mirrored, 0};
    }
  };
  double step = 10;
  for (int round = 0; round < 4; ++round, step /= 4) {
    const P2 around = round == 0 ? guess : best.centre;
    for (int i = -4; i <= 4; ++i)
      for (int j = -4; j <= 4; ++j) try_centre({around.x + i * step, around.y + j * step});
  }
  best.rms = std::sqrt(best_error / chain.size());
  return best;
}

// θ of the turn of `spiral` within `tolerance` of q, radially, up to `most` (by default a turn past
// the spiral's end).
std::optional<double> spiral_theta(const SpiralFit& spiral, P2 q, double tolerance, double most = -1) {
  if (most < 0) most = spiral.theta_end + 2 * std::numbers::pi;
  const double r = dist(q, spiral.centre);
  double psi = std::atan2(q.y - spiral.centre.y, q.x - spiral.centre.x);
  if (spiral.mirrored) psi = -psi;
  psi = std::fmod(psi + 4 * std::numbers::pi, 2 * std::numbers::pi);
  for (double theta = psi; theta <= most; theta += 2 * std::numbers::pi)
    if (std::abs(r - spiral.a - spiral.b * theta) <= tolerance) return theta;
  return std::nullopt;
}

// The spirals among the arcs. From the arc that turns most, not yet in a spiral: the spiral fitted
// to it and the arcs about nearly its centre (a spiral's arcs' centres lie within a few growths b
// of its own: within a third of the smaller radius, plus `merge`), then fitted again to the arcs
// that lie on that fit (80 % of their samples within `tolerance`). A spiral when those arcs turn,
// in all, by more than a full turn plus a margin, and lie within `tolerance` of it (RMS). No
// outline of straight sides or circles does that: a polygon turns once and closes; a circle is
// read as one. Each spiral with its arcs.
std::vector<std::pair<SpiralFit, std::vector<int>>> find_spirals(const std::vector<Arc>& arcs, double merge,
                                                                 double tolerance) {
  std::vector<int> order(arcs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int i, int j) { return arcs[i].turning > arcs[j].turning; });
  std::vector<bool> used(arcs.size(), false);
  // Fitted to the arcs' samples, then again to those within twice the tolerance of the fit, twice
  // (a polygon's side that a chain took on where it crosses the spiral is left out).
  auto fit_to = [&](const std::vector<int>& members, P2 guess) {
    std::vector<P2> samples;
    for (int k : members) samples.insert(samples.end(), arcs[k].samples.begin(), arcs[k].samples.end());
    SpiralFit fit = fit_spiral(samples, guess);
    for (int round = 0; round < 2 && fit.b > 0; ++round) {
      std::vector<P2> inliers;
      for (const P2& q : samples)
        if (spiral_theta(fit, q, 2 * tolerance)) inliers.push_back(q);
      if (inliers.size() < samples.size() / 2 || inliers.size() == samples.size()) break;
      fit = fit_spiral(inliers, fit.centre);
    }
    return fit;
  };
  std::vector<std::pair<SpiralFit, std::vector<int>>> spirals;
  for (int seed : order) {
    if (used[seed]) continue;
    // A spiral's arcs turn more than a full turn in all: none among arcs that do not (the fit is
    // the costly step, and most pictures' arcs are a polygon's corners or a sector's).
    double left = 0;
    for (std::size_t j = 0; j < arcs.size(); ++j) left += used[j] ? 0 : arcs[j].turning;
    if (left <= 2.3 * std::numbers::pi) break;
    std::vector<int> near;
    for (std::size_t j = 0; j < arcs.size(); ++j)
      if (!used[j] &&
          dist(arcs[seed].centre, arcs[j].centre) <= std::min(arcs[seed].radius, arcs[j].radius) / 3 + merge)
        near.push_back(static_cast<int>(j));
    // The seed alone when it turns enough to fix a spiral by itself (half a turn).
    const SpiralFit first =
        fit_to(arcs[seed].turning >= std::numbers::pi ? std::vector<int>{seed} : near, arcs[seed].centre);
    if (first.b <= 0) continue;
    std::vector<int> on;
    double turning = 0;
    for (std::size_t j = 0; j < arcs.size(); ++j) {
      if (used[j]) continue;
      std::size_t close = 0;
      for (const P2& q : arcs[j].samples) close += spiral_theta(first, q, tolerance).has_value();
      if (close >= 0.8 * arcs[j].samples.size()) on.push_back(static_cast<int>(j)), turning += arcs[j].turning;
    }
    if (turning <= 2.3 * std::numbers::pi) continue;
    const SpiralFit fit = fit_to(on, first.centre);
    if (std::getenv("GEOTRUTH_READER_DEBUG"))
      std::fprintf(stderr, "spiral about (%.1f, %.1f): %zu arcs, %.2f turns, b %.2f, rms %.2f px\n", fit.centre.x,
                   fit.centre.y, on.size(), turning / (2 * std::numbers::pi), fit.b, fit.rms);
    if (fit.b <= 0 || fit.rms > tolerance) continue;
    // Its arcs, and any other mostly on it (an arc read twice, a stretch of a crossing stroke).
    for (std::size_t j = 0; j < arcs.size(); ++j) {
      std::size_t close = 0;
      for (const P2& q : arcs[j].samples) close += spiral_theta(fit, q, 2 * tolerance).has_value();
      if (close >= 0.5 * arcs[j].samples.size()) used[j] = true;
    }
    for (int k : on) used[k] = true;
    spirals.emplace_back(fit, on);
  }
  return spirals;
}

}  // namespace

PolygonKind polygon_kind(const std::vector<P2>& vertices, double eps_num, double eps_vis) {
  std::vector<Z> z;
  for (P2 v : vertices) z.emplace_back(v.x, v.y);
  // The kinds the polygon may be, the most particular first, each with its gap.
  std::vector<std::pair<std::string, double>> candidates;
  const std::size_t n = z.size();
  if (n == 4) candidates = {{"square", regular_gap(z)}, {"rectangle", rectangle_gap(z)}};
  if (n == 5) candidates = {{"regular pentagon", regular_gap(z)}};
  if (n == 6) candidates = {{"regular hexagon", regular_gap(z)}};
  if (n >= 6 && n % 2 == 0) candidates.insert(candidates.begin(), {"star", star_gap(z)});
  PolygonKind out;
  for (const auto& [kind, gap] : candidates) {
    if (gap <= eps_num) {  // holds: the more particular kinds before it were doubtful or failed
      out.kind = kind;
      return out;
    }
    if (gap < eps_vis && !out.doubt) out.doubt = kind, out.gap = gap;  // too close to call
  }
  return out;
}

std::vector<ShapeDoubt> add_shapes(const Sheet& sheet, const std::vector<Piece>& pieces,
                                   const std::vector<Round>& rounds, const std::vector<Oval>& ovals, double to_picture,
                                   double eps_num_px, double eps_vis_px, Scene& scene) {
  std::vector<ShapeDoubt> doubts;
  const double merge = std::max(3.0, 2 * sheet.half + 2.5);
  auto vec = [&](P2 p) { return Vec2{px(p.x * to_picture), px(p.y * to_picture)}; };
  int next = 0;
  auto add = [&](std::string type, ShapeGeometry geometry) {
    Shape s;
    s.id = std::string(1, 's').append(std::to_string(++next));
    s.type = std::move(type);
    s.geometry = std::move(geometry);
    scene.shapes.push_back(std::move(s));
  };
  for (const Round& r : rounds)
    if (r.full) add("circle", EllipseShape{vec(r.centre), {px(r.radius * to_picture), px(r.radius * to_picture)}, 0});
  for (const Oval& o : ovals)
    add("ellipse", EllipseShape{vec(o.centre),
                                {px(o.a * to_picture), px(o.b * to_picture)},
                                Rational(static_cast<long>(std::llround(o.angle_deg * 10))) / 10});

  // Sectors first: their radii are no polygon's sides, and the straight bits read along their
  // arcs are the arc's.
  std::vector<bool> taken(pieces.size(), false);
  const double on_arc = sheet.stroke_tolerance() + 1;
  const std::vector<SectorRead> sectors = find_sectors(sheet, pieces, rounds, merge);
  if (std::getenv("GEOTRUTH_READER_DEBUG"))
    std::fprintf(stderr, "shapes: %zu pieces, %zu sectors\n", pieces.size(), sectors.size());
  for (const SectorRead& sector : sectors) {
    if (std::getenv("GEOTRUTH_READER_DEBUG"))
      std::fprintf(stderr, "sector %.1f %.1f r %.1f from %.1f sweep %.1f\n", sector.centre.x, sector.centre.y,
                   sector.radius, sector.start_deg, sector.sweep_deg);
    // Its angles to a tenth of a degree: a sweep that rounds to nothing or to a full turn is no sector.
    const long start = std::llround(sector.start_deg * 10),
               end = std::llround(std::fmod(sector.start_deg + sector.sweep_deg, 360.0) * 10);
    if ((start - end) % 3600 == 0) continue;
    if (taken[sector.sides[0]] || taken[sector.sides[1]]) continue;
    taken[sector.sides[0]] = taken[sector.sides[1]] = true;
    const double from = sector.start_deg * std::numbers::pi / 180, span = sector.sweep_deg * std::numbers::pi / 180;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (taken[i]) continue;
      int samples = 0, along = 0;
      for (double t = pieces[i].t0; t <= pieces[i].t1; t += 2, ++samples) {
        const P2 q = pieces[i].at(t);
        double angle = std::atan2(q.y - sector.centre.y, q.x - sector.centre.x) - from;
        while (angle < 0) angle += 2 * std::numbers::pi;
        along += std::abs(dist(q, sector.centre) - sector.radius) <= on_arc && angle <= span + 0.05;
      }
      if (samples > 0 && along >= 0.7 * samples) taken[i] = true;
    }
    add("sector",
        SectorShape{vec(sector.centre), px(sector.radius * to_picture), Rational(start) / 10, Rational(end) / 10});
  }

  // The straight bits read along an ellipse's stroke are the ellipse's (drop_pieces_on_rounds does
  // so for circles): 70 % of their samples within the tolerance of it (Oval::distance).
  for (const Oval& o : ovals) {
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (taken[i]) continue;
      int samples = 0, along = 0;
      for (double u = pieces[i].t0; u <= pieces[i].t1; u += 2, ++samples)
        along += o.distance(pieces[i].at(u)) <= on_arc;
      if (samples > 0 && along >= 0.7 * samples) taken[i] = true;
    }
  }

  // Spirals: chains of short pieces winding round a centre.
  const std::vector<Arc> arcs = find_arcs(pieces, taken, merge);
  for (const auto& [fit, spiral_arcs] : find_spirals(arcs, merge, on_arc)) {
    for (int k : spiral_arcs)
      for (int i : arcs[k].pieces) taken[i] = true;
    // The spiral's other pieces: where another stroke cuts it, its outer end (a turn on from the
    // last piece taken, again while one is), 80 % of their samples within the tolerance of the
    // fitted curve, radially; inside its first turn, its curl. It ends where the last of them does.
    double theta_end = fit.theta_end;
    for (bool more = true; more;) {
      more = false;
      for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (taken[i]) continue;
        int samples_on = 0, all = 0, inside = 0;
        double last = 0;
        for (double t = pieces[i].t0; t <= pieces[i].t1; t += 2, ++all) {
          const P2 q = pieces[i].at(t);
          inside += dist(q, fit.centre) <= fit.a + 2 * std::numbers::pi * fit.b;
          if (const auto theta = spiral_theta(fit, q, on_arc, theta_end + 2 * std::numbers::pi))
            ++samples_on, last = std::max(last, *theta);
        }
        if (all == 0 || (samples_on < 0.8 * all && inside < all)) continue;
        taken[i] = true;
        if (last > theta_end && samples_on >= 0.8 * all) theta_end = last, more = true;
      }
    }
    SpiralShape spiral;
    spiral.center = vec(fit.centre);
    spiral.initial_radius = px(fit.a * to_picture);
    // b per radian and the last θ to a part in 10,000.
    spiral.growth_rate = Rational(static_cast<long>(std::llround(fit.b * to_picture * 10000))) / 10000;
    spiral.max_theta = Rational(static_cast<long>(std::llround(theta_end * 10000))) / 10000;
    add("spiral", spiral);
  }

  // Corners: ends of two or more pieces at one place.
  std::vector<Corner> corners;
  std::vector<std::array<int, 2>> corner_of(pieces.size(), {-1, -1});
  for (std::size_t i = 0; i < pieces.size(); ++i)
    for (int end = 0; end < 2; ++end) {
      const P2 e = end == 0 ? pieces[i].a() : pieces[i].b();
      int home = -1;
      for (std::size_t c = 0; c < corners.size() && home < 0; ++c)
        if (dist(corners[c].at, e) <= merge) home = static_cast<int>(c);
      if (home < 0) corners.push_back({e, {}}), home = static_cast<int>(corners.size()) - 1;
      corners[home].ends.push_back({static_cast<int>(i), end});
      corner_of[i][end] = home;
    }
  // Two lone ends whose sides' lines cross within two merge distances of both, at 20° or more, are
  // one corner that a side overshot or fell short of (a rectangle inscribed in a circle: its short
  // sides, nearly along the circle, run on along its stroke past the corners; a corner inside
  // another polygon, whose sides cut the ink there).
  for (;;) {
    double best = 2 * merge;
    int best_a = -1, best_b = -1;
    for (std::size_t a = 0; a < corners.size(); ++a) {
      if (corners[a].ends.size() != 1 || taken[corners[a].ends[0].first]) continue;
      for (std::size_t b = a + 1; b < corners.size(); ++b) {
        if (corners[b].ends.size() != 1 || taken[corners[b].ends[0].first]) continue;
        const Piece &p = pieces[corners[a].ends[0].first], &q = pieces[corners[b].ends[0].first];
        P2 x;
        if (&p == &q || p.sine_to(q) < std::sin(20 * std::numbers::pi / 180) || !crossing(p, q, x)) continue;
        const double far = std::max(dist(x, corners[a].at), dist(x, corners[b].at));
        if (far < best) best = far, best_a = static_cast<int>(a), best_b = static_cast<int>(b);
      }
    }
    if (best_a < 0) break;
    const auto moved = corners[best_b].ends.front();
    corners[best_a].ends.push_back(moved);
    corner_of[moved.first][moved.second] = best_a;
    corners[best_b].ends.clear();
  }
  for (Corner& c : corners) c.at = meeting_point(pieces, c);
  // Sides: pieces between two corners where other pieces end too; pruned of dangling sides.
  std::vector<bool> side(pieces.size(), false);
  for (std::size_t i = 0; i < pieces.size(); ++i)
    side[i] = !taken[i] && corner_of[i][0] != corner_of[i][1] && corners[corner_of[i][0]].ends.size() >= 2 &&
              corners[corner_of[i][1]].ends.size() >= 2;
  for (bool pruned = true; pruned;) {
    pruned = false;
    std::vector<int> degree(corners.size(), 0);
    for (std::size_t i = 0; i < pieces.size(); ++i)
      if (side[i]) ++degree[corner_of[i][0]], ++degree[corner_of[i][1]];
    for (std::size_t i = 0; i < pieces.size(); ++i)
      if (side[i] && (degree[corner_of[i][0]] < 2 || degree[corner_of[i][1]] < 2)) side[i] = false, pruned = true;
  }
  // Faces of the sides' graph: at each corner, leave by the next side clockwise from the one
  // arrived by. Per connected chain the largest face is its outside.
  struct Out {
    double angle;
    int piece, to;
  };
  std::vector<std::vector<Out>> around(corners.size());
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (!side[i]) continue;
    const int a = corner_of[i][0], b = corner_of[i][1];
    around[a].push_back(
        {std::atan2(corners[b].at.y - corners[a].at.y, corners[b].at.x - corners[a].at.x), static_cast<int>(i), b});
    around[b].push_back(
        {std::atan2(corners[a].at.y - corners[b].at.y, corners[a].at.x - corners[b].at.x), static_cast<int>(i), a});
  }
  for (auto& list : around)
    std::sort(list.begin(), list.end(), [](const Out& x, const Out& y) { return x.angle < y.angle; });
  std::map<std::pair<int, int>, bool> used;  // (corner, piece) left by
  struct Face {
    std::vector<int> corners;
    std::vector<int> pieces;
    double area;
  };
  std::vector<Face> faces;
  std::vector<int> component(corners.size(), -1);
  for (std::size_t start = 0; start < corners.size(); ++start)
    for (const Out& first : around[start]) {
      if (used[{static_cast<int>(start), first.piece}]) continue;
      Face face;
      int at = static_cast<int>(start);
      Out leave = first;
      for (std::size_t guard = 0; guard < 4 * pieces.size() + 4; ++guard) {
        used[{at, leave.piece}] = true;
        face.corners.push_back(at);
        face.pieces.push_back(leave.piece);
        const int from = at;
        at = leave.to;
        // The side back to `from` at `at`, and the one just before it in angular order.
        const auto& list = around[at];
        std::size_t k = 0;
        while (k < list.size() && !(list[k].piece == leave.piece && list[k].to == from)) ++k;
        leave = list[(k + list.size() - 1) % list.size()];
        if (at == static_cast<int>(start) && leave.piece == first.piece) break;
      }
      double area = 0;
      for (std::size_t k = 0; k < face.corners.size(); ++k) {
        const P2 p = corners[face.corners[k]].at, q = corners[face.corners[(k + 1) % face.corners.size()]].at;
        area += p.x * q.y - q.x * p.y;
      }
      face.area = area / 2;
      faces.push_back(std::move(face));
    }
  // Components (union of corners by sides), and each one's outside: its largest face.
  boost::disjoint_sets_with_storage<> components(corners.size());
  auto find = [&](int corner) { return components.find_set(static_cast<std::size_t>(corner)); };
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (side[i]) components.union_set(corner_of[i][0], corner_of[i][1]);
  std::map<std::size_t, std::size_t> outside;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const std::size_t c = find(faces[f].corners.front());
    if (!outside.count(c) || std::abs(faces[f].area) > std::abs(faces[outside[c]].area)) outside[c] = f;
  }
  // A face's vertices: its corners but where the outline goes straight on.
  auto vertices_of = [&](const std::vector<int>& fc) {
    std::vector<P2> vertices;
    for (std::size_t k = 0; k < fc.size(); ++k) {
      const P2 prev = corners[fc[(k + fc.size() - 1) % fc.size()]].at, at = corners[fc[k]].at,
               next_at = corners[fc[(k + 1) % fc.size()]].at;
      const double cross = (at.x - prev.x) * (next_at.y - at.y) - (at.y - prev.y) * (next_at.x - at.x);
      if (std::abs(cross) > std::sin(3 * std::numbers::pi / 180) * dist(prev, at) * dist(at, next_at))
        vertices.push_back(at);
    }
    return vertices;
  };
  auto in_picture = [&](const std::vector<P2>& vertices) {
    std::vector<P2> out;
    for (P2 v : vertices) out.push_back({v.x * to_picture, v.y * to_picture});
    return out;
  };
  auto convex = [](const std::vector<P2>& v) {
    int sign = 0;
    for (std::size_t k = 0; k < v.size(); ++k) {
      const P2 a = v[k], b = v[(k + 1) % v.size()], c = v[(k + 2) % v.size()];
      const double cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
      const int s = cross > 0 ? 1 : cross < 0 ? -1 : 0;
      if (s != 0 && sign != 0 && s != sign) return false;
      if (s != 0) sign = s;
    }
    return true;
  };
  // A chord: two faces that share one side and together make a polygon of a particular kind (a
  // rectangle, a square, a regular pentagon or hexagon, convex) are that polygon with a segment
  // across it (GePBench's diagonal), not two polygons side by side.
  std::vector<bool> merged(faces.size(), false);
  struct Union {
    std::vector<int> corners, pieces;
    double area;
  };
  std::vector<Union> unions;
  for (std::size_t f = 0; f < faces.size(); ++f)
    for (std::size_t g = f + 1; g < faces.size(); ++g) {
      if (merged[f] || merged[g]) continue;
      const std::size_t cf = find(faces[f].corners.front());
      if (outside[cf] == f || outside[find(faces[g].corners.front())] == g || find(faces[g].corners.front()) != cf)
        continue;
      std::vector<int> shared;
      for (int i : faces[f].pieces)
        if (std::count(faces[g].pieces.begin(), faces[g].pieces.end(), i)) shared.push_back(i);
      if (shared.size() != 1) continue;
      // f runs …→u→v→… along the chord, g …→v→u→…: f from v round to u, then g from u round to v.
      const auto& pf = faces[f].pieces;
      const auto& pg = faces[g].pieces;
      const std::size_t kf = std::find(pf.begin(), pf.end(), shared[0]) - pf.begin();
      const std::size_t kg = std::find(pg.begin(), pg.end(), shared[0]) - pg.begin();
      std::vector<int> cycle, used_pieces;
      for (std::size_t k = 1; k < pf.size(); ++k) {
        cycle.push_back(faces[f].corners[(kf + k) % pf.size()]);
        used_pieces.push_back(pf[(kf + k) % pf.size()]);
      }
      for (std::size_t k = 1; k < pg.size(); ++k) {
        cycle.push_back(faces[g].corners[(kg + k) % pg.size()]);
        used_pieces.push_back(pg[(kg + k) % pg.size()]);
      }
      const std::vector<P2> vertices = vertices_of(cycle);
      if (vertices.size() < 4 || !convex(vertices)) continue;
      const PolygonKind kind = polygon_kind(in_picture(vertices), eps_num_px, eps_vis_px);
      if (kind.kind.empty()) continue;
      merged[f] = merged[g] = true;
      unions.push_back({cycle, used_pieces, std::abs(faces[f].area) + std::abs(faces[g].area)});
    }
  std::vector<bool> in_polygon(pieces.size(), false);
  auto add_polygon = [&](const std::vector<int>& fc, const std::vector<int>& fp, double area) {
    const std::vector<P2> vertices = vertices_of(fc);
    if (vertices.size() < 3 || std::abs(area) < 4 * merge * merge) return;
    PolygonShape polygon;
    for (P2 v : vertices) polygon.points.push_back(vec(v));
    add("polygon", polygon);
    const PolygonKind kind = polygon_kind(in_picture(vertices), eps_num_px, eps_vis_px);
    scene.shapes.back().kind = kind.kind;
    if (kind.doubt) doubts.push_back({scene.shapes.back().id, kind.kind, *kind.doubt, kind.gap});
    for (int i : fp) in_polygon[i] = true;
  };
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (outside[find(faces[f].corners.front())] == f || merged[f]) continue;
    add_polygon(faces[f].corners, faces[f].pieces, faces[f].area);
  }
  for (const Union& u : unions) add_polygon(u.corners, u.pieces, u.area);
  // Strokes in no polygon: segments, rays and lines by their ends at the picture's edge.
  const double edge = std::max(3.0, sheet.half + 2);
  auto at_edge = [&](P2 p) {
    return p.x <= edge || p.y <= edge || p.x >= sheet.width - edge || p.y >= sheet.height - edge;
  };
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (in_polygon[i] || taken[i]) continue;
    const P2 a = pieces[i].a(), b = pieces[i].b();
    const bool ea = at_edge(a), eb = at_edge(b);
    if (ea && eb)
      add("line", StraightShape{Extent::line, vec(a), vec(b)});
    else if (ea || eb)
      add("ray", StraightShape{Extent::ray, vec(ea ? b : a), vec(ea ? a : b)});
    else
      add("segment", StraightShape{Extent::segment, vec(a), vec(b)});
  }
  return doubts;
}

}  // namespace geotruth::vision::read
