#include "vision/glyph_render.hpp"

#include <cairo.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include "vision/noise.hpp"

namespace geotruth::vision {
namespace {

using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using ContextPtr = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

// One character placed in the text's own frame (origin at the first baseline's start).
struct Placed {
  std::string text;
  double x = 0, y = 0, size = 0;
};

struct Layout {
  std::vector<Placed> characters;
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // ink extents of the whole text
};

Layout lay_out(cairo_t* cr, const SheetText& text) {
  Layout layout;
  layout.x0 = layout.y0 = 1e300, layout.x1 = layout.y1 = -1e300;
  select_font(cr, text.font);
  double x = 0;
  const auto characters = utf8_characters(text.text);
  for (std::size_t i = 0; i < characters.size(); ++i) {
    const double scale = i < text.scale.size() ? text.scale[i] : 1.0;
    const double rise = i < text.rise.size() ? text.rise[i] : 0.0;
    Placed p{characters[i], x, rise * text.size_px, text.size_px * scale};
    cairo_set_font_size(cr, p.size);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, p.text.c_str(), &ext);
    if (ext.width > 0) {
      layout.x0 = std::min(layout.x0, p.x + ext.x_bearing),
      layout.x1 = std::max(layout.x1, p.x + ext.x_bearing + ext.width);
      layout.y0 = std::min(layout.y0, p.y + ext.y_bearing),
      layout.y1 = std::max(layout.y1, p.y + ext.y_bearing + ext.height);
    }
    x += ext.x_advance;
    layout.characters.push_back(std::move(p));
  }
  if (layout.x0 > layout.x1) layout.x0 = layout.x1 = layout.y0 = layout.y1 = 0;
  return layout;
}

// The text's frame in the sheet: centred on `at`, rotated about it.
void place(cairo_t* cr, const SheetText& text, const Layout& layout) {
  cairo_translate(cr, text.at.x, text.at.y);
  cairo_rotate(cr, -text.rotation_deg * std::numbers::pi / 180);
  cairo_translate(cr, -(layout.x0 + layout.x1) / 2, -(layout.y0 + layout.y1) / 2);
}

// Draws the characters `which` (all when npos) of a text with its weight change, in the current source.
void draw_text(cairo_t* cr, const SheetText& text, const Layout& layout, std::size_t which = std::string::npos) {
  cairo_save(cr);
  place(cr, text, layout);
  select_font(cr, text.font);
  cairo_new_path(cr);
  for (std::size_t i = 0; i < layout.characters.size(); ++i) {
    if (which != std::string::npos && i != which) continue;
    const Placed& p = layout.characters[i];
    cairo_set_font_size(cr, p.size);
    cairo_move_to(cr, p.x, p.y);
    cairo_text_path(cr, p.text.c_str());
  }
  if (text.weight_px > 0) {
    cairo_set_line_width(cr, text.weight_px);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_fill_preserve(cr);
    cairo_stroke(cr);
  } else if (text.weight_px < 0) {
    // Thinner: the glyphs filled in a group, their outline cleared out of it.
    cairo_pattern_t* source = cairo_pattern_reference(cairo_get_source(cr));
    cairo_path_t* path = cairo_copy_path(cr);
    cairo_push_group(cr);
    cairo_set_source(cr, source);
    cairo_append_path(cr, path);
    cairo_fill_preserve(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_set_line_width(cr, -2 * text.weight_px);
    cairo_stroke(cr);
    cairo_pop_group_to_source(cr);
    cairo_paint(cr);
    cairo_path_destroy(path);
    cairo_pattern_destroy(source);
  } else {
    cairo_fill(cr);
  }
  cairo_restore(cr);
}

void draw_stroke(cairo_t* cr, const SheetStroke& s) {
  if (s.path.empty()) return;
  cairo_new_path(cr);
  cairo_move_to(cr, s.path[0].x, s.path[0].y);
  for (std::size_t i = 1; i < s.path.size(); ++i) cairo_line_to(cr, s.path[i].x, s.path[i].y);
  if (s.closed || s.filled) cairo_close_path(cr);
  if (s.filled) {
    cairo_fill(cr);
  } else {
    cairo_set_line_width(cr, s.width);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke(cr);
  }
}

// The box of the pixels a drawing covers by at least a quarter.
cv::Rect covered_box(cairo_surface_t* surface) {
  cairo_surface_flush(surface);
  const int w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface);
  const cv::Mat alpha(h, w, CV_8U, cairo_image_surface_get_data(surface),
                      static_cast<std::size_t>(cairo_image_surface_get_stride(surface)));
  std::vector<cv::Point> points;
  cv::findNonZero(alpha >= 64, points);
  return points.empty() ? cv::Rect() : cv::boundingRect(points);
}

}  // namespace

