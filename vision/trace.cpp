#include "vision/trace.hpp"

#include <algorithm>
#include <cmath>

namespace geotruth::vision {
namespace {

constexpr double kSampleStep = 1.5;   // px along the stroke
constexpr double kProfileStep = 0.5;  // px across it

}  // namespace

std::vector<std::pair<P2, P2>> walk(const std::vector<P2>& path, bool closed, double step) {
  std::vector<std::pair<P2, P2>> out;
  if (path.size() == 1) out.push_back({path[0], {0, 1}});
  double carry = 0;  // distance already walked past the last sample, carried into the next piece
  for (std::size_t i = 0; i + 1 < path.size() + (closed ? 1 : 0); ++i) {
    const P2 a = path[i], b = path[(i + 1) % path.size()];
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    if (len == 0) continue;
    const P2 u{(b.x - a.x) / len, (b.y - a.y) / len}, n{-u.y, u.x};
    double t = out.empty() ? 0 : step - carry;
    for (; t < len; t += step) out.push_back({{a.x + u.x * t, a.y + u.y * t}, n});
    carry = len - (t - step);
  }
  if (!closed && path.size() > 1 && (out.empty() || carry > step / 2)) {  // the far end itself
    const P2 a = path[path.size() - 2], b = path.back();
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    if (len > 0) out.push_back({b, {-(b.y - a.y) / len, (b.x - a.x) / len}});
  }
  return out;
}

StrokeTrace trace_stroke(const Paper& paper, const std::vector<P2>& path, bool closed, double tolerance,
                         const cv::Mat& crowd, double level) {
  StrokeTrace trace;
  const int width = paper.darkness.cols, height = paper.darkness.rows;
  const int steps = static_cast<int>(std::ceil(tolerance / kProfileStep));
  std::vector<std::vector<double>> profiles;
  for (const auto& [at, normal] : walk(path, closed, kSampleStep)) {
    if (!(at.x >= 0 && at.y >= 0 && at.x < width && at.y < height)) continue;
    StrokeSample s;
    s.at = at, s.normal = normal;
    if (!crowd.empty()) s.crowded = crowd.at<std::uint8_t>(static_cast<int>(at.y), static_cast<int>(at.x)) >= 2;
    std::vector<double> profile(2 * steps + 1);
    for (int k = -steps; k <= steps; ++k) {
      const double t = k * kProfileStep;
      profile[k + steps] = darkness_at(paper, {at.x + t * normal.x, at.y + t * normal.y});
      s.peak = std::max(s.peak, profile[k + steps]);
    }
    trace.samples.push_back(s);
    profiles.push_back(std::move(profile));
  }
  if (trace.samples.empty()) return trace;

  // The stroke's own darkness: the median peak of the samples that are clearly ink (uncrowded ones
  // first: a darker neighbour must not lend its gray to a light stroke).
  std::vector<double> own, any;
  std::size_t uncrowded = 0;
  for (const auto& s : trace.samples) {
    if (s.peak >= paper.ink_level) (s.crowded ? any : own).push_back(s.peak);
    uncrowded += !s.crowded;
  }
  // The median profile: a stroke drawn all along, however faint, shows in it; ink met on a few
  // stretches (a shape drawn elsewhere crossing its own place) does not.
  std::vector<double> column;
  for (int k = 0; k <= 2 * steps; ++k) {
    column.clear();
    for (std::size_t i = 0; i < trace.samples.size(); ++i)
      if (uncrowded == 0 || !trace.samples[i].crowded) column.push_back(profiles[i][k]);
    trace.presence = std::max(trace.presence, median_of(column));
  }
  if (own.size() < 5) own.insert(own.end(), any.begin(), any.end());
  trace.contrast = median_of(std::move(own));
  if (level <= 0) level = std::max(paper.ink_level, 0.5 * trace.contrast);

  std::size_t found = 0, found_alone = 0;
  for (std::size_t i = 0; i < trace.samples.size(); ++i) {
    StrokeSample& s = trace.samples[i];
    const auto& profile = profiles[i];
    // Where another element's stroke passes, it may be drawn over this one in its own gray: any
    // ink there is ink.
    const double ink = s.crowded ? std::min(level, paper.ink_level) : level;
    // The ink run nearest the stroke's place; its darkest point is where the ink lies.
    double best_distance = 1e300;
    for (int k = 0; k <= 2 * steps;) {
      if (profile[k] < ink) {
        ++k;
        continue;
      }
      int end = k, darkest = k;
      while (end <= 2 * steps && profile[end] >= ink) {
        if (profile[end] > profile[darkest]) darkest = end;
        ++end;
      }
      const bool holds_centre = k <= steps && end - 1 >= steps;
      const double distance = holds_centre ? 0 : std::min(std::abs(k - steps), std::abs(end - 1 - steps));
      if (distance < best_distance) {
        best_distance = distance;
        s.found = true;
        s.offset = (darkest - steps) * kProfileStep;
      }
      k = end;
    }
    found += s.found;
    if (!s.crowded) ++trace.alone, found_alone += s.found;
  }
  trace.coverage = static_cast<double>(found) / trace.samples.size();
  if (trace.alone) trace.alone_coverage = static_cast<double>(found_alone) / trace.alone;
  return trace;
}

}  // namespace geotruth::vision
