// report.html: one self-contained page (no network) over an audit directory's outputs.
#pragma once

#include <string>

#include "core/exact_json.hpp"

namespace geotruth {

/// The page for `dir` (verdicts.jsonl, scenes.jsonl, flagged.jsonl) and its summary.
std::string render_report(const std::string& dir, const ordered_json& summary);

}  // namespace geotruth