void select_font(cairo_t* cr, const FontFace& font) {
  cairo_select_font_face(cr, font.family.c_str(), font.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                         font.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_font_options_t* options = cairo_font_options_create();
  cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  cairo_set_font_options(cr, options);
  cairo_font_options_destroy(options);
}

const std::vector<FontFace>& training_fonts() {
  static const std::vector<FontFace> fonts = {
      {"DejaVu Sans", false, false},      {"DejaVu Sans", true, false},       {"DejaVu Sans", false, true},
      {"DejaVu Serif", false, false},     {"DejaVu Serif", true, false},      {"Liberation Sans", false, false},
      {"Liberation Sans", true, false},   {"Liberation Serif", false, false}, {"Liberation Serif", true, false},
      {"Nimbus Sans", false, false},      {"Nimbus Sans", true, false},       {"Nimbus Roman", false, false},
      {"Nimbus Roman", true, false},      {"FreeSerif", true, false},         {"Latin Modern Roman", false, false},
      {"Latin Modern Roman", true, false}};
  return fonts;
}

const std::vector<FontFace>& held_out_fonts() {
  static const std::vector<FontFace> fonts = {{"FreeSans", false, false},
                                              {"FreeSans", true, false},
                                              {"FreeSerif", false, false},
                                              {"P052", true, false},
                                              {"C059", false, false},
                                              {"URW Bookman", false, false},
                                              {"Latin Modern Sans", false, false}};
  return fonts;
}

std::vector<std::string> utf8_characters(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t n = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    out.push_back(text.substr(i, n));
    i += n;
  }
  return out;
}

Image draw_sheet(const Sheet& sheet, std::vector<std::vector<CharacterInk>>* characters) {
  SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, sheet.width, sheet.height), cairo_surface_destroy);
  ContextPtr context(cairo_create(surface.get()), cairo_destroy);
  cairo_t* cr = context.get();
  const double paper = sheet.paper_gray / 255, ink = sheet.ink_gray / 255;
  cairo_set_source_rgb(cr, paper, paper, paper);
  cairo_paint(cr);
  cairo_set_source_rgb(cr, ink, ink, ink);
  for (const SheetStroke& s : sheet.strokes) draw_stroke(cr, s);
  std::vector<Layout> layouts;
  for (const SheetText& t : sheet.texts) {
    layouts.push_back(lay_out(cr, t));
    draw_text(cr, t, layouts.back());
  }
  if (characters) {
    characters->assign(sheet.texts.size(), {});
    for (std::size_t t = 0; t < sheet.texts.size(); ++t)
      for (std::size_t i = 0; i < layouts[t].characters.size(); ++i) {
        SurfacePtr alone(cairo_image_surface_create(CAIRO_FORMAT_A8, sheet.width, sheet.height), cairo_surface_destroy);
        ContextPtr alone_context(cairo_create(alone.get()), cairo_destroy);
        cairo_set_source_rgba(alone_context.get(), 0, 0, 0, 1);
        draw_text(alone_context.get(), sheet.texts[t], layouts[t], i);
        const cv::Rect box = covered_box(alone.get());
        if (box.area() > 0) (*characters)[t].push_back({layouts[t].characters[i].text, box});
      }
  }
  cairo_surface_flush(surface.get());

  // Degradations, on the gray picture.
  cv::Mat gray(sheet.height, sheet.width, CV_8U);
  const unsigned char* data = cairo_image_surface_get_data(surface.get());
  const int stride = cairo_image_surface_get_stride(surface.get());
  for (int y = 0; y < sheet.height; ++y) {
    const auto* row = reinterpret_cast<const std::uint32_t*>(data + static_cast<std::size_t>(y) * stride);
    for (int x = 0; x < sheet.width; ++x) gray.at<std::uint8_t>(y, x) = row[x] & 0xff;
  }
  Random random(sheet.seed);
  if (sheet.blur_sigma > 0) cv::GaussianBlur(gray, gray, {0, 0}, sheet.blur_sigma);
  if (sheet.gaussian_sigma > 0 || sheet.salt_pepper > 0) {
    for (int y = 0; y < gray.rows; ++y)
      for (int x = 0; x < gray.cols; ++x) {
        double v = gray.at<std::uint8_t>(y, x) + sheet.gaussian_sigma * random.normal();
        if (sheet.salt_pepper > 0 && random.uniform() < sheet.salt_pepper) v = random.uniform() < 0.5 ? 0 : 255;
        gray.at<std::uint8_t>(y, x) = cv::saturate_cast<std::uint8_t>(v);
      }
  }
  if (sheet.jpeg_quality > 0) {
    std::vector<std::uint8_t> bytes;
    cv::imencode(".jpg", gray, bytes, {cv::IMWRITE_JPEG_QUALITY, sheet.jpeg_quality});
    gray = cv::imdecode(bytes, cv::IMREAD_GRAYSCALE);
  }
  Image image{sheet.width, sheet.height,
              std::vector<std::uint8_t>(static_cast<std::size_t>(sheet.width) * sheet.height * 3)};
  for (int y = 0; y < sheet.height; ++y)
    for (int x = 0; x < sheet.width; ++x)
      for (int c = 0; c < 3; ++c)
        image.rgb[(static_cast<std::size_t>(y) * sheet.width + x) * 3 + c] = gray.at<std::uint8_t>(y, x);
  return image;
}

}  // namespace geotruth::vision
