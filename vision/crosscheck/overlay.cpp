// The cross-check drawn over its picture: the scene's strokes where the check put them (blue), the
// detections (orange) and every finding's place (red): circled, or, for a segment the counts find
// on one side only, drawn.
#include <opencv2/imgproc.hpp>

#include <cmath>

#include <geotruth/vision.hpp>

#include "vision/figure.hpp"

namespace geotruth::vision {

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
  for (const auto& r : check.reasons) {
    // A segment the counts find on one side only (crosscheck --count-check): drawn between its letters.
    if (r.kind == FindingKind::count_mismatch && r.where.size() == 2 && r.detail.rfind("segment", 0) == 0) {
      cv::line(canvas, pt(r.where[0]), pt(r.where[1]), red, 2, cv::LINE_AA, shift);
      continue;
    }
    for (const P2& p : r.where) cv::circle(canvas, pt(p), 12 * 4, red, 2, cv::LINE_AA, shift);
  }
  Image out{canvas.cols, canvas.rows, {}};
  out.rgb.assign(canvas.data, canvas.data + canvas.total() * 3);
  return out;
}

}  // namespace geotruth::vision
