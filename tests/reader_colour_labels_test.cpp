// Labels in a colour of their own (CountShapes' red letters written over black hairlines, each on an
// opaque box that hides the lines under it): the reader reads the strokes without the labels and
// the labels alone (vision/paper.cpp, split_coloured_labels), carries the strokes on under the
// labels (read_points.cpp, extend_under_labels), and counts the figure as drawn. And the median
// filter against salt and pepper spares a clean drawing of hairlines, which it would erase.
#include <gtest/gtest.h>

#include <geotruth/counts.hpp>
#include <geotruth/incidence.hpp>
#include <geotruth/reader.hpp>
#include <geotruth/vision.hpp>
#include <string>
#include <vector>

#include "figures.hpp"
#include "vision/glyph_render.hpp"
#include "vision/paper.hpp"

namespace geotruth::vision {
namespace {

using Rgb = std::array<std::uint8_t, 3>;

Rgb pixel(const Image& image, int x, int y) {
  const std::size_t at = 3 * (static_cast<std::size_t>(y) * image.width + x);
  return {image.rgb[at], image.rgb[at + 1], image.rgb[at + 2]};
}

void set_pixel(Image& image, int x, int y, Rgb value) {
  const std::size_t at = 3 * (static_cast<std::size_t>(y) * image.width + x);
  for (int c = 0; c < 3; ++c) image.rgb[at + c] = value[c];
}

// A triangle cut by k cevians from its apex and m parallels to its base, drawn as a paint program
// draws it: black hairlines a pixel wide, and a red letter beside every corner and crossing, written
// over the lines on an opaque white patch (2 px about the letter's ink) that hides them there.
// Closed forms: C(k+2,2)·(m+1) triangles, C(k+2,2)·C(m+1,2) convex quadrilaterals.
Image cevians_with_red_labels(int k, int m) {
  const int size = 300;
  const PixelPoint apex{150, 30};
  const double base_y = 270, left = 30, right = 270;
  Sheet lines, labels;
  lines.width = labels.width = lines.height = labels.height = size;
  std::vector<PixelPoint> corners{apex};
  for (int j = 0; j <= k + 1; ++j) {
    const PixelPoint foot{left + (right - left) * j / (k + 1), base_y};
    lines.strokes.push_back({{apex, foot}, 1});
    for (int i = 1; i <= m + 1; ++i) {
      const double t = static_cast<double>(i) / (m + 1);
      corners.push_back({apex.x + t * (foot.x - apex.x), apex.y + t * (foot.y - apex.y)});
    }
  }
  for (int i = 1; i <= m + 1; ++i) {
    const double t = static_cast<double>(i) / (m + 1), y = apex.y + t * (base_y - apex.y);
    lines.strokes.push_back({{{apex.x + t * (left - apex.x), y}, {apex.x + t * (right - apex.x), y}}, 1});
  }
  for (std::size_t c = 0; c < corners.size(); ++c)
    labels.texts.push_back(
        {std::string(1, static_cast<char>('A' + c)), {corners[c].x + 7, corners[c].y - 6}, {"DejaVu Sans"}, 13});
  Image out = draw_sheet(lines);
  const Image letters = draw_sheet(labels);
  auto ink = [&](int x, int y) { return 255 - pixel(letters, x, y)[0]; };
  for (int y = 2; y < size - 2; ++y)
    for (int x = 2; x < size - 2; ++x)
      if (ink(x, y) > 0)
        for (int dy = -2; dy <= 2; ++dy)
          for (int dx = -2; dx <= 2; ++dx) set_pixel(out, x + dx, y + dy, {255, 255, 255});
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      const int a = ink(x, y);  // the letter's red over white, by its coverage
      if (a > 0) set_pixel(out, x, y, {255, static_cast<std::uint8_t>(255 - a), static_cast<std::uint8_t>(255 - a)});
    }
  return out;
}

class RedLabels : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(RedLabels, ACevianTriangleUnderRedLabelsCountsAsItsClosedForms) {
  const auto [k, m] = GetParam();
  const PictureRead read = read_picture(cevians_with_red_labels(k, m), "red-labels");
  Bands bands;
  bands.eps_num_px = read.evidence.eps_num_px, bands.eps_vis_px = read.evidence.eps_vis_px;
  const TangramCounts got =
      count_figure(read.scene, build_incidence(read.scene, IncidenceMode::merged, bands), {true, true});
  const auto binom2 = [](std::size_t n) { return n * (n - 1) / 2; };
  EXPECT_EQ(got.triangles, binom2(k + 2) * (m + 1));
  EXPECT_EQ(got.quadrilaterals, binom2(k + 2) * binom2(m + 1));
  EXPECT_EQ(read.scene.lines.size(), static_cast<std::size_t>(k + 2 + m + 1));
  EXPECT_EQ(got.letters, static_cast<std::size_t>(1 + (k + 2) * (m + 1)));  // every label read, on its point
}

INSTANTIATE_TEST_SUITE_P(Cevians, RedLabels, ::testing::Values(std::tuple{2, 2}, std::tuple{3, 1}, std::tuple{1, 3}));

TEST(ColourLayers, SplitOnlyWhenTheColouredInkIsLettering) {
  const Scene scene = figures::cevian_triangle(1, 1);
  RenderOptions options;
  options.size = 300, options.stroke_width = 1;
  // Gray: black strokes and black letters.
  EXPECT_FALSE(split_coloured_labels(render(scene, options)));
  // A coloured figure (strokes and letters alike red): its coloured ink is mostly long strokes.
  options.color = {220, 20, 30};
  EXPECT_FALSE(split_coloured_labels(render(scene, options)));
  // Black strokes, red letters: two layers.
  const Image picture = cevians_with_red_labels(1, 1);
  const auto layers = split_coloured_labels(picture);
  ASSERT_TRUE(layers);
  int label_pixels = 0;
  for (int y = 0; y < picture.height; ++y)
    for (int x = 0; x < picture.width; ++x) {
      const Rgb p = pixel(picture, x, y);
      if (p[0] < 200 || p[1] > 60 || p[2] > 60) continue;  // not a strongly red pixel
      ++label_pixels;
      EXPECT_GE(pixel(layers->strokes, x, y)[0], 200) << x << "," << y;  // paper in the strokes' layer
      EXPECT_LE(pixel(layers->labels, x, y)[0], 128) << x << "," << y;   // ink in the labels' layer
    }
  EXPECT_GT(label_pixels, 50);
}

// A clean drawing of crossing hairlines, a pixel wide, 10 and 12 px apart: the median filter would
// wear every line away.
Image hairline_grid(int size) {
  Image image{size, size, std::vector<std::uint8_t>(static_cast<std::size_t>(size) * size * 3, 255)};
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x)
      if (x % 10 == 0 || (x + y) % 12 == 0) set_pixel(image, x, y, {0, 0, 0});
  return image;
}

TEST(Specks, TheMedianSparesACleanDrawingOfHairlinesNotSaltAndPepper) {
  const Image grid = hairline_grid(120);
  int drawn = 0;
  for (std::uint8_t v : grid.rgb) drawn += v == 0;
  drawn /= 3;
  EXPECT_EQ(cv::countNonZero(measure_paper(grid, Specks::spare_clean_hairlines).ink), drawn);
  EXPECT_LT(cv::countNonZero(measure_paper(grid).ink), drawn / 2);  // the old rule erases them
  // Black specks on one pixel in 50, spread out (lone): filtered either way.
  Image specks{120, 120, std::vector<std::uint8_t>(120 * 120 * 3, 255)};
  for (int i = 0; i < 120 * 120; i += 50) set_pixel(specks, i % 120, i / 120, {0, 0, 0});
  EXPECT_EQ(cv::countNonZero(measure_paper(specks, Specks::spare_clean_hairlines).ink), 0);
}

}  // namespace
}  // namespace geotruth::vision
