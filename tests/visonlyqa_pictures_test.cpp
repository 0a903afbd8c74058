// VisOnlyQA's pictures as AlphaGeometry's drawing code (numericals.py) makes them, drawn here by
// cairo (draw_sheet) so that what is on the picture is known: dots, strokes, and each point's letter
// where the generator's naming rule puts it, worked out by hand below. The cross-check must find
// each letter there (on a large canvas far off its dot, on a small one across the strokes), must
// not find a letter that is not drawn, and must name a circle the scene does not have as a circle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <geotruth/vision.hpp>

#include "scene_of.hpp"
#include "vision/glyph_render.hpp"

namespace geotruth::vision {
namespace {

// A right triangle A(0,0) B(1,0) C(0,1) and a point D far off it, y up, printed to 0.01; D comes
// first so that matplotlib's axes already span it when A, B and C are lettered (no letter is kept
// inside the limits: the 5 % margin of the 2.5-unit extent, 0.125, exceeds every offset below).
const char* kFigure = R"({"id":"lettered","frame":{"width":3,"height":3,"y":"up","px_per_unit":40,"precision":0.01},
  "points":[{"id":"D","at":[2.5,2.5]},{"id":"A","at":[0,0]},{"id":"B","at":[1,0]},{"id":"C","at":[0,1]}],
  "lines":[{"through":["A","B"]},{"through":["A","C"]},{"through":["B","C"]}]})";

// The naming rule by hand (r = 0.08 units; the text's baseline starts 0.08/1.5 left of and below
// the spot 0.08 along the middle of the widest gap between the strokes' crossings of the r-circle):
//  A: strokes at 0° and 90°, widest gap 90°→360°, middle 225°: (-0.0566 - 0.0533, same) = (-0.1099, -0.1099);
//  B: strokes at 135° and 180°, widest gap 180°→495°, middle 337.5°: (1 + 0.0739 - 0.0533, -0.0306 - 0.0533);
//  C: strokes at 270° and 315°, widest gap 315°→630°, middle 112.5°: (-0.0306 - 0.0533, 1 + 0.0739 - 0.0533);
//  D: no stroke near: (2.5 + 0.01, 2.5 + 0.01).
struct Lettered {
  std::string name;
  double x, y;    // the point, figure units
  double tx, ty;  // the text's anchor, figure units
};
const std::vector<Lettered> kLetters = {
    {"D", 2.5, 2.5, 2.51, 2.51},
    {"A", 0, 0, -0.1099, -0.1099},
    {"B", 1, 0, 1.0206, -0.0839},
    {"C", 0, 1, -0.0839, 1.0206},
};

struct Drawing {
  double scale = 300;         // pixels per figure unit
  double x0 = 100, y0 = 850;  // where the figure's origin lands (y down)
  int width = 1000, height = 1000;
  std::vector<std::string> leave_out;  // letters not drawn
  bool extra_circle = false;           // a circle centred (0.5, 0.5), radius 0.5, the scene lacks
};

PixelPoint px(const Drawing& d, double x, double y) {
  return {d.x0 + d.scale * x, d.y0 - d.scale * y};
}

// matplotlib at 100 dpi: 15 pt DejaVu Sans letters (20.8 px to the em, capitals 15.2 px tall and
// about 13 px wide, so their ink is centred (6.5, -7.6) px from the baseline's start), dots of
// s = 15 (2.7 px radius), strokes of 1.2 pt (1.7 px).
Image draw(const Drawing& d) {
  Sheet sheet;
  sheet.width = d.width, sheet.height = d.height;
  auto stroke = [&](double ax, double ay, double bx, double by) {
    sheet.strokes.push_back({{px(d, ax, ay), px(d, bx, by)}, 1.7});
  };
  stroke(0, 0, 1, 0), stroke(0, 0, 0, 1), stroke(1, 0, 0, 1);
  if (d.extra_circle) {
    SheetStroke circle;
    circle.closed = true, circle.width = 1.7;
    for (int k = 0; k < 180; ++k)
      circle.path.push_back(px(d, 0.5 + 0.5 * std::cos(2 * M_PI * k / 180), 0.5 + 0.5 * std::sin(2 * M_PI * k / 180)));
    sheet.strokes.push_back(circle);
  }
  for (const Lettered& l : kLetters) {
    SheetStroke dot;
    dot.closed = dot.filled = true, dot.width = 0.5;
    const PixelPoint c = px(d, l.x, l.y);
    for (int k = 0; k < 16; ++k)
      dot.path.push_back({c.x + 2.7 * std::cos(2 * M_PI * k / 16), c.y + 2.7 * std::sin(2 * M_PI * k / 16)});
    sheet.strokes.push_back(dot);
    if (std::find(d.leave_out.begin(), d.leave_out.end(), l.name) != d.leave_out.end()) continue;
    const PixelPoint anchor = px(d, l.tx, l.ty);
    sheet.texts.push_back({l.name, {anchor.x + 6.5, anchor.y - 7.6}, {"DejaVu Sans"}, 20.8});
  }
  return draw_sheet(sheet);
}

