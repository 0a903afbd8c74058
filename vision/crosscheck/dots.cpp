// A frame drawn at a scale of its own (Frame::px_per_unit: VisOnlyQA's matplotlib figures, whose
// scale, offset and y direction matplotlib chose) is put on its picture by the point dots the
// picture draws: dot-sized blobs of ink are found (the picture reader's read_dots), matched to the scene's points by
// the translation and scale that put the most of them on a blob (no rotation: the frame's axes are the picture's, y
// flipped for y-up frames), and a similarity is fitted to the matches with Eigen's umeyama. The fit is reported with
// its residual; the band then follows the fitted scale.
#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

#include "vision/crosscheck/checker.hpp"
#include "vision/read/read.hpp"

namespace geotruth::vision::check {

namespace {

// The rotation beyond which a fitted similarity is not the axis-aligned drawing it should be.
constexpr double kMaxRotationDeg = 0.5;
// How far the 0.01 rounding of the printed positions can turn a crossing on the naming circle
// (radius 0.08 units): about 0.01 / 0.08 radians.
constexpr double kRoundingArc = 0.125;

}  // namespace

// The picture's point dots, found by the picture reader's dot finder (read_dots): with no strokes
// read yet, every blob of ink thicker than the strokes is a candidate (a crossing of two strokes
// and a thick bit of a letter too). The figure draws every point with one marker, the thickest ink
// it has: candidates thinner than 0.7 of the `points`-th thickest are bits of strokes, and at most
// 3 · points + 20 of the thickest are kept (the matching below leaves the rest without a point).
std::vector<P2> Checker::dot_candidates(std::size_t points, std::vector<double>& radii) const {
  read::Sheet sheet;
  sheet.paper = paper_;
  sheet.width = image_.width, sheet.height = image_.height;
  sheet.ridge = ink_half_thickness(paper_.ink);
  sheet.half = std::max(0.5, sheet.ridge - 0.5);
  sheet.stroke = stroke_;
  std::vector<read::Dot> dots = read::read_dots(sheet, {}, {});
  std::stable_sort(dots.begin(), dots.end(),
                   [](const read::Dot& a, const read::Dot& b) { return a.radius > b.radius; });
  std::vector<P2> out;
  if (dots.empty() || points == 0) return out;
  const double level = 0.7 * dots[std::min(points, dots.size()) - 1].radius;
  for (const read::Dot& dot : dots)
    if (dot.radius >= level && out.size() < 3 * points + 20) out.push_back(dot.at), radii.push_back(dot.radius);
  return out;
}

bool Checker::fit_dots(const Scene& scene) {
  PictureMapping& m = out_.mapping;
  m.flipped = scene.frame.y == YAxis::up;
  std::vector<P2> points;  // placed points, in frame units with y pointing down the picture
  for (const Point& p : scene.points)
    if (p.at) points.push_back({to_double(p.at->x), m.flipped ? -to_double(p.at->y) : to_double(p.at->y)});
  m.points = static_cast<int>(points.size());
  if (points.size() < 2) {
    m.reason = "fewer than two placed points";
    return false;
  }
  std::vector<double> radii;
  const std::vector<P2> dots = dot_candidates(points.size(), radii);
  if (dots.size() < 2) {
    m.reason = "fewer than two point dots found in the picture";
    return false;
  }
  // Matches of the points to the nearest dot within the tolerance under scale s and translation t,
  // one point per dot (the nearer keeps it). Rounded coordinates (Frame::precision) put a point
  // up to 0.71 of the step off its dot: at s pixels per unit that widens the tolerance.
  const double base_tolerance = std::max(3.0, stroke_ * 2);
  const double rounding = scene.frame.precision ? 0.75 * to_double(*scene.frame.precision) : 0;
  std::vector<double> gap(points.size());
  std::vector<int> owner(dots.size());
  auto match = [&](double s, P2 t, std::vector<int>& to_dot) {
    const double tolerance = base_tolerance + rounding * s;
    to_dot.assign(points.size(), -1);
    std::fill(owner.begin(), owner.end(), -1);
    for (std::size_t i = 0; i < points.size(); ++i) {
      const P2 at{t.x + s * points[i].x, t.y + s * points[i].y};
      gap[i] = tolerance;
      for (std::size_t k = 0; k < dots.size(); ++k)
        if (const double d = dist(at, dots[k]); d <= gap[i]) gap[i] = d, to_dot[i] = static_cast<int>(k);
      if (const int k = to_dot[i]; k >= 0) {
        if (owner[k] >= 0 && gap[owner[k]] <= gap[i]) {
          to_dot[i] = -1;
          continue;
        }
        if (owner[k] >= 0) to_dot[owner[k]] = -1;
        owner[k] = static_cast<int>(i);
      }
    }
    int inliers = 0;
    double sum = 0;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (to_dot[i] >= 0) ++inliers, sum += gap[i];
    return std::pair{inliers, sum};
  };
  // The figure (its points and circles) fills its picture's axes but for matplotlib's 30 % margins
  // and the aspect: a scale that shrinks its extent below 30 % of the picture's shorter side, or
  // stretches it past the picture's longer side, is no mapping of it.
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  auto extend = [&](double x, double y, double r) {
    x0 = std::min(x0, x - r), x1 = std::max(x1, x + r), y0 = std::min(y0, y - r), y1 = std::max(y1, y + r);
  };
  for (const P2& p : points) extend(p.x, p.y, 0);
  for (const Circle& c : scene.circles)
    if (c.center)
      if (const auto r2 = radius_squared(scene, c))
        extend(to_double(c.center->x), (m.flipped ? -1 : 1) * to_double(c.center->y), std::sqrt(to_double(*r2)));
  const double extent = std::max(x1 - x0, y1 - y0), shorter = std::min(image_.width, image_.height),
               longer = std::max(image_.width, image_.height);
  // Hypotheses: a pair of far-apart points onto an ordered pair of dots pointing the same way.
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t j = i + 1; j < points.size(); ++j) pairs.emplace_back(i, j);
  std::sort(pairs.begin(), pairs.end(), [&](const auto& a, const auto& b) {
    return dist(points[a.first], points[a.second]) > dist(points[b.first], points[b.second]);
  });
  pairs.resize(std::min<std::size_t>(pairs.size(), 6));
  int best_inliers = 0;
  double best_sum = 0, best_s = 0;
  P2 best_t;
  std::vector<int> to_dot;
  for (const auto& [i, j] : pairs) {
    const P2 d{points[j].x - points[i].x, points[j].y - points[i].y};
    const double length = std::hypot(d.x, d.y);
    if (length <= 0) continue;
    for (std::size_t a = 0; a < dots.size(); ++a)
      for (std::size_t b = 0; b < dots.size(); ++b) {
        if (a == b) continue;
        const P2 e{dots[b].x - dots[a].x, dots[b].y - dots[a].y};
        const double image_length = std::hypot(e.x, e.y);
        // Same direction within 2° (an axis-aligned drawing), at least 8 px apart.
        if (image_length < 8 || (d.x * e.x + d.y * e.y) < std::cos(2 * M_PI / 180) * length * image_length) continue;
        const double s = image_length / length;
        if (s * extent < 0.3 * shorter || s * extent > longer) continue;
        const P2 t{dots[a].x - s * points[i].x, dots[a].y - s * points[i].y};
        const auto [inliers, sum] = match(s, t, to_dot);
        if (inliers > best_inliers || (inliers == best_inliers && sum < best_sum))
          best_inliers = inliers, best_sum = sum, best_s = s, best_t = t;
      }
  }
  const int needed = std::max(2, static_cast<int>(std::ceil(0.6 * static_cast<double>(points.size()))));
  if (best_inliers < needed) {
    m.reason = "only " + std::to_string(best_inliers) + " of " + std::to_string(points.size()) +
               " points matched a dot (" + std::to_string(dots.size()) + " dot-sized blobs in the picture)";
    return false;
  }
  // The similarity fitted to the matches (twice: the second on the matches the first makes).
  double s = best_s, rotation = 0;
  P2 t = best_t;
  for (int round = 0; round < 2; ++round) {
    match(s, t, to_dot);
    std::vector<std::size_t> matched;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (to_dot[i] >= 0) matched.push_back(i);
    if (matched.size() < 2) break;
    // Dynamic sizes: GCC 12 misreads Eigen's fixed 2 × 2 packet stores in umeyama (-Wstringop-overread).
    Eigen::MatrixXd src(2, matched.size()), dst(2, matched.size());
    for (std::size_t k = 0; k < matched.size(); ++k) {
      src.col(static_cast<Eigen::Index>(k)) << points[matched[k]].x, points[matched[k]].y;
      const P2& dot = dots[static_cast<std::size_t>(to_dot[matched[k]])];
      dst.col(static_cast<Eigen::Index>(k)) << dot.x, dot.y;
    }
    const Eigen::MatrixXd fit = Eigen::umeyama(src, dst, true);
    const Eigen::MatrixXd linear = fit.topLeftCorner(2, 2);
    s = std::sqrt(std::abs(linear.determinant()));
    rotation = std::atan2(linear(1, 0), linear(0, 0)) * 180 / M_PI;
    t = {fit(0, 2), fit(1, 2)};
  }
  m.rotation_deg = rotation;
  if (std::abs(rotation) > kMaxRotationDeg) {
    m.reason = "the dots fit a similarity rotated by " + fixed(rotation, 2) + " degrees, not an axis-aligned drawing";
    return false;
  }
  // The mapping applied (scale and translation; the rotation is below half a degree) and its residual.
  const auto [inliers, sum] = match(s, t, to_dot);
  double squares = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (to_dot[i] >= 0) {
      const double d = dist({t.x + s * points[i].x, t.y + s * points[i].y}, dots[static_cast<std::size_t>(to_dot[i])]);
      squares += d * d;
      m.worst_px = std::max(m.worst_px, d);
    }
  (void)sum;
  // Each point's dot as the picture draws it (where the fit put no dot, where the mapping puts it).
  std::vector<P2> dot_px(scene.points.size());
  std::vector<double> dot_radius(scene.points.size(), 0);
  for (std::size_t i = 0, k = 0; i < scene.points.size(); ++i) {
    if (!scene.points[i].at) continue;
    dot_px[i] =
        to_dot[k] >= 0 ? dots[static_cast<std::size_t>(to_dot[k])] : P2{t.x + s * points[k].x, t.y + s * points[k].y};
    if (to_dot[k] >= 0) dot_radius[i] = radii[static_cast<std::size_t>(to_dot[k])];
    ++k;
  }
  m.fitted = true;
  m.scale = s;
  m.translation = t;
  m.dots = inliers;
  m.residual_px = inliers ? std::sqrt(squares / inliers) : 0;
  // The figure's layout: x · s + offset, and y-up frames flip about their top.
  out_.scale = s;
  out_.offset = {t.x, m.flipped ? t.y - to_double(scene.frame.height) * s : t.y};
  fitted_frame_ = scene.frame;
  fitted_frame_.px_per_unit = Rational(s);
  bands_ = FrameBands(options_.bands, fitted_frame_);
  fig_ = build_figure(scene, image_.width, image_.height, out_.scale, out_.offset, 0, options_.dataset_picture);
  place_labels(scene, dot_px, dot_radius);
  return true;
}

