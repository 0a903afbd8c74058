// GePBench's shape vocabulary: a shape's type, and the type a question's phrase names.
#pragma once

#include <geotruth/scene.hpp>

#include <string>
#include <utility>
#include <vector>

namespace geotruth {

/// The type a GePBench question uses for a shape: its declared kind when it has one ("regular
/// pentagon", "rectangle", "circle"), else polygons by vertex count (triangle, quadrilateral,
/// pentagon, hexagon), segments and rays as "line", and the shape type otherwise. Types are exact:
/// a rectangle is not counted as a quadrilateral (the engine says "quadrilateral (not rectangle)").
std::string shape_type(const Shape& shape);

/// The type a phrase names: "regular pentagons" → "regular pentagon", "lines (excluding polygon
/// edges)" → "line", "the ellipse (not circle)" → "ellipse", "all circles" → "circle".
std::string type_of_phrase(std::string phrase);

/// A star's 2·num_points vertices in order, outer first at `rotation`, in frame units (doubles:
/// for measuring and drawing, not for deciding relations).
std::vector<std::pair<double, double>> star_vertices(const StarShape& star);

/// The same vertices as rationals, for the relations and the figure: the exact centre plus each
/// vertex's offset rounded once to a double (finite for every radius a double holds, however far
/// the centre: star_vertices' sums may overflow, and an infinite double has no rational).
std::vector<Vec2> star_corners(const StarShape& star);

/// A spiral's radius r(θ) = a + (b + ε·sin(ωθ + φ))·θ at θ (radians), in frame units.
double spiral_radius(const SpiralShape& spiral, double theta);

/// How far the shape as its dataset's picture draws it (Shape::drawn) strays from its definition,
/// in frame units: the largest distance between corresponding points (a spiral's radial gap at the
/// same angle, an ellipse's at the same parameter, a polygon's or star's between its vertices).
/// 0 when it has no `drawn`. Doubles: a measure to report, not a decision.
double drawn_gap(const Shape& shape);

}  // namespace geotruth
