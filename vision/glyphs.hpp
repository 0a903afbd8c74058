// What the letter reader sees of one glyph, shared by the reader (vision/letters.cpp) and the
// program that trains its classifier at build time (vision/train_letters.cpp): the characters it
// knows, how a glyph's ink becomes a patch of fixed size, and the features taken from the patch.
// Training and reading go through these same functions, so a glyph is seen the same way in both.
#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace geotruth::vision {

struct Paper;

/// The characters a label may be read as.
enum class Alphabet {
  point_labels,  ///< capitals, digits (suffixes and subscripts: P1, A₂) and primes: how diagrams name points
  diagram_text,  ///< also lower case (lines l, m; sides a, b, c; unknowns x, y): everything the classifier knows
};

/// Letters whose lower case is their capital drawn smaller (c o s u v w x z): one class of the
/// classifier, named by the capital.
bool case_twin(char c);

/// The classes of the glyph classifier, by index: A–Z (the case twins' class included), the other
/// lower-case letters, 0–9, the prime, and last the class of marks that are no character (dots,
/// ticks, arcs, right-angle marks, bits of strokes), whose text is empty.
const std::vector<std::string>& glyph_classes();
/// Index of the no-character class (the last).
std::size_t no_glyph_class();

/// Whether class `label` may be read under `alphabet` (the no-character class always may).
bool allowed(std::size_t label, Alphabet alphabet);

/// The allowed classes ranked by the classifier's output (one row, one value per class), best first.
std::vector<std::pair<std::size_t, float>> ranked(const cv::Mat& outputs, Alphabet alphabet);

/// Side of the square patch a glyph is normalized to (pixels).
constexpr int kGlyphPatch = 24;

/// A glyph's ink as a kGlyphPatch² 8-bit patch: `strength` (8-bit, 0 paper … 255 full ink, the
/// glyph's box) where `mask` (same size, nonzero = the glyph's pixels) selects the glyph (other ink
/// in the box is dropped), scaled so that its longer side spans 20 px, keeping its proportions, and
/// centred.
cv::Mat normalized_glyph(const cv::Mat& strength, const cv::Mat& mask);

/// The ink letters are read from: darkness above half that of the picture's dark strokes (the 90th
/// percentile of its ink), and above the paper's ink level. Letters are solid marks: anti-aliased
/// halos and JPEG's ringing, ink on a clean picture, neither fatten them nor join them to strokes.
cv::Mat solid_ink(const Paper& paper);

/// The strength patch of a glyph of a picture: its darkness within `box` over its own stroke
/// darkness (the 75th percentile of its pixels' darkness), 0–255, where `mask` (box-sized, nonzero
/// = the glyph's pixels) selects it. Light-gray, coloured and black glyphs come out alike.
cv::Mat glyph_strength(const Paper& paper, const cv::Mat& mask, const cv::Rect& box);

/// The feature vector of a normalized patch (1 × n, 32-bit float): its histograms of oriented
/// gradients (OpenCV's HOG on 4 × 4 cells), its ink pooled on an 8 × 8 grid, and the log of the
/// glyph's height over width (`aspect`), which the patch's normalization does not keep.
cv::Mat glyph_features(const cv::Mat& patch, double aspect);

}  // namespace geotruth::vision
