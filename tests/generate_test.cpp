// The diagram generator: its answers (from construction) agree with the evaluators (from the
// scene), every item is clean by the findings, and a seed always gives the same bytes.
#include <gtest/gtest.h>

#include <geotruth/diagram_findings.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/generate.hpp>
#include <geotruth/input.hpp>
#include <geotruth/questions.hpp>
#include <set>

using namespace geotruth;

class GeneratedDiagrams : public ::testing::TestWithParam<bool> {};

TEST_P(GeneratedDiagrams, AnswersAgreeWithTheEvaluatorsAndNothingIsFound) {
  const bool grid = GetParam();
  std::set<std::size_t> sizes;
  std::set<std::string> kinds;
  for (std::uint64_t i = 0; i < 400; ++i) {
    const Scene s = generate_diagram(7, i, diagram_words(), {grid});
    SCOPED_TRACE(s.id);
    ASSERT_GE(s.entities.size(), 2u);
    ASSERT_LE(s.entities.size(), 9u);
    ASSERT_GE(s.links.size(), 1u);
    sizes.insert(s.entities.size());
    EXPECT_TRUE(diagram_findings(s).empty());
    // What it writes is valid input that reads back to the same scene.
    auto again = read_scene(write_scene(s));
    ASSERT_TRUE(std::holds_alternative<Scene>(again));
    EXPECT_EQ(std::get<Scene>(again), s);
    SceneEvaluator evaluator(s);
    for (const auto& q : s.questions) {
      kinds.insert(q.id);
      ASSERT_EQ(q.options.size(), 4u) << q.id;
      const Truth t = evaluator.evaluate(q);
      ASSERT_TRUE(t.supported) << q.id << ": " << t.reason;
      EXPECT_FALSE(answer_is_ambiguous(q, t)) << q.id;
      const auto right = matching_options(q, t);
      ASSERT_EQ(right.size(), 1u) << q.id;
      EXPECT_EQ(option_letter(right[0]), q.answer) << q.id;
    }
  }
  EXPECT_EQ(sizes.size(), 8u);  // every size from 2 to 9 occurs
  EXPECT_GE(kinds.size(), grid ? 9u : 7u);
}

INSTANTIATE_TEST_SUITE_P(Layouts, GeneratedDiagrams, ::testing::Values(false, true));

TEST(GeneratedDiagrams, DeterministicForASeed) {
  for (std::uint64_t i = 0; i < 20; ++i) {
    EXPECT_EQ(write_scene(generate_diagram(42, i, diagram_words())),
              write_scene(generate_diagram(42, i, diagram_words())));
    EXPECT_NE(write_scene(generate_diagram(42, i, diagram_words())),
              write_scene(generate_diagram(43, i, diagram_words())));
  }
}

TEST(GeneratedDiagrams, AnswerLettersAreSpread) {
  std::map<std::string, int> letters;
  for (std::uint64_t i = 0; i < 500; ++i)
    for (const auto& q : generate_diagram(3, i, diagram_words()).questions) ++letters[q.answer];
  ASSERT_EQ(letters.size(), 4u);
  for (const auto& [letter, n] : letters) EXPECT_GT(n, 400) << letter;  // ~1/4 of ~2,700 each
}
