// The cross-check's counts (docs/vision.md, "Counts"): the picture read on its own by the picture
// reader (docs/reader.md), its Tangram counts compared with the scene's, and every difference named
// by the elements behind it — a letter the picture reads as another, a letter or a circle one side
// has and the other not, a segment or a triangle formed by letters one side draws and the other not.
// Counting is geotruth's own (graph/counts.cpp) on both scenes; the picture itself is measured
// through vision::InkProbe.
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/ink_probe.hpp>
#include <geotruth/scene.hpp>
#include <geotruth/vision.hpp>
#include <vector>

namespace geotruth {

/// The four Tangram counts of one side (docs/counting.md).
struct CountTally {
  int letters = 0, circles = 0, segments = 0, triangles = 0;
};

/// The cross-check's counts: the scene's against those of its picture read on its own. The
/// differences the pixels confirm (or leave in doubt) are count_mismatch findings among
/// CrossCheck::reasons; `unconfirmed` are the reader's differences that the pixels contradict (its
/// own misreads), kept for the record and for no verdict.
struct CountCheck {
  CountTally scene, picture;
  std::vector<vision::Reason> unconfirmed;
};

/// Compares the Tangram counts (docs/counting.md, merged mode) of `scene`, at `bands`, with those of
/// `read`, the scene the picture reader read from the picture `check` judged `scene` against (at
/// its own band: picture_bands), and returns them; each difference becomes a count_mismatch finding
/// among check.reasons naming the elements behind it (its detail says which difference: "letter
/// read otherwise", "letter missing", "letter extra", "segment missing", "segment extra", "circle
/// missing", "circle extra"), and check.agree and check.doubtful are updated. Preconditions:
/// `check` is the cross-check of `scene` against that picture (its scale and offset put the scene
/// on it; its reasons say which of the scene's letters and circles it found).
///
/// The rule:
/// - letters are matched by position first: nearest first, a scene letter's point within
///   max(2 × the tolerance, one letter height) of a point the reader lettered (2.5 letter heights
///   of a letter written where no point was read), a pair reading the same text preferred by a
///   letter height; a matched pair reading differently is a letter read otherwise, an unmatched scene
///   letter missing, an unmatched read letter extra;
/// - segments and triangles formed by letters are compared through that matching (a segment or a
///   triangle with an unmatched letter is its letter's difference, named in it); a triangle whose
///   side is a segment difference is named in that segment's finding;
/// - circles (full ones) are matched by centre and radius within max(2 × the tolerance, 10 % of
///   the radius).
/// Each difference is then confirmed on the picture where the scene puts it (vision::InkProbe);
/// one the pixels contradict is the reader's misread and goes to CountCheck::unconfirmed:
/// - a segment: the straight stretch between the scene's two letters inked along ≥ 85 % is drawn
///   (extra: conflict; missing: unconfirmed), < 50 % is not (missing: conflict; extra:
///   unconfirmed), between: doubtful (a missing one unconfirmed where the reader's own
///   stroke_uncertain doubt names that stroke); an extra segment the scene's own lines run along (≥ 85 % of
///   it within the tolerance: lines nearly in line) is unconfirmed where the ink follows the
///   scene's bend; any extra segment the scene's lines never leave by the visibility band (the
///   picture's ε_vis, or the scene's at the picture's scale where its rounded positions make it
///   wider: a bend no one can see, the scene's own ambiguous fact) is unconfirmed; the rest of
///   those nearly in line are doubtful; circles alike, along the circle;
/// - a letter read otherwise: the glyph (the reader's box joined with the cross-check's glyphs
///   overlapping it) is classified again: when it may be the scene's letter (confidence ≥ 0.2), or
///   is not the reader's letter either (< 0.2), or the reader read the scene's letter with a mark
///   beside it ("Oe"), unconfirmed; when it reads as the reader's letter (≥ 0.5) and not the
///   scene's (≤ 0.02), a conflict — doubtful when a stroke of the scene touches the glyph's box
///   (it may cut or lengthen the glyph), unconfirmed when it is the one lowercase letter read in
///   a figure the scene letters in capitals (three or more: noise took part of a capital, F read
///   as r); else doubtful. A read label of several glyphs is not read
///   again: unconfirmed when its box, read whole, may well be the scene's letter (≥ 0.2); else a
///   point's name (B1, C') is doubtful, a number or a word (a length written by the point)
///   unconfirmed;
/// - a scene letter the reader misses: read otherwise when the glyph by its point reads surely as
///   another letter (as above, a lowercase one in a capitals figure not; a digit is no name); conflict when the
///   cross-check found no glyph by the point either; a letter the reader reads where the scene names none: conflict
///   when the reader attached it to a point and does not doubt it, the cross-check found a glyph there too (not a
///   crossing of strokes), and no letter of the scene is within 2.5 letter heights (not a piece of one);
/// - a triangle difference no segment or letter difference explains (the two sides' bands decide a
///   collinearity differently): unconfirmed.
CountCheck compare_counts(const Scene& scene, const Bands& bands, const Scene& read, const vision::InkProbe& probe,
                          vision::CrossCheck& check);

/// Whether a scene is worth reading its picture for (the cross-check's `--count-check auto`): it
/// letters a placed point — Tangram's counts are about letters; a figure of unlettered shapes
/// (GePBench) counts only circles, which the cross-check already looks for in the whole picture.
bool counts_worth_reading(const Scene& scene);

}  // namespace geotruth
