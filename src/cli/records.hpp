// Output records shared by the subcommands that report on figures.
#pragma once

#include <geotruth/counts.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/incidence.hpp>
#include <geotruth/questions.hpp>

#include "batch/batch.hpp"

namespace geotruth::cli {

/// Options of the subcommands that build incidences (count, analyze).
struct FigureOptions {
  std::string mode = "merged";
  Thresholds thresholds;
  IncidenceMode incidence_mode() const;
};

/// The record's opening keys: "line", "id", and "key" for imported scenes.
ordered_json record_head(const Scene& scene, const RawRecord& record);

/// Importer notes and incidence findings, in one list: {kind, point, element, slack_px, detail}.
ordered_json conflicts_json(const Incidence& incidence, const RawRecord& record);

/// The whole incidence structure: maximal lines with their points in order, circles with
/// their points, unlabelled crossings.
ordered_json incidence_json(const Scene& scene, const Incidence& incidence);

ordered_json counts_json(const TangramCounts& counts);

/// One fact an answer rests on: {kind, elements, detail, slack_px?, ambiguous}.
ordered_json fact_json(const Fact& fact);

/// Scene findings: {kind, elements, detail, slack_px?}.
ordered_json findings_json(const std::vector<SceneFinding>& findings);

}  // namespace geotruth::cli
