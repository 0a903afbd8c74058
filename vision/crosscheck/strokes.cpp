// Every stroke of the scene looked for where the scene puts it (docs/vision.md, "Match every stroke
// where the scene puts it"): the picture's wobble and the matching tolerance it sets, each
// stroke's ink at its own contrast, a straight stroke's drawn ends, and a shape the picture draws
// elsewhere.
#include "vision/crosscheck/checker.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <map>

namespace geotruth::vision::check {
namespace {

// The widest matching tolerance: half of the smallest displacement the cross-check must catch on
// the sketchiest picture (a shape moved by 26 px leaves most of its stroke outside it).
constexpr double kMaxTolerancePx = 12;
// How far (px) a stroke found off its place is looked for, to say where the picture draws it.
constexpr int kShiftSearchPx = 48;
// ... where it lies on ink along this share of its stroke, this much more than at its place.
constexpr double kElsewhereShare = 0.6, kElsewhereGain = 0.25;
// The wobble is measured on strokes with at least this many samples (~30 px), and is this much
// where no stroke can be measured (a sketch's typical wobble: neither tight nor loose).
constexpr std::size_t kWobbleSamples = 20;
constexpr double kDefaultWobblePx = 1.5;
// Samples away from other strokes that a stroke needs for their coverage to be judged (~15 px).
constexpr std::size_t kAloneSamples = 10;
// A stroke a person relies on is at least this much darker than the paper (gray levels: a Weber
// contrast of 8 % on white paper), and this many times the noise left after smoothing (the Rose
// criterion): docs/vision.md, "Ink".
constexpr double kMinContrast = 20, kRoseFactor = 5;
// Something is drawn along a stroke when its median darkness profile peaks this far above the
// paper: a few gray levels (2 % Weber contrast, about the smallest step a person sees), and five
// times the noise left in that median.
constexpr double kMinPresence = 5, kPresenceFactor = 5;

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  auto at = values.begin() + static_cast<std::ptrdiff_t>(q * (values.size() - 1));
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

}  // namespace

// Elements whose strokes pass within `tolerance` of each pixel (saturating at 255).
cv::Mat Checker::crowd_map(double tolerance) const {
  cv::Mat count = cv::Mat::zeros(paper_.ink.size(), CV_8U), mask(paper_.ink.size(), CV_8U);
  const int thickness = std::max(1, static_cast<int>(std::ceil(2 * tolerance + stroke_)));
  std::map<std::string, std::vector<std::size_t>> by_element;
  for (std::size_t i = 0; i < fig_.curves.size(); ++i) by_element[fig_.curves[i].element].push_back(i);
  for (const auto& [element, curves] : by_element) {
    mask.setTo(0);
    for (std::size_t i : curves) {
      const Curve& c = fig_.curves[i];
      cv::polylines(mask, pixel_path(c.path), c.closed, 1, thickness);
    }
    count += mask;
  }
  return count;
}

// --- the drawing style: how far strokes stray from their place ----------------------------
// Traced first within a generous tolerance; each stroke found nearly all along, away from other
// strokes, tells how far its ink strays (the 90th percentile of its offsets); the median stroke
// sets the wobble, so one misplaced shape cannot widen the tolerance for all.
void Checker::measure_wobble() {
  PictureReading& reading = out_.picture;
  const double base = stroke_ / 2 + 2;
  if (options_.wobble_px >= 0) {
    reading.wobble_px = options_.wobble_px, reading.wobble_source = "given";
  } else {
    const double generous = std::min(kMaxTolerancePx, std::max(8.0, 3 * stroke_));
    const cv::Mat crowd = crowd_map(generous);
    // Per stroke, the 90th percentile of how far its ink lies from its place: away from other
    // strokes when it has enough such samples, else (a figure of touching shapes) everywhere.
    std::vector<double> alone, crowded;
    for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
      if (evidence_[i].hidden) continue;
      const StrokeTrace trace = trace_stroke(paper_, fig_.curves[i].path, fig_.curves[i].closed, generous, crowd);
      if (trace.coverage < 0.9) continue;
      std::vector<double> uncrowded, all;
      for (const auto& s : trace.samples)
        if (s.found) (s.crowded ? all : uncrowded).push_back(std::abs(s.offset));
      all.insert(all.end(), uncrowded.begin(), uncrowded.end());
      // Alone: most of the stroke away from others (a few uncrowded samples between touching
      // shapes may have found the other shape's ink).
      if (uncrowded.size() >= std::max(kWobbleSamples, trace.samples.size() / 2))
        alone.push_back(percentile(std::move(uncrowded), 0.9));
      else if (all.size() >= kWobbleSamples)
        crowded.push_back(percentile(std::move(all), 0.9));
    }
    const std::vector<double>& spreads = alone.empty() ? crowded : alone;
    reading.wobble_strokes = static_cast<int>(spreads.size());
    if (spreads.empty()) {
      reading.wobble_px = kDefaultWobblePx, reading.wobble_source = "default: no stroke to measure it on";
    } else {
      reading.wobble_px = percentile(spreads, 0.5);
      reading.wobble_source = alone.empty() ? "auto, on touching strokes" : "auto";
    }
  }
  reading.tolerance_px = std::clamp(base + 1.5 * reading.wobble_px, base, kMaxTolerancePx);
}

