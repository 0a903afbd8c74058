// The GePBench engine's own position rules (src/questions/gepbench_rule.hpp) and every question
// template of its VQA code: hand-made rule sets and questions in the engine's format, on both
// sides of each threshold and inside the ambiguous band. Positions are built from rational
// rotations (Pythagorean triples), so each angle and distance below is known in closed form.
#include "questions/gepbench_rule.hpp"

#include <geotruth/audit.hpp>
#include <geotruth/import.hpp>
#include <geotruth/input.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace geotruth;
using namespace geotruth::questions::gepbench;

namespace {

const Vec2 kAnchor{Rational(1, 2), Rational(1, 2)};

// The engine's eight directions as integer vectors (its own vectors over their length).
const std::map<std::string, std::pair<int, int>> kDirections = {
    {"top", {0, 1}},         {"bottom", {0, -1}},     {"left", {-1, 0}},        {"right", {1, 0}},
    {"upper left", {-1, 1}}, {"upper right", {1, 1}}, {"lower left", {-1, -1}}, {"lower right", {1, -1}}};

// kAnchor + scale·(u turned by the angle whose cosine and sine are c, s).
Vec2 turned(const std::pair<int, int>& u, const Rational& c, const Rational& s, const Rational& scale) {
  return {kAnchor.x + scale * (c * u.first - s * u.second), kAnchor.y + scale * (s * u.first + c * u.second)};
}

double degrees(const Rational& c, const Rational& s) {
  return std::atan2(to_double(s), to_double(c)) * 180 / M_PI;
}

std::vector<ImportedScene> import_texts(const std::string& rules, const std::string& vqa) {
  return import_gepbench({{"rules.json", rules}, {"reference.jsonl", vqa}});
}

std::map<std::string, QuestionVerdict> verdicts_of(const Scene& s) {
  std::map<std::string, QuestionVerdict> out;
  for (auto& v : audit_scene(s).verdicts) out[v.question] = v;
  return out;
}

}  // namespace

TEST(GepbenchDirection, EachDirectionOnBothSidesOfTheAngles) {
  // Turned by 16.26° (24/25, 7/25): within π/9; 22.62° (12/13, 5/13) and 28.07° (15/17, 8/17):
  // between π/9 and π/5; 36.87° (4/5, 3/5): beyond π/5. Either way round.
  struct Turn {
    Rational c, s;
    RuleClass expected;
  };
  const std::vector<Turn> turns = {{{24, 25}, {7, 25}, RuleClass::holds},
                                   {{12, 13}, {5, 13}, RuleClass::gray},
                                   {{15, 17}, {8, 17}, RuleClass::gray},
                                   {{4, 5}, {3, 5}, RuleClass::fails}};
  for (const auto& [name, u] : kDirections)
    for (const auto& t : turns)
      for (const int sign : {1, -1}) {
        const Rational s = t.s * sign, scale(1, 10);
        const RuleResult r = relative_direction(name, kAnchor, turned(u, t.c, s, scale));
        EXPECT_EQ(r.cls, t.expected) << name << " turned " << degrees(t.c, s) << "°";
        // The margin, from the construction: |Δ| = scale·|u|, the angle off the direction φ.
        const double length = 0.1 * std::hypot(u.first, u.second), phi = std::abs(degrees(t.c, s)) * M_PI / 180;
        const double threshold = u.first != 0 && u.second != 0 ? 0.02 : 0.04;
        if (t.expected == RuleClass::holds) {
          EXPECT_NEAR(r.margin, std::min(length * std::cos(phi) - threshold, length * std::sin(M_PI / 9 - phi)), 1e-12);
        } else if (t.expected == RuleClass::fails) {
          EXPECT_NEAR(r.margin, length * std::sin(phi - M_PI / 5), 1e-12);
        }
        EXPECT_EQ(relative_direction(name, kAnchor, turned(u, -t.c, s, scale)).cls, RuleClass::fails) << "behind";
      }
}

