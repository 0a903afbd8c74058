// Findings about a diagram's entities, links and arrows (docs/ai2d.md), decided exactly by geometry
// (geometry/diagram_findings.cpp, geometry/arrow_audit.cpp).
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/scene.hpp>
#include <vector>

namespace geotruth {

/// Findings about a diagram's entities and links, decided exactly: a link whose drawn path
/// enters another entity's box; a link end farther than ε_num from its entity's box (doubtful
/// below ε_vis); entity boxes whose interiors overlap; two links whose paths cross (a note). For
/// links drawn with arrow outlines (AI2D): the gap between the arrow and each entity it joins
/// (link_detached), an end clearly nearer another entity (link_misassigned), a head that points
/// the other way by its position and its orientation (arrow_reversed), a directed link with no
/// head (arrow_without_head), arrows no link uses (arrow_unannotated) and links drawn as several
/// arrows (connector_split). Each names the link's id (AI2D: the relationship id).
std::vector<Finding> diagram_findings(const Scene& scene, const Bands& bands = {});

/// A finding that changes the diagram's graph (a reversed or misassigned arrow), with the link as
/// the drawing has it: questions whose answer differs on the redrawn link are ambiguous.
struct LinkDoubt {
  std::size_t link = 0;  ///< index into Scene::links
  Link redrawn;
  Finding finding;
};
std::vector<LinkDoubt> link_doubts(const Scene& scene, const Bands& bands = {});

}  // namespace geotruth
