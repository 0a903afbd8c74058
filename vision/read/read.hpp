// The reader's working parts (docs/reader.md): what each step finds in the picture, in working
// pixels (the picture enlarged or reduced by ReadEvidence::scale), before the scene is written.
#pragma once

#include <opencv2/core.hpp>

#include <geotruth/reader.hpp>

#include <cmath>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "vision/figure.hpp"
#include "vision/letter_templates.hpp"
#include "vision/letters.hpp"
#include "vision/paper.hpp"

namespace geotruth::vision::read {

/// A letter read from a glyph (the letter reader, vision/letters.hpp), with what it could be instead.
struct Glyph {
  std::string text;  ///< "A", "B1", "C'"
  cv::Rect box;
  P2 centre;
  double height = 0;
  double confidence = 0;
  std::string runner_up;  ///< the next best reading, "" none
  double runner_up_confidence = 0;
  bool doubtful = false;        ///< the letter reader could not tell it from its runner-up
  bool by_font = false;         ///< read by drawing the candidates in the figure's font (read_letters_by_font)
  bool touches_stroke = false;  ///< its ink was separated from a stroke it touches
  /// Found by the font about a dot no letter was read for (complete_letters): its runner-up is
  /// another letter the figure lacks, a plausible reading whatever the letters read.
  bool found_at_dot = false;
  /// So found with less than a tenth of its ink clear of the strokes and dots: the strokes' ink
  /// alone says it is there.
  bool ink_hidden = false;
  /// A small letter written among capitals, a fifth or more shorter than they are: a length's or an
  /// angle's variable (x, y), no point's name (mark_variables).
  bool variable = false;
  /// The letters the figure's font draws clearly here (kFoundScore, 0.7), and its own, and how well
  /// (read_letters_by_font): what else the place may be once the letters around are known.
  std::vector<std::pair<std::string, double>> font_scores;
  /// What the glyph classifier read in this ink, and how surely, when the font read it again
  /// (by_font): an independent reading of the same glyph ("" none).
  std::string classifier_text;
  double classifier_confidence = 0;
};

/// How well the figure's font draws `letter` at `glyph`'s place (its font_scores), -1 when not kept.
double font_score(const Glyph& glyph, const std::string& letter);

/// Whether glyph g, left a letter the font draws worse there than its runner-up because another
/// glyph the font read names the runner-up, is told from it as a letter found about a dot is
/// (kFoundMargin, 0.1): the pair fits the font that much better this way round than the other, at
/// both places (a score not kept counted as 0.7). Nothing at g backs its letter but the others:
/// VisOnlyQA 00566noise_1's I, a stroke under its foot, draws as J 0.968, I 0.865; the J elsewhere
/// draws as J 0.956, I 0.748: 0.105 better this way. Two C's drawn alike, one left E (E 0.764, C
/// 0.919 there; C 0.913, E under 0.7 at the other): 0.058, not told.
bool told_from_runner_up(const std::vector<Glyph>& glyphs, std::size_t g);

/// Whether a label is a number: one digit or more and nothing else (a length or an angle written in
/// the figure, 10, 60).
bool is_number(const std::string& label);

/// A straight stroke: a maximal inked run along a line fitted to its ink.
struct Piece {
  P2 origin, dir;         ///< the fitted line: origin + t·dir, |dir| = 1
  double t0 = 0, t1 = 0;  ///< the inked run, t0 < t1
  /// The stretch the line detector saw (within [t0, t1] or about): it stops short of the dots and
  /// letters a stroke runs into, which the walk to the run's ends does not.
  double seen0 = 0, seen1 = 0;
  double coverage = 0;  ///< share of its samples with ink on the line (letters' boxes left out)
  double contrast = 0;  ///< median darkness of its ink, gray levels
  bool dashed = false;
  bool between_dots = false;  ///< drawn from dot centre to dot centre (dot_to_dot_pieces): placed exactly
  /// Dots within its reach that it does not go through: another stroke runs along it to each
  /// (dot_to_dot_pieces, `fans_out`: two strokes leaving one dot at a slight angle).
  std::vector<P2> passes_beside;
  /// The piece inked from a to b (a ≠ b), seen all along.
  static Piece from_to(P2 a, P2 b) {
    Piece p;
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    p.origin = a, p.dir = {(b.x - a.x) / length, (b.y - a.y) / length};
    p.t0 = p.seen0 = 0, p.t1 = p.seen1 = length;
    return p;
  }
  P2 at(double t) const { return {origin.x + t * dir.x, origin.y + t * dir.y}; }
  P2 a() const { return at(t0); }
  P2 b() const { return at(t1); }
  double length() const { return t1 - t0; }
  /// The sine of the angle between this piece's line and `o`'s (0 parallel, 1 square).
  double sine_to(const Piece& o) const { return std::abs(dir.x * o.dir.y - dir.y * o.dir.x); }
  /// Signed distance of p from the line (left of dir positive).
  double offset(P2 p) const { return -(p.x - origin.x) * dir.y + (p.y - origin.y) * dir.x; }
  double along(P2 p) const { return (p.x - origin.x) * dir.x + (p.y - origin.y) * dir.y; }
};

/// A circle or an arc of one, fitted to its ink.
struct Round {
  P2 centre;
  double radius = 0;
  bool full = true;                       ///< inked (nearly) all round
  double start_deg = 0, sweep_deg = 360;  ///< arcs: from start, toward +y (image angles)
  double coverage = 0, contrast = 0;
};

/// A non-circular ellipse fitted to its ink (shapes of pictures without letters).
struct Oval {
  P2 centre;
  double a = 0, b = 0, angle_deg = 0;
  double coverage = 0, contrast = 0;
  /// p in the ellipse's own axes: its centre at the origin, the axis `a` along x.
  P2 local(P2 p) const;
  /// The Sampson distance of p from the outline, |F| / |∇F| for F = (x/a)² + (y/b)² − 1 in its own
  /// axes: about the distance to the curve near it; infinite at the centre.
  double distance(P2 p) const;
};

/// A filled dot: how points are marked in most synthetic figures.
struct Dot {
  P2 at;
  double radius = 0;
};

/// The picture as the reader works on it.
struct Sheet {
  Paper paper;
  /// The labels' own layer when they are written in a colour of their own (split_coloured_labels):
  /// `paper` then holds the strokes alone.
  std::optional<Paper> labels;
  const Paper& letters_paper() const { return labels ? *labels : paper; }
  double stroke = 2;  ///< typical stroke width (px), as the cross-check estimates it
  double ridge = 2;   ///< the distance transform's median ridge over the ink mask
  /// The strokes' typical half-width: a binary ink line n pixels wide has a ridge of (n + 1) / 2, so
  /// half = ridge − 0.5 (the reader's ink level, a third of the strokes' darkness, cuts the fringe).
  double half = 1;
  cv::Mat unknown;  ///< 8-bit: pixels under a letter (neither ink nor paper for the strokes)
  /// 8-bit: pixels of a strong colour (a textbook's magenta angle arcs and right-angle marks) in a
  /// figure whose letters are neutral, black or grey (drop_tinted_glyphs); empty otherwise. No
  /// letter is read in them.
  cv::Mat tinted;
  std::vector<Glyph> glyphs;
  int width = 0, height = 0;
  double scale = 1;  ///< the sheet's pixels per pixel of the picture as given (enlarged or reduced)
  /// How far across its line a stroke's ink may lie and still be that stroke's: its half-width and a
  /// pixel of wobble, 1.5 px at least.
  double stroke_tolerance() const { return std::max(1.5, half + 1.0); }
  /// How far off a stroke's line a point may lie and be on it: the stroke's tolerance and half a
  /// pixel of rounding.
  double on_stroke() const { return stroke_tolerance() + 0.5; }
  /// How near two points read (crossings, stroke ends) are one place: both strokes' half-widths and
  /// a pixel and a half, 2.5 px at least.
  double merge_distance() const { return std::max(2.5, 2 * half + 1.5); }
  bool inside(P2 p) const { return p.x >= 0 && p.y >= 0 && p.x < width && p.y < height; }
  bool is_unknown(P2 p) const;
};

/// The letters of the picture (the letter reader, on `paper`: the sheet's, at the letters' own ink
/// level; `strokes`: the long strokes already read, which it separates letters from), with their
/// boxes marked unknown in `sheet`.
void read_glyphs(Sheet& sheet, const Paper& paper, const cv::Mat& strokes);

/// True when the letters read surely (not doubtful) are all capitals (digits, primes and subscripts
/// after the first character allowed, no small letter), two at least: such a figure names its
/// points in capitals, and read_glyphs reads its glyphs again among the point labels alone (a
/// capital's thin or broken glyph is then no small letter or mark).
bool lettered_in_capitals(const std::vector<LetterRead>& letters);

/// The ink's centre across the line origin + t·dir (dir a unit vector), every `step` px from t0 to
/// t1: the darkness-weighted mean offset (left of dir positive) of the darkness at `floor` or above
/// within `band` px each side (half-pixel samples), and that darkness's sum. A position outside the
/// sheet, under a letter, refused by `skip`, or with no such ink gives none. The line fits of
/// read_pieces (a stroke refitted to its ink) and of the dotted figures' bends (bends_at) rest on it.
struct InkCentre {
  double t, offset, weight;
};
std::vector<InkCentre> ink_centres(const Sheet& sheet, P2 origin, P2 dir, double t0, double t1, double step,
                                   double band, double floor, const std::function<bool(P2)>& skip = nullptr);

/// Straight strokes: FastLineDetector segments grouped on one supporting line, each line refitted
/// to its ink and walked end to end; every inked run long enough is a piece. Pieces that lie on
/// `rounds` are left out.
std::vector<Piece> read_pieces(const Sheet& sheet, const std::vector<cv::Vec4f>& segments);

/// Circle proposals of the gradient Hough transform at a liberal threshold (each is verified by
/// read_rounds before it is kept).
std::vector<Detections::Ellipse> propose_circles(const Sheet& sheet);

/// Full circles (and, for pictures without letters, ellipses) among the detector's proposals,
/// each refitted to its ink and walked round.
void read_rounds(const Sheet& sheet, const std::vector<Detections::Ellipse>& proposals, std::vector<Round>& rounds,
                 std::vector<Oval>& ovals);

/// Arcs: proposals inked along at least a quarter turn (not all round), on ink that neither the
/// pieces nor the full circles explain.
void read_arcs(const Sheet& sheet, const std::vector<Detections::Ellipse>& proposals, const std::vector<Piece>& pieces,
               std::vector<Round>& rounds);

/// Filled dots: round blobs of ink the strokes do not explain.
std::vector<Dot> read_dots(const Sheet& sheet, const std::vector<Piece>& pieces, const std::vector<Round>& rounds);

/// In a figure that marks its points with dots (marks_points_with_dots), removes the dots thinner
/// than a marker (is_marker) that lie midway along one straight stroke, where no other stroke or
/// circle meets it: a JPEG's blocks and a sketch's lumps, no points. In a figure that does not,
/// removes the dots on a full circle that no straight stroke meets: the lumps of a sketch's circle.
void drop_blocks_along_strokes(const Sheet& sheet, std::vector<Dot>& dots, const std::vector<Piece>& pieces,
                               const std::vector<Round>& rounds);

/// The font places a letter more exactly than the classifier's box did (an italic M read as IVI,
/// boxed without its top corners): in a figure that does not mark its points with dots, a blob read
/// as a dot within a letter the font read (`by_font`) is that letter's ink, and is dropped.
void drop_dots_in_letters(const Sheet& sheet, std::vector<Dot>& dots);

/// Removes the pieces that lie along a round's stroke (a circle's ink read as short straight bits).
void drop_pieces_on_rounds(const Sheet& sheet, std::vector<Piece>& pieces, const std::vector<Round>& rounds);

/// Removes the straight bits no longer than 1.5 letters (capital_height of the sheet's glyphs) that
/// are not joined at both ends to a longer stroke or a round: a bit of a letter or a mark, not a
/// stroke of the figure, whose short segments run between two strokes.
void drop_letter_sized_pieces(const Sheet& sheet, std::vector<Piece>& pieces, const std::vector<Round>& rounds);

/// Removes the full rounds whose ink is nearly all other strokes': a small "circle" in a thicket of
/// lines and arcs, inked all round only because within the walk's tolerance some stroke always is.
/// A round keeps its own straight bits (pieces lying along it) and its duplicates out of the count.
void drop_rounds_of_strokes(const Sheet& sheet, std::vector<Round>& rounds, const std::vector<Piece>& pieces);

/// Removes the rounds that are a letter's bowl (O, D, C, G read as a small circle), their ink the
/// letters': no larger than half the letters' height (capital_height) anywhere, or three quarters
/// of it within half a letter of a glyph. Returns whether any was removed.
bool drop_letter_bowls(std::vector<Round>& rounds, const std::vector<Glyph>& glyphs);

/// The picture's wobble and matching tolerance measured on the strokes read, as the cross-check
/// measures them on a scene's strokes (docs/vision.md): with its paper, noise and stroke width.
PictureReading measure_wobble(const Sheet& sheet, const std::vector<Piece>& pieces, const std::vector<Round>& rounds);

/// How much of the straight stretch from `a` to `b` is inked: the share of its samples (a pixel
/// apart, `skip_a` and `skip_b` px left out at its ends, letters' boxes left out) where the darkest
/// reading across it, within `across` px, is ink; with the samples read and the inked ones' median
/// darkness.
struct Inking {
  double coverage = 0;
  double contrast = 0;
  int samples = 0;
};
Inking inking(const Sheet& sheet, P2 a, P2 b, double skip_a, double skip_b, double across);

/// Where the lines of two pieces cross (`at`); false when they are parallel within half a degree.
bool crossing(const Piece& a, const Piece& b, P2& at);

/// The point nearest every piece's line in least squares (their crossing when there are two); none
/// for fewer than two pieces or lines all parallel.
std::optional<P2> least_squares_point(const std::vector<const Piece*>& pieces);

/// Kåsa's least-squares circle through points (x² + y² = A x + B y + C): none for fewer than three
/// points or points (nearly) on one line.
struct FittedCircle {
  P2 centre;
  double radius = 0;
};
std::optional<FittedCircle> least_squares_circle(const std::vector<P2>& points);

/// The thickest radius that recurs: the second of the first three, in decreasing order, within 15 %
/// of each other (and that `accept` accepts, when given); 0 when none does.
double recurring_radius(std::vector<double> radii, const std::function<bool(double)>& accept = {});

/// The dots' typical radius (the figure's point marker): the median of those of a marker's size
/// (is_marker), else of all; 0 without dots.
double marker_radius(const Sheet& sheet, const std::vector<Dot>& dots);

/// Whether dots of this radius are a point marker: far thicker than the strokes (two and a half
/// times their half-width, and a pixel and a half more), where a crossing of strokes is not.
bool is_marker(const Sheet& sheet, double radius);

/// Whether the ink between a and b (points `radius_a`, `radius_b` px in radius: a dot's, or the reach
/// of a point without one) is the arc of one of `rounds` rather than a straight stroke: the circle
/// crosses both points' discs, its arc between them runs within the stroke's half-width and 3 px of
/// the chord, and the picture is darker along the arc than along the chord, by a
/// quarter of the ink's `contrast`, where the two run a pixel or more apart (VisOnlyQA 00068: E and H,
/// 50 px apart on a circle of 196, 1.6 px off their chord: no line EH).
bool arc_between(const Sheet& sheet, const std::vector<Round>& rounds, P2 a, double radius_a, P2 b, double radius_b,
                 double contrast);

/// Whether `p` lies within a dot's reach: its radius and a merge distance (a stroke ending there
/// ends at the dot).
bool at_a_dot(const Sheet& sheet, const std::vector<Dot>& dots, P2 p);

/// Whether the picture marks its points with dots: three or more of a marker's size (is_marker), and
/// at least half as many as the letters read.
bool marks_points_with_dots(const Sheet& sheet, const std::vector<Dot>& dots);

/// Dotted figures: a dot's centre is read from its thickest ink, which strokes fanning out of it at
/// slight angles widen on their side (VisOnlyQA 00763's A: four strokes leave it to the right, its
/// centre read 6 px into them, off every stroke by more than a stroke's tolerance). Where three
/// strokes or more end within the dot's reach, 30 degrees apart or more, and their lines (fitted
/// along their length, away from the dot) all pass within a pixel (or a stroke's half-width) of one
/// place on the ink within three radii of the centre read, and miss that centre by more than the
/// on-stroke tolerance, the dot is centred where they meet.
void centre_dots_on_strokes(const Sheet& sheet, std::vector<Dot>& dots, const std::vector<Piece>& pieces);

/// Dotted figures: every segment between two dots that is inked all along is a line (the longest
/// of collinear ones: the dots between lie on it); `pieces` along such a line are that line (a piece
/// going on past its end dot extends it), the others are kept. A segment between two dots on one of
/// `rounds` whose ink is darker along the arc than along the segment is the arc, no line. With fewer
/// than two dot-to-dot lines, `pieces` unchanged.
std::vector<Piece> dot_to_dot_pieces(const Sheet& sheet, const std::vector<Dot>& dots, const std::vector<Round>& rounds,
                                     std::vector<Piece> pieces);

/// Dotted figures: a stroke runs from dot to dot, so a piece the walk stopped short of a dot its
/// line runs into (strokes crowding the dot, a circle running along the stroke into it) is taken on
/// to that dot: the nearest dot ahead of either end, within three of its radii and a merge distance,
/// its centre within its radius and the on-stroke tolerance of the piece's line, the gap inked. An
/// end that ran on past such a dot's foot (by less than two radii and a merge distance: strokes
/// meeting at the dot pull its centre off the stroke, and the end out of the dot's reach) is taken
/// back to the foot. Ends at a dot already (within its radius and a merge distance) stay.
void run_on_to_dots(const Sheet& sheet, const std::vector<Dot>& dots, std::vector<Piece>& pieces);

/// The figure's letters as its font draws them (read_letters_by_font).
struct LetterFont {
  FontFace font;
  double cap_height = 0;
  double score = 0;                 ///< how well it draws the letters read surely (mean correlation)
  bool consecutive = false;         ///< lettered A, B, C, … without a gap, each letter once
  std::vector<std::string> labels;  ///< the letters the figure may use
  TemplateSheet sheet;              ///< the picture with strokes' and dots' pixels left out
};

/// Whether letter c lies in a run A, B, C, … of `count` letters (one more allowed: a clipped or
/// unread last letter), or is O (a centre's name).
bool in_run(char c, std::size_t count);

/// What the letters the classifier read surely (`known`, single capitals) say of a figure lettered
/// A, B, C, … with `count` points: whether all lie in the run, the last of them and which they are
/// (O, a centre's name, is not the run's last unless the run reaches it). A letter cut from a stroke
/// it touches (`glyphs`' touches_stroke) and read past the run is left out: strokes change letters,
/// and a J whose top a stroke crosses reads as T at 1.00.
struct SureRun {
  bool in_range = true;
  char last = 'A';
  std::set<char> letters;
};
SureRun sure_run(const std::vector<KnownLetter>& known, const std::vector<Glyph>& glyphs, std::size_t count);

/// A place the font reads a letter at (read_letters_by_font): how well each candidate letter drawn
/// in the figure's font fits there, the box that drawing covers, the least score that makes it a
/// letter, and the candidate the glyph classifier read there surely (-1: none).
struct LetterPlace {
  std::vector<double> scores;
  std::vector<cv::Rect> boxes;
  double min_score = 0;
  int sure = -1;
  /// The place read with this one as two letters written over each other (-1: none): their
  /// letters' boxes may lie on each other, and they do not swap letters.
  int partner = -1;
  /// The classifier's read here when nearly sure (kNearlySure, 0.9; -1: none), and whether the place
  /// is ink the classifier read no letter in.
  int read = -1;
  bool unread_ink = false;
};

/// Textbooks draw their marks in a colour (magenta arcs at angles, right-angle squares, tick marks)
/// and their letters in black: in a figure whose letters read nearly surely (0.9) are neutral, two
/// at least, a glyph three quarters of whose darker half of ink is of a strong colour is a mark, and
/// is dropped (a letter written over a blue stroke, or drawn with subpixel colour fringes, keeps its
/// black core). `tinted` (tinted_pixels of the sheet's picture) is kept on the sheet for the font's
/// search of unread ink, or emptied when the letters are not neutral.
void drop_tinted_glyphs(Sheet& sheet, const cv::Mat& tinted);

/// The letters' height: the median height of the glyphs read nearly surely (0.9) as one capital,
/// else of all glyphs. A noisy picture's glyphs hold many bits of letters and strokes (VisOnlyQA
/// 00953noise_1: heights 5 to 35 px about capitals 32 px tall, their median 16).
double capital_height(const std::vector<Glyph>& glyphs);

/// Whether the classifier's read of `glyph` is sure enough to agree with the font (LetterPlace's
/// `sure`): confident (0.99) against a font found from sure letters; nearly sure (0.9) against one
/// found blind, from unsure reads, which draws a letter's shape loosely (Geometry3K 17 shrunk to
/// 110 px, italic, fitted best by DejaVu Sans Bold: its M, read 0.99, drawn as U 0.763, M 0.744).
bool sure_for_the_font(const Glyph& glyph, bool blind_font);

/// Ink the classifier read no letter in does not take a letter it read nearly surely at another
/// place that the font draws that letter at too (min_score): such ink (a right-angle mark, strokes
/// crossing) drawn as that letter a little better is a coincidence of shapes. Its score for the
/// letter is set to -1.
void keep_read_letters_from_unread_ink(std::vector<LetterPlace>& places);

/// Each place its letter (an index into the candidates, -1: none): first the places whose sure
/// classifier read the font fits as well as any letter there, within kMargin (two independent reads
/// agree: a C the font draws as C 0.874, G 0.875 and O 0.873 is the classifier's C), then best
/// score first; two places whose letters' boxes lie on each other are one letter, unless they are
/// partners. With `each_once` (a figure lettered A, B, C, … without a gap) each letter goes to one
/// place, and then two places swap their letters while that raises the sum of their scores (a sure
/// read is no surer: the classifier reads a B with strokes through it as E at 0.99).
std::vector<int> assign_letters(const std::vector<LetterPlace>& places, bool each_once);

/// Two places whose letters (`letter_of`, from assign_letters) would fit them about as well the other
/// way round, the sum of their scores within 0.04 of the swapped sum, are each other's runner-up and
/// neither is sure (their glyphs, `glyph_at`, doubtful, confidence 0.5 + 5 × that margin at most),
/// whatever each place's own margin: the picture may have them the other way round (VisOnlyQA
/// 00565noise_1: a J whose dot hides its hook, J 0.853 against I 0.921, beside an I, I 0.958 against
/// J 0.878; each letter once, the pair fits 0.012 better this way).
void doubt_near_swaps(const std::vector<LetterPlace>& places, const std::vector<int>& letter_of,
                      const std::vector<std::string>& candidates, const std::vector<Glyph*>& glyph_at);

/// Letters read again by the figure's font, once strokes and dots are known (docs/reader.md,
/// "Letters by their font"): the font is the one that draws the letters read surely best; each
/// single letter and mark read, and letter-sized ink nothing explains, is read by drawing the
/// candidates in it over the picture, strokes' and dots' pixels left out. A figure lettered from A
/// without a gap names each letter once. Nothing changes, and none is returned, when no font draws
/// the sure letters well.
std::optional<LetterFont> read_letters_by_font(Sheet& sheet, const std::vector<Piece>& pieces,
                                               const std::vector<Round>& rounds, const std::vector<Dot>& dots);

/// The pixels the font's reading of the letters leaves out (8-bit, nonzero covered): every piece
/// 1.5 × `cap` long or more (shorter: a letter's own bar) and every round as wide as its ink and a
/// pixel each side, and every dot. A piece that ends in a glyph's box (`sheet.glyphs`) with a dot on
/// it within 1.5 × `cap` before that end is covered up to that dot's radius and a stroke's width past
/// it: the stroke ends at the dot, and the ink beyond is the letter's (a stem continuing the line).
cv::Mat covered_by_marks(const Sheet& sheet, const std::vector<Piece>& pieces, const std::vector<Round>& rounds,
                         const std::vector<Dot>& dots, double cap);

/// The distance from p to the segment of a piece.
double piece_distance(const Piece& piece, P2 p);

/// Whether q lies on round r's stroke, within `tolerance` of its circle.
bool on_round(const Round& r, P2 q, double tolerance);

}  // namespace geotruth::vision::read