int letters_matched(const CrossCheck& check) {
  const auto it = check.counts.find("letters");
  return it == check.counts.end() ? -1 : it->second.matched;
}

std::string reasons(const CrossCheck& check) {
  std::string out;
  for (const Reason& r : check.reasons) out += r.detail + "\n";
  return out;
}

TEST(VisOnlyQAPictures, LettersFarOffTheirDotsOnALargeCanvasAreFound) {
  // At 300 px per unit A's letter starts 33 px left of and below its dot: more than three letter
  // heights from it, where a nearest-glyph search around the dot does not reach.
  const CrossCheck check = crosscheck(scene_of(kFigure), draw(Drawing{}));
  ASSERT_TRUE(check.mapping.fitted) << check.mapping.reason;
  EXPECT_NEAR(check.mapping.scale, 300, 3);
  EXPECT_EQ(letters_matched(check), 4) << reasons(check);
  EXPECT_TRUE(check.agree) << reasons(check);
}

TEST(VisOnlyQAPictures, ALetterNotDrawnIsMissing) {
  Drawing d;
  d.leave_out = {"C"};
  const CrossCheck check = crosscheck(scene_of(kFigure), draw(d));
  ASSERT_TRUE(check.mapping.fitted) << check.mapping.reason;
  EXPECT_FALSE(check.agree);
  EXPECT_EQ(letters_matched(check), 3) << reasons(check);
  bool named = false;
  for (const Reason& r : check.reasons)
    named |= r.kind == FindingKind::not_detected && r.elements == std::vector<std::string>{"C"};
  EXPECT_TRUE(named) << reasons(check);
}

TEST(VisOnlyQAPictures, LettersAcrossTheStrokesOfASmallCanvasAreFound) {
  // At 60 px per unit the rule sets each letter 5–7 px off its dot: the letters lie on the strokes
  // (B's and C's across the hypotenuse and the legs), as on VisOnlyQA's smallest canvases.
  Drawing d;
  d.scale = 60, d.x0 = 40, d.y0 = 200, d.width = 240, d.height = 240;
  const CrossCheck check = crosscheck(scene_of(kFigure), draw(d));
  ASSERT_TRUE(check.mapping.fitted) << check.mapping.reason;
  EXPECT_EQ(letters_matched(check), 4) << reasons(check);
  EXPECT_TRUE(check.agree) << reasons(check);
  // …and one of them left out is still missed.
  d.leave_out = {"B"};
  const CrossCheck without = crosscheck(scene_of(kFigure), draw(d));
  EXPECT_FALSE(without.agree);
  EXPECT_EQ(letters_matched(without), 3) << reasons(without);
}

TEST(VisOnlyQAPictures, ACircleTheSceneLacksIsNamedAsOneCircle) {
  Drawing d;
  d.extra_circle = true;
  const CrossCheck check = crosscheck(scene_of(kFigure), draw(d));
  ASSERT_TRUE(check.mapping.fitted) << check.mapping.reason;
  EXPECT_FALSE(check.agree);
  int circles = 0, lines = 0;
  for (const Reason& r : check.reasons) {
    if (r.kind != FindingKind::extra_detection) continue;
    if (r.detail.find("a circle the scene does not draw") == 0) {
      ++circles;
      // Centre (0.5, 0.5) and radius 0.5 units: (250, 700) px and 150 px, and back in the frame.
      ASSERT_FALSE(r.where.empty());
      EXPECT_NEAR(r.where[0].x, 250, 2);
      EXPECT_NEAR(r.where[0].y, 700, 2);
      ASSERT_TRUE(r.slack_px);
      EXPECT_NEAR(*r.slack_px, 150, 2);
      EXPECT_NE(r.detail.find("radius 0.50"), std::string::npos) << r.detail;
    }
    lines += r.detail.find("a line the scene does not draw") == 0;
  }
  EXPECT_EQ(circles, 1) << reasons(check);
  EXPECT_EQ(lines, 0) << reasons(check);
}

}  // namespace
}  // namespace geotruth::vision
