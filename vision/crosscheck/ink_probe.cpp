// The picture at the places a scene puts things (include/geotruth/vision.hpp, InkProbe): the
// cross-check's counts confirm a difference the picture reader finds by looking at the pixels
// where the scene puts it, with the rules every stroke of the scene is judged by (vision/trace.cpp)
// and the glyph classifier the reader reads letters with (vision/letters.hpp).
#include <cctype>
#include <cmath>
#include <geotruth/ink_probe.hpp>
#include <numbers>

#include <opencv2/imgproc.hpp>

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

std::vector<PixelPoint> InkProbe::ink_along(PixelPoint a, PixelPoint b) const {
  std::vector<PixelPoint> out;
  for (const StrokeSample& s : trace_stroke(*paper_, {a, b}, false, tolerance_px_, cv::Mat()).samples)
    if (s.found) out.push_back({s.at.x + s.offset * s.normal.x, s.at.y + s.offset * s.normal.y});
  return out;
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

namespace {

// The glyph's own ink in `box`: the box's darkness split at its own level (Otsu), so that noise
// the picture's ink level lets through does not widen the glyph; specks (pieces under a tenth of
// the largest) dropped. Empty when the box holds no ink.
cv::Mat glyph_ink(const Paper& paper, cv::Rect box) {
  box &= cv::Rect(0, 0, paper.ink.cols, paper.ink.rows);
  if (box.area() == 0 || cv::countNonZero(paper.ink(box)) == 0) return {};
  cv::Mat dark, patch;
  cv::normalize(paper.darkness(box), dark, 0, 255, cv::NORM_MINMAX, CV_8U);
  cv::threshold(dark, patch, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(patch, labels, stats, centroids, 8);
  int largest = 0;
  for (int k = 1; k < n; ++k) largest = std::max(largest, stats.at<int>(k, cv::CC_STAT_AREA));
  for (int k = 1; k < n; ++k)
    if (stats.at<int>(k, cv::CC_STAT_AREA) * 10 < largest) patch.setTo(0, labels == k);
  return patch;
}

}  // namespace

double InkProbe::reads_as(int x, int y, int width, int height, const std::string& text) const {
  if (text.size() != 1) return -1;
  const cv::Mat patch = glyph_ink(*paper_, cv::Rect(x, y, width, height));
  if (patch.empty()) return -1;
  // Lower case shaped like its capital is one class, named by the capital.
  const char c = text[0];
  const std::string wanted(1, case_twin(c) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
  for (const GlyphGuess& g : classify_glyph(patch, 200, Alphabet::diagram_text))
    if (g.text == wanted) return g.confidence;
  return 0;
}

std::pair<std::string, double> InkProbe::best_reading(int x, int y, int width, int height) const {
  const cv::Mat patch = glyph_ink(*paper_, cv::Rect(x, y, width, height));
  if (patch.empty()) return {"", 0};
  const std::vector<GlyphGuess> guesses = classify_glyph(patch, 1, Alphabet::diagram_text);
  return guesses.empty() ? std::pair<std::string, double>{"", 0} : std::pair{guesses[0].text, guesses[0].confidence};
}

}  // namespace geotruth::vision
