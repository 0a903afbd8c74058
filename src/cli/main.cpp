// geotruth: the command line. Each subcommand lives in its own source under src/cli/.
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/common.hpp"

namespace {

using namespace geotruth::cli;

constexpr const char* kImageHelp =
    "the dataset's pictures (DIR/<id>/img_diagram.png as Geometry3K ships them, or DIR/<id>.png): the error "
    "report draws its marks over them";

void add_figure_options(CLI::App& app, FigureOptions& figure) {
  app.add_option("--mode", figure.mode,
                 "incidences from: declared (through lists), geometric (coordinates), merged (both, "
                 "disagreements listed)")
      ->check(CLI::IsMember({"declared", "geometric", "merged"}))
      ->capture_default_str();
  figure.bands.add_to(app);
}

// A subcommand: its name and one line (all that `geotruth --help` lists), and how to add its
// options and run it. Only the subcommand being run gets its options: building every
// subcommand's took most of a short run's own instructions.
struct Subcommand {
  const char* name;
  const char* description;
  std::function<std::function<int()>(CLI::App&)> configure;  // adds the options; returns the run
};

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> all = {
      {"analyze", "parse and validate scenes; print each normalized, with its incidence structure and conflicts",
       [](CLI::App& app) {
         auto in = std::make_shared<InputOptions>();
         auto figure = std::make_shared<FigureOptions>();
         auto output = std::make_shared<std::string>();
         in->add_to(app);
         add_figure_options(app, *figure);
         app.add_option("-o,--output", *output, "output JSONL file (default: stdout)");
         return [=] { return geotruth::cli::analyze(*in, *figure, *output); };
       }},
      {"count", "Tangram counts: letters, circles, segments and triangles formed by letters",
       [](CLI::App& app) {
         auto command = std::make_shared<CountCommand>();
         auto figure = std::make_shared<FigureOptions>();
         command->in.add_to(app);
         add_figure_options(app, *figure);
         app.add_option("-o,--output", command->output, "output JSONL file (default: stdout)");
         app.add_flag("--any-vertex", command->any_vertex,
                      "triangles (and quadrilaterals) may have unlabelled crossings as vertices");
         app.add_flag("--quadrilaterals", command->quadrilaterals, "also count convex quadrilaterals");
         app.add_flag("--table", command->table, "print a table of the counts on stderr");
         return [=] { return geotruth::cli::count(*command, *figure); };
       }},
      {"import", "convert Geometry3K, PGDP5K, line-list, GePBench or AI2D items to native scenes",
       [](CLI::App& app) {
         auto in = std::make_shared<InputOptions>();
         auto output = std::make_shared<std::string>();
         in->add_to(app, "source files (- for stdin), in the format given by --from");
         app.add_option("-o,--output", *output, "output JSONL file (default: stdout)");
         return [=] {
           if (in->from == "native") {
             std::cerr << "geotruth import: --from must name a source format (geometry3k, pgdp, linelist, gepbench, "
                          "ai2d)\n";
             return int{kUsage};
           }
           return geotruth::cli::import_scenes(*in, *output);
         };
       }},
      {"generate", "generate synthetic scenes with questions and their answers",
       [](CLI::App& app) {
         auto command = std::make_shared<GenerateCommand>();
         app.add_option("--family", command->family, "what to generate: diagram")
             ->check(CLI::IsMember({"diagram", "tangram", "gepbench"}))
             ->capture_default_str();
         app.add_option("-n,--count", command->count, "how many scenes")->capture_default_str();
         app.add_option("--seed", command->seed, "random seed (same seed, same bytes)")->capture_default_str();
         app.add_flag("--grid", command->grid, "diagram: place entities in a 3×3 grid, ask row questions");
         app.add_option("-o,--output", command->output, "output JSONL file (default: stdout)");
         return [=] { return geotruth::cli::generate(*command); };
       }},
      {"audit", "recompute every answer of a dataset; write verdicts, scene findings, a summary and an HTML report",
       [](CLI::App& app) {
         auto command = std::make_shared<AuditCommand>();
         auto bands = std::make_shared<BandOptions>();
         auto vision = std::make_shared<bool>(false);
         command->in.add_to(app, "dataset: native JSONL (each line a scene with its questions), or --from a source");
         bands->add_to(app);
         app.add_option("-o,--output", command->output, "output directory")->required();
         app.add_flag("--resume", command->resume, "continue an interrupted run (even one killed) from its checkpoint");
         app.add_option("--image", command->image_dir, kImageHelp)->check(CLI::ExistingDirectory);
         app.add_option("--shard", command->shard, "take records i, i+n, i+2n, … (0-based i), e.g. 2/8");
         app.add_option("--threads", command->threads, "worker threads (default: all cores)");
         app.add_option("--checkpoint-every", command->checkpoint_every, "records between checkpoints")
             ->capture_default_str();
         app.add_flag("--no-progress", command->no_progress, "no progress bar (it only shows on a terminal anyway)");
         app.add_flag("--vision", *vision,
                      "cross-check pixels inside the audit [not built: run geotruth crosscheck on the same scenes]");
         return [=] {
           if (*vision) {
             std::cerr << "geotruth audit: --vision is not built into audit yet; run geotruth crosscheck on the same "
                          "scenes\n";
             return int{kUsage};
           }
           return geotruth::cli::audit(*command, *bands);
         };
       }},
      {"merge", "join the output directories of sharded audit runs",
       [](CLI::App& app) {
         auto dirs = std::make_shared<std::vector<std::string>>();
         auto output = std::make_shared<std::string>(), images = std::make_shared<std::string>();
         app.add_option("dirs", *dirs, "shard output directories")->required();
         app.add_option("-o,--output", *output, "merged output directory")->required();
         app.add_option("--image", *images, kImageHelp)->check(CLI::ExistingDirectory);
         return [=] { return geotruth::cli::merge(*dirs, *output, *images); };
       }},
      {"filter", "split a dataset into clean and rejected items by their verdicts",
       [](CLI::App& app) {
         auto command = std::make_shared<FilterCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "dataset: native JSONL, or --from a source");
         bands->add_to(app);
         app.add_option("--keep", command->keep, "JSONL of clean items (native lines kept byte for byte)")->required();
         app.add_option("--reject", command->reject, "JSONL of rejected items with their reasons")->required();
         app.add_option("--policy", command->policy, "strict: every question ok; lenient: no question wrong or invalid")
             ->check(CLI::IsMember({"strict", "lenient"}))
             ->capture_default_str();
         return [=] { return geotruth::cli::filter(*command, *bands); };
       }},
      {"score",
       "score model outputs on all items, on the items audited ok, and against the truth where the annotated answer "
       "is wrong",
       [](CLI::App& app) {
         auto command = std::make_shared<ScoreCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "dataset: native JSONL (each line a scene with its questions), or --from a source");
         bands->add_to(app);
         app.add_option("--responses", command->responses,
                        "model outputs, one JSONL file per model ({question_id: \"<scene>/<question>\", response}, "
                        "or the dataset's own ids), or a directory of them (one file per aspect)")
             ->required()
             ->check(CLI::ExistingPath);
         app.add_option("--json", command->json, "write the scores as JSON to this file");
         app.add_option("--html", command->html, "write the scores as an HTML page to this file");
         return [=] { return geotruth::cli::score(*command, *bands); };
       }},
      {"render", "draw each scene to a PNG or JPEG image named after its id",
       [](CLI::App& app) {
         auto command = std::make_shared<RenderCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "scene files: JSONL, a .json scene, or - for stdin; or --from a source");
         app.add_option("-o,--output-dir", command->directory, "directory for the images")->required();
         app.add_option("--records", command->output, "JSONL of {id, image, width, height} (default: stdout)");
         app.add_option("--format", command->format, "png or jpeg")
             ->check(CLI::IsMember({"png", "jpeg"}))
             ->capture_default_str();
         app.add_option("--quality", command->quality, "JPEG quality 0-100")
             ->check(CLI::Range(0, 100))
             ->capture_default_str();
         app.add_option("--threads", command->threads,
                        "worker threads (default: all cores); files and records as with one");
         command->picture.add_to(app);
         app.add_option("--render-size", bands->render_size,
                        "as --size, in the audit's terms (pixels of the frame's longer side)");
         return [=] { return geotruth::cli::render(*command, *bands); };
       }},
      {"crosscheck", "compare each scene with what OpenCV detects in its picture (own rendering, or --image)",
       [](CLI::App& app) {
         auto command = std::make_shared<CrosscheckCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "scene files: JSONL, a .json scene, or - for stdin; or --from a source");
         app.add_option("--image", command->image,
                        "the scenes' own pictures: an image file, or a directory holding <id>.png, <id>.jpg or "
                        "<id>/img_diagram.png (default: render each scene)");
         app.add_option("--overlay", command->overlay_dir,
                        "directory for overlay PNGs: scene in blue, detections in orange, disagreements circled");
         app.add_option("-o,--output", command->output, "output JSONL file (default: stdout)");
         command->picture.add_to(app);
         bands->add_to(app);
         app.footer("Exit: 0 every scene agrees, 1 some records could not be read, 2 usage, 3 some scene disagrees.");
         return [=] { return geotruth::cli::crosscheck(*command, *bands); };
       }},
  };
  return all;
}

// The subcommand named on the command line: the first argument that is not an option (the
// command itself has no option that takes a value).
std::string_view named_subcommand(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-') return argv[i];
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"geotruth: exact ground truth for geometry-perception benchmark items"};
  app.set_version_flag("--version", std::string("geotruth ") + GEOTRUTH_VERSION);
  app.require_subcommand(1);
  const std::string_view named = named_subcommand(argc, argv);
  std::function<int()> run;
  for (const Subcommand& subcommand : subcommands()) {
    CLI::App* sub = app.add_subcommand(subcommand.name, subcommand.description);
    if (named == subcommand.name) run = subcommand.configure(*sub);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kOk : kUsage;
  }

  try {
    if (run) return run();
  } catch (const std::exception& e) {
    std::cerr << "geotruth: " << e.what() << '\n';
    return kUsage;
  }
  return kUsage;
}
