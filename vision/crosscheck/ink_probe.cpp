// Ink along straight stretches of a picture (include/geotruth/vision.hpp, InkProbe): the cross-check's
// counts confirm a difference the picture reader finds by looking at the pixels where the scene
// puts it, with the rule every stroke of the scene is judged by (vision/trace.cpp).
#include <geotruth/vision.hpp>

#include "vision/paper.hpp"
#include "vision/trace.hpp"

namespace geotruth::vision {

struct InkProbe::Paper : vision::Paper {
  explicit Paper(vision::Paper p) : vision::Paper(std::move(p)) {}
};

InkProbe::InkProbe(const Image& image, double tolerance_px)
    : paper_(std::make_unique<Paper>(measure_paper(image))), tolerance_px_(tolerance_px) {}

InkProbe::~InkProbe() = default;

double InkProbe::straight(PixelPoint a, PixelPoint b) const {
  const StrokeTrace trace = trace_stroke(*paper_, {a, b}, false, tolerance_px_, cv::Mat());
  return trace.samples.empty() ? 0 : trace.coverage;
}

}  // namespace geotruth::vision