TEST(GepbenchDirection, DistanceThresholdIsHalvedOnTheDiagonals) {
  // The engine's vectors have length 2 on the diagonals: its 0.04 on the projection is 0.02
  // along the diagonal (12.8 px at 640 px), against 0.04 (25.6 px) along an axis.
  for (const auto& [name, u] : kDirections) {
    const bool diagonal = u.first != 0 && u.second != 0;
    // Straight along the direction, just beyond and just short of the threshold.
    const Rational beyond = diagonal ? Rational(71, 5000) : Rational(41, 1000);      // 0.0201 / 0.041 along
    const Rational short_of = diagonal ? Rational(141, 10000) : Rational(39, 1000);  // 0.0199 / 0.039 along
    EXPECT_EQ(relative_direction(name, kAnchor, turned(u, 1, 0, beyond)).cls, RuleClass::holds) << name;
    EXPECT_EQ(relative_direction(name, kAnchor, turned(u, 1, 0, short_of)).cls, RuleClass::fails) << name;
  }
  // Exactly on the threshold the engine's "≥" holds, with no margin.
  const RuleResult edge = relative_direction("right", kAnchor, turned({1, 0}, 1, 0, Rational(1, 25)));
  EXPECT_EQ(edge.cls, RuleClass::holds);
  EXPECT_NEAR(edge.margin, 0, 1e-15);
  // Two shapes at one centroid: neither is in any direction of the other.
  EXPECT_EQ(relative_direction("upper right", kAnchor, kAnchor).cls, RuleClass::fails);
}

TEST(GepbenchRegion, BoxRuleOnBothSidesOfItsRatios) {
  // Upper half: the box must lie wholly above y = 0.4 and 80% of it above y = 0.6 (grown by
  // 0.0001 each side first).
  const Box high{Rational(1, 10), Rational(7, 10), Rational(3, 10), Rational(9, 10)};
  const RuleResult r = region_by_box("upper half", high);
  EXPECT_EQ(r.cls, RuleClass::holds);
  // It can move down until 80% of its 0.2002 height is above 0.6: 0.0999 + 0.2·0.2002.
  EXPECT_NEAR(r.margin, 0.0999 + 0.2 * 0.2002, 1e-12);
  const Box middle{Rational(1, 10), Rational(9, 20), Rational(3, 10), Rational(3, 4)};
  EXPECT_EQ(region_by_box("upper half", middle).cls, RuleClass::gray);  // 50% above 0.6
  const Box low{Rational(1, 10), Rational(1, 10), Rational(3, 10), Rational(1, 2)};
  const RuleResult fails = region_by_box("upper half", low);  // a quarter of it above 0.4
  EXPECT_EQ(fails.cls, RuleClass::fails);
  // It must rise until half of its 0.4002 height is above 0.4: 0.5001 − 0.4 → 0.2001.
  EXPECT_NEAR(fails.margin, 0.2001 - 0.1001, 1e-12);
  EXPECT_EQ(region_by_box("top left quarter", high).cls, RuleClass::holds);
  EXPECT_EQ(region_by_box("top right quarter", high).cls, RuleClass::fails);
  EXPECT_EQ(region_by_box("bottom left quarter", low).cls, RuleClass::gray);  // x in, y half in
  EXPECT_EQ(region_by_box("lower half", low).cls, RuleClass::gray);
  // The centroid reading, for the engine notes.
  EXPECT_TRUE(region_has_centre("top left quarter", {Rational(1, 5), Rational(4, 5)}, kAnchor));
  EXPECT_FALSE(region_has_centre("right half", {Rational(1, 5), Rational(4, 5)}, kAnchor));
}

