// What the picture draws and the scene does not (docs/vision.md, "What the scene does not draw"):
// the ink no stroke, letter, dot or head of the scene explains, where the blind detectors run.
#include "vision/crosscheck/checker.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>

#include "vision/detectors.hpp"
#include "vision/pixels.hpp"

namespace geotruth::vision::check {
namespace {

constexpr int kEdgePx = 2;  // the picture's own edge: its outermost pixels

}  // namespace

// --- what the picture draws and the scene does not --------------------------------------
// Every stroke of the scene (where the picture draws it), its letters and heads explain the ink
// around them; the blind detectors run on the rest.
void Checker::find_extras() {
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
  // A whole circle the scene does not draw (VisOnlyQA's texts keep one circle of two: the
  // circle_name quirk) is one finding, not the short straight pieces a line detector makes of it;
  // its ink is then explained.
  std::vector<P2> reported;  // where extra lines and circles were named
  if (const auto circle = extra_circle(keep)) {
    const Detections::Ellipse& e = *circle;
    const bool unlisted = may_be_unlisted(e);
    if (!unlisted) ++out_.counts["circles"].extra;
    out_.detections.ellipses.push_back(e);
    reported.push_back(e.center);
    std::string detail = "a circle the scene does not draw: centre (" + fixed(e.center.x) + ", ";
    detail += fixed(e.center.y) + ") px, radius " + fixed(e.a) + " px";
    if (out_.mapping.fitted) {
      const PictureMapping& m = out_.mapping;
      const double u = (e.center.x - m.translation.x) / m.scale,
                   v = (m.flipped ? -1 : 1) * (e.center.y - m.translation.y) / m.scale;
      detail += "; in the scene's frame centre (" + fixed(u, 2) + ", ";
      detail += fixed(v, 2) + "), radius " + fixed(e.a / m.scale, 2) + " (through the mapping fitted on the dots)";
    }
    add(FindingKind::extra_detection, {}, detail, e.a, {e.center});
    if (unlisted) note_unlisted(out_.reasons.back());
    cv::circle(keep, cv::Point(static_cast<int>(std::lround(e.center.x)), static_cast<int>(std::lround(e.center.y))),
               static_cast<int>(std::lround(e.a)), 0, thickness);
  }
  cv::Mat gray;
  paper_.darkness.convertTo(gray, CV_8U, -1, 255);
  gray.setTo(255, keep == 0);
  // The detectors keep their state in the instances detect_in makes: one per call, so one per
  // thread (OpenCV 4.6's EdgeDrawing has no static data: ximgproc/src/edge_drawing*.{cpp,hpp}).
  const Detections found = detect_in(gray, keep);
  // matplotlib's figure border, smeared by JPEG a few pixels inward: a line along one side of the
  // picture, both its ends within 1 % of the shorter side (at least 8 px) of that side, frames the
  // figure and is none of its strokes.
  const double edge = std::max(8.0, 0.01 * std::min(image_.width, image_.height));
  auto along_edge = [&](P2 a, P2 b) {
    return (a.x < edge && b.x < edge) || (a.y < edge && b.y < edge) ||
           (a.x > image_.width - edge && b.x > image_.width - edge) ||
           (a.y > image_.height - edge && b.y > image_.height - edge);
  };
  for (const auto& line : found.lines) {
    // A line is ink along most of its extent; scattered pieces that happen to line up are not.
    if (dist(line.a, line.b) < min_extra_line_ || line.length < 0.5 * dist(line.a, line.b)) continue;
    const P2 mid = midpoint(line.a, line.b);
    if (in_text(line.a) && in_text(line.b)) continue;
    if (along_edge(line.a, line.b)) continue;
    ++out_.counts["lines"].extra;
    out_.detections.lines.push_back(line);
    reported.push_back(mid);
    add(FindingKind::extra_detection, {},
        "a line the scene does not draw, " + fixed(dist(line.a, line.b), 0) + " px long", std::nullopt, {mid});
  }
  for (const auto& e : found.ellipses) {
    if (e.a < min_extra_radius_ || in_text(e.center)) continue;
    const std::string category = e.circle || e.a / e.b < 1.1 ? "circles" : "ellipses";
    const bool unlisted = category == "circles" && may_be_unlisted(e);
    if (!unlisted) ++out_.counts[category].extra;
    out_.detections.ellipses.push_back(e);
    reported.push_back(e.center);
    add(FindingKind::extra_detection, {},
        "a " + std::string(category == "circles" ? "circle" : "ellipse") + " the scene does not draw (semi-axes " +
            fixed(e.a) + ", " + fixed(e.b) + " px)",
        std::nullopt, {e.center});
    if (unlisted) note_unlisted(out_.reasons.back());
  }
  if (fig_.texts.empty()) report_unexplained_strokes(labels, stats, n, reported);
}

// A circle the scene lacks where its description may leave circles out, drawn on the scene's
// lettered points: the description's silence, not the picture's difference.
bool Checker::may_be_unlisted(const Detections::Ellipse& e) const {
  if (unlisted_circles_.empty()) return false;
  std::vector<PixelPoint> points;
  for (const Dot& d : fig_.dots) points.push_back(d.at);
  return circle_on_points(e.center, e.a, points, out_.picture.tolerance_px);
}

void Checker::note_unlisted(Reason& reason) const {
  reason.severity = Severity::note;
  reason.detail += "; drawn on the scene's points, and " + unlisted_circles_;
}

// A full circle among the ink no stroke of the scene explains: circles through three of its pixels
// (a fixed-seed sample, so the same picture gives the same answer), the one most pixels lie on
// within the tolerance refitted to them (fit_circle); kept when it is at least min_extra_radius_
// and the picture's stroke ink (explained or not: the scene's strokes and letters cross it) runs
// along at least 80 % of its circumference. Arcs, angle marks and straight strokes are not.
std::optional<Detections::Ellipse> Checker::extra_circle(const cv::Mat& unexplained) const {
  std::vector<cv::Point> ink;
  cv::findNonZero(unexplained, ink);
  if (ink.size() < 30) return std::nullopt;
  const double tolerance = out_.picture.tolerance_px;
  cv::RNG rng(0x9e3779b9);
  std::size_t best_count = 0;
  P2 best_centre;
  double best_radius = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const cv::Point a = ink[rng.uniform(0, static_cast<int>(ink.size()))],
                    b = ink[rng.uniform(0, static_cast<int>(ink.size()))],
                    c = ink[rng.uniform(0, static_cast<int>(ink.size()))];
    const double d = 2.0 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
    if (std::abs(d) < 1e-9) continue;
    const double a2 = a.x * a.x + a.y * a.y, b2 = b.x * b.x + b.y * b.y, c2 = c.x * c.x + c.y * c.y;
    const P2 centre{(a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d,
                    (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d};
    const double radius = dist(centre, {static_cast<double>(a.x), static_cast<double>(a.y)});
    if (radius < min_extra_radius_ || radius > std::max(image_.width, image_.height)) continue;
    std::size_t on = 0;
    for (const cv::Point& p : ink)
      on += std::abs(dist(centre, {static_cast<double>(p.x), static_cast<double>(p.y)}) - radius) <= tolerance;
    if (on > best_count) best_count = on, best_centre = centre, best_radius = radius;
  }
  if (best_count < 30) return std::nullopt;
  std::vector<cv::Point2f> near;
  for (const cv::Point& p : ink)
    if (std::abs(dist(best_centre, {static_cast<double>(p.x), static_cast<double>(p.y)}) - best_radius) <= tolerance)
      near.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
  const Detections::Ellipse e = fit_circle(near);
  if (e.a < min_extra_radius_) return std::nullopt;
  // Ink along the circumference: samples a pixel apart, each with stroke ink within the tolerance.
  const cv::Mat strokes = stroke_ink();
  const int samples = std::max(36, static_cast<int>(2 * M_PI * e.a));
  const int reach = static_cast<int>(std::ceil(tolerance));
  int inside = 0, inked = 0;
  for (int k = 0; k < samples; ++k) {
    const double t = 2 * M_PI * k / samples;
    const int x = static_cast<int>(std::lround(e.center.x + e.a * std::cos(t))),
              y = static_cast<int>(std::lround(e.center.y + e.a * std::sin(t)));
    if (x < 0 || y < 0 || x >= strokes.cols || y >= strokes.rows) continue;
    ++inside;
    const cv::Rect around =
        cv::Rect(x - reach, y - reach, 2 * reach + 1, 2 * reach + 1) & cv::Rect(0, 0, strokes.cols, strokes.rows);
    inked += cv::countNonZero(strokes(around)) > 0;
  }
  if (inside < 0.8 * samples || inked < 0.8 * samples) return std::nullopt;
  return e;
}

// Ink that is a stroke: darker than the paper around it within a few stroke widths (a black-hat
// transform), so that shading inside shapes (Perlin noise, gradients) is not taken for strokes.
cv::Mat Checker::stroke_ink() const {
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
void Checker::report_unexplained_strokes(const cv::Mat& labels, const cv::Mat& stats, int n,
                                         const std::vector<P2>& reported) {
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
bool Checker::stroke_shaped(const cv::Mat& mask) const {
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

}  // namespace geotruth::vision::check

namespace geotruth::vision {

bool circle_on_points(PixelPoint centre, double radius, const std::vector<PixelPoint>& points, double tolerance_px) {
  const double reach = std::max(2 * tolerance_px, 0.03 * radius);
  auto distance = [](PixelPoint a, PixelPoint b) { return std::hypot(a.x - b.x, a.y - b.y); };
  const bool centred =
      std::any_of(points.begin(), points.end(), [&](PixelPoint p) { return distance(p, centre) <= reach; });
  const auto through = std::count_if(points.begin(), points.end(),
                                     [&](PixelPoint p) { return std::abs(distance(p, centre) - radius) <= reach; });
  return through >= 3 || (centred && through >= 1);
}

}  // namespace geotruth::vision
