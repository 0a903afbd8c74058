// geotruth generate: synthetic scenes with questions whose answers come from their construction.
#include <geotruth/generate.hpp>
#include <geotruth/input.hpp>
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
  std::size_t errors = 0;
  for (std::uint64_t i = 0; i < command.count; ++i) {
    const Scene scene = generate_diagram(command.seed, i, diagram_words(), {command.grid});
    // Generated scenes pass the same validation as every other source (a failure is a bug here).
    if (const auto invalid = validate(scene)) {
      ++errors;
      out.stream() << to_line(
                          {{"line", i + 1}, {"error", {{"pointer", invalid->pointer}, {"message", invalid->message}}}})
                   << '\n';
      std::cerr << "generate: scene " << i << ": " << invalid->pointer << ": " << invalid->message << '\n';
      continue;
    }
    out.stream() << write_scene(scene) << '\n';
  }
  if (!out.commit()) return kUsage;
  std::cerr << "generate: " << command.count << " " << command.family << " scenes (seed " << command.seed << ")\n";
  return errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
