// geotruth: the command line. It runs the subcommands that read, count and write on one thread and
// executes geotruth-parallel for the others (cli/subcommands.hpp); each subcommand lives in its own
// source under src/cli/.
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

int main(int argc, char** argv) {
  const std::map<std::string_view, Configure> subcommands = {
      {"analyze",
       [](CLI::App& app) {
         auto in = std::make_shared<InputOptions>();
         auto figure = std::make_shared<FigureOptions>();
         auto batch = std::make_shared<BatchOptions>();
         auto output = std::make_shared<std::string>();
         in->add_to(app);
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
         in->add_to(app, "source files (- for stdin), in the format given by --from");
         app.add_option("-o,--output", *output, "output JSONL file (default: stdout)");
         batch->add_to(app);
         return [=] {
           if (in->from == "native") {
             std::cerr << "geotruth import: --from must name a source format (geometry3k, pgdp, linelist, gepbench, "
                          "ai2d)\n";
             return int{kUsage};
           }
           return geotruth::cli::import_scenes(*in, *batch, *output);
         };
       }},
  };
  return run_command_line(argc, argv, Executable::geotruth, subcommands);
}
