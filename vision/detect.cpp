// The independent pixel pipeline: OpenCV detectors, knowing nothing of the scene.
#include <opencv2/imgproc.hpp>
#include <opencv2/ximgproc/edge_drawing.hpp>
#include <opencv2/ximgproc/fast_line_detector.hpp>

#include <algorithm>
#include <cmath>
#include <geotruth/work_limit.hpp>
#include <numbers>

#include "vision/detectors.hpp"
#include "vision/figure.hpp"
#include "vision/paper.hpp"
#include "vision/pixels.hpp"

namespace geotruth::vision {

// Letters and digits: ink components about the size of a label, not long strokes or specks.
// `compact` tells the glyphs that are not a bar (a dash of a dashed line looks like an "I").
std::vector<Detections::Box> find_glyphs(const cv::Mat& ink, std::vector<bool>& compact) {
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
  const int longer = std::max(ink.cols, ink.rows);
  const int smallest = std::max(4, static_cast<int>(0.012 * longer)),
            largest = std::max(24, static_cast<int>(0.09 * longer));
  std::vector<Detections::Box> glyphs;
  for (int i = 1; i < n; ++i) {
    const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
    if (std::max(w, h) < smallest || h > largest || w > 2 * largest) continue;
    if (stats.at<int>(i, cv::CC_STAT_AREA) < smallest) continue;
    glyphs.push_back({stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP), w, h});
    std::vector<cv::Point> pixels;
    cv::findNonZero(labels(cv::Rect(glyphs.back().x, glyphs.back().y, w, h)) == i, pixels);
    const cv::RotatedRect box = cv::minAreaRect(pixels);
    const double thin = std::min(box.size.width, box.size.height), length = std::max(box.size.width, box.size.height);
    compact.push_back(thin > 4 || length < 4 * thin);
  }
  return glyphs;
}

namespace {

// Share of the ellipse's outline that has ink within a pixel.
double ink_support(const Detections::Ellipse& e, const cv::Mat& ink) {
  const int n = std::clamp(static_cast<int>(2 * std::numbers::pi * e.a / 2), 24, 720);
  const EllipsePoints outline(e);
  int hits = 0;
  for (int k = 0; k < n; ++k) hits += ink_within_pixel(ink, outline.at(2 * std::numbers::pi * k / n));
  return static_cast<double>(hits) / n;
}

// A Hough circle's centre and radius can be two or three pixels off: the best nearby circle on
// the ink replaces it.
Detections::Ellipse refined_on_ink(const Detections::Ellipse& circle, const cv::Mat& ink) {
  Detections::Ellipse best = circle;
  double best_support = ink_support(circle, ink);
  auto try_circle = [&](double x, double y, double r) {
    Detections::Ellipse trial = circle;
    trial.center = {x, y}, trial.a = trial.b = r;
    if (const double support = ink_support(trial, ink); support > best_support) best_support = support, best = trial;
  };
  // Radius, then centre, then radius again: a coordinate search rather than the whole grid.
  for (double dr = -4; dr <= 4; dr += 0.5) try_circle(circle.center.x, circle.center.y, circle.a + dr);
  const Detections::Ellipse after_radius = best;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) try_circle(after_radius.center.x + dx, after_radius.center.y + dy, after_radius.a);
  const Detections::Ellipse after_centre = best;
  for (double dr = -1; dr <= 1; dr += 0.25)
    try_circle(after_centre.center.x, after_centre.center.y, after_centre.a + dr);
  return best;
}

