// The picture side: render a scene the way benchmark builders do, detect what an independent
// pixel pipeline sees in an image, and cross-check the two (docs/vision.md).
// Plain data only: cairo and OpenCV stay inside vision/. Doubles are fine here: this is where a
// picture is drawn and measured, never where a symbolic truth is decided.
#pragma once

#include <array>
#include <cstdint>
#include <geotruth/bands.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/scene.hpp>
#include <map>
#include <string>
#include <vector>

namespace geotruth::vision {

/// An 8-bit RGB image, rows top to bottom, 3 bytes per pixel.
struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  friend bool operator==(const Image&, const Image&) = default;
};

enum class Style { clean, sketch };
enum class ImageFormat { png, jpeg };

/// Degradations applied after drawing, all deterministic for a given seed.
struct Noise {
  double gaussian_sigma = 0;  ///< per-pixel Gaussian noise, in gray levels (0–255)
  double salt_pepper = 0;     ///< fraction of outline pixels flipped to white or black
  int disturb_strokes = 0;    ///< white strokes drawn across the picture
  double perlin = 0;          ///< amplitude (gray levels) of Perlin noise inside closed shapes
};

struct RenderOptions {
  int size = 0;               ///< pixels of the longer side; 0: by Bands::pixels_per_unit (640 for the unit square)
  double stroke_width = 2.0;  ///< pixels (matplotlib's 1.5 pt at 100 dpi is ≈ 2.1)
  std::array<std::uint8_t, 3> color{};  ///< stroke and text colour; gray levels have r = g = b
  Style style = Style::clean;
  Noise noise;
  std::uint64_t seed = 1;   ///< for sketch jitter and noise
  double font_px = 0;       ///< letter height; 0: 2.2 % of the longer side, at least 11 px
  bool draw_labels = true;  ///< point letters and entity text
  Bands bands;              ///< only render_size_px is used, for the default size
};

/// Draws the scene: points with their letters, lines (rays and lines clipped to the canvas),
/// circles and PGDP quadrant arcs, shapes, layers, entity boxes with text, links with heads.
/// Same scene and options → identical pixels.
Image render(const Scene& scene, const RenderOptions& options = {});

/// Encodes to PNG (lossless; `quality` ignored) or JPEG (`quality` 0–100). Deterministic.
std::vector<std::uint8_t> encode(const Image& image, ImageFormat format, int quality = 90);
/// How large a picture may be decoded: its header's size is checked before any pixel is.
struct DecodeLimits {
  std::uint64_t max_pixels = 64ull << 20;  ///< width × height (64 Mi pixels: 192 MiB of RGB)
  int max_side = 16384;
};

/// Decodes PNG (libpng) and JPEG (libjpeg) strictly, anything else OpenCV reads; alpha is
/// composited over white. Returns an empty image (width 0) and sets `error` when the bytes are not
/// a whole, undamaged image (a file cut short, a corrupt JPEG) or are larger than `limits`.
Image decode(const std::vector<std::uint8_t>& bytes, std::string& error, const DecodeLimits& limits = {});

struct PixelPoint {
  double x = 0, y = 0;
};

/// What OpenCV finds in an image, before any matching.
struct Detections {
  struct Segment {
    PixelPoint a, b;
  };
  /// Segments clustered into one supporting line: θ ∈ [0°, 180°), ρ = x·cosθ + y·sinθ.
  struct Line {
    double theta_deg = 0, rho = 0, length = 0;  ///< length: summed length of its segments
    PixelPoint a, b;                            ///< extreme projections of its segments
    std::vector<std::size_t> segments;
  };
  struct Ellipse {
    PixelPoint center;
    double a = 0, b = 0, angle_deg = 0;  ///< semi-axes a ≥ b; a circle has a == b
    bool circle = false;
  };
  struct Contour {
    std::vector<PixelPoint> vertices;  ///< polygonal approximation of a closed region's boundary
    double area = 0;
  };
  struct Box {
    int x = 0, y = 0, width = 0, height = 0;
  };
  std::vector<Segment> segments;
  std::vector<Line> lines;
  std::vector<Ellipse> ellipses;
  std::vector<Contour> contours;
  std::vector<Box> glyphs;             ///< small connected components: letters and digits
  std::vector<PixelPoint> arrowheads;  ///< centres of filled triangular blobs
  int ink_threshold = 128;             ///< gray level below which a pixel is ink (Otsu)
};

/// Runs the detectors: FastLineDetector segments clustered by (θ, ρ); EdgeDrawing circles and
/// ellipses (each drawn stroke has two edges: they are merged); contours of the enclosed
/// regions with approxPolyDP vertices; glyph-sized connected components; filled triangles.
Detections detect(const Image& image);

/// One disagreement or doubt found by the cross-check: a finding (not_visible, not_detected,
/// low_contrast, extra_detection, count_mismatch, pixel_ambiguous, pixel_disagreement, too_small,
/// off_canvas; slack_px is the measured gap, radius or distance) and where to circle it in the overlay.
struct Reason : Finding {
  std::vector<PixelPoint> where;
};

/// Symbolic vs detected per category (lines, circles, ellipses, polygons, letters, …).
struct Count {
  int symbolic = 0;  ///< elements of the scene that should be seen
  int matched = 0;   ///< of those, matched by a detection
  int extra = 0;     ///< detections no symbolic element explains
};

