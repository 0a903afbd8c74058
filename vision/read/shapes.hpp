// The shapes GePBench draws, from a picture without letters (docs/reader.md, "Shapes").
#pragma once

#include <geotruth/scene.hpp>
#include <optional>
#include <string>
#include <vector>

#include "vision/read/read.hpp"

namespace geotruth::vision::read {

/// What a polygon read is, among the particular kinds GePBench draws (square, rectangle, regular
/// pentagon, regular hexagon, star): each kind's gap is how far a vertex lies from the nearest shape
/// of that kind (fitted in least squares); like every relation on the band (docs/design.md, "The
/// band model"), a gap up to `eps_num` holds, one of `eps_vis` or more fails, and one between is
/// too close to call. `kind` is the most particular kind that holds ("" none: the polygon by its
/// corners' count); `doubt` the more particular kind too close to call, if any, with its gap.
/// `vertices` in order (either way round), `eps_num` < `eps_vis` in the same unit.
struct PolygonKind {
  std::string kind;
  std::optional<std::string> doubt;
  double gap = 0;
};
PolygonKind polygon_kind(const std::vector<P2>& vertices, double eps_num, double eps_vis);

/// A shape whose kind is too close to call: the reading the picture allows instead.
struct ShapeDoubt {
  std::string shape;    ///< the shape's id
  std::string kind;     ///< the kind it is read as ("" by its corners' count)
  std::string instead;  ///< the kind it may be instead
  double gap = 0;       ///< that kind's gap, picture pixels
};

/// Adds to `scene` the shapes of a picture without letters: polygons by their corners (strokes
/// joined end to end into closed chains; where chains share a side, each face), circles, ellipses,
/// and the strokes left over as segments, rays (one end at the picture's edge) or lines (both).
/// Polygons get their kind (polygon_kind, on the band `eps_num_px`, `eps_vis_px` of the picture);
/// the kinds too close to call are returned. `to_picture` scales working pixels to the picture's.
std::vector<ShapeDoubt> add_shapes(const Sheet& sheet, const std::vector<Piece>& pieces,
                                   const std::vector<Round>& rounds, const std::vector<Oval>& ovals, double to_picture,
                                   double eps_num_px, double eps_vis_px, Scene& scene);

}  // namespace geotruth::vision::read
