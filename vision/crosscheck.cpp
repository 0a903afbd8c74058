// Matches what the pixels show (vision/detect.cpp) with what the scene says (vision/figure.cpp).
// Raw detector counts are never compared: every detection is attributed to a scene element or
// reported as extra, and every scene element is either matched, or named with the reason.
#include <opencv2/imgproc.hpp>
#include "geometry/predicates.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "vision/figure.hpp"
#include "vision/pixels.hpp"

namespace geotruth::vision {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMinDetectablePx = 12;  // FastLineDetector's shortest segment, plus a margin

std::string fixed(double v, int digits = 1) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

P2 midpoint(P2 a, P2 b) {
  return {(a.x + b.x) / 2, (a.y + b.y) / 2};
}
double dist(P2 a, P2 b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

struct Bounds {
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
};
Bounds bounds_of(const std::vector<P2>& points) {
  Bounds b;
  for (const P2& p : points)
    b.x0 = std::min(b.x0, p.x), b.y0 = std::min(b.y0, p.y), b.x1 = std::max(b.x1, p.x), b.y1 = std::max(b.y1, p.y);
  return b;
}

class Checker {
 public:
  Checker(const Scene& scene, const Image& image, const CrossCheckOptions& options)
      : image_(image), options_(options), bands_(options_.bands, scene.frame) {
    out_.detections = detect(image);
    gray_ = gray_of(image);
    ink_ = gray_ < out_.detections.ink_threshold;
    stroke_ = estimate_stroke_width();
    // Tick marks, angle arcs, arrowheads and text are not what a scene describes: an unexplained
    // detection must be a tenth of the picture long (a line) or wide (a circle) to count.
    const double longer = std::max(image.width, image.height);
    min_extra_line_ = std::max(20.0, 0.1 * longer), min_extra_radius_ = std::max(6.0, 0.05 * longer);
    bool fills = false;
    out_.scale = scale_for_image(scene.frame, image.width, image.height, fills);
    fig_ = build_figure(scene, image.width, image.height, out_.scale);
    if (!fills) {
      out_.offset = register_offset();
      fig_ = build_figure(scene, image.width, image.height, out_.scale, out_.offset);
    }
  }

  CrossCheck run() {
    for (const auto& problem : fig_.problems)
      add(FindingKind::not_visible, {problem}, "no coordinates: cannot be drawn or checked", std::nullopt, {});
    check_visibility();
    match_lines();
    match_rounds();
    match_closed_shapes();
    match_letters();
    match_arrowheads();
    measure_gaps();
    std::erase_if(out_.counts, [](const auto& entry) { return entry.second.symbolic == 0 && entry.second.extra == 0; });
    for (const auto& [category, count] : out_.counts)
      if (count.symbolic != count.matched || count.extra > 0)
        add(FindingKind::count_mismatch, {},
            category + ": " + std::to_string(count.symbolic) + " in the scene, " + std::to_string(count.matched) +
                " of them detected, " + std::to_string(count.extra) + " unexplained detections",
            std::nullopt, {});
    out_.agree = out_.reasons.empty();
    return std::move(out_);
  }

 private:
  void add(FindingKind kind, std::vector<std::string> elements, std::string detail, std::optional<double> value_px,
           std::vector<P2> where) {
    Reason r;
    static_cast<Finding&>(r) = make_finding(kind, std::move(elements), std::move(detail), value_px);
    r.where = std::move(where);
    out_.reasons.push_back(std::move(r));
  }

  bool inside(P2 p, double margin = 0) const {
    return p.x >= -margin && p.y >= -margin && p.x <= image_.width + margin && p.y <= image_.height + margin;
  }

  double gray_at(P2 p) const {  // bilinear
    const double x = std::clamp(p.x - 0.5, 0.0, gray_.cols - 1.001), y = std::clamp(p.y - 0.5, 0.0, gray_.rows - 1.001);
    const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
    const double fx = x - x0, fy = y - y0;
    auto g = [&](int xx, int yy) { return static_cast<double>(gray_.at<std::uint8_t>(yy, xx)); };
    return (1 - fy) * ((1 - fx) * g(x0, y0) + fx * g(x0 + 1, y0)) +
           fy * ((1 - fx) * g(x0, y0 + 1) + fx * g(x0 + 1, y0 + 1));
  }

  // Twice the typical half-width of ink (distance-transform ridge), for users' images whose
  // stroke width is unknown.
  double estimate_stroke_width() const {
    cv::Mat dt;
    cv::distanceTransform(ink_, dt, cv::DIST_L2, 3);
    std::vector<float> ridge;
    for (int y = 1; y + 1 < dt.rows; ++y)
      for (int x = 1; x + 1 < dt.cols; ++x) {
        const float v = dt.at<float>(y, x);
        if (v > 0 && v >= dt.at<float>(y, x - 1) && v >= dt.at<float>(y, x + 1) && v >= dt.at<float>(y - 1, x) &&
            v >= dt.at<float>(y + 1, x))
          ridge.push_back(v);
      }
    if (ridge.empty()) return 2;
    std::nth_element(ridge.begin(), ridge.begin() + ridge.size() / 2, ridge.end());
    return std::clamp(2.0 * ridge[ridge.size() / 2], 1.0, 8.0);
  }

  // The translation that puts the scene's strokes on ink: the least mean distance to ink (capped
  // at 8 px) over every offset that keeps the frame near the image, coarse then fine.
  P2 register_offset() const {
    cv::Mat paper = ink_ == 0, distance;
    cv::distanceTransform(paper, distance, cv::DIST_L2, 3);
    std::vector<P2> points;
    for (const Curve& c : fig_.curves)
      for (const P2& p : samples(c.path, c.closed)) points.push_back(p);
    if (points.empty()) return {};
    const std::size_t stride = std::max<std::size_t>(1, points.size() / 600);
    const auto [x0, y0, x1, y1] = bounds_of(points);
    auto cost = [&](int dx, int dy) {
      double sum = 0;
      for (std::size_t i = 0; i < points.size(); i += stride) {
        const int x = static_cast<int>(points[i].x) + dx, y = static_cast<int>(points[i].y) + dy;
        sum +=
            x < 0 || y < 0 || x >= distance.cols || y >= distance.rows ? 8.0 : std::min(8.0f, distance.at<float>(y, x));
      }
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

  // Samples every pixel along a path (closed paths include the closing piece).
  static std::vector<P2> samples(const std::vector<P2>& path, bool closed) {
    std::vector<P2> out;
    if (path.size() == 1) out.push_back(path[0]);
    for (std::size_t i = 0; i + 1 < path.size() + (closed ? 1 : 0); ++i) {
      const P2 a = path[i], b = path[(i + 1) % path.size()];
      const int n = std::max(1, static_cast<int>(dist(a, b)));
      for (int k = 0; k < n; ++k) out.push_back({a.x + (b.x - a.x) * k / n, a.y + (b.y - a.y) * k / n});
    }
    return out;
  }

  // --- visibility: size, canvas and ink coverage of every stroke ---------------------------
  void check_visibility() {
    for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
      const Curve& c = fig_.curves[i];
      const auto [x0, y0, x1, y1] = bounds_of(c.path);
      const P2 centre{(x0 + x1) / 2, (y0 + y1) / 2};
      if (x1 < 0 || y1 < 0 || x0 > image_.width || y0 > image_.height) {
        add(FindingKind::off_canvas, {c.element},
            "drawn entirely outside the " + std::to_string(image_.width) + " × " + std::to_string(image_.height) +
                " image",
            std::nullopt, {});
        hidden_.insert(i);
        continue;
      }
      const double size = c.model != Curve::Model::polyline ? std::min(c.a, c.b) : std::hypot(x1 - x0, y1 - y0) / 2;
      // A stroke whose whole width (2 × size) is within the visual threshold is a dot.
      if (bands_.decide_px(2 * size) != Decision::fails) {
        const std::string what = c.model == Curve::Model::circle    ? "radius "
                                 : c.model == Curve::Model::ellipse ? "minor semi-axis "
                                                                    : "half-size ";
        add(FindingKind::not_visible, {c.element},
            what + fixed(size, 2) + " px is below " + fixed(bands_.bands().eps_vis_px / 2) + " px: drawn as a dot",
            size, {centre});
        hidden_.insert(i);
        continue;
      }
      std::size_t total = 0, covered = 0;
      for (const P2& p : samples(c.path, c.closed)) {
        if (!inside(p)) continue;
        ++total;
        covered += ink_within_pixel(ink_, p);
      }
      const double coverage = total ? static_cast<double>(covered) / total : 0;
      const double needed = c.dashed ? 0.35 : options_.min_coverage;
      if (total && coverage < needed) {
        add(FindingKind::not_visible, {c.element},
            "ink along " + fixed(100 * coverage, 0) + " % of its stroke (needs " + fixed(100 * needed, 0) + " %)",
            std::nullopt, {centre});
        hidden_.insert(i);
      }
    }
  }

  bool hidden_straight(std::size_t s) const {
    for (std::size_t i : hidden_)
      if (std::count(fig_.curves[i].straights.begin(), fig_.curves[i].straights.end(), s)) return true;
    return false;
  }

  // Share of the piece ab that detected segments lying along it cover.
  double detected_share(P2 a, P2 b) const {
    const double len = dist(a, b);
    if (len == 0) return 0;
    const double ux = (b.x - a.x) / len, uy = (b.y - a.y) / len, tol = 3 + stroke_ / 2;
    std::vector<std::pair<double, double>> spans;
    for (const auto& s : out_.detections.segments) {
      const double sl = dist(s.a, s.b);
      if (sl == 0 || std::abs(((s.b.x - s.a.x) * ux + (s.b.y - s.a.y) * uy) / sl) < std::cos(3 * kPi / 180)) continue;
      auto off = [&](P2 p) { return std::abs(-(p.x - a.x) * uy + (p.y - a.y) * ux); };
      if (off(s.a) > tol || off(s.b) > tol) continue;
      double t0 = (s.a.x - a.x) * ux + (s.a.y - a.y) * uy, t1 = (s.b.x - a.x) * ux + (s.b.y - a.y) * uy;
      if (t0 > t1) std::swap(t0, t1);
      t0 = std::max(t0, 0.0), t1 = std::min(t1, len);
      if (t1 > t0) spans.emplace_back(t0, t1);
    }
    std::sort(spans.begin(), spans.end());
    double covered = 0, reach = 0;
    for (auto [t0, t1] : spans) {
      t0 = std::max(t0, reach);
      if (t1 > t0) covered += t1 - t0, reach = t1;
    }
    return covered / len;
  }

  // On a stroke of the scene: a detection there belongs to the drawing (an arc's chord, the
  // corner where two strokes join), not to something the scene does not draw.
  bool on_scene_stroke(P2 p, double tol) const {
    for (const Curve& c : fig_.curves)
      if (distance_to_path(p, c.path, c.closed) <= tol) return true;
    return false;
  }
  bool in_text(P2 p) const {
    for (const auto& g : out_.detections.glyphs)
      if (in_box(p, g, 2)) return true;
    for (const Text& t : fig_.texts)
      if (dist(p, t.center) <= fig_.font_px * (0.6 + 0.35 * t.text.size())) return true;
    return false;
  }

  // --- lines: the scene's straight strokes and the detected segments, clustered alike ------
  void match_lines() {
    std::vector<Detections::Segment> pieces;
    std::vector<std::string> names;
    for (std::size_t s = 0; s < fig_.straights.size(); ++s) {
      const Straight& st = fig_.straights[s];
      if (hidden_straight(s)) continue;
      pieces.push_back({st.a, st.b});
      names.push_back(st.element);
    }
    const auto symbolic = cluster_segments(pieces);
    std::vector<bool> used(out_.detections.lines.size(), false);
    Count& count = out_.counts["lines"];
    for (const auto& line : symbolic) {
      if (dist(line.a, line.b) < kMinDetectablePx) continue;  // too short for any line detector
      ++count.symbolic;
      std::set<std::string> elements;
      for (std::size_t k : line.segments) elements.insert(names[k]);
      // Matched when detected segments cover a fair share of the pieces that are long enough.
      double covered = 0, length = 0;
      for (std::size_t k : line.segments) {
        const double len = dist(pieces[k].a, pieces[k].b);
        if (len < kMinDetectablePx) continue;
        length += len;
        covered += len * detected_share(pieces[k].a, pieces[k].b);
      }
      for (std::size_t d = 0; d < out_.detections.lines.size(); ++d)
        if (same_line(line, out_.detections.lines[d])) used[d] = true;
      if (length > 0 && covered / length >= 0.5) {
        ++count.matched;
      } else {
        add(FindingKind::not_detected, {elements.begin(), elements.end()},
            "line detected along " + fixed(length > 0 ? 100 * covered / length : 0, 0) + " % of its drawn length",
            std::nullopt, {midpoint(line.a, line.b)});
      }
    }
    for (std::size_t d = 0; d < out_.detections.lines.size(); ++d) {
      const auto& line = out_.detections.lines[d];
      // A line is ink along most of its extent; scattered noise segments that happen to line up
      // are not.
      if (used[d] || line.length < min_extra_line_ || line.length < 0.5 * dist(line.a, line.b)) continue;
      const P2 mid = midpoint(line.a, line.b);
      const double tol = 3 + stroke_;
      if (on_scene_stroke(line.a, tol) && on_scene_stroke(line.b, tol) && on_scene_stroke(mid, tol)) continue;
      if (in_text(line.a) && in_text(line.b)) continue;
      ++count.extra;
      add(FindingKind::extra_detection, {},
          "a line the scene does not draw, " + fixed(dist(line.a, line.b), 0) + " px long", std::nullopt, {mid});
    }
  }

  bool same_line(const Detections::Line& s, const Detections::Line& d) const {
    const double diff = std::abs(s.theta_deg - d.theta_deg);
    const double angle = std::min(diff, 180 - diff);
    if (angle > 3) return false;
    const double t = d.theta_deg * kPi / 180, tol = 3 + stroke_;
    auto off = [&](P2 p) { return std::abs(p.x * std::cos(t) + p.y * std::sin(t) - d.rho); };
    return off(s.a) <= tol && off(s.b) <= tol;
  }

  // --- circles, ellipses and circular layers ---------------------------------------------
  static bool round_matches(const Curve& c, const Detections::Ellipse& e) {
    const double tol = 3 + 0.03 * c.a;
    if (dist(c.center, e.center) > tol) return false;
    if (c.model == Curve::Model::circle) return std::abs(e.a - c.a) <= tol && std::abs(e.b - c.a) <= tol;
    const double a = std::max(c.a, c.b), b = std::min(c.a, c.b), axis_tol = 3 + 0.05 * a;
    if (std::abs(e.a - a) > axis_tol || std::abs(e.b - b) > axis_tol) return false;
    if (a / b < 1.15) return true;
    const double major = c.a >= c.b ? c.angle_deg : c.angle_deg + 90;
    const double diff = std::fmod(std::abs(major - e.angle_deg), 180);
    return std::min(diff, 180 - diff) <= 5;
  }

  void match_rounds() {
    std::vector<bool> used(out_.detections.ellipses.size(), false);
    for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
      const Curve& c = fig_.curves[i];
      if (c.model == Curve::Model::polyline || !c.full) continue;
      Count& count = out_.counts[c.category];
      if (hidden_.count(i)) continue;
      ++count.symbolic;
      bool found = false;
      for (std::size_t d = 0; d < used.size(); ++d)
        if (!used[d] && round_matches(c, out_.detections.ellipses[d])) used[d] = found = true;
      if (found)
        ++count.matched;
      else
        add(FindingKind::not_detected, {c.element},
            c.category == "ellipses" ? "no ellipse detected here" : "no circle detected here", std::nullopt,
            {c.center});
    }
    for (std::size_t d = 0; d < used.size(); ++d) {
      if (used[d]) continue;
      const auto& e = out_.detections.ellipses[d];
      if (e.a < min_extra_radius_ || in_text(e.center)) continue;
      // Part of an arc, a sector or a spiral of the scene (or of a circle already matched)?
      constexpr int kSamples = 36;
      const EllipsePoints outline(e);
      int near = 0;
      for (int k = 0; k < kSamples; ++k) near += on_scene_stroke(outline.at(2 * kPi * k / kSamples), 3 + stroke_);
      if (near >= 0.6 * kSamples) continue;
      const std::string category = e.circle || e.a / e.b < 1.1 ? "circles" : "ellipses";
      ++out_.counts[category].extra;
      add(FindingKind::extra_detection, {},
          "a " + std::string(category == "circles" ? "circle" : "ellipse") + " the scene does not draw (semi-axes " +
              fixed(e.a) + ", " + fixed(e.b) + " px)",
          std::nullopt, {e.center});
    }
  }

  // --- polygons, stars, sectors, boxes: every side found; curves without a detector --------
  void match_closed_shapes() {
    std::map<std::string, std::vector<std::size_t>> by_element;  // an element may have several strokes (arcs)
    for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
      const Curve& c = fig_.curves[i];
      if (c.model != Curve::Model::polyline || c.category == "lines") continue;
      by_element[c.category + "\n" + c.element].push_back(i);
    }
    for (const auto& [key, strokes] : by_element) {
      const std::string category = key.substr(0, key.find('\n')), element = key.substr(key.find('\n') + 1);
      Count& count = out_.counts[category];
      if (std::any_of(strokes.begin(), strokes.end(), [&](std::size_t i) { return hidden_.count(i) > 0; })) continue;
      ++count.symbolic;
      std::vector<P2> missing;
      for (std::size_t i : strokes)
        for (std::size_t s : fig_.curves[i].straights) {
          const Straight& st = fig_.straights[s];
          if (dist(st.a, st.b) >= kMinDetectablePx && detected_share(st.a, st.b) < 0.5)
            missing.push_back(midpoint(st.a, st.b));
        }
      // Arcs, spirals and links have no detector of their own: their ink coverage (checked in
      // check_visibility) stands for the match.
      if (missing.empty())
        ++count.matched;
      else
        add(FindingKind::not_detected, {element},
            std::to_string(missing.size()) + " side(s) not found by the line detector", std::nullopt, missing);
    }
  }

  // --- letters: a glyph near each labelled point ------------------------------------------
  void match_letters() {
    std::vector<bool> used(out_.detections.glyphs.size(), false);
    Count& count = out_.counts["letters"];
    // Users' pictures letter at their own size: the median glyph height stands for it.
    std::vector<int> heights;
    for (const auto& g : out_.detections.glyphs) heights.push_back(g.height);
    std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
    const double letter_size = std::max(fig_.font_px, heights.empty() ? 0.0 : 0.8 * heights[heights.size() / 2]);
    for (const Text& t : fig_.texts) {
      if (!t.letter || !inside(t.anchor)) continue;
      ++count.symbolic;
      const double reach = 2.5 * letter_size;
      std::size_t best = used.size();
      double best_d = reach;
      for (std::size_t g = 0; g < used.size(); ++g) {
        const auto& box = out_.detections.glyphs[g];
        const double d = dist(t.anchor, {box.x + box.width / 2.0, box.y + box.height / 2.0});
        if (!used[g] && d < best_d) best_d = d, best = g;
      }
      if (best < used.size()) {
        used[best] = true;
        ++count.matched;
      } else {
        add(FindingKind::not_detected, {t.element},
            "no letter-sized mark within " + fixed(reach, 0) + " px of point " + t.text, std::nullopt, {t.anchor});
      }
    }
  }

  void match_arrowheads() {
    if (fig_.heads.empty()) return;
    Count& count = out_.counts["arrowheads"];
    for (const Head& h : fig_.heads) {
      ++count.symbolic;
      const P2 c{(h.tip.x + h.left.x + h.right.x) / 3, (h.tip.y + h.left.y + h.right.y) / 3};
      const double reach = std::max(4.0, dist(h.tip, h.left) * 0.6);
      if (std::any_of(out_.detections.arrowheads.begin(), out_.detections.arrowheads.end(),
                      [&](P2 d) { return dist(c, d) <= reach; }))
        ++count.matched;
      else
        add(FindingKind::not_detected, {h.element}, "no arrowhead detected at the link's end", std::nullopt, {c});
    }
  }

  // --- tangencies and near-tangencies: the gap between two strokes in the image -----------
  // Background between the two strokes along the line through their closest points p and q
  // (direction u): the stroke nearest p and the stroke nearest q are found on the gray profile,
  // and the white between them measured; 0 when they are one merged stroke. Strokes of other
  // elements further along the profile do not count.
  double image_gap(P2 p, P2 q, P2 u) const {
    const double step = 0.25, reach = dist(p, q) / 2 + stroke_ + 3;
    const P2 m = midpoint(p, q);
    std::vector<bool> ink;
    for (double t = -reach; t <= reach; t += step)
      ink.push_back(gray_at({m.x + t * u.x, m.y + t * u.y}) < out_.detections.ink_threshold);
    auto index_of = [&](P2 x) {
      const double t = (x.x - m.x) * u.x + (x.y - m.y) * u.y;
      return std::clamp(static_cast<long>(std::lround((t + reach) / step)), 0L, static_cast<long>(ink.size()) - 1);
    };
    auto nearest_ink = [&](long i) -> long {
      for (long d = 0; d < static_cast<long>(ink.size()); ++d) {
        if (i - d >= 0 && ink[i - d]) return i - d;
        if (i + d < static_cast<long>(ink.size()) && ink[i + d]) return i + d;
      }
      return -1;
    };
    long a = nearest_ink(index_of(p)), b = nearest_ink(index_of(q));
    if (a < 0 || b < 0) return dist(p, q);  // no ink at all: not drawn here
    if (a > b) std::swap(a, b);
    while (a < b && ink[a + 1]) ++a;  // the end of p's stroke
    while (b > a && ink[b - 1]) --b;  // the start of q's stroke
    return b > a ? (b - a - 1) * step : 0;
  }

  // `scene` is geometry's exact decision on the scene's own gap; the picture is measured here.
  void judge_gap(const std::string& a, const std::string& b, const geometry::GapDecision& scene, P2 p, P2 q, P2 u) {
    const double symbolic = scene.slack_px, measured = image_gap(p, q, u);
    out_.gaps.push_back({{a, b}, symbolic, measured});
    const P2 m = midpoint(p, q);
    const Decision scene_gap = scene.decision;
    if (scene_gap != Decision::holds && measured == 0)
      add(FindingKind::pixel_ambiguous, {a, b},
          a + " and " + b + " are " + fixed(symbolic, 2) +
              " px apart in the scene but their strokes merge in the image",
          symbolic, {m});
    else if (scene_gap == Decision::holds && measured >= 1)
      add(FindingKind::pixel_disagreement, {a, b},
          a + " and " + b + " touch in the scene but are " + fixed(measured) + " px apart in the image", measured, {m});
  }

  void measure_gaps() {
    const double band = 2 * stroke_ + 3;
    std::vector<std::size_t> rounds;
    for (std::size_t i = 0; i < fig_.curves.size(); ++i)
      if (fig_.curves[i].model == Curve::Model::circle && !hidden_.count(i)) rounds.push_back(i);
    auto on_stroke = [&](const Curve& c, P2 p) { return c.full || distance_to_path(p, c.path, false) <= 1; };
    for (std::size_t x = 0; x < rounds.size(); ++x) {
      const Curve& c1 = fig_.curves[rounds[x]];
      for (std::size_t y = x + 1; y < rounds.size(); ++y) {
        const Curve& c2 = fig_.curves[rounds[y]];
        if (c1.element == c2.element) continue;
        const double d = dist(c1.center, c2.center);
        if (d == 0) continue;
        const double external = std::abs(d - c1.a - c2.a), internal = std::abs(d - std::abs(c1.a - c2.a));
        if (std::min(external, internal) > band) continue;
        const P2 u{(c2.center.x - c1.center.x) / d, (c2.center.y - c1.center.y) / d};
        P2 p, q;
        if (external <= internal) {
          p = {c1.center.x + c1.a * u.x, c1.center.y + c1.a * u.y},
          q = {c2.center.x - c2.a * u.x, c2.center.y - c2.a * u.y};
        } else {
          const double s = c1.a >= c2.a ? 1 : -1;  // the direction from the bigger centre to the smaller
          p = {c1.center.x + s * c1.a * u.x, c1.center.y + s * c1.a * u.y},
          q = {c2.center.x + s * c2.a * u.x, c2.center.y + s * c2.a * u.y};
        }
        if (on_stroke(c1, p) && on_stroke(c2, q) && c1.exact_center && c2.exact_center)
          judge_gap(c1.element, c2.element,
                    geometry::circle_circle_gap(*c1.exact_center, c1.exact_radius2, *c2.exact_center, c2.exact_radius2,
                                                bands_),
                    p, q, u);
      }
      for (std::size_t s = 0; s < fig_.straights.size(); ++s) {
        const Straight& st = fig_.straights[s];
        if (st.element == c1.element || hidden_straight(s)) continue;
        const double len = dist(st.a, st.b);
        if (len == 0) continue;
        const double t =
            ((c1.center.x - st.a.x) * (st.b.x - st.a.x) + (c1.center.y - st.a.y) * (st.b.y - st.a.y)) / (len * len);
        if (t < 0 || t > 1) continue;
        const P2 foot{st.a.x + t * (st.b.x - st.a.x), st.a.y + t * (st.b.y - st.a.y)};
        const double d = dist(foot, c1.center);
        if (d == 0 || std::abs(d - c1.a) > band) continue;
        const P2 p{c1.center.x + (foot.x - c1.center.x) * c1.a / d, c1.center.y + (foot.y - c1.center.y) * c1.a / d};
        if (on_stroke(c1, p) && c1.exact_center)
          judge_gap(c1.element, st.element,
                    geometry::circle_segment_gap(*c1.exact_center, c1.exact_radius2, st.exact_a, st.exact_b, bands_), p,
                    foot, {(foot.x - c1.center.x) / d, (foot.y - c1.center.y) / d});
      }
    }
  }

  const Image& image_;
  CrossCheckOptions options_;
  FrameBands bands_;
  Figure fig_;
  CrossCheck out_;
  cv::Mat gray_, ink_;
  double stroke_ = 2, min_extra_line_ = 20, min_extra_radius_ = 6;
  std::set<std::size_t> hidden_;  // curves not visible: not expected to be detected
};

}  // namespace

