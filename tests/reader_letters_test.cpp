// Letters read from pictures geotruth draws (docs/reader.md, "How a picture is read"): a letter
// written just beyond a point, where a line ending at that point would run on into its stem or
// bar, is read whole and the line ends at the point; letters are read in noisy pictures; a figure
// lettered in capitals has its glyphs read among the point labels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <geotruth/input.hpp>
#include <geotruth/reader.hpp>
#include <geotruth/vision.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "scene_of.hpp"
#include "vision/glyph_render.hpp"
#include "vision/letters.hpp"
#include "vision/read/points.hpp"
#include "vision/read/read.hpp"

namespace geotruth::vision {
namespace {

// Two of geotruth's own Tangram items (generate --family tangram --level medium --seed 3, items 1
// and 12): letters beside points where lines end, some on the lines' run-on.
constexpr const char* kFigureOne = R"({"id":"t1","frame":{"width":640,"height":640,"y":"down"},
  "points":[{"id":"A","at":[341,468]},{"id":"B","at":[278,307]},{"id":"C","at":[523,385]},
            {"id":"D","at":["25236587/66109","22478917/66109"]},{"id":"E","at":[325.25,427.75]}],
  "lines":[{"through":["A","E","B"]},{"through":["B","D","C"]},{"through":["C","A"]},{"through":["A","D"]},
           {"through":["C","E"]}]})";
constexpr const char* kFigureTwelve = R"({"id":"t12","frame":{"width":640,"height":640,"y":"down"},
  "points":[{"id":"A","at":[218,304]},{"id":"B","at":[385,393]},{"id":"C","at":[425,164]},{"id":"D","at":[342.2,220]},
            {"id":"E","at":["50109509/179050","60334303/179050"]},{"id":"F","at":["281575363/794021","214544858/794021"]}],
  "lines":[{"through":["A","E","B"]},{"through":["B","C"]},{"through":["C","D","A"]},{"through":["B","F","D"]},
           {"through":["D","E"]},{"through":["E","C"]},{"through":["A","F"]}]})";
// geotruth's own Tangram item (generate --family tangram --level medium --seed 7, item 9, whose id
// seeds the noise): in noise the classifier reads its last letters F and G as g and o.
constexpr const char* kFigureSevenNine = R"({"id":"tangram-medium-7-9","frame":{"width":640,"height":640,"y":"down"},
  "points":[{"id":"A","at":[160,173]},{"id":"B","at":[178,431]},{"id":"C","at":[339,179]},{"id":"D","at":[167.2,276.2]},
            {"id":"E","at":[436.2,350.8]},{"id":"F","at":[264.4,448]},{"id":"G","at":["3367/15",243.8]}],
  "lines":[{"through":["A","D","B"]},{"through":["B","C"]},{"through":["C","A"]},{"through":["C","G","D"]},
           {"through":["C","E"]},{"through":["E","F"]},{"through":["F","D"]},{"through":["B","F"]},{"through":["A","G"]}]})";

// Two more of seed 7 (items 123 and 131). In noise the classifier reads 131's G as C (0.54) where
// its C reads C at 0.81, 123's F as 5 (0.24, F its runner-up), and the centre dot beside 123's O as
// Q (0.38), a speck half the capitals' height.
constexpr const char* kFigureSevenOneTwentyThree =
    R"({"id":"tangram-medium-7-123","frame":{"width":640,"height":640,"y":"down"},
  "points":[{"id":"A","at":[133,423]},{"id":"B","at":[323,451]},{"id":"C","at":[225,195]},{"id":"D","at":[298.5,387]},
            {"id":"E","at":[275.5,444]},{"id":"O","at":["1394402/5737","1921014/5737"]},{"id":"F","at":[202,252]},
            {"id":"G","at":[249.5,259]}],
  "lines":[{"through":["A","E","B"]},{"through":["B","D","G","C"]},{"through":["C","F","A"]},{"through":["D","E"]},
           {"through":["C","E"]},{"through":["F","G"]}],
  "circles":[{"id":"k1","center":"O","through":["A","B","C"]}]})";
constexpr const char* kFigureSevenOneThirtyOne =
    R"({"id":"tangram-medium-7-131","frame":{"width":640,"height":640,"y":"down"},
  "points":[{"id":"A","at":[140,366]},{"id":"B","at":[145,80]},{"id":"C","at":[333,199]},
            {"id":"D","at":["46794300/327284","80052820/409105"]},{"id":"E","at":[307,559]},{"id":"F","at":[500,392]},
            {"id":"G","at":["46063395/327284","264625055/818210"]},{"id":"H","at":[188.25,324.25]}],
  "lines":[{"through":["A","G","D","B"]},{"through":["B","C"]},{"through":["C","H","A"]},{"through":["C","D"]},
           {"through":["A","E"]},{"through":["E","F"]},{"through":["F","C"]},{"through":["G","H"]}]})";
// Seed 3's item 11: in noise the classifier reads its F as 5 at 0.87 and is sure of three letters
// of eight, too few to take the figure for lettered A to H on its reads alone.
constexpr const char* kFigureThreeEleven = R"({"id":"tangram-medium-3-11","frame":{"width":640,"height":640,"y":"down"},
  "points":[{"id":"A","at":[322,540]},{"id":"B","at":[50,477]},{"id":"C","at":[150,272]},{"id":"D","at":[590,368]},
            {"id":"E","at":[418,100]},{"id":"F","at":[218.8,379.2]},{"id":"G","at":["3188/30",444.4]},
            {"id":"H","at":["5188/30","4616/15"]}],
  "lines":[{"through":["A","B"]},{"through":["B","C"]},{"through":["C","H","F","A"]},{"through":["A","D"]},
           {"through":["D","E"]},{"through":["E","C"]},{"through":["B","G","F"]},{"through":["G","H"]}]})";
