// What an image is made of before anything in it is matched: its paper (background level and
// polarity), its noise, and how dark every pixel is against the paper. Every ink decision of the
// cross-check is taken against these measures, never against a fixed gray level, so light-gray
// strokes, noisy scans and JPEG pictures are judged on their own terms (docs/vision.md, "Ink").
#pragma once

#include <opencv2/core.hpp>

#include <algorithm>
#include <optional>

#include <geotruth/vision.hpp>

namespace geotruth::vision {

struct Paper {
  cv::Mat gray;      ///< the image in gray levels (8-bit), as decoded
  cv::Mat darkness;  ///< 32-bit float: how much darker than the paper each pixel is (signed), denoised when noisy
  cv::Mat ink;       ///< 8-bit mask: darkness above `ink_level` (everything a stroke may be)
  double background = 255;    ///< the paper's gray level (the histogram's mode)
  bool dark_paper = false;    ///< light strokes on dark paper: darkness is then brightness
  double noise = 0;           ///< σ of the pixel noise, gray levels (robust: the paper's spread)
  double smoothing = 0;       ///< σ (px) of the Gaussian the darkness was smoothed with; 0: none
  double noise_smoothed = 0;  ///< σ of the noise left in `darkness`
  double ink_level = 0;       ///< darkness from which a pixel is ink: well above the noise
};

/// A picture whose point labels are written in a colour of their own (CountShapes' red letters
/// over black lines), as two gray pictures: the strokes without the labels, and the labels alone.
struct ColourLayers {
  Image strokes;  ///< each pixel's brightest channel: a label's colour on paper reads as paper
  Image labels;   ///< 255 − the pixel's chroma (max − min of R, G, B): the labels black on white
};

/// The two layers when the picture's strongly coloured ink (chroma at least 96) is lettering: at
/// least 20 such pixels, at least 20 neutral dark ones (the strokes), and nine tenths of the
/// coloured ink (chroma at least 48) in connected pieces no larger than a label (a tenth of the
/// picture's longer side, 12 px at least), two of them of 12 pixels or more (not specks of colour
/// a JPEG leaves). std::nullopt for gray pictures and for pictures whose strokes are coloured (a
/// coloured stroke is longer than a label), which are read as they are.
std::optional<ColourLayers> split_coloured_labels(const Image& image);

/// The picture's pixels of a colour (chroma, max − min of R, G, B, at least 48; 8-bit, 255 there):
/// split_coloured_labels' coloured ink, and a textbook's magenta marks among black letters.
cv::Mat tinted_pixels(const Image& image);

/// When measure_paper filters salt-and-pepper specks away (a 3 × 3 median).
enum class Specks {
  filter_when_changed,    ///< whenever the median changes the picture noticeably
  spare_clean_hairlines,  ///< the same, except on a clean drawing of hairlines, which it would erase
};

/// Measures the paper and the noise of an image and computes its darkness map and ink mask.
/// Images with a noise σ above 2 gray levels are smoothed (Gaussian, σ 1 px) before the darkness
/// is taken; salt-and-pepper specks are removed by a 3 × 3 median first when they are present.
Paper measure_paper(const Image& image, Specks specks = Specks::filter_when_changed);

/// Ink in the picture as decoded, before any smoothing: darkness above `ink_level` and 4 σ of the
/// unsmoothed noise. For thin marks (the stem of an I or a J) that the median filter against
/// salt-and-pepper specks wears away.
cv::Mat unsmoothed_ink(const Paper& paper);

/// The typical half-thickness of the ink (px): the median of the distance transform's ridge (its
/// local maxima), so that long thin strokes, not letters or dots, set it. 1 when there is no ink.
double ink_half_thickness(const cv::Mat& ink);

/// Twice that, within 1..8 px: the typical stroke width of a picture whose stroke width is unknown.
inline double stroke_width_of(const cv::Mat& ink) {
  const double half = ink_half_thickness(ink);
  return half < 0.5 ? 2.0 : std::min(8.0, std::max(1.0, 2 * half));
}

/// Darkness at a sub-pixel position (bilinear; positions outside the image read as paper).
double darkness_at(const Paper& paper, PixelPoint p);

/// The darkest reading across `p` along the unit vector `normal`, from -`tolerance` to +`tolerance`
/// px half a pixel apart: a stroke expected at `p` is found up to `tolerance` off its place.
double peak_darkness_across(const Paper& paper, PixelPoint p, PixelPoint normal, double tolerance);

}  // namespace geotruth::vision
