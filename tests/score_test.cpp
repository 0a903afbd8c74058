// Scoring model outputs: the answer read from realistic responses (including those GePBench's own
// parser misreads), and scores on hand-made outputs whose accuracies are worked out by hand.
#include <gtest/gtest.h>

#include <fstream>
#include <geotruth/audit.hpp>

#include "score/extract.hpp"
#include "score/score.hpp"
#include "test_paths.hpp"

using namespace geotruth;
using namespace geotruth::score;

namespace {

Question asked(std::string ask, std::vector<std::string> options, std::string answer = "") {
  Question q;
  q.ask = std::move(ask);
  q.options = std::move(options);
  q.answer = std::move(answer);
  return q;
}

const std::vector<std::string> kCounts{"0", "1", "2", "3"};
const std::vector<std::string> kShapes{"triangle", "ellipse", "circle", "hexagon"};
const std::vector<std::string> kQuadrants{"upper left", "upper right", "lower left", "lower right"};
const std::vector<std::string> kRelations{"tangent", "parallel", "perpendicular", "none of the above"};

struct Case {
  const char* response;
  Question question;
  const char* letters;  // the scene's one-letter point names
  Method method;
  std::optional<std::size_t> option;
};

std::string letter_of(const std::optional<std::size_t>& option) {
  return option ? option_letter(*option) : "-";
}

void expect_cases(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    const std::string letters = c.letters;
    const Extracted e = extract_answer(c.response, c.question, std::set<char>(letters.begin(), letters.end()));
    EXPECT_EQ(method_name(e.method), std::string(method_name(c.method))) << c.response;
    EXPECT_EQ(letter_of(e.option), letter_of(c.option)) << c.response;
  }
}

}  // namespace

// Each of these is misread by GePBench's find_answer (eval/gepbench.py: the last single-letter
// word in A–D, else the one choice that is a substring, returned as text and then scored by
// ord(pred) − ord("A"), which raises TypeError for text longer than one character).
TEST(Extract, ResponsesGePBenchsParserMisreads) {
  expect_cases({
      // GePBench returns the choice "2", scored as ord("2") − 65: wrong although right.
      {"2", asked("count", kCounts), "", Method::number, 2},
      // No letter, no digit: GePBench finds nothing.
      {"There are two circles in the image.", asked("count", kCounts), "", Method::number, 2},
      // The article "A" is its last single-letter word.
      {"C. A circle.", asked("exists", kShapes), "", Method::letter, 2},
      // The last letter is the one the model rejects.
      {"The answer is B, not C.", asked("location", kQuadrants), "", Method::marker, 1},
      // Choice text "lower left": GePBench's ord() raises TypeError.
      {"The triangle is in the lower left.", asked("location", kQuadrants), "", Method::text, 2},
      // Case: "Circle" is not the substring "circle".
      {"Circle", asked("exists", kShapes), "", Method::text, 2},
      // A lower-case letter in parentheses.
      {"(b)", asked("relation", kRelations), "", Method::letter, 1},
      // "0.42" is returned as text: TypeError again.
      {"0.42", asked("size", {"0.12", "0.27", "0.42", "0.57"}), "", Method::number, 2},
      // Point letters are not options: the last of them (D) is what GePBench reads.
      {"The letters are A, B, C and D, so there are 4 letters.", asked("count", {"3", "4", "5", "6"}), "ABCD",
       Method::number, 1},
  });
}

