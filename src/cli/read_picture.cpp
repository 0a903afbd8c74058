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

ImportedScene read_file(const std::string& path, const vision::DecodeLimits& limits, const std::string& overlay_dir) {
  ImportedScene out;
  out.key = picture_id(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.scene = InputError{"", "cannot open picture " + path};
    return out;
  }
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::string error;
  const vision::Image image = vision::decode(bytes, error, limits);
  if (image.width == 0) {
    out.scene = InputError{"", path + ": " + error};
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
      png = vision::encode(vision::reading_overlay(read.scene, image), vision::ImageFormat::png);
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
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::string error;
  const geotruth::vision::Image image = geotruth::vision::decode(bytes, error, {});
  if (image.width == 0) return;
  try {
    png = geotruth::vision::encode(geotruth::vision::reading_overlay(read, image), geotruth::vision::ImageFormat::png);
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
