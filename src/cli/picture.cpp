// The drawing options of render and crosscheck (parsed in the executable; the commands themselves
// live in the vision module, src/cli/vision.cpp).
#include "cli/common.hpp"

namespace geotruth::cli {
namespace {

// "#rrggbb", "#rgb" or a gray level 0–255.
std::array<std::uint8_t, 3> parse_color(const std::string& text) {
  auto hex = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw CLI::ValidationError("--color", "\"" + text + "\" is not #rrggbb, #rgb or a gray level 0-255");
  };
  if (!text.empty() && text[0] == '#' && text.size() == 7)
    return {static_cast<std::uint8_t>(hex(text[1]) * 16 + hex(text[2])),
            static_cast<std::uint8_t>(hex(text[3]) * 16 + hex(text[4])),
            static_cast<std::uint8_t>(hex(text[5]) * 16 + hex(text[6]))};
  if (!text.empty() && text[0] == '#' && text.size() == 4)
    return {static_cast<std::uint8_t>(hex(text[1]) * 17), static_cast<std::uint8_t>(hex(text[2]) * 17),
            static_cast<std::uint8_t>(hex(text[3]) * 17)};
  std::size_t used = 0;
  int level = -1;
  try {
    level = std::stoi(text, &used);
  } catch (const std::exception&) {
  }
  if (used != text.size() || level < 0 || level > 255)
    throw CLI::ValidationError("--color", "\"" + text + "\" is not #rrggbb, #rgb or a gray level 0-255");
  const auto v = static_cast<std::uint8_t>(level);
  return {v, v, v};
}

}  // namespace

void PictureOptions::add_to(CLI::App& app, bool with_seed) {
  app.add_option("--size", size, "pixels of the longer side (0: 640 for the unit square, else the frame's own pixels)")
      ->check(CLI::Range(0, 16384))
      ->capture_default_str();
  app.add_option("--stroke-width", stroke_width, "stroke width in pixels")
      ->check(CLI::Range(0.1, 50.0))
      ->capture_default_str();
  app.add_option("--color", color, "stroke colour: #rrggbb, #rgb, or a gray level 0-255")->capture_default_str();
  app.add_option("--style", style, "clean, or sketch (jittered strokes)")
      ->check(CLI::IsMember({"clean", "sketch"}))
      ->capture_default_str();
  app.add_option("--gaussian", noise.gaussian_sigma, "Gaussian noise, sigma in gray levels")
      ->check(CLI::Range(0.0, 255.0));
  app.add_option("--salt-pepper", noise.salt_pepper, "fraction of outline pixels flipped black or white")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--disturb", noise.disturb_strokes, "white strokes drawn across the picture")
      ->check(CLI::Range(0, 1000));
  app.add_option("--perlin", noise.perlin, "Perlin noise inside closed shapes, amplitude in gray levels")
      ->check(CLI::Range(0.0, 255.0));
  if (with_seed) app.add_option("--seed", seed, "seed of the sketch jitter and the noise")->capture_default_str();
  app.add_flag("--no-labels", no_labels, "leave out point letters and entity text");
}

vision::RenderOptions PictureOptions::options(const Bands& bands) const {
  vision::RenderOptions o;
  o.size = size, o.stroke_width = stroke_width, o.color = parse_color(color);
  o.style = style == "sketch" ? vision::Style::sketch : vision::Style::clean;
  o.noise = noise, o.seed = seed, o.draw_labels = !no_labels, o.bands = bands;
  return o;
}

ordered_json PictureOptions::json() const {
  return {{"size", size},
          {"stroke_width", stroke_width},
          {"color", color},
          {"style", style},
          {"gaussian", noise.gaussian_sigma},
          {"salt_pepper", noise.salt_pepper},
          {"disturb", noise.disturb_strokes},
          {"perlin", noise.perlin},
          {"seed", seed},
          {"no_labels", no_labels}};
}

}  // namespace geotruth::cli