TEST(Extract, MarkersLettersTextsNumbers) {
  expect_cases({
      {"B", asked("count", kCounts), "", Method::letter, 1},
      {"Answer: (D) none of the above", asked("relation", kRelations), "", Method::marker, 3},
      {"Let me look. The circle touches the line once.\nFinal answer: **A**", asked("relation", kRelations), "",
       Method::marker, 0},
      {"The correct option is C because the centroid is below the midline.", asked("location", kQuadrants), "",
       Method::marker, 2},
      {"The answer is 3.", asked("count", kCounts), "", Method::marker, 3},
      {"The answer is that they are parallel.", asked("relation", kRelations), "", Method::marker, 1},
      {"A is correct.", asked("relation", kRelations), "", Method::letter, 0},
      {"A triangle", asked("exists", kShapes), "", Method::text, 0},
      // Letters inside words, segment names and "3D" are no option letters.
      {"Segment A-B is a chord; in 3D it would differ. ABCD is a square.", asked("count", kCounts), "", Method::none,
       std::nullopt},
      // A lone letter that names a point counts only as the whole response or opening it.
      {"B.", asked("count", {"3", "4", "5", "6"}), "ABCD", Method::letter, 1},
      {"B) 4", asked("count", {"3", "4", "5", "6"}), "ABCD", Method::letter, 1},
      // The last option text; at one end the longer option wins ("line segment", not "segment").
      {"It is not an ellipse, it is a circle.", asked("exists", kShapes), "", Method::text, 2},
      {"a line segment", asked("exists", {"segment", "line segment", "ray", "circle"}), "", Method::text, 1},
      // An option's qualifier in parentheses may be left out; "semicircle" is not "circle".
      {"the quadrilateral", asked("exists", {"quadrilateral (rectangle excluded)", "circle", "ray", "star"}), "",
       Method::text, 0},
      {"a semicircle", asked("exists", kShapes), "", Method::none, std::nullopt},
      // Numbers: the last that is an option; 7 is none.
      {"I see 2 circles, each of radius 7.", asked("count", kCounts), "", Method::number, 2},
      {"seven", asked("count", kCounts), "", Method::none, std::nullopt},
      {"", asked("count", kCounts), "", Method::none, std::nullopt},
  });
}

TEST(Extract, QuestionsWithoutOptionsTakeTheValue) {
  const Extracted e = extract_answer("I count twelve triangles in all.", asked("count", {}, "12"));
  EXPECT_EQ(e.method, Method::number);
  EXPECT_EQ(e.value, "12");
  EXPECT_FALSE(e.option);
  const Extracted text = extract_answer("The answer is: the owl.", asked("which", {}, "owl"));
  EXPECT_EQ(text.method, Method::marker);
  EXPECT_EQ(text.value, "the owl");
}

namespace {

// The first three scenes of data/scenes.jsonl (answers worked by hand in data/README.md): ten
// counting questions, nine annotated right and one wrong (tangram-two-cevians-one-parallel's
// triangles: annotated B = 10, the truth is C = 12).
Scorer three_tangram_scenes() {
  Scorer scorer;
  std::ifstream in(std::string(GEOTRUTH_DATA) + "/scenes.jsonl");
  std::string line;
  for (int k = 0; k < 3 && std::getline(in, line); ++k) {
    const Scene scene = std::get<Scene>(read_scene(line));
    scorer.add(scene, audit_scene(scene));
  }
  return scorer;
}

// A model answering `answers` (question key → response); other questions get no response.
Model model(const std::string& name, const std::vector<std::pair<std::string, std::string>>& answers) {
  Model m{name, name + ".jsonl", {}};
  std::size_t line = 0;
  for (const auto& [key, response] : answers)
    m.rows.push_back(parse_row(ordered_json{{"question_id", key}, {"response", response}}.dump(), ++line));
  return m;
}

constexpr const char* s1 = "tangram-inscribed-triangle/";
constexpr const char* s2 = "tangram-one-cevian/";
constexpr const char* s3 = "tangram-two-cevians-one-parallel/";

}  // namespace

