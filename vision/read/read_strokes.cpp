// Straight strokes from the picture alone (docs/reader.md, "Strokes"): the detector's segments
// grouped on one supporting line, the line refitted to its own ink, then walked from end to end of
// the picture so that every inked run on it is found with its true ends.
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

#include "vision/pixels.hpp"
#include "vision/read/read.hpp"
#include "vision/trace.hpp"

namespace geotruth::vision::read {
namespace {

// Whether piece p lies along round r: 70 % of its samples (2 px apart) on its stroke. A straight
// bit of a circle's stroke does (its ends may stray by the tolerance); a chord or a crossing line
// does not.
bool lies_along(const Piece& p, const Round& r, double tolerance) {
  int samples = 0, along = 0;
  for (double t = p.t0; t <= p.t1; t += 2, ++samples) along += on_round(r, p.at(t), tolerance);
  return samples > 0 && along >= 0.7 * samples;
}

// Refits the line origin + t·dir over [t0, t1] to the ink across it: at every pixel along it the
// darkness-weighted mean offset of the ink within `band` (ink_centres), then a least-squares line
// through those means. False when there is too little ink to fit.
bool refit(const Sheet& sheet, P2& origin, P2& dir, double t0, double t1, double band) {
  const P2 n{-dir.y, dir.x};
  double sw = 0, st = 0, so = 0, stt = 0, sto = 0;
  const std::vector<InkCentre> centres = ink_centres(sheet, origin, dir, t0, t1, 1, band, sheet.paper.ink_level);
  for (const auto& [t, o, weight] : centres) sw += 1, st += t, so += o, stt += t * t, sto += t * o;
  if (centres.size() < 6) return false;
  const double denom = sw * stt - st * st;
  if (std::abs(denom) < 1e-9) return false;
  const double beta = (sw * sto - st * so) / denom, alpha = (so - beta * st) / sw;
  // offset(t) = alpha + beta t: the new line passes origin + alpha n at t = 0, direction dir + beta n.
  P2 d{dir.x + beta * n.x, dir.y + beta * n.y};
  const double len = std::hypot(d.x, d.y);
  d = {d.x / len, d.y / len};
  origin = {origin.x + alpha * n.x, origin.y + alpha * n.y};
  dir = d;
  return true;
}

// The parameter range of the line inside the picture (Liang–Barsky against the image box).
bool clip_to_sheet(const Sheet& sheet, P2 origin, P2 dir, double& lo, double& hi) {
  lo = -1e9, hi = 1e9;
  auto clip = [&](double p, double d, double min, double max) {
    if (std::abs(d) < 1e-12) return p >= min && p <= max;
    double a = (min - p) / d, b = (max - p) / d;
    if (a > b) std::swap(a, b);
    lo = std::max(lo, a), hi = std::min(hi, b);
    return lo <= hi;
  };
  return clip(origin.x, dir.x, 0.5, sheet.width - 1.5) && clip(origin.y, dir.y, 0.5, sheet.height - 1.5);
}

struct Sample {
  double t;
  enum class State { ink, paper, unknown } state;
  double peak;
};

// Walks the line over [lo, hi] a pixel at a time: ink when the darkness within the tolerance across
// reaches `level`, unknown under a letter.
std::vector<Sample> walk_line(const Sheet& sheet, P2 origin, P2 dir, double lo, double hi, double tolerance) {
  const P2 n{-dir.y, dir.x};
  std::vector<Sample> out;
  for (double t = lo; t <= hi; t += 1) {
    const P2 c{origin.x + t * dir.x, origin.y + t * dir.y};
    if (sheet.is_unknown(c)) {
      out.push_back({t, Sample::State::unknown, 0});
      continue;
    }
    const double peak = peak_darkness_across(sheet.paper, c, n, tolerance);
    out.push_back({t, peak >= sheet.paper.ink_level ? Sample::State::ink : Sample::State::paper, peak});
  }
  return out;
}

}  // namespace

std::vector<InkCentre> ink_centres(const Sheet& sheet, P2 origin, P2 dir, double t0, double t1, double step,
                                   double band, double floor, const std::function<bool(P2)>& skip) {
  const P2 n{-dir.y, dir.x};
  std::vector<InkCentre> out;
  for (double t = t0; t <= t1; t += step) {
    const P2 c{origin.x + t * dir.x, origin.y + t * dir.y};
    if (!sheet.inside(c) || sheet.is_unknown(c) || (skip && skip(c))) continue;
    double w = 0, wo = 0;
    for (double k = -band; k <= band + 1e-9; k += 0.5) {
      const double d = darkness_at(sheet.paper, {c.x + k * n.x, c.y + k * n.y});
      if (d < floor) continue;
      w += d, wo += d * k;
    }
    if (w > 0) out.push_back({t, wo / w, w});
  }
  return out;
}

double piece_distance(const Piece& piece, P2 p) {
  return distance_to_segment(p, piece.a(), piece.b());
}

bool on_round(const Round& r, P2 q, double tolerance) {
  return std::abs(dist(q, r.centre) - r.radius) <= tolerance;
}

std::vector<Piece> read_pieces(const Sheet& sheet, const std::vector<cv::Vec4f>& found) {
  std::vector<Detections::Segment> segments;
  for (const auto& s : found) segments.push_back({{s[0], s[1]}, {s[2], s[3]}});
  const std::vector<Detections::Line> lines = cluster_segments(segments);
  const double tolerance = sheet.stroke_tolerance();
  const double band = tolerance + 1;
  const double gap_max = std::max(3.0, 2 * sheet.half + 2);
  const double min_length = std::max(8.0, 5 * sheet.half + 4);
  std::vector<Piece> pieces;
  for (const Detections::Line& line : lines) {
    const double len = std::hypot(line.b.x - line.a.x, line.b.y - line.a.y);
    if (len < min_length * 0.75) continue;
    P2 origin = line.a, dir{(line.b.x - line.a.x) / len, (line.b.y - line.a.y) / len};
    double t0 = 0, t1 = len;
    // Twice: the second fit sees the ink of the first fit's line.
    bool fitted = false;
    for (int pass = 0; pass < 2; ++pass) {
      if (!refit(sheet, origin, dir, t0, t1, band)) break;
      fitted = true;
      // Keep the parameters of the detected stretch on the new line.
      const P2 a = line.a, b = line.b;
      t0 = (a.x - origin.x) * dir.x + (a.y - origin.y) * dir.y;
      t1 = (b.x - origin.x) * dir.x + (b.y - origin.y) * dir.y;
      if (t0 > t1) std::swap(t0, t1);
    }
    if (!fitted) continue;
    // Walk beyond the detected stretch: the detector stops short of ends, dots and crossings.
    const double reach = std::max(12.0, 6 * sheet.stroke) + 0.25 * (t1 - t0);
    double lo = 0, hi = 0;
    if (!clip_to_sheet(sheet, origin, dir, lo, hi)) continue;
    // With the labels in a layer of their own, nothing but strokes is left to run into: the walk
    // goes on to the sheet's edge and the run ends where the ink does.
    if (!sheet.labels) lo = std::max(lo, t0 - reach), hi = std::min(hi, t1 + reach);
    const std::vector<Sample> samples = walk_line(sheet, origin, dir, lo, hi, tolerance);
    // The stroke's own contrast on the detected stretch: ink at half of it belongs to the stroke.
    std::vector<double> peaks;
    for (const Sample& s : samples)
      if (s.t >= t0 && s.t <= t1 && s.state == Sample::State::ink) peaks.push_back(s.peak);
    const double contrast = median_of(peaks);
    const double level = std::max(sheet.paper.ink_level, 0.45 * contrast);
    // Inked runs, bridging gaps of paper up to gap_max (unknown samples neither break nor count).
    struct Run {
      double a, b;
      int ink = 0, known = 0;
      std::vector<double> peaks;
      std::vector<std::pair<double, double>> gaps;  // bridged: from the last ink before to the first after
    };
    std::vector<Run> runs;
    std::optional<Run> open;
    int paper_since = 0;  // paper samples since the open run's last ink
    for (const Sample& s : samples) {
      if (s.state == Sample::State::unknown) continue;
      if (s.state == Sample::State::ink && s.peak >= level) {
        if (!open) open = Run{s.t, s.t};
        if (paper_since >= 2) open->gaps.push_back({open->b, s.t});
        open->known += paper_since;
        open->b = s.t;
        ++open->ink, ++open->known;
        open->peaks.push_back(s.peak);
        paper_since = 0;
      } else if (open && ++paper_since > gap_max) {
        runs.push_back(std::move(*open));
        open.reset();
        paper_since = 0;
      }
    }
    if (open) runs.push_back(*open);
    for (Run& run : runs) {
      // A short stretch beyond a gap, past the detected stroke, is the next mark on its line (a
      // letter written just beyond a point: its stem or bar along the line), not the stroke's end.
      const double tail = 2 * min_length;
      if (!run.gaps.empty() && run.gaps.back().second > t1 && run.b - run.gaps.back().second < tail)
        run.b = run.gaps.back().first;
      if (!run.gaps.empty() && run.gaps.front().first < t0 && run.gaps.front().first - run.a < tail)
        run.a = run.gaps.front().second;
      if (run.b - run.a < min_length) continue;
      // Renderers and encoders leave a line along the picture's edge (the cross-check's rule too):
      // a run within 3 px of the edge along all its length is not a stroke of the figure.
      auto at_edge = [&](double t) {
        const P2 q{origin.x + t * dir.x, origin.y + t * dir.y};
        return q.x < 3 || q.y < 3 || q.x > sheet.width - 3 || q.y > sheet.height - 3;
      };
      if (at_edge(run.a) && at_edge(run.b) && at_edge((run.a + run.b) / 2)) continue;
      // A run must hold the detected stroke, not only ink met along its line (a crossing stroke).
      const double overlap = std::min(run.b, t1) - std::max(run.a, t0);
      if (overlap < std::min(min_length, 0.5 * (t1 - t0))) continue;
      Piece p;
      p.origin = origin, p.dir = dir, p.t0 = run.a, p.t1 = run.b;
      p.seen0 = std::max(run.a, t0), p.seen1 = std::min(run.b, t1);
      p.coverage = run.known ? static_cast<double>(run.ink) / run.known : 0;
      p.contrast = median_of(std::move(run.peaks));
      pieces.push_back(p);
    }
  }
  // One stroke found twice (two clusters of its edges): the longer keeps it, extended to both.
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const Piece& a, const Piece& b) { return a.length() > b.length(); });
  std::vector<Piece> kept;
  for (const Piece& p : pieces) {
    bool merged = false;
    for (Piece& k : kept) {
      if (std::abs(p.dir.x * k.dir.x + p.dir.y * k.dir.y) < std::cos(2.0 * std::numbers::pi / 180)) continue;
      if (std::abs(k.offset(p.a())) > tolerance + 0.5 || std::abs(k.offset(p.b())) > tolerance + 0.5) continue;
      const double a = k.along(p.a()), b = k.along(p.b());
      const double lo = std::min(a, b), hi = std::max(a, b);
      if (lo > k.t1 + gap_max || hi < k.t0 - gap_max) continue;
      k.t0 = std::min(k.t0, lo), k.t1 = std::max(k.t1, hi);
      const double s0 = k.along(p.at(p.seen0)), s1 = k.along(p.at(p.seen1));
      k.seen0 = std::min(k.seen0, std::min(s0, s1)), k.seen1 = std::max(k.seen1, std::max(s0, s1));
      merged = true;
      break;
    }
    if (!merged) kept.push_back(p);
  }
  return kept;
}