// Ellipses from EdgeDrawing's edge chains (detectEdges; its own ellipse detection, detectEllipses,
// writes past one of its arrays on some pictures in OpenCV 4.6 — valgrind: 8-byte stores just past
// a 1,176-byte block on a GePBench star — and the process crashed later on the corrupted heap). A
// chain goes on through a crossing along the other stroke, so chains are cut where they turn
// sharply; the pieces that curve are arcs. An arc that nearly closes, or a long one, is fitted
// alone, and every two arcs together (an ellipse crossed by other strokes is broken into arcs): a
// fit whose points lie within 1.5 px of it is a proposal, (cx, cy, r, a, b, angle) as
// EdgeDrawing gives them (r > 0 for a circle).
std::vector<cv::Vec6d> ellipses_from_arcs(const cv::Mat& framed) {
  cv::Ptr<cv::ximgproc::EdgeDrawing> ed = cv::ximgproc::createEdgeDrawing();
  ed->detectEdges(framed);
  const std::vector<std::vector<cv::Point>> chains = ed->getSegments();
  std::vector<std::vector<cv::Point>> arcs;
  constexpr int kStep = 4;  // the direction along a chain, over 4 px either way
  for (const std::vector<cv::Point>& chain : chains) {
    if (chain.size() < 20) continue;
    std::size_t start = 0;
    auto direction = [&](std::size_t from, std::size_t to) {
      const cv::Point2d d = cv::Point2d(chain[to]) - cv::Point2d(chain[from]);
      return std::atan2(d.y, d.x);
    };
    auto flush = [&](std::size_t end) {
      if (end - start < 20) return;
      const std::vector<cv::Point> piece(chain.begin() + static_cast<std::ptrdiff_t>(start),
                                         chain.begin() + static_cast<std::ptrdiff_t>(end));
      const cv::Point2d a = piece.front(), b = piece.back(), d = b - a;
      const double chord = cv::norm(d);
      double bulge = chord < 1 ? 1e9 : 0;
      for (std::size_t k = 0; k < piece.size() && bulge < 3; k += 2)
        bulge = std::max(bulge, std::abs((cv::Point2d(piece[k]) - a).cross(d)) / std::max(chord, 1.0));
      if (bulge >= 3) arcs.push_back(piece);
    };
    for (std::size_t k = kStep; k + kStep < chain.size(); ++k) {
      const double turn = std::remainder(direction(k, k + kStep) - direction(k - kStep, k), 2 * std::numbers::pi);
      if (std::abs(turn) > 35 * std::numbers::pi / 180) {
        flush(k);
        start = k + 1;
        k += kStep;
      }
    }
    flush(chain.size());
  }
  std::vector<cv::Vec6d> found;
  auto propose = [&](const std::vector<cv::Point>& points) {
    const cv::RotatedRect fit = cv::fitEllipse(points);
    const double ax = fit.size.width / 2, by = fit.size.height / 2, a = std::max(ax, by), b = std::min(ax, by);
    if (!(b > 2) || !std::isfinite(a) || a > std::max(framed.cols, framed.rows)) return;
    // Each point's offset from the fit: its radial offset in the ellipse's own frame.
    const double t = fit.angle * std::numbers::pi / 180, c = std::cos(t), s = std::sin(t);
    double sum = 0;
    for (const cv::Point& p : points) {
      const double x = (p.x - fit.center.x) * c + (p.y - fit.center.y) * s;
      const double y = -(p.x - fit.center.x) * s + (p.y - fit.center.y) * c;
      const double rho = std::hypot(x / ax, y / by);
      const double off = (rho - 1) * std::hypot(x, y) / std::max(rho, 1e-9);
      sum += off * off;
    }
    if (std::sqrt(sum / points.size()) > 1.5) return;
    if (a - b < 1)
      found.push_back({fit.center.x, fit.center.y, (a + b) / 2, 0, 0, 0});
    else
      found.push_back({fit.center.x, fit.center.y, 0, ax, by, fit.angle});
  };
  // Two arcs of one ellipse lie within the ellipse's extent of each other: no farther apart than
  // their two boxes' diagonals.
  std::vector<cv::Rect> boxes;
  for (const auto& arc : arcs) boxes.push_back(cv::boundingRect(arc));
  auto near = [&](std::size_t i, std::size_t j) {
    const cv::Point2d ci = (boxes[i].tl() + boxes[i].br()) / 2, cj = (boxes[j].tl() + boxes[j].br()) / 2;
    return cv::norm(ci - cj) <=
           std::hypot(boxes[i].width, boxes[i].height) + std::hypot(boxes[j].width, boxes[j].height);
  };
  for (std::size_t i = 0; i < arcs.size(); ++i) {
    const double r = arcs[i].size() / (2 * std::numbers::pi);
    if (arcs[i].size() >= 60 || cv::norm(arcs[i].front() - arcs[i].back()) <= std::max(3.0, r / 4)) propose(arcs[i]);
    charge_time(arcs.size() - i);
    for (std::size_t j = i + 1; j < arcs.size(); ++j) {
      if (!near(i, j)) continue;
      std::vector<cv::Point> both = arcs[i];
      both.insert(both.end(), arcs[j].begin(), arcs[j].end());
      propose(both);
    }
  }
  return found;
}

