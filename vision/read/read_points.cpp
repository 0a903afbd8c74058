// Points from the strokes read (docs/reader.md, "Points"): dots, stroke ends, crossings of strokes
// with strokes and circles, merged where they are one place.
#include <algorithm>
#include <array>
#include <cmath>
#include <geotruth/work_limit.hpp>
#include <numbers>
#include <numeric>

#include "vision/read/points.hpp"

namespace geotruth::vision::read {
namespace {

bool on_arc(const Round& r, P2 p, double margin_px) {
  if (r.full) return true;
  double angle = std::atan2(p.y - r.centre.y, p.x - r.centre.x) * 180 / std::numbers::pi - r.start_deg;
  angle = std::fmod(std::fmod(angle, 360) + 360, 360);
  const double margin_deg = margin_px / std::max(1.0, r.radius) * 180 / std::numbers::pi;
  return angle <= r.sweep_deg + margin_deg || angle >= 360 - margin_deg;
}

// Whether `piece` passes beside a dot at `at` though within its reach (Piece::passes_beside).
bool passes_beside(const Piece& piece, P2 at) {
  return std::any_of(piece.passes_beside.begin(), piece.passes_beside.end(), [&](P2 b) { return dist(b, at) < 0.5; });
}

// Appends to `ids` those of `more` it lacks, in their order.
void add_missing(std::vector<int>& ids, const std::vector<int>& more) {
  for (int i : more)
    if (std::find(ids.begin(), ids.end(), i) == ids.end()) ids.push_back(i);
}

// Junctions read as several points: where strokes meet at a point whose dot was not found (a
// JPEG's blur), their ends and crossings scatter over the ink they share by about a stroke width.
// Two points within `reach` of each other, neither a dot nor only a centre, whose strokes all pass
// within `on` of one place (their least-squares crossing) are that place; the closest pair first,
// until no pair is left. Points whose strokes do not meet at one place (a stroke ending on a line
// beside a crossing) stay apart.
//
// A stroke that comes into a junction at a shallow angle to another runs in that one's ink for
// `on` / sin(angle) before the junction, and its walk ends where the two part (VisOnlyQA
// 00178noise_1: a stroke 6 degrees off another ends 7 px short of the vertex four strokes share,
// as a point of its own on the other's line). Such a stroke end, within the ink of another stroke of
// the pair that runs on to the place where all meet, reaches that place from up to kWedgeReach
// reaches away.
void merge_concurrent_points(std::vector<ReadPoint>& points, const std::vector<Piece>& pieces,
                             const std::vector<Round>& rounds, double reach, double on) {
  constexpr double kWedgeReach = 3;
  constexpr std::array<bool, 2> kEnds{false, true};
  auto covers = [&](const Piece& piece, double t) { return t >= piece.t0 - reach && t <= piece.t1 + reach; };
  // Whether `piece` ends at `end` (one of its ends) inside the ink of another of `lines` that runs
  // on from there to x.
  auto runs_in_ink_to = [&](const Piece& piece, P2 end, P2 x, const std::vector<const Piece*>& lines) {
    return std::any_of(lines.begin(), lines.end(), [&](const Piece* other) {
      return other != &piece && std::abs(other->offset(end)) <= on && covers(*other, other->along(end)) &&
             covers(*other, other->along(x));
    });
  };
  auto meet_at = [&](const ReadPoint& a, const ReadPoint& b) -> std::optional<P2> {
    std::vector<int> ids = a.pieces;
    add_missing(ids, b.pieces);
    std::vector<const Piece*> lines;
    for (int i : ids) lines.push_back(&pieces[static_cast<std::size_t>(i)]);
    const auto x = least_squares_point(lines);
    if (!x) return std::nullopt;
    // A point farther than `reach` from x is the end of a stroke that runs on to x in another's ink.
    auto wedged_end = [&](const ReadPoint& p) {
      return std::any_of(p.pieces.begin(), p.pieces.end(), [&](int i) {
        const Piece& piece = pieces[static_cast<std::size_t>(i)];
        return std::any_of(kEnds.begin(), kEnds.end(), [&](bool at_b) {
          const P2 end = at_b ? piece.b() : piece.a();
          return dist(end, p.at) <= reach && runs_in_ink_to(piece, end, *x, lines);
        });
      });
    };
    for (const ReadPoint* p : {&a, &b}) {
      const double d = dist(*x, p->at);
      if (d > reach && (d > kWedgeReach * reach || !wedged_end(*p))) return std::nullopt;
    }
    for (const Piece* piece : lines) {
      const double t = piece->along(*x);
      if (std::abs(piece->offset(*x)) > on) return std::nullopt;
      if (covers(*piece, t)) continue;
      const P2 end = t < piece->t0 ? piece->a() : piece->b();
      if (dist(end, *x) > kWedgeReach * reach || !runs_in_ink_to(*piece, end, *x, lines)) return std::nullopt;
    }
    for (const ReadPoint* p : {&a, &b})
      for (int c : p->rounds) {
        const Round& r = rounds[static_cast<std::size_t>(c)];
        if (std::abs(dist(*x, r.centre) - r.radius) > on) return std::nullopt;
      }
    return x;
  };
  std::vector<std::size_t> by_x;
  for (;;) {
    // The pairs within reach, by a sweep along x (a figure of hairlines has thousands of crossings);
    // the closest first, of two as close the later by index.
    by_x.resize(points.size());
    std::iota(by_x.begin(), by_x.end(), std::size_t{0});
    std::sort(by_x.begin(), by_x.end(), [&](std::size_t a, std::size_t b) { return points[a].at.x < points[b].at.x; });
    std::size_t best_a = 0, best_b = 0;
    bool found = false;
    double best = kWedgeReach * reach;
    P2 best_at{0, 0};
    for (std::size_t i = 0; i < by_x.size(); ++i)
      for (std::size_t j = i + 1; j < by_x.size() && points[by_x[j]].at.x - points[by_x[i]].at.x <= best; ++j) {
        const std::size_t a = std::min(by_x[i], by_x[j]), b = std::max(by_x[i], by_x[j]);
        const ReadPoint &pa = points[a], &pb = points[b];
        if (pa.dot >= 0 || pb.dot >= 0 || pa.centre_only || pb.centre_only) continue;
        const double d = dist(pa.at, pb.at);
        if (d > best || (found && d == best && std::make_pair(a, b) < std::make_pair(best_a, best_b))) continue;
        if (const auto x = meet_at(pa, pb)) best = d, best_a = a, best_b = b, best_at = *x, found = true;
      }
    if (!found) return;
    ReadPoint& into = points[best_a];
    const ReadPoint& gone = points[best_b];
    into.at = best_at;
    add_missing(into.pieces, gone.pieces);
    add_missing(into.rounds, gone.rounds);
    points.erase(points.begin() + static_cast<std::ptrdiff_t>(best_b));
  }
}

// A dot in the wedge of strokes that leave a junction at a shallow angle: where they still overlap,
// their ink is as thick as a marker (Tangram's sketches: A-C and F-C 14 degrees apart, read as a dot
// 9 px below C, where the stroke B-C ends). When every stroke at a dot ends there and leaves it the
// same way (within kWedge of their mean direction), and a point that is no dot lies behind it on
// all their lines (within `on`) and within four dot radii, the strokes meet at that point: the dot
// and its strokes join it there.
void join_wedged_dots(std::vector<ReadPoint>& points, const std::vector<Piece>& pieces, double on, double merge) {
  constexpr double kWedge = 15 * std::numbers::pi / 180;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const ReadPoint& p = points[k];
    if (p.dot < 0 || p.pieces.size() < 2 || !p.rounds.empty()) continue;
    P2 mean{0, 0};
    std::vector<P2> ways;
    for (const int i : p.pieces) {
      const Piece& piece = pieces[static_cast<std::size_t>(i)];
      const double t = piece.along(p.at);
      const bool at_start = std::abs(t - piece.t0) <= merge, at_end = std::abs(t - piece.t1) <= merge;
      if (at_start == at_end) break;  // it goes on past the dot, or the piece is shorter than a merge
      ways.push_back(at_start ? piece.dir : P2{-piece.dir.x, -piece.dir.y});
      mean.x += ways.back().x, mean.y += ways.back().y;
    }
    if (ways.size() != p.pieces.size()) continue;
    const double norm = std::hypot(mean.x, mean.y);
    if (norm == 0) continue;
    mean = {mean.x / norm, mean.y / norm};
    if (std::any_of(ways.begin(), ways.end(), [&](P2 w) { return w.x * mean.x + w.y * mean.y < std::cos(kWedge); }))
      continue;
    int apex = -1;
    double nearest = 4 * p.dot_radius + merge;
    for (std::size_t q = 0; q < points.size(); ++q) {
      const ReadPoint& o = points[q];
      if (q == k || o.dot >= 0 || o.centre_only) continue;
      const P2 v{o.at.x - p.at.x, o.at.y - p.at.y};
      const double d = std::hypot(v.x, v.y);
      if (d >= nearest || v.x * mean.x + v.y * mean.y >= 0) continue;
      if (std::all_of(p.pieces.begin(), p.pieces.end(),
                      [&](int i) { return std::abs(pieces[static_cast<std::size_t>(i)].offset(o.at)) <= on; }))
        nearest = d, apex = static_cast<int>(q);
    }
    if (apex < 0) continue;
    ReadPoint& into = points[static_cast<std::size_t>(apex)];
    into.dot = p.dot, into.dot_radius = p.dot_radius;
    add_missing(into.pieces, p.pieces);
    points.erase(points.begin() + static_cast<std::ptrdiff_t>(k));
    --k;
  }
}

}  // namespace