// Seed 3's item 6: a circle through A, B, C about an unlettered centre; in noise its G is read as
// no letter, and the font draws it C 0.922 there (the figure's C 0.928 at its own place).
constexpr const char* kFigureThreeSix = R"({"id":"tangram-medium-3-6","frame":{"width":640,"height":640,"y":"down"},
  "points":[{"id":"A","at":["14000/37","18140/37"]},{"id":"B","at":["9680/37","5540/37"]},{"id":"C","at":["9460/65","23680/65"]},
            {"id":"u4","at":[320,320],"label":false},{"id":"D","at":["5610368/17797","5448080/17797"]},
            {"id":"E","at":["4402280/17797","29311408/88985"]},{"id":"F","at":["6023692/88985","28042408/88985"]},
            {"id":"G","at":["7292692/88985","2410940/17797"]}],
  "lines":[{"through":["A","u4","D","B"]},{"through":["B","C"]},{"through":["C","A"]},{"through":["C","E","D"]},
           {"through":["B","E"]},{"through":["E","F"]},{"through":["F","G"]},{"through":["G","B"]}],
  "circles":[{"id":"k1","center":"u4","radius":180,"through":["A","B","C"]}]})";

// The scene's lines as sets of their lettered points (unlettered points left out).
std::set<std::set<std::string>> lettered_lines(const Scene& scene) {
  std::set<std::set<std::string>> out;
  for (const Line& l : scene.lines) {
    std::set<std::string> ids;
    for (std::size_t i : l.through)
      if (scene.points[i].id.front() != '_') ids.insert(scene.points[i].id);
    if (ids.size() >= 2) out.insert(ids);
  }
  return out;
}

// The picture of `truth` drawn with Gaussian noise of 12 gray levels (its id seeds the noise), read.
PictureRead read_in_noise(const Scene& truth) {
  RenderOptions options;
  options.noise.gaussian_sigma = 12;
  options.seed = 5;
  return read_picture(render(truth, options), truth.id);
}

// The ids of a scene's lettered points.
std::set<std::string> letters_of(const Scene& scene) {
  std::set<std::string> out;
  for (const Point& p : scene.points)
    if (p.labelled) out.insert(p.id);
  return out;
}

// Every point of `truth` read under its own letter within `reach` px of its place, and no other
// letter; the read's lines through the same letters.
void expect_read_back(const Scene& truth, const PictureRead& read, double reach) {
  std::map<std::string, const Point*> by_id;
  for (const Point& p : read.scene.points) by_id[p.id] = &p;
  for (const Point& t : truth.points) {
    auto it = by_id.find(t.id);
    ASSERT_NE(it, by_id.end()) << "letter " << t.id << " not read";
    const double d = std::hypot(to_double(it->second->at->x) - to_double(t.at->x),
                                to_double(it->second->at->y) - to_double(t.at->y));
    EXPECT_LE(d, reach) << t.id;
  }
  EXPECT_EQ(letters_of(read.scene), letters_of(truth));
  EXPECT_EQ(lettered_lines(read.scene), lettered_lines(truth));
}

TEST(ReaderLetters, ALetterPastTheRunIsNotHeldBackByARunLetterTheFontDrawsBetterElsewhere) {
  // A letter past the run (G, past A to F) must beat the letters of the run at its place, but not
  // one the font draws better at another place: the C drawn 0.922 at the G, 0.928 at the C.
  const Scene truth = scene_of(kFigureThreeSix);
  EXPECT_EQ(letters_of(read_in_noise(truth).scene), (std::set<std::string>{"A", "B", "C", "D", "E", "F", "G"}));
  // Not asserted: where G is placed. The stroke F-G is read on into G's ink, 13 px past the point,
  // and the letter takes that end.
}

TEST(ReaderLetters, ALineEndingBelowALetterEndsAtItsPointAndTheLetterIsReadWhole) {
  // Lines end at A (from E and from F): walked on, they ran across the paper between the point's
  // dot and the letter into the letter's strokes, which were then erased as line (A read as K).
  const Scene truth = scene_of(kFigureTwelve);
  const PictureRead read = read_picture(render(truth, RenderOptions{}), "t12");
  expect_read_back(truth, read, 0.02 * 640);
}

TEST(ReaderLetters, LettersAreReadInANoisyPicture) {
  // Gaussian noise of 12 gray levels: the picture is smoothed before it is read, which takes more
  // from the letters' one-pixel bars than from the strokes (B, C, D, E were read 3, t, C, F). The
  // run A, B, C, … goes on past the capitals the classifier read where the font draws the next
  // letters clearly (item 7-9: only A to E were read, its F and G lost). The font reads a G past the
  // run A to F where the classifier read C, since the figure's C is read more surely elsewhere
  // (7-131); an unsure digit whose runner-up is a capital (7-123's F, read 5); and a speck read
  // unsurely is no letter's place (7-123's centre dot beside O, drawn H by the font at 0.555, which
  // left O placed where it is written). A figure whose letters the classifier read too few of
  // surely is judged lettered A, B, C, … by the font's own reads, dotted or not (3-11's F, read 5
  // at 0.87). Each of these four fails without its rule.
  for (const char* json : {kFigureOne, kFigureTwelve, kFigureSevenNine, kFigureSevenOneTwentyThree,
                           kFigureSevenOneThirtyOne, kFigureThreeEleven}) {
    const Scene truth = scene_of(json);
    const PictureRead read = read_in_noise(truth);
    SCOPED_TRACE(truth.id);
    expect_read_back(truth, read, 0.02 * 640);
  }
}

