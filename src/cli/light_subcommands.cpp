// analyze, count and import: the subcommands geotruth runs (and geotruth-parallel, when they read
// pictures), configured here for both executables.
#include <iostream>
#include <memory>
#include <string>

#include "cli/common.hpp"
#include "cli/subcommands.hpp"

namespace {

using namespace geotruth::cli;

void add_figure_options(CLI::App& app, FigureOptions& figure) {
  app.add_option("--mode", figure.mode,
                 "incidences from: declared (through lists), geometric (coordinates), merged (both, "
                 "disagreements listed)")
      ->check(CLI::IsMember({"declared", "geometric", "merged"}))
      ->capture_default_str();
  figure.bands.add_to(app);
}

}  // namespace

namespace geotruth::cli {

std::map<std::string_view, Configure> light_subcommands() {
  return {
      {"analyze",
       [](CLI::App& app) {
         auto in = std::make_shared<InputOptions>();
         auto figure = std::make_shared<FigureOptions>();
         auto batch = std::make_shared<BatchOptions>();
         auto output = std::make_shared<std::string>();
         in->add_to(app);
         in->add_threads_to(app);
         add_figure_options(app, *figure);
         app.add_option("-o,--output", *output, "output JSONL file (default: stdout)");
         batch->add_to(app);
         return [=] { return geotruth::cli::analyze(*in, *figure, *batch, *output); };
       }},
      {"count",
       [](CLI::App& app) {
         auto command = std::make_shared<CountCommand>();
         auto figure = std::make_shared<FigureOptions>();
         command->in.add_to(app);
         command->in.add_threads_to(app);
         add_figure_options(app, *figure);
         app.add_option("-o,--output", command->output, "output JSONL file (default: stdout)");
         app.add_flag("--any-vertex", command->any_vertex,
                      "triangles (and quadrilaterals) may have unlabelled crossings as vertices");
         app.add_flag("--quadrilaterals", command->quadrilaterals, "also count convex quadrilaterals");
         app.add_flag("--list", command->list,
                      "also list the counted figures by their letters: \"figures\": {segments, triangles, "
                      "quadrilaterals}");
         app.add_flag("--table", command->table, "print a table of the counts on stderr");
         command->batch.add_to(app);
         return [=] { return geotruth::cli::count(*command, *figure); };
       }},
      {"import",
       [](CLI::App& app) {
         auto in = std::make_shared<InputOptions>();
         auto batch = std::make_shared<BatchOptions>();
         auto output = std::make_shared<std::string>();
         auto overlay = std::make_shared<std::string>();
         in->add_to(app, "source files (- for stdin), in the format given by --from");
         in->add_threads_to(app);
         app.add_option("-o,--output", *output, "output JSONL file (default: stdout)");
         app.add_option("--overlay", *overlay,
                        "--from picture: directory for each picture's reading drawn over it, <id>.png: lines, circles "
                        "and named points read in blue, unnamed points grey, doubtful findings circled in red");
         batch->add_to(app);
         return [=] {
           if (in->from == "native") {
             std::cerr << "geotruth import: --from must name a source format (geometry3k, pgdp, linelist, gepbench, "
                          "ai2d, visonlyqa, picture)\n";
             return int{kUsage};
           }
           if (!overlay->empty() && in->from != "picture") {
             std::cerr << "geotruth import: --overlay draws the readings of pictures: it needs --from picture\n";
             return int{kUsage};
           }
           return geotruth::cli::import_scenes(*in, *batch, *output, *overlay);
         };
       }},
  };
}

}  // namespace geotruth::cli