void extend_under_labels(const Sheet& sheet, std::vector<Piece>& pieces) {
  if (!sheet.labels) return;
  const double tolerance = sheet.stroke_tolerance();
  const int paper_max = static_cast<int>(std::ceil(sheet.stroke)) + 1;  // between the ink and the label's box
  // How far each end runs on under a label (0: it does not run into one), and on along whatever
  // ink shows past it (the stroke's stub between the label and the stroke it meets).
  auto hidden_beyond = [&](const Piece& p, double t_end, double sign) {
    const P2 normal{-p.dir.y, p.dir.x};
    double reach = 0;
    bool under = false;
    for (int step = 1, paper = 0; step < 4 * std::max(sheet.width, sheet.height); ++step) {
      const P2 c = p.at(t_end + sign * step);
      if (!sheet.inside(c)) break;
      if (sheet.is_unknown(c)) {
        under = true, reach = step, paper = 0;
      } else if (under && peak_darkness_across(sheet.paper, c, normal, tolerance) >= sheet.paper.ink_level) {
        reach = step, paper = 0;
      } else if (++paper > paper_max) {
        break;
      }
    }
    return under ? reach : 0.0;
  };
  std::vector<std::array<double, 2>> hidden(pieces.size());
  for (std::size_t i = 0; i < pieces.size(); ++i)
    hidden[i] = {hidden_beyond(pieces[i], pieces[i].t0, -1), hidden_beyond(pieces[i], pieces[i].t1, 1)};
  std::vector<Piece> extended = pieces;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    for (int end = 0; end < 2; ++end) {
      if (hidden[i][end] == 0) continue;
      const Piece& p = pieces[i];
      const double sign = end == 0 ? -1 : 1, t_end = end == 0 ? p.t0 : p.t1;
      double best = t_end;
      charge_time(pieces.size());
      for (std::size_t j = 0; j < pieces.size(); ++j) {
        P2 x;
        if (j == i || !crossing(p, pieces[j], x)) continue;
        const Piece& q = pieces[j];
        const double u = q.along(x), tx = p.along(x);
        // Both may run on under the same label (a corner hidden by its letter).
        if (u < q.t0 - hidden[j][0] - tolerance || u > q.t1 + hidden[j][1] + tolerance) continue;
        if (sign * (tx - t_end) <= 0 || sign * (tx - t_end) > hidden[i][end] + tolerance) continue;
        if (best == t_end || std::abs(tx - t_end) < std::abs(best - t_end)) best = tx;
      }
      (end == 0 ? extended[i].t0 : extended[i].t1) = best;
    }
  pieces = std::move(extended);
}

