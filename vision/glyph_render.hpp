// Text drawn where its every character's ink is known: the training and test material of the
// letter reader. cairo draws a sheet of labels, strokes and marks in a chosen font; the
// degradations of scans and screenshots (blur, noise, salt-and-pepper, JPEG) follow. Each
// character's ink box is measured on its own drawing, so the truth does not come from the reader.
#pragma once

#include <opencv2/core.hpp>

#include <geotruth/vision.hpp>
#include <string>
#include <vector>

typedef struct _cairo cairo_t;

namespace geotruth::vision {

/// A font as fontconfig names it: "DejaVu Sans", "Liberation Serif", …
struct FontFace {
  std::string family;
  bool italic = false, bold = false;
  std::string name() const { return family + (bold ? " Bold" : "") + (italic ? " Italic" : ""); }
};

/// Selects `font` on a cairo context, outlines unhinted (the same shapes at every size).
void select_font(cairo_t* cr, const FontFace& font);

/// The fonts the classifier is trained on (diagrams' fonts: matplotlib's DejaVu, Helvetica and
/// Times clones, FreeSerif, Latin Modern italic as LaTeX sets math).
const std::vector<FontFace>& training_fonts();
/// Fonts never used for training, to measure how the classifier generalizes.
const std::vector<FontFace>& held_out_fonts();

struct SheetText {
  std::string text;  ///< UTF-8; one glyph per character (′, U+2032, is one character)
  PixelPoint at;     ///< where the text's ink box is centred
  FontFace font;
  double size_px = 16;        ///< the font's size (an em), pixels
  double rotation_deg = 0;    ///< counter-clockwise, about `at`
  double weight_px = 0;       ///< > 0: outlines stroked this wide (bolder); < 0: eaten this much (thinner)
  std::vector<double> scale;  ///< per character: relative size (0.7 for a subscript); empty: all 1
  std::vector<double> rise;   ///< per character: baseline shift in ems, down positive (subscripts); empty: 0
};

/// A stroke on the sheet: a polyline this wide (pixels), closed or not, or filled.
struct SheetStroke {
  std::vector<PixelPoint> path;
  double width = 2;
  bool closed = false, filled = false;
};

struct Sheet {
  int width = 64, height = 64;
  std::vector<SheetText> texts;
  std::vector<SheetStroke> strokes;
  double ink_gray = 0, paper_gray = 255;  ///< gray levels
  double blur_sigma = 0;                  ///< Gaussian blur, pixels
  double gaussian_sigma = 0;              ///< pixel noise, gray levels
  double salt_pepper = 0;                 ///< share of pixels set to black or white
  int jpeg_quality = 0;                   ///< 1–100: saved and read back as JPEG; 0: not
  std::uint64_t seed = 1;
};

/// The ink of one character of a sheet's text, as drawn alone (before degradations).
struct CharacterInk {
  std::string text;  ///< the character (UTF-8)
  cv::Rect box;      ///< its ink box, pixels
};

/// Draws the sheet. `characters`, when given, receives per text the ink box of each character
/// that leaves ink (spaces do not).
Image draw_sheet(const Sheet& sheet, std::vector<std::vector<CharacterInk>>* characters = nullptr);

/// How glyphs for training and measuring are drawn: one character (or a mark that is no
/// character) per small sheet, each with its own random font, size and degradations.
struct SampleOptions {
  std::vector<FontFace> fonts;
  std::size_t per_class = 400;  ///< samples of each class of glyph_classes()
  std::uint64_t seed = 1;
  double min_size_px = 8, max_size_px = 40;  ///< font sizes, drawn log-uniformly
  bool degrade = true;  ///< rotation, weight, gray ink and paper, blur, noise, salt-and-pepper, JPEG; else clean
};

/// A drawn glyph as the reader sees it: its class, its normalized patch and proportions.
struct GlyphSample {
  std::size_t label = 0;  ///< index into glyph_classes()
  std::string text;       ///< the character drawn (a case twin in either case); empty for a mark
  FontFace font;
  double size_px = 0;
  bool found = false;  ///< its ink survived the degradations (else patch is empty)
  cv::Mat patch;       ///< normalized_glyph of its ink
  double aspect = 1;   ///< its ink box's height over width
};

/// Draws per_class samples of every class (marks for the no-character class), in parallel-safe
/// order: the same options give the same samples.
std::vector<GlyphSample> glyph_samples(const SampleOptions& options);

/// The characters of a UTF-8 string, one string each.
std::vector<std::string> utf8_characters(const std::string& text);

}  // namespace geotruth::vision
