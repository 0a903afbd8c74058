// The output records of analyze, count and import for one scene: built once here, printed by the
// command line and returned by the Python package.
#pragma once

#include <geotruth/counts.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/incidence.hpp>
#include <geotruth/questions.hpp>
#include <string>
#include <vector>

#include "batch/batch.hpp"

namespace geotruth {

/// A scene's `analyze` record without the input's place: {"id", "bands", "scene", "incidence",
/// "conflicts", "doubtful", "notes", "import_notes"?, "relations"?, "truths"?}.
ordered_json analyze_record(const Scene& scene, const Bands& bands, IncidenceMode mode,
                            const std::vector<ImportNote>& notes = {});

/// A scene's `count` record without the input's place: {"id", "letters", "circles", "segments",
/// "triangles", "quadrilaterals"?, "total", "difficulty", "mode", "bands", "conflicts", "doubtful",
/// "notes", "import_notes"?}.
ordered_json count_record(const Scene& scene, const Bands& bands, IncidenceMode mode, const CountOptions& options,
                          const std::vector<ImportNote>& notes = {});

/// An imported scene as `import` writes it: the normalized scene with the dataset's name (its
/// importer's format, which later runs read to pick the band) and the importer's notes under "extra".
ordered_json import_record(const Scene& scene, const std::string& dataset, const std::vector<ImportNote>& notes);

/// The incidence mode named "declared", "geometric" or "merged"; nullopt for another name.
std::optional<IncidenceMode> incidence_mode_named(std::string_view name);

/// The record's opening keys: "line", "id", and "key" for imported scenes (their own name).
ordered_json record_head(const Scene& scene, const RawRecord& record);

/// `body` (an analyze or count record) after the input's place (record_head).
ordered_json with_place(const Scene& scene, const RawRecord& record, ordered_json body);

/// A record's findings split by severity, as count and analyze print them: "conflicts" (clear at
/// the band), "doubtful" (in the ambiguous band), "notes" (information), each a list of
/// finding_json; and "import_notes" when the importer noticed something.
void add_findings(ordered_json& record, const std::vector<Finding>& findings, const std::vector<ImportNote>& notes);

/// The whole incidence structure: maximal lines with their points in order, circles with
/// their points, unlabelled crossings.
ordered_json incidence_json(const Scene& scene, const Incidence& incidence);

/// The counts; with their figures listed (CountOptions::list), "figures": {"segments",
/// "triangles", "quadrilaterals"}, each a list of point-id lists (figures_json).
ordered_json counts_json(const TangramCounts& counts);
ordered_json figures_json(const FigureList& list);

/// One fact an answer rests on: {kind, elements, detail, slack_px?, ambiguous}.
ordered_json fact_json(const Fact& fact);

/// A list of findings (finding_json each).
ordered_json findings_json(const std::vector<Finding>& findings);

/// An importer's notes: [{kind, detail}].
ordered_json import_notes_json(const std::vector<ImportNote>& notes);

}  // namespace geotruth
