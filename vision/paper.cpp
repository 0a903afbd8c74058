#include "vision/paper.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "vision/pixels.hpp"

namespace geotruth::vision {
namespace {

// A pixel this much darker than the paper may be ink even on a spotless image: below it are the
// faint halos of anti-aliasing and JPEG ringing.
constexpr double kInkFloor = 10;
// Ink is at least this many σ of the (smoothed) noise darker than the paper: a pure-noise pixel
// passes it about once in 30,000.
constexpr double kInkNoiseFactor = 4;

// The paper's level: the most frequent gray level, its histogram smoothed over ±2 levels (JPEG
// and noise spread a white background over a few levels). The mode itself, not a mean about it:
// noise clipped at white piles up at 255, and any mean would sit below the paper.
double paper_level(const cv::Mat& gray) {
  std::array<double, 256> hist{};
  for (int y = 0; y < gray.rows; ++y) {
    const std::uint8_t* row = gray.ptr<std::uint8_t>(y);
    for (int x = 0; x < gray.cols; ++x) ++hist[row[x]];
  }
  int mode = 255;
  double best = -1;
  for (int v = 0; v < 256; ++v) {
    double sum = 0;
    for (int d = -2; d <= 2; ++d)
      if (v + d >= 0 && v + d < 256) sum += hist[v + d];
    if (sum > best) best = sum, mode = v;
  }
  // The most frequent level within the densest window (a plateau of equal windows starts at its
  // first level, not at its peak).
  int peak = mode;
  for (int v = std::max(0, mode - 2); v <= std::min(255, mode + 2); ++v)
    if (hist[v] > hist[peak]) peak = v;
  return peak;
}

// The paper's darkness level and the noise's σ about it, from the darkness of every pixel: in a
// line drawing most pixels are paper, so the median is the paper's level and the 75th percentile
// lies 0.6745 σ above it for Gaussian noise, symmetric (gray paper) or clipped at white (then half
// the pixels sit exactly at the paper's level, the median). Strokes, a small share of the pixels,
// move both little. Measured on the picture as it is (JPEG's smoothing included), not on a
// high-pass filter that compression empties.
struct Spread {
  double level = 0, sigma = 0;
};
Spread spread_of(const cv::Mat& signed_darkness) {
  std::vector<float> v;
  v.reserve(signed_darkness.total());
  for (int y = 0; y < signed_darkness.rows; ++y) {
    const float* row = signed_darkness.ptr<float>(y);
    v.insert(v.end(), row, row + signed_darkness.cols);
  }
  if (v.empty()) return {};
  auto middle = v.begin() + static_cast<std::ptrdiff_t>(0.5 * (v.size() - 1));
  std::nth_element(v.begin(), middle, v.end());
  const double median = *middle;
  auto upper = v.begin() + static_cast<std::ptrdiff_t>(0.75 * (v.size() - 1));
  std::nth_element(middle, upper, v.end());
  return {median, std::max(0.0, *upper - median) / 0.6745};
}

// Darkness against the paper's level, signed (negative: lighter than the paper).
cv::Mat signed_darkness(const cv::Mat& gray, double background, bool dark_paper) {
  cv::Mat out;
  gray.convertTo(out, CV_32F, dark_paper ? 1.0 : -1.0, dark_paper ? -background : background);
  return out;
}

// Whether the median filter's large changes are hairlines it would wear away, with no specks to
// remove: a speck of salt and pepper is a lone pixel (no changed neighbour), a one-pixel line
// changes along its length. Of 50 or more such changes, less than a quarter alone, and those fewer
// than one pixel in 2,000: a clean drawing of hairlines (CountShapes' figures).
bool erases_hairlines(const cv::Mat& gray, const cv::Mat& median) {
  cv::Mat changed;
  cv::absdiff(gray, median, changed);
  changed = changed >= 64;
  cv::Mat ones;
  changed.convertTo(ones, CV_8U, 1.0 / 255);
  cv::Mat neighbours;
  const cv::Mat ring = (cv::Mat_<float>(3, 3) << 1, 1, 1, 1, 0, 1, 1, 1, 1);
  cv::filter2D(ones, neighbours, CV_8U, ring, {-1, -1}, 0, cv::BORDER_CONSTANT);
  const int count = cv::countNonZero(changed);
  const int alone = cv::countNonZero(changed & (neighbours == 0));
  return count >= 50 && 4 * alone < count && 2000.0 * alone < static_cast<double>(gray.total());
}

}  // namespace

Paper measure_paper(const Image& image, Specks specks) {
  Paper paper;
  paper.gray = gray_of(image);
  paper.background = paper_level(paper.gray);
  paper.dark_paper = paper.background < 128;
  paper.noise = spread_of(signed_darkness(paper.gray, paper.background, paper.dark_paper)).sigma;

  cv::Mat smooth = paper.gray;
  // Salt-and-pepper specks: a median filter, only when it changes the picture noticeably (a clean
  // picture keeps its one-pixel lines).
  cv::Mat median;
  cv::medianBlur(paper.gray, median, 3);
  if (cv::norm(paper.gray, median, cv::NORM_L1) / static_cast<double>(paper.gray.total()) > 2.0 &&
      !(specks == Specks::spare_clean_hairlines && paper.noise <= 2 && erases_hairlines(paper.gray, median)))
    smooth = median;
  if (paper.noise > 2) {
    paper.smoothing = 1;
    cv::GaussianBlur(smooth, smooth, {5, 5}, paper.smoothing, paper.smoothing, cv::BORDER_REPLICATE);
  }
  paper.darkness = signed_darkness(smooth, paper.background, paper.dark_paper);
  if (smooth.data == paper.gray.data) {
    paper.noise_smoothed = paper.noise;
  } else {
    // The noise left where the ink decisions are taken, measured there; and the paper's level there
    // (noise clipped at white darkens the paper on average once smoothed) made 0.
    const Spread smoothed = spread_of(paper.darkness);
    paper.darkness -= smoothed.level;
    paper.noise_smoothed = smoothed.sigma;
  }
  paper.ink_level = std::max(kInkFloor, kInkNoiseFactor * paper.noise_smoothed);
  paper.ink = paper.darkness > paper.ink_level;
  return paper;
}

cv::Mat tinted_pixels(const Image& image) {
  constexpr int kTinted = 48;
  cv::Mat out = cv::Mat::zeros(image.height, image.width, CV_8U);
  if (image.rgb.size() != static_cast<std::size_t>(image.width) * image.height * 3) return out;
  for (int i = 0; i < image.width * image.height; ++i) {
    const std::uint8_t* p = &image.rgb[3 * static_cast<std::size_t>(i)];
    if (std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}) >= kTinted) out.data[i] = 255;
  }
  return out;
}

