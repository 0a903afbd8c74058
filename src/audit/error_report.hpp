// The per-dataset error report: every conflict of an audit ranked by slack, and for each diagram
// with one, an SVG of its annotated positions with the offending points, lines and circles in
// red (over the dataset's own picture when one is given), so a person confirms it in seconds.
#pragma once

#include <string>

namespace geotruth {

/// Writes conflicts.jsonl (ranked by slack, largest first), conflicts.html (the same, with each
/// diagram's picture inline; offline) and diagrams/<id>.svg into `dir`, from its scenes.jsonl and
/// flagged.jsonl. `image_dir`, when not empty, holds the dataset's pictures (<id>/img_diagram.png,
/// Geometry3K's layout, or <id>.png): each SVG embeds its picture under the marks.
void write_error_report(const std::string& dir, const std::string& image_dir);

}  // namespace geotruth