/// A measured tangency or incidence: the gap between two strokes where the scene says they
/// touch or nearly touch.
struct GapMeasure {
  std::vector<std::string> elements;
  double symbolic_px = 0;  ///< the scene's gap between the curves (0 = touching)
  double image_px = 0;     ///< background pixels between the two strokes along the closest approach
};

/// How the picture was read: its paper and noise, its strokes, and the matching tolerance in
/// force. The tolerances follow the picture as the bands follow the data (docs/vision.md).
struct PictureReading {
  double background = 255;    ///< the paper's gray level
  double noise_sigma = 0;     ///< σ of the pixel noise, gray levels
  double ink_level = 0;       ///< darkness against the paper from which a pixel is ink
  double stroke_px = 2;       ///< the typical stroke width
  double wobble_px = 0;       ///< how far drawn strokes stray from their place (90th percentile)
  std::string wobble_source;  ///< "auto" (measured on the strokes that match unambiguously) or "given"
  int wobble_strokes = 0;     ///< auto: how many strokes it was measured on
  double tolerance_px = 3;    ///< how far from its place a stroke's ink may lie and still match
  /// The smallest circle the scene lacks that counts as drawn: 2 % of the picture's longer side, at
  /// least 6 px (a letter's bowl, an angle mark or a knot of strokes is smaller).
  double min_extra_radius_px = 6;
};

/// What the picture shows of one drawn element of the scene.
struct ElementEvidence {
  std::string element, category;
  double coverage = 0;   ///< share of its stroke with ink within the tolerance
  double contrast = 0;   ///< how much darker than the paper its stroke is, gray levels
  bool visible = false;  ///< drawn large enough, on the canvas, with ink along its stroke
  bool matched = false;  ///< and where the scene puts it, with its shape
};

/// How a frame drawn at a scale of its own (Frame::px_per_unit: VisOnlyQA's matplotlib figures)
/// maps onto its picture, fitted on the picture: the scene's placed points matched to the point dots
/// the picture draws, and a similarity (Eigen's umeyama) fitted to the matches.
struct PictureMapping {
  bool fitted = false;
  double scale = 0;         ///< image pixels per frame unit
  double rotation_deg = 0;  ///< the similarity's rotation (matplotlib draws none: near 0)
  bool flipped = false;     ///< the frame's y axis runs up the image (y-up frames)
  PixelPoint translation;   ///< where the frame's origin lands in the image
  double residual_px = 0;   ///< RMS distance of the matched dots from where the mapping puts their points
  double worst_px = 0;      ///< the largest of those distances
  int dots = 0;             ///< points matched to a dot
  int points = 0;           ///< placed points of the scene
  std::string reason;       ///< why no mapping was fitted (then the frame is registered as for any picture)
};

struct CrossCheck {
  bool agree = true;             ///< no reason is a conflict
  bool doubtful = false;         ///< some reason is doubtful (pixel_ambiguous, low_contrast): seen, but not safely
  double scale = 1;              ///< image pixels per frame unit
  PixelPoint offset;             ///< where the frame's origin lands in the image (registration of users' images)
  PictureMapping mapping;        ///< frames drawn at a scale of their own: the mapping fitted on the picture
  bool dataset_picture = false;  ///< judged against the shapes as the dataset's source draws them
  PictureReading picture;
  std::vector<Reason> reasons;
  std::map<std::string, Count> counts;
  std::vector<GapMeasure> gaps;
  std::vector<ElementEvidence> elements;
  Detections detections;  ///< what was seen: fits of the scene's curves on their ink, glyphs, heads, extras
};

struct CrossCheckOptions {
  double min_coverage = 0.85;    ///< share of a solid stroke's length that must be ink to be visible
  double wobble_px = -1;         ///< the strokes' wobble, when known; negative: measured on the picture
  bool dataset_picture = false;  ///< the dataset's own picture: shapes as its source draws them (Shape::drawn)
  Bands bands;                   ///< a scene gap the band says holds is "touching"
};

/// Whether a circle in a picture (pixels) is one a figure constructs on its points: centred on one
/// of `points` and through another, or through three of them, each within twice the cross-check's
/// tolerance or 3 % of the radius. A circle a scene lacks where its description may leave circles
/// out (unlisted_reason) is counted no difference when it is such a one.
bool circle_on_points(PixelPoint centre, double radius, const std::vector<PixelPoint>& points, double tolerance_px);

/// Compares the scene with an image of it. Scene coordinates map to the image at the scale where
/// the frame fills it (own renderings at any size). Otherwise (users' images, such as
/// Geometry3K's, whose annotated positions are pixels of the image's drawing but not from its
/// corner) the scale is one unit per pixel when the frame fits, else the fitting scale, and the
/// offset is found by registration: the translation that puts the scene's strokes on ink.
CrossCheck crosscheck(const Scene& scene, const Image& image, const CrossCheckOptions& options = {});

/// The image, faded, with the scene's elements in blue, the detections in orange and every
/// disagreement circled in red.
Image overlay(const Scene& scene, const Image& image, const CrossCheck& check);

/// What the reader read from `image` (`read`: its scene, read_picture's): the picture faded, the
/// lines and circles read in blue, each point a blue dot with its name beside it (a point named
/// without a glyph, by the figure's range, in a lighter blue), unnamed points small and grey, and
/// each doubtful finding's points circled in red (a stroke in doubt drawn dashed between them).
Image reading_overlay(const Scene& read, const Image& image);

}  // namespace geotruth::vision
