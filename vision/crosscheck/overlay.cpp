// The cross-check drawn over its picture: the scene's strokes where the check put them (blue), the
// detections (orange) and every finding's place (red): circled, or, for a segment the counts find
// on one side only, drawn. And a picture's reading drawn over it (reading_overlay).
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include <geotruth/vision.hpp>

#include "vision/figure.hpp"

namespace geotruth::vision {

namespace {

const cv::Scalar kBlue(40, 90, 220), kOrange(245, 140, 20), kRed(220, 20, 20);  // RGB order
constexpr int kShift = 2;                                                       // quarter-pixel coordinates

cv::Point quarter_px(P2 p) {
  return {static_cast<int>(std::lround(p.x * 4)), static_cast<int>(std::lround(p.y * 4))};
}

// The picture at a third of its contrast, for drawing over.
cv::Mat faded(const Image& image) {
  const cv::Mat rgb(image.height, image.width, CV_8UC3, const_cast<std::uint8_t*>(image.rgb.data()));
  cv::Mat canvas;
  cv::addWeighted(rgb, 0.35, cv::Mat(rgb.size(), CV_8UC3, cv::Scalar(255, 255, 255)), 0.65, 0, canvas);
  return canvas;
}

Image image_of(const cv::Mat& canvas) {
  Image out{canvas.cols, canvas.rows, {}};
  out.rgb.assign(canvas.data, canvas.data + canvas.total() * 3);
  return out;
}

}  // namespace

Image overlay(const Scene& scene, const Image& image, const CrossCheck& check) {
  cv::Mat canvas = faded(image);
  const Figure fig =
      build_figure(scene, image.width, image.height, check.scale, check.offset, 0, check.dataset_picture);
  for (const Curve& c : fig.curves) {
    std::vector<cv::Point> poly;
    for (const P2& p : c.path) poly.push_back(quarter_px(p));
    cv::polylines(canvas, poly, c.closed, kBlue, 1, cv::LINE_AA, kShift);
  }
  const Detections& d = check.detections;
  for (const auto& line : d.lines)
    cv::line(canvas, quarter_px(line.a), quarter_px(line.b), kOrange, 1, cv::LINE_AA, kShift);
  for (const auto& e : d.ellipses)
    cv::ellipse(canvas, quarter_px(e.center), cv::Size(static_cast<int>(e.a * 4), static_cast<int>(e.b * 4)),
                e.angle_deg, 0, 360, kOrange, 1, cv::LINE_AA, kShift);
  for (const auto& g : d.glyphs) cv::rectangle(canvas, cv::Rect(g.x, g.y, g.width, g.height), kOrange, 1);
  for (const P2& h : d.arrowheads)
    cv::drawMarker(canvas, cv::Point(static_cast<int>(h.x), static_cast<int>(h.y)), kOrange, cv::MARKER_TILTED_CROSS, 8,
                   1);
  for (const auto& r : check.reasons) {
    // A segment the counts find on one side only (crosscheck --count-check): drawn between its letters.
    if (r.kind == FindingKind::count_mismatch && r.where.size() == 2 && r.detail.rfind("segment", 0) == 0) {
      cv::line(canvas, quarter_px(r.where[0]), quarter_px(r.where[1]), kRed, 2, cv::LINE_AA, kShift);
      continue;
    }
    for (const P2& p : r.where) cv::circle(canvas, quarter_px(p), 12 * 4, kRed, 2, cv::LINE_AA, kShift);
  }
  return image_of(canvas);
}

Image reading_overlay(const Scene& read, const Image& image) {
  cv::Mat canvas = faded(image);
  const Figure fig = build_figure(read, image.width, image.height, 1);
  // Names written at the size of the letters read (the median glyph's height), strokes thin enough
  // to leave the picture's own visible beside them.
  std::vector<double> glyph_heights;
  for (const Point& p : read.points) {
    const auto extra = nlohmann::json::parse(p.extra.empty() ? "{}" : p.extra, nullptr, false);
    if (!extra.is_object()) continue;
    const auto box = extra.value("/evidence/letter/box"_json_pointer, nlohmann::json());
    if (box.is_array() && box.size() == 4 && box[3].is_number()) glyph_heights.push_back(box[3].get<double>());
  }
  std::sort(glyph_heights.begin(), glyph_heights.end());
  const double font_px = glyph_heights.empty() ? std::max(11.0, 0.022 * std::max(image.width, image.height))
                                               : std::max(9.0, glyph_heights[glyph_heights.size() / 2]);
  const int thick = std::max(image.width, image.height) > 1200 ? 2 : 1;
  for (const Curve& c : fig.curves) {
    std::vector<cv::Point> poly;
    for (const P2& p : c.path) poly.push_back(quarter_px(p));
    cv::polylines(canvas, poly, c.closed, kBlue, thick, cv::LINE_AA, kShift);
  }
  const double height = to_double(read.frame.height);
  std::map<std::string, P2> at;  // every point read, in the picture's pixels
  for (const Point& p : read.points)
    if (p.at) {
      const double y = to_double(p.at->y);
      at[p.id] = {to_double(p.at->x), read.frame.y == YAxis::down ? y : height - y};
    }
  const double scale = font_px / 22;  // Hershey simplex capitals are about 22 units high at scale 1
  for (const Point& p : read.points) {
    if (!p.at) continue;
    const P2 c = at[p.id];
    if (p.id.rfind('_', 0) == 0) {  // an unnamed point: a crossing or stroke end read
      cv::circle(canvas, quarter_px(c), 2 * 4, cv::Scalar(150, 150, 150), 1, cv::LINE_AA, kShift);
      continue;
    }
    const cv::Scalar colour = p.labelled ? kBlue : cv::Scalar(120, 160, 240);
    cv::circle(canvas, quarter_px(c), 3 * 4, colour, cv::FILLED, cv::LINE_AA, kShift);
    cv::putText(canvas, p.id, cv::Point(static_cast<int>(c.x + 0.4 * font_px), static_cast<int>(c.y - 0.4 * font_px)),
                cv::FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv::LINE_AA);
  }
  // The doubts the reader wrote (extra.picture.doubts): their points circled, a stroke in doubt dashed.
  const auto extra = nlohmann::json::parse(read.extra.empty() ? "{}" : read.extra, nullptr, false);
  if (extra.is_object() && extra.contains("picture") && extra["picture"].is_object() &&
      extra["picture"].contains("doubts") && extra["picture"]["doubts"].is_array())
    for (const auto& doubt : extra["picture"]["doubts"]) {
      if (!doubt.is_object() || !doubt.contains("elements") || !doubt["elements"].is_array()) continue;
      std::vector<P2> places;
      for (const auto& e : doubt["elements"])
        if (e.is_string() && at.count(e.get<std::string>())) places.push_back(at[e.get<std::string>()]);
      for (const P2& p : places)
        cv::circle(canvas, quarter_px(p), static_cast<int>(std::lround(1.2 * font_px * 4)), kRed, thick, cv::LINE_AA,
                   kShift);
      if (doubt.value("kind", "") == "stroke_uncertain" && places.size() == 2) {
        const double length = dist(places[0], places[1]);
        for (double t = 0; t < length; t += 8) {  // dashes of 4 px
          const double u = std::min(length, t + 4);
          const P2 a{places[0].x + (places[1].x - places[0].x) * t / length,
                     places[0].y + (places[1].y - places[0].y) * t / length};
          const P2 b{places[0].x + (places[1].x - places[0].x) * u / length,
                     places[0].y + (places[1].y - places[0].y) * u / length};
          cv::line(canvas, quarter_px(a), quarter_px(b), kRed, thick, cv::LINE_AA, kShift);
        }
      }
    }
  return image_of(canvas);
}

}  // namespace geotruth::vision
