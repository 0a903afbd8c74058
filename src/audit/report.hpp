// report.html: one self-contained page (no network) over an audit directory's outputs.
#pragma once

#include "core/exact_json.hpp"

#include <iosfwd>
#include <string>

namespace geotruth {

/// Writes the page for `dir` (verdicts.jsonl, scenes.jsonl, flagged.jsonl) and its summary,
/// streaming the data from the files.
void write_report(const std::string& dir, const ordered_json& summary, std::ostream& out);

}  // namespace geotruth
