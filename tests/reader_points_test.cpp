// Points from the strokes read (vision/read/read_points.cpp): a junction whose dot was not found,
// read as stroke ends scattered about it, is one point where the strokes' lines meet; a stroke
// that ends on a line beside a crossing of that line stays a point of its own. And letters on
// their ring (attach_letters.cpp, settle_on_ring): two letters on each other's dots trade them
// when both then sit on the ring, and a letter left over takes the only free point near it. And a
// circle made of other strokes' ink is none (read_strokes.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "vision/read/points.hpp"

namespace geotruth::vision::read {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A straight stroke along `degrees` from `through`, inked from t0 to t1 (t = 0 at `through`).
Piece stroke(P2 through, double degrees, double t0, double t1) {
  Piece p;
  p.origin = through;
  p.dir = {std::cos(degrees * kPi / 180), std::sin(degrees * kPi / 180)};
  p.t0 = p.seen0 = t0, p.t1 = p.seen1 = t1;
  p.coverage = 1, p.contrast = 200;
  return p;
}

std::vector<const ReadPoint*> within(const std::vector<ReadPoint>& points, P2 at, double radius) {
  std::vector<const ReadPoint*> out;
  for (const ReadPoint& p : points)
    if (dist(p.at, at) <= radius) out.push_back(&p);
  return out;
}

// The one point read within `radius` of `at` lies there and has `pieces` strokes.
void expect_one_point_at(const std::vector<ReadPoint>& points, P2 at, double radius, std::size_t pieces) {
  const auto near = within(points, at, radius);
  ASSERT_EQ(near.size(), 1u);
  EXPECT_NEAR(near[0]->at.x, at.x, 1e-6);
  EXPECT_NEAR(near[0]->at.y, at.y, 1e-6);
  EXPECT_EQ(near[0]->pieces.size(), pieces);
}

bool has_point_at(const std::vector<const ReadPoint*>& points, P2 at) {
  return std::any_of(points.begin(), points.end(), [&](const ReadPoint* p) { return dist(p->at, at) < 1e-6; });
}

TEST(ReaderPoints, AJunctionReadAsScatteredStrokeEndsIsOnePointWhereTheirLinesMeet) {
  // Four strokes whose lines meet at J, each inked from 4-5.5 px out (a blurred junction without its
  // dot): neighbouring ends lie 5.8-6.4 px apart, beyond the 3.5 px that merges points at once.
  Sheet sheet;
  const P2 j{100, 100};
  const std::vector<Piece> pieces{stroke(j, 0, 4, 80), stroke(j, 80, 5, 80), stroke(j, 160, 4.5, 80),
                                  stroke(j, 240, 5.5, 80)};
  const auto points = read_points(sheet, pieces, {}, {});
  expect_one_point_at(points, j, 10, 4);
  EXPECT_EQ(points.size(), 5u);  // J and the four far ends
}

TEST(ReaderPoints, AStrokeEndingOnALineBesideACrossingStaysItsOwnPoint) {
  // q (horizontal) and r (vertical) cross at X; p ends on q at Y, 5 px from X, rising at 60
  // degrees. The three lines come no closer to one place than 1.1-2.2 px (least squares, worked by
  // hand): two points.
  Sheet sheet;
  const P2 x{100, 100}, y{105, 100};
  const std::vector<Piece> pieces{stroke(x, 0, -100, 100), stroke(x, 90, -100, 100), stroke(y, -60, 0, 40)};
  const auto points = read_points(sheet, pieces, {}, {});
  const auto near = within(points, x, 10);
  ASSERT_EQ(near.size(), 2u);
  EXPECT_TRUE(has_point_at(near, x));
  EXPECT_TRUE(has_point_at(near, y));
}

TEST(ReaderPoints, AStrokeEndingInAnothersInkShortOfTheirJunctionJoinsIt) {
  // Three strokes meet at V; p comes in 6 degrees off q and was walked only to 12 px short of V,
  // where its ink parts from q's (12 sin 6° = 1.25 px off q's line). Its end is 12 px from V, past
  // the 7 px that merges the points of a junction, yet every line passes through V: one point.
  Sheet sheet;
  const P2 v{100, 100};
  const std::vector<Piece> pieces{stroke(v, 60, 0, 80), stroke(v, 66, 12, 80), stroke(v, 180, 0, 80),
                                  stroke(v, 250, 0, 80)};
  expect_one_point_at(read_points(sheet, pieces, {}, {}), v, 20, 4);
}

TEST(ReaderPoints, AStrokeEndingShortOfAJunctionInBarePaperStaysItsOwnPoint) {
  // The same stroke p, its line through V, but no stroke runs beside it to V: the 12 px between
  // its end and V are paper, so it ends there.
  Sheet sheet;
  const P2 v{100, 100};
  const std::vector<Piece> pieces{stroke(v, 0, 0, 80), stroke(v, 66, 12, 80), stroke(v, 180, 0, 80),
                                  stroke(v, 250, 0, 80)};
  const auto points = read_points(sheet, pieces, {}, {});
  const auto near_v = within(points, v, 20);
  ASSERT_EQ(near_v.size(), 2u);
  EXPECT_TRUE(has_point_at(near_v, pieces[1].a()));
}

TEST(ReaderPoints, ADotInTheWedgeOfTwoStrokesJoinsThePointBehindItWhereTheyMeet) {
  // Strokes leave C at 83 and 97 degrees; where they overlap, 9 px below C, their ink was read as a
  // dot of radius 3 (Tangram's sketches), and both end at it; a third stroke ends at C. C lies
  // 9 sin 7 = 1.10 px off both strokes' lines, within the 2.5 px a point is on a stroke: one point,
  // at C, with the dot and the three strokes.
  Sheet sheet;
  const P2 c{100, 100};
  auto read = [&](double wedge_degrees, double dot_below_c, double radius = 3) {
    const P2 band{c.x, c.y + dot_below_c};
    const std::vector<Piece> pieces{stroke(band, 90 - wedge_degrees / 2, 0, 80),
                                    stroke(band, 90 + wedge_degrees / 2, 0, 80), stroke(c, 0, 0, 100)};
    return read_points(sheet, pieces, {}, {Dot{band, radius}});
  };
  auto points = read(14, 9);
  auto near_c = within(points, c, 20);
  ASSERT_EQ(near_c.size(), 1u);
  EXPECT_LT(dist(near_c[0]->at, c), 1e-6);
  EXPECT_EQ(near_c[0]->dot, 0);
  EXPECT_EQ(near_c[0]->pieces.size(), 3u);
  // Strokes 40 degrees apart leave a dot of radius 1.5, 6 px below C (C 2.05 px off their lines,
  // beyond the dot's own reach of 5): no wedge, the dot is a point of its own. Nor does C join a dot
  // 16 px below it, past four radii and a merge (3.5).
  EXPECT_EQ(within(read(40, 6, 1.5), c, 20).size(), 2u);
  EXPECT_EQ(within(read(14, 6, 1.5), c, 20).size(), 1u);
  EXPECT_EQ(within(read(14, 16), c, 20).size(), 2u);
}

TEST(ReaderPoints, ALineWithinAStrokesToleranceOfTouchingACircleTouchesItAtOnePoint) {
  // A circle of radius 80 about (200, 200) and a horizontal stroke 1 px inside it (y = 121): its
  // crossings lie 2 sqrt(80^2 - 79^2) = 25.3 px apart, where a line 1 px outside meets nothing. Both
  // touch it at (200, 120) within the 2.5 px a point is on a stroke: one point there. A line 10 px
  // inside is a chord: two points, 2 sqrt(80^2 - 70^2) = 77.5 px apart.
  Sheet sheet;
  Round circle;
  circle.centre = {200, 200}, circle.radius = 80;
  for (const double y : {121.0, 119.0, 130.0}) {
    const std::vector<Piece> pieces{stroke({100, y}, 0, 0, 200)};
    const auto points = read_points(sheet, pieces, {circle}, {});
    const auto on_circle = [&] {
      std::vector<const ReadPoint*> out;
      for (const ReadPoint& p : points)
        if (!p.rounds.empty() && !p.pieces.empty()) out.push_back(&p);
      return out;
    }();
    SCOPED_TRACE(y);
    if (y == 130) {
      ASSERT_EQ(on_circle.size(), 2u);
      EXPECT_NEAR(std::abs(on_circle[0]->at.x - on_circle[1]->at.x), 2 * std::sqrt(80 * 80 - 70 * 70), 1e-6);
      continue;
    }
    ASSERT_EQ(on_circle.size(), 1u);
    EXPECT_NEAR(on_circle[0]->at.x, 200, 1e-6);
  }
}

TEST(ReaderPoints, HairlinesOfAnEnlargedPictureMeetWithinAPixelOfThePicture) {
  // Three long strokes at 0, 120 and 240 degrees, each passing 2 px from J (a paint program's lines
  // meant to meet at J): their crossings are the corners of an equilateral triangle of inradius 2,
  // 6.93 px a side, and J is their least-squares crossing, 2 px off every line. On a picture read at
  // twice its size 2 px are one pixel of the picture: one point. Read at its own size, where the
  // strokes' lines meet within 1.5 px (half 1 + 0.5): three points.
  const P2 j{100, 100};
  std::vector<Piece> pieces;
  for (const double degrees : {0.0, 120.0, 240.0}) {
    const double a = degrees * kPi / 180;
    pieces.push_back(stroke({j.x - 2 * std::sin(a), j.y + 2 * std::cos(a)}, degrees, -60, 60));
  }
  for (const double scale : {2.0, 1.0}) {
    Sheet sheet;
    sheet.scale = scale, sheet.half = 1;
    const auto points = read_points(sheet, pieces, {}, {});
    const auto near_j = within(points, j, 5);
    SCOPED_TRACE(scale);
    if (scale == 2) {
      ASSERT_EQ(near_j.size(), 1u);
      EXPECT_NEAR(dist(near_j[0]->at, j), 0, 1e-6);
      EXPECT_EQ(near_j[0]->pieces.size(), 3u);
    } else {
      EXPECT_EQ(near_j.size(), 3u);
    }
  }
}

ReadPoint dot_at(P2 at) {
  ReadPoint p;
  p.at = at, p.dot = 0;
  return p;
}

Glyph letter_at(const char* text, P2 centre) {
  Glyph g;
  g.text = text, g.centre = centre, g.height = 16, g.confidence = 1;
  g.box = cv::Rect(static_cast<int>(centre.x) - 5, static_cast<int>(centre.y) - 8, 10, 16);
  return g;
}

// Letters written 12 px from their dots (a ring about each dot); B's dot and I's are 11.7 px apart.
// B's letter is exactly on the ring about its dot P and 23.5 px from Q; I's letter exactly on the
// ring about Q and 11.66 px from P (0.34 off the ring): read the wrong way round, the pair is 11.84 px
// off the ring in all; traded, 0.
struct TwoDots {
  std::vector<ReadPoint> points{dot_at({100, 100}), dot_at({106, 110})};
  std::vector<Glyph> glyphs{letter_at("B", {100 - 12 / std::sqrt(2.0), 100 - 12 / std::sqrt(2.0)}),
                            letter_at("I", {94, 110})};
  LetterPlacement placement{false, false, {0, 0}, 12, 5.5, 25.6, true};
};

TEST(ReaderRing, TwoLettersOnEachOthersDotsTradeThemWhenBothThenSitOnTheRing) {
  TwoDots f;
  std::vector<Attachment> attached{{1, 11.5 / 16, -1, 0}, {0, 0.34 / 16, -1, 0}};
  settle_on_ring(f.glyphs, attached, f.points, f.placement, false);
  EXPECT_EQ(attached[0].point, 0);
  EXPECT_EQ(attached[1].point, 1);
  // The other reading is the trade undone, 11.84 px worse for the pair: no doubt (within 0.2 heights).
  EXPECT_EQ(attached[0].runner_up, 1);
  EXPECT_GT(attached[0].runner_up_cost, attached[0].cost + 0.2);
  EXPECT_GT(attached[1].runner_up_cost, attached[1].cost + 0.2);
}

TEST(ReaderRing, LettersDoNotTradeWithoutARingOrOffIt) {
  TwoDots f;
  const std::vector<Attachment> read_so{{1, 11.5 / 16, -1, 0}, {0, 0.34 / 16, -1, 0}};
  std::vector<Attachment> attached = read_so;
  f.placement.fitted = false;  // the near rule alone: nothing to settle by
  settle_on_ring(f.glyphs, attached, f.points, f.placement, false);
  EXPECT_EQ(attached[0].point, 1);
  // A ring of 30 px: B's letter would be 18 px off it at its own dot (beyond the tolerance).
  f.placement.fitted = true, f.placement.radius = 30;
  attached = read_so;
  settle_on_ring(f.glyphs, attached, f.points, f.placement, false);
  EXPECT_EQ(attached[0].point, 1);
  EXPECT_EQ(attached[1].point, 0);
}

// VisOnlyQA 00299: L's letter written 24.9 px from its dot (the figure's ring), 22 px from a
// crossing below it, where the near rule put it. A dotted figure letters its dots: the letter moves to
// the free dot the ring puts it on, and the crossing is its runner-up. A letter on the ring about a
// crossing stays (its dot may be lost in the strokes), and nothing moves in a figure without dots.
TEST(ReaderRing, ALetterLeftOnACrossingOffTheRingMovesToItsFreeDot) {
  LetterPlacement placement{false, false, {0, 0}, 24.9, 5.5, 25.6, true};
  const Glyph l = letter_at("L", {100, 100});
  ReadPoint crossing;
  crossing.at = {100, 122};  // 22 px below: 2.9 px off the ring
  const std::vector<ReadPoint> points{crossing, dot_at({100 + 24.9 * 0.6, 100 - 24.9 * 0.8})};
  std::vector<Attachment> attached{{0, 0.5, -1, 0}};
  settle_on_ring({l}, attached, points, placement, true);
  EXPECT_EQ(attached[0].point, 0) << "2.9 px off the ring: the crossing may be its point";
  std::vector<ReadPoint> farther = points;
  farther[0].at = {100, 115};  // 9.9 px off the ring
  settle_on_ring({l}, attached, farther, placement, true);
  EXPECT_EQ(attached[0].point, 1);
  EXPECT_EQ(attached[0].runner_up, 0);
  attached = {{0, 0.5, -1, 0}};
  settle_on_ring({l}, attached, farther, placement, false);
  EXPECT_EQ(attached[0].point, 0);
}

// VisOnlyQA 00033noise_1: E's letter written 36 px from its point, where five strokes meet and hide
// its dot (read as a crossing), far off the figure's ring; no dot is left for it. Its box (603..613,
// 563..579) is 27.5 px across and 8 px down from the crossing at (640.5, 555): 1.79 of its 16 px
// heights. It takes the crossing, the next free point (11.7 heights away) its runner-up. Not when
// another free point is within twice that (2.41 heights), nor when the crossing is 4.2 heights away.
TEST(ReaderRing, ALetterLeftOverTakesTheOnlyFreePointNearIt) {
  const std::vector<Glyph> glyphs{letter_at("A", {100, 100}), letter_at("E", {608, 571})};
  ReadPoint crossing, far;
  crossing.at = {640.5, 555}, far.at = {800, 571};
  std::vector<ReadPoint> points{dot_at({100, 120}), crossing, far};
  const std::vector<Attachment> read_so{{0, 0.1, -1, 0}, {}};
  std::vector<Attachment> attached = read_so;
  take_nearest_free_points(glyphs, attached, points);
  EXPECT_EQ(attached[0].point, 0);
  ASSERT_EQ(attached[1].point, 1);
  EXPECT_NEAR(attached[1].cost, std::hypot(27.5, 8) / 16, 1e-9);
  EXPECT_EQ(attached[1].runner_up, 2);
  EXPECT_NEAR(attached[1].runner_up_cost, 187.0 / 16, 1e-9);
  points[2].at = {650, 590};  // 37 px across, 11 down: 2.41 heights
  attached = read_so;
  take_nearest_free_points(glyphs, attached, points);
  EXPECT_EQ(attached[1].point, -1);
  points[2].at = {800, 571};
  points[1].at = {680, 555};  // 67 px across, 8 up: 4.2 heights
  attached = read_so;
  take_nearest_free_points(glyphs, attached, points);
  EXPECT_EQ(attached[1].point, -1);
}

// VisOnlyQA 00901noise_1: a stroke written across by C ends 1.8 px above C's box, where the letter's
// ink begins, and C took that end (0.11 heights) over its crossing 4 px left of the box (0.24). A
// letter on a bare stroke end at its box's edge takes a crossing or a dot about as near, the end its
// runner-up; not an end 4 px from the box, not a runner-up that is an end too, nor one a fifth of a
// letter farther, nor one another letter has.
TEST(ReaderRing, ALetterOnAStrokeEndAtItsBoxTakesTheCrossingAsNear) {
  const Glyph c = letter_at("C", {100, 100});  // its box: 95..105 by 92..108
  ReadPoint end, crossing;
  end.at = {100, 90.2}, end.pieces = {0};
  crossing.at = {91, 102}, crossing.pieces = {0, 1};
  const std::vector<Attachment> near_end{{0, 0.11, 1, 0.24}};
  std::vector<Attachment> attached = near_end;
  prefer_junctions_to_ends_at_letters({c}, attached, {end, crossing}, 2, false);
  EXPECT_EQ(attached[0].point, 1);
  EXPECT_EQ(attached[0].runner_up, 0);
  ReadPoint far_end = end;
  far_end.at = {100, 88};
  attached = near_end;
  prefer_junctions_to_ends_at_letters({c}, attached, {far_end, crossing}, 2, false);
  EXPECT_EQ(attached[0].point, 0) << "an end 4 px from the box";
  ReadPoint other_end = crossing;
  other_end.pieces = {1};
  attached = near_end;
  prefer_junctions_to_ends_at_letters({c}, attached, {end, other_end}, 2, false);
  EXPECT_EQ(attached[0].point, 0) << "the runner-up an end too";
  attached = {{0, 0.11, 1, 0.35}};
  prefer_junctions_to_ends_at_letters({c}, attached, {end, crossing}, 2, false);
  EXPECT_EQ(attached[0].point, 0) << "the crossing a fifth of a letter farther";
  attached = {{0, 0.11, 1, 0.24}, {1, 0.1, -1, 0}};
  prefer_junctions_to_ends_at_letters({c, letter_at("D", {80, 110})}, attached, {end, crossing}, 2, false);
  EXPECT_EQ(attached[0].point, 0) << "the crossing D's";
}

// VisOnlyQA 00881noise_0: a stroke runs into G's box and its ink cuts it there; G took that bare end
// (inside its box), its own dot lost where five strokes meet 22 px away, read as a crossing. In a
// dotted figure a letter on a bare end in its box takes the nearest free crossing or dot within one
// and a half letter heights, however far its runner-up; not beyond, not one another letter has,
// and not in a figure without dots (its points are stroke ends). With no junction near, the end
// stays the letter's point (00383's C, its dot under the letter).
TEST(ReaderRing, ALetterOnAStrokeEndInItsBoxTakesTheNearestFreeJunction) {
  const Glyph c = letter_at("C", {100, 100});  // its box: 95..105 by 92..108, 16 px tall
  ReadPoint end, crossing;
  end.at = {101, 104}, end.pieces = {0};
  crossing.at = {104, 125}, crossing.pieces = {0, 1};  // 21.2 px from the end
  const std::vector<Attachment> on_end{{0, 0, -1, 0}};
  std::vector<Attachment> attached = on_end;
  prefer_junctions_to_ends_at_letters({c}, attached, {end, crossing}, 2, true);
  EXPECT_EQ(attached[0].point, 1);
  EXPECT_EQ(attached[0].runner_up, 0);
  attached = on_end;
  prefer_junctions_to_ends_at_letters({c}, attached, {end, crossing}, 2, false);
  EXPECT_EQ(attached[0].point, 0) << "no dots: the end may be the point";
  ReadPoint far = crossing;
  far.at = {104, 130};  // 26.2 px: past one and a half letter heights
  attached = on_end;
  prefer_junctions_to_ends_at_letters({c}, attached, {end, far}, 2, true);
  EXPECT_EQ(attached[0].point, 0) << "the crossing 26 px away";
  attached = {{0, 0, -1, 0}, {1, 0.1, -1, 0}};
  prefer_junctions_to_ends_at_letters({c, letter_at("D", {120, 125})}, attached, {end, crossing}, 2, true);
  EXPECT_EQ(attached[0].point, 0) << "the crossing D's";
}

// VisOnlyQA 00832: K's joint, as thick as the figure's dots, was read as a dot under the letter, and
// K took it; K's own dot lies on the ring 23 px away. A letter on a point inside its own box and off
// the ring moves to the free dot the ring puts it beside, as from a crossing. A dot off the ring
// outside the letter's box stays its point; so does the joint when no free dot is on the ring.
TEST(ReaderRing, ALetterOnAPointInsideItsOwnBoxOffTheRingMovesToItsFreeDot) {
  LetterPlacement placement{false, false, {0, 0}, 24.9, 5.5, 25.6, true};
  const Glyph k = letter_at("K", {100, 100});  // its box: 95..105 by 92..108
  const ReadPoint ring_dot = dot_at({100 + 24.9 * 0.6, 100 - 24.9 * 0.8});
  std::vector<Attachment> attached{{0, 0.1, -1, 0}};
  settle_on_ring({k}, attached, {dot_at({99, 101}), ring_dot}, placement, true);
  EXPECT_EQ(attached[0].point, 1);
  EXPECT_EQ(attached[0].runner_up, 0);
  attached = {{0, 0.5, -1, 0}};
  settle_on_ring({k}, attached, {dot_at({100, 115}), ring_dot}, placement, true);
  EXPECT_EQ(attached[0].point, 0) << "a dot outside the letter's box";
  attached = {{0, 0.1, -1, 0}};
  settle_on_ring({k}, attached, {dot_at({99, 101})}, placement, true);
  EXPECT_EQ(attached[0].point, 0) << "no free dot on the ring";
  // VisOnlyQA 00131: B on a blob 3 px thick whose centre is 1 px outside its box (strokes crossing
  // close together against the letter): the blob touches the box, and B moves. One 5 px off stays.
  ReadPoint touching = dot_at({100, 109}), apart = dot_at({100, 113});
  touching.dot_radius = apart.dot_radius = 3;
  attached = {{0, 0.1, -1, 0}};
  settle_on_ring({k}, attached, {touching, ring_dot}, placement, true);
  EXPECT_EQ(attached[0].point, 1);
  attached = {{0, 0.3, -1, 0}};
  settle_on_ring({k}, attached, {apart, ring_dot}, placement, true);
  EXPECT_EQ(attached[0].point, 0);
}

// VisOnlyQA 00565: B's dot is lost where six strokes meet, and a blob where two strokes cross at a
// narrow angle, 116 px off the ring, was read as a dot; left over like B, it took B. The letter moves
// to the free crossing the ring puts it beside (0 px off), its old point the runner-up; it stays
// where that crossing is off the ring or lettered, where its point is off the ring by no more than
// three tolerances (16.5 px) or twice the ring's radius (49.8 px: VisOnlyQA 00684 writes F 35 px off
// its ring), and in a figure without dots.
TEST(ReaderRing, ALetterPairedFarOffTheRingMovesToTheFreePointTheRingPutsItBeside) {
  const LetterPlacement placement{false, false, {0, 0}, 24.9, 5.5, 25.6, true};
  const Glyph b = letter_at("B", {100, 100});
  ReadPoint crossing;
  crossing.at = {100, 124.9};
  const std::vector<ReadPoint> points{dot_at({200, 160}), crossing};
  const std::vector<Attachment> paired{{0, 3 + 116.6 / 16, -1, 0}};
  std::vector<Attachment> attached = paired;
  settle_on_ring({b}, attached, points, placement, true);
  EXPECT_EQ(attached[0].point, 1);
  EXPECT_EQ(attached[0].runner_up, 0);
  EXPECT_GT(attached[0].runner_up_cost, attached[0].cost + 0.2) << "far off the ring: no doubt";

  attached = paired;
  settle_on_ring({b}, attached, points, placement, false);
  EXPECT_EQ(attached[0].point, 0) << "a figure without dots";

  std::vector<ReadPoint> off = points;
  off[1].at = {100, 131};  // 6.1 px off the ring
  attached = paired;
  settle_on_ring({b}, attached, off, placement, true);
  EXPECT_EQ(attached[0].point, 0) << "the crossing is off the ring";

  for (const double y : {140.0, 170.0}) {  // 15.1 and 45.1 px off the ring
    std::vector<ReadPoint> near = points;
    near[0].at = {100, y};
    attached = paired;
    settle_on_ring({b}, attached, near, placement, true);
    EXPECT_EQ(attached[0].point, 0) << "written beside its point, off the ring by " << y - 124.9 << " px";
  }

  const Glyph c = letter_at("C", {100, 150});  // C on the crossing, 0.1 px off the ring about it
  std::vector<Attachment> both{paired[0], {1, 0.1 / 16, -1, 0}};
  settle_on_ring({b, c}, both, points, placement, true);
  EXPECT_EQ(both[0].point, 0) << "the crossing is lettered";
  EXPECT_EQ(both[1].point, 1);
}

// VisOnlyQA 00402 (clean): G's and C's dots, where four strokes or more meet, are read as crossings,
// so the two letters were paired with nothing and placed where they are written, 60-75 px from their
// points. A letter without a point in a dotted figure takes the free point the ring puts it beside
// (any point: its dot was lost in the strokes), the next free point on the ring its runner-up.
TEST(ReaderRing, ALetterWithoutAPointTakesTheFreePointTheRingPutsItBeside) {
  const LetterPlacement placement{false, false, {0, 0}, 24.9, 5.5, 25.6, true};
  const Glyph g = letter_at("G", {100, 100});
  ReadPoint crossing, other;
  crossing.at = {100, 126};  // 1.1 px off the ring
  other.at = {160, 100};     // 35.1 px off it
  const std::vector<ReadPoint> points{other, crossing};
  const std::vector<Attachment> none{{-1, 0, -1, 0}};
  std::vector<Attachment> attached = none;
  settle_on_ring({g}, attached, points, placement, true);
  EXPECT_EQ(attached[0].point, 1);
  EXPECT_EQ(attached[0].runner_up, -1) << "no other point on the ring";

  std::vector<ReadPoint> two = points;
  two[0].at = {75.5, 100};  // 0.4 px off the ring: the better point, the crossing its runner-up
  attached = none;
  settle_on_ring({g}, attached, two, placement, true);
  EXPECT_EQ(attached[0].point, 0);
  EXPECT_EQ(attached[0].runner_up, 1);
  EXPECT_NEAR(attached[0].runner_up_cost - attached[0].cost, (1.1 - 0.4) / 16, 1e-9) << "a near rival: a doubt";

  attached = none;
  settle_on_ring({g}, attached, points, placement, false);
  EXPECT_EQ(attached[0].point, -1) << "a figure without dots";

  std::vector<ReadPoint> off = points;
  off[1].at = {100, 131};  // 6.1 px off the ring
  attached = none;
  settle_on_ring({g}, attached, off, placement, true);
  EXPECT_EQ(attached[0].point, -1) << "no point on the ring";
}

// VisOnlyQA 00048noise_1: D's glyph is nearer N's dot than its own, so the pairing by distance
// (3 + distance in letter heights) gave it N's dot for a runner-up that costs less than its own: a
// doubt. On the ring (24.9 px) D sits on its own dot, 0 px off, and N's dot, 10 px from the glyph, is
// 14.9 px off it: no near rival, the rival's cost now the own cost and 14.9 / 16 more. A rival on the
// ring as well stays a rival, and so does every rival without a ring.
TEST(ReaderRing, ARunnerUpPointOffTheRingIsNoNearRival) {
  LetterPlacement placement{false, false, {0, 0}, 24.9, 5.5, 25.6, true};
  const Glyph d = letter_at("D", {100, 100});
  const std::vector<ReadPoint> points{dot_at({100, 124.9}), dot_at({110, 100})};
  const std::vector<Attachment> paired{{0, 3 + 24.9 / 16, 1, 3 + 10.0 / 16}};
  std::vector<Attachment> attached = paired;
  settle_on_ring({d}, attached, points, placement, true);
  EXPECT_EQ(attached[0].point, 0);
  EXPECT_NEAR(attached[0].runner_up_cost, attached[0].cost + 14.9 / 16, 1e-9);

  std::vector<ReadPoint> on_ring = points;
  on_ring[1].at = {124.9, 100};
  attached = paired;
  settle_on_ring({d}, attached, on_ring, placement, true);
  EXPECT_EQ(attached[0].runner_up_cost, paired[0].runner_up_cost);

  placement.fitted = false;
  attached = paired;
  settle_on_ring({d}, attached, points, placement, true);
  EXPECT_EQ(attached[0].runner_up_cost, paired[0].runner_up_cost);
}

// VisOnlyQA 00539 and 00565: a "circle" 9-16 px across where many strokes cross, inked all round
// only because some stroke always lies within the walk's tolerance (3 px here). A grid of lines 6 px
// apart lies within 1 px of every point of a circle of 8 px: dropped. A circle of 30 px crossed by the
// same lines, twice over (found 2 px apart) and with its ink also read as 36 short straight chords,
// runs clear of the grid along most of its length: kept, both times.
TEST(ReaderRounds, ACircleMadeOfOtherStrokesInkIsNoCircle) {
  Sheet sheet;
  sheet.width = sheet.height = 400, sheet.half = 1;
  std::vector<Piece> pieces;
  for (const double at : {-6.0, 0.0, 6.0}) {
    pieces.push_back(stroke({100, 100 + at}, 0, -60, 60));
    pieces.push_back(stroke({100 + at, 100}, 90, -60, 60));
  }
  for (int k = 0; k < 36; ++k) {  // chords of the circle about (250, 250), its own ink read straight
    const double a = k * 10 * kPi / 180, b = (k + 1) * 10 * kPi / 180;
    const P2 from{250 + 30 * std::cos(a), 250 + 30 * std::sin(a)}, to{250 + 30 * std::cos(b), 250 + 30 * std::sin(b)};
    pieces.push_back(stroke(from, std::atan2(to.y - from.y, to.x - from.x) * 180 / kPi, 0, dist(from, to)));
  }
  for (const double at : {-6.0, 0.0, 6.0}) {
    pieces.push_back(stroke({250, 250 + at}, 0, -60, 60));
    pieces.push_back(stroke({250 + at, 250}, 90, -60, 60));
  }
  std::vector<Round> rounds{{{100, 100}, 8}, {{250, 250}, 30}, {{252, 250}, 30}};
  drop_rounds_of_strokes(sheet, rounds, pieces);
  ASSERT_EQ(rounds.size(), 2u);
  EXPECT_EQ(rounds[0].centre.x, 250);
  EXPECT_EQ(rounds[1].centre.x, 252);
}

// Geometry3K's pictures: capitals 16 px tall name the points; x and z, 11 px tall, are variables.
// A small o as tall as the capitals is a misread O and names a point; a small m as tall is no misread
// M (its shape is another: 19's "x°" read as m at 200 px) but a variable. A small capital
// whose small letter has another shape (K) names a point; one whose small letter has its shape (X, read for x:
// Geometry3K 19's "x°") is that small letter. With one capital there is nothing to compare with.
TEST(ReaderLetters, SmallLettersAmongCapitalsAreVariables) {
  auto glyph = [](const char* text, double height) {
    Glyph g = letter_at(text, {0, 0});
    g.height = height;
    return g;
  };
  std::vector<Glyph> glyphs{glyph("A", 16), glyph("B", 16), glyph("C", 16), glyph("x", 11), glyph("z", 11),
                            glyph("o", 16), glyph("X", 11), glyph("K", 11), glyph("m", 16)};
  mark_variables(glyphs);
  std::vector<bool> variable;
  for (const Glyph& g : glyphs) variable.push_back(g.variable);
  EXPECT_EQ(variable, (std::vector<bool>{false, false, false, true, true, false, true, false, true}));
  std::vector<Glyph> alone{glyph("A", 16), glyph("x", 11)};
  mark_variables(alone);
  EXPECT_FALSE(alone[1].variable);
}

// Geometry3K's picture 17: a blob at an italic M's top corner, outside the box the classifier gave
// the M (read as IVI) but inside the one the font gave it, is the letter's ink. Not so in a figure
// marking its points with dots (a letter may be written over its dot), nor in a box the font did not
// place.
TEST(ReaderDots, ABlobInALetterTheFontReadIsTheLettersInk) {
  Sheet sheet;  // ridge 2: a marker is 5 px or more
  Glyph m = letter_at("M", {55, 52});
  m.box = cv::Rect(40, 40, 30, 25), m.by_font = true;
  sheet.glyphs = {m};
  std::vector<Dot> dots{{{45, 43}, 2.5}, {{100, 100}, 2.5}};
  drop_dots_in_letters(sheet, dots);
  ASSERT_EQ(dots.size(), 1u);
  EXPECT_EQ(dots[0].at.x, 100);
  std::vector<Dot> markers{{{45, 43}, 5}, {{100, 100}, 5}, {{200, 100}, 5}, {{100, 200}, 5}};
  drop_dots_in_letters(sheet, markers);
  EXPECT_EQ(markers.size(), 4u) << "a dotted figure's letter may lie over its dot";
  sheet.glyphs[0].by_font = false;
  dots = {{{45, 43}, 2.5}, {{100, 100}, 2.5}};
  drop_dots_in_letters(sheet, dots);
  EXPECT_EQ(dots.size(), 2u) << "the classifier's box did not hold the blob";
}

// A doubtful letter's runner-up past the letters read A to E is no letter of the figure (an A read
// with W its runner-up), unless the letter was found about a dot: its runner-up is then another
// letter the figure lacks (VisOnlyQA 00661noise_1: A found at F's dot, F unread). A runner-up read
// elsewhere is never the reading.
TEST(ReaderLetters, ARunnerUpPastTheLettersReadIsPlausibleOnlyForALetterFoundAboutADot) {
  std::vector<Glyph> glyphs;
  for (const char* name : {"A", "B", "C", "D", "E"}) glyphs.push_back(letter_at(name, {50.0 * glyphs.size(), 0}));
  glyphs[0].runner_up = "F";
  EXPECT_FALSE(runner_up_plausible(glyphs, 0));
  glyphs[0].found_at_dot = true;
  EXPECT_TRUE(runner_up_plausible(glyphs, 0));
  glyphs[0].runner_up = "C";
  EXPECT_FALSE(runner_up_plausible(glyphs, 0));
}

// O past a run A to E is a centre's name, plausible for its last letter (A to D and a centre O) but
// not for a letter inside the run, which read as O would leave a gap (VisOnlyQA 00907noise_1: D
// read 0.52 against O in a run A to N).
TEST(ReaderLetters, AnOInsteadOfALetterInsideTheRunIsNoReading) {
  std::vector<Glyph> glyphs;
  for (const char* name : {"A", "B", "C", "D", "E"}) glyphs.push_back(letter_at(name, {50.0 * glyphs.size(), 0}));
  glyphs[3].runner_up = "O";
  EXPECT_FALSE(runner_up_plausible(glyphs, 3));
  glyphs[4].runner_up = "O";
  EXPECT_TRUE(runner_up_plausible(glyphs, 4));
  glyphs[3].found_at_dot = true;
  EXPECT_TRUE(runner_up_plausible(glyphs, 3)) << "a letter found about a dot: O may be the letter lacking";
}

// Geometry3K 20 at 151 px: "(y" read as E at 0.42, the classifier's class of marks (no character)
// its runner-up at 0.58: it may be no letter. Not so with a letter for a runner-up, nor read surely.
TEST(ReaderLetters, AGlyphWhoseRunnerUpIsNoCharacterMayBeNoLetter) {
  Glyph e = letter_at("E", {0, 0});
  e.confidence = 0.42, e.runner_up_confidence = 0.58, e.doubtful = true;
  EXPECT_TRUE(may_be_no_letter(e));
  e.runner_up = "F";
  EXPECT_FALSE(may_be_no_letter(e));
  e.runner_up.clear(), e.doubtful = false;
  EXPECT_FALSE(may_be_no_letter(e));
}

// Seven letters each 45 px from its dot, in seven directions (beyond the near rule's reach), and
// eight blobs a heavy JPEG reads as dots, each placed where a ring of 75 px shifted by (-60, -40)
// about it passes through a letter, 130-147 px away (VisOnlyQA 00326noise_1: such a ring matched
// eight letters, six of them wrongly, against seven on the true ring). A ring three times as large
// matching one letter more is chance: the letters go to their own dots.
TEST(ReaderRing, ALargeRingMatchingOneLetterMoreByChanceIsNotTheFiguresRing) {
  const char* names[] = {"A", "B", "C", "D", "E", "F", "G", "H"};
  std::vector<Glyph> glyphs;
  std::vector<ReadPoint> points;
  for (int k = 0; k < 8; ++k) {
    const P2 letter{200.0 + 300 * (k % 4), 200.0 + 300 * (k / 4)};
    glyphs.push_back(letter_at(names[k], letter));
    const double own = k * 2 * kPi / 7, chance = std::atan2(-40.0, -60.0) + (k - 3.5) * 0.12;
    if (k < 7) points.push_back(dot_at({letter.x - 45 * std::cos(own), letter.y - 45 * std::sin(own)}));
    points.push_back(dot_at({letter.x + 60 - 75 * std::cos(chance), letter.y + 40 - 75 * std::sin(chance)}));
  }
  LetterPlacement placement;
  const std::vector<Attachment> attached = attach_letters(glyphs, points, true, &placement);
  EXPECT_NEAR(placement.radius, 45, 1);
  for (int k = 0; k < 7; ++k) {
    ASSERT_GE(attached[k].point, 0) << names[k];
    const P2 at = points[static_cast<std::size_t>(attached[k].point)].at;
    EXPECT_NEAR(dist(at, glyphs[k].centre), 45, 1e-6) << names[k] << " on its own dot";
  }
}

}  // namespace
}  // namespace geotruth::vision::read
