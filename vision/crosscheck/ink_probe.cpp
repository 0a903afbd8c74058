// The picture at the places a scene puts things (include/geotruth/vision.hpp, InkProbe): the
// cross-check's counts confirm a difference the picture reader finds by looking at the pixels
// where the scene puts it, with the rules every stroke of the scene is judged by (vision/trace.cpp)
// and the glyph classifier the reader reads letters with (vision/letters.hpp).
#include <cctype>
#include <cmath>
#include <geotruth/ink_probe.hpp>
#include <numbers>

#include "vision/glyphs.hpp"
#include "vision/letters.hpp"
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

double InkProbe::round(PixelPoint centre, double radius) const {
  if (!(radius > 0)) return 0;
  const int n = std::clamp(static_cast<int>(2 * std::numbers::pi * radius / 3), 24, 720);
  std::vector<P2> path;
  for (int k = 0; k < n; ++k) {
    const double t = 2 * std::numbers::pi * k / n;
    path.push_back({centre.x + radius * std::cos(t), centre.y + radius * std::sin(t)});
  }
  const StrokeTrace trace = trace_stroke(*paper_, path, true, tolerance_px_, cv::Mat());
  return trace.samples.empty() ? 0 : trace.coverage;
}

double InkProbe::reads_as(int x, int y, int width, int height, const std::string& text) const {
  if (text.size() != 1) return -1;
  const cv::Rect box = cv::Rect(x, y, width, height) & cv::Rect(0, 0, paper_->ink.cols, paper_->ink.rows);
  if (box.area() == 0 || cv::countNonZero(paper_->ink(box)) == 0) return -1;
  // Lower case shaped like its capital is one class, named by the capital.
  const char c = text[0];
  const std::string wanted(1, case_twin(c) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
  const cv::Mat patch = paper_->ink(box).clone();
  for (const GlyphGuess& g : classify_glyph(patch, 200, Alphabet::diagram_text))
    if (g.text == wanted) return g.confidence;
  return 0;
}

}  // namespace geotruth::vision
