// geotruth: the command line. Each subcommand lives in its own source under src/cli/.
#include <iostream>

#include "cli/common.hpp"
#include "cli/records.hpp"

namespace {

using namespace geotruth::cli;

// A subcommand that is registered (so --help lists it) but whose capability is not built yet.
struct Planned {
  const char* name;
  const char* description;
};
constexpr Planned kPlanned[] = {
    {"audit", "recompute every answer of a dataset and write verdicts, findings and a report"},
    {"filter", "split a dataset into clean and rejected items by their verdicts"},
    {"render", "draw each scene to a PNG or JPEG image"},
    {"crosscheck", "compare each scene's symbolic truth with what OpenCV detects in its picture"},
    {"merge", "join the outputs of sharded audit runs"},
};

void add_figure_options(CLI::App& app, FigureOptions& figure) {
  app.add_option("--mode", figure.mode,
                 "incidences from: declared (through lists), geometric (coordinates), merged (both, "
                 "disagreements listed)")
      ->check(CLI::IsMember({"declared", "geometric", "merged"}))
      ->capture_default_str();
  app.add_option("--eps-num", figure.thresholds.eps_num_px, "a fact holds at slack ≤ this many pixels")
      ->capture_default_str();
  app.add_option("--eps-vis", figure.thresholds.eps_vis_px, "slack below this many pixels is ambiguous")
      ->capture_default_str();
  app.add_option("--render-size", figure.thresholds.render_size_px,
                 "pixels of the frame's longer side in the rendered image; 0: frame units are pixels "
                 "(frames under 64 units are drawn at 640)")
      ->capture_default_str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"geotruth: exact ground truth for geometry-perception benchmark items"};
  app.set_version_flag("--version", std::string("geotruth ") + GEOTRUTH_VERSION);
  app.require_subcommand(1);

  InputOptions analyze_in;
  FigureOptions analyze_figure;
  std::string analyze_out;
  CLI::App* analyze = app.add_subcommand(
      "analyze", "parse and validate scenes; print each normalized, with its incidence structure and conflicts");
  analyze_in.add_to(*analyze);
  add_figure_options(*analyze, analyze_figure);
  analyze->add_option("-o,--output", analyze_out, "output JSONL file (default: stdout)");

  CountCommand count_command;
  FigureOptions count_figure;
  CLI::App* count =
      app.add_subcommand("count", "Tangram counts: letters, circles, segments and triangles formed by letters");
  count_command.in.add_to(*count);
  add_figure_options(*count, count_figure);
  count->add_option("-o,--output", count_command.output, "output JSONL file (default: stdout)");
  count->add_flag("--any-vertex", count_command.any_vertex,
                  "triangles (and quadrilaterals) may have unlabelled crossings as vertices");
  count->add_flag("--quadrilaterals", count_command.quadrilaterals, "also count convex quadrilaterals");
  count->add_flag("--table", count_command.table, "print a table of the counts on stderr");

  InputOptions import_in;
  std::string import_out;
  CLI::App* import = app.add_subcommand("import", "convert Geometry3K, PGDP5K or line-list figures to native scenes");
  import_in.add_to(*import, "source files (- for stdin), in the format given by --from");
  import->add_option("-o,--output", import_out, "output JSONL file (default: stdout)");

  GenerateCommand generate_command;
  CLI::App* generate = app.add_subcommand("generate", "generate synthetic scenes with questions and their answers");
  generate->add_option("--family", generate_command.family, "what to generate: diagram")
      ->check(CLI::IsMember({"diagram", "tangram", "gepbench"}))
      ->capture_default_str();
  generate->add_option("-n,--count", generate_command.count, "how many scenes")->capture_default_str();
  generate->add_option("--seed", generate_command.seed, "random seed (same seed, same bytes)")->capture_default_str();
  generate->add_flag("--grid", generate_command.grid, "diagram: place entities in a 3×3 grid, ask row questions");
  generate->add_option("-o,--output", generate_command.output, "output JSONL file (default: stdout)");

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
    if (analyze->parsed()) return geotruth::cli::analyze(analyze_in, analyze_figure, analyze_out);
    if (count->parsed()) return geotruth::cli::count(count_command, count_figure);
    if (import->parsed()) {
      if (import_in.from == "native") {
        std::cerr << "geotruth import: --from must name a source format (geometry3k, pgdp, linelist)\n";
        return kUsage;
      }
      return geotruth::cli::import_scenes(import_in, import_out);
    }
    if (generate->parsed()) return geotruth::cli::generate(generate_command);
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
