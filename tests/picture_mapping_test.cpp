// A frame drawn at a scale of its own (VisOnlyQA's matplotlib figures): the cross-check finds the
// figure→pixel mapping from the picture's point dots. The pictures here are our own renderings
// pasted at a known place on a larger canvas, so the scale and the translation the fit must find
// are known independently of the fit: the rendering's own scale (its width over the frame's) and
// the paste offset.
#include <gtest/gtest.h>

#include <algorithm>
#include <geotruth/vision.hpp>

#include "scene_of.hpp"

namespace geotruth::vision {
namespace {

// A quadrilateral with a diagonal, y up, coordinates printed to 0.01 as VisOnlyQA prints them, and a
// px_per_unit (the generator's smallest canvas) that is not the picture's.
const char* kFigure = R"({"id":"mapped","frame":{"width":4,"height":3,"y":"up","px_per_unit":40,"precision":0.01},
  "points":[{"id":"A","at":[0.6,0.5]},{"id":"B","at":[3.4,0.7]},{"id":"C","at":[2.9,2.5]},{"id":"D","at":[0.9,2.2]}],
  "lines":[{"through":["A","B"]},{"through":["B","C"]},{"through":["C","D"]},{"through":["D","A"]},
  {"through":["A","C"]}]})";

// `picture` pasted on a white canvas `grow` pixels larger each way, its top-left corner at (dx, dy).
Image pasted(const Image& picture, int grow, int dx, int dy) {
  Image out{picture.width + grow, picture.height + grow, {}};
  out.rgb.assign(static_cast<std::size_t>(out.width) * out.height * 3, 255);
  for (int y = 0; y < picture.height; ++y)
    std::copy_n(&picture.rgb[static_cast<std::size_t>(y) * picture.width * 3], picture.width * 3,
                &out.rgb[(static_cast<std::size_t>(y + dy) * out.width + dx) * 3]);
  return out;
}

TEST(PictureMapping, TheScaleAndTranslationOfAPastedRenderingAreFound) {
  const Scene scene = scene_of(kFigure);
  RenderOptions options;
  options.size = 600;  // 150 px per unit on the 4-unit side: not the frame's 40
  const Image drawn = render(scene, options);
  const double scale = static_cast<double>(drawn.width) / 4;
  const int dx = 70, dy = 45;
  const CrossCheck check = crosscheck(scene, pasted(drawn, 200, dx, dy));
  ASSERT_TRUE(check.mapping.fitted) << check.mapping.reason;
  EXPECT_EQ(check.mapping.points, 4);
  EXPECT_EQ(check.mapping.dots, 4);
  EXPECT_TRUE(check.mapping.flipped);
  EXPECT_NEAR(check.mapping.scale, scale, 0.005 * scale);
  EXPECT_NEAR(check.mapping.rotation_deg, 0, 0.2);
  // y up: the frame's origin (its bottom-left corner) lands at the pasted picture's bottom-left.
  EXPECT_NEAR(check.mapping.translation.x, dx, 1.0);
  EXPECT_NEAR(check.mapping.translation.y, dy + 3 * scale, 1.0);
  EXPECT_LT(check.mapping.residual_px, 1.0);
  EXPECT_LE(check.mapping.worst_px, check.mapping.residual_px * 2 + 0.5);
  EXPECT_TRUE(check.agree);
  EXPECT_DOUBLE_EQ(check.scale, check.mapping.scale);
}

TEST(PictureMapping, AMovedPointIsJudgedAfterTheMappingIsFound) {
  // The picture draws D far from where the scene puts it: the other three dots still fix the mapping,
  // and the strokes to D disagree.
  const Scene scene = scene_of(kFigure);
  Scene moved = scene;
  for (Point& p : moved.points)
    if (p.id == "D") p.at = {{Rational(18, 10), Rational(27, 10)}};
  RenderOptions options;
  options.size = 600;
  const CrossCheck check = crosscheck(scene, pasted(render(moved, options), 100, 30, 30));
  ASSERT_TRUE(check.mapping.fitted) << check.mapping.reason;
  EXPECT_EQ(check.mapping.dots, 3);
  // Three dots 2.8 units apart, each centre found within about a pixel (the strokes at a dot pull
  // its ink): the scale within 1 %.
  EXPECT_NEAR(check.mapping.scale, 150, 1.5);
  EXPECT_FALSE(check.agree);
}

TEST(PictureMapping, APictureOfAnotherFigureHasNoMapping) {
  // Three of four dots cannot be put on the scene's points by any scale and shift: no mapping, and
  // the reason says how many matched.
  const Scene scene = scene_of(kFigure);
  Scene other = scene;
  other.points[1].at = {{Rational(1, 10), Rational(29, 10)}};
  other.points[2].at = {{Rational(39, 10), Rational(1, 10)}};
  other.points[3].at = {{Rational(2), Rational(15, 10)}};
  RenderOptions options;
  options.size = 600;
  const CrossCheck check = crosscheck(scene, pasted(render(other, options), 100, 30, 30));
  EXPECT_FALSE(check.mapping.fitted);
  EXPECT_NE(check.mapping.reason.find("points matched a dot"), std::string::npos) << check.mapping.reason;
  EXPECT_FALSE(check.agree);
}

}  // namespace
}  // namespace geotruth::vision