// --- placement: size and canvas of every stroke -------------------------------------------
void Checker::judge_strokes() {
  const double tolerance = out_.picture.tolerance_px;
  crowd_ = crowd_map(tolerance);
  // A stroke is there when the darkness along it stands out of the paper's noise; it can be relied
  // on when it is also darker than `faint`.
  const double present_noise = kPresenceFactor * paper_.noise_smoothed;
  const double faint = std::max(kMinContrast, kRoseFactor * paper_.noise_smoothed);
  for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
    CurveEvidence& e = evidence_[i];
    if (e.hidden) continue;
    const Curve& c = fig_.curves[i];
    e.trace = trace_stroke(paper_, c.path, c.closed, tolerance, crowd_);
    if (e.trace.samples.empty()) continue;
    const P2 centre = c.model != Curve::Model::polyline ? c.center : midpoint(c.path.front(), c.path.back());
    // Where it runs along other strokes their ink is found too: the stretches away from them
    // must hold on their own.
    const bool drawn = e.trace.coverage >= needed_coverage(c) &&
                       (e.trace.alone < kAloneSamples || e.trace.alone_coverage >= needed_coverage(c));
    if (drawn) {
      if (e.trace.contrast < faint)
        report_faint(i, e.trace.contrast, faint, centre);
      else
        check_ends(i);
      continue;
    }
    // Drawn elsewhere (a shape moved, faint or not), faint where it is, or not drawn.
    const std::optional<P2> shift = drawn_elsewhere(c);
    // The median's noise falls with the square root of its samples (spaced about one noise
    // grain apart after smoothing).
    const double present =
        std::max(kMinPresence, present_noise / std::sqrt(static_cast<double>(std::max<std::size_t>(1, e.trace.alone))));
    if (!shift && e.trace.presence >= present && e.trace.presence < faint) {
      report_faint(i, e.trace.presence, faint, centre);
      continue;
    }
    e.hidden = true;
    const std::string coverage =
        e.trace.coverage >= needed_coverage(c)
            ? fixed(100 * e.trace.alone_coverage, 0) + " % of its stroke away from other strokes, within " +
                  fixed(tolerance) + " px (needs " + fixed(100 * needed_coverage(c), 0) + " %)"
            : fixed(100 * e.trace.coverage, 0) + " % of its stroke within " + fixed(tolerance) + " px (needs " +
                  fixed(100 * needed_coverage(c), 0) + " %)";
    if (shift) {
      e.shift = shift;
      const double by = std::hypot(shift->x, shift->y);
      add(FindingKind::not_detected, {c.element},
          "not where the scene puts it (ink along " + coverage + "): the picture draws it " + fixed(by) +
              " px away, shifted by (" + fixed(shift->x, 0) + ", " + fixed(shift->y, 0) + ") px",
          by, {centre, {centre.x + shift->x, centre.y + shift->y}});
    } else {
      add(FindingKind::not_visible, {c.element}, "ink along " + coverage, std::nullopt, {centre});
    }
  }
}

// Faint: whatever the picture shows of it, a person cannot rely on it (doubtful, not a
// conflict), and it is not expected among the detections.
void Checker::report_faint(std::size_t i, double darkness, double faint, P2 centre) {
  CurveEvidence& e = evidence_[i];
  e.low = e.hidden = true;
  const std::string& element = fig_.curves[i].element;
  for (const Reason& r : out_.reasons)
    if (r.kind == FindingKind::low_contrast && r.elements.front() == element) return;  // one per element
  add(FindingKind::low_contrast, {element},
      "its stroke is " + fixed(darkness, 0) + " gray levels darker than the paper (" + fixed(paper_.background, 0) +
          "), noise σ " + fixed(paper_.noise, 1) + ": below " + fixed(faint, 0) + ", too faint to rely on",
      std::nullopt, {centre});
}

