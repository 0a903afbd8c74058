// Matches what the pixels show with what the scene says (vision/figure.cpp), in three steps:
//  1. read the picture (vision/paper.cpp): its paper, noise and ink, so that a light-gray stroke
//     on a noisy JPEG is judged at its own contrast;
//  2. walk every stroke of the scene where the scene puts it (vision/trace.cpp) and look for its
//     ink within a tolerance that follows the drawing style: measured on the strokes that match
//     unambiguously, tight on clean pictures, wider on sketchy ones, never wide enough to miss a
//     shape drawn elsewhere;
//  3. run the blind detectors (vision/detect.cpp) on the ink no stroke of the scene explains: what
//     they find there is drawn but not in the scene.
// Raw detector counts are never compared: every scene element is matched or named with the
// reason, and every unexplained detection is reported.
#include <opencv2/imgproc.hpp>
#include "geometry/predicates.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "vision/detectors.hpp"
#include "vision/figure.hpp"
#include "vision/paper.hpp"
#include "vision/pixels.hpp"
#include "vision/trace.hpp"

namespace geotruth::vision {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMinDetectablePx = 12;  // the shortest straight piece any line detector sees
// The widest matching tolerance: half of the smallest displacement the cross-check must catch on
// the sketchiest picture (a shape moved by 26 px leaves most of its stroke outside it).
constexpr double kMaxTolerancePx = 12;
// How far (px) a stroke found off its place is looked for, to say where the picture draws it.
constexpr int kShiftSearchPx = 48;
// ... where it lies on ink along this share of its stroke, this much more than at its place.
constexpr double kElsewhereShare = 0.6, kElsewhereGain = 0.25;
constexpr int kEdgePx = 2;  // the picture's own edge: its outermost pixels
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

std::string fixed(double v, int digits = 1) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

P2 midpoint(P2 a, P2 b) {
  return {(a.x + b.x) / 2, (a.y + b.y) / 2};
}
double dist(P2 a, P2 b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

struct Bounds {
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
};
Bounds bounds_of(const std::vector<P2>& points) {
  Bounds b;
  for (const P2& p : points)
    b.x0 = std::min(b.x0, p.x), b.y0 = std::min(b.y0, p.y), b.x1 = std::max(b.x1, p.x), b.y1 = std::max(b.y1, p.y);
  return b;
}

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  auto at = values.begin() + static_cast<std::ptrdiff_t>(q * (values.size() - 1));
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

std::vector<P2> shifted(const std::vector<P2>& path, P2 by) {
  std::vector<P2> out = path;
  for (P2& p : out) p.x += by.x, p.y += by.y;
  return out;
}

std::vector<cv::Point> pixel_path(const std::vector<P2>& path) {
  std::vector<cv::Point> out;
  for (const P2& p : path) out.emplace_back(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
  return out;
}

// What the picture shows of one curve of the figure.
struct CurveEvidence {
  StrokeTrace trace;
  bool hidden = false;      // not to be seen: off the canvas, drawn as a dot, or its ink missing
  bool low = false;         // drawn, but too faint to rely on
  std::optional<P2> shift;  // drawn elsewhere: by this much
};

class Checker {
 public:
  Checker(const Scene& scene, const Image& image, const CrossCheckOptions& options)
      : image_(image), options_(options), bands_(options_.bands, scene.frame), paper_(measure_paper(image)) {
    stroke_ = estimate_stroke_width();
    // Tick marks, angle arcs, arrowheads and text are not what a scene describes: an unexplained
    // detection must be a twentieth of the picture long (a line), or its radius a fiftieth of it
    // (a circle), to count.
    const double longer = std::max(image.width, image.height);
    min_extra_line_ = std::max(20.0, 0.05 * longer), min_extra_radius_ = std::max(6.0, 0.02 * longer);
    min_extra_stroke_ = std::max(16.0, 0.035 * longer);
    bool fills = false;
    out_.scale = scale_for_image(scene.frame, image.width, image.height, fills);
    fig_ = build_figure(scene, image.width, image.height, out_.scale, {}, 0, options.dataset_picture);
    if (!fills) {
      out_.offset = register_offset();
      fig_ = build_figure(scene, image.width, image.height, out_.scale, out_.offset, 0, options.dataset_picture);
    }
    evidence_.resize(fig_.curves.size());
    out_.dataset_picture = options.dataset_picture;
    out_.picture.background = paper_.background;
    out_.picture.noise_sigma = paper_.noise;
    out_.picture.ink_level = paper_.ink_level;
    out_.picture.stroke_px = stroke_;
  }

  CrossCheck run() {
    for (const auto& problem : fig_.problems)
      add(FindingKind::not_visible, {problem}, "no coordinates: cannot be drawn or checked", std::nullopt, {});
    check_placement();
    measure_wobble();
    judge_strokes();
    match_lines();
    match_rounds();
    match_closed_shapes();
    match_letters();
    match_arrowheads();
    find_extras();
    measure_gaps();
    std::erase_if(out_.counts, [](const auto& entry) { return entry.second.symbolic == 0 && entry.second.extra == 0; });
    for (const auto& [category, count] : out_.counts)
      if (count.symbolic != count.matched || count.extra > 0)
        add(FindingKind::count_mismatch, {},
            category + ": " + std::to_string(count.symbolic) + " in the scene, " + std::to_string(count.matched) +
                " of them detected, " + std::to_string(count.extra) + " unexplained detections",
            std::nullopt, {});
    record_elements();
    out_.agree = std::none_of(out_.reasons.begin(), out_.reasons.end(),
                              [](const Reason& r) { return r.severity == Severity::conflict; });
    out_.doubtful = std::any_of(out_.reasons.begin(), out_.reasons.end(),
                                [](const Reason& r) { return r.severity == Severity::doubtful; });
    return std::move(out_);
  }

 private:
  void add(FindingKind kind, std::vector<std::string> elements, std::string detail, std::optional<double> value_px,
           std::vector<P2> where) {
    Reason r;
    static_cast<Finding&>(r) = make_finding(kind, std::move(elements), std::move(detail), value_px);
    r.where = std::move(where);
    out_.reasons.push_back(std::move(r));
  }

  bool inside(P2 p, double margin = 0) const {
    return p.x >= -margin && p.y >= -margin && p.x <= image_.width + margin && p.y <= image_.height + margin;
  }

  // Twice the typical half-width of ink (distance-transform ridge), for users' images whose
  // stroke width is unknown.
  double estimate_stroke_width() const {
    cv::Mat dt;
    cv::distanceTransform(paper_.ink, dt, cv::DIST_L2, 3);
    std::vector<float> ridge;
    for (int y = 1; y + 1 < dt.rows; ++y)
      for (int x = 1; x + 1 < dt.cols; ++x) {
        const float v = dt.at<float>(y, x);
        if (v > 0 && v >= dt.at<float>(y, x - 1) && v >= dt.at<float>(y, x + 1) && v >= dt.at<float>(y - 1, x) &&
            v >= dt.at<float>(y + 1, x))
          ridge.push_back(v);
      }
    if (ridge.empty()) return 2;
    std::nth_element(ridge.begin(), ridge.begin() + ridge.size() / 2, ridge.end());
    return std::clamp(2.0 * ridge[ridge.size() / 2], 1.0, 8.0);
  }

  // Distance (px) from every pixel to the nearest ink, computed once.
  const cv::Mat& distance_to_ink() {
    if (distance_to_ink_.empty()) {
      cv::Mat paper = paper_.ink == 0;
      cv::distanceTransform(paper, distance_to_ink_, cv::DIST_L2, 3);
    }
    return distance_to_ink_;
  }
  double ink_distance(P2 p) {
    const cv::Mat& d = distance_to_ink();
    const int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
    return x < 0 || y < 0 || x >= d.cols || y >= d.rows ? 1e9 : d.at<float>(y, x);
  }

  // The translation that puts the scene's strokes on ink: the least mean distance to ink (capped
  // at 8 px) over every offset that keeps the frame near the image, coarse then fine.
  P2 register_offset() {
    std::vector<P2> points;
    for (const Curve& c : fig_.curves)
      for (const auto& [p, n] : walk(c.path, c.closed, 1.0)) points.push_back(p);
    if (points.empty()) return {};
    const std::size_t stride = std::max<std::size_t>(1, points.size() / 600);
    const auto [x0, y0, x1, y1] = bounds_of(points);
    auto cost = [&](int dx, int dy) {
      double sum = 0;
      for (std::size_t i = 0; i < points.size(); i += stride)
        sum += std::min(8.0, ink_distance({points[i].x + dx, points[i].y + dy}));
      return sum;
    };
    const int lo_x = static_cast<int>(-x0) - 8, hi_x = static_cast<int>(image_.width - x1) + 8,
              lo_y = static_cast<int>(-y0) - 8, hi_y = static_cast<int>(image_.height - y1) + 8;
    int best_x = 0, best_y = 0;
    double best = cost(0, 0);
    for (int dy = lo_y; dy <= hi_y; dy += 3)
      for (int dx = lo_x; dx <= hi_x; dx += 3)
        if (const double c = cost(dx, dy); c < best) best = c, best_x = dx, best_y = dy;
    const int cx = best_x, cy = best_y;
    for (int dy = cy - 2; dy <= cy + 2; ++dy)
      for (int dx = cx - 2; dx <= cx + 2; ++dx)
        if (const double c = cost(dx, dy); c < best) best = c, best_x = dx, best_y = dy;
    return {static_cast<double>(best_x), static_cast<double>(best_y)};
  }

  double needed_coverage(const Curve& c) const { return c.dashed ? 0.35 : options_.min_coverage; }

  // Elements whose strokes pass within `tolerance` of each pixel (saturating at 255).
  cv::Mat crowd_map(double tolerance) const {
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

  // --- placement: size and canvas of every stroke -------------------------------------------
  void check_placement() {
    for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
      const Curve& c = fig_.curves[i];
      const auto [x0, y0, x1, y1] = bounds_of(c.path);
      const P2 centre{(x0 + x1) / 2, (y0 + y1) / 2};
      if (x1 < 0 || y1 < 0 || x0 > image_.width || y0 > image_.height) {
        add(FindingKind::off_canvas, {c.element},
            "drawn entirely outside the " + std::to_string(image_.width) + " × " + std::to_string(image_.height) +
                " image",
            std::nullopt, {});
        evidence_[i].hidden = true;
        continue;
      }
      const double size = c.model != Curve::Model::polyline ? std::min(c.a, c.b) : std::hypot(x1 - x0, y1 - y0) / 2;
      // A stroke whose whole width (2 × size) is within the visual threshold is a dot.
      if (bands_.decide_px(2 * size) != Decision::fails) {
        const std::string what = c.model == Curve::Model::circle    ? "radius "
                                 : c.model == Curve::Model::ellipse ? "minor semi-axis "
                                                                    : "half-size ";
        add(FindingKind::not_visible, {c.element},
            what + fixed(size, 2) + " px is below " + fixed(bands_.bands().eps_vis_px / 2) + " px: drawn as a dot",
            size, {centre});
        evidence_[i].hidden = true;
      }
    }
  }

  // --- the drawing style: how far strokes stray from their place ----------------------------
  // Traced first within a generous tolerance; each stroke found nearly all along, away from other
  // strokes, tells how far its ink strays (the 90th percentile of its offsets); the median stroke
  // sets the wobble, so one misplaced shape cannot widen the tolerance for all.
  void measure_wobble() {
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

  // --- every stroke: ink along it at its own contrast, within the tolerance ------------------
  void judge_strokes() {
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
      const double present = std::max(
          kMinPresence, present_noise / std::sqrt(static_cast<double>(std::max<std::size_t>(1, e.trace.alone))));
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
  void report_faint(std::size_t i, double darkness, double faint, P2 centre) {
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
  void check_ends(std::size_t i) {
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
  std::optional<P2> drawn_elsewhere(const Curve& c) {
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

  bool hidden_straight(std::size_t s) const {
    for (std::size_t i = 0; i < fig_.curves.size(); ++i)
      if (evidence_[i].hidden && std::count(fig_.curves[i].straights.begin(), fig_.curves[i].straights.end(), s))
        return true;
    return false;
  }

  // Share of the straight piece ab with its ink within the tolerance.
  double piece_coverage(P2 a, P2 b) const {
    return trace_stroke(paper_, {a, b}, false, out_.picture.tolerance_px, crowd_).coverage;
  }

  // On a stroke of the scene: a detection there belongs to the drawing (an arc's chord, the
  // corner where two strokes join), not to something the scene does not draw.
  bool on_scene_stroke(P2 p, double tol) const {
    for (const Curve& c : fig_.curves)
      if (distance_to_path(p, c.path, c.closed) <= tol) return true;
    return false;
  }
  bool in_text(P2 p) const {
    for (const auto& g : out_.detections.glyphs)
      if (in_box(p, g, 2)) return true;
    for (const Text& t : fig_.texts)
      if (dist(p, t.center) <= fig_.font_px * (0.6 + 0.35 * t.text.size())) return true;
    return false;
  }

  // --- lines: the scene's straight strokes, clustered into supporting lines -----------------
  void match_lines() {
    std::vector<Detections::Segment> pieces;
    std::vector<std::string> names;
    std::vector<bool> dashed;
    for (std::size_t s = 0; s < fig_.straights.size(); ++s) {
      if (hidden_straight(s)) continue;
      const Straight& st = fig_.straights[s];
      pieces.push_back({st.a, st.b});
      names.push_back(st.element);
      dashed.push_back(std::any_of(fig_.curves.begin(), fig_.curves.end(), [&](const Curve& c) {
        return c.dashed && std::count(c.straights.begin(), c.straights.end(), s);
      }));
    }
    Count& count = out_.counts["lines"];
    for (const auto& line : cluster_segments(pieces)) {
      if (dist(line.a, line.b) < kMinDetectablePx) continue;  // too short for any line detector
      ++count.symbolic;
      std::set<std::string> elements;
      double covered = 0, length = 0, needed = 0;
      for (std::size_t k : line.segments) {
        elements.insert(names[k]);
        const double len = dist(pieces[k].a, pieces[k].b);
        if (len < kMinDetectablePx) continue;
        length += len;
        covered += len * piece_coverage(pieces[k].a, pieces[k].b);
        needed += len * (dashed[k] ? 0.35 : options_.min_coverage);
      }
      if (length == 0 || covered >= needed) {
        ++count.matched;
        out_.detections.lines.push_back(line);
      } else {
        add(FindingKind::not_detected, {elements.begin(), elements.end()},
            "line drawn along " + fixed(100 * covered / length, 0) + " % of its length within " +
                fixed(out_.picture.tolerance_px) + " px",
            std::nullopt, {midpoint(line.a, line.b)});
      }
    }
  }

  // --- circles, ellipses and circular layers: their ink fits the scene's curve --------------
  void match_rounds() {
    for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
      const Curve& c = fig_.curves[i];
      if (c.model == Curve::Model::polyline || !c.full) continue;
      Count& count = out_.counts[c.category];
      if (evidence_[i].hidden) continue;
      ++count.symbolic;
      // The curve through the ink found along it, away from crossing strokes: a circle fitted as a
      // circle (stable on an arc), an ellipse as an ellipse; judged only where the ink goes most of
      // the way round.
      std::vector<cv::Point2f> ink;
      for (const auto& s : evidence_[i].trace.samples)
        if (s.found && !s.crowded)
          ink.emplace_back(static_cast<float>(s.at.x + s.offset * s.normal.x),
                           static_cast<float>(s.at.y + s.offset * s.normal.y));
      std::string mismatch;
      if (ink.size() >= 12) {
        const Detections::Ellipse d = c.model == Curve::Model::circle ? fit_circle(ink) : fit_ellipse(ink);
        out_.detections.ellipses.push_back(d);
        if (2 * ink.size() >= evidence_[i].trace.samples.size()) mismatch = round_mismatch(c, d);
      }
      if (mismatch.empty()) {
        ++count.matched;
      } else {
        add(FindingKind::not_detected, {c.element}, mismatch, std::nullopt, {c.center});
      }
    }
  }

  // The least-squares circle through the points (Kåsa's algebraic fit), refitted once without
  // the points farther than the tolerance from the first.
  Detections::Ellipse fit_circle(std::vector<cv::Point2f> points) const {
    Detections::Ellipse d;
    d.circle = true;
    for (int round = 0; round < 2; ++round) {
      // x² + y² = 2ax + 2by + c, solved for (a, b, c) in the least-squares sense.
      cv::Mat A(static_cast<int>(points.size()), 3, CV_64F), rhs(static_cast<int>(points.size()), 1, CV_64F), sol;
      for (int k = 0; k < A.rows; ++k) {
        const double x = points[k].x, y = points[k].y;
        A.at<double>(k, 0) = 2 * x, A.at<double>(k, 1) = 2 * y, A.at<double>(k, 2) = 1;
        rhs.at<double>(k, 0) = x * x + y * y;
      }
      if (!cv::solve(A, rhs, sol, cv::DECOMP_SVD)) break;
      const double a = sol.at<double>(0), b = sol.at<double>(1), r2 = sol.at<double>(2) + a * a + b * b;
      d.center = {a, b}, d.a = d.b = r2 > 0 ? std::sqrt(r2) : 0;
      std::erase_if(points, [&](const cv::Point2f& p) {
        return std::abs(std::hypot(p.x - a, p.y - b) - d.a) > out_.picture.tolerance_px;
      });
      if (points.size() < 12) break;
    }
    return d;
  }

  static Detections::Ellipse fit_ellipse(const std::vector<cv::Point2f>& points) {
    const cv::RotatedRect fit = cv::fitEllipseDirect(points);
    Detections::Ellipse d;
    d.center = {fit.center.x, fit.center.y};
    d.a = std::max(fit.size.width, fit.size.height) / 2, d.b = std::min(fit.size.width, fit.size.height) / 2;
    d.angle_deg = std::fmod(fit.size.width >= fit.size.height ? fit.angle : fit.angle + 90, 180);
    return d;
  }

  // Why a fitted ellipse is not the scene's curve ("" when it is): centre and semi-axes within
  // the tolerance (plus 3 % of the size: a fit to a short arc is loose), the major axis within 5°
  // when the curve is visibly elongated.
  std::string round_mismatch(const Curve& c, const Detections::Ellipse& e) const {
    const double a = std::max(c.a, c.b), b = std::min(c.a, c.b), tol = out_.picture.tolerance_px + 0.03 * a;
    if (dist(c.center, e.center) > tol)
      return "its ink is centred " + fixed(dist(c.center, e.center)) + " px from the scene's centre";
    if (std::abs(e.a - a) > tol || std::abs(e.b - b) > tol)
      return "its ink has semi-axes " + fixed(e.a) + " and " + fixed(e.b) + " px, the scene " + fixed(a) + " and " +
             fixed(b) + " px";
    if (c.model == Curve::Model::ellipse && a / b >= 1.15) {
      const double major = c.a >= c.b ? c.angle_deg : c.angle_deg + 90;
      const double diff = std::fmod(std::abs(major - e.angle_deg), 180);
      if (std::min(diff, 180 - diff) > 5)
        return "its ink's major axis is at " + fixed(e.angle_deg) + "°, the scene's at " +
               fixed(std::fmod(major + 360, 180)) + "°";
    }
    return "";
  }

  // --- polygons, stars, sectors, boxes: every side drawn; curves without sides by their ink ----
  void match_closed_shapes() {
    std::map<std::string, std::vector<std::size_t>> by_element;  // an element may have several strokes (arcs)
    for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
      const Curve& c = fig_.curves[i];
      if (c.model != Curve::Model::polyline || c.category == "lines") continue;
      by_element[c.category + "\n" + c.element].push_back(i);
    }
    for (const auto& [key, strokes] : by_element) {
      const std::string category = key.substr(0, key.find('\n')), element = key.substr(key.find('\n') + 1);
      Count& count = out_.counts[category];
      if (std::any_of(strokes.begin(), strokes.end(), [&](std::size_t i) { return evidence_[i].hidden; })) continue;
      ++count.symbolic;
      std::vector<P2> missing;
      for (std::size_t i : strokes)
        for (std::size_t s : fig_.curves[i].straights) {
          const Straight& st = fig_.straights[s];
          if (dist(st.a, st.b) >= kMinDetectablePx && piece_coverage(st.a, st.b) < needed_coverage(fig_.curves[i]))
            missing.push_back(midpoint(st.a, st.b));
        }
      // Arcs, spirals and links have no sides: their ink along the stroke (judge_strokes) stands
      // for the match.
      if (missing.empty())
        ++count.matched;
      else
        add(FindingKind::not_detected, {element},
            std::to_string(missing.size()) + " side(s) not drawn within " + fixed(out_.picture.tolerance_px) +
                " px of their place",
            std::nullopt, missing);
    }
  }

  // --- letters: a glyph near each labelled point ------------------------------------------
  void match_letters() {
    if (std::none_of(fig_.texts.begin(), fig_.texts.end(), [](const Text& t) { return t.letter; })) return;
    std::vector<bool> compact;
    out_.detections.glyphs = find_glyphs(letter_ink(), compact);
    std::vector<bool> used(out_.detections.glyphs.size(), false);
    Count& count = out_.counts["letters"];
    // Users' pictures letter at their own size: the median glyph height stands for it.
    std::vector<int> heights;
    for (const auto& g : out_.detections.glyphs) heights.push_back(g.height);
    std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
    const double letter_size = std::max(fig_.font_px, heights.empty() ? 0.0 : 0.8 * heights[heights.size() / 2]);
    const double reach = 2.5 * letter_size;
    // The nearest unused glyph of `glyphs` within reach of the letter's point.
    auto nearest = [&](const Text& t, const std::vector<Detections::Box>& glyphs, const std::vector<bool>& taken) {
      std::size_t best = glyphs.size();
      double best_d = reach;
      for (std::size_t g = 0; g < glyphs.size(); ++g) {
        const double d = dist(t.anchor, {glyphs[g].x + glyphs[g].width / 2.0, glyphs[g].y + glyphs[g].height / 2.0});
        if (!taken[g] && d < best_d) best_d = d, best = g;
      }
      return best;
    };
    std::vector<const Text*> unmatched;
    for (const Text& t : fig_.texts) {
      if (!t.letter || !inside(t.anchor)) continue;
      ++count.symbolic;
      if (const std::size_t g = nearest(t, out_.detections.glyphs, used); g < used.size())
        used[g] = true, ++count.matched;
      else
        unmatched.push_back(&t);
    }
    if (unmatched.empty()) return;
    // A thin glyph (an I, a J) in a noisy picture can fall under the letters' own threshold (half
    // the darkest stroke's contrast, on the denoised picture): it is looked for again in the ink of
    // the picture as decoded, where a glyph a letter already took or one on a stroke of the scene
    // does not count.
    std::vector<bool> faint_compact;
    const auto faint = find_glyphs(unsmoothed_ink(paper_), faint_compact);
    std::vector<bool> taken(faint.size(), false);
    for (std::size_t g = 0; g < faint.size(); ++g) {
      const P2 centre{faint[g].x + faint[g].width / 2.0, faint[g].y + faint[g].height / 2.0};
      taken[g] = on_scene_stroke(centre, out_.picture.tolerance_px) ||
                 std::any_of(out_.detections.glyphs.begin(), out_.detections.glyphs.end(),
                             [&](const Detections::Box& b) { return in_box(centre, b, 0); });
    }
    for (const Text* t : unmatched) {
      if (const std::size_t g = nearest(*t, faint, taken); g < faint.size()) {
        taken[g] = true, ++count.matched;
        out_.detections.glyphs.push_back(faint[g]);
      } else {
        add(FindingKind::not_detected, {t->element},
            "no letter-sized mark within " + fixed(reach, 0) + " px of point " + t->text, std::nullopt, {t->anchor});
      }
    }
  }

  // Letters and heads are solid marks: ink at half the contrast of the picture's darkest strokes,
  // so that anti-aliased halos do not join a letter to the stroke beside it.
  cv::Mat letter_ink() const {
    double darkest = 0;
    for (const CurveEvidence& e : evidence_) darkest = std::max(darkest, e.trace.contrast);
    if (darkest <= 0) return paper_.ink;
    return paper_.darkness > std::max(paper_.ink_level, 0.5 * darkest);
  }

  void match_arrowheads() {
    if (fig_.heads.empty()) return;
    out_.detections.arrowheads = find_arrowheads(letter_ink());
    Count& count = out_.counts["arrowheads"];
    for (const Head& h : fig_.heads) {
      ++count.symbolic;
      const P2 c{(h.tip.x + h.left.x + h.right.x) / 3, (h.tip.y + h.left.y + h.right.y) / 3};
      const double reach = std::max(4.0, dist(h.tip, h.left) * 0.6);
      if (std::any_of(out_.detections.arrowheads.begin(), out_.detections.arrowheads.end(),
                      [&](P2 d) { return dist(c, d) <= reach; }))
        ++count.matched;
      else
        add(FindingKind::not_detected, {h.element}, "no arrowhead detected at the link's end", std::nullopt, {c});
    }
  }

  // --- what the picture draws and the scene does not --------------------------------------
  // Every stroke of the scene (where the picture draws it), its letters and heads explain the ink
  // around them; the blind detectors run on the rest.
  void find_extras() {
    const double tolerance = out_.picture.tolerance_px;
    cv::Mat explained = cv::Mat::zeros(paper_.ink.size(), CV_8U);
    const int thickness = std::max(1, static_cast<int>(std::ceil(2 * tolerance + stroke_ + 2)));
    for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
      const Curve& c = fig_.curves[i];
      cv::polylines(explained, pixel_path(c.path), c.closed, 255, thickness);
      if (evidence_[i].shift)
        cv::polylines(explained, pixel_path(shifted(c.path, *evidence_[i].shift)), c.closed, 255, thickness);
    }
    for (const Dot& d : fig_.dots)
      cv::circle(explained, pixel_path({d.at})[0], static_cast<int>(std::ceil(3 * stroke_ + tolerance)), 255, -1);
    for (const Text& t : fig_.texts) {
      const double half = fig_.font_px * (0.6 + 0.35 * t.text.size());
      cv::rectangle(explained, pixel_path({{t.center.x - half, t.center.y - half}})[0],
                    pixel_path({{t.center.x + half, t.center.y + half}})[0], 255, -1);
    }
    for (const Head& h : fig_.heads) {
      std::vector<cv::Point> triangle = pixel_path({h.tip, h.left, h.right});
      cv::fillConvexPoly(explained, triangle, 255);
      cv::polylines(explained, triangle, true, 255, thickness);
    }
    // Renderers and encoders leave a faint line along the picture's edge (matplotlib's figure border,
    // JPEG blocks): the outermost pixels explain themselves.
    cv::rectangle(explained, {0, 0}, {explained.cols - 1, explained.rows - 1}, 255, 2 * kEdgePx);
    cv::Mat unexplained = stroke_ink() & (explained == 0);
    // Specks of noise, letters and marks the scene does not list (angle arcs, ticks) are small:
    // only components at least as long as the shortest extra line are worth detecting on.
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(unexplained, labels, stats, centroids, 8, CV_32S);
    cv::Mat keep = cv::Mat::zeros(unexplained.size(), CV_8U);
    bool any = false;
    for (int k = 1; k < n; ++k) {
      const int w = stats.at<int>(k, cv::CC_STAT_WIDTH), h = stats.at<int>(k, cv::CC_STAT_HEIGHT);
      if (std::hypot(w, h) < 0.5 * min_extra_line_) continue;
      keep.setTo(255, labels == k);
      any = true;
    }
    if (!any) {
      if (fig_.texts.empty()) report_unexplained_strokes(labels, stats, n, {});
      return;
    }
    cv::Mat gray;
    paper_.darkness.convertTo(gray, CV_8U, -1, 255);
    gray.setTo(255, keep == 0);
    // The detectors keep their state in the instances detect_in makes: one per call, so one per
    // thread (OpenCV 4.6's EdgeDrawing has no static data: ximgproc/src/edge_drawing*.{cpp,hpp}).
    const Detections found = detect_in(gray, keep);
    std::vector<P2> reported;  // where extra lines and circles were named
    for (const auto& line : found.lines) {
      // A line is ink along most of its extent; scattered pieces that happen to line up are not.
      if (dist(line.a, line.b) < min_extra_line_ || line.length < 0.5 * dist(line.a, line.b)) continue;
      const P2 mid = midpoint(line.a, line.b);
      if (in_text(line.a) && in_text(line.b)) continue;
      ++out_.counts["lines"].extra;
      out_.detections.lines.push_back(line);
      reported.push_back(mid);
      add(FindingKind::extra_detection, {},
          "a line the scene does not draw, " + fixed(dist(line.a, line.b), 0) + " px long", std::nullopt, {mid});
    }
    for (const auto& e : found.ellipses) {
      if (e.a < min_extra_radius_ || in_text(e.center)) continue;
      const std::string category = e.circle || e.a / e.b < 1.1 ? "circles" : "ellipses";
      ++out_.counts[category].extra;
      out_.detections.ellipses.push_back(e);
      reported.push_back(e.center);
      add(FindingKind::extra_detection, {},
          "a " + std::string(category == "circles" ? "circle" : "ellipse") + " the scene does not draw (semi-axes " +
              fixed(e.a) + ", " + fixed(e.b) + " px)",
          std::nullopt, {e.center});
    }
    if (fig_.texts.empty()) report_unexplained_strokes(labels, stats, n, reported);
  }

  // Ink that is a stroke: darker than the paper around it within a few stroke widths (a black-hat
  // transform), so that shading inside shapes (Perlin noise, gradients) is not taken for strokes.
  cv::Mat stroke_ink() const {
    const int size = 2 * static_cast<int>(std::ceil(stroke_)) + 1;
    cv::Mat lightness, closed, strokes;
    paper_.darkness.convertTo(lightness, CV_32F, -1);  // strokes dark
    cv::morphologyEx(lightness, closed, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, {size, size}));
    strokes = closed - lightness;
    return paper_.ink & (strokes > paper_.ink_level);
  }

  // A shape the detectors do not name (a small circle, one cut by the canvas, an arc): its ink
  // alone, when the picture draws nothing but the scene's shapes. Figures with lettered points
  // carry marks their scenes do not list (angle arcs, ticks, measures): there only lines and
  // circles count (the caller's choice).
  void report_unexplained_strokes(const cv::Mat& labels, const cv::Mat& stats, int n, const std::vector<P2>& reported) {
    const double tolerance = out_.picture.tolerance_px;
    for (int k = 1; k < n; ++k) {
      const int x = stats.at<int>(k, cv::CC_STAT_LEFT), y = stats.at<int>(k, cv::CC_STAT_TOP),
                w = stats.at<int>(k, cv::CC_STAT_WIDTH), h = stats.at<int>(k, cv::CC_STAT_HEIGHT);
      if (std::hypot(w, h) < min_extra_stroke_) continue;
      if (!stroke_shaped(labels(cv::Rect(x, y, w, h)) == k)) continue;
      const Detections::Box box{x, y, w, h};
      if (std::any_of(reported.begin(), reported.end(), [&](P2 p) { return in_box(p, box, tolerance); })) continue;
      const P2 centre{x + w / 2.0, y + h / 2.0};
      ++out_.counts["strokes"].extra;
      add(FindingKind::extra_detection, {},
          "a stroke the scene does not draw, " + std::to_string(w) + " × " + std::to_string(h) + " px", std::nullopt,
          {centre});
    }
  }

  // Whether a blob of ink is a stroke a shape would leave: thin everywhere (its widest point, the
  // largest circle inside it, about a stroke's width where two strokes cross) and solid (a stroke
  // encloses the shape's inside, not pinholes). Shading and blots fill an area; noisy shading is
  // thin in places but full of holes.
  bool stroke_shaped(const cv::Mat& mask) const {
    cv::Mat framed, inside;
    cv::copyMakeBorder(mask, framed, 1, 1, 1, 1, cv::BORDER_CONSTANT, 0);
    cv::distanceTransform(framed, inside, cv::DIST_L2, 3);
    double widest = 0;
    cv::minMaxLoc(inside, nullptr, &widest);
    if (widest > 0.75 * stroke_ + 1.5) return false;
    std::vector<std::vector<cv::Point>> contours;
    std::vector<cv::Vec4i> hierarchy;
    cv::findContours(framed, contours, hierarchy, cv::RETR_CCOMP, cv::CHAIN_APPROX_SIMPLE);
    int pinholes = 0;
    for (std::size_t i = 0; i < contours.size(); ++i)
      pinholes += hierarchy[i][3] >= 0 && cv::contourArea(contours[i]) < 4 * stroke_ * stroke_;
    return pinholes <= 2;
  }

  // --- tangencies and near-tangencies: the gap between two strokes in the image -----------
  // Background between the two strokes along the line through their closest points p and q
  // (direction u): the stroke nearest p and the stroke nearest q are found on the darkness
  // profile (ink: half the fainter stroke's contrast), and the paper between them measured; 0 when
  // they are one merged stroke. Strokes of other elements further along do not count.
  double image_gap(P2 p, P2 q, P2 u, double level) const {
    const double step = 0.25, reach = dist(p, q) / 2 + stroke_ + 3;
    const P2 m = midpoint(p, q);
    std::vector<bool> ink;
    for (double t = -reach; t <= reach; t += step)
      ink.push_back(darkness_at(paper_, {m.x + t * u.x, m.y + t * u.y}) >= level);
    auto index_of = [&](P2 x) {
      const double t = (x.x - m.x) * u.x + (x.y - m.y) * u.y;
      return std::clamp(static_cast<long>(std::lround((t + reach) / step)), 0L, static_cast<long>(ink.size()) - 1);
    };
    auto nearest_ink = [&](long i) -> long {
      for (long d = 0; d < static_cast<long>(ink.size()); ++d) {
        if (i - d >= 0 && ink[i - d]) return i - d;
        if (i + d < static_cast<long>(ink.size()) && ink[i + d]) return i + d;
      }
      return -1;
    };
    long a = nearest_ink(index_of(p)), b = nearest_ink(index_of(q));
    if (a < 0 || b < 0) return dist(p, q);  // no ink at all: not drawn here
    if (a > b) std::swap(a, b);
    while (a < b && ink[a + 1]) ++a;  // the end of p's stroke
    while (b > a && ink[b - 1]) --b;  // the start of q's stroke
    return b > a ? (b - a - 1) * step : 0;
  }

  // `scene` is geometry's exact decision on the scene's own gap; the picture is measured here.
  void judge_gap(std::size_t i, std::size_t j, const std::string& a, const std::string& b,
                 const geometry::GapDecision& scene, P2 p, P2 q, P2 u) {
    const double contrast = std::min(evidence_[i].trace.contrast, evidence_[j].trace.contrast);
    const double level = std::max(paper_.ink_level, 0.5 * contrast);
    const double symbolic = scene.slack_px, measured = image_gap(p, q, u, level);
    out_.gaps.push_back({{a, b}, symbolic, measured});
    const P2 m = midpoint(p, q);
    const Decision scene_gap = scene.decision;
    if (scene_gap != Decision::holds && measured == 0)
      add(FindingKind::pixel_ambiguous, {a, b},
          a + " and " + b + " are " + fixed(symbolic, 2) +
              " px apart in the scene but their strokes merge in the image",
          symbolic, {m});
    // A sketchy stroke strays from its place by up to the wobble: a gap within it is its wobble.
    else if (scene_gap == Decision::holds && measured >= std::max(1.0, out_.picture.wobble_px))
      add(FindingKind::pixel_disagreement, {a, b},
          a + " and " + b + " touch in the scene but are " + fixed(measured) + " px apart in the image", measured, {m});
  }

  // The curve index of a straight piece (the stroke it belongs to).
  std::size_t curve_of_straight(std::size_t s) const {
    for (std::size_t i = 0; i < fig_.curves.size(); ++i)
      if (std::count(fig_.curves[i].straights.begin(), fig_.curves[i].straights.end(), s)) return i;
    return 0;
  }

  void measure_gaps() {
    const double band = 2 * stroke_ + 3;
    std::vector<std::size_t> rounds;
    for (std::size_t i = 0; i < fig_.curves.size(); ++i)
      if (fig_.curves[i].model == Curve::Model::circle && !evidence_[i].hidden) rounds.push_back(i);
    auto on_stroke = [&](const Curve& c, P2 p) { return c.full || distance_to_path(p, c.path, false) <= 1; };
    for (std::size_t x = 0; x < rounds.size(); ++x) {
      const Curve& c1 = fig_.curves[rounds[x]];
      for (std::size_t y = x + 1; y < rounds.size(); ++y) {
        const Curve& c2 = fig_.curves[rounds[y]];
        if (c1.element == c2.element) continue;
        const double d = dist(c1.center, c2.center);
        if (d == 0) continue;
        const double external = std::abs(d - c1.a - c2.a), internal = std::abs(d - std::abs(c1.a - c2.a));
        if (std::min(external, internal) > band) continue;
        const P2 u{(c2.center.x - c1.center.x) / d, (c2.center.y - c1.center.y) / d};
        P2 p, q;
        if (external <= internal) {
          p = {c1.center.x + c1.a * u.x, c1.center.y + c1.a * u.y},
          q = {c2.center.x - c2.a * u.x, c2.center.y - c2.a * u.y};
        } else {
          const double s = c1.a >= c2.a ? 1 : -1;  // the direction from the bigger centre to the smaller
          p = {c1.center.x + s * c1.a * u.x, c1.center.y + s * c1.a * u.y},
          q = {c2.center.x + s * c2.a * u.x, c2.center.y + s * c2.a * u.y};
        }
        if (on_stroke(c1, p) && on_stroke(c2, q) && c1.exact_center && c2.exact_center)
          judge_gap(rounds[x], rounds[y], c1.element, c2.element,
                    geometry::circle_circle_gap(*c1.exact_center, c1.exact_radius2, *c2.exact_center, c2.exact_radius2,
                                                bands_),
                    p, q, u);
      }
      for (std::size_t s = 0; s < fig_.straights.size(); ++s) {
        const Straight& st = fig_.straights[s];
        if (st.element == c1.element || hidden_straight(s)) continue;
        const double len = dist(st.a, st.b);
        if (len == 0) continue;
        const double t =
            ((c1.center.x - st.a.x) * (st.b.x - st.a.x) + (c1.center.y - st.a.y) * (st.b.y - st.a.y)) / (len * len);
        if (t < 0 || t > 1) continue;
        const P2 foot{st.a.x + t * (st.b.x - st.a.x), st.a.y + t * (st.b.y - st.a.y)};
        const double d = dist(foot, c1.center);
        if (d == 0 || std::abs(d - c1.a) > band) continue;
        const P2 p{c1.center.x + (foot.x - c1.center.x) * c1.a / d, c1.center.y + (foot.y - c1.center.y) * c1.a / d};
        if (on_stroke(c1, p) && c1.exact_center)
          judge_gap(rounds[x], curve_of_straight(s), c1.element, st.element,
                    geometry::circle_segment_gap(*c1.exact_center, c1.exact_radius2, st.exact_a, st.exact_b, bands_), p,
                    foot, {(foot.x - c1.center.x) / d, (foot.y - c1.center.y) / d});
      }
    }
  }

  // --- per element: what the picture shows of it -------------------------------------------
  void record_elements() {
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
      const Curve& c = fig_.curves[i];
      const CurveEvidence& e = evidence_[i];
      auto [it, fresh] = index.try_emplace(c.element, out_.elements.size());
      if (fresh) out_.elements.push_back({c.element, c.category, 1, 0, true, true});
      ElementEvidence& r = out_.elements[it->second];
      r.coverage = std::min(r.coverage, e.trace.coverage);
      r.contrast = fresh ? e.trace.contrast : std::min(r.contrast, e.trace.contrast);
      r.visible = r.visible && !e.hidden;
    }
    for (ElementEvidence& r : out_.elements)
      r.matched = r.visible && std::none_of(out_.reasons.begin(), out_.reasons.end(), [&](const Reason& reason) {
                    return reason.severity == Severity::conflict &&
                           std::count(reason.elements.begin(), reason.elements.end(), r.element);
                  });
  }

  const Image& image_;
  CrossCheckOptions options_;
  FrameBands bands_;
  Paper paper_;
  Figure fig_;
  CrossCheck out_;
  std::vector<CurveEvidence> evidence_;  // per curve of fig_
  cv::Mat crowd_, distance_to_ink_;
  double stroke_ = 2, min_extra_line_ = 20, min_extra_radius_ = 6, min_extra_stroke_ = 12;
};

}  // namespace

CrossCheck crosscheck(const Scene& scene, const Image& image, const CrossCheckOptions& options) {
  // One picture, one thread: the batches spread pictures over the cores (TBB), so OpenCV's own
  // thread pool would only oversubscribe them; and its parked threads at exit trip
  // LeakSanitizer's tracer now and then (scripts/sanitize).
  static const bool one_thread_each = (cv::setNumThreads(0), true);
  (void)one_thread_each;
  return Checker(scene, image, options).run();
}

Image overlay(const Scene& scene, const Image& image, const CrossCheck& check) {
  const cv::Mat rgb(image.height, image.width, CV_8UC3, const_cast<std::uint8_t*>(image.rgb.data()));
  cv::Mat canvas;
  cv::addWeighted(rgb, 0.35, cv::Mat(rgb.size(), CV_8UC3, cv::Scalar(255, 255, 255)), 0.65, 0, canvas);
  const cv::Scalar blue(40, 90, 220), orange(245, 140, 20), red(220, 20, 20);  // RGB order
  auto pt = [](P2 p) {
    return cv::Point(static_cast<int>(std::lround(p.x * 4)), static_cast<int>(std::lround(p.y * 4)));
  };
  const int shift = 2;  // quarter-pixel coordinates
  const Figure fig =
      build_figure(scene, image.width, image.height, check.scale, check.offset, 0, check.dataset_picture);
  for (const Curve& c : fig.curves) {
    std::vector<cv::Point> poly;
    for (const P2& p : c.path) poly.push_back(pt(p));
    cv::polylines(canvas, poly, c.closed, blue, 1, cv::LINE_AA, shift);
  }
  const Detections& d = check.detections;
  for (const auto& line : d.lines) cv::line(canvas, pt(line.a), pt(line.b), orange, 1, cv::LINE_AA, shift);
  for (const auto& e : d.ellipses)
    cv::ellipse(canvas, pt(e.center), cv::Size(static_cast<int>(e.a * 4), static_cast<int>(e.b * 4)), e.angle_deg, 0,
                360, orange, 1, cv::LINE_AA, shift);
  for (const auto& g : d.glyphs) cv::rectangle(canvas, cv::Rect(g.x, g.y, g.width, g.height), orange, 1);
  for (const P2& h : d.arrowheads)
    cv::drawMarker(canvas, cv::Point(static_cast<int>(h.x), static_cast<int>(h.y)), orange, cv::MARKER_TILTED_CROSS, 8,
                   1);
  for (const auto& r : check.reasons)
    for (const P2& p : r.where) cv::circle(canvas, pt(p), 12 * 4, red, 2, cv::LINE_AA, shift);
  Image out{canvas.cols, canvas.rows, {}};
  out.rgb.assign(canvas.data, canvas.data + canvas.total() * 3);
  return out;
}

}  // namespace geotruth::vision
