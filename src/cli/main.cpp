// geotruth: the command line. Each subcommand lives in its own source under src/cli/.
#include "cli/common.hpp"

#include <iostream>

namespace {

using namespace geotruth::cli;

// A subcommand that is registered (so --help lists it) but whose capability is not built yet.
struct Planned {
  const char* name;
  const char* description;
};
constexpr Planned kPlanned[] = {
    {"count", "count letters, circles, segments and triangles formed by letters (Tangram)"},
    {"audit", "recompute every answer of a dataset and write verdicts, findings and a report"},
    {"filter", "split a dataset into clean and rejected items by their verdicts"},
    {"render", "draw each scene to a PNG or JPEG image"},
    {"crosscheck", "compare each scene's symbolic truth with what OpenCV detects in its picture"},
    {"import", "convert Geometry3K, PGDP5K, GePBench rules or line lists into native scenes"},
    {"generate", "generate synthetic scenes with questions"},
    {"merge", "join the outputs of sharded audit runs"},
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"geotruth: exact ground truth for geometry-perception benchmark items"};
  app.set_version_flag("--version", std::string("geotruth ") + GEOTRUTH_VERSION);
  app.require_subcommand(1);

  InputOptions analyze_in;
  std::string analyze_out;
  CLI::App* analyze = app.add_subcommand("analyze", "parse and validate scenes; print each in normalized form");
  analyze_in.add_to(*analyze);
  analyze->add_option("-o,--output", analyze_out, "output JSONL file (default: stdout)");

  std::vector<std::string> planned_args;
  for (const auto& planned : kPlanned) {
    CLI::App* sub = app.add_subcommand(planned.name, std::string(planned.description) + " [not available yet]");
    sub->allow_extras();
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kOk : kUsage;
  }

  try {
    if (analyze->parsed()) return geotruth::cli::analyze(analyze_in, analyze_out);
    for (const auto& planned : kPlanned) {
      if (app.got_subcommand(planned.name)) {
        std::cerr << "geotruth " << planned.name << ": not available in this build yet (" << planned.description
                  << ")\n";
        return kUsage;
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "geotruth: " << e.what() << '\n';
    return kUsage;
  }
  return kUsage;
}