// A hand-drawn figure as matplotlib draws VisOnlyQA's: hairlines, a dot at each point, and the
// letter H written on the dot, its left stem going on straight up the line that ends there.
Image letter_on_the_line() {
  Sheet sheet;
  sheet.width = 400, sheet.height = 400;
  const FontFace font{"DejaVu Sans"};
  Sheet probe = sheet;
  probe.texts.push_back({"H", {100, 100}, font, 22});
  std::vector<std::vector<CharacterInk>> ink;
  draw_sheet(probe, &ink);
  const cv::Rect box = ink.at(0).at(0).box;
  const PixelPoint p{200, 200};
  sheet.strokes.push_back({{p, {200, 380}}, 1.5});
  sheet.strokes.push_back({{p, {360, 380}}, 1.5});
  sheet.strokes.push_back({{{200, 380}, {360, 380}}, 1.5});
  SheetStroke dot{{}, 1, true, true};
  for (int k = 0; k < 16; ++k)
    dot.path.push_back({p.x + 3.5 * std::cos(k * M_PI / 8), p.y + 3.5 * std::sin(k * M_PI / 8)});
  sheet.strokes.push_back(dot);
  // The stem's left edge on the line's, the letter's foot on the dot.
  sheet.texts.push_back({"H", {p.x - 1 + box.width / 2.0, p.y - 3 - box.height / 2.0}, font, 22});
  // A lettered figure names two points at least (one glyph alone is a mark: docs/reader.md, 4).
  sheet.texts.push_back({"A", {382, 362}, font, 22});
  return draw_sheet(sheet);
}

TEST(ReaderLetters, ALetterOnTheRunOnOfALineIsNotErasedWithIt) {
  // The line walked from its far end runs on through the dot into the stem: the letters are
  // separated from the strokes as far as the detector saw them (and a stroke's width more), and a
  // glyph the erasure still took a side of gets it back (fails with neither).
  const PictureRead read = read_picture(letter_on_the_line(), "h");
  const Point* h = nullptr;
  for (const Point& q : read.scene.points)
    if (q.id == "H") h = &q;
  ASSERT_NE(h, nullptr) << "the letter H is not read";
  EXPECT_LE(std::hypot(to_double(h->at->x) - 200, to_double(h->at->y) - 200), 4.0);
}

// The names of a read scene's points (its unlabelled points, _1, _2, …, left out).
std::set<std::string> point_names(const Scene& scene) {
  std::set<std::string> names;
  for (const Point& p : scene.points)
    if (p.id.empty() || p.id[0] != '_') names.insert(p.id);
  return names;
}

// The measures written in a read figure (numbers, expressions, variables).
std::set<std::string> measure_texts(const Scene& scene) {
  std::set<std::string> texts;
  for (const auto& m : nlohmann::json::parse(scene.extra)["picture"].value("measures", nlohmann::json::array()))
    texts.insert(m["text"].get<std::string>());
  return texts;
}

// A stroke up to a point's dot, the point's letter written just beyond (its stem continuing the
// line): the line walked on past the dot up the stem. The font reading of the letters leaves out
// the pixels strokes cover, and when it left out the stroke as far as the walk went, an E lost its
// stem's foot and read F (VisOnlyQA 00282noise_1, its E and F read the other way round). A piece
// that ends in a glyph's box within a letter and a half past a dot is covered to the dot's fringe.
TEST(ReaderLetters, AStrokeWalkedOnPastADotIntoALetterLeavesTheLetterItsInk) {
  read::Sheet sheet;
  sheet.width = sheet.height = 200;
  sheet.half = 1, sheet.stroke = 2;
  const double cap = 16;
  const std::vector<read::Piece> pieces{read::Piece::from_to({100, 180}, {100, 62})};  // 18 px past the dot
  const std::vector<read::Dot> dots{{{100, 80}, 3}};
  auto covered = [&](int y) {
    return read::covered_by_marks(sheet, pieces, {}, dots, cap).at<std::uint8_t>(y, 100) != 0;
  };
  // No glyph there: all of the stroke is covered.
  EXPECT_TRUE(covered(70));
  EXPECT_TRUE(covered(63));
  read::Glyph e;
  e.text = "E", e.box = cv::Rect(95, 60, 11, 17);  // the piece ends inside, 2 px below its top
  sheet.glyphs.push_back(e);
  // Covered to the dot's radius (3) and a stroke's width (2) past it, y 75, and half the covered
  // width (5 px) on; the letter's ink above left to it; the stroke below the dot still covered.
  EXPECT_TRUE(covered(120));
  EXPECT_TRUE(covered(80));
  EXPECT_TRUE(covered(74));
  EXPECT_FALSE(covered(70));
  EXPECT_FALSE(covered(63));
  // A dot more than a letter and a half (24 px) before the end is no point the stroke ends at.
  const std::vector<read::Dot> far_dot{{{100, 90}, 3}};
  EXPECT_NE(read::covered_by_marks(sheet, pieces, {}, far_dot, cap).at<std::uint8_t>(70, 100), 0);
}

// geotruth's own Tangram item (generate --family tangram --level medium --seed 3, item 10): a
// circle about O through D, its letters A to H and O.
constexpr const char* kFigureThreeTen = R"({"id":"tangram-medium-3-10","frame":{"width":640,"height":640,"y":"down"},
  "points":[{"id":"O","at":[310,360]},{"id":"A","at":["8435/41","15810/41"]},{"id":"B","at":["3885/11","1635/11"]},
            {"id":"C","at":["1225/3",505]},{"id":"D","at":["3535/13","5520/13"]},{"id":"E","at":["13055/53","16980/53"]},
            {"id":"F","at":["6530/17","5925/17"]},{"id":"G","at":["38605/99","12745/33"]},
            {"id":"u9","at":["6259295/21033","640396675/1388178"],"label":false},{"id":"H","at":["30515/89","38040/89"]}],
  "lines":[{"through":["C","D","A"]},{"through":["A","E","B"]},{"through":["B","F","G","C"]},{"through":["A","G"]},
           {"through":["G","O"]},{"through":["O","H"]}],
  "circles":[{"id":"k1","center":"O","radius":75,"through":["D","E","F","H"]},{"id":"k2","center":"u9","through":["A","C","G"]}]})";

