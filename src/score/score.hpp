// Scoring model outputs against a dataset three ways: on all items, on the items the audit finds
// `ok`, and with geotruth's truth in place of the annotated answers it finds `wrong`
// (docs/score.md). Computed once here for `geotruth score` and `geotruth.score`.
#pragma once

#include <functional>
#include <geotruth/audit.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "batch/batch.hpp"
#include "score/xlsx.hpp"

namespace geotruth::score {

/// One model's responses: a name (its file's stem) and its JSONL rows, each parsed or the reason
/// it could not be.
struct Model {
  std::string name, file;
  struct Row {
    std::size_t line = 0;
    ordered_json value;  ///< the parsed row (null when unreadable)
    std::string error;   ///< why the row could not be read
  };
  std::vector<Row> rows;
};

/// One model-output row from its JSON text: an object with a "response" text (an lmms-eval
/// --log_samples row is made one: score/harness.hpp), else the reason.
Model::Row parse_row(const std::string& text, std::size_t line);

/// Reads a model-output JSONL file (one row per line), or a directory of them, or VLMEvalKit's
/// prediction table (.xlsx, .csv, .tsv: score/harness.hpp). The name is the file's stem.
Model read_model(const std::string& path, const Limits& limits = {}, const XlsxLimits& xlsx = {});

class Scorer {
 public:
  /// Adds a scene's questions with their verdicts. `key` is the scene's own name in its source
  /// (an imported scene's key), accepted in response ids besides the scene's id.
  void add(const Scene& scene, const SceneAudit& audit, const std::string& key = "");

  /// Reads, audits (at `bands`, within the work limit) and adds one input record; an unreadable
  /// record, or one past its work limit, adds nothing and returns its error.
  std::optional<InputError> add(const StreamItem& item, const Bands& bands, const Limits& limits);

  /// Scores every model: {"questions", "verdicts", "models": [{"name", "file", "responses",
  /// "all", "clean", "corrected", "by_aspect", "by_kind", "by_difficulty", "missing",
  /// "unmatched"}], "rank_changes"}; each score {"n", "correct", "accuracy"}.
  ordered_json score(const std::vector<Model>& models) const;

  std::size_t questions() const { return items_.size(); }

  /// The questions of one item file of a dataset whose questions name their file (VisOnlyQA's
  /// extra "set" and "task"), in the order they were added: their "<scene>/<question>" key, their
  /// text and the annotated answer as the dataset wrote it.
  struct TaskItem {
    std::string key, text, annotated;
  };
  std::vector<TaskItem> task_items(const std::string& set, const std::string& task) const;

 private:
  struct Item {
    std::string scene, question, text, kind, aspect, difficulty;
    Question asked;  ///< options and annotated answer
    Verdict verdict = Verdict::ok;
    std::string truth;  ///< the audit's truth: an option letter, or the value without options
    std::set<char> point_letters;
    std::string task, set, annotated;  ///< VisOnlyQA: the item file and the answer as written
  };
  std::optional<std::size_t> find(const ordered_json& row, std::string& key) const;
  std::vector<Item> items_;
  std::map<std::string, std::size_t> by_key_;                      ///< "<scene>/<question>" → item
  std::map<std::string, std::vector<std::size_t>> by_scene_;       ///< scene id or key → its items
  std::map<std::string, std::optional<std::size_t>> by_question_;  ///< question id → item (none: not unique)
};

/// VisOnlyQA's published model responses under `paths` (its results/model_responses folder, or any
/// folder or file in it: eval_<set>/<task>/prompt=<prompt>/<model>.jsonl), one row per item of
/// the task's file in the file's order, matched to `scorer`'s questions by that order. A row's
/// prompt must contain its question's text (else the row is unreadable: the order is off); its
/// response may be a list of one string; the dataset's own reading (y_pred) is kept as the row's
/// "answer" (docs/visonlyqa.md). Models are named by their file (fine-tuned ones, one file per
/// training task, as "<model> (fine-tuned)" or "(fine-tuned with text)"); only `prompt` files are read.
std::vector<Model> read_visonlyqa_models(const std::vector<std::string>& paths, const Scorer& scorer,
                                         const std::string& prompt = "no_reasoning", const Limits& limits = {});

/// Reads, audits and adds to `scorer` every record `next` gives (until it returns false): returns
/// {"records", "errors", "unreadable": [error records ({line, file, error}), the first 20]}.
ordered_json add_records(Scorer& scorer, const std::function<bool(StreamItem&)>& next, const Bands& bands,
                         const Limits& limits);

/// The scores as a table (for a terminal): per model, all / clean / corrected for every aspect,
/// kind and difficulty, how many items each rests on; then the rank changes.
std::string table(const ordered_json& scores);

/// The scores as one self-contained HTML page (the same tables).
std::string page(const ordered_json& scores);

}  // namespace geotruth::score
