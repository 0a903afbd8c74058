// import --from picture (and count, analyze, audit --truth-from picture): one picture file read into
// its scene. Built into geotruth-vision.so with vision/ (OpenCV), which geotruth-parallel loads on
// the first picture (cli/vision_loader.cpp); geotruth itself never loads it.
#include <filesystem>
#include <fstream>
#include <geotruth/reader.hpp>
#include <iterator>
#include <vector>

#include "cli/common.hpp"

namespace geotruth::cli {
namespace {

// The picture file at `path` decoded, or (width 0) `error` saying why not.
vision::Image decode_file(const std::string& path, const vision::DecodeLimits& limits, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open picture " + path;
    return {};
  }
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  vision::Image image = vision::decode(bytes, error, limits);
  if (image.width == 0) error = path + ": " + error;
  return image;
}

// The reading `read` drawn over `image`, as PNG (vision::reading_overlay); throws what OpenCV throws.
std::vector<std::uint8_t> reading_overlay_png(const Scene& read, const vision::Image& image) {
  return vision::encode(vision::reading_overlay(read, image), vision::ImageFormat::png);
}

ImportedScene read_file(const std::string& path, const vision::DecodeLimits& limits, const std::string& overlay_dir) {
  ImportedScene out;
  out.key = picture_id(path);
  std::string error;
  const vision::Image image = decode_file(path, limits, error);
  if (image.width == 0) {
    out.scene = InputError{"", error};
    return out;
  }
  vision::PictureRead read;
  try {
    read = vision::read_picture(image, out.key);
  } catch (const std::exception& e) {  // OpenCV's own checks: the picture is an error record, not a crash
    out.scene = InputError{"", path + ": the picture could not be read: " + e.what()};
    return out;
  }
  if (auto invalid = validate(read.scene)) {  // the reader's own defect: said, never a crash
    out.scene = InputError{invalid->pointer, "the scene read from " + path + " is not valid: " + invalid->message};
    return out;
  }
  if (!overlay_dir.empty()) {
    const std::filesystem::path overlay = std::filesystem::path(overlay_dir) / (out.key + ".png");
    std::vector<std::uint8_t> png;
    try {
      png = reading_overlay_png(read.scene, image);
    } catch (const std::exception& e) {  // OpenCV's own checks: an error record, not a crash
      out.scene = InputError{"", "cannot draw the overlay of " + path + ": " + e.what()};
      return out;
    }
    std::ofstream file(overlay, std::ios::binary);
    file.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
    if (!file) {
      out.scene = InputError{"", "cannot write the overlay " + overlay.string()};
      return out;
    }
  }
  out.scene = std::move(read.scene);
  return out;
}

}  // namespace
}  // namespace geotruth::cli

extern "C" void geotruth_reading_overlay(const std::string& path, const geotruth::Scene& read,
                                         std::vector<std::uint8_t>& png) {
  std::string error;
  const geotruth::vision::Image image = geotruth::cli::decode_file(path, {}, error);
  if (image.width == 0) return;
  try {
    png = geotruth::cli::reading_overlay_png(read, image);
  } catch (const std::exception&) {  // OpenCV's own checks: no overlay, the audit goes on
    png.clear();
  }
}

extern "C" void geotruth_picture_reader(std::uint64_t max_image_pixels, const std::string& overlay_dir,
                                        geotruth::PictureFileReader& out) {
  geotruth::vision::DecodeLimits limits;
  limits.max_pixels = max_image_pixels;
  out = [limits, overlay_dir](const std::string& path) { return geotruth::cli::read_file(path, limits, overlay_dir); };
}
