// Reading the letters of a diagram picture: which label-like groups of glyphs the picture shows,
// where, and what they say, each with a calibrated confidence and the best other reading. A label
// the reader cannot tell from another (I/l/1 in a sans-serif font, O/0, C/G in noise, a prime or a
// speck) comes out `doubtful` with its runner-up: a finding for the caller, never a silent guess.
//
// The glyph classifier is geotruth's own: a multilayer perceptron (OpenCV ml) on histograms of
// oriented gradients of the glyph, trained when geotruth is built (vision/train_letters.cpp) on
// letters cairo renders in 16 fonts from Debian's font packages at 8–40 px, rotated, bolder and
// thinner, blurred, noisy and JPEG-compressed; its confidence is calibrated on glyphs it was not
// trained on (docs/vision.md, "Reading letters", with the measurements against Tesseract).
#pragma once

#include <opencv2/core.hpp>

#include <string>
#include <vector>

#include "vision/glyphs.hpp"
#include "vision/paper.hpp"

namespace geotruth::vision {

struct GlyphGuess {
  std::string text;   ///< one character; empty: a mark that is no character
  double confidence;  ///< calibrated: the share of glyphs read so that were right, 0..1
};

/// One label of the picture: a run of glyphs on one line, read as one string.
struct LetterRead {
  std::string label;            ///< as printed, subscripts flattened: "A", "O", "B1", "A'", "x"
  cv::Rect box;                 ///< the label's ink box, picture pixels
  cv::Point2d centre;           ///< the box's centre
  double height_px = 0;         ///< the height of its tallest glyph (a capital's height for point labels)
  double confidence = 0;        ///< of the whole label: the product of its glyphs' confidences
  GlyphGuess runner_up;         ///< the best other reading of the whole label and its confidence
  bool doubtful = false;        ///< cannot be told from the runner-up (confidence below the calibrated bar)
  std::string doubt;            ///< why, when doubtful: "I or l", "C or c (case by height)", "prime or speck"
  bool touches_stroke = false;  ///< its ink was separated from a stroke it touches
};

struct LetterOptions {
  Alphabet alphabet = Alphabet::diagram_text;
  /// Optional: ink the caller already explains as strokes (8-bit, the picture's size, nonzero =
  /// a stroke's pixel), for example the lines and circles it found. Letters touching such ink are
  /// separated from it. When empty, the reader finds long straight strokes itself.
  cv::Mat stroke_ink;
  /// Letter heights looked for (pixels); 0: from the picture's size (5 px up to 12 % of its
  /// shorter side, at least 40 px), then narrowed to the letters measured.
  double min_height_px = 0, max_height_px = 0;
  /// Keep marks read as no character (dots, ticks) in the output as doubtful reads with an empty
  /// label; off by default.
  bool keep_marks = false;
};

/// Finds every label-like group of glyphs in a picture's ink, separating glyphs from long strokes
/// they touch, and reads it. Labels are returned left to right, top to bottom. Marks that are no
/// character (dots, ticks, arrowheads, bits of strokes) are left out unless options.keep_marks.
std::vector<LetterRead> read_letters(const Paper& paper, const LetterOptions& options = {});

/// Reads one glyph: `ink_patch` is 8-bit, 0 paper … 255 full ink (a binary mask works), holding
/// one glyph (its bounding box is taken). Guesses best first, `how_many` of them, among the
/// alphabet's characters and the no-character mark (empty text). Lower-case letters shaped like
/// their capitals (c o s u v w x z) are one class, returned as the capital: only their size
/// against the other letters of a picture tells the case (read_letters does so).
std::vector<GlyphGuess> classify_glyph(const cv::Mat& ink_patch, std::size_t how_many = 2,
                                       Alphabet alphabet = Alphabet::diagram_text);

/// Reads a glyph already normalized (normalized_glyph) whose ink box had proportions `aspect`
/// (height over width): what classify_glyph and read_letters do after normalizing.
std::vector<GlyphGuess> classify_normalized(const cv::Mat& patch, double aspect, std::size_t how_many = 2,
                                            Alphabet alphabet = Alphabet::diagram_text);

/// The confidence below which a read is doubtful (calibrated so that reads at or above it were
/// right at least 99.5 % of the time on the calibration glyphs).
double doubt_threshold();

}  // namespace geotruth::vision