TEST(Score, HandMadeOutputsScoreAsWorkedByHand) {
  const Scorer scorer = three_tangram_scenes();
  ASSERT_EQ(scorer.questions(), 10u);
  // alpha follows the annotation (B on the planted triangles) and misses s1's segments (answers
  // 4 = C, the truth is 3 = B): all 9/10, audited ok 8/9, corrected 8/10.
  const Model alpha = model("alpha", {{std::string(s1) + "letters", "B"},
                                      {std::string(s1) + "circles", "There is one circle: B"},
                                      {std::string(s1) + "segments", "C"},
                                      {std::string(s1) + "triangles", "A"},
                                      {std::string(s2) + "letters", "4"},
                                      {std::string(s2) + "segments", "Answer: C"},
                                      {std::string(s2) + "triangles", "B"},
                                      {std::string(s3) + "letters", "nine letters"},
                                      {std::string(s3) + "segments", "D"},
                                      {std::string(s3) + "triangles", "B"}});
  // beta sees the true 12 triangles, gives no response to s2's letters and none that can be read
  // to s3's segments.
  const Model beta = model("beta", {{std::string(s1) + "letters", "B"},
                                    {std::string(s1) + "circles", "B"},
                                    {std::string(s1) + "segments", "B"},
                                    {std::string(s1) + "triangles", "A"},
                                    {std::string(s2) + "segments", "C"},
                                    {std::string(s2) + "triangles", "B"},
                                    {std::string(s3) + "letters", "C"},
                                    {std::string(s3) + "segments", "I cannot tell."},
                                    {std::string(s3) + "triangles", "There are 12 triangles."},
                                    {"no-such-scene/letters", "B"}});
  const ordered_json scores = scorer.score({alpha, beta});
  EXPECT_EQ(scores["verdicts"]["ok"], 9);
  EXPECT_EQ(scores["verdicts"]["wrong"], 1);
  auto expect = [](const ordered_json& tally, std::size_t correct, std::size_t n) {
    EXPECT_EQ(tally["n"], n);
    EXPECT_EQ(tally["correct"], correct);
  };
  const ordered_json& a = scores["models"][0];
  expect(a["all"], 9, 10);
  expect(a["clean"], 8, 9);
  expect(a["corrected"], 8, 10);
  EXPECT_DOUBLE_EQ(a["all"]["accuracy"].get<double>(), 0.9);
  // By kind: the triangles are where the planted error is.
  expect(a["by_kind"]["count/triangles"]["all"], 3, 3);
  expect(a["by_kind"]["count/triangles"]["clean"], 2, 2);
  expect(a["by_kind"]["count/triangles"]["corrected"], 2, 3);
  expect(a["by_difficulty"]["Hard"]["all"], 3, 3);  // s3 is the Hard scene
  const ordered_json& b = scores["models"][1];
  // beta: right on s1 letters, circles, segments, triangles; s2 segments, triangles; s3 letters
  // (7); s2 letters missing, s3 segments unanswered, s3 triangles 12 ≠ annotated 10.
  expect(b["all"], 7, 10);
  expect(b["clean"], 7, 9);
  expect(b["corrected"], 8, 10);
  EXPECT_EQ(b["responses"]["missing"], 1);
  EXPECT_EQ(b["missing"], ordered_json::array({std::string(s2) + "letters"}));
  EXPECT_EQ(b["responses"]["unmatched"], 1);
  EXPECT_EQ(b["responses"]["unanswered"], 1);
  // alpha leads on all items (0.9 vs 0.7) and on corrected ties (0.8 vs 0.8): no rank change.
  EXPECT_TRUE(scores["rank_changes"].empty());
}

