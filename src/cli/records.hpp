// Output records shared by the subcommands that report on figures.
#pragma once

#include <geotruth/counts.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/incidence.hpp>
#include <geotruth/questions.hpp>

#include "batch/batch.hpp"
#include "cli/common.hpp"

namespace geotruth::cli {

/// Options of the subcommands that build incidences (count, analyze).
struct FigureOptions {
  std::string mode = "merged";
  BandOptions bands;
  IncidenceMode incidence_mode() const;
};

/// The record's opening keys: "line", "id", and "key" for imported scenes.
ordered_json record_head(const Scene& scene, const RawRecord& record);

/// A record's findings split by severity, as count and analyze print them: "conflicts" (clear at
/// the band), "doubtful" (in the ambiguous band), "notes" (information), each a list of
/// finding_json; and "import_notes" when the importer noticed something.
void add_findings(ordered_json& record, const std::vector<Finding>& findings, const RawRecord& raw);

/// The whole incidence structure: maximal lines with their points in order, circles with
/// their points, unlabelled crossings.
ordered_json incidence_json(const Scene& scene, const Incidence& incidence);

ordered_json counts_json(const TangramCounts& counts);

/// One fact an answer rests on: {kind, elements, detail, slack_px?, ambiguous}.
ordered_json fact_json(const Fact& fact);

/// A list of findings (finding_json each).
ordered_json findings_json(const std::vector<Finding>& findings);

/// An importer's notes: [{kind, detail}].
ordered_json import_notes_json(const std::vector<ImportNote>& notes);

}  // namespace geotruth::cli
