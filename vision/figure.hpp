// A scene laid out in image pixels: the one description both the renderer draws and the
// cross-check compares detections with.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <geotruth/vision.hpp>
#include <optional>

#include <string>
#include <vector>

namespace geotruth::vision {

using P2 = PixelPoint;

inline double dist(P2 a, P2 b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

/// The median of `values` (the upper one of an even count), 0 for none.
inline double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

/// A drawn stroke. Every stroke has a polyline `path` (chord error ≤ 0.05 px); circles and
/// ellipses also keep their parameters for matching.
struct Curve {
  enum class Model { polyline, circle, ellipse };
  std::string element;   ///< the scene element's id (a line is "A-B" after its end points)
  std::string category;  ///< count category: lines, circles, ellipses, polygons, arcs, sectors, stars, spirals,
                         ///< entities, links, layers
  std::vector<P2> path;
  bool closed = false, dashed = false;
  Model model = Model::polyline;
  P2 center;
  double a = 0, b = 0, angle_deg = 0;  ///< semi-axes (a = b = radius for a circle), rotation in the image
  std::optional<Vec2> exact_center;    ///< circles: the centre in frame units (for geometry's gaps)
  Rational exact_radius2;              ///< circles: the squared radius in frame units
  bool full = true;                    ///< a whole circle or ellipse, not an arc
  std::array<bool, 2> drawn_ends{};    ///< a straight stroke's ends where it stops (not a ray's or line's clipping)
  std::vector<std::size_t> straights;  ///< its straight pieces (indices into Figure::straights)
};

/// A straight piece of a stroke (a line, a polygon edge, a box side), in pixels.
struct Straight {
  std::string element;
  P2 a, b;
  Vec2 exact_a, exact_b;  ///< the same ends in frame units (for geometry's gaps)
};

struct Dot {
  std::string element;
  P2 at;
};

struct Text {
  std::string element, text;
  P2 center;  ///< where the text's box is centred
  P2 anchor;  ///< the point it names (letters) or the box centre (entities)
  bool letter = false;
};

struct Head {
  std::string element;
  P2 tip, left, right;
};

struct Figure {
  int width = 0, height = 0;
  double px_per_unit = 1, font_px = 12;
  std::vector<Curve> curves;
  std::vector<Straight> straights;
  std::vector<Dot> dots;
  std::vector<Text> texts;
  std::vector<Head> heads;
  std::vector<std::string> problems;  ///< elements that could not be laid out (no coordinates)
};

/// Pixels per frame unit of a rendering: `size` on the frame's longer side, or
/// bands.pixels_per_unit(frame) when size is 0 (640 px for the unit square).
double render_scale(const Frame& frame, int size, const Bands& bands);
/// The image a rendering at `scale` gets: the whole frame. Throws std::invalid_argument when a
/// side would be outside 1..16384 pixels.
std::pair<int, int> image_size(const Frame& frame, double scale);
/// Pixels per frame unit of an existing width × height image of the scene: the scale at which
/// the frame fills the image when it does (own renderings at any size); else 1 when the frame
/// fits in the image (pixel annotations such as Geometry3K's, whose frame is the points' extent);
/// else the scale that fits the frame inside the image. `fills` tells which case it was.
double scale_for_image(const Frame& frame, int width, int height, bool& fills);

/// Lays the scene out on a width × height image at `scale` pixels per frame unit, the frame's
/// origin corner at `offset` (y-up frames flip about the frame's top). Letters go beside their point, in the one of
/// eight directions farthest from every stroke. `as_drawn`: shapes as the dataset's source draws
/// them (Shape::drawn), for its own pictures; otherwise as defined.
Figure build_figure(const Scene& scene, int width, int height, double scale, P2 offset = {}, double font_px = 0,
                    bool as_drawn = false);

/// Distance from p to the segment ab.
double distance_to_segment(P2 p, P2 a, P2 b);
/// Distance from p to a polyline (closed: the last point joins the first).
double distance_to_path(P2 p, const std::vector<P2>& path, bool closed);

}  // namespace geotruth::vision
