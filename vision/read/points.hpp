// Points and letters of a picture (docs/reader.md, "Points" and "Letters").
#pragma once

#include <optional>
#include <vector>

#include "vision/read/read.hpp"

namespace geotruth::vision::read {

/// A point of the figure: where strokes end or cross, or a dot.
struct ReadPoint {
  P2 at;
  int dot = -1;                 ///< the dot marking it, -1 none
  double dot_radius = 0;        ///< that dot's radius
  std::vector<int> pieces;      ///< the pieces it lies on
  std::vector<int> rounds;      ///< the rounds it lies on
  std::vector<double> leaving;  ///< directions (radians, picture axes) of the strokes leaving it
  bool centre_only = false;     ///< only a circle's centre: a point only when a letter names it
};

/// Moves each piece's end that lies on another stroke (a piece, a circle or an ellipse) back to
/// where the two cross: past the crossing, a shallow junction's ink is the other stroke's.
/// An end at a dot stays: the dot marks where it ends.
void trim_at_junctions(const Sheet& sheet, std::vector<Piece>& pieces, const std::vector<Round>& rounds,
                       const std::vector<Oval>& ovals, const std::vector<Dot>& dots);

/// Carries each piece's end that runs into a label drawn over the strokes (unknown to them, on a
/// sheet whose labels have a colour of their own) on to the nearest stroke it meets under the label:
/// the label hides where the two join. An end that meets no stroke there stays.
void extend_under_labels(const Sheet& sheet, std::vector<Piece>& pieces);

/// Dots, crossings (piece–piece, piece–round, round–round), piece ends and circle centres, merged
/// where they are one place; then every stroke through each point.
std::vector<ReadPoint> read_points(const Sheet& sheet, const std::vector<Piece>& pieces,
                                   const std::vector<Round>& rounds, const std::vector<Dot>& dots);

/// A letter's point, and the next best one.
struct Attachment {
  int point = -1;
  double cost = 0;  ///< distance from the point to the letter's box, in letter heights
  int runner_up = -1;
  double runner_up_cost = 0;
  /// Whether the runner-up point is about as near the letter: within a fifth of its height.
  bool runner_up_about_as_near() const { return runner_up >= 0 && runner_up_cost <= cost + 0.2; }
};

/// Where the figure writes a point's letter: on a ring about the point (its centre moved by
/// `shift`, `radius` away; the letter's box centre, or its lower left corner for text anchored
/// there), or near it (within `reach` of its box).
struct LetterPlacement {
  bool ring = false;
  bool lower_left = false;
  P2 shift{0, 0};
  double radius = 0, tolerance = 0;
  double reach = 0;
  /// A ring fitted to three letters or more and to as many as the near rule attaches (shift and
  /// radius set), though not more: not used to attach letters, only to settle trades (settle_on_ring).
  bool fitted = false;
};

/// Textbooks name points in capitals and write a length's or an angle's unknown as a small letter
/// (Geometry3K: x, y beside A, B, C). Marks as a variable (`variable`, no point's name) a lone small
/// letter written level with a number just before or after it (a gap of the taller one's height at
/// most, centres within one and a half: an expression's variable, or a degree sign read as o), and,
/// among two capitals or more, one a fifth or more shorter than the capitals' median height. A
/// small letter as tall as the capitals whose capital has its shape is a capital the reader may have
/// misread (o for O) and stays a name; one whose capital has another shape (m) is a variable. Among
/// numbers with no capital, every small letter is a variable. Then mark_small_capitals. Run after
/// the font has read the letters (in noise the classifier reads a G as a small g or o, which the
/// font reads again as G).
void mark_variables(std::vector<Glyph>& glyphs);

/// Marks as a variable a capital read surely (0.9) whose small letter has its shape (C, O, S, V, W,
/// X, Z), written a fifth or more shorter than the median of the figure's other capitals and numbers
/// (two at least): the classifier cannot tell x from X but by its height (Geometry3K 15's lone x
/// under a side, 19's "x°", read as X at 0.94 and 1.00). Run on the classifier's reads, before the
/// font reads them again at the font's cap height; mark_variables runs it too.
void mark_small_capitals(std::vector<Glyph>& glyphs);

/// Whether a glyph's label names a point (vision::names_a_point) and it is no variable: a number or
/// an expression (10, 8, 2x), or a variable (x among capitals), is a length or an angle written
/// beside a stroke, attached to no point.
bool glyph_names_a_point(const Glyph& g);

/// Whether a glyph read unsurely may be no letter at all: its runner-up is the classifier's class of
/// marks, no character (a bracket and a variable read as E in a small textbook picture: Geometry3K
/// 20 at 151 px, E 0.42 against a mark 0.58).
bool may_be_no_letter(const Glyph& g);

/// Whether glyph g's runner-up is a reading the figure allows, were g doubtful: a figure whose
/// labels are capitals does not name one point with a small letter, labels are not repeated, and a
/// figure lettered A, B, C, … without a gap is not lettered past its last letter read (O, a centre's
/// usual name, aside, unless g's own letter lies inside the run: read as O, g would leave a gap),
/// unless g was found about a dot (`found_at_dot`): its runner-up is then another letter the figure
/// lacks.
bool runner_up_plausible(const std::vector<Glyph>& glyphs, std::size_t g);

/// Each letter attached to one point (one letter per point), labels that name no point
/// (glyph_names_a_point) left out: by the ring the picture's letters lie on about their points
/// when one fits more of them than the nearest-first rule attaches, else nearest first; `dotted`:
/// the figure marks its points with dots, and a letter names a dot. `placement`, when given,
/// receives the rule used.
std::vector<Attachment> attach_letters(const std::vector<Glyph>& glyphs, const std::vector<ReadPoint>& points,
                                       bool dotted, LetterPlacement* placement = nullptr);

/// On a ring (`placement.ring`, or one `fitted`), letters trade points while that puts both on the
/// ring and their total distance from it falls by more than the ring's tolerance: the greedy
/// pairing, and the letters complete_letters finds later, may leave a letter on a neighbour's dot
/// that fits it less well than its own (two dots a letter apart; the letter found last pushed onto
/// the dot left over). In a `dotted` figure, a letter left off the ring on an undotted point, or on
/// a point inside its own box (its own ink), then moves to a free dot the ring puts it beside, and a
/// letter paired with a point far off the ring (three tolerances
/// and twice its radius) to the free point the ring puts it beside. Last, a letter on the ring at its
/// point whose runner-up point is off it by more than the tolerance has no near rival there: the
/// runner-up's cost grows by its distance off the ring.
void settle_on_ring(const std::vector<Glyph>& glyphs, std::vector<Attachment>& attached,
                    const std::vector<ReadPoint>& points, const LetterPlacement& placement, bool dotted);

/// Last: a letter on a bare stroke end (no dot, no other stroke or circle there) at its own box's
/// edge, within `reach` px of it, whose runner-up is a crossing or a dot about as near (within a fifth
/// of a letter height), takes the runner-up, the end its runner-up: a stroke the letter is written
/// across ends where the letter's ink begins, not at a point (VisOnlyQA 00901noise_1's C and
/// 00839noise_1's H, each 8 px from its crossing). In a `dotted` figure, a letter on a bare end in
/// its own box (within a pixel of it) takes the nearest free crossing or dot within one and a half
/// letter heights of the end, however far its runner-up: the letter's ink cut the stroke there, and
/// the point's dot is lost where strokes meet (VisOnlyQA 00881noise_0's G, 22 px from its
/// crossing). With none, the end may be the point, its dot under the letter (00383's C).
void prefer_junctions_to_ends_at_letters(const std::vector<Glyph>& glyphs, std::vector<Attachment>& attached,
                                         const std::vector<ReadPoint>& points, double reach, bool dotted);

/// In a `dotted` figure, after settle_on_ring: a letter still without a point is the nearest free
/// point's when that lies within 3.2 of the letter's heights from its box and every other free point
/// is twice as far at least: a label written farther out than the others where strokes crowd its
/// point, its dot lost in them and read as a crossing (VisOnlyQA 00033noise_1's E, 36 px from the
/// crossing where five strokes meet, the next free point 175 px away). The next free point is its
/// runner-up.
void take_nearest_free_points(const std::vector<Glyph>& glyphs, std::vector<Attachment>& attached,
                              const std::vector<ReadPoint>& points);

/// In a figure lettered from A without a gap, the letters no glyph read names, looked for about the
/// dots left without a letter, where the figure writes its letters (`placement`), each drawn in the
/// figure's font: the best pairs first, each letter and each dot once, and only a clear match.
/// What is found is appended to `glyphs` and `attached`.
void complete_letters(std::vector<Glyph>& glyphs, std::vector<Attachment>& attached,
                      const std::vector<ReadPoint>& points, const LetterFont& font, const LetterPlacement& placement);

/// In a figure lettered from A without a gap, after complete_letters: the n letters naming points
/// name A to the n-th letter (O listed out of the run: a centre, not counted), unless one past that
/// end is read nearly surely (0.9: the figure skips letters, or names more points than were read).
/// A letter read by the font past that end then takes the letter of the run no point has that the
/// font draws best there, when that one is drawn clearly (0.7) and at most 0.05 worse (VisOnlyQA
/// 00566noise_1, lettered A to M: an E written into M's dot read as S, 0.827 against E 0.805; a D
/// its strokes cross read as O), and told from the run's other letters by 0.04 at least: one no
/// point has, or one another glyph names, the two the other way round (the font's scores at both
/// places; a letter found about a dot, read unsurely, has only this place's). Its confidence is
/// that margin. Not told so, it keeps its reading.
void close_run_gaps(std::vector<Glyph>& glyphs, const std::vector<Attachment>& attached, const LetterFont& font);

}  // namespace geotruth::vision::read