TEST(ReaderLetters, TwoLettersTheClassifierAndTheFontBothReadAreNotInDoubtOfASwap) {
  // In noise, saved as JPEG, the font draws item 3-10's O and D each within a few hundredths of
  // the other letter (O 0.72, D 0.54 as confidences), and the two points were in doubt of being
  // the other way round; the classifier read each glyph's ink as its letter nearly surely: two
  // independent reads agree at both places. Fails without the rule (the swap doubt).
  const Scene truth = scene_of(kFigureThreeTen);
  RenderOptions options;
  options.noise.gaussian_sigma = 12;
  std::string error;
  const PictureRead read = read_picture(decode(encode(render(truth, options), ImageFormat::jpeg, 75), error), truth.id);
  EXPECT_EQ(letters_of(read.scene), letters_of(truth));
  for (const Point& p : read.scene.points)
    if (p.id == "O" || p.id == "D") {
      const auto at =
          std::find_if(truth.points.begin(), truth.points.end(), [&](const Point& t) { return t.id == p.id; });
      EXPECT_LE(std::hypot(to_double(p.at->x) - to_double(at->at->x), to_double(p.at->y) - to_double(at->at->y)), 4.0)
          << p.id;
    }
  for (const Finding& d : read.doubts) EXPECT_EQ(d.detail.find("other way round"), std::string::npos) << d.detail;
}

// A textbook's triangle, 400 px square, lettered A, B, C at its corners when `capitals`.
Sheet textbook_triangle(bool capitals) {
  const FontFace font{"DejaVu Sans"};
  const PixelPoint a{80, 320}, b{320, 320}, c{200, 100};
  Sheet sheet;
  sheet.width = 400, sheet.height = 400;
  sheet.strokes.push_back({{a, b, c, a}, 2});
  if (capitals) {
    sheet.texts.push_back({"A", {62, 336}, font, 22});
    sheet.texts.push_back({"B", {338, 336}, font, 22});
    sheet.texts.push_back({"C", {200, 80}, font, 22});
  }
  return sheet;
}

// A triangle lettered A, B, C with its sides' lengths written beside them (textbook pictures:
// Geometry3K's, VisOnlyQA's real split): a number is a length's measure, no point's name.
TEST(ReaderLetters, ANumberWrittenInTheFigureIsAMeasureNotAPoint) {
  const FontFace font{"DejaVu Sans"};
  Sheet sheet = textbook_triangle(true);
  sheet.texts.push_back({"12", {200, 345}, font, 22});  // below AB
  sheet.texts.push_back({"5", {285, 200}, font, 22});   // right of BC
  const PictureRead read = read_picture(draw_sheet(sheet), "measures");
  EXPECT_EQ(point_names(read.scene), (std::set<std::string>{"A", "B", "C"}));
  EXPECT_EQ(measure_texts(read.scene), (std::set<std::string>{"12", "5"}));
}

// Geometry3K 20 shrunk to 151 px: a degree sign's bit read as a letter, 7 px tall among glyphs of
// 20. A letter under half the median height of the picture's glyphs is a speck, no point's name;
// written at the capitals' size, it is one.
TEST(ReaderLetters, ALetterUnderHalfTheGlyphsHeightIsASpeck) {
  const FontFace font{"DejaVu Sans"};
  auto read_with = [&](double size) {
    Sheet sheet = textbook_triangle(true);
    sheet.texts.push_back({"12", {200, 345}, font, 22});
    sheet.texts.push_back({"K", {340, 60}, font, size});  // far from every stroke
    return read_picture(draw_sheet(sheet), "speck");
  };
  EXPECT_EQ(point_names(read_with(9).scene), (std::set<std::string>{"A", "B", "C"}));
  EXPECT_TRUE(point_names(read_with(22).scene).count("K"));
}

// The same triangle with its sides' unknowns written as small letters (Geometry3K's x beside AB, z beside BC):
// among capitals, a lone small letter a fifth or more shorter than they are is a variable, no
// point's name. Without capitals beside them, the same letters name points.
TEST(ReaderLetters, ASmallLetterAmongCapitalsIsAVariableNotAPoint) {
  const FontFace font{"DejaVu Sans"};
  auto read_with = [&](bool capitals) {
    Sheet sheet = textbook_triangle(capitals);
    sheet.texts.push_back({"x", {200, 342}, font, 22});  // below AB
    sheet.texts.push_back({"z", {282, 200}, font, 22});  // right of BC
    return read_picture(draw_sheet(sheet), "variables");
  };
  const PictureRead read = read_with(true);
  EXPECT_EQ(point_names(read.scene), (std::set<std::string>{"A", "B", "C"}));
  EXPECT_EQ(measure_texts(read.scene), (std::set<std::string>{"x", "z"}));
  // Alone, the two letters name points (read as X and Z: a figure's only letters are its names).
  const PictureRead alone = read_with(false);
  const bool x_names_a_point = std::any_of(alone.scene.points.begin(), alone.scene.points.end(),
                                           [](const Point& p) { return p.id == "x" || p.id == "X"; });
  EXPECT_TRUE(x_names_a_point);
}

