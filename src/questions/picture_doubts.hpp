// A scene read from a picture (geotruth import --from picture, docs/reader.md) carries what the
// reader measured and what it could not read safely under extra.picture: each doubt is a finding
// and, where the picture allows another reading, that reading as an edit of the scene. A question
// whose answer differs on the other reading is ambiguous with the doubt as its reason (the same
// machinery as every other alternative scene: SceneEvaluator, fact_changes_answer).
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/scene.hpp>
#include <optional>
#include <vector>

namespace geotruth {

/// Whether the scene was read from a picture: it has extra.picture.
bool read_from_picture(const Scene& scene);

/// Where a scene's truths come from: "picture" (read from a picture) or "description".
const char* truth_source(const Scene& scene);

/// One doubt of the reader: the finding (severity doubtful) and the scene as the picture may show
/// it instead (none when the doubt names no other reading, or when that reading is not a valid scene).
struct PictureDoubt {
  Finding finding;
  std::optional<Scene> instead;
};

/// The doubts of a scene read from a picture, in the order the reader wrote them; none for any
/// other scene. Malformed doubt entries are skipped (extra is free-form: the scene stays readable).
/// Edits (`instead`): {"rename": P, "to": L} the letter of P read as L; {"unlabel": P} P's letter
/// belongs to no point; {"swap": [P, Q]} P's letter is Q's point's (and Q's P's); {"drop_line": N}
/// the line whose stroke is named N (first-last point ids) is not drawn; {"add_to_line": N, "point":
/// P} P lies on it; {"drop_circle": C}; {"add_line": [P, Q]} a stroke joins P and Q; {"retype": S,
/// "to": K} the shape S is of kind K ("square", "regular pentagon", …; "" by its corners' count).
std::vector<PictureDoubt> picture_doubts(const Scene& scene);

/// The findings of those doubts alone (for records that list a scene's findings).
std::vector<Finding> picture_doubt_findings(const Scene& scene);

/// The band a scene read from a picture sets for itself (extra.picture.band: its stroke width and
/// wobble), with `run`'s render size; nullopt for other scenes, or when the run's band was given
/// explicitly (source "option"), which then holds.
std::optional<Bands> picture_bands(const Scene& scene, const Bands& run);

}  // namespace geotruth
