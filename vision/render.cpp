// The renderer: cairo, anti-aliased, round caps and joins like matplotlib's lines.
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "vision/figure.hpp"
#include "vision/noise.hpp"

namespace geotruth::vision {
namespace {

using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using ContextPtr = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

// Resamples a path every ~6 px and pushes each sample sideways by smooth random amounts: a hand
// drawn look that keeps the shape within about one stroke width.
std::vector<P2> jittered(const std::vector<P2>& path, bool closed, double amplitude, Random& random) {
  std::vector<P2> out;
  const std::size_t n = path.size() + (closed ? 1 : 0);
  double drift = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const P2 a = path[i], b = path[(i + 1) % path.size()];
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    const int steps = std::max(1, static_cast<int>(len / 6));
    const double nx = len > 0 ? -(b.y - a.y) / len : 0, ny = len > 0 ? (b.x - a.x) / len : 0;
    for (int k = 0; k < steps; ++k) {
      drift = 0.8 * drift + 0.2 * random.normal();
      const double t = static_cast<double>(k) / steps, off = amplitude * drift;
      out.push_back({a.x + t * (b.x - a.x) + off * nx, a.y + t * (b.y - a.y) + off * ny});
    }
  }
  out.push_back(closed ? out.front() : path.back());
  return out;
}

void trace(cairo_t* cr, const std::vector<P2>& path, bool closed) {
  if (path.empty()) return;
  cairo_move_to(cr, path[0].x, path[0].y);
  for (std::size_t i = 1; i < path.size(); ++i) cairo_line_to(cr, path[i].x, path[i].y);
  if (closed) cairo_close_path(cr);
}

// A surface over this thread's pixel buffer, reused from picture to picture: cairo's own surface
// is a fresh calloc each time, which jemalloc zeroes by handing the pages back to the kernel
// (madvise), so that every picture faulted its ~450 pages in again, and with two threads each
// such madvise also stopped the other core to flush its TLB. The picture paints every pixel
// first (cairo_paint), so what the buffer held before does not show. Pictures over 16 MiB get a
// surface of their own, not a buffer kept for the thread's life.
SurfacePtr pixel_surface(int width, int height) {
  constexpr std::size_t kKeptBytes = std::size_t(16) << 20;
  const int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, width);
  const std::size_t bytes = static_cast<std::size_t>(stride) * height;
  if (stride <= 0 || bytes > kKeptBytes)
    return SurfacePtr(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height), cairo_surface_destroy);
  thread_local std::vector<unsigned char> pixels;
  if (pixels.size() < bytes) pixels.resize(bytes);
  return SurfacePtr(cairo_image_surface_create_for_data(pixels.data(), CAIRO_FORMAT_RGB24, width, height, stride),
                    cairo_surface_destroy);
}

}  // namespace

Image render(const Scene& scene, const RenderOptions& options) {
  const double scale = render_scale(scene.frame, options.size, options.bands);
  const auto [width, height] = image_size(scene.frame, scale);
  const Figure fig = build_figure(scene, width, height, scale, {}, options.font_px);
  SurfacePtr surface = pixel_surface(width, height);
  ContextPtr context(cairo_create(surface.get()), cairo_destroy);
  cairo_t* cr = context.get();
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);

  const double w = options.stroke_width;
  cairo_set_source_rgb(cr, options.color[0] / 255.0, options.color[1] / 255.0, options.color[2] / 255.0);
  cairo_set_line_width(cr, w);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  Random random(options.seed ^ stable_hash(scene.id));
  const double dash[] = {6 * w, 3 * w};  // dashes long enough for a line detector to see
  for (const Curve& curve : fig.curves) {
    cairo_set_dash(cr, dash, curve.dashed ? 2 : 0, 0);
    if (options.style == Style::sketch)
      trace(cr, jittered(curve.path, curve.closed, 0.6 * w, random), false);
    else
      trace(cr, curve.path, curve.closed);
    cairo_stroke(cr);
  }
  cairo_set_dash(cr, nullptr, 0, 0);
  for (const Head& head : fig.heads) {
    trace(cr, {head.tip, head.left, head.right}, true);
    cairo_fill(cr);
  }
  for (const Dot& dot : fig.dots) {
    cairo_arc(cr, dot.at.x, dot.at.y, std::max(2.0, 1.25 * w), 0, 2 * std::numbers::pi);
    cairo_fill(cr);
  }
  if (options.draw_labels) {
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_font_options_t* font_options = cairo_font_options_create();
    cairo_font_options_set_hint_style(font_options, CAIRO_HINT_STYLE_NONE);  // same glyphs at every position
    cairo_set_font_options(cr, font_options);
    cairo_font_options_destroy(font_options);
    for (const Text& text : fig.texts) {
      cairo_set_font_size(cr, text.letter ? fig.font_px * 1.15 : fig.font_px);
      cairo_text_extents_t ext;
      cairo_text_extents(cr, text.text.c_str(), &ext);
      cairo_move_to(cr, text.center.x - ext.x_bearing - ext.width / 2, text.center.y - ext.y_bearing - ext.height / 2);
      cairo_show_text(cr, text.text.c_str());
    }
  }
  cairo_surface_flush(surface.get());

  Image image{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 3)};
  const unsigned char* data = cairo_image_surface_get_data(surface.get());
  const int stride = cairo_image_surface_get_stride(surface.get());
  for (int y = 0; y < height; ++y) {
    const auto* row = reinterpret_cast<const std::uint32_t*>(data + static_cast<std::size_t>(y) * stride);
    std::uint8_t* out = &image.rgb[static_cast<std::size_t>(y) * width * 3];
    for (int x = 0; x < width; ++x) {
      out[3 * x] = (row[x] >> 16) & 0xff, out[3 * x + 1] = (row[x] >> 8) & 0xff, out[3 * x + 2] = row[x] & 0xff;
    }
  }
  apply_noise(image, fig, options, random);
  return image;
}

}  // namespace geotruth::vision