// Geometry3K 14: lengths written as "1/4 x + 5" beside parallel lines, no capital anywhere. The
// fraction's digits stand just left of x, above and below its middle: x is the expression's
// variable, not a point; so is y, far from any number, among numbers and no capital (Geometry3K 15:
// 10, 60°, x and y). Without the fraction, the figure's only letters, both name points.
TEST(ReaderLetters, ASmallLetterLevelWithANumberIsAnExpressionsVariable) {
  const FontFace font{"DejaVu Sans"};
  auto read_with = [&](bool fraction) {
    Sheet sheet;
    sheet.width = 400, sheet.height = 300;
    sheet.strokes.push_back({{{40, 100}, {360, 100}}, 2});
    sheet.strokes.push_back({{{40, 220}, {360, 220}}, 2});
    sheet.strokes.push_back({{{200, 40}, {200, 280}}, 2});
    if (fraction) {
      sheet.texts.push_back({"1", {80, 140}, font, 22});
      sheet.texts.push_back({"4", {80, 176}, font, 22});
    }
    sheet.texts.push_back({"x", {97, 160}, font, 22});
    sheet.texts.push_back({"y", {300, 250}, font, 22});
    return read_picture(draw_sheet(sheet), "expression");
  };
  const PictureRead read = read_with(true);
  EXPECT_FALSE(point_names(read.scene).count("x") || point_names(read.scene).count("X"));
  EXPECT_TRUE(measure_texts(read.scene).count("x"));
  EXPECT_FALSE(point_names(read.scene).count("y") || point_names(read.scene).count("Y"));
  const PictureRead alone = read_with(false);
  EXPECT_FALSE(measure_texts(alone.scene).count("x"));
  EXPECT_TRUE(point_names(alone.scene).count("x") || point_names(alone.scene).count("X"));  // the font may read X
}

TEST(ReaderLetters, APointsNameStartsWithACapitalOrIsOneLetter) {
  for (const char* name : {"A", "B1", "C'", "B12''", "x", "CP"}) EXPECT_TRUE(names_a_point(name)) << name;
  // C2x: Geometry3K 20's "(2x + 24)°", its bracket read as C; Ly: its "(y + 58)°".
  for (const char* label : {"", "5", "36", "2x", "8y", "f3y", "1'", "C2x", "A12b", "Ly", "Ab"})
    EXPECT_FALSE(names_a_point(label)) << label;
}

// VisOnlyQA val's 00384noise_1: 12 dots, lettered A to L; the classifier read A, C, E, G surely and
// a J whose top a stroke crosses as T at 1.00. T lies past the run, but it was cut from a stroke:
// it says nothing of the run, which stays A to L. Not cut from a stroke, it would end it.
TEST(ReaderLetters, ALetterCutFromAStrokeSaysNothingOfTheRun) {
  using read::Glyph;
  std::vector<Glyph> glyphs;
  std::vector<KnownLetter> known;
  for (const auto& [text, x] : {std::pair{"A", 600}, {"C", 772}, {"E", 1319}, {"G", 388}, {"T", 841}}) {
    Glyph g;
    g.text = text;
    g.box = cv::Rect(x, 500, 12, 15);
    g.touches_stroke = std::string(text) == "T";
    glyphs.push_back(g);
    known.push_back({g.text, g.box});
  }
  const read::SureRun run = read::sure_run(known, glyphs, 12);
  EXPECT_TRUE(run.in_range);
  EXPECT_EQ(run.last, 'G');
  EXPECT_EQ(run.letters, (std::set<char>{'A', 'C', 'E', 'G'}));
  glyphs.back().touches_stroke = false;
  EXPECT_FALSE(read::sure_run(known, glyphs, 12).in_range);
  // In the run, a letter cut from a stroke counts like any other.
  EXPECT_EQ(read::sure_run(known, glyphs, 20).last, 'T');
  EXPECT_TRUE(read::in_run('M', 12) && read::in_run('O', 3) && !read::in_run('N', 12));
}

LetterRead letter(const std::string& label, bool doubtful = false) {
  LetterRead l;
  l.label = label;
  l.doubtful = doubtful;
  return l;
}

TEST(ReaderLetters, AFigureIsLetteredInCapitalsWhenItsSureLettersAreCapitals) {
  using read::lettered_in_capitals;
  EXPECT_TRUE(lettered_in_capitals({letter("A"), letter("B1"), letter("C'"), letter("p", true)}));
  EXPECT_FALSE(lettered_in_capitals({letter("A")}));                            // one is no evidence
  EXPECT_FALSE(lettered_in_capitals({letter("A"), letter("B"), letter("x")}));  // a sure small letter
  EXPECT_FALSE(lettered_in_capitals({letter("A"), letter("Ab"), letter("C")}));
  EXPECT_FALSE(lettered_in_capitals({letter("A"), letter("b", true), letter("", false)}));
}

// VisOnlyQA val's 00944, its font's scores (candidates C, E, G): the figure's C, which the classifier
// read surely, fits C 0.933 and E 0.670; strokes about a dot, where the classifier read nothing
// sure, fit C 0.946 by chance and no other letter well enough; the G fits G 0.924. Best score
// first, the strokes would take C and leave the C an E; the two reads that agree keep C where it is
// written. (Swapping the two would lower the sum: the strokes are no E.)
TEST(ReaderLetters, TwoReadsThatAgreeKeepTheirLetter) {
  using read::LetterPlace;
  const cv::Rect c_box(83, 270, 12, 16), strokes_box(177, 402, 14, 17), g_box(143, 72, 15, 17);
  std::vector<LetterPlace> places{
      {{0.933, 0.670, 0.828}, {c_box, c_box, c_box}, 0.55, 0},
      {{0.946, 0.500, 0.830}, {strokes_box, strokes_box, strokes_box}, 0.55, -1},
      {{0.829, 0.500, 0.924}, {g_box, g_box, g_box}, 0.55, 2},
  };
  EXPECT_EQ(read::assign_letters(places, true), (std::vector<int>{0, -1, 2}));
  // Without the classifier's sure read, best first: the strokes take C.
  places[0].sure = -1;
  EXPECT_EQ(read::assign_letters(places, true), (std::vector<int>{1, 0, 2}));
  // Not lettered once: each place its own best letter.
  EXPECT_EQ(read::assign_letters(places, false), (std::vector<int>{0, 0, 2}));
}