void drop_letter_sized_pieces(const Sheet& sheet, std::vector<Piece>& pieces, const std::vector<Round>& rounds) {
  if (sheet.glyphs.empty()) return;
  // The capitals' height, not every glyph's: a noisy JPEG's specks read as glyphs make the median
  // of all a fraction of a letter.
  const double long_piece = 1.5 * capital_height(sheet.glyphs);
  const double tolerance = sheet.stroke_tolerance() + 1;
  auto joined = [&](std::size_t self, P2 end) {
    for (std::size_t j = 0; j < pieces.size(); ++j)
      if (j != self && pieces[j].length() >= long_piece && piece_distance(pieces[j], end) <= tolerance) return true;
    return std::any_of(rounds.begin(), rounds.end(), [&](const Round& r) { return on_round(r, end, tolerance); });
  };
  std::vector<Piece> kept;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (pieces[i].length() >= long_piece || (joined(i, pieces[i].a()) && joined(i, pieces[i].b())))
      kept.push_back(pieces[i]);
  pieces = std::move(kept);
}

void drop_pieces_on_rounds(const Sheet& sheet, std::vector<Piece>& pieces, const std::vector<Round>& rounds) {
  // A straight bit of a circle's stroke lies along it for most of its length (its ends may stray by
  // the walk's tolerance), and a bit where a stroke crosses a circle at a shallow angle lies along
  // the two; a line tangent to a circle, or crossing another line, leaves them.
  const double tolerance = sheet.stroke_tolerance() + 1;
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const Piece& a, const Piece& b) { return a.length() > b.length(); });
  std::vector<Piece> kept;
  for (const Piece& p : pieces) {
    int samples = 0, any = 0;
    for (double t = p.t0; t <= p.t1; t += 2, ++samples) {
      const P2 q = p.at(t);
      bool near = std::any_of(rounds.begin(), rounds.end(), [&](const Round& r) { return on_round(r, q, tolerance); });
      for (const Piece& k : kept) near = near || piece_distance(k, q) <= tolerance;
      any += near;
    }
    const bool on_a_round =
        std::any_of(rounds.begin(), rounds.end(), [&](const Round& r) { return lies_along(p, r, tolerance); });
    if (samples > 0 && (on_a_round || any >= 0.8 * samples)) continue;
    kept.push_back(p);
  }
  pieces = std::move(kept);
}

