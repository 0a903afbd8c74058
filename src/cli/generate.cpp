// geotruth generate: synthetic scenes with questions whose answers come from their construction.
#include <geotruth/generate.hpp>
#include <iostream>

#include "cli/common.hpp"

namespace geotruth::cli {

int generate(const GenerateCommand& command) {
  if (command.family != "diagram") {
    std::cerr << "geotruth generate: family \"" << command.family << "\" is not available in this build yet "
              << "(available: diagram)\n";
    return kUsage;
  }
  Output out(command.output);
  for (std::uint64_t i = 0; i < command.count; ++i)
    out.stream() << write_scene(generate_diagram(command.seed, i, diagram_words(), {command.grid})) << '\n';
  if (!out.commit()) return kUsage;
  std::cerr << "generate: " << command.count << " " << command.family << " scenes (seed " << command.seed << ")\n";
  return kOk;
}

}  // namespace geotruth::cli
