// Evidence for one stroke of the scene in the picture: walking along where the scene puts the
// stroke, how dark the picture is across it, and where its ink lies. The cross-check decides
// visibility, contrast, wobble and position from these samples (docs/vision.md, "Matching").
#pragma once

#include <opencv2/core.hpp>

#include <vector>

#include "vision/figure.hpp"
#include "vision/paper.hpp"

namespace geotruth::vision {

struct StrokeSample {
  P2 at;                 ///< on the scene's stroke
  P2 normal;             ///< unit, across the stroke
  bool crowded = false;  ///< another element's stroke passes within the tolerance
  double peak = 0;       ///< the greatest darkness within the tolerance across the stroke
  bool found = false;    ///< ink (darkness ≥ the level) within the tolerance
  double offset = 0;     ///< found: where that ink is along the normal, nearest the stroke first (px)
};

struct StrokeTrace {
  std::vector<StrokeSample> samples;  ///< every ~1.5 px along the stroke, inside the image
  double contrast = 0;                ///< the stroke's darkness: the median peak where it is drawn
  /// How dark the stroke is all along where the scene puts it: the peak of the median darkness
  /// profile across it (away from other strokes), so that a faint stroke in noise still stands out,
  /// bare paper gives about 0, and ink met on a few stretches does not count.
  double presence = 0;
  double coverage = 0;        ///< share of samples with ink within the tolerance
  std::size_t alone = 0;      ///< samples away from other strokes
  double alone_coverage = 1;  ///< share of those with ink: ink no other stroke lends
};

/// Points every `step` px along a path (closed paths include the closing piece), with the unit
/// normal of the piece each lies on.
std::vector<std::pair<P2, P2>> walk(const std::vector<P2>& path, bool closed, double step);

/// Samples the darkness across the path within ±`tolerance` px. `level`: the darkness from which
/// a sample counts as ink; 0: decided from the stroke's own contrast (half of it, and never below
/// the paper's ink level), so a light-gray stroke is judged by its own gray, not by the darkest
/// stroke of the picture. `crowd` (8-bit, may be empty) counts the elements whose strokes pass
/// within the tolerance of each pixel; a sample where it is 2 or more is `crowded`.
StrokeTrace trace_stroke(const Paper& paper, const std::vector<P2>& path, bool closed, double tolerance,
                         const cv::Mat& crowd, double level = 0);

}  // namespace geotruth::vision
