// The shapes GePBench draws, from a picture without letters (docs/reader.md, "Shapes").
#pragma once

#include <geotruth/scene.hpp>
#include <vector>

#include "vision/read/read.hpp"

namespace geotruth::vision::read {

/// Adds to `scene` the shapes of a picture without letters: polygons by their corners (strokes
/// joined end to end into closed chains; where chains share a side, each face), circles, ellipses,
/// and the strokes left over as segments, rays (one end at the picture's edge) or lines (both).
/// `to_picture` scales working pixels to the picture's.
void add_shapes(const Sheet& sheet, const std::vector<Piece>& pieces, const std::vector<Round>& rounds,
                const std::vector<Oval>& ovals, double to_picture, Scene& scene);

}  // namespace geotruth::vision::read