std::optional<ColourLayers> split_coloured_labels(const Image& image) {
  constexpr int kStrong = 96, kNeutral = 32, kDark = 160, kEnough = 20;
  const int n = image.width * image.height;
  if (n <= 0 || image.rgb.size() != static_cast<std::size_t>(n) * 3) return std::nullopt;
  int strong = 0, neutral_dark = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint8_t* p = &image.rgb[3 * static_cast<std::size_t>(i)];
    const int high = std::max({p[0], p[1], p[2]}), chroma = high - std::min({p[0], p[1], p[2]});
    strong += chroma >= kStrong;
    neutral_dark += chroma < kNeutral && high <= kDark;
  }
  if (strong < kEnough || neutral_dark < kEnough) return std::nullopt;
  const cv::Mat tinted = tinted_pixels(image);
  cv::Mat labels, stats, centroids;
  const int count = cv::connectedComponentsWithStats(tinted, labels, stats, centroids, 8, CV_32S);
  const int label_size = std::max(12, std::max(image.width, image.height) / 10);
  long total = 0, small = 0;
  int glyph_like = 0;  // label-sized pieces of a letter's ink (12 px or more), not specks of colour
  for (int c = 1; c < count; ++c) {
    const int area = stats.at<int>(c, cv::CC_STAT_AREA);
    total += area;
    if (std::max(stats.at<int>(c, cv::CC_STAT_WIDTH), stats.at<int>(c, cv::CC_STAT_HEIGHT)) <= label_size)
      small += area, glyph_like += area >= 12;
  }
  if (10 * small < 9 * total || glyph_like < 2) return std::nullopt;
  ColourLayers layers{{image.width, image.height, {}}, {image.width, image.height, {}}};
  layers.strokes.rgb.resize(image.rgb.size());
  layers.labels.rgb.resize(image.rgb.size());
  for (int i = 0; i < n; ++i) {
    const std::size_t at = 3 * static_cast<std::size_t>(i);
    const std::uint8_t* p = &image.rgb[at];
    const std::uint8_t high = std::max({p[0], p[1], p[2]}), low = std::min({p[0], p[1], p[2]});
    const std::uint8_t label = static_cast<std::uint8_t>(255 - (high - low));
    for (int k = 0; k < 3; ++k) layers.strokes.rgb[at + k] = high, layers.labels.rgb[at + k] = label;
  }
  return layers;
}

cv::Mat unsmoothed_ink(const Paper& paper) {
  if (paper.smoothing == 0 && paper.noise_smoothed == paper.noise) return paper.ink;
  return signed_darkness(paper.gray, paper.background, paper.dark_paper) >
         std::max(paper.ink_level, kInkNoiseFactor * paper.noise);
}

double ink_half_thickness(const cv::Mat& ink) {
  cv::Mat dt;
  cv::distanceTransform(ink, dt, cv::DIST_L2, 3);
  std::vector<float> ridge;
  for (int y = 1; y + 1 < dt.rows; ++y)
    for (int x = 1; x + 1 < dt.cols; ++x) {
      const float v = dt.at<float>(y, x);
      if (v > 0 && v >= dt.at<float>(y, x - 1) && v >= dt.at<float>(y, x + 1) && v >= dt.at<float>(y - 1, x) &&
          v >= dt.at<float>(y + 1, x))
        ridge.push_back(v);
    }
  if (ridge.empty()) return 0;
  std::nth_element(ridge.begin(), ridge.begin() + ridge.size() / 2, ridge.end());
  return ridge[ridge.size() / 2];
}

double darkness_at(const Paper& paper, PixelPoint p) {
  const cv::Mat& d = paper.darkness;
  const double x = p.x - 0.5, y = p.y - 0.5;  // pixel (i, j) covers [i, i + 1): its centre is i + 0.5
  if (!(x > -1 && y > -1 && x < d.cols && y < d.rows)) return 0;
  const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
  const double fx = x - x0, fy = y - y0;
  auto at = [&](int xx, int yy) -> double {
    return xx < 0 || yy < 0 || xx >= d.cols || yy >= d.rows ? 0.0 : d.at<float>(yy, xx);
  };
  return (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) +
         fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
}

double peak_darkness_across(const Paper& paper, PixelPoint p, PixelPoint normal, double tolerance) {
  double peak = 0;
  for (double s = -tolerance; s <= tolerance + 1e-9; s += 0.5)
    peak = std::max(peak, darkness_at(paper, {p.x + s * normal.x, p.y + s * normal.y}));
  return peak;
}

}  // namespace geotruth::vision
