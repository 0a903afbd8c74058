// Points and letters of a picture (docs/reader.md, "Points" and "Letters").
#pragma once

#include <optional>
#include <vector>

#include "vision/read/read.hpp"

namespace geotruth::vision::read {

/// A point of the figure: where strokes end or cross, or a dot.
struct ReadPoint {
  P2 at;
  int dot = -1;              ///< the dot marking it, -1 none
  std::vector<int> pieces;   ///< the pieces it lies on
  std::vector<int> rounds;   ///< the rounds it lies on
  bool centre_only = false;  ///< only a circle's centre: a point only when a letter names it
};

/// Moves each piece's end that lies on another stroke (a piece or a circle) back to where the two
/// cross: past the crossing, a shallow junction's ink is the other stroke's.
/// An end at a dot stays: the dot marks where it ends.
void trim_at_junctions(const Sheet& sheet, std::vector<Piece>& pieces, const std::vector<Round>& rounds,
                       const std::vector<Dot>& dots);

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
};

/// Each letter attached to one point, nearest first (one letter per point); `dotted`: the figure
/// marks its points with dots, and a letter names a dot.
std::vector<Attachment> attach_letters(const std::vector<Glyph>& glyphs, const std::vector<ReadPoint>& points,
                                       bool dotted);

}  // namespace geotruth::vision::read
