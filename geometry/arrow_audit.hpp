// The arrow audit of diagrams drawn with arrow outlines (AI2D), shared by diagram_findings and
// link_doubts.
#pragma once

#include <geotruth/diagram_findings.hpp>
#include <geotruth/findings.hpp>
#include <vector>

namespace geotruth {

/// Appends the findings about the scene's arrows (link_detached, link_misassigned,
/// arrow_reversed, arrow_without_head, arrow_unannotated, connector_split) and the doubts among
/// them that change the graph. Links without arrows are left to diagram_findings' path checks.
void arrow_audit(const Scene& scene, const Bands& bands, std::vector<Finding>& findings,
                 std::vector<LinkDoubt>& doubts);

}  // namespace geotruth
