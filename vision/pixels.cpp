#include "vision/pixels.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <stdexcept>

namespace geotruth::vision {

namespace {
constexpr double kAngleTolDeg = 2, kDistanceTolPx = 3;
using P2 = PixelPoint;
}  // namespace

cv::Mat gray_of(const Image& image) {
  const cv::Mat rgb(image.height, image.width, CV_8UC3, const_cast<std::uint8_t*>(image.rgb.data()));
  cv::Mat gray;
  cv::cvtColor(rgb, gray, cv::COLOR_RGB2GRAY);
  return gray;
}

bool in_box(PixelPoint p, const Detections::Box& b, double margin) {
  return p.x >= b.x - margin && p.y >= b.y - margin && p.x <= b.x + b.width + margin && p.y <= b.y + b.height + margin;
}

std::vector<Detections::Line> cluster_segments(const std::vector<Detections::Segment>& segments) {
  auto length = [&](std::size_t i) {
    return std::hypot(segments[i].b.x - segments[i].a.x, segments[i].b.y - segments[i].a.y);
  };
  std::vector<std::size_t> order(segments.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return length(i) > length(j); });
  struct Group {
    P2 origin;
    double ux, uy, lo, hi;
    Detections::Line line;
  };
  std::vector<Group> groups;
  for (std::size_t i : order) {
    const auto& s = segments[i];
    const double len = length(i);
    if (len == 0) continue;
    const double ux = (s.b.x - s.a.x) / len, uy = (s.b.y - s.a.y) / len;
    Group* home = nullptr;
    for (auto& g : groups) {
      const double cos_angle = std::abs(ux * g.ux + uy * g.uy);
      if (cos_angle < std::cos(kAngleTolDeg * std::numbers::pi / 180)) continue;
      auto off = [&](P2 p) { return std::abs(-(p.x - g.origin.x) * g.uy + (p.y - g.origin.y) * g.ux); };
      if (off(s.a) <= kDistanceTolPx && off(s.b) <= kDistanceTolPx) {
        home = &g;
        break;
      }
    }
    if (!home) {
      groups.push_back({s.a, ux, uy, 0, 0, {}});
      home = &groups.back();
      double theta = std::atan2(ux, -uy);  // the normal's angle
      double rho = s.a.x * std::cos(theta) + s.a.y * std::sin(theta);
      if (theta < 0) theta += std::numbers::pi, rho = -rho;
      if (theta >= std::numbers::pi) theta -= std::numbers::pi, rho = -rho;
      home->line.theta_deg = theta * 180 / std::numbers::pi, home->line.rho = rho;
    }
    for (P2 p : {s.a, s.b}) {
      const double t = (p.x - home->origin.x) * home->ux + (p.y - home->origin.y) * home->uy;
      home->lo = std::min(home->lo, t), home->hi = std::max(home->hi, t);
    }
    home->line.length += len;
    home->line.segments.push_back(i);
  }
  std::vector<Detections::Line> lines;
  for (auto& g : groups) {
    g.line.a = {g.origin.x + g.lo * g.ux, g.origin.y + g.lo * g.uy};
    g.line.b = {g.origin.x + g.hi * g.ux, g.origin.y + g.hi * g.uy};
    lines.push_back(std::move(g.line));
  }
  return lines;
}

}  // namespace geotruth::vision
