// A dataset, with geotruth's verdicts, in the layouts the evaluation harnesses load
// (docs/export.md): a Hugging Face imagefolder, a VLMEvalKit multiple-choice TSV, an lmms-eval task
// folder. One row per question; every layout keeps the scene id, the question id, the options, the
// annotated answer and the verdict (with geotruth's truth) as columns, so that `score` matches the
// harness's outputs back to the questions.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <geotruth/audit.hpp>
#include <geotruth/scene.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "batch/files.hpp"
#include "core/exact_json.hpp"

namespace geotruth {

enum class HarnessFormat { hf, vlmevalkit, lmms_eval };

/// "hf", "vlmevalkit" or "lmms-eval"; nullopt for any other name.
std::optional<HarnessFormat> harness_format_named(std::string_view name);

/// The text a harness shows the model: the question as the dataset wrote it, else geotruth's
/// wording of its kind ("How many triangles formed by letters are there in the figure?").
std::string question_text(const Question& question);

/// One question's row in every layout: {"index", "scene_id", "question_id", "question", "options",
/// "answer" (the annotated letter, or the value without options), "category" (the kind, e.g.
/// "count/triangles"), "aspect" ("count"), "difficulty", "verdict", "truth" (the audit's right
/// letter or value), "reasons" (["kind: detail", …])}.
ordered_json question_row(std::size_t index, const Scene& scene, const Question& question,
                          const QuestionVerdict& verdict, const std::string& difficulty);

struct HarnessOptions {
  HarnessFormat format = HarnessFormat::hf;
  std::filesystem::path out;  ///< the folder written (created)
  std::string name;           ///< the dataset's name: VLMEvalKit's <name>.tsv, lmms-eval's task; default: out's
  std::uint64_t max_picture_bytes = 64ull << 20;  ///< a picture file larger is refused
};

/// Writes one dataset in a harness's layout, the rows in the order they are added:
/// - hf: OUT/metadata.jsonl (question_row with "file_name") and OUT/images/<index>.<ext>, each row's
///   own file (a hard link to the scene's picture where the file system allows, else a copy):
///   `datasets.load_dataset("imagefolder", data_dir=OUT)` gives one row per question, with every
///   version of `datasets` (older ones key the metadata by file);
/// - vlmevalkit: OUT/<name>.tsv, VLMEvalKit's multiple-choice TSV: index, image (the picture in
///   base64; a later question of the same scene names the index of the scene's first row, as
///   VLMEvalKit's own TSVs do), question, answer, category (the kind), l2-category (the aspect),
///   scene_id, question_id, verdict, truth, difficulty, then the options A, B, C, D (and E… when a
///   question has more; fewer are empty cells);
/// - lmms-eval: OUT/<name>.yaml (the task), OUT/utils.py (its functions) and OUT/data/, the hf
///   layout of the documents, which the task loads by its absolute path.
/// Files are written under temporary names and renamed by finish(), pictures as they come.
class HarnessWriter {
 public:
  /// Throws std::runtime_error when OUT cannot be made.
  explicit HarnessWriter(HarnessOptions options);
  ~HarnessWriter();
  HarnessWriter(const HarnessWriter&) = delete;
  HarnessWriter& operator=(const HarnessWriter&) = delete;

  /// Adds a scene's questions with their verdicts; `picture` is the scene's picture. Throws
  /// InputError when the picture cannot be read (nothing of the scene is written then).
  void add(const Scene& scene, const SceneAudit& audit, const std::filesystem::path& picture);

  /// Writes what needs every row (the TSV's header, the task's YAML) and commits the files.
  /// Throws std::runtime_error when a file cannot be written.
  void finish();

  std::size_t rows() const { return rows_; }
  std::size_t scenes() const { return scenes_; }
  const HarnessOptions& options() const { return options_; }

 private:
  HarnessOptions options_;
  std::filesystem::path data_;  ///< where metadata.jsonl and images/ go (hf, lmms-eval)
  std::unique_ptr<AtomicFile> metadata_;
  std::filesystem::path rows_path_;  ///< the TSV's rows before its header (vlmevalkit)
  std::ofstream tsv_rows_;
  std::vector<std::pair<std::size_t, std::size_t>> rows_written_;  ///< bytes and options of each TSV row
  std::size_t rows_ = 0, scenes_ = 0, max_options_ = 4;
};

/// The lmms-eval task's functions (src/export/lmms_eval_utils.py), written as OUT/utils.py.
const char* lmms_eval_utils();

}  // namespace geotruth
