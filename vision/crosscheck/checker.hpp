// The cross-check of one picture against its scene (docs/vision.md), internal to vision/: the state
// its steps share and the step each source implements. vision/crosscheck.cpp runs them in order
// and gives the verdict:
//   register.cpp    the scene on the picture: stroke width, registration, strokes off the canvas
//                   or drawn as dots ("Read the picture" measures the paper: vision/paper.cpp);
//   strokes.cpp     every stroke where the scene puts it: wobble and tolerance, ink at the stroke's
//                   own contrast, ends, a shape drawn elsewhere ("Match every stroke …");
//   categories.cpp  lines, rounds, closed shapes, letters, arrowheads ("Then per category");
//   extras.cpp      what the picture draws and the scene does not ("find_extras");
//   gaps.cpp        tangencies and near-touches measured in the picture;
// and overlay.cpp draws a finished check over its picture.
#pragma once

#include <opencv2/core.hpp>

#include <cmath>
#include <cstddef>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <geotruth/bands.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/vision.hpp>

#include "vision/figure.hpp"
#include "vision/paper.hpp"
#include "vision/trace.hpp"

namespace geotruth::geometry {
struct GapDecision;
}

namespace geotruth::vision::check {

inline std::string fixed(double v, int digits = 1) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

inline P2 midpoint(P2 a, P2 b) {
  return {(a.x + b.x) / 2, (a.y + b.y) / 2};
}

inline std::vector<P2> shifted(const std::vector<P2>& path, P2 by) {
  std::vector<P2> out = path;
  for (P2& p : out) p.x += by.x, p.y += by.y;
  return out;
}

inline std::vector<cv::Point> pixel_path(const std::vector<P2>& path) {
  std::vector<cv::Point> out;
  for (const P2& p : path) out.emplace_back(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
  return out;
}

// What the picture shows of one curve of the figure.
struct CurveEvidence {
  StrokeTrace trace;
  bool hidden = false;      // not to be seen: off the canvas, drawn as a dot, or its ink missing
  bool low = false;         // drawn, but too faint to rely on
  std::optional<P2> shift;  // drawn elsewhere: by this much
};

// Where the figure's generator put a point's letter (AlphaGeometry's naming rule, dots.cpp): the
// point's dot in the picture and the text's anchor, the left end of its baseline, in pixels; the
// rule's choice first, then the other places the rule may have chosen on the unrounded figure.
struct LabelSpot {
  std::string point;
  P2 dot;
  double dot_radius = 0;  // as the dot finder measured it (0: no dot found there)
  std::vector<P2> corners;
};

class Checker {
 public:
  Checker(const Scene& scene, const Image& image, const CrossCheckOptions& options);
  CrossCheck run();

 private:
  void add(FindingKind kind, std::vector<std::string> elements, std::string detail, std::optional<double> value_px,
           std::vector<P2> where);
  bool inside(P2 p, double margin = 0) const {
    return p.x >= -margin && p.y >= -margin && p.x <= image_.width + margin && p.y <= image_.height + margin;
  }
  double needed_coverage(const Curve& c) const { return c.dashed ? 0.35 : options_.min_coverage; }

  // dots.cpp: a frame drawn at a scale of its own, mapped by the picture's point dots.
  bool fit_dots(const Scene& scene);
  void match_read_letters();
  std::vector<P2> dot_candidates(std::size_t points, std::vector<double>& radii) const;
  void place_labels(const Scene& scene, const std::vector<P2>& dots, const std::vector<double>& radii);
  bool letter_ink_at(P2 corner, double height, const std::vector<cv::Rect>& others, cv::Rect& found) const;

  // register.cpp: the scene on the picture.
  double estimate_stroke_width() const;
  const cv::Mat& distance_to_ink();
  double ink_distance(P2 p);
  P2 register_offset();
  void check_placement();

  // strokes.cpp: every stroke where the scene puts it.
  cv::Mat crowd_map(double tolerance) const;
  void measure_wobble();
  void judge_strokes();
  void report_faint(std::size_t i, double darkness, double faint, P2 centre);
  void check_ends(std::size_t i);
  std::optional<P2> drawn_elsewhere(const Curve& c);

  // categories.cpp: what the picture shows of each category.
  bool hidden_straight(std::size_t s) const;
  double piece_coverage(P2 a, P2 b) const;
  bool on_scene_stroke(P2 p, double tol) const;
  bool in_text(P2 p) const;
  void match_lines();
  void match_rounds();
  Detections::Ellipse fit_circle(std::vector<cv::Point2f> points) const;
  static Detections::Ellipse fit_ellipse(const std::vector<cv::Point2f>& points);
  std::string round_mismatch(const Curve& c, const Detections::Ellipse& e) const;
  void match_closed_shapes();
  void match_letters();
  cv::Mat letter_ink() const;
  void match_arrowheads();

  // extras.cpp: what the picture draws and the scene does not.
  void find_extras();
  std::optional<Detections::Ellipse> extra_circle(const cv::Mat& unexplained) const;
  cv::Mat stroke_ink() const;
  bool may_be_unlisted(const Detections::Ellipse& e) const;
  int note_unshown_letters(std::size_t from);
  void note_unlisted(Reason& reason) const;
  void report_unexplained_strokes(const cv::Mat& labels, const cv::Mat& stats, int n, const std::vector<P2>& reported);
  bool stroke_shaped(const cv::Mat& mask) const;

  // gaps.cpp: tangencies and near-touches.
  double image_gap(P2 p, P2 q, P2 u, double level) const;
  void judge_gap(std::size_t i, std::size_t j, const std::string& a, const std::string& b,
                 const geometry::GapDecision& scene, P2 p, P2 q, P2 u);
  std::size_t curve_of_straight(std::size_t s) const;
  void measure_gaps();

  // crosscheck.cpp: the verdict.
  void record_elements();

  const Image& image_;
  CrossCheckOptions options_;
  FrameBands bands_;
  std::vector<LabelSpot> label_spots_;  // fit_dots: where the generator put each point's letter
  Frame fitted_frame_;                  // fit_dots: the scene's frame at the picture's scale (bands_ refers to it)
  Paper paper_;
  Figure fig_;
  CrossCheck out_;
  std::vector<CurveEvidence> evidence_;  // per curve of fig_
  cv::Mat crowd_, distance_to_ink_;
  double stroke_ = 2, min_extra_line_ = 20, min_extra_radius_ = 6, min_extra_stroke_ = 12;
  std::string unlisted_circles_;  // why the scene's description may leave out circles (unlisted_reason)
  std::string unshown_letters_;   // why the picture may not letter every point named (unshown_reason)
};

}  // namespace geotruth::vision::check
