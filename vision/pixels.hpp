// Pixel helpers shared by detection and cross-check (OpenCV types stay inside vision/).
#pragma once

#include <opencv2/core.hpp>

#include <cmath>
#include <geotruth/vision.hpp>
#include <numbers>
#include <vector>

namespace geotruth::vision {

/// The image as an 8-bit single-channel OpenCV matrix (a copy).
cv::Mat gray_of(const Image& image);

/// Whether `ink` (8-bit, nonzero = ink) has ink within a pixel of p (the 3 × 3 pixels around it).
inline bool ink_within_pixel(const cv::Mat& ink, PixelPoint p) {
  const int x = static_cast<int>(std::floor(p.x)), y = static_cast<int>(std::floor(p.y));
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < ink.cols && yy < ink.rows && ink.at<std::uint8_t>(yy, xx)) return true;
    }
  return false;
}

/// Points of an ellipse by parameter t (radians): centre + a·cos t along the major axis + b·sin t
/// across it. The rotation's sine and cosine are taken once: outlines are sampled in hot loops.
class EllipsePoints {
 public:
  explicit EllipsePoints(const Detections::Ellipse& e)
      : e_(e), cos_(std::cos(e.angle_deg * kDegree)), sin_(std::sin(e.angle_deg * kDegree)) {}
  PixelPoint at(double t) const {
    const double u = e_.a * std::cos(t), v = e_.b * std::sin(t);
    return {e_.center.x + u * cos_ - v * sin_, e_.center.y + u * sin_ + v * cos_};
  }

 private:
  static constexpr double kDegree = std::numbers::pi / 180;
  const Detections::Ellipse& e_;
  double cos_, sin_;
};

/// Whether p lies in the box grown by `margin` pixels on every side.
bool in_box(PixelPoint p, const Detections::Box& box, double margin);

/// Groups segments lying on one supporting line: directions within 2° and both ends within
/// 3 px of the group's line (the longest segment's). Used for detections and for the scene's
/// own straight strokes alike, so both sides are counted by the same rule.
std::vector<Detections::Line> cluster_segments(const std::vector<Detections::Segment>& segments);

}  // namespace geotruth::vision