void trim_at_junctions(const Sheet& sheet, std::vector<Piece>& pieces, const std::vector<Round>& rounds,
                       const std::vector<Oval>& ovals, const std::vector<Dot>& dots) {
  const double tolerance = sheet.stroke_tolerance();
  const double merge = sheet.merge_distance();
  for (std::size_t i = 0; i < pieces.size(); ++i)
    for (int end = 0; end < 2; ++end) {
      Piece& p = pieces[i];
      const double t_end = end == 0 ? p.t0 : p.t1;
      const P2 e = p.at(t_end);
      if (at_a_dot(sheet, dots, e)) continue;
      double best = t_end;
      charge_time(pieces.size());
      for (std::size_t j = 0; j < pieces.size(); ++j) {
        if (j == i) continue;
        const Piece& q = pieces[j];
        P2 x;
        if (!crossing(p, q, x)) continue;
        // The end lies on the other stroke, within its extent: the ink past the crossing is the
        // other stroke's (at a shallow angle the two inks run together for a while).
        if (std::abs(q.offset(e)) > 2 * tolerance) continue;
        const double u = q.along(e);
        if (u < q.t0 - tolerance || u > q.t1 + tolerance) continue;
        const double tx = p.along(x);
        const double sine = p.sine_to(q);
        const double overshoot = (2 * sheet.half + 2 * tolerance) / std::max(sine, 1e-3);
        if (std::abs(tx - t_end) > overshoot || tx <= p.t0 || tx >= p.t1) continue;
        if (std::abs(tx - t_end) > std::abs(best - t_end)) best = tx;
      }
      // The same where the stroke ends on a circle's stroke: back to where it crosses the circle.
      for (const Round& r : rounds) {
        if (std::abs(dist(e, r.centre) - r.radius) > 2 * tolerance || !on_arc(r, e, tolerance)) continue;
        const double tc = p.along(r.centre), off = p.offset(r.centre);
        const double h2 = r.radius * r.radius - off * off;
        if (h2 < 0) continue;
        for (const double tx : {tc - std::sqrt(h2), tc + std::sqrt(h2)}) {
          const double sine = std::sqrt(h2) / r.radius;  // the angle between the stroke and the circle
          const double overshoot = (2 * sheet.half + 2 * tolerance) / std::max(sine, 1e-3);
          if (std::abs(tx - t_end) > overshoot || tx <= p.t0 || tx >= p.t1) continue;
          if (std::abs(tx - t_end) > std::abs(best - t_end)) best = tx;
        }
      }
      // And on an ellipse's stroke (a polygon inscribed in it), unless another piece ends there too
      // (a corner that touches the ellipse: the pieces' ends mark it). In the ellipse's own axes the
      // line x0 + t·dx, y0 + t·dy meets (x/a)² + (y/b)² = 1 where A t² + B t + C = 0.
      const auto another_ends_here = [&] {
        return std::any_of(pieces.begin(), pieces.end(), [&](const Piece& q) {
          return &q != &p && (dist(q.a(), e) <= merge || dist(q.b(), e) <= merge);
        });
      };
      if (!ovals.empty() && !another_ends_here())
        for (const Oval& o : ovals) {
          if (o.distance(e) > 2 * tolerance) continue;
          const P2 o0 = o.local(p.origin), o1 = o.local(p.at(1)), d{o1.x - o0.x, o1.y - o0.y};
          const double qa = d.x * d.x / (o.a * o.a) + d.y * d.y / (o.b * o.b);
          const double qb = 2 * (o0.x * d.x / (o.a * o.a) + o0.y * d.y / (o.b * o.b));
          const double qc = o0.x * o0.x / (o.a * o.a) + o0.y * o0.y / (o.b * o.b) - 1;
          const double disc = qb * qb - 4 * qa * qc;
          if (qa <= 0 || disc < 0) continue;
          for (const double tx : {(-qb - std::sqrt(disc)) / (2 * qa), (-qb + std::sqrt(disc)) / (2 * qa)}) {
            const P2 x{o0.x + tx * d.x, o0.y + tx * d.y};
            const double nx = x.x / (o.a * o.a), ny = x.y / (o.b * o.b);
            const double sine = std::abs(nx * d.x + ny * d.y) / std::max(1e-12, std::hypot(nx, ny));
            const double overshoot = (2 * sheet.half + 2 * tolerance) / std::max(sine, 1e-3);
            if (std::abs(tx - t_end) > overshoot || tx <= p.t0 || tx >= p.t1) continue;
            if (std::abs(tx - t_end) > std::abs(best - t_end)) best = tx;
          }
        }
      (end == 0 ? p.t0 : p.t1) = best;
    }
}

