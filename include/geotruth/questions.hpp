// Question evaluators: the truth of each question, and the facts it rests on.
#pragma once

#include <geotruth/incidence.hpp>
#include <geotruth/scene.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace geotruth {

/// A fact an answer depends on. `slack_px` is by how much it holds or misses, in rendered
/// pixels; an `ambiguous` fact lies in the band's ambiguous range (a person could not tell).
struct Fact {
  std::string kind;  ///< e.g. left_of, in_row, food_chain_cycle, short_circuit
  std::vector<std::string> elements;
  std::string detail;
  std::optional<double> slack_px;  ///< empty: combinatorial, no slack
  bool ambiguous = false;
  /// For answers that are a set of values (which label is left of X?): the value whose
  /// membership flips with this fact. Such a fact makes a question ambiguous only when that value
  /// is among its options; a fact without it (and without `alternative`) can change any answer.
  std::optional<std::string> toggles;
  /// For single-valued answers that the fact moves to a known other value (a count one more or
  /// one less when a label's side flips): that value. Such a fact makes a question ambiguous only
  /// when it selects another option than the truth (or, without options, another value).
  std::optional<std::string> alternative;
  /// The answer rests on this fact (a named figure's missing side, the measure an estimate picks
  /// its option by): a `wrong` verdict lists it as its reason.
  bool decisive = false;
};

/// The truth of one question. `values` lists every acceptable answer value (a count as decimal
/// text, an entity's name, a relation name); several values mean several options may be right.
struct Truth {
  bool supported = true;
  std::string reason;  ///< why unsupported, or why no truth exists (e.g. a cyclic food web)
  std::vector<std::string> values;
  std::vector<Fact> facts;
  /// Where the dataset's own generator rule and the picture part ways without changing the
  /// verdict (GePBench: a half-image answer decided by boxes, a centroid moved by the engine's
  /// rounding): each becomes an `engine_note` reason.
  std::vector<std::string> notes;
};

/// Evaluates questions on one scene; derived structures (incidences, graphs) are built once
/// and shared by the scene's questions.
class SceneEvaluator {
 public:
  /// Keeps a reference to `scene`: it must outlive the evaluator. With `with_doubts`, a question
  /// whose answer changes when a link the drawing contradicts (link_doubts) is redrawn gets that
  /// finding as an ambiguous fact.
  explicit SceneEvaluator(const Scene& scene, Bands bands = {}, bool with_doubts = true);
  ~SceneEvaluator();
  Truth evaluate(const Question& question);

  /// The scene's incidence structure (merged mode) and Tangram counts, built once.
  const Incidence& incidence();
  const struct TangramCounts& tangram_counts();

  struct Cache;  ///< derived structures shared by the scene's questions (opaque)

 private:
  // Scenes the picture may show instead: links the drawing contradicts (link_doubts), shapes the
  // dataset's source draws otherwise (Shape::drawn). A question whose answer differs on one gets
  // its finding as an ambiguous fact.
  void built_in_alternatives();
  const Scene& scene_;
  Bands bands_;
  std::unique_ptr<Cache> cache_;
  bool with_doubts_ = true;
};

/// Indices of the options that match a truth value: numbers compare as numbers (exactly), other
/// text case-insensitively with surrounding spaces ignored.
std::vector<std::size_t> matching_options(const Question& question, const Truth& truth);

/// Whether an ambiguous fact can change the answer to `question`: the one test behind `ambiguous`
/// in every command (analyze's and count's truths, the audit's verdicts, filter, score, Python).
/// A fact that toggles one value of a set-valued answer matters only when that value is offered
/// (or there are no options); a fact with an alternative value, only when that value picks other
/// options than the truth does; any other ambiguous fact can change any answer.
bool fact_changes_answer(const Question& question, const Truth& truth, const Fact& fact);
/// Whether two truths of one question pick different options (or values, without options), or
/// one has a truth and the other not.
bool answers_differ(const Question& question, const Truth& a, const Truth& b);
/// Whether any of the truth's facts changes the answer (fact_changes_answer).
bool answer_is_ambiguous(const Question& question, const Truth& truth);

/// The question's kind for summaries: "count/triangles", "which/left_of", "which/connected_pair",
/// "size/width", "reference/larger", "location", "relation", "exists" ("exists/absent"); named
/// figures: "exists/triangle" ("exists/triangle/absent"), "diameter", "estimate/angle", ….
std::string question_kind(const Question& question);

/// The option letter for an index: 0 → "A".
std::string option_letter(std::size_t index);

}  // namespace geotruth
