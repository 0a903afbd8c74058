// Question evaluators: the truth of each question, and the facts it rests on.
#pragma once

#include <geotruth/incidence.hpp>
#include <geotruth/scene.hpp>
#include <memory>
#include <string>
#include <vector>

namespace geotruth {

/// A fact an answer depends on. `slack_px` is by how much it holds or misses, in rendered
/// pixels; a fact with eps_num < slack < eps_vis is `ambiguous` (a person could not tell).
struct Fact {
  std::string kind;  ///< e.g. left_of, in_row, food_chain_cycle, short_circuit
  std::vector<std::string> elements;
  std::string detail;
  double slack_px = -1;  ///< −1: combinatorial, no slack
  bool ambiguous = false;
};

/// The truth of one question. `values` lists every acceptable answer value (a count as decimal
/// text, an entity's name, a relation name); several values mean several options may be right.
struct Truth {
  bool supported = true;
  std::string reason;  ///< why unsupported, or why no truth exists (e.g. a cyclic food web)
  std::vector<std::string> values;
  std::vector<Fact> facts;
  bool ambiguous() const;
};

/// Evaluates questions on one scene; derived structures (incidences, graphs) are built once
/// and shared by the scene's questions.
class SceneEvaluator {
 public:
  SceneEvaluator(const Scene& scene, const Thresholds& thresholds = {});
  ~SceneEvaluator();
  Truth evaluate(const Question& question);

  /// The scene's incidence structure (merged mode) and Tangram counts, built once.
  const Incidence& incidence();
  const struct TangramCounts& tangram_counts();

  struct Cache;  ///< derived structures shared by the scene's questions (opaque)

 private:
  const Scene& scene_;
  Thresholds thresholds_;
  std::unique_ptr<Cache> cache_;
};

/// Indices of the options that match a truth value: numbers compare as numbers (exactly), other
/// text case-insensitively with surrounding spaces ignored.
std::vector<std::size_t> matching_options(const Question& question, const Truth& truth);

/// The question's kind for summaries: "count/triangles", "which/left_of", "which/connected_pair",
/// "size/width", "reference/larger", "location", "relation", "exists" ("exists/absent").
std::string question_kind(const Question& question);

/// The option letter for an index: 0 → "A".
std::string option_letter(std::size_t index);

}  // namespace geotruth
