// Model outputs in the evaluation harnesses' own files, as the response rows `score` matches to
// questions (docs/score.md, "Model outputs"): lmms-eval's --log_samples JSONL rows, and VLMEvalKit's
// prediction tables (.xlsx by default, .csv, .tsv). Both carry the ids `geotruth export` wrote.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "score/score.hpp"
#include "score/xlsx.hpp"

namespace geotruth::score {

/// Whether `path` names a prediction table: .xlsx, .csv or .tsv (any case).
bool is_prediction_table(const std::string& path);

/// Reads VLMEvalKit's prediction table `path` into `model.rows`. Its first row names the columns;
/// every other non-empty row becomes {"scene", "question_id", "index", "response"} from the
/// columns scene_id, question_id and index (what `geotruth export --format vlmevalkit` wrote;
/// VLMEvalKit keeps a dataset's columns in its predictions) and prediction (the model's text; an
/// empty cell is an empty response). .csv and .tsv are RFC 4180 (quoted fields, "" inside them,
/// line breaks inside quotes: pandas' to_csv with any quoting), in UTF-8; .xlsx is read_xlsx's
/// first sheet within `xlsx` (a cell, or a .csv/.tsv record, within limits.max_line_bytes). A file
/// that cannot be read, or has no prediction or question_id column, becomes one unreadable row
/// (line 0) naming the file and the reason.
void read_prediction_table(const std::string& path, const Limits& limits, const XlsxLimits& xlsx, Model& model);

/// An lmms-eval --log_samples row as a response row {"scene", "question_id", "response"}, or
/// nullopt when `row` is not one (no "doc_id", or neither "filtered_resps" nor "resps"). The
/// response is the first text in filtered_resps (lmms-eval writes a text, or lists of them), else
/// in resps; the ids are those of the "geotruth" value the exported task's process_results adds
/// to every sample ({"scene_id", "question_id", …}), else of the row's "doc" (lmms-eval versions
/// that log the document).
std::optional<ordered_json> lmms_eval_row(const ordered_json& row);

}  // namespace geotruth::score
