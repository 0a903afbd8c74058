// render and crosscheck live in a module loaded only when one of them runs: cairo, OpenCV and the
// libraries OpenCV pulls in (GDAL, every image codec: about 140 shared objects) would otherwise
// be loaded by every subcommand and dominate its start-up.
#include <dlfcn.h>

#include <filesystem>
#include <stdexcept>

#include "cli/common.hpp"

namespace geotruth::cli {
namespace {

// The module's file name, set by the build (CMakeLists.txt: geotruth_vision_module).
constexpr const char* kVisionModule = GEOTRUTH_VISION_MODULE;

const VisionCommands& vision_commands() {
  static const VisionCommands* commands = [] {
    // Next to the executable, where the build puts it.
    const std::filesystem::path module = std::filesystem::read_symlink("/proc/self/exe").parent_path() / kVisionModule;
    void* handle = dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw std::runtime_error("cannot load the vision module: " + std::string(dlerror()));
    const auto* table = static_cast<const VisionCommands*>(dlsym(handle, "geotruth_vision_commands"));
    if (!table) throw std::runtime_error(module.string() + " is not geotruth's vision module: " + dlerror());
    return table;
  }();
  return *commands;
}

}  // namespace

int render(const RenderCommand& command, const BandOptions& bands) {
  return vision_commands().render(command, bands);
}

int crosscheck(CrosscheckCommand command, const BandOptions& bands) {
  return vision_commands().crosscheck(std::move(command), bands);
}

}  // namespace geotruth::cli
