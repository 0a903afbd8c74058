// GePBench figures in the engine's own vocabulary (starreeze/geocap data/rule/shapes.py and
// relations.py): shapes as its rules.json writes them (unit square, y up, full axis lengths,
// angles in radians) and the relations between them, constructed exactly where rationals allow.
#pragma once

#include <geotruth/scene.hpp>

#include <string>
#include <vector>

#include "generate/random.hpp"

namespace geotruth::generate {

/// One shape as the engine's rules.json holds it. Coordinates and lengths are short decimals;
/// angles are radians (the engine's unit), written as decimals too.
struct EngineShape {
  std::string type;     ///< polygon, line, segment, ray, ellipse, spiral, sector, star
  std::string special;  ///< special_info: "triangle", "square", "rectangle", "regular pentagon", "circle", …
  std::vector<Vec2> points;
  Vec2 center;
  Rational major, minor;                                                         ///< ellipse: full axis lengths
  Rational radius;                                                               ///< sector
  Rational outer, inner;                                                         ///< star
  int num_points = 0;                                                            ///< star
  Rational rotation;                                                             ///< ellipse, star: radians
  Rational start, end;                                                           ///< sector: radians
  Rational initial_radius, growth_rate, sin_eps, sin_omega, sin_phi, max_theta;  ///< spiral
};

struct EngineRelation {
  std::size_t a = 0, b = 0;
  std::string name;  ///< the engine's words: "tangent line", "circumscribed circle of rectangle", …
};

struct EngineFigure {
  std::vector<EngineShape> shapes;
  std::vector<EngineRelation> relations;
  /// Pairs of shapes that touch along a stretch by construction (every declared relation's pair).
  std::vector<std::pair<std::size_t, std::size_t>> touching;
};

/// A random figure of `count` shapes: free shapes and groups built around a relation (a circle and
/// its tangent line, a triangle and its incircle, concentric circles, a rectangle and its diagonal,
/// adjacent sectors, …), each group placed at random on the canvas.
EngineFigure random_figure(Random& rng, std::size_t count);

/// The figure as one element of the engine's rules.json list (compact JSON, numbers as exact
/// decimal text).
std::string engine_json(const EngineFigure& figure);

}  // namespace geotruth::generate
