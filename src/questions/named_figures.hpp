// Questions about figures named by their points (VisOnlyQA's vocabulary, docs/questions.md):
// does the named triangle or quadrilateral exist, is the named segment a diameter (or radius) of a
// drawn circle, and which option is the nearest estimate of a length ratio, an area ratio or an
// angle. Each answer comes with the facts it rests on and their slack.
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/incidence.hpp>
#include <geotruth/questions.hpp>
#include <optional>

namespace geotruth::questions {

/// True for the kinds evaluated here: `exists` with `vertices`, `diameter`, `radius`, `estimate`.
bool is_named_figure_question(const Question& q);

/// Evaluates such a question on the scene's incidence structure (merged mode, at `bands`):
/// - exists (of triangle | quadrilateral): Tangram's semantics — every side is a drawn straight
///   stretch between its two corners (a segment formed by letters), the corners are distinct and
///   not on one line (no three consecutive ones, for a quadrilateral, whose sides in the named
///   cyclic order must not cross); the truth is "True" or "False" (negated with `absent`);
/// - diameter: both ends on one drawn circle, its centre on the segment, and the segment drawn;
///   radius: one end the centre of a drawn circle through the other, the segment drawn;
/// - estimate (of length_ratio | area_ratio | angle): the option nearest the measure (ratios on a
///   log scale, angles in degrees), ambiguous when the runner-up takes over within the band.
/// A condition too close to call at the band makes the answer ambiguous (its fact names the
/// other answer); a scene without the named points (or their positions) is unsupported.
Truth evaluate_named_figure(const Scene& scene, const Question& q, const Incidence& incidence, const FrameBands& bands);

}  // namespace geotruth::questions