void drop_rounds_of_strokes(const Sheet& sheet, std::vector<Round>& rounds, const std::vector<Piece>& pieces) {
  // A true circle crossed by many strokes still runs clear of them along a third of its length or
  // more (VisOnlyQA val: 0.37 at least, 00991noise_1); "circles" made of other strokes' ink, along
  // a quarter at most (0.0 in 00539 and 00565, 0.24 in 00876noise_0's JPEG).
  constexpr double kOwnInk = 0.15;
  const double tolerance = sheet.stroke_tolerance() + 1;
  // One circle found twice (two proposals refitted a few pixels apart) is not another's ink.
  auto same = [&](const Round& a, const Round& b) {
    return dist(a.centre, b.centre) <= 3 * tolerance && std::abs(a.radius - b.radius) <= 3 * tolerance;
  };
  std::vector<bool> drop(rounds.size(), false);
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const Round& r = rounds[i];
    if (!r.full) continue;
    // The straight strokes off this round (a piece along it is its own ink read straight).
    std::vector<const Piece*> others;
    for (const Piece& p : pieces)
      if (!lies_along(p, r, tolerance)) others.push_back(&p);
    const int n = std::clamp(static_cast<int>(2 * std::numbers::pi * r.radius), 24, 20000);
    int known = 0, own = 0;  // samples on the picture and not under a letter; those no other stroke explains
    for (int k = 0; k < n; ++k) {
      const double a = 2 * std::numbers::pi * k / n;
      const P2 q{r.centre.x + r.radius * std::cos(a), r.centre.y + r.radius * std::sin(a)};
      if (!sheet.inside(q) || sheet.is_unknown(q)) continue;
      ++known;
      bool explained =
          std::any_of(others.begin(), others.end(), [&](const Piece* p) { return piece_distance(*p, q) <= tolerance; });
      for (std::size_t j = 0; j < rounds.size() && !explained; ++j)
        explained = j != i && rounds[j].full && !same(r, rounds[j]) && on_round(rounds[j], q, tolerance);
      own += !explained;
    }
    drop[i] = known > 0 && own < kOwnInk * known;
    if (std::getenv("GEOTRUTH_READER_DEBUG"))
      std::fprintf(stderr, "round at %.0f,%.0f r %.1f: own ink %d of %d\n", r.centre.x, r.centre.y, r.radius, own,
                   known);
  }
  std::vector<Round> kept;
  for (std::size_t i = 0; i < rounds.size(); ++i)
    if (!drop[i]) kept.push_back(rounds[i]);
  rounds = std::move(kept);
}

