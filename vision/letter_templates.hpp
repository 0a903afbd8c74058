// Letters read against their own font (docs/reader.md, "Letters by their font"). A generated
// figure letters every point in one font at one size (matplotlib's DejaVu Sans, geotruth's own
// renderer, a textbook's Times). Once a few letters are read surely, the font and size that draw
// them best are known, and every other letter is read by drawing each candidate in that font and
// comparing it with the picture pixel by pixel, leaving out the pixels a stroke or a dot covers:
// a letter a line crosses, a dot touches or JPEG blurs is still all there but for those pixels,
// where a classifier of its isolated ink sees a broken shape (an E without its lower bar is an F).
#pragma once

#include <opencv2/core.hpp>

#include <optional>
#include <string>
#include <vector>

#include "vision/glyph_render.hpp"

namespace geotruth::vision {

/// A glyph as a font draws it: darkness 0..1 over its ink box.
struct GlyphTemplate {
  cv::Mat ink;  ///< CV_32F
  bool empty() const { return ink.empty(); }
};

/// The glyph of `text` (one character) in `font` with its capitals `cap_height_px` tall, drawn by
/// cairo; kept for the process (the figures of a dataset share their font and size).
GlyphTemplate glyph_template(const FontFace& font, double cap_height_px, const std::string& text);

/// What the picture's pixels say about one letter's place.
struct TemplateRead {
  std::string text;   ///< the best candidate, "" when none was compared
  double score = -1;  ///< normalized cross-correlation of its drawing with the picture, -1..1
  std::string runner_up;
  double runner_up_score = -1;
  cv::Rect box;  ///< where the best candidate's ink box lies
};

/// The picture as the comparison sees it: darkness (CV_32F, paper 0) and the pixels other marks
/// cover (CV_8U, nonzero: a stroke's or a dot's, left out of every comparison), `scale` of its
/// pixels to the picture's one. Positions and sizes given to and returned by the functions below
/// are the picture's.
struct TemplateSheet {
  cv::Mat darkness;
  cv::Mat covered;
  double scale = 1;
};

/// The sheet for letters about `cap_height_px` tall: reduced when they are taller than 14 px, so
/// that a comparison costs the same whatever the picture's resolution (a letter's shape is all
/// there at 14 px).
TemplateSheet template_sheet(const cv::Mat& darkness, const cv::Mat& covered, double cap_height_px);

/// Compares each candidate drawn in `font` at `cap_height_px` with the picture about `centre`
/// (the drawing centred there, moved by up to `search_px` each way), over a window as wide as the
/// widest candidate with a margin, so that ink the candidate does not draw counts against it.
TemplateRead read_by_template(const TemplateSheet& sheet, cv::Point2d centre, const FontFace& font,
                              double cap_height_px, const std::vector<std::string>& candidates, int search_px);

/// Every candidate's score at `centre` (as read_by_template scores them), in their order, with the
/// box where each lies best.
std::vector<double> template_scores(const TemplateSheet& sheet, cv::Point2d centre, const FontFace& font,
                                    double cap_height_px, const std::vector<std::string>& candidates, int search_px,
                                    std::vector<cv::Rect>* boxes = nullptr);

/// The score of one candidate at `centre` (as read_by_template scores it).
double template_score(const TemplateSheet& sheet, cv::Point2d centre, const FontFace& font, double cap_height_px,
                      const std::string& text, const std::vector<std::string>& window_of, int search_px,
                      cv::Rect* box = nullptr);

/// The share of `text`'s ink, drawn in `font` over `box` (as the functions above return it), that
/// falls on pixels no other mark covers: how much of the letter a score there rests on.
double visible_share(const TemplateSheet& sheet, const cv::Rect& box, const FontFace& font, double cap_height_px,
                     const std::string& text);

/// Which of two candidates, each drawn at its best place about `centre` (as template_score places
/// it), the pixels where the two drawings differ agree with: 1 the first, 2 the second, 0 neither
/// clearly. The picture's darkness there is scaled to its ink's (the median under both drawings);
/// one drawing is told when its squared error is under 0.6 of the other's and a pixel and a half
/// less in all, so that a few such pixels left uncovered cannot tell. Whole drawings that nearly tie
/// (I and J differ in J's tail and hook, E and F in E's lower bar) are told apart this way.
int tell_apart(const TemplateSheet& sheet, cv::Point2d centre, const FontFace& font, double cap_height_px,
               const std::string& first, const std::string& second, int search_px);

/// Two labels written over each other (two points close together, their letters on one ink): the
/// two different candidates whose drawings together (the darker of the two at each pixel) match the
/// picture best over `box` (the pair's ink) and a margin, each drawn at one corner of the box (two
/// corners apart), the second moved by up to `search_px` each way. With each candidate's score
/// when drawn in the first letter's place, the second kept, and in the second's, the first kept;
/// and how well one letter alone draws it.
struct PairRead {
  double score = -1;         ///< -1: no pair compared
  double single_score = -1;  ///< the best one candidate alone at a corner, over the same window
  std::size_t first = 0, second = 0;
  std::vector<double> first_scores, second_scores;
  std::vector<cv::Rect> first_boxes, second_boxes;
};
PairRead read_pair_by_template(const TemplateSheet& sheet, cv::Rect box, const FontFace& font, double cap_height_px,
                               const std::vector<std::string>& candidates, int search_px);

/// A letter read surely, to find the figure's font by.
struct KnownLetter {
  std::string text;
  cv::Rect box;
};

struct FontMatch {
  FontFace font;
  double cap_height_px = 0;
  double score = 0;  ///< mean score of the known letters drawn in it
};

/// The font among `fonts` and the cap height (the known capitals' median height, a pixel either
/// way) that draw the known letters best; none without three known letters.
std::optional<FontMatch> identify_font(const TemplateSheet& sheet, const std::vector<KnownLetter>& known,
                                       const std::vector<FontFace>& fonts);

/// The same for letters whose reading is not known: each scored by its best capital (A–Z), a font by
/// the mean of the best two thirds of them (a speck taken for a glyph fits no font). The cap
/// height is looked for in the first font from their smallest box height to their largest and 2 px
/// more (boxes of broken letters are smaller, of letters joined to a mark larger), then every font
/// is tried at it and a pixel either way.
std::optional<FontMatch> identify_font_blind(const TemplateSheet& sheet, const std::vector<KnownLetter>& letters,
                                             const std::vector<FontFace>& fonts);

}  // namespace geotruth::vision