namespace {

// The points where the circle (p, r) meets segment ab strictly between a and b (AlphaGeometry's
// circle_segment_intersect).
void circle_meets_segment(P2 p, double r, P2 a, P2 b, std::vector<P2>& out) {
  const P2 d{b.x - a.x, b.y - a.y}, f{a.x - p.x, a.y - p.y};
  const double A = d.x * d.x + d.y * d.y, B = 2 * (f.x * d.x + f.y * d.y), C = f.x * f.x + f.y * f.y - r * r;
  const double disc = B * B - 4 * A * C;
  if (A <= 0 || disc < 0) return;
  for (const double u : {(-B - std::sqrt(disc)) / (2 * A), (-B + std::sqrt(disc)) / (2 * A)})
    if (u > 0 && u < 1) out.push_back({a.x + u * d.x, a.y + u * d.y});
}

// The points where the circles (p, r) and (c, rc) meet (AlphaGeometry's circle_circle_intersection).
void circle_meets_circle(P2 p, double r, P2 c, double rc, std::vector<P2>& out) {
  const double d = dist(p, c);
  if (d <= 0) return;
  const double a = (r * r - rc * rc + d * d) / (2 * d), h2 = r * r - a * a;
  if (h2 < 0) return;
  const double h = std::sqrt(h2);
  const P2 m{p.x + a * (c.x - p.x) / d, p.y + a * (c.y - p.y) / d};
  out.push_back({m.x + h * (c.y - p.y) / d, m.y - h * (c.x - p.x) / d});
  out.push_back({m.x - h * (c.y - p.y) / d, m.y + h * (c.x - p.x) / d});
}

}  // namespace