std::vector<Detections::Ellipse> find_ellipses(const cv::Mat& gray, const cv::Mat& ink,
                                               const std::vector<std::vector<cv::Point>>& regions) {
  // EdgeDrawing (OpenCV 4.6) writes past its buffers on some edge chains that reach the image's
  // border (seen under valgrind on a GePBench picture whose first row is a faint line): it sees
  // the picture inside a margin of paper.
  constexpr int kMargin = 8;
  cv::Mat framed;
  cv::copyMakeBorder(gray, framed, kMargin, kMargin, kMargin, kMargin, cv::BORDER_CONSTANT, 255);
  const std::vector<cv::Vec6d> found = ellipses_from_arcs(framed);
  std::vector<Detections::Ellipse> raw;
  for (const auto& e : found) {
    Detections::Ellipse d;
    d.center = {e[0] - kMargin, e[1] - kMargin};
    if (e[2] > 0) {
      d.a = d.b = e[2], d.circle = true;
    } else {
      d.a = std::max(e[3], e[4]), d.b = std::min(e[3], e[4]);
      d.angle_deg = e[3] >= e[4] ? e[5] : e[5] + 90;
      d.angle_deg = std::fmod(std::fmod(d.angle_deg, 180) + 180, 180);
    }
    if (d.b >= 3) raw.push_back(d);
  }
  // EdgeDrawing needs long unbroken arcs; a big circle crossed by many strokes is found by the
  // gradient Hough transform instead.
  // At half resolution: a fifteenth of the full-size cost, and the fit below recovers the accuracy.
  std::vector<cv::Vec3f> circles;
  cv::Mat half;
  cv::pyrDown(gray, half);
  cv::HoughCircles(half, circles, cv::HOUGH_GRADIENT_ALT, 1.5, 10, 300, 0.8, 5, std::max(half.cols, half.rows));
  for (const auto& c : circles) {
    Detections::Ellipse d;
    d.center = {2.0 * c[0], 2.0 * c[1]}, d.a = d.b = 2.0 * c[2], d.circle = true;
    raw.push_back(refined_on_ink(d, ink));
  }
  // And a region enclosed by one whole ellipse is fitted directly (EdgeDrawing misses some
  // large eccentric ones).
  for (const auto& region : regions) {
    if (region.size() < 20) continue;
    const cv::RotatedRect fit = cv::fitEllipse(region);
    Detections::Ellipse d;
    d.center = {fit.center.x, fit.center.y};
    // The region is the inside of the stroke: its boundary lies half a stroke within the curve.
    d.a = std::max(fit.size.width, fit.size.height) / 2 + 1, d.b = std::min(fit.size.width, fit.size.height) / 2 + 1;
    d.angle_deg = std::fmod(fit.size.width >= fit.size.height ? fit.angle : fit.angle + 90, 180);
    d.circle = d.a - d.b < 1;
    if (d.b >= 3) raw.push_back(d);
  }
  // A stroke has two edges (inside and outside): merge detections of the same curve.
  std::vector<Detections::Ellipse> merged;
  std::vector<int> weight;
  for (const auto& d : raw) {
    bool joined = false;
    for (std::size_t k = 0; k < merged.size() && !joined; ++k) {
      auto& m = merged[k];
      const double tol = 3 + 0.03 * m.a;
      if (std::hypot(d.center.x - m.center.x, d.center.y - m.center.y) > tol || std::abs(d.a - m.a) > tol ||
          std::abs(d.b - m.b) > tol)
        continue;
      const double w = weight[k];
      m.center = {(m.center.x * w + d.center.x) / (w + 1), (m.center.y * w + d.center.y) / (w + 1)};
      m.a = (m.a * w + d.a) / (w + 1), m.b = (m.b * w + d.b) / (w + 1);
      m.circle = m.circle && d.circle;
      ++weight[k];
      joined = true;
    }
    if (!joined) merged.push_back(d), weight.push_back(1);
  }
  // Both detectors propose curves that are not there (a chain of short strokes, text): keep
  // those whose outline is ink nearly all round.
  std::erase_if(merged, [&](const Detections::Ellipse& e) { return ink_support(e, ink) < 0.8; });
  return merged;
}

// The regions strokes enclose: the holes of the ink's connected components.
std::vector<std::vector<cv::Point>> enclosed_regions(const cv::Mat& ink) {
  std::vector<std::vector<cv::Point>> contours, holes;
  std::vector<cv::Vec4i> hierarchy;
  cv::findContours(ink, contours, hierarchy, cv::RETR_CCOMP, cv::CHAIN_APPROX_NONE);
  for (std::size_t i = 0; i < contours.size(); ++i)
    if (hierarchy[i][3] >= 0 && cv::contourArea(contours[i]) >= 50) holes.push_back(std::move(contours[i]));
  return holes;
}

