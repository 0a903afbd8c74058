// Scene findings (DESIGN.md "Verdicts"): what is wrong or doubtful in a scene as a whole.
#pragma once

#include <geotruth/incidence.hpp>
#include <geotruth/scene.hpp>
#include <string>
#include <vector>

namespace geotruth {

struct SceneFinding {
  std::string kind;  ///< link_crosses_entity, link_detached, overlapping_entities, links_cross, ...
  std::vector<std::string> elements;
  std::string detail;
  double slack_px = -1;  ///< −1 when the finding has no measure
};

/// Findings about a diagram's entities and links, decided exactly: a link whose drawn path
/// enters another entity's box; a link end farther than eps_num from its entity's box; entity
/// boxes whose interiors overlap; two links whose paths cross (information).
std::vector<SceneFinding> diagram_findings(const Scene& scene, const Thresholds& thresholds = {});

}  // namespace geotruth