// VisOnlyQA 00565noise_1's font scores (candidates I, J): a J whose dot hides its hook fits I 0.921
// and J 0.853; an I beside it fits I 0.958 and J 0.878. Each letter once, I goes to the I (best
// first) and J to the J, 0.012 better in sum than the other way round: well under the 0.04 a read
// needs, so both are doubtful, each the other's runner-up (the scene's doubt that they may be the
// other way round), though the I alone is 0.08 ahead of J. Where the swapped sum is clearly worse,
// nothing changes.
TEST(ReaderLetters, TwoLettersThatFitAsWellTheOtherWayRoundAreEachOthersRunnerUp) {
  using read::LetterPlace;
  const cv::Rect j_box(690, 548, 4, 15), i_box(595, 617, 2, 12);
  const std::vector<std::string> candidates{"I", "J"};
  for (const double j_at_the_i : {0.878, 0.700}) {
    const std::vector<LetterPlace> places{{{0.921, 0.853}, {j_box, j_box}, 0.55, -1},
                                          {{0.958, j_at_the_i}, {i_box, i_box}, 0.55, -1}};
    const std::vector<int> letter_of = read::assign_letters(places, true);
    ASSERT_EQ(letter_of, (std::vector<int>{1, 0}));
    read::Glyph j, i;
    j.text = "J", j.confidence = 0.16, j.runner_up = "I";  // its own margin, -0.068
    i.text = "I", i.confidence = 0.90, i.runner_up = "J";  // 0.08
    const std::vector<read::Glyph*> glyph_at{&j, &i};
    read::doubt_near_swaps(places, letter_of, candidates, glyph_at);
    if (j_at_the_i > 0.8) {
      EXPECT_TRUE(i.doubtful && j.doubtful);
      EXPECT_NEAR(i.confidence, 0.5 + 5 * (0.853 + 0.958 - 0.921 - 0.878), 1e-9);
      EXPECT_LT(std::max(i.confidence, j.confidence), 0.75);
      EXPECT_EQ(i.runner_up, "J");
      EXPECT_EQ(j.runner_up, "I");
    } else {
      EXPECT_FALSE(i.doubtful);
      EXPECT_EQ(i.confidence, 0.90);
    }
  }
}

// VisOnlyQA 00566noise_1, lettered A to M, its 14 letters read naming points (a mark's ink read
// as P among them): so A to N. The E written into M's dot was read S (the font: S 0.827, E 0.805),
// and a D its strokes cross, O (O 0.888, D 0.865): past N while no point has D or E, so each takes
// the letter of the run the font draws best there, when told from the run's other letters by 0.04:
// F draws 0.780 at the S, but an F is read elsewhere, so F here means E there, and the font draws
// the F there 0.930 as F and 0.850 as E (0.025 + 0.080 in all: told). At 0.920 as E (0.035), or
// with an F found about a dot, read unsurely (0.025, the F's place unmeasured), not told: S stays.
// A letter past the run read nearly surely (0.9) means the figure skips letters: nothing moves. With
// the run's letter drawn clearly worse (0.06), or every letter of the run named, a letter past the
// run keeps its reading.
TEST(ReaderLetters, AnUnsureLetterPastTheRunTakesALetterOfTheRunNoPointHas) {
  read::LetterFont font;
  font.consecutive = true;
  for (char c = 'A'; c <= 'V'; ++c) font.labels.emplace_back(1, c);
  auto figure = [](double s_confidence, double e_score, double e_at_the_f) {
    std::vector<read::Glyph> glyphs;
    for (const char* l : {"A", "B", "C", "F", "G", "H", "I", "J", "K", "L", "M", "P"}) {
      read::Glyph g;
      g.text = l, g.confidence = 1, g.by_font = true;
      glyphs.push_back(g);
    }
    glyphs[3].font_scores = {{"E", e_at_the_f}, {"F", 0.930}};
    glyphs[11].confidence = 0.759;  // the P, past the run too, read unsurely
    read::Glyph s, o;
    s.text = "S", s.confidence = s_confidence, s.runner_up = "E", s.by_font = true;
    s.font_scores = {{"E", e_score}, {"F", 0.780}, {"S", 0.827}};
    o.text = "O", o.confidence = 0.618, o.runner_up = "D", o.by_font = true;
    o.font_scores = {{"D", 0.865}, {"O", 0.888}, {"Q", 0.801}};
    glyphs.push_back(s), glyphs.push_back(o);
    return glyphs;
  };
  auto attach_all = [](const std::vector<read::Glyph>& glyphs) {
    std::vector<read::Attachment> attached(glyphs.size());
    for (std::size_t g = 0; g < glyphs.size(); ++g) attached[g].point = static_cast<int>(g);
    return attached;
  };
  std::vector<read::Glyph> glyphs = figure(0.613, 0.805, 0.850);
  read::close_run_gaps(glyphs, attach_all(glyphs), font);
  const read::Glyph &e = glyphs[12], &d = glyphs[13];
  EXPECT_EQ(e.text, "E");
  EXPECT_EQ(d.text, "D");
  EXPECT_FALSE(e.doubtful);
  EXPECT_EQ(e.confidence, 1.0);  // 0.5 + 5 × 0.105
  EXPECT_EQ(e.runner_up, "F");
  EXPECT_EQ(d.confidence, 1.0);  // the font draws no other letter of the run there clearly
  EXPECT_EQ(d.runner_up, "O");

  glyphs = figure(0.613, 0.805, 0.920);  // E told from F by 0.035 only: S stays S
  read::close_run_gaps(glyphs, attach_all(glyphs), font);
  EXPECT_EQ(glyphs[12].text, "S");
  EXPECT_EQ(glyphs[12].confidence, 0.613);
  EXPECT_EQ(glyphs[3].text, "F");
  EXPECT_FALSE(glyphs[3].doubtful);
  glyphs = figure(0.613, 0.805, 0.850);
  glyphs[3].font_scores.clear(), glyphs[3].confidence = 0.116;  // an F found about a dot, unsure
  read::close_run_gaps(glyphs, attach_all(glyphs), font);
  EXPECT_EQ(glyphs[12].text, "S");  // 0.025 over F, the F's place unmeasured
  glyphs = figure(0.613, 0.805, 0.850);
  glyphs[3].font_scores.clear();  // an F the classifier read surely
  read::close_run_gaps(glyphs, attach_all(glyphs), font);
  EXPECT_EQ(glyphs[12].text, "E");
  EXPECT_FALSE(glyphs[12].doubtful);

  glyphs = figure(0.9, 0.805, 0.850);  // S read nearly surely: the figure skips letters
  read::close_run_gaps(glyphs, attach_all(glyphs), font);
  EXPECT_EQ(glyphs[12].text, "S");
  EXPECT_EQ(glyphs[13].text, "O");
  glyphs = figure(0.613, 0.767, 0.850);  // E drawn 0.06 worse than S
  read::close_run_gaps(glyphs, attach_all(glyphs), font);
  EXPECT_EQ(glyphs[12].text, "S");
  glyphs = figure(0.613, 0.805, 0.850);
  glyphs[0].text = "D", glyphs[1].text = "E";  // no point lacks D or E: A and B lacked instead
  read::close_run_gaps(glyphs, attach_all(glyphs), font);
  EXPECT_EQ(glyphs[12].text, "S");
  EXPECT_EQ(glyphs[13].text, "O");
  glyphs = figure(0.613, 0.805, 0.850);
  font.consecutive = false;  // a figure not lettered A, B, C, …
  read::close_run_gaps(glyphs, attach_all(glyphs), font);
  EXPECT_EQ(glyphs[12].text, "S");
}

