#include "cli/records.hpp"

#include <cmath>

namespace geotruth::cli {

IncidenceMode FigureOptions::incidence_mode() const {
  if (mode == "declared") return IncidenceMode::declared;
  if (mode == "geometric") return IncidenceMode::geometric;
  return IncidenceMode::merged;
}

ordered_json record_head(const Scene& scene, const RawRecord& record) {
  ordered_json out;
  out["line"] = record.line;
  out["id"] = scene.id;
  if (!record.key.empty() && record.key != scene.id) out["key"] = record.key;
  return out;
}

namespace {

std::string vertex_name(const Scene& scene, const Incidence& inc, std::size_t v) {
  if (const auto& p = inc.vertices[v].point) return scene.points[*p].id;
  std::string name = "x";  // unlabelled crossings x1, x2, ...
  name += std::to_string(v - scene.points.size() + 1);
  return name;
}
}  // namespace

void add_findings(ordered_json& record, const std::vector<Finding>& findings, const RawRecord& raw) {
  ordered_json conflicts = ordered_json::array(), doubtful = ordered_json::array(), notes = ordered_json::array();
  for (const auto& f : findings)
    (f.severity == Severity::conflict   ? conflicts
     : f.severity == Severity::doubtful ? doubtful
                                        : notes)
        .push_back(finding_json(f));
  record["conflicts"] = std::move(conflicts);
  record["doubtful"] = std::move(doubtful);
  record["notes"] = std::move(notes);
  if (!raw.notes.empty()) record["import_notes"] = import_notes_json(raw.notes);
}

ordered_json import_notes_json(const std::vector<ImportNote>& notes) {
  ordered_json out = ordered_json::array();
  for (const auto& note : notes) out.push_back({{"kind", note.kind}, {"detail", note.detail}});
  return out;
}

ordered_json incidence_json(const Scene& scene, const Incidence& inc) {
  ordered_json out;
  out["mode"] = mode_name(inc.mode);
  out["px_per_unit"] = inc.px_per_unit;
  ordered_json lines = ordered_json::array();
  for (const auto& line : inc.lines) {
    ordered_json pieces = ordered_json::array(), points = ordered_json::array();
    for (auto p : line.pieces) {
      const auto& through = scene.lines[p].through;
      pieces.push_back(scene.lines[p].id.empty()
                           ? line_name(scene.points[through.front()].id, scene.points[through.back()].id)
                           : scene.lines[p].id);
    }
    for (auto v : line.vertices) points.push_back(vertex_name(scene, inc, v));
    lines.push_back({{"name", line.name}, {"pieces", pieces}, {"points", points}});
  }
  out["lines"] = lines;
  ordered_json circles = ordered_json::array();
  for (std::size_t c = 0; c < scene.circles.size(); ++c) {
    ordered_json points = ordered_json::array();
    for (auto p : inc.circle_points[c]) points.push_back(scene.points[p].id);
    circles.push_back({{"circle", circle_name(scene, c)}, {"points", points}});
  }
  out["circles"] = circles;
  ordered_json crossings = ordered_json::array();
  for (std::size_t v = scene.points.size(); v < inc.vertices.size(); ++v)
    crossings.push_back({{"name", vertex_name(scene, inc, v)}, {"at", exact_pair(*inc.vertices[v].at)}});
  out["crossings"] = crossings;
  return out;
}

ordered_json counts_json(const TangramCounts& c) {
  ordered_json out;
  out["letters"] = c.letters;
  out["circles"] = c.circles;
  out["segments"] = c.segments;
  out["triangles"] = c.triangles;
  if (c.quadrilaterals) out["quadrilaterals"] = *c.quadrilaterals;
  out["total"] = c.total;
  out["difficulty"] = c.difficulty;
  return out;
}

ordered_json fact_json(const Fact& fact) {
  ordered_json out{{"kind", fact.kind}, {"elements", fact.elements}, {"detail", fact.detail}};
  if (fact.slack_px) out["slack_px"] = rounded_px(*fact.slack_px);
  out["ambiguous"] = fact.ambiguous;
  return out;
}

ordered_json findings_json(const std::vector<Finding>& findings) {
  ordered_json out = ordered_json::array();
  for (const auto& f : findings) out.push_back(finding_json(f));
  return out;
}

}  // namespace geotruth::cli