TEST(Score, RankChangesWhenTheCorrectedAnswersDecide) {
  const Scorer scorer = three_tangram_scenes();
  // Both right on the nine ok questions but one each; on the planted question one follows the
  // annotation (B) and the other the truth (C).
  const std::vector<std::pair<std::string, std::string>> right_on_ok{
      {std::string(s1) + "letters", "B"},   {std::string(s1) + "circles", "B"}, {std::string(s1) + "segments", "B"},
      {std::string(s1) + "triangles", "A"}, {std::string(s2) + "letters", "B"}, {std::string(s2) + "segments", "C"},
      {std::string(s2) + "triangles", "B"}, {std::string(s3) + "letters", "C"}, {std::string(s3) + "segments", "D"}};
  std::vector<std::pair<std::string, std::string>> annotated, truthful;
  for (const auto& [key, letter] : right_on_ok) {
    annotated.emplace_back(key, key == std::string(s1) + "letters" ? "A" : letter);
    truthful.emplace_back(key, key == std::string(s2) + "letters" ? "A" : letter);
  }
  annotated.emplace_back(std::string(s3) + "triangles", "B");
  truthful.emplace_back(std::string(s3) + "triangles", "C");
  truthful.emplace_back(std::string(s3) + "triangles", "B");  // a second row: the first counts
  const ordered_json scores = scorer.score({model("annotated", annotated), model("truthful", truthful)});
  // annotated: all 9/10, corrected 8/10; truthful: all 8/10, corrected 9/10.
  EXPECT_EQ(scores["models"][0]["all"]["correct"], 9);
  EXPECT_EQ(scores["models"][0]["corrected"]["correct"], 8);
  EXPECT_EQ(scores["models"][1]["all"]["correct"], 8);
  EXPECT_EQ(scores["models"][1]["corrected"]["correct"], 9);
  EXPECT_EQ(scores["models"][1]["responses"]["duplicates"], 1);
  // Audited ok: both 8/9, a tie, no change. Corrected: truthful overtakes, overall and in the
  // only aspect (count).
  ASSERT_EQ(scores["rank_changes"].size(), 2u);
  for (const auto& change : scores["rank_changes"]) {
    EXPECT_EQ(change["view"], "corrected");
    EXPECT_EQ(change["models"], ordered_json::array({"annotated", "truthful"}));
  }
  EXPECT_EQ(scores["rank_changes"][0]["scope"], "all");
  EXPECT_EQ(scores["rank_changes"][1]["scope"], "aspect count");
  EXPECT_NE(table(scores).find("all, corrected: truthful 90.0% above annotated 80.0%"), std::string::npos);
}

TEST(Score, AQuestionIdUniqueInTheDatasetNamesItsQuestion) {
  Scorer scorer;
  std::ifstream in(std::string(GEOTRUTH_DATA) + "/scenes.jsonl");
  for (std::string line; std::getline(in, line);) {
    const Scene scene = std::get<Scene>(read_scene(line));
    scorer.add(scene, audit_scene(scene));
  }
  // "chains" is asked only of diagram-food-web (AI2D's question ids are unique like this);
  // "letters" is asked of five scenes and names none of them.
  Model m{"bare", "bare.jsonl", {}};
  m.rows.push_back(parse_row(R"({"question_id": "chains", "response": "C"})", 1));
  m.rows.push_back(parse_row(R"({"questionId": "letters", "response": "B"})", 2));
  const ordered_json scores = scorer.score({m});
  EXPECT_EQ(scores["models"][0]["responses"]["matched"], 1);
  EXPECT_EQ(scores["models"][0]["unmatched"], ordered_json::array({"letters"}));
  EXPECT_EQ(scores["models"][0]["by_kind"]["count/food_chains"]["all"]["correct"], 1);
}

TEST(Score, GePBenchsOwnIdsFindTheirQuestions) {
  // The engine writes one file per aspect, rows keyed by image_id and question_id only.
  const std::string dir = std::string(GEOTRUTH_FIXTURES) + "/gepbench/";
  std::vector<std::pair<std::string, std::string>> files;
  for (const char* name : {"rules.json", "location.jsonl", "size.jsonl"}) {
    std::ifstream in(dir + name);
    files.emplace_back(dir + name, std::string(std::istreambuf_iterator<char>(in), {}));
  }
  Scorer scorer;
  for (auto& imported : import_gepbench(files))
    if (const Scene* scene = std::get_if<Scene>(&imported.scene)) scorer.add(*scene, audit_scene(*scene), imported.key);
  Model m{"engine", "location", {}};
  // Question 0 of image 1 exists in location.jsonl; the text picks it among the aspects.
  m.rows.push_back(parse_row(
      R"({"image_id": 1, "question_id": 0, "question": "Considering the centroid, where is the triangle located in the image?", "response": "C"})",
      1));
  m.rows.push_back(parse_row(R"({"image_id": 1, "question_id": 2, "aspect": "location", "response": "2"})", 2));
  m.rows.push_back(parse_row(R"({"question_id": "gepbench-0/size-0", "response": "0.42"})", 3));
  const ordered_json scores = scorer.score({m});
  EXPECT_EQ(scores["models"][0]["responses"]["matched"], 3);
  EXPECT_EQ(scores["models"][0]["responses"]["unmatched"], 0);
}