// A glyph left a letter the font draws worse there than its runner-up, which another glyph names,
// rests on that glyph: it is told from the runner-up only when the pair fits 0.1 better this way
// round than the other, as a letter found about a dot is. VisOnlyQA 00566noise_1's I (a stroke
// under its foot: J 0.968, I 0.865) beside a J (J 0.956, I 0.748): 0.105, told. Two C's drawn
// alike, one left E (E 0.764, C 0.919; the other C 0.913, E not kept, so at most 0.7): 0.058, not
// told. Nor when the runner-up's glyph has no font's scores (the classifier's read alone).
TEST(ReaderLetters, ALetterLeftToAGlyphIsToldFromItsRunnerUpOnlyByAClearPairMargin) {
  auto glyph = [](const char* text, const char* runner_up, std::vector<std::pair<std::string, double>> scores) {
    read::Glyph g;
    g.text = text, g.runner_up = runner_up, g.by_font = true, g.font_scores = std::move(scores);
    return g;
  };
  std::vector<read::Glyph> glyphs{glyph("I", "J", {{"I", 0.865}, {"J", 0.968}}),
                                  glyph("J", "I", {{"I", 0.748}, {"J", 0.956}})};
  EXPECT_TRUE(read::told_from_runner_up(glyphs, 0));
  glyphs = {glyph("E", "C", {{"C", 0.919}, {"E", 0.764}}), glyph("C", "G", {{"C", 0.913}})};
  EXPECT_FALSE(read::told_from_runner_up(glyphs, 0));
  glyphs = {glyph("I", "J", {{"I", 0.865}, {"J", 0.968}}), glyph("J", "I", {})};
  EXPECT_FALSE(read::told_from_runner_up(glyphs, 0));
}

// VisOnlyQA 00759noise_1: the classifier read C at 1.00; the font draws C 0.874, G 0.875, O 0.873
// there: it cannot tell them apart, so the reads agree, and the C keeps its letter where a G read
// elsewhere (0.851) would otherwise lose it to this place's near tie.
TEST(ReaderLetters, ASureReadTheFontCannotTellFromItsBestAgrees) {
  using read::LetterPlace;
  const cv::Rect c_box(456, 411, 12, 16), g_box(427, 327, 15, 17);
  // Candidates C, G, O.
  std::vector<LetterPlace> places{
      {{0.874, 0.875, 0.873}, {c_box, c_box, c_box}, 0.55, 0},
      {{0.771, 0.851, 0.806}, {g_box, g_box, g_box}, 0.55, -1},
  };
  EXPECT_EQ(read::assign_letters(places, true), (std::vector<int>{0, 1}));
  // A font that draws C clearly worse (by 0.04) than its best there outweighs the classifier's read.
  places[0].scores = {0.834, 0.875, 0.873};
  EXPECT_NE(read::assign_letters(places, true)[0], 0);
}

