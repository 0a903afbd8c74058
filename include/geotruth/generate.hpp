// Synthetic items with known answers: diagram graphs, and certified Tangram and GePBench items.
#pragma once

#include <cstdint>
#include <functional>
#include <geotruth/bands.hpp>
#include <geotruth/scene.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace geotruth {

struct DiagramOptions {
  bool grid = false;  ///< place entities in the cells of a 3×3 grid (and ask row/column questions)
};

/// The word list shipped in data/words.txt (compiled in).
const std::vector<std::string>& diagram_words();

/// Item `index` of the stream for `seed`: 2–9 entities named from `words`, 1..max arrows, no arrow
/// through or close to another entity and no two arrows crossing, and questions of every diagram
/// kind that has a unique answer here, each with four options. Every answer is worked out from the
/// construction itself. Deterministic: the same (seed, index) gives the same scene on any machine.
Scene generate_diagram(std::uint64_t seed, std::uint64_t index, const std::vector<std::string>& words,
                       const DiagramOptions& options = {});

/// What `generate` makes (docs/questions.md, "Generated items").
struct GenerateOptions {
  std::string family = "diagram";  ///< diagram, tangram or gepbench
  /// gepbench: "easy" (2–4 shapes) or "hard" (5–8), as the engine's two settings; tangram: "easy"
  /// (≤ 15 elements in total), "medium" (16–30) or "hard" (> 30), Tangram's difficulty. "" is easy.
  std::string level;
  bool grid = false;  ///< diagram: a 3×3 grid
  /// The band every item is certified at: no fact any answer rests on, and no drawn element, may
  /// lie in its ambiguous range at its render size (render_size_px; 0: 640 px for GePBench's unit
  /// square, the frame's own pixels for Tangram's 640 × 640 frame).
  Bands bands;
  std::size_t max_attempts = 5000;  ///< candidates tried for one item before it becomes an error
};

/// A check made outside this library on a candidate that passed every symbolic check (the picture
/// is drawn and cross-checked by the vision module): "" when the candidate passes, else the
/// reason it is rejected for ("picture: not_detected"), counted like the others.
using CandidateCheck = std::function<std::string(const Scene&)>;

/// One question as the GePBench engine writes it in its VQA files (data/vqa/rule.py): the
/// choices and answer as JSON values (numbers for counting, strings otherwise).
struct EngineQuestion {
  std::string aspect;  ///< existence, counting, size, location, reference, relation
  int question_id = 0;
  std::string question;
  std::vector<std::string> choices;  ///< each choice's JSON text ("2" or "\"circle\"")
  std::string answer;                ///< the answer's JSON text
};

/// The members of the question's VQA row after its image id, as the engine's files hold them:
/// `"question_id": 3, "question": "…", "choices": [...], "answer": …`.
std::string engine_row_members(const EngineQuestion& q);

struct GeneratedItem {
  Scene scene;  ///< the certified item with its questions and their answer letters
  /// gepbench: the figure as the engine's rules.json holds it (one element of its list, compact
  /// JSON) and its questions as the engine's VQA rows; `scene` is exactly what import --from
  /// gepbench makes of the two (apart from the scene's id).
  std::string engine_rules;
  std::vector<EngineQuestion> engine_questions;
  std::map<std::string, std::size_t> rejected;  ///< candidates rejected before this one, by reason
  std::map<std::string, std::size_t> dropped;   ///< questions proposed for this item and not certified, by reason
  std::size_t attempts = 0;                     ///< candidates made (the last one is the item)
  std::optional<std::string> error;             ///< set when no candidate passed in max_attempts
};

/// Item `index` (1-based: the item's ordinal in the run) of the stream for `seed`: candidates are
/// made from (seed, index, attempt) alone, so an item never depends on another (shards of a run
/// give exactly its items) and the same seed gives the same bytes on any machine. A candidate is
/// kept only when it is certified: validate() passes; the audit of the scene (audit_scene, the
/// code path of `geotruth audit`) finds nothing and judges every question ok; no question's truth
/// rests on a fact in the ambiguous band (so no option is in doubt); every drawn element is
/// visible at the render size (no stroke or gap under the visual band, letters clear of strokes);
/// and `picture` passes it. Answer letters rotate with the index per question kind.
GeneratedItem generate_item(const GenerateOptions& options, std::uint64_t seed, std::uint64_t index,
                            const CandidateCheck& picture = {});

/// The families and levels generate_item knows.
bool known_level(const std::string& family, const std::string& level);

}  // namespace geotruth
