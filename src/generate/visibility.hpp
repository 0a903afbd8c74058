// Is every drawn element of a generated scene visible as itself at the render size? Checked on
// the layout the renderer draws (vision::build_figure: the same strokes, letters where it puts
// them), in pixels: a filter on candidates, not a truth (the truths are geotruth's exact ones).
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/scene.hpp>

#include <set>
#include <string>
#include <utility>

namespace geotruth::generate {

struct VisibilityRules {
  double min_stroke_px = 16;  ///< shortest straight piece (FastLineDetector finds 12 px and up)
  double min_radius_px = 10;  ///< smallest circle or ellipse semi-axis
  double margin_px = 3;       ///< every stroke this far inside the picture (lines and rays may end on its edge)
  double min_angle_deg = 20;  ///< two strokes that meet or cross do so at least this steeply
  /// Pairs of elements (ids, either order) that touch along a stretch by construction (a declared
  /// tangency, shared edge, inscription): they may run close, but a near miss between them is still
  /// refused.
  std::set<std::pair<std::string, std::string>> touching;
};

/// "" when every element is visible, else the reason: off_canvas, short_stroke, small_curve,
/// near_miss (two strokes closer than twice ε_vis without touching), shallow_crossing, thin_shape
/// (a polygon's vertex near its own opposite side), crowded_points, letter_on_stroke,
/// letters_overlap, letter_ambiguous (nearer another point than its own), letter_off_canvas.
std::string visibility_problem(const Scene& scene, const Bands& bands, const VisibilityRules& rules);

}  // namespace geotruth::generate