// Geometry3K 19 shrunk to 110 px: the classifier read the C below the bottom corner at 0.91; the
// font draws C there 0.80, and 0.885 at the right-angle mark, ink the classifier read no letter in.
// The mark does not take the C; without the classifier's read, it would.
TEST(ReaderLetters, InkReadAsNoLetterDoesNotTakeALetterReadNearlySurelyElsewhere) {
  using read::LetterPlace;
  const cv::Rect c_box(207, 281, 22, 24), mark_box(195, 141, 19, 24);
  // Candidates A, B, C, D.
  std::vector<LetterPlace> places{
      {{0.60, 0.66, 0.80, 0.71}, {c_box, c_box, c_box, c_box}, 0.55, -1},
      {{0.50, 0.58, 0.885, 0.72}, {mark_box, mark_box, mark_box, mark_box}, 0.7, -1},
  };
  places[1].unread_ink = true;
  EXPECT_EQ(read::assign_letters(places, true)[1], 2);
  places[0].read = 2;
  read::keep_read_letters_from_unread_ink(places);
  const std::vector<int> letters = read::assign_letters(places, true);
  EXPECT_EQ(letters[0], 2);
  EXPECT_NE(letters[1], 2);
  // A read the font does not draw there (under min_score) keeps nothing from the ink.
  std::vector<LetterPlace> poor{
      {{0.60, 0.66, 0.50, 0.71}, {c_box, c_box, c_box, c_box}, 0.55, -1},
      {{0.50, 0.58, 0.885, 0.72}, {mark_box, mark_box, mark_box, mark_box}, 0.7, -1},
  };
  poor[0].read = 2, poor[1].unread_ink = true;
  read::keep_read_letters_from_unread_ink(poor);
  EXPECT_EQ(read::assign_letters(poor, true)[1], 2);
}

// Geometry3K 17 shrunk to 110 px: three letters or more read surely are needed to find the font;
// with fewer, it is found blind (DejaVu Sans Bold for an italic sans), and draws the classifier's
// M (0.986, doubtful by its own bar) as U 0.763, M 0.744. A nearly sure read agrees with such a
// font within kMargin, and keeps its letter.
TEST(ReaderLetters, ANearlySureReadAgreesWithAFontFoundBlind) {
  read::Glyph m;
  m.text = "M", m.confidence = 0.986, m.doubtful = true;
  EXPECT_TRUE(read::sure_for_the_font(m, true));
  EXPECT_FALSE(read::sure_for_the_font(m, false));
  m.confidence = 0.85;
  EXPECT_FALSE(read::sure_for_the_font(m, true));
  m.confidence = 1, m.doubtful = false;
  EXPECT_TRUE(read::sure_for_the_font(m, false));

  using read::LetterPlace;
  const cv::Rect box(52, 48, 21, 25);
  // Candidates M, N, P, Q, U (the figure's letters and the font's best).
  LetterPlace place{{0.744, 0.62, 0.55, 0.58, 0.763}, {box, box, box, box, box}, 0.55, -1};
  EXPECT_EQ(read::assign_letters({place}, false), (std::vector<int>{4}));
  place.sure = 0;
  EXPECT_EQ(read::assign_letters({place}, false), (std::vector<int>{0}));
}

// Geometry3K 17 shrunk to 200 px: its magenta angle arc at P was read as O, and moved P's letter.
// Among black letters read nearly surely, a glyph whose darker ink is magenta is a mark; a letter
// written over a blue stroke, or with subpixel colour fringes, keeps its black core.
TEST(ReaderLetters, AGlyphOfATextbooksColouredMarkIsNoLetter) {
  read::Sheet sheet;
  sheet.paper.ink = cv::Mat::zeros(60, 200, CV_8U);
  sheet.paper.darkness = cv::Mat::zeros(60, 200, CV_32F);
  cv::Mat tinted = cv::Mat::zeros(60, 200, CV_8U);
  auto ink = [&](const cv::Rect& r, float darkness, bool coloured) {
    sheet.paper.ink(r).setTo(255);
    sheet.paper.darkness(r).setTo(darkness);
    if (coloured) tinted(r).setTo(255);
  };
  auto glyph = [&](const std::string& text, const cv::Rect& box, double confidence) {
    read::Glyph g;
    g.text = text, g.box = box, g.confidence = confidence;
    sheet.glyphs.push_back(g);
  };
  ink({10, 10, 4, 20}, 200, false);   // A: black
  ink({40, 10, 4, 20}, 200, false);   // B: black
  ink({70, 10, 12, 20}, 150, true);   // the arc read as O: magenta all through
  ink({100, 10, 4, 20}, 200, false);  // C's black core ...
  ink({104, 10, 2, 20}, 90, true);    // ... and its lighter colour fringe
  ink({130, 18, 16, 4}, 220, true);   // a blue stroke ...
  ink({136, 10, 3, 20}, 230, false);  // ... under D's black stem
  glyph("A", {10, 10, 4, 20}, 1.0);
  glyph("B", {40, 10, 4, 20}, 0.95);
  glyph("O", {70, 10, 12, 20}, 0.9);
  glyph("C", {100, 10, 6, 20}, 0.6);
  glyph("D", {130, 10, 16, 20}, 0.6);
  read::Sheet coloured = sheet;
  read::drop_tinted_glyphs(sheet, tinted);
  std::set<std::string> kept;
  for (const read::Glyph& g : sheet.glyphs) kept.insert(g.text);
  EXPECT_EQ(kept, (std::set<std::string>{"A", "B", "C", "D"}));
  EXPECT_FALSE(sheet.tinted.empty());
  // Letters themselves in colour (one neutral letter read nearly surely): nothing is dropped.
  coloured.glyphs[1].confidence = 0.5;
  read::drop_tinted_glyphs(coloured, tinted);
  EXPECT_EQ(coloured.glyphs.size(), 5u);
  EXPECT_TRUE(coloured.tinted.empty());
}

}  // namespace
}  // namespace geotruth::vision
