// What position and size questions measure of a shape, by the GePBench engine's definitions:
// the centroid (a polygon's by area, a straight piece's by its two points, a sector's by its area,
// another curved shape's by its centre), the extent of the drawn shape (its true bounding box), and the area.
#pragma once

#include <geotruth/scene.hpp>

#include <optional>
#include <vector>

namespace geotruth::geometry {

/// Area centroid of a simple polygon (shoelace), exact; the vertex mean when its area is 0.
Vec2 polygon_centroid(const std::vector<Vec2>& points);

/// Area of a simple polygon (shoelace), exact.
Rational polygon_area(const std::vector<Vec2>& points);

/// A shape's measures. Polygons' centroids and areas are exact (`exact_centroid`, absent for a
/// sector, whose area centroid is transcendental); curved shapes'
/// are transcendental and given in double, as are all extents: they are reported with the slack
/// they leave, never decided on here.
struct ShapeMeasures {
  double cx = 0, cy = 0;  ///< centroid
  std::optional<Vec2> exact_centroid;
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;  ///< extent
  double area = 0;
};
ShapeMeasures measure_shape(const Shape& shape);

}  // namespace geotruth::geometry