TEST(GepbenchEngineNumbers, CentroidsRoundedAsTheEngineRoundsThem) {
  // Python's round(x, 2): half to even on the double's exact value. 0.125 is exact (→ 0.12);
  // (0.1 + 0.17)/2 is the double just above 0.135 (→ 0.14). A quarter disc's area centroid lies
  // 4√2·r/(3π) from its centre along the bisector; the engine rounds it with numpy.
  const auto s =
      read_scene(R"({"id":"e","frame":{"width":1,"height":1,"y":"up"},"shapes":[)"
                 R"({"id":"a","type":"segment","points":[[0.1,0.2],[0.15,0.3]]},)"
                 R"({"id":"b","type":"segment","points":[[0.1,0.2],[0.17,0.3]]},)"
                 R"({"id":"q","type":"sector","center":[0.5,0.5],"radius":0.3,"start_angle":0,"end_angle":90}]})");
  ASSERT_TRUE(std::holds_alternative<Scene>(s));
  const auto shapes = engine_shapes(std::get<Scene>(s));
  EXPECT_EQ(shapes[0].centre.x, Rational(3, 25));
  EXPECT_EQ(shapes[0].true_centre.x, Rational(1, 8));
  EXPECT_EQ(shapes[1].centre.x, Rational(7, 50));
  const double reach = 4 * 0.3 / (3 * M_PI);  // (4√2·r/(3π)) · cos 45°
  EXPECT_NEAR(to_double(shapes[2].true_centre.x), 0.5 + reach, 1e-12);
  EXPECT_NEAR(to_double(shapes[2].true_centre.y), 0.5 + reach, 1e-12);
  EXPECT_EQ(shapes[2].centre.x, Rational(63, 100));  // 0.6273…
  // Boxes: the segment's from its points; the quarter disc from its centre and arc.
  EXPECT_EQ(shapes[0].box.x1, Rational(3, 20));
  EXPECT_EQ(shapes[2].box.x0, Rational(1, 2));
  EXPECT_EQ(shapes[2].box.y1, Rational(4, 5));
}

namespace {

// A circle at (0.25, 0.5), a square around (0.75, 0.5) and a triangle whose centroid is
// (0.56, 0.61): from the circle, (0.31, 0.11), 19.54° above "right" (0.46° inside π/9: a margin
// of |Δ|·sin 0.46° = 0.00264, 1.69 px) and 25.46° off "upper right" (between π/9 and π/5). Every
// number is on the engine's 0.01 grid, so its rounding changes nothing.
const char* kRules = R"([{"shapes":[
  {"type":"ellipse","center":[0.25,0.5],"major_axis":0.1,"minor_axis":0.1,"rotation":0,"special_info":"circle"},
  {"type":"polygon","points":[[0.7,0.45],[0.8,0.45],[0.8,0.55],[0.7,0.55]],"special_info":"square"},
  {"type":"polygon","points":[[0.53,0.58],[0.59,0.58],[0.56,0.67]]}],"relations":[]}])";

std::string question(int id, const std::string& text, const std::string& choices, const std::string& answer) {
  return R"({"image_id":0,"question_id":)" + std::to_string(id) + R"(,"question":")" + text + R"(","choices":)" +
         choices + R"(,"answer":")" + answer + "\"}\n";
}

}  // namespace