std::vector<Detections::Contour> polygons_of(const std::vector<std::vector<cv::Point>>& regions) {
  std::vector<Detections::Contour> out;
  for (const auto& region : regions) {
    std::vector<cv::Point> approx;
    cv::approxPolyDP(region, approx, std::max(2.0, 0.015 * cv::arcLength(region, true)), true);
    Detections::Contour c;
    c.area = cv::contourArea(region);
    for (const auto& p : approx) c.vertices.push_back({static_cast<double>(p.x), static_cast<double>(p.y)});
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

double ellipse_distance(P2 p, const Detections::Ellipse& e) {
  // Distance along the ray from the centre: exact for circles, close enough to filter segments.
  const double t = e.angle_deg * std::numbers::pi / 180, dx = p.x - e.center.x, dy = p.y - e.center.y;
  const double u = dx * std::cos(t) + dy * std::sin(t), v = -dx * std::sin(t) + dy * std::cos(t);
  const double rho = std::hypot(u, v);
  if (rho == 0) return e.b;
  const double r = e.a * e.b / std::hypot(e.b * u / rho, e.a * v / rho);
  return std::abs(rho - r);
}

// Filled triangles survive an opening that removes strokes; round dots and letters do not pass
// the shape test.
std::vector<P2> find_arrowheads(const cv::Mat& ink) {
  cv::Mat opened;
  cv::morphologyEx(ink, opened, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {5, 5}));
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(opened, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
  std::vector<P2> heads;
  for (const auto& c : contours) {
    const double area = cv::contourArea(c), perimeter = cv::arcLength(c, true);
    if (area < 20 || perimeter <= 0) continue;
    std::vector<cv::Point2f> triangle;
    const double triangle_area = cv::minEnclosingTriangle(c, triangle);
    const double circularity = 4 * std::numbers::pi * area / (perimeter * perimeter);
    if (triangle_area <= 0 || area / triangle_area < 0.65 || circularity > 0.85) continue;
    const cv::Moments m = cv::moments(c);
    heads.push_back({m.m10 / m.m00, m.m01 / m.m00});
  }
  return heads;
}

Detections detect_in(const cv::Mat& gray, const cv::Mat& ink) {
  Detections out;
  std::vector<bool> compact;
  out.glyphs = find_glyphs(ink, compact);
  const auto regions = enclosed_regions(ink);
  out.ellipses = find_ellipses(gray, ink, regions);
  out.contours = polygons_of(regions);
  out.arrowheads = find_arrowheads(ink);

  cv::Ptr<cv::ximgproc::FastLineDetector> fld = cv::ximgproc::createFastLineDetector(10, 1.414f, 50, 50, 3, false);
  std::vector<cv::Vec4f> found;
  fld->detect(gray, found);
  for (const auto& s : found) {
    const P2 a{s[0], s[1]}, b{s[2], s[3]}, mid{(a.x + b.x) / 2, (a.y + b.y) / 2};
    bool in_glyph = false;
    for (std::size_t g = 0; g < out.glyphs.size() && !in_glyph; ++g)
      in_glyph = compact[g] && in_box(a, out.glyphs[g], 2) && in_box(b, out.glyphs[g], 2);
    const bool on_curve = std::any_of(out.ellipses.begin(), out.ellipses.end(), [&](const Detections::Ellipse& e) {
      return ellipse_distance(a, e) < 3 && ellipse_distance(b, e) < 3 && ellipse_distance(mid, e) < 3;
    });
    if (!in_glyph && !on_curve) out.segments.push_back({a, b});
  }
  out.lines = cluster_segments(out.segments);
  return out;
}

Detections detect(const Image& image) {
  const Paper paper = measure_paper(image);
  // The detectors see the denoised picture, paper white and ink black at its own contrast.
  cv::Mat gray;
  paper.darkness.convertTo(gray, CV_8U, -1, 255);
  Detections out = detect_in(gray, paper.ink);
  out.ink_threshold = static_cast<int>(
      std::lround(paper.dark_paper ? paper.background + paper.ink_level : paper.background - paper.ink_level));
  return out;
}

}  // namespace geotruth::vision