// A straight stroke's drawn ends: the picture's stroke must reach each (no stretch near it without
// ink) and stop there (no ink going on along it, away from other strokes). A segment drawn
// shifted along itself passes every other test.
void Checker::check_ends(std::size_t i) {
  const Curve& c = fig_.curves[i];
  const StrokeTrace& trace = evidence_[i].trace;
  if (c.path.size() != 2 || trace.samples.size() < 4) return;
  const double tolerance = out_.picture.tolerance_px, allowed = tolerance + stroke_;
  const double level = std::max(paper_.ink_level, 0.5 * trace.contrast);
  for (int end = 0; end < 2; ++end) {
    if (!c.drawn_ends[end]) continue;
    const P2 tip = end == 0 ? c.path.front() : c.path.back(), other = end == 0 ? c.path.back() : c.path.front();
    const double len = dist(tip, other);
    const P2 out{(tip.x - other.x) / len, (tip.y - other.y) / len};
    // Short of the end: samples without ink, counted from the end inward.
    std::size_t missing = 0;
    for (std::size_t k = 0; k < trace.samples.size(); ++k) {
      const StrokeSample& s = trace.samples[end == 0 ? k : trace.samples.size() - 1 - k];
      if (s.found) break;
      ++missing;
    }
    const double short_by = missing * 1.5;
    // Beyond the end: the stroke's own ink going on, until another element's stroke.
    double beyond = 0;
    const double own_reach = tolerance + stroke_ / 2 + 1;  // the stroke's own zone in the crowd map
    for (double t = 1.5; t <= kShiftSearchPx; t += 1.5) {
      const P2 p{tip.x + out.x * t, tip.y + out.y * t};
      if (!inside(p) || p.x >= crowd_.cols || p.y >= crowd_.rows) break;
      if (crowd_.at<std::uint8_t>(static_cast<int>(p.y), static_cast<int>(p.x)) >= (t <= own_reach ? 2 : 1)) break;
      if (darkness_at(paper_, p) < level) break;
      beyond = t;
    }
    if (short_by > allowed)
      add(FindingKind::not_detected, {c.element},
          "its end is " + fixed(short_by, 0) + " px beyond the end of its stroke in the picture", short_by, {tip});
    else if (beyond > allowed + tolerance)
      add(FindingKind::not_detected, {c.element},
          "the picture's stroke goes on " + fixed(beyond, 0) + " px past its end", beyond, {tip});
  }
}

// The shift (within kShiftSearchPx) that puts the curve on ink nearly all along, when one does
// and it is beyond the tolerance: a shape drawn elsewhere rather than not drawn.
std::optional<P2> Checker::drawn_elsewhere(const Curve& c) {
  std::vector<P2> points;
  for (const auto& [p, n] : walk(c.path, c.closed, 3.0)) points.push_back(p);
  if (points.size() < 4) return std::nullopt;
  const double tolerance = out_.picture.tolerance_px;
  auto share = [&](double dx, double dy) {
    std::size_t hits = 0;
    for (const P2& p : points) hits += ink_distance({p.x + dx, p.y + dy}) <= tolerance;
    return static_cast<double>(hits) / points.size();
  };
  // The shift that puts the shape nearest the ink on average (distances capped, so that a
  // stretch far from everything does not outweigh the rest): the middle of the place it lies.
  auto cost = [&](double dx, double dy) {
    double sum = 0;
    for (const P2& p : points) sum += std::min(2 * tolerance, ink_distance({p.x + dx, p.y + dy}));
    return sum;
  };
  double lowest = 1e300;
  P2 at{};
  auto consider = [&](double dx, double dy) {
    if (const double c = cost(dx, dy); c < lowest - 1e-9) lowest = c, at = {dx, dy};
  };
  for (int dy = -kShiftSearchPx; dy <= kShiftSearchPx; dy += 3)
    for (int dx = -kShiftSearchPx; dx <= kShiftSearchPx; dx += 3) consider(dx, dy);
  const P2 coarse = at;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) consider(coarse.x + dx, coarse.y + dy);
  const double best = share(at.x, at.y);
  // Elsewhere when the shape lies on ink there along most of its stroke, and much more than where
  // the scene puts it (a faint stroke in noise is not all ink anywhere).
  const double here = share(0, 0);
  if (std::hypot(at.x, at.y) <= tolerance || best < kElsewhereShare || best < here + kElsewhereGain)
    return std::nullopt;
  // Confirmed at its own contrast, as any stroke.
  const double there = trace_stroke(paper_, shifted(c.path, at), c.closed, tolerance, {}).coverage;
  if (there < kElsewhereShare || there < here + kElsewhereGain) return std::nullopt;
  return at;
}

}  // namespace geotruth::vision::check
