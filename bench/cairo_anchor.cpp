// Anchor for scripts/bench's render row: the least a program drawing GePBench scenes must do.
// For each line of a JSONL file of unit-square scenes (bench/gepbench_scenes.py), parses it
// (nlohmann/json), strokes every shape with cairo on a white 640×640 picture (circles, ellipses,
// segments, lines across the square, polygons) and writes it as PNG with cairo's own writer
// (libpng's defaults) to OUT_DIR/<id>.png.
//
// Usage: cairo_anchor SCENES.jsonl OUT_DIR
#include <cairo.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

constexpr double kSize = 640, kPi = 3.14159265358979323846;

double px(const nlohmann::json& v) {
  return v.get<double>() * kSize;
}
double py(const nlohmann::json& v) {
  return (1 - v.get<double>()) * kSize;  // y up
}

void draw(cairo_t* cr, const nlohmann::json& shape) {
  const std::string type = shape["type"];
  if (type == "circle") {
    cairo_new_sub_path(cr);
    cairo_arc(cr, px(shape["center"][0]), py(shape["center"][1]), px(shape["radius"]), 0, 2 * kPi);
  } else if (type == "ellipse") {
    cairo_save(cr);
    cairo_translate(cr, px(shape["center"][0]), py(shape["center"][1]));
    cairo_rotate(cr, -shape.value("rotation", 0.0) * kPi / 180);
    cairo_scale(cr, px(shape["axes"][0]), px(shape["axes"][1]));
    cairo_new_sub_path(cr);
    cairo_arc(cr, 0, 0, 1, 0, 2 * kPi);
    cairo_restore(cr);
  } else if (type == "segment" || type == "line") {
    double x0 = px(shape["points"][0][0]), y0 = py(shape["points"][0][1]);
    double x1 = px(shape["points"][1][0]), y1 = py(shape["points"][1][1]);
    if (type == "line") {  // across the picture
      const double dx = x1 - x0, dy = y1 - y0, reach = 2 * kSize / std::hypot(dx, dy);
      x0 -= reach * dx, y0 -= reach * dy, x1 += reach * dx, y1 += reach * dy;
    }
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1, y1);
  } else if (type == "polygon") {
    const auto& points = shape["points"];
    cairo_move_to(cr, px(points[0][0]), py(points[0][1]));
    for (std::size_t k = 1; k < points.size(); ++k) cairo_line_to(cr, px(points[k][0]), py(points[k][1]));
    cairo_close_path(cr);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: cairo_anchor SCENES.jsonl OUT_DIR\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::size_t images = 0;
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json scene = nlohmann::json::parse(line);
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, kSize, kSize);
    cairo_t* cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 2);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (const auto& shape : scene["shapes"]) {
      draw(cr, shape);
      cairo_stroke(cr);
    }
    cairo_destroy(cr);
    const std::string path = std::string(argv[2]) + "/" + scene["id"].get<std::string>() + ".png";
    if (cairo_surface_write_to_png(surface, path.c_str()) != CAIRO_STATUS_SUCCESS) return 1;
    cairo_surface_destroy(surface);
    ++images;
  }
  std::cout << "{\"images\":" << images << "}\n";
}