PictureReading measure_wobble(const Sheet& sheet, const std::vector<Piece>& pieces, const std::vector<Round>& rounds) {
  // The cross-check's measure (docs/vision.md, "Wobble and tolerance"): every stroke traced within a
  // generous tolerance; each one inked along 90 % of it, with enough samples away from the other
  // strokes, gives the 90th percentile of how far its ink lies from its place; the median over the
  // strokes is the picture's wobble.
  constexpr double kMaxTolerancePx = 12, kDefaultWobblePx = 1.5;
  constexpr std::size_t kWobbleSamples = 20;
  PictureReading reading;
  reading.background = sheet.paper.background;
  reading.noise_sigma = sheet.paper.noise;
  reading.ink_level = sheet.paper.ink_level;
  reading.stroke_px = sheet.stroke;
  const double generous = std::min(kMaxTolerancePx, std::max(8.0, 3 * sheet.stroke));
  std::vector<std::vector<P2>> paths;
  std::vector<bool> closed;
  for (const Piece& p : pieces) paths.push_back({p.a(), p.b()}), closed.push_back(false);
  for (const Round& r : rounds) {
    if (!r.full) continue;
    std::vector<P2> path;
    const int n = std::clamp(static_cast<int>(2 * std::numbers::pi * r.radius / 2), 24, 4000);
    for (int k = 0; k < n; ++k)
      path.push_back({r.centre.x + r.radius * std::cos(2 * std::numbers::pi * k / n),
                      r.centre.y + r.radius * std::sin(2 * std::numbers::pi * k / n)});
    paths.push_back(std::move(path)), closed.push_back(true);
  }
  // Crowded: another stroke passes within the tolerance.
  auto crowded = [&](std::size_t self, P2 q) {
    for (std::size_t i = 0; i < pieces.size(); ++i)
      if (i != self && piece_distance(pieces[i], q) <= generous) return true;
    std::size_t k = pieces.size();
    for (const Round& r : rounds)
      if (r.full && k++ != self && on_round(r, q, generous)) return true;
    return false;
  };
  std::vector<double> alone, touching;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const StrokeTrace trace = trace_stroke(sheet.paper, paths[i], closed[i], generous, cv::Mat());
    if (trace.coverage < 0.9) continue;
    std::vector<double> uncrowded, all;
    for (const auto& s : trace.samples)
      if (s.found) (crowded(i, s.at) ? all : uncrowded).push_back(std::abs(s.offset));
    all.insert(all.end(), uncrowded.begin(), uncrowded.end());
    auto p90 = [](std::vector<double> v) {
      auto it = v.begin() + static_cast<std::ptrdiff_t>(0.9 * (v.size() - 1));
      std::nth_element(v.begin(), it, v.end());
      return *it;
    };
    if (uncrowded.size() >= std::max(kWobbleSamples, trace.samples.size() / 2))
      alone.push_back(p90(uncrowded));
    else if (all.size() >= kWobbleSamples)
      touching.push_back(p90(all));
  }
  const std::vector<double>& spreads = alone.empty() ? touching : alone;
  reading.wobble_strokes = static_cast<int>(spreads.size());
  if (spreads.empty()) {
    reading.wobble_px = kDefaultWobblePx, reading.wobble_source = "default: no stroke to measure it on";
  } else {
    reading.wobble_px = median_of(spreads);
    reading.wobble_source = alone.empty() ? "auto, on touching strokes" : "auto";
  }
  const double base = sheet.stroke / 2 + 2;
  reading.tolerance_px = std::clamp(base + 1.5 * reading.wobble_px, base, kMaxTolerancePx);
  return reading;
}

}  // namespace geotruth::vision::read
