// The picture at the places a scene puts things: ink along a straight stretch or a circle, and a
// glyph's reading as a given letter, measured as the cross-check measures a scene's strokes
// (vision/trace.cpp) and as the picture reader reads letters (vision/letters.hpp). The
// cross-check's counts (src/count_check/, docs/vision.md "Counts") confirm with it each difference
// the picture reader finds. Plain data only: OpenCV stays in vision/.
#pragma once

#include <geotruth/vision.hpp>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace geotruth::vision {

/// Where a frame position (x, y) lands in a picture drawn at `scale` pixels per frame unit with the
/// frame's origin corner at `offset` (CrossCheck::scale, CrossCheck::offset); y-up frames flip
/// about the frame's top (`frame_height`, in frame units). The mapping the renderer uses.
inline PixelPoint frame_to_picture(double x, double y, double scale, PixelPoint offset, bool y_up,
                                   double frame_height) {
  return {offset.x + x * scale, offset.y + (y_up ? frame_height * scale - y * scale : y * scale)};
}

/// The picture's paper and noise are measured once (measure_paper); then each probe samples every
/// 1.5 px with ink at the stroke's own contrast within `tolerance_px` across it.
class InkProbe {
 public:
  InkProbe(const Image& image, double tolerance_px);
  ~InkProbe();
  InkProbe(const InkProbe&) = delete;
  InkProbe& operator=(const InkProbe&) = delete;
  /// The share (0–1) of the straight stretch from a to b (pixels) inked; 0 for a stretch off the picture.
  double straight(PixelPoint a, PixelPoint b) const;
  /// The share (0–1) of the circle about `centre` of that radius (pixels) inked.
  double round(PixelPoint centre, double radius) const;

  /// Where the ink lies along the straight stretch from a to b (pixels): every 1.5 px, the darkest
  /// point of the ink run nearest the stretch within the tolerance across it (to half a pixel);
  /// samples without ink are left out.
  std::vector<PixelPoint> ink_along(PixelPoint a, PixelPoint b) const;
  /// The calibrated confidence (0–1) of the glyph classifier that the ink in the box (picture
  /// pixels) reads as the one character `text` (a lower-case letter shaped like its capital reads
  /// as the capital); -1 when `text` is not one character or the box holds no ink.
  double reads_as(int x, int y, int width, int height, const std::string& text) const;
  /// The classifier's best reading of the ink in the box and its confidence; {"", 0} for no ink.
  std::pair<std::string, double> best_reading(int x, int y, int width, int height) const;

 private:
  struct Paper;
  std::unique_ptr<Paper> paper_;
  double tolerance_px_;
};

}  // namespace geotruth::vision
