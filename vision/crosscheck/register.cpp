// The scene on the picture (docs/vision.md): the picture's stroke width, the translation that puts
// the scene's strokes on its ink, and the strokes that are off the canvas or too small to be
// more than a dot. The picture's paper, noise and ink are measured before (vision/paper.cpp).
#include "vision/crosscheck/checker.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>

namespace geotruth::vision::check {
namespace {

struct Bounds {
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
};
Bounds bounds_of(const std::vector<P2>& points) {
  Bounds b;
  for (const P2& p : points)
    b.x0 = std::min(b.x0, p.x), b.y0 = std::min(b.y0, p.y), b.x1 = std::max(b.x1, p.x), b.y1 = std::max(b.y1, p.y);
  return b;
}

}  // namespace

// Twice the typical half-width of ink (distance-transform ridge), for users' images whose
// stroke width is unknown.
double Checker::estimate_stroke_width() const {
  const double half = ink_half_thickness(paper_.ink);
  if (half == 0) return 2;
  return std::clamp(2.0 * half, 1.0, 8.0);
}

// Distance (px) from every pixel to the nearest ink, computed once.
const cv::Mat& Checker::distance_to_ink() {
  if (distance_to_ink_.empty()) {
    cv::Mat paper = paper_.ink == 0;
    cv::distanceTransform(paper, distance_to_ink_, cv::DIST_L2, 3);
  }
  return distance_to_ink_;
}

double Checker::ink_distance(P2 p) {
  const cv::Mat& d = distance_to_ink();
  const int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
  return x < 0 || y < 0 || x >= d.cols || y >= d.rows ? 1e9 : d.at<float>(y, x);
}

// The translation that puts the scene's strokes on ink: the least mean distance to ink (capped
// at 8 px) over every offset that keeps the frame near the image, coarse then fine.
P2 Checker::register_offset() {
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

// --- placement: size and canvas of every stroke -------------------------------------------
void Checker::check_placement() {
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
          what + fixed(size, 2) + " px is below " + fixed(bands_.bands().eps_vis_px / 2) + " px: drawn as a dot", size,
          {centre});
      evidence_[i].hidden = true;
    }
  }
}

}  // namespace geotruth::vision::check
