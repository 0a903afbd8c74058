// Reading a diagram from its picture alone: lettered points, straight strokes merged into maximal
// lines, circles and arcs, and (for pictures without letters) the shapes GePBench draws, as a
// native scene in the picture's pixels (docs/reader.md). Plain data only: OpenCV stays in vision/.
// Doubles here are measurements; every decision on the scene read is taken later, exactly, by the
// same code as for any scene, at the band the picture itself sets.
#pragma once

#include <geotruth/findings.hpp>
#include <geotruth/scene.hpp>
#include <geotruth/vision.hpp>
#include <string>
#include <vector>

namespace geotruth::vision {

struct ReadOptions {
  /// Pictures whose longer side is below this many pixels are read enlarged (bicubic) to about it:
  /// textbook pictures (median 151 px) draw strokes one pixel wide and letters ten pixels high.
  /// Positions are reported in the picture's own pixels whatever the working size.
  int upscale_below_px = 400;
  // (Pictures of hairlines, a pixel wide, up to half reduce_above_px on their longer side are read
  // at twice their size too.)
  /// Pictures whose longer side is above this are read reduced to it (area averaging): strokes
  /// and letters stay several pixels wide, and the work stays proportional to what is drawn.
  int reduce_above_px = 1600;
  bool letters = true;  ///< read letters and attach them to points (else every point is unlabelled)
  /// Also cross-check the scene read against its picture (vision.md): a stroke the cross-check
  /// does not confirm, or finds unread, is a doubt. Off by default: it costs as much as the reading.
  bool check = false;
};

/// What the reader measured on the picture, and the band it sets for decisions on the scene read:
/// ε_num = max(1 px, stroke / 2 + 1.5 × wobble) (a position read off a stroke is good to about its
/// half-width and its wobble), ε_vis = max(3 px, 2 ε_num).
struct ReadEvidence {
  PictureReading reading;  ///< paper, noise, stroke width, wobble and tolerance (as the cross-check measures them)
  double scale = 1;        ///< working pixels per picture pixel (upscaled or reduced)
  double eps_num_px = 1, eps_vis_px = 3;
  int letters = 0, dots = 0, strokes = 0, rounds = 0;
};

/// A read scene: `scene.extra` holds the evidence and the doubts (docs/reader.md, "What a scene read
/// from a picture carries"), `doubts` the same doubts as findings (severity doubtful).
struct PictureRead {
  Scene scene;
  std::vector<Finding> doubts;
  ReadEvidence evidence;
};

/// Whether a label read from a picture names a point: it starts with a capital (A, B1, C', or a
/// capital read with a mark beside it, CP: still that point's label), or is one letter alone (x).
/// Any other label — a number or an expression, 5, 36, 2x, 8y, a number followed by a letter
/// whatever precedes it (C2x: a bracket read as C) — is a length's or an angle's measure.
bool names_a_point(const std::string& label);

/// Reads `image` into a scene named `id`. Never throws for a picture's content: an empty or blank
/// picture gives a scene without elements (and says so in its doubts).
PictureRead read_picture(const Image& image, const std::string& id, const ReadOptions& options = {});

}  // namespace geotruth::vision