CrossCheck crosscheck(const Scene& scene, const Image& image, const CrossCheckOptions& options) {
  return Checker(scene, image, options).run();
}

Image overlay(const Scene& scene, const Image& image, const CrossCheck& check) {
  const cv::Mat rgb(image.height, image.width, CV_8UC3, const_cast<std::uint8_t*>(image.rgb.data()));
  cv::Mat canvas;
  cv::addWeighted(rgb, 0.35, cv::Mat(rgb.size(), CV_8UC3, cv::Scalar(255, 255, 255)), 0.65, 0, canvas);
  const cv::Scalar blue(40, 90, 220), orange(245, 140, 20), red(220, 20, 20);  // RGB order
  auto pt = [](P2 p) {
    return cv::Point(static_cast<int>(std::lround(p.x * 4)), static_cast<int>(std::lround(p.y * 4)));
  };
  const int shift = 2;  // quarter-pixel coordinates
  const Figure fig = build_figure(scene, image.width, image.height, check.scale, check.offset);
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
  for (const auto& r : check.reasons)
    for (const P2& p : r.where) cv::circle(canvas, pt(p), 12 * 4, red, 2, cv::LINE_AA, shift);
  Image out{canvas.cols, canvas.rows, {}};
  out.rgb.assign(canvas.data, canvas.data + canvas.total() * 3);
  return out;
}

}  // namespace geotruth::vision