// AlphaGeometry's naming rule (its numericals.py, naming_position and draw_point, which draws
// VisOnlyQA's synthetic figures), in the frame's units: a circle of radius 0.08 about the point
// meets the drawn segments (each line from its first to its last point) and circles; the letter
// goes 0.08 along the middle of the widest gap between those crossings, and its text is anchored
// (left end of the baseline, matplotlib's annotate) 0.08 / 1.5 left of and below that; a point no
// stroke passes near is lettered at +0.01 both ways. The anchor is then kept inside the axes'
// limits as they stood when the point was drawn (the data's extent so far, plus matplotlib's 5 %
// margins). The offset depends only on the figure's units, not on the picture: on a canvas drawn at
// 1,000 px per unit the letter sits 80 px off its dot, at 50 px per unit on it.
void Checker::place_labels(const Scene& scene, const std::vector<P2>& dot_px, const std::vector<double>& dot_radius) {
  constexpr double r = 0.08;
  const PictureMapping& m = out_.mapping;
  std::vector<std::pair<P2, P2>> segments;
  std::vector<std::pair<P2, double>> circles;
  auto at = [&](std::size_t i) { return P2{to_double(scene.points[i].at->x), to_double(scene.points[i].at->y)}; };
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  auto extend = [&](P2 p, double rr) {
    x0 = std::min(x0, p.x - rr), x1 = std::max(x1, p.x + rr), y0 = std::min(y0, p.y - rr), y1 = std::max(y1, p.y + rr);
  };
  for (const Line& line : scene.lines) {
    std::vector<P2> on;
    for (std::size_t i : line.through)
      if (i < scene.points.size() && scene.points[i].at) on.push_back(at(i));
    if (on.size() < 2) continue;
    const P2 d{on[1].x - on[0].x, on[1].y - on[0].y};
    auto along = [&](P2 q) { return (q.x - on[0].x) * d.x + (q.y - on[0].y) * d.y; };
    const auto [lo, hi] = std::minmax_element(on.begin(), on.end(), [&](P2 a, P2 b) { return along(a) < along(b); });
    segments.emplace_back(*lo, *hi);
    extend(*lo, 0), extend(*hi, 0);
  }
  for (const Circle& c : scene.circles)
    if (c.center)
      if (const auto r2 = radius_squared(scene, c)) {
        const P2 centre{to_double(c.center->x), to_double(c.center->y)};
        circles.emplace_back(centre, std::sqrt(to_double(*r2)));
        extend(centre, circles.back().second);
      }
  label_spots_.clear();
  for (std::size_t i = 0; i < scene.points.size(); ++i) {
    const Point& point = scene.points[i];
    if (!point.at) continue;
    const P2 p = at(i);
    extend(p, 0);  // matplotlib's data limits grow with every dot drawn
    if (!point.labelled) continue;
    std::vector<P2> avoid;
    for (const auto& [a, b] : segments) circle_meets_segment(p, r, a, b, avoid);
    for (const auto& [c, rc] : circles) circle_meets_circle(p, r, c, rc, avoid);
    std::vector<P2> corners;  // in the frame's units
    if (avoid.empty()) {
      corners.push_back({p.x + 0.01, p.y + 0.01});
    } else {
      std::vector<double> angles;
      for (const P2& a : avoid) {
        const double t = std::atan2(a.y - p.y, a.x - p.x);
        angles.push_back(t < 0 ? t + 2 * M_PI : t);
      }
      std::sort(angles.begin(), angles.end());
      angles.push_back(angles.front() + 2 * M_PI);
      std::vector<std::pair<double, double>> gaps;  // (width, start), widest first as the rule takes it
      for (std::size_t k = 0; k + 1 < angles.size(); ++k) gaps.emplace_back(angles[k + 1] - angles[k], angles[k]);
      std::sort(gaps.rbegin(), gaps.rend());
      // The 0.01 rounding moves a crossing on the 0.08 circle by up to about 0.01 units, 7° of arc:
      // a gap within twice that of the widest may have been the widest on the unrounded figure.
      const double mx = 0.05 * (x1 - x0), my = 0.05 * (y1 - y0);
      for (const auto& [width, from] : gaps) {
        if (width < gaps.front().first - 2 * kRoundingArc) break;
        const double t = from + width / 2;
        P2 c{p.x + r * std::cos(t) - r / 1.5, p.y + r * std::sin(t) - r / 1.5};
        c.x = std::clamp(c.x, x0 - mx, std::max(x0 - mx, x1 + mx));
        c.y = std::clamp(c.y, y0 - my, std::max(y0 - my, y1 + my));
        corners.push_back(c);
      }
    }
    // From the point's own dot in the picture (its place there is measured, not rounded to 0.01).
    const double s = m.scale, flip = m.flipped ? -1 : 1;
    LabelSpot spot{point.id, dot_px[i], dot_radius[i], {}};
    for (const P2& c : corners)
      spot.corners.push_back({dot_px[i].x + s * (c.x - p.x), dot_px[i].y + flip * s * (c.y - p.y)});
    label_spots_.push_back(std::move(spot));
  }
}

}  // namespace geotruth::vision::check