std::vector<ReadPoint> read_points(const Sheet& sheet, const std::vector<Piece>& pieces,
                                   const std::vector<Round>& rounds, const std::vector<Dot>& dots) {
  const double merge = sheet.merge_distance();
  const double on = sheet.on_stroke();
  struct Candidate {
    P2 at;
    int dot = -1;
    std::vector<int> pieces, rounds;
    bool centre = false;
  };
  std::vector<Candidate> candidates;
  for (std::size_t d = 0; d < dots.size(); ++d) candidates.push_back({dots[d].at, static_cast<int>(d), {}, {}, false});
  // Crossings of pieces (within both extents), then of pieces with rounds, then of rounds.
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    charge_time(pieces.size() - i);
    for (std::size_t j = i + 1; j < pieces.size(); ++j) {
      P2 x;
      if (!crossing(pieces[i], pieces[j], x)) continue;
      const double ti = pieces[i].along(x), tj = pieces[j].along(x);
      if (ti < pieces[i].t0 - merge || ti > pieces[i].t1 + merge || tj < pieces[j].t0 - merge ||
          tj > pieces[j].t1 + merge)
        continue;
      candidates.push_back({x, -1, {static_cast<int>(i), static_cast<int>(j)}, {}, false});
    }
  }
  for (std::size_t i = 0; i < pieces.size(); ++i)
    for (std::size_t c = 0; c < rounds.size(); ++c) {
      const Piece& p = pieces[i];
      const Round& r = rounds[c];
      const double tc = p.along(r.centre), off = p.offset(r.centre);
      const double h2 = r.radius * r.radius - off * off;
      // A line within `on` of touching the circle touches it, at the foot of the perpendicular from
      // its centre: near a tangent a pixel moves the crossings far along the line (2 sqrt(2 r) apart
      // for a line a pixel inside a circle of radius r; Tangram's incircles drawn as sketches). Not
      // a circle as small as twice `on`, which a line through its centre would touch.
      const bool touches = r.radius > 2 * on && std::abs(std::abs(off) - r.radius) <= on;
      if (h2 < -merge * merge && !touches) continue;
      const double h = touches ? 0 : std::sqrt(std::max(0.0, h2));
      for (const double t : {tc - h, tc + h}) {
        const P2 x = p.at(t);
        if (t < p.t0 - merge || t > p.t1 + merge || !on_arc(r, x, merge)) continue;
        candidates.push_back({x, -1, {static_cast<int>(i)}, {static_cast<int>(c)}, false});
        if (h == 0) break;
      }
    }
  for (std::size_t a = 0; a < rounds.size(); ++a)
    for (std::size_t b = a + 1; b < rounds.size(); ++b) {
      const Round &ra = rounds[a], &rb = rounds[b];
      const double d = dist(ra.centre, rb.centre);
      if (d < 1e-6 || d > ra.radius + rb.radius + merge || d < std::abs(ra.radius - rb.radius) - merge) continue;
      const double along = (d * d + ra.radius * ra.radius - rb.radius * rb.radius) / (2 * d);
      const double h = std::sqrt(std::max(0.0, ra.radius * ra.radius - along * along));
      const P2 u{(rb.centre.x - ra.centre.x) / d, (rb.centre.y - ra.centre.y) / d};
      for (const double s : {-h, h}) {
        const P2 x{ra.centre.x + along * u.x - s * u.y, ra.centre.y + along * u.y + s * u.x};
        if (on_arc(ra, x, merge) && on_arc(rb, x, merge))
          candidates.push_back({x, -1, {}, {static_cast<int>(a), static_cast<int>(b)}, false});
        if (h == 0) break;
      }
    }
  // Stroke ends last: a crossing or a dot at the same place names it better.
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    candidates.push_back({pieces[i].a(), -1, {static_cast<int>(i)}, {}, false});
    candidates.push_back({pieces[i].b(), -1, {static_cast<int>(i)}, {}, false});
  }
  // Centres of circles: a point only when a letter names it (or a dot marks it).
  for (std::size_t c = 0; c < rounds.size(); ++c)
    if (rounds[c].full) candidates.push_back({rounds[c].centre, -1, {}, {}, true});

  // Greedy clustering in that order: each candidate joins the nearest point within reach (a dot's
  // reach is its radius and a merge distance), else starts a point. In a figure that marks its
  // points with dots, a stroke end reaches as far as a dot would: a marker the dot finder missed
  // (a JPEG's blur) lengthens its stroke by its radius past the corner.
  const double end_reach = merge + (marks_points_with_dots(sheet, dots) ? marker_radius(sheet, dots) : 0);
  std::vector<ReadPoint> points;
  std::vector<std::vector<P2>> members;
  for (const Candidate& c : candidates) {
    int home = -1;
    double best = 1e300;
    const bool stroke_end = c.dot < 0 && !c.centre && c.pieces.size() == 1 && c.rounds.empty();
    for (std::size_t k = 0; k < points.size(); ++k) {
      const double reach = points[k].dot >= 0 ? dots[points[k].dot].radius + merge : stroke_end ? end_reach : merge;
      const double d = dist(points[k].at, c.at);
      if (d <= reach && d < best) best = d, home = static_cast<int>(k);
    }
    if (home < 0) {
      ReadPoint p;
      p.at = c.at, p.dot = c.dot, p.centre_only = c.centre;
      if (c.dot >= 0) p.dot_radius = dots[static_cast<std::size_t>(c.dot)].radius;
      points.push_back(p);
      members.push_back({c.at});
      home = static_cast<int>(points.size()) - 1;
    } else {
      members[home].push_back(c.at);
      if (!c.centre) points[home].centre_only = false;
    }
    ReadPoint& p = points[home];
    if (p.dot >= 0 && c.dot < 0) {
      // A dot is centred on the point its strokes meet at: a line drawn between two other dots
      // (placed exactly) that passes a few pixels beside it, whose crossing with a stroke ending at
      // the dot or with a circle through it falls within the dot's reach, does not go through it.
      const double reach = dots[p.dot].radius + merge;
      std::vector<int> through;
      for (int i : c.pieces) {
        const Piece& piece = pieces[static_cast<std::size_t>(i)];
        if (passes_beside(piece, p.at)) continue;
        if (!piece.between_dots || std::abs(piece.offset(p.at)) <= on || dist(piece.a(), p.at) <= reach ||
            dist(piece.b(), p.at) <= reach)
          through.push_back(i);
      }
      add_missing(p.pieces, through);
    } else {
      add_missing(p.pieces, c.pieces);
    }
    add_missing(p.rounds, c.rounds);
  }
  // Positions: a dot's centre; else the least-squares crossing of its strokes; else the mean.
  for (std::size_t k = 0; k < points.size(); ++k) {
    ReadPoint& p = points[k];
    if (p.dot >= 0) continue;
    std::vector<const Piece*> lines;
    for (int i : p.pieces) lines.push_back(&pieces[i]);
    if (auto x = least_squares_point(lines); x && dist(*x, p.at) <= 2 * merge) {
      p.at = *x;
    } else if (members[k].size() > 1) {
      P2 mean{0, 0};
      for (P2 m : members[k]) mean.x += m.x, mean.y += m.y;
      p.at = {mean.x / members[k].size(), mean.y / members[k].size()};
    }
  }
  join_wedged_dots(points, pieces, on, merge);
  // Fitted over their length, the lines of one junction's strokes cross within about a pixel.
  // An enlarged picture's hairlines were drawn to whole pixels of the picture: lines meant to meet at
  // one place (a paint program's figure) miss it by up to about a pixel of the picture.
  merge_concurrent_points(points, pieces, rounds, std::max({end_reach, 2 * merge, 4 * sheet.scale}),
                          std::max({1.0, sheet.half + 0.5, 1.25 * sheet.scale}));
  // Every stroke through a point, whether or not a candidate said so (a point on a stroke).
  for (ReadPoint& p : points) {
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      const Piece& piece = pieces[i];
      const double t = piece.along(p.at);
      if (std::abs(piece.offset(p.at)) <= on && t >= piece.t0 - merge && t <= piece.t1 + merge &&
          !passes_beside(piece, p.at) &&
          std::find(p.pieces.begin(), p.pieces.end(), static_cast<int>(i)) == p.pieces.end())
        p.pieces.push_back(static_cast<int>(i));
    }
    for (std::size_t c = 0; c < rounds.size(); ++c) {
      const Round& r = rounds[c];
      if (std::abs(dist(p.at, r.centre) - r.radius) <= on && on_arc(r, p.at, merge) &&
          std::find(p.rounds.begin(), p.rounds.end(), static_cast<int>(c)) == p.rounds.end())
        p.rounds.push_back(static_cast<int>(c));
    }
    std::sort(p.pieces.begin(), p.pieces.end());
    std::sort(p.rounds.begin(), p.rounds.end());
    // The strokes leaving it: a piece each way it goes on past the point, a round both ways.
    for (const int i : p.pieces) {
      const Piece& piece = pieces[static_cast<std::size_t>(i)];
      const double t = piece.along(p.at), angle = std::atan2(piece.dir.y, piece.dir.x);
      if (t < piece.t1 - merge) p.leaving.push_back(angle);
      if (t > piece.t0 + merge) p.leaving.push_back(angle + std::numbers::pi);
    }
    for (const int c : p.rounds) {
      const Round& r = rounds[static_cast<std::size_t>(c)];
      const double tangent = std::atan2(p.at.x - r.centre.x, -(p.at.y - r.centre.y));
      p.leaving.push_back(tangent), p.leaving.push_back(tangent + std::numbers::pi);
    }
  }
  return points;
}

std::optional<P2> least_squares_point(const std::vector<const Piece*>& pieces) {
  double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
  for (const Piece* p : pieces) {
    const double nx = -p->dir.y, ny = p->dir.x, c = nx * p->origin.x + ny * p->origin.y;
    a11 += nx * nx, a12 += nx * ny, a22 += ny * ny, b1 += nx * c, b2 += ny * c;
  }
  const double det = a11 * a22 - a12 * a12;
  if (pieces.size() < 2 || det < 1e-6) return std::nullopt;
  return P2{(a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det};
}

bool crossing(const Piece& a, const Piece& b, P2& at) {
  const double det = a.dir.x * b.dir.y - a.dir.y * b.dir.x;
  if (std::abs(det) < std::sin(0.5 * std::numbers::pi / 180)) return false;
  const double dx = b.origin.x - a.origin.x, dy = b.origin.y - a.origin.y;
  const double t = (dx * b.dir.y - dy * b.dir.x) / det;
  at = a.at(t);
  return true;
}

}  // namespace geotruth::vision::read
