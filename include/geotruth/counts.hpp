// Tangram counts: letters, circles, segments and triangles formed by letters.
#pragma once

#include <cstddef>
#include <geotruth/incidence.hpp>
#include <optional>
#include <string>
#include <vector>

namespace geotruth {

struct CountOptions {
  bool any_vertex = false;      ///< triangles/quadrilaterals may use unlabelled crossings as vertices
  bool quadrilaterals = false;  ///< also count convex quadrilaterals
  bool list = false;            ///< also list what is counted (TangramCounts::listed)
};

/// The counted figures themselves, by their points' ids (unlabelled crossings as x1, x2, … as
/// `analyze` names them): each segment's two ends in their order along its line, each triangle's
/// corners, each quadrilateral's corners in their cyclic order.
struct FigureList {
  std::vector<std::vector<std::string>> segments, triangles, quadrilaterals;
};

struct TangramCounts {
  std::size_t letters = 0, circles = 0, segments = 0, triangles = 0;
  std::optional<std::size_t> quadrilaterals;
  std::size_t total = 0;             ///< letters + circles + segments + triangles
  std::string difficulty;            ///< Easy (total ≤ 15), Medium (≤ 30), Hard (> 30)
  std::vector<Finding> findings;     ///< triangles of the lines that the positions say are not (collinear_triangle)
  std::optional<FigureList> listed;  ///< with CountOptions::list
};

/// The name of an incidence vertex: its point's id, or "x<k>" for the k-th unlabelled crossing.
std::string vertex_name(const Scene& scene, const Incidence& incidence, std::size_t vertex);

/// Counts on an incidence structure (docs/counting.md):
/// - a segment formed by letters is a pair of letters on one maximal drawn line;
/// - a triangle formed by letters is a triple of letters, pairwise on a common maximal line,
///   not all on one line (in merged mode, not collinear within ε_num by position either); with
///   `any_vertex`, unlabelled crossings may be vertices too;
/// - a convex quadrilateral has four such vertices joined cyclically by drawn stretches on four
///   distinct lines, and is convex (exactly, from coordinates) or, without coordinates, not
///   self-crossing by the declared order of points along its lines.
TangramCounts count_figure(const Scene& scene, const Incidence& incidence, const CountOptions& options = {});

const char* difficulty_of(std::size_t total);

}  // namespace geotruth
