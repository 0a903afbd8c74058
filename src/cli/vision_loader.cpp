// render and crosscheck (and generate's pictures) live in modules loaded only when one of them runs: cairo (about
// twenty shared objects) and OpenCV (GDAL, every image codec: about 140) would otherwise be loaded by every subcommand
// and dominate its start-up. render's module has no OpenCV.
#include <dlfcn.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "cli/common.hpp"

namespace geotruth::cli {
namespace {

// `symbol` of the module `name`, which the build puts beside the executable.
template <typename Function>
Function* load(const char* name, const char* symbol) {
  const std::filesystem::path module = beside_executable(name);
  void* handle = dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error("cannot load " + module.string() + ": " + dlerror());
  auto* function = reinterpret_cast<Function*>(dlsym(handle, symbol));
  if (!function) throw std::runtime_error(module.string() + " has no " + symbol + ": " + dlerror());
  return function;
}

}  // namespace

int render(const RenderCommand& command, const BandOptions& bands) {
  return load<RenderFunction>(GEOTRUTH_RENDER_MODULE, "geotruth_render")(command, bands);
}

PictureCheck picture_check(const std::string& image, const Bands& bands, std::uint64_t max_image_pixels) {
  PictureCheck out;
  load<PictureCheckFunction>(GEOTRUTH_VISION_MODULE, "geotruth_picture_check")(image, bands, max_image_pixels, out);
  return out;
}

DrawAndCheckFunction* draw_and_check() {
  return load<DrawAndCheckFunction>(GEOTRUTH_VISION_MODULE, "geotruth_draw_and_check");
}

ReadingOverlayFunction* reading_overlay_function() {
  return load<ReadingOverlayFunction>(GEOTRUTH_VISION_MODULE, "geotruth_reading_overlay");
}

PictureFileReader lazy_picture_reader(std::uint64_t max_image_pixels, const std::string& overlay_dir) {
  struct Loaded {
    std::once_flag once;
    PictureFileReader reader;
    std::string error;
  };
  auto loaded = std::make_shared<Loaded>();
  return [loaded, max_image_pixels, overlay_dir](const std::string& path) -> ImportedScene {
    std::call_once(loaded->once, [&] {
      try {
        load<PictureReaderFunction>(GEOTRUTH_VISION_MODULE, "geotruth_picture_reader")(max_image_pixels, overlay_dir,
                                                                                       loaded->reader);
      } catch (const std::exception& e) {
        loaded->error = e.what();
      }
    });
    if (!loaded->reader) return {picture_id(path), InputError{"", "cannot read pictures: " + loaded->error}, {}, {}};
    return loaded->reader(path);
  };
}

int crosscheck(CrosscheckCommand command, const BandOptions& bands) {
  return load<CrosscheckFunction>(GEOTRUTH_VISION_MODULE, "geotruth_crosscheck")(std::move(command), bands);
}

}  // namespace geotruth::cli
