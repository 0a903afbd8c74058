// Circles read from their ink (vision/read/read_rounds.cpp): a proposal kept as a full circle must
// be inked all round and its ink must follow it. A right-angle mark (a small square between two
// strokes) is inked all round by the circle inscribed in it when its strokes are thick, but its ink
// strays from that circle by a median of about 0.08 of the radius: no circle.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "vision/glyph_render.hpp"
#include "vision/paper.hpp"
#include "vision/read/read.hpp"

namespace geotruth::vision {
namespace {

// The reader's sheet for a drawn picture, its strokes `half` px wide on either side of their line.
read::Sheet sheet_of(const Image& image, double half) {
  read::Sheet sheet;
  sheet.paper = measure_paper(image);
  sheet.width = image.width, sheet.height = image.height;
  sheet.half = half, sheet.stroke = 2 * half + 1, sheet.ridge = half + 0.5;
  return sheet;
}

Detections::Ellipse circle_at(double x, double y, double r) {
  Detections::Ellipse e;
  e.center = {x, y}, e.a = e.b = r, e.circle = true;
  return e;
}

// Geometry3K 14: a mark of 30 px, strokes 4 px wide; its inscribed circle (15 px) is proposed. A
// circle of 15 px drawn as wide beside it is read, centre and radius within a pixel.
TEST(ReaderRounds, ARightAngleMarksSquareIsNoCircle) {
  Sheet drawing;
  drawing.width = drawing.height = 200;
  drawing.strokes.push_back({{{20, 100}, {180, 100}}, 4});  // the two strokes the mark sits between
  drawing.strokes.push_back({{{50, 20}, {50, 180}}, 4});
  drawing.strokes.push_back({{{50, 70}, {80, 70}, {80, 100}}, 4});  // the mark
  std::vector<PixelPoint> round;
  for (int k = 0; k <= 72; ++k)
    round.push_back({140 + 15 * std::cos(k * 5 * 3.14159265358979323846 / 180),
                     40 + 15 * std::sin(k * 5 * 3.14159265358979323846 / 180)});
  drawing.strokes.push_back({round, 4});
  const read::Sheet sheet = sheet_of(draw_sheet(drawing), 1.5);
  std::vector<read::Round> rounds;
  std::vector<read::Oval> ovals;
  read::read_rounds(sheet, {circle_at(65, 85, 15), circle_at(140, 40, 15)}, rounds, ovals);
  ASSERT_EQ(rounds.size(), 1u);
  EXPECT_NEAR(rounds[0].centre.x, 140, 1);
  EXPECT_NEAR(rounds[0].centre.y, 40, 1);
  EXPECT_NEAR(rounds[0].radius, 15, 1);
}

// VisOnlyQA 00497noise_1: a circle of 490 px (the picture read at twice its size), its proposal from
// the Hough transform on the picture shrunk to 400 px 30 px off, 6 % of its radius: no ink within the
// stroke's reach of it at half the places round, so it was never refitted. Proposed 5 % off centre
// and 2 % off in radius, with strokes crossing it, it is read within a pixel; a proposal where
// only the straight strokes are is still no circle.
TEST(ReaderRounds, ALargeCircleProposedSeveralPercentOffIsRefittedToItsInk) {
  Sheet drawing;
  drawing.width = drawing.height = 640;
  std::vector<PixelPoint> round;
  for (int k = 0; k <= 360; ++k)
    round.push_back({320 + 250 * std::cos(k * 3.14159265358979323846 / 180),
                     320 + 250 * std::sin(k * 3.14159265358979323846 / 180)});
  drawing.strokes.push_back({round, 2});
  drawing.strokes.push_back({{{20, 320}, {620, 320}}, 2});
  drawing.strokes.push_back({{{100, 40}, {560, 600}}, 2});
  const read::Sheet sheet = sheet_of(draw_sheet(drawing), 1);
  std::vector<read::Round> rounds;
  std::vector<read::Oval> ovals;
  read::read_rounds(sheet, {circle_at(320 + 9, 320 + 9, 255)}, rounds, ovals);
  ASSERT_EQ(rounds.size(), 1u);
  EXPECT_NEAR(rounds[0].centre.x, 320, 1);
  EXPECT_NEAR(rounds[0].centre.y, 320, 1);
  EXPECT_NEAR(rounds[0].radius, 250, 1);

  Sheet strokes_only = drawing;
  strokes_only.strokes.erase(strokes_only.strokes.begin());
  rounds.clear();
  read::read_rounds(sheet_of(draw_sheet(strokes_only), 1), {circle_at(329, 329, 255)}, rounds, ovals);
  EXPECT_TRUE(rounds.empty());
}

// VisOnlyQA 00068: E and H lie 50 px apart on a circle of 196 px, whose arc between them runs 1.6
// px off their chord: the chord is inked all along by the arc, and was read as a line EH. The ink is
// the arc's (darker along it than along the chord); with the chord drawn too, it is a stroke's. A
// long chord, 35 px from its arc, is never the arc's ink, even where the points are read 1.5 px off
// it (VisOnlyQA 00913noise_1's BC: its JPEG samples on the chord were fainter than on the arc).
TEST(ReaderRounds, TheInkBetweenTwoPointsOnACircleNearTheirChordIsTheArcs) {
  const double kPi = 3.14159265358979323846, r = 196;
  auto on_circle = [&](double degrees) {
    return PixelPoint{300 + r * std::cos(degrees * kPi / 180), 300 + r * std::sin(degrees * kPi / 180)};
  };
  std::vector<PixelPoint> round;
  for (int k = 0; k <= 720; ++k) round.push_back(on_circle(k / 2.0));
  const PixelPoint e = on_circle(10), h = on_circle(10 + 2 * std::asin(25 / r) * 180 / kPi);
  std::vector<read::Round> rounds(1);
  rounds[0].centre = {300, 300}, rounds[0].radius = r, rounds[0].full = true;
  for (const bool chord : {false, true}) {
    Sheet drawing;
    drawing.width = drawing.height = 600;
    drawing.strokes.push_back({round, 2});
    if (chord) drawing.strokes.push_back({{e, h}, 2});
    const read::Sheet sheet = sheet_of(draw_sheet(drawing), 1);
    const P2 a{e.x, e.y}, b{h.x, h.y};
    const read::Inking ink = read::inking(sheet, a, b, 5, 5, 2);
    EXPECT_GE(ink.coverage, 0.9) << chord;
    EXPECT_EQ(read::arc_between(sheet, rounds, a, 4, b, 4, ink.contrast), !chord);
  }
  Sheet drawing;
  drawing.width = drawing.height = 600;
  drawing.strokes.push_back({round, 2});
  const PixelPoint far = on_circle(80);  // 225 px from e, the arc 35 px off the chord
  drawing.strokes.push_back({{e, far}, 2});
  const read::Sheet sheet = sheet_of(draw_sheet(drawing), 1);
  const double length = std::hypot(far.x - e.x, far.y - e.y);
  const P2 off{-1.5 * (far.y - e.y) / length, 1.5 * (far.x - e.x) / length};
  EXPECT_FALSE(read::arc_between(sheet, rounds, {e.x + off.x, e.y + off.y}, 4, {far.x + off.x, far.y + off.y}, 4, 180));
}

// A glyph read as `text` at `confidence`, `height` px tall, its box's top left at (x, y).
read::Glyph glyph(const std::string& text, double confidence, int x, int y, int height) {
  read::Glyph g;
  g.text = text, g.confidence = confidence;
  g.box = cv::Rect(x, y, height * 2 / 3, height);
  g.centre = {x + g.box.width / 2.0, y + height / 2.0}, g.height = height;
  return g;
}

// VisOnlyQA 00953noise_1: D's bowl beside its dot read as a round 7.2 px in radius, among capitals
// 16 px tall read surely and a JPEG's blocks read as twelve glyphs 4 to 9 px tall (the median of all
// 9, the upper of the middle two). The letters' height is the sure capitals': the bowl, half a letter, is dropped
// anywhere; a round of 0.6 letters only beside a glyph; one of a letter and more is a circle.
TEST(ReaderRounds, ALettersBowlIsDroppedAtTheCapitalsHeightNotThatOfSpecksReadAsGlyphs) {
  std::vector<read::Glyph> glyphs;
  for (int i = 0; i < 8; ++i) glyphs.push_back(glyph(std::string(1, static_cast<char>('A' + i)), 0.99, 40 * i, 0, 16));
  for (int i = 0; i < 12; ++i) glyphs.push_back(glyph(i % 2 ? "r" : "", 0.6, 40 * i, 400, 4 + i / 2));
  EXPECT_DOUBLE_EQ(read::capital_height(glyphs), 16);
  auto round = [](double x, double y, double r) {
    read::Round c;
    c.centre = {x, y}, c.radius = r;
    return c;
  };
  std::vector<read::Round> rounds{round(200, 200, 7.2), round(300, 200, 9.6), round(10, 30, 9.6), round(200, 300, 16)};
  EXPECT_TRUE(read::drop_letter_bowls(rounds, glyphs));
  ASSERT_EQ(rounds.size(), 2u);
  EXPECT_EQ(rounds[0].centre.x, 300);  // 0.6 letters, no glyph near: kept
  EXPECT_EQ(rounds[1].radius, 16);
  // No glyph read surely as a capital: the median of all the glyphs' heights (the upper of the middle two).
  for (read::Glyph& g : glyphs) g.confidence = 0.5;
  EXPECT_DOUBLE_EQ(read::capital_height(glyphs), 9);
}

// A piece of a straight stroke from (x0, y0) to (x1, y1).
read::Piece piece(double x0, double y0, double x1, double y1) {
  return read::Piece::from_to({x0, y0}, {x1, y1});
}

// A letter's straight bits, like its bowl, are judged at the capitals' height: among the same 16 px
// capitals and specks (all glyphs' median 9), a free bit 18 px long (1.1 letters, 2 of the specks'
// median) is a letter's bit and dropped; as long a bit between two strokes, or a stroke and a
// circle, is the figure's; one joined at one end only is dropped.
TEST(ReaderRounds, ALettersStraightBitIsDroppedAtTheCapitalsHeight) {
  read::Sheet sheet;
  sheet.half = 1;  // strokes 3 px wide: an end joins a stroke within 3 px
  for (int i = 0; i < 8; ++i)
    sheet.glyphs.push_back(glyph(std::string(1, static_cast<char>('A' + i)), 0.99, 40 * i, 0, 16));
  for (int i = 0; i < 12; ++i) sheet.glyphs.push_back(glyph(i % 2 ? "r" : "", 0.6, 40 * i, 400, 4 + i / 2));
  read::Round circle;
  circle.centre = {30, 130}, circle.radius = 12;
  std::vector<read::Piece> pieces{piece(0, 100, 200, 100),  piece(0, 82, 200, 82),  // two strokes
                                  piece(50, 20, 68, 20),                            // free
                                  piece(100, 100, 100, 82),                         // between the strokes
                                  piece(30, 100, 30, 118),                          // from a stroke to the circle
                                  piece(160, 100, 160, 118)};                       // joined at one end
  read::drop_letter_sized_pieces(sheet, pieces, {circle});
  std::vector<double> kept_x;
  for (const read::Piece& p : pieces) kept_x.push_back(p.a().x);
  EXPECT_EQ(kept_x, (std::vector<double>{0, 0, 100, 30}));
}

}  // namespace
}  // namespace geotruth::vision