TEST(GepbenchDirection, VerdictsWithTheirMargins) {
  const std::string c = "Considering the centroid, which of the following is ";
  const std::string vqa =
      question(0, c + "directly to the right of the circle?", R"(["square","star","hexagon","spiral"])", "square") +
      question(1, c + "directly to the left of the square?", R"(["circle","star","hexagon","spiral"])", "star") +
      question(2, c + "directly to the right of the circle?", R"(["triangle","star","hexagon","spiral"])", "triangle") +
      question(3, c + "to the upper right of the circle?", R"(["triangle","square","star","hexagon"])", "triangle") +
      question(4, c + "in the left half of the image?", R"(["circle","square","star","hexagon"])", "circle") +
      question(5, c + "in the left half of the image?", R"(["triangle","square","star","circle"])", "circle") +
      question(6, "Which shape is the most colourful?", R"(["circle","square","star","hexagon"])", "circle");
  const auto scenes = import_texts(kRules, vqa);
  const Scene& scene = std::get<Scene>(scenes.at(0).scene);
  const auto v = verdicts_of(scene);
  EXPECT_EQ(v.at("reference-0").verdict, Verdict::ok);     // 0.5 straight to the right
  EXPECT_EQ(v.at("reference-1").verdict, Verdict::wrong);  // the circle is, not the star
  EXPECT_EQ(v.at("reference-1").truth, "A");
  ASSERT_EQ(v.at("reference-2").verdict, Verdict::ambiguous);  // 1.69 px inside π/9
  EXPECT_NEAR(*v.at("reference-2").reasons.at(0).slack_px,
              0.3289376 * std::sin(M_PI / 9 - std::atan2(0.11, 0.31)) * 640, 0.01);
  EXPECT_EQ(v.at("reference-3").verdict, Verdict::ambiguous);  // the engine would not ask: gray
  EXPECT_EQ(v.at("reference-4").verdict, Verdict::ok);
  EXPECT_EQ(v.at("reference-5").verdict, Verdict::ambiguous);  // the triangle's box straddles: gray
  EXPECT_EQ(v.at("reference-6").verdict, Verdict::unsupported);
  for (const auto& [id, verdict] : v) EXPECT_FALSE(verdict.text.empty()) << id;  // the dataset's wording travels
}

TEST(GepbenchTemplates, EveryEngineTemplateIsNamed) {
  // The wording of each template of the engine's data/vqa/rule.py, with its name and evaluator.
  const std::string c = "Considering the centroid, ";
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"How many circles are there in the image?", "counting", "count"},
      {"Is there a circle and a star in the image?", "existence_pair", "exists"},
      {"Which of the following is absent in the image?", "existence_choice", "exists"},
      {"Which of the following is present in the image?", "existence_choice", "exists"},
      {c + "where is the square located in the image?", "absolute_position", "location"},
      {c + "where is the square located relative to the circle?", "relative_position", "location"},
      {"Suppose that the width and height of the image is 1, which of the following is closest to the horizontal "
       "span of the square?",
       "size_span", "size"},
      {"Suppose that the width and height of the image is 1, which of the following is closest to the area of the "
       "square?",
       "size_area", "size"},
      {c + "which of the following is in the lower half of the image?", "half_image", "reference"},
      {c + "which of the following is in the bottom right quarter of the image?", "quarter_image", "reference"},
      {c + "which of the following is directly to the bottom of the square?", "relative_direction", "reference"},
      {c + "which of the following is to the lower left of the square?", "relative_direction", "reference"},
      {"Which of the following is presented in the image and appears less frequently than circle(s)?", "more_frequent",
       "reference"},
      {"Which of the following is presented in the image and has a larger area than the triangle?", "larger_area",
       "reference"},
      {"What is the relationship of the circle to the square in the image?", "relation", "relation"},
      {"Which shape is the most colourful?", "unmatched", "unmapped"}};
  std::string vqa;
  for (std::size_t i = 0; i < cases.size(); ++i)
    vqa += question(static_cast<int>(i), std::get<0>(cases[i]), R"(["circle","square","star","hexagon"])", "circle");
  const auto scenes = import_texts(kRules, vqa);
  const Scene& scene = std::get<Scene>(scenes.at(0).scene);
  ASSERT_EQ(scene.questions.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(scene.questions[i].template_name, std::get<1>(cases[i])) << std::get<0>(cases[i]);
    EXPECT_EQ(scene.questions[i].ask, std::get<2>(cases[i])) << std::get<0>(cases[i]);
    EXPECT_EQ(scene.questions[i].text, std::get<0>(cases[i]));
  }
  EXPECT_EQ(scene.questions[10].value, "bottom");
  EXPECT_EQ(scene.questions[10].anchor, "square");
  EXPECT_EQ(scene.questions[11].value, "lower left");
  EXPECT_EQ(scene.questions[9].value, "bottom right quarter");
}

