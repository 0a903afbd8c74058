// The incidence structure of a figure: which points lie on which maximal drawn line or circle,
// where drawn lines cross, and where annotation and geometry disagree.
#pragma once

#include <cstddef>
#include <geotruth/scene.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace geotruth {

/// Where incidences come from (DESIGN.md "Counting semantics").
enum class IncidenceMode {
  declared,   ///< only `through` lists; pieces are one line when they share two points
  geometric,  ///< only coordinates; collinear pieces that overlap or touch merge
  merged,     ///< declared facts, plus geometric ones where nothing is declared; disagreements listed
};

/// Decision bands, in pixels of the rendered image: a fact holds at slack ≤ eps_num_px and is
/// ambiguous below eps_vis_px. The image draws the frame's longer side at render_size_px; 0
/// (the default) means the frame's own units are pixels, except for frames smaller than 64
/// units (GePBench's unit square), which are drawn at 640 px.
struct Thresholds {
  double eps_num_px = 0.5;
  double eps_vis_px = 3.0;
  double render_size_px = 0;
};

/// Pixels of the rendered image per frame unit, by the rule above.
double pixels_per_unit(const Frame& frame, const Thresholds& thresholds);

/// A point of the figure: a scene point, or an unlabelled crossing of two drawn lines.
struct Vertex {
  std::optional<std::size_t> point;  ///< index into Scene::points; empty for a crossing
  std::optional<Vec2> at;
  bool letter = false;  ///< a labelled scene point
};

/// A maximal drawn line: drawn straight pieces that are one line, merged.
struct MaximalLine {
  std::vector<std::size_t> pieces;            ///< indices into Scene::lines
  std::vector<std::size_t> vertices;          ///< indices into Incidence::vertices, in order along the line
  std::optional<std::pair<Vec2, Vec2>> ends;  ///< drawn extent, when coordinates are known
};

/// A disagreement between annotation and picture, or something that could not be decided.
struct IncidenceFinding {
  std::string kind;     ///< declared_off_line, declared_outside_extent, undeclared_on_line,
                        ///< near_miss_line, declared_off_circle, undeclared_on_circle,
                        ///< near_miss_circle, lines_merged, order_conflict, missing_position
  std::string point;    ///< the point's id ("" when not about one point)
  std::string element;  ///< the line ("A-B") or circle concerned
  double slack_px = 0;  ///< distance by which the fact misses (or holds), in rendered pixels
  std::string detail;
};

struct Incidence {
  IncidenceMode mode = IncidenceMode::merged;
  double px_per_unit = 1;
  std::vector<Vertex> vertices;  ///< scene points first (same indices), then crossings
  std::vector<MaximalLine> lines;
  std::vector<std::vector<std::size_t>> circle_points;  ///< per Scene::circles: scene point indices on it
  std::vector<IncidenceFinding> findings;
};

/// Builds the incidence structure of a scene's points, lines and circles. Never throws on
/// valid scenes; what cannot be decided (no coordinates) is listed in `findings`.
Incidence build_incidence(const Scene& scene, IncidenceMode mode, const Thresholds& thresholds = {});

const char* mode_name(IncidenceMode mode);

}  // namespace geotruth
