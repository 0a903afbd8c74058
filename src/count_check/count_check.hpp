// The cross-check's counts (docs/vision.md, "Counts"): the picture read on its own by the picture
// reader (docs/reader.md), its Tangram counts compared with the scene's, and every difference named
// by the elements behind it — a letter the picture reads as another, a letter or a circle one side
// has and the other not, a segment or a triangle formed by letters one side draws and the other not.
// Plain geometry and counting on two scenes: the picture itself is measured by the caller (the
// vision module), through `StraightInk`.
#pragma once

#include <functional>
#include <geotruth/bands.hpp>
#include <geotruth/scene.hpp>
#include <geotruth/vision.hpp>

namespace geotruth {

/// The share (0–1) of the straight stretch from a to b, in picture pixels, that the picture inks
/// within its matching tolerance (vision::InkProbe::straight).
using StraightInk = std::function<double(vision::PixelPoint a, vision::PixelPoint b)>;

/// Compares the Tangram counts (docs/counting.md, merged mode) of `scene`, at `bands`, with those of
/// `read`, the scene the picture reader read from the picture `check` judged `scene` against (at
/// its own band: picture_bands), and records them in check.count_check; each difference becomes a
/// finding among check.reasons, and check.agree and check.doubtful are updated. Preconditions:
/// `check` is the cross-check of `scene` against that picture (its scale and offset put the scene
/// on it; its reasons say which of the scene's letters and circles it found).
///
/// The rule:
/// - letters are matched by position first: nearest first, a scene letter's point within
///   max(2 × the tolerance, one letter height) of a point the reader lettered (2.5 letter heights
///   of a letter written where no point was read), a pair reading the same text preferred by a
///   letter height; a matched pair reading differently is count_letter_differs, an unmatched scene
///   letter count_letter_missing, an unmatched read letter count_letter_extra;
/// - segments and triangles formed by letters are compared through that matching (a segment or a
///   triangle with an unmatched letter is its letter's difference, named in it); a triangle whose
///   side is a segment difference is named in that segment's finding;
/// - circles (full ones) are matched by centre and radius within max(2 × the tolerance, 10 % of
///   the radius).
/// Each difference is then confirmed on the picture where the scene puts it, else it is the
/// reader's misread and goes to check.count_check.unconfirmed: a segment is drawn when the straight
/// stretch between the scene's two letters is inked along 85 % (35 % dashed) of it; a scene letter
/// or circle the reader misses is confirmed when the cross-check did not find it either.
/// Severity: doubtful when the difference rests on a doubtful read — it vanishes under one of the
/// reader's own other readings (its doubts, questions/picture_doubts.hpp), the reader's runner-up
/// for the glyph is the scene's letter, or one side's own incidence findings at its band are
/// doubtful about its letters (a near miss); else a conflict.
void compare_counts(const Scene& scene, const Bands& bands, const Scene& read, const StraightInk& ink,
                    vision::CrossCheck& check);

/// Whether a scene is worth reading its picture for (the cross-check's `--count-check auto`): it
/// letters a placed point — Tangram's counts are about letters; a figure of unlettered shapes
/// (GePBench) counts only circles, which the cross-check already looks for in the whole picture.
bool counts_worth_reading(const Scene& scene);

}  // namespace geotruth