// The engine asks a relative-direction question only when the answer's box and the anchor's
// overlap by at most half of either (`_ratio_1`, `_ratio_2` ≤ 0.5 in data/vqa/rule.py). Anchor box
// [0, 0.2]², answer box [x0, x0 + 0.4] × [0, 0.2]: the overlap is (0.2 − x0)·0.2, half of the
// anchor's area at x0 = 0.1 (the answer's ratio, (0.2 − x0)/0.4, stays under a half). Judged from
// both sides, the margin is the shift to x0 = 0.1.
TEST(GepbenchDirection, BoxOverlapThresholdFromBothSides) {
  const Box anchor{Rational(0), Rational(0), Rational(1, 5), Rational(1, 5)};
  for (const auto& [x0, cls] : {std::pair{Rational(103, 1000), RuleClass::holds},
                                {Rational(97, 1000), RuleClass::fails},
                                {Rational(1, 10), RuleClass::holds}}) {  // exactly half: the engine asks
    const Box answer{x0, Rational(0), x0 + Rational(2, 5), Rational(1, 5)};
    const auto r = boxes_overlap_at_most_half(answer, anchor);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->cls, cls) << to_text(x0);
    EXPECT_NEAR(r->margin, std::abs(to_double(x0) - 0.1), 1e-12) << to_text(x0);
  }
  // Apart, the boxes cannot reach half along one axis: no finite margin. No area: no rule.
  const Box far{Rational(1, 2), Rational(1, 2), Rational(7, 10), Rational(7, 10)};
  EXPECT_EQ(boxes_overlap_at_most_half(far, anchor)->cls, RuleClass::holds);
  EXPECT_FALSE(boxes_overlap_at_most_half({Rational(0), Rational(0), Rational(1), Rational(0)}, anchor).has_value());
}

// The same threshold in a question: the rectangle above the circle (anchor box [0.4, 0.6] ×
// [0.2, 0.4], area 0.04) spans y from 0.3 + d to 0.7, so it covers (0.1 − d)·0.2 of the circle's
// box: half of it less 5d. Its centroid is 0.2 + d/2 straight above the circle's: the direction
// itself is clear. d = 0.02 (12.8 px from the threshold): ok; d = ±0.003 (1.9 px either side; the
// engine's 0.01 rounding puts both at exactly half): ambiguous; d = −0.02 (the engine would not
// ask): ambiguous, never ok.
TEST(GepbenchDirection, AnswerNearTheBoxOverlapThresholdIsAmbiguous) {
  for (const auto& [d, verdict] : {std::pair{"0.02", Verdict::ok},
                                   {"0.003", Verdict::ambiguous},
                                   {"-0.003", Verdict::ambiguous},
                                   {"-0.02", Verdict::ambiguous}}) {
    const std::string y = to_text(Rational(3, 10) + parse_rational_string(d).value.value());
    const std::string rules =
        R"([{"shapes":[{"type":"ellipse","center":[0.5,0.3],"major_axis":0.2,"minor_axis":0.2,"rotation":0,)"
        R"("special_info":"circle"},{"type":"polygon","points":[[0.4,)" +
        y + "],[0.6," + y + R"(],[0.6,0.7],[0.4,0.7]],"special_info":"rectangle"}],"relations":[]}])";
    const auto scenes = import_texts(rules, question(0,
                                                     "Considering the centroid, which of the following is directly "
                                                     "to the top of the circle?",
                                                     R"(["star","rectangle","hexagon","spiral"])", "rectangle"));
    const auto v = verdicts_of(std::get<Scene>(scenes.at(0).scene));
    EXPECT_EQ(v.at("reference-0").verdict, verdict) << d;
    EXPECT_EQ(v.at("reference-0").truth, "B") << d;
    if (verdict == Verdict::ambiguous) {
      EXPECT_NE(v.at("reference-0").reasons.at(0).detail.find("box_overlap"), std::string::npos) << d;
    }
  }
}
