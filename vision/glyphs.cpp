#include "vision/glyphs.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include "vision/paper.hpp"

namespace geotruth::vision {

bool case_twin(char c) {
  return std::string_view("cosuvwxzCOSUVWXZ").find(c) != std::string_view::npos;
}

const std::vector<std::string>& glyph_classes() {
  static const std::vector<std::string> classes = [] {
    std::vector<std::string> out;
    for (char c = 'A'; c <= 'Z'; ++c) out.emplace_back(1, c);
    for (char c = 'a'; c <= 'z'; ++c)
      if (!case_twin(c)) out.emplace_back(1, c);
    for (char c = '0'; c <= '9'; ++c) out.emplace_back(1, c);
    out.emplace_back("'");
    out.emplace_back("");
    return out;
  }();
  return classes;
}

std::size_t no_glyph_class() {
  return glyph_classes().size() - 1;
}

bool allowed(std::size_t label, Alphabet alphabet) {
  const std::string& name = glyph_classes()[label];
  return alphabet == Alphabet::diagram_text || name.empty() || !std::islower(static_cast<unsigned char>(name[0]));
}

std::vector<std::pair<std::size_t, float>> ranked(const cv::Mat& outputs, Alphabet alphabet) {
  std::vector<std::pair<std::size_t, float>> out;
  for (int i = 0; i < outputs.cols; ++i)
    if (allowed(static_cast<std::size_t>(i), alphabet)) out.emplace_back(i, outputs.at<float>(0, i));
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

cv::Mat normalized_glyph(const cv::Mat& strength, const cv::Mat& mask) {
  constexpr int kSpan = 20;
  cv::Mat roi = strength.clone();
  roi.setTo(0, mask == 0);
  const double scale = static_cast<double>(kSpan) / std::max(roi.cols, roi.rows);
  const int w = std::clamp(static_cast<int>(std::lround(roi.cols * scale)), 1, kSpan),
            h = std::clamp(static_cast<int>(std::lround(roi.rows * scale)), 1, kSpan);
  cv::Mat scaled;
  cv::resize(roi, scaled, {w, h}, 0, 0, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
  cv::Mat patch = cv::Mat::zeros(kGlyphPatch, kGlyphPatch, CV_8U);
  scaled.copyTo(patch(cv::Rect((kGlyphPatch - w) / 2, (kGlyphPatch - h) / 2, w, h)));
  return patch;
}

cv::Mat glyph_features(const cv::Mat& patch, double aspect) {
  // 24 × 24 window, 12 × 12 blocks moving by 6, 6 × 6 cells, 9 orientations: 324 values.
  static const cv::HOGDescriptor hog({kGlyphPatch, kGlyphPatch}, {12, 12}, {6, 6}, {6, 6}, 9);
  std::vector<float> values;
  hog.compute(patch, values);
  cv::Mat pooled;
  cv::resize(patch, pooled, {8, 8}, 0, 0, cv::INTER_AREA);
  for (int y = 0; y < pooled.rows; ++y)
    for (int x = 0; x < pooled.cols; ++x) values.push_back(pooled.at<std::uint8_t>(y, x) / 255.0f);
  values.push_back(static_cast<float>(std::clamp(std::log(aspect), -3.0, 3.0)));
  return cv::Mat(values, true).reshape(1, 1);
}

cv::Mat solid_ink(const Paper& paper) {
  std::vector<float> dark;
  for (int y = 0; y < paper.ink.rows; ++y) {
    const std::uint8_t* ink = paper.ink.ptr<std::uint8_t>(y);
    const float* d = paper.darkness.ptr<float>(y);
    for (int x = 0; x < paper.ink.cols; ++x)
      if (ink[x]) dark.push_back(d[x]);
  }
  if (dark.empty()) return paper.ink.clone();
  auto at = dark.begin() + static_cast<std::ptrdiff_t>(0.9 * (dark.size() - 1));
  std::nth_element(dark.begin(), at, dark.end());
  return paper.darkness > std::max<double>(paper.ink_level, 0.5 * *at);
}

cv::Mat glyph_strength(const Paper& paper, const cv::Mat& mask, const cv::Rect& box) {
  const cv::Mat darkness = paper.darkness(box);
  std::vector<float> inked;
  for (int y = 0; y < box.height; ++y)
    for (int x = 0; x < box.width; ++x)
      if (mask.at<std::uint8_t>(y, x)) inked.push_back(darkness.at<float>(y, x));
  double reference = paper.ink_level;
  if (!inked.empty()) {
    auto at = inked.begin() + static_cast<std::ptrdiff_t>(0.75 * (inked.size() - 1));
    std::nth_element(inked.begin(), at, inked.end());
    reference = std::max<double>(reference, *at);
  }
  cv::Mat out;
  darkness.convertTo(out, CV_8U, 255.0 / std::max(reference, 1.0));
  return out;
}

}  // namespace geotruth::vision
