// Circles, arcs and ellipses from the picture alone (docs/reader.md, "Curves"): the detector's
// proposals (EdgeDrawing, the gradient Hough transform, fitted regions) refitted to the centre line
// of their own ink, then walked round: inked nearly all round is a full curve, else its longest
// inked stretch is an arc.
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "vision/pixels.hpp"
#include "vision/read/read.hpp"

namespace geotruth::vision::read {
namespace {

constexpr double kFullCoverage = 0.9;  // inked along this share of its length: drawn all round
constexpr double kMinArcDeg = 90;      // a shorter arc is an angle mark (or a straight stroke's bit), not a curve

// Centre-line points of the ink along an ellipse: at every pixel of its outline, the darkness-
// weighted mean of the ink within `band` along the outward normal.
std::vector<cv::Point2f> centre_line(const Sheet& sheet, const Detections::Ellipse& e, double band) {
  std::vector<cv::Point2f> out;
  const EllipsePoints outline(e);
  const int n = std::clamp(static_cast<int>(2 * std::numbers::pi * e.a), 24, 20000);
  for (int k = 0; k < n; ++k) {
    const double t = 2 * std::numbers::pi * k / n;
    const P2 p = outline.at(t), q = outline.at(t + 1e-3);
    double nx = q.y - p.y, ny = -(q.x - p.x);
    const double len = std::hypot(nx, ny);
    if (len == 0) continue;
    nx /= len, ny /= len;
    if (!sheet.inside(p) || sheet.is_unknown(p)) continue;
    double w = 0, wo = 0;
    for (double s = -band; s <= band; s += 0.5) {
      const double d = darkness_at(sheet.paper, {p.x + s * nx, p.y + s * ny});
      if (d < sheet.paper.ink_level) continue;
      w += d, wo += d * s;
    }
    if (w > 0) out.push_back(cv::Point2f(static_cast<float>(p.x + wo / w * nx), static_cast<float>(p.y + wo / w * ny)));
  }
  return out;
}

// Kåsa's algebraic circle fit: x² + y² + D x + E y + F = 0 in least squares.
bool fit_circle(const std::vector<cv::Point2f>& points, P2& centre, double& radius) {
  if (points.size() < 8) return false;
  cv::Mat A(static_cast<int>(points.size()), 3, CV_64F), b(static_cast<int>(points.size()), 1, CV_64F);
  for (int i = 0; i < A.rows; ++i) {
    const double x = points[i].x, y = points[i].y;
    A.at<double>(i, 0) = x, A.at<double>(i, 1) = y, A.at<double>(i, 2) = 1;
    b.at<double>(i) = -(x * x + y * y);
  }
  cv::Mat s;
  if (!cv::solve(A, b, s, cv::DECOMP_SVD)) return false;
  const double D = s.at<double>(0), E = s.at<double>(1), F = s.at<double>(2);
  centre = {-D / 2, -E / 2};
  const double r2 = centre.x * centre.x + centre.y * centre.y - F;
  if (!(r2 > 0)) return false;
  radius = std::sqrt(r2);
  return true;
}

struct RoundWalk {
  double coverage = 0, contrast = 0;
  double start_deg = 0, sweep_deg = 0;  // the longest inked stretch
};

// Walks an ellipse a pixel at a time: coverage of its known samples, and its longest inked stretch
// (gaps of paper up to gap_max bridged; samples under letters neither break nor count).
RoundWalk walk_round(const Sheet& sheet, const Detections::Ellipse& e, double tolerance, double gap_max) {
  RoundWalk out;
  const EllipsePoints outline(e);
  const int n = std::clamp(static_cast<int>(2 * std::numbers::pi * e.a), 24, 20000);
  std::vector<int> state(n);  // 1 ink, 0 paper, -1 unknown or outside
  std::vector<double> peaks;
  int ink = 0, known = 0;
  for (int k = 0; k < n; ++k) {
    const double t = 2 * std::numbers::pi * k / n;
    const P2 p = outline.at(t), q = outline.at(t + 1e-3);
    double nx = q.y - p.y, ny = -(q.x - p.x);
    const double len = std::hypot(nx, ny);
    if (len == 0 || !sheet.inside(p) || sheet.is_unknown(p)) {
      state[k] = -1;
      continue;
    }
    nx /= len, ny /= len;
    const double peak = peak_darkness_across(sheet.paper, p, {nx, ny}, tolerance);
    state[k] = peak >= sheet.paper.ink_level ? 1 : 0;
    ++known;
    if (state[k] == 1) ++ink, peaks.push_back(peak);
  }
  if (known == 0) return out;
  out.coverage = static_cast<double>(ink) / known;
  out.contrast = median_of(peaks);
  // The longest stretch, circularly: scanned once from a paper sample.
  const double step_deg = 360.0 / n;
  int best_start = 0, best_len = 0;
  const auto paper_at = std::find(state.begin(), state.end(), 0);
  if (paper_at == state.end()) {
    best_len = ink > 0 ? n : 0;  // no paper anywhere round
  } else {
    const int first = static_cast<int>(paper_at - state.begin());
    int run_start = -1, run_end = -1, paper = 0;
    for (int k = 1; k <= n; ++k) {
      const int i = (first + k) % n;
      if (state[i] == 1) {
        if (run_start < 0) run_start = k;
        run_end = k, paper = 0;
      } else if (state[i] == 0 && run_start >= 0 && ++paper > gap_max) {
        if (run_end - run_start + 1 > best_len)
          best_len = run_end - run_start + 1, best_start = (first + run_start) % n;
        run_start = -1, paper = 0;
      }
    }
    if (run_start >= 0 && run_end - run_start + 1 > best_len)
      best_len = run_end - run_start + 1, best_start = (first + run_start) % n;
  }
  out.start_deg = e.angle_deg + best_start * step_deg;
  out.sweep_deg = best_len * step_deg;
  return out;
}

// Whether the ink about a circle follows it: the median distance of its centre line from the circle
// is at most a pixel or 5 % of the radius. A circle inked all round within the walk's tolerance may
// be a square's inscribed circle (a right-angle mark and the two strokes it sits between: Geometry3K
// 14, 15, 19), whose ink strays from it by a median of 0.08 of the radius (0.41 at the corners);
// true circles stray by 0.03 at most (VisOnlyQA's JPEGs; Tangram's sketches, GePBench: 0.01).
bool ink_follows(const Sheet& sheet, const Detections::Ellipse& e, double band) {
  std::vector<double> off;
  for (const cv::Point2f& q : centre_line(sheet, e, band))
    off.push_back(std::abs(std::hypot(q.x - e.center.x, q.y - e.center.y) - e.a));
  return off.empty() || median_of(std::move(off)) <= std::max(1.0, 0.05 * e.a);
}

}  // namespace

P2 Oval::local(P2 p) const {
  const double t = angle_deg * std::numbers::pi / 180, c = std::cos(t), s = std::sin(t), dx = p.x - centre.x,
               dy = p.y - centre.y;
  return {dx * c + dy * s, -dx * s + dy * c};
}

double Oval::distance(P2 p) const {
  const P2 q = local(p);
  const double f = q.x * q.x / (a * a) + q.y * q.y / (b * b) - 1, g = 2 * std::hypot(q.x / (a * a), q.y / (b * b));
  return g > 0 ? std::abs(f) / g : std::numeric_limits<double>::infinity();
}

// A proposal refitted to the centre line of the ink around it (twice); false when it does not fit.
bool refit_round(const Sheet& sheet, Detections::Ellipse& e, double band) {
  e.a = e.b = (e.a + e.b) / 2, e.angle_deg = 0, e.circle = true;
  // A large proposal may be off by several percent of its radius (the Hough transform runs on the
  // picture shrunk to 400 px and at a liberal threshold): it is looked at within that reach, the
  // ink nearest it along each of 64 normals taken for its outline.
  const double reach = std::max(band, 0.08 * e.a);
  std::vector<cv::Point2f> nearest;
  for (int k = 0; k < 64; ++k) {
    const double t = 2 * std::numbers::pi * k / 64;
    const P2 p{e.center.x + e.a * std::cos(t), e.center.y + e.a * std::sin(t)};
    for (double s = 0; s <= reach; s = s > 0 ? -s : 1 - s) {
      const P2 q{p.x + s * std::cos(t), p.y + s * std::sin(t)};
      if (darkness_at(sheet.paper, q) >= sheet.paper.ink_level) {
        nearest.emplace_back(static_cast<float>(q.x), static_cast<float>(q.y));
        break;
      }
    }
  }
  // A quick look first: ink near it at half of 64 places round at least (most proposals are not circles).
  if (nearest.size() < 24) return false;
  if (reach > band) {
    // The circle through that ink, fitted twice: the second time without the ink off the first fit
    // (strokes crossing the reach).
    for (int pass = 0; pass < 2; ++pass) {
      P2 c;
      double r = 0;
      if (!fit_circle(nearest, c, r)) return false;
      e.center = c, e.a = e.b = r;
      std::erase_if(nearest, [&](const cv::Point2f& q) { return std::abs(dist({q.x, q.y}, c) - r) > band; });
    }
  }
  for (int pass = 0; pass < 2; ++pass) {
    P2 c;
    double r = 0;
    if (!fit_circle(centre_line(sheet, e, band), c, r)) return pass > 0;
    e.center = c, e.a = e.b = r;
  }
  return true;
}

void read_arcs(const Sheet& sheet, const std::vector<Detections::Ellipse>& proposals, const std::vector<Piece>& pieces,
               std::vector<Round>& rounds) {
  const double band = std::max(2.5, sheet.half + 2.0);
  const double tolerance = sheet.stroke_tolerance();
  const double gap_max = std::max(3.0, 2 * sheet.half + 2);
  const double min_radius = std::max(6.0, 4 * sheet.stroke);
  const std::size_t full = rounds.size();
  for (const Detections::Ellipse& proposal : proposals) {
    Detections::Ellipse e = proposal;
    if (!(e.circle || e.a - e.b <= std::max(2.0, 0.04 * e.a)) || !refit_round(sheet, e, band) || e.a < min_radius)
      continue;
    const RoundWalk walk = walk_round(sheet, e, tolerance, gap_max);
    if (walk.coverage >= kFullCoverage || walk.sweep_deg < kMinArcDeg) continue;
    // Its stretch must be ink no straight stroke or full circle explains: a straight stroke is within
    // the tolerance of many arcs that touch it.
    int explained = 0, samples = 0;
    for (double a = 0; a <= walk.sweep_deg; a += 3) {
      const double t = (walk.start_deg + a) * std::numbers::pi / 180;
      const P2 p{e.center.x + e.a * std::cos(t), e.center.y + e.a * std::sin(t)};
      ++samples;
      bool near = false;
      for (const Piece& piece : pieces) near = near || piece_distance(piece, p) <= tolerance + 1;
      for (std::size_t k = 0; k < full && !near; ++k)
        near = std::abs(std::hypot(p.x - rounds[k].centre.x, p.y - rounds[k].centre.y) - rounds[k].radius) <=
               tolerance + 1;
      explained += near;
    }
    if (explained > 0.2 * samples) continue;
    Round out;
    out.centre = e.center, out.radius = e.a, out.coverage = walk.coverage, out.contrast = walk.contrast;
    out.full = false, out.start_deg = walk.start_deg, out.sweep_deg = walk.sweep_deg;
    const bool duplicate = std::any_of(rounds.begin(), rounds.end(), [&](const Round& o) {
      return std::hypot(o.centre.x - out.centre.x, o.centre.y - out.centre.y) <= 2 * tolerance + 2 &&
             std::abs(o.radius - out.radius) <= 2 * tolerance + 2;
    });
    if (!duplicate) rounds.push_back(out);
  }
}

std::vector<Detections::Ellipse> propose_circles(const Sheet& sheet) {
  // The gradient Hough transform at a liberal threshold, on the picture at about 400 px: every
  // proposal is refitted and walked round before it is kept, so a false one costs only its walk,
  // while a circle crossed by many strokes (whose arcs EdgeDrawing cannot chain) is still proposed.
  const int longer = std::max(sheet.width, sheet.height);
  const double s = std::min(1.0, 400.0 / longer);
  cv::Mat gray;
  sheet.paper.darkness.convertTo(gray, CV_8U, -1, 255);
  gray.setTo(255, sheet.unknown);
  if (s < 1) cv::resize(gray, gray, {}, s, s, cv::INTER_AREA);
  cv::GaussianBlur(gray, gray, {5, 5}, 1.2);
  std::vector<cv::Vec3f> found;
  const int min_radius = std::max(4, static_cast<int>(std::lround(3 * sheet.stroke * s)));
  cv::HoughCircles(gray, found, cv::HOUGH_GRADIENT_ALT, 1.5, 6, 300, 0.5, min_radius,
                   std::max(gray.cols, gray.rows) / 2);
  std::vector<Detections::Ellipse> out;
  for (std::size_t k = 0; k < found.size() && k < 60; ++k) {
    Detections::Ellipse e;
    e.center = {found[k][0] / s, found[k][1] / s};
    e.a = e.b = found[k][2] / s;
    e.circle = true;
    out.push_back(e);
  }
  return out;
}

void read_rounds(const Sheet& sheet, const std::vector<Detections::Ellipse>& proposals, std::vector<Round>& rounds,
                 std::vector<Oval>& ovals) {
  const double band = std::max(2.5, sheet.half + 2.0);
  const double tolerance = sheet.stroke_tolerance();
  const double gap_max = std::max(3.0, 2 * sheet.half + 2);
  const double min_radius = std::max(4.0, 3 * sheet.stroke);
  for (const Detections::Ellipse& proposal : proposals) {
    Detections::Ellipse e = proposal;
    const bool round = e.circle || e.a - e.b <= std::max(2.0, 0.04 * e.a);
    if (round) {
      const bool refitted = refit_round(sheet, e, band);
      if (std::getenv("GEOTRUTH_READER_DEBUG"))
        std::fprintf(stderr, "proposal at %.0f,%.0f r %.1f: refit %d at %.0f,%.0f r %.1f coverage %.2f\n",
                     proposal.center.x, proposal.center.y, proposal.a, refitted, e.center.x, e.center.y, e.a,
                     refitted ? walk_round(sheet, e, tolerance, gap_max).coverage : 0.0);
      if (!refitted || e.a < min_radius) continue;
      const RoundWalk walk = walk_round(sheet, e, tolerance, gap_max);
      Round out;
      out.centre = e.center, out.radius = e.a, out.coverage = walk.coverage, out.contrast = walk.contrast;
      out.full = walk.coverage >= kFullCoverage;
      if (!out.full) continue;  // arcs: read_arcs, once the straight strokes are known
      if (!ink_follows(sheet, e, band)) continue;
      const bool duplicate = std::any_of(rounds.begin(), rounds.end(), [&](const Round& o) {
        return std::hypot(o.centre.x - out.centre.x, o.centre.y - out.centre.y) <= tolerance + 1 &&
               std::abs(o.radius - out.radius) <= tolerance + 1;
      });
      if (!duplicate) rounds.push_back(out);
      continue;
    }
    // An ellipse: fitted to its centre line (Fitzgibbon's direct fit), kept when inked all round.
    for (int pass = 0; pass < 2; ++pass) {
      const std::vector<cv::Point2f> points = centre_line(sheet, e, band);
      if (points.size() < 12) break;
      const cv::RotatedRect fit = cv::fitEllipseDirect(points);
      if (!(fit.size.width > 0 && fit.size.height > 0)) break;
      e.center = {fit.center.x, fit.center.y};
      e.a = std::max(fit.size.width, fit.size.height) / 2, e.b = std::min(fit.size.width, fit.size.height) / 2;
      e.angle_deg = std::fmod(fit.size.width >= fit.size.height ? fit.angle : fit.angle + 90, 180);
    }
    if (e.b < min_radius) continue;
    const RoundWalk walk = walk_round(sheet, e, tolerance, gap_max);
    if (walk.coverage < kFullCoverage) continue;
    Oval out;
    out.centre = e.center, out.a = e.a, out.b = e.b, out.angle_deg = e.angle_deg;
    out.coverage = walk.coverage, out.contrast = walk.contrast;
    const bool duplicate = std::any_of(ovals.begin(), ovals.end(), [&](const Oval& o) {
      return std::hypot(o.centre.x - out.centre.x, o.centre.y - out.centre.y) <= tolerance + 1 &&
             std::abs(o.a - out.a) <= tolerance + 1 && std::abs(o.b - out.b) <= tolerance + 1;
    });
    if (!duplicate) ovals.push_back(out);
  }
  // An "ellipse" that runs a third of its way along a circle read is the lens between that circle's
  // arc and the straight sides inside it (a star or polygon with its tips on the circle), which
  // the ellipse fit takes for one curve.
  std::erase_if(ovals, [&](const Oval& o) {
    Detections::Ellipse e;
    e.center = o.centre, e.a = o.a, e.b = o.b, e.angle_deg = o.angle_deg;
    const EllipsePoints outline(e);
    int along = 0;
    const int samples = 72;
    for (int k = 0; k < samples; ++k) {
      const P2 q = outline.at(2 * std::numbers::pi * k / samples);
      along += std::any_of(rounds.begin(), rounds.end(), [&](const Round& r) { return on_round(r, q, tolerance); });
    }
    return along >= samples / 3;
  });
}

bool drop_letter_bowls(std::vector<Round>& rounds, const std::vector<Glyph>& glyphs) {
  const double letter = capital_height(glyphs);
  if (letter <= 0) return false;
  const auto before = rounds.size();
  std::erase_if(rounds, [&](const Round& r) {
    if (r.radius > 0.75 * letter) return false;
    if (r.radius <= 0.5 * letter) return true;
    const cv::Rect box(cvRound(r.centre.x - r.radius), cvRound(r.centre.y - r.radius), cvRound(2 * r.radius),
                       cvRound(2 * r.radius));
    const int pad = cvRound(letter / 2);
    return std::any_of(glyphs.begin(), glyphs.end(), [&](const Glyph& g) {
      return !(box & cv::Rect(g.box.x - pad, g.box.y - pad, g.box.width + 2 * pad, g.box.height + 2 * pad)).empty();
    });
  });
  return rounds.size() != before;
}

}  // namespace geotruth::vision::read
