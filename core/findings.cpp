#include <array>
#include <geotruth/findings.hpp>
#include <utility>

#include "core/exact_json.hpp"

namespace geotruth {

namespace {

struct KindInfo {
  FindingKind kind;
  const char* name;
  Severity severity;
};

constexpr KindInfo kKinds[] = {
    {FindingKind::declared_off_line, "declared_off_line", Severity::conflict},
    {FindingKind::declared_outside_extent, "declared_outside_extent", Severity::conflict},
    {FindingKind::undeclared_on_line, "undeclared_on_line", Severity::conflict},
    {FindingKind::near_miss_line, "near_miss_line", Severity::doubtful},
    {FindingKind::line_not_straight, "line_not_straight", Severity::conflict},
    {FindingKind::declared_off_circle, "declared_off_circle", Severity::conflict},
    {FindingKind::undeclared_on_circle, "undeclared_on_circle", Severity::conflict},
    {FindingKind::near_miss_circle, "near_miss_circle", Severity::doubtful},
    {FindingKind::wrong_centre, "wrong_centre", Severity::conflict},
    {FindingKind::collinear_triangle, "collinear_triangle", Severity::conflict},
    {FindingKind::lines_merged, "lines_merged", Severity::note},
    {FindingKind::lines_not_merged, "lines_not_merged", Severity::doubtful},
    {FindingKind::order_conflict, "order_conflict", Severity::conflict},
    {FindingKind::missing_position, "missing_position", Severity::note},
    {FindingKind::declared_relation_false, "declared_relation_false", Severity::conflict},
    {FindingKind::declared_relation_ambiguous, "declared_relation_ambiguous", Severity::doubtful},
    {FindingKind::undeclared_relation, "undeclared_relation", Severity::conflict},
    {FindingKind::label_mismatch, "label_mismatch", Severity::conflict},
    {FindingKind::degenerate_shape, "degenerate_shape", Severity::conflict},
    {FindingKind::drawn_differently, "drawn_differently", Severity::conflict},
    {FindingKind::off_canvas, "off_canvas", Severity::conflict},
    {FindingKind::too_small, "too_small", Severity::conflict},
    {FindingKind::link_crosses_entity, "link_crosses_entity", Severity::conflict},
    {FindingKind::link_detached, "link_detached", Severity::conflict},
    {FindingKind::link_misassigned, "link_misassigned", Severity::conflict},
    {FindingKind::arrow_reversed, "arrow_reversed", Severity::conflict},
    {FindingKind::arrow_without_head, "arrow_without_head", Severity::conflict},
    {FindingKind::arrow_unannotated, "arrow_unannotated", Severity::note},
    {FindingKind::connector_split, "connector_split", Severity::note},
    {FindingKind::links_cross, "links_cross", Severity::note},
    {FindingKind::overlapping_entities, "overlapping_entities", Severity::conflict},
    {FindingKind::not_visible, "not_visible", Severity::conflict},
    {FindingKind::not_detected, "not_detected", Severity::conflict},
    {FindingKind::extra_detection, "extra_detection", Severity::conflict},
    {FindingKind::count_mismatch, "count_mismatch", Severity::conflict},
    {FindingKind::pixel_ambiguous, "pixel_ambiguous", Severity::doubtful},
    {FindingKind::pixel_disagreement, "pixel_disagreement", Severity::conflict},
    {FindingKind::low_contrast, "low_contrast", Severity::doubtful},
    {FindingKind::picture_unavailable, "picture_unavailable", Severity::conflict},
    {FindingKind::letter_uncertain, "letter_uncertain", Severity::doubtful},
    {FindingKind::letter_unattached, "letter_unattached", Severity::doubtful},
    {FindingKind::stroke_uncertain, "stroke_uncertain", Severity::doubtful},
};

const KindInfo& info(FindingKind kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k;
  return kKinds[0];  // unreachable: every kind is in the table (tests/findings_test.cpp)
}

}  // namespace

const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::conflict:
      return "conflict";
    case Severity::doubtful:
      return "doubtful";
    case Severity::note:
      return "note";
  }
  return "?";
}

const char* finding_kind_name(FindingKind kind) {
  return info(kind).name;
}

std::optional<FindingKind> finding_kind_named(std::string_view name) {
  for (const auto& k : kKinds)
    if (name == k.name) return k.kind;
  return std::nullopt;
}

Severity default_severity(FindingKind kind) {
  return info(kind).severity;
}

Finding make_finding(FindingKind kind, std::vector<std::string> elements, std::string detail,
                     std::optional<double> slack_px, std::optional<Decision> decision) {
  const Severity severity = decision == Decision::ambiguous ? Severity::doubtful : default_severity(kind);
  return {kind, severity, std::move(elements), std::move(detail), slack_px};
}

std::string line_name(const std::string& end_a, const std::string& end_b) {
  return "line " + end_a + "-" + end_b;
}

std::string stroke_name(const Scene& scene, const Line& line) {
  if (!line.id.empty()) return line.id;
  return scene.points[line.through.front()].id + "-" + scene.points[line.through.back()].id;
}

std::string circle_name(const Scene& scene, std::size_t c) {
  const Circle& circle = scene.circles[c];
  if (!circle.id.empty()) return circle.id;
  if (circle.center_point) return "circle " + scene.points[*circle.center_point].id;
  return "circle #" + std::to_string(c + 1);
}

std::string link_name(const Link& link) {
  return link.id.empty() ? link.from + "->" + link.to : link.id;
}

ordered_json finding_json(const Finding& f) {
  ordered_json out{
      {"kind", finding_kind_name(f.kind)}, {"severity", severity_name(f.severity)}, {"elements", f.elements}};
  if (f.slack_px) out["slack_px"] = rounded_px(*f.slack_px);
  out["detail"] = f.detail;
  return out;
}

ordered_json bands_json(const Bands& bands, bool reason) {
  ordered_json out{{"eps_num_px", rounded_px(bands.eps_num_px)},
                   {"eps_vis_px", rounded_px(bands.eps_vis_px)},
                   {"source", bands.source}};
  if (bands.render_size_px > 0) out["render_size_px"] = bands.render_size_px;
  if (reason) out["reason"] = bands.reason;
  if (bands.gap_num_px > 0) {
    out["gap_num_px"] = rounded_px(bands.gap_num_px);
    out["gap_vis_px"] = rounded_px(bands.gap_vis_px);
    if (reason) out["gap_reason"] = bands.gap_reason;
  }
  return out;
}

ordered_json evidence_json(const BandEvidence& e) {
  ordered_json histogram = ordered_json::array();
  for (std::size_t i = 0; i < BandEvidence::kBins; ++i)
    if (e.bins[i] > 0) histogram.push_back({rounded_px(static_cast<double>(i) * BandEvidence::kBinPx), e.bins[i]});
  return {{"residuals", e.count},
          {"exactly_zero", e.exact},
          {"median_px", rounded_px(e.quantile(0.5))},
          {"p90_px", rounded_px(e.quantile(0.9))},
          {"p99_px", rounded_px(e.quantile(0.99))},
          {"bin_px", BandEvidence::kBinPx},
          {"histogram", std::move(histogram)}};
}

}  // namespace geotruth
