#include "records/records.hpp"

#include <geotruth/diagram_findings.hpp>

#include "questions/picture_doubts.hpp"
#include "questions/shapes.hpp"

namespace geotruth {

std::optional<IncidenceMode> incidence_mode_named(std::string_view name) {
  if (name == "declared") return IncidenceMode::declared;
  if (name == "geometric") return IncidenceMode::geometric;
  if (name == "merged") return IncidenceMode::merged;
  return std::nullopt;
}

ordered_json record_head(const Scene& scene, const RawRecord& record) {
  ordered_json out;
  out["line"] = record.line;
  out["id"] = scene.id;
  if (!record.key.empty() && record.key != scene.id) out["key"] = record.key;
  return out;
}

ordered_json with_place(const Scene& scene, const RawRecord& record, ordered_json body) {
  ordered_json out = record_head(scene, record);
  for (auto& [key, value] : body.items()) out[key] = std::move(value);  // moved: records can be large
  return out;
}

namespace {

// Every relation between shapes that holds or nearly holds, and every crossing count.
ordered_json relations_json(const Scene& scene, const Bands& bands) {
  ordered_json relations = ordered_json::array();
  for (const auto& [a, b, rel] : questions::relation_matrix(scene, bands)) {
    if (rel.decision == Decision::fails) continue;
    ordered_json item{{"a", a}, {"b", b}, {"relation", rel.name()}, {"holds", rel.holds()}};
    if (rel.ambiguous()) item["ambiguous"] = true;
    if (rel.slack_px && *rel.slack_px > 0) item["slack_px"] = rounded_px(*rel.slack_px);
    if (rel.crossings) item["crossings"] = *rel.crossings;
    relations.push_back(std::move(item));
  }
  return relations;
}

// Each question's truth, with the facts it rests on (verdicts against the annotated answers are
// the audit's job).
ordered_json truths_json(const Scene& scene, const Bands& bands) {
  SceneEvaluator evaluator(scene, bands);
  ordered_json truths = ordered_json::array();
  for (const auto& q : scene.questions) {
    const Truth t = evaluator.evaluate(q);
    ordered_json item{{"id", q.id}, {"supported", t.supported}, {"truth_source", truth_source(scene)}};
    if (t.supported) {
      item["values"] = t.values;
      ordered_json letters = ordered_json::array();
      for (auto i : matching_options(q, t)) letters.push_back(option_letter(i));
      if (!q.options.empty()) item["options"] = letters;
      item["ambiguous"] = answer_is_ambiguous(q, t);
    }
    if (!t.reason.empty()) item["reason"] = t.reason;
    if (!t.facts.empty()) {
      item["facts"] = ordered_json::array();
      for (const auto& f : t.facts) item["facts"].push_back(fact_json(f));
    }
    truths.push_back(std::move(item));
  }
  return truths;
}

}  // namespace

ordered_json analyze_record(const Scene& scene, const Bands& run_bands, IncidenceMode mode,
                            const std::vector<ImportNote>& notes) {
  const std::optional<Bands> own = picture_bands(scene, run_bands);
  const Bands& bands = own ? *own : run_bands;
  const Incidence incidence = build_incidence(scene, mode, bands);
  ordered_json result;
  result["id"] = scene.id;
  result["bands"] = bands_json(bands, own.has_value());  // a picture's own band says why
  result["scene"] = scene_json(scene);
  result["incidence"] = incidence_json(scene, incidence);
  // The segments, triangles and (convex) quadrilaterals formed by letters, by name.
  result["figures"] = figures_json(*count_figure(scene, incidence, {false, true, true}).listed);
  std::vector<Finding> all = incidence.findings;
  if (!scene.entities.empty())
    for (auto& f : diagram_findings(scene, bands)) all.push_back(std::move(f));
  if (!scene.shapes.empty())
    for (auto& f : questions::shape_findings(scene, bands)) all.push_back(std::move(f));
  for (auto& f : picture_doubt_findings(scene)) all.push_back(std::move(f));
  add_findings(result, all, notes);
  if (!scene.shapes.empty()) result["relations"] = relations_json(scene, bands);
  if (ordered_json truths = truths_json(scene, bands); !truths.empty()) result["truths"] = std::move(truths);
  return result;
}

ordered_json count_record(const Scene& scene, const Bands& run_bands, IncidenceMode mode, const CountOptions& options,
                          const std::vector<ImportNote>& notes) {
  const std::optional<Bands> own = picture_bands(scene, run_bands);
  const Bands& bands = own ? *own : run_bands;
  const Incidence incidence = build_incidence(scene, mode, bands);
  const TangramCounts counts = count_figure(scene, incidence, options);
  ordered_json result;
  result["id"] = scene.id;
  result.update(counts_json(counts));
  result["mode"] = mode_name(incidence.mode);
  result["bands"] = bands_json(bands, own.has_value());  // a picture's own band says why
  std::vector<Finding> findings = incidence.findings;
  findings.insert(findings.end(), counts.findings.begin(), counts.findings.end());
  for (auto& f : picture_doubt_findings(scene)) findings.push_back(std::move(f));
  add_findings(result, findings, notes);
  if (ordered_json truths = truths_json(scene, bands); !truths.empty()) result["truths"] = std::move(truths);
  return result;
}

ordered_json import_record(const Scene& scene, const std::string& dataset, const std::vector<ImportNote>& notes) {
  ordered_json result = scene_json(scene);
  ordered_json& extra = result["extra"];
  if (!extra.is_object()) extra = ordered_json::object();
  extra["dataset"] = dataset;
  if (!notes.empty()) extra["import_notes"] = import_notes_json(notes);
  return result;
}

void add_findings(ordered_json& record, const std::vector<Finding>& findings,
                  const std::vector<ImportNote>& import_notes) {
  ordered_json conflicts = ordered_json::array(), doubtful = ordered_json::array(), notes = ordered_json::array();
  for (const auto& f : findings)
    (f.severity == Severity::conflict   ? conflicts
     : f.severity == Severity::doubtful ? doubtful
                                        : notes)
        .push_back(finding_json(f));
  record["conflicts"] = std::move(conflicts);
  record["doubtful"] = std::move(doubtful);
  record["notes"] = std::move(notes);
  if (!import_notes.empty()) record["import_notes"] = import_notes_json(import_notes);
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
  if (c.listed) out["figures"] = figures_json(*c.listed);
  return out;
}

ordered_json figures_json(const FigureList& list) {
  ordered_json out;
  out["segments"] = list.segments;
  out["triangles"] = list.triangles;
  out["quadrilaterals"] = list.quadrilaterals;
  return out;
}

ordered_json fact_json(const Fact& fact) {
  ordered_json out{{"kind", fact.kind}, {"elements", fact.elements}, {"detail", fact.detail}};
  if (fact.slack_px) out["slack_px"] = rounded_px(*fact.slack_px);
  out["ambiguous"] = fact.ambiguous;
  if (fact.alternative) out["alternative"] = *fact.alternative;
  return out;
}

ordered_json findings_json(const std::vector<Finding>& findings) {
  ordered_json out = ordered_json::array();
  for (const auto& f : findings) out.push_back(finding_json(f));
  return out;
}

}  // namespace geotruth
