// Findings (docs/design.md "Findings and facts"): what is wrong or doubtful in a scene. One type for every
// source (incidences, shapes, diagrams, the canvas, the picture), so the same fact carries the
// same kind, element names and slack in analyze, count, audit and crosscheck.
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/scene.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace geotruth {

/// How much a finding matters: a `conflict` is clear at the band in force (slack ≥ ε_vis, or a
/// combinatorial contradiction); `doubtful` lies in the ambiguous band; a `note` is information.
enum class Severity { conflict, doubtful, note };
const char* severity_name(Severity severity);

enum class FindingKind {
  // Figures: points, drawn lines and circles (declared facts against positions).
  declared_off_line,        ///< a point declared on a line lies off it
  declared_outside_extent,  ///< a point declared on a line lies beyond its drawn ends
  undeclared_on_line,       ///< a point lies on a drawn line that does not declare it
  near_miss_line,           ///< a point is too close to a line to tell whether it is on it
  line_not_straight,        ///< pieces declared as one line bend by more than the band
  declared_off_circle,      ///< a point declared on a circle lies off it
  undeclared_on_circle,     ///< a point lies on a circle that does not declare it
  near_miss_circle,         ///< a point is too close to a circle to tell whether it is on it
  wrong_centre,             ///< a fact names a centre that is not the drawn circle's centre
  collinear_triangle,       ///< three points that the facts call a triangle lie on one line
  lines_merged,             ///< two drawn lines share two points, so they are one line
  lines_not_merged,         ///< pieces collinear within the band in pairs, kept apart: merging would chain
  order_conflict,           ///< declared orders of points along a line contradict each other
  missing_position,         ///< geometry was asked for and a position is missing
  // Shapes (GePBench).
  declared_relation_false,
  declared_relation_ambiguous,
  undeclared_relation,
  label_mismatch,
  degenerate_shape,   ///< a legal but degenerate shape (a repeated vertex): its questions are invalid
  drawn_differently,  ///< the dataset's own picture draws a shape unlike its definition (Shape::drawn)
  // The canvas.
  off_canvas,
  too_small,
  // Diagrams: entities and links.
  link_crosses_entity,
  link_detached,
  link_misassigned,
  arrow_reversed,
  arrow_without_head,
  arrow_unannotated,
  connector_split,
  links_cross,
  overlapping_entities,
  // The picture (vision cross-check).
  not_visible,
  not_detected,
  extra_detection,
  count_mismatch,
  pixel_ambiguous,
  pixel_disagreement,
  low_contrast,         ///< a stroke too faint against the picture's paper and noise to rely on
  picture_unavailable,  ///< the dataset's picture of the scene is missing or cannot be read
  // A scene read from a picture (docs/reader.md): what the reader could not read safely.
  letter_uncertain,   ///< a glyph read as one letter that may be another
  letter_unattached,  ///< a letter that cannot be attached to one point unambiguously
  stroke_uncertain,   ///< a stroke that may or may not be drawn, reach a point, or pass through one
};
const char* finding_kind_name(FindingKind kind);
std::optional<FindingKind> finding_kind_named(std::string_view name);
/// The severity a kind has when nothing else decides it (near misses are doubtful, merged
/// lines and crossing links are notes, the rest conflicts).
Severity default_severity(FindingKind kind);

struct Finding {
  FindingKind kind = FindingKind::declared_off_line;
  Severity severity = Severity::conflict;
  std::vector<std::string> elements;  ///< named by the scheme below, the main element first
  std::string detail;                 ///< plain words
  std::optional<double> slack_px;     ///< the measure in rendered pixels, when the finding has one
};

/// The one way to build a finding: severity from the band's decision when there is one
/// (ambiguous → doubtful, else the kind's default).
Finding make_finding(FindingKind kind, std::vector<std::string> elements, std::string detail,
                     std::optional<double> slack_px = std::nullopt, std::optional<Decision> decision = std::nullopt);

// Element names, one scheme in every output: an element with an id is named by its id; a drawn
// line without one by its end points ("line A-B"); a circle without one by its centre point
// ("circle O") or its position in the scene ("circle #2"); a link without one by its ends
// ("e1->e2").
std::string line_name(const std::string& end_a, const std::string& end_b);
/// A line as the picture cross-check names its stroke: its id, or its first and last points' ids
/// ("A-B").
std::string stroke_name(const Scene& scene, const Line& line);
std::string circle_name(const Scene& scene, std::size_t circle);
std::string link_name(const Link& link);

}  // namespace geotruth
