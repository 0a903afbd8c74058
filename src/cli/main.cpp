// geotruth: the command line. Each subcommand lives in its own source under src/cli/.
#include <iostream>

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
  CLI::App* import = app.add_subcommand("import", "convert Geometry3K, PGDP5K, line-list, GePBench or AI2D items to native scenes");
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

  AuditCommand audit_command;
  BandOptions audit_bands;
  CLI::App* audit = app.add_subcommand(
      "audit", "recompute every answer of a dataset; write verdicts, scene findings, a summary and an HTML report");
  audit_command.in.add_to(*audit, "dataset: native JSONL (each line a scene with its questions), or --from a source");
  audit_bands.add_to(*audit);
  audit->add_option("-o,--output", audit_command.output, "output directory")->required();
  audit->add_flag("--resume", audit_command.resume,
                  "continue an interrupted run (even one killed) from its checkpoint");
  audit->add_option("--image", audit_command.image_dir, kImageHelp)->check(CLI::ExistingDirectory);
  audit->add_option("--shard", audit_command.shard, "take records i, i+n, i+2n, … (0-based i), e.g. 2/8");
  audit->add_option("--threads", audit_command.threads, "worker threads (default: all cores)");
  audit->add_option("--checkpoint-every", audit_command.checkpoint_every, "records between checkpoints")
      ->capture_default_str();
  audit->add_flag("--no-progress", audit_command.no_progress, "no progress bar (it only shows on a terminal anyway)");
  bool audit_vision = false;
  audit->add_flag("--vision", audit_vision,
                  "cross-check pixels inside the audit [not built: run geotruth crosscheck on the same scenes]");

  std::vector<std::string> merge_dirs;
  std::string merge_out;
  CLI::App* merge = app.add_subcommand("merge", "join the output directories of sharded audit runs");
  merge->add_option("dirs", merge_dirs, "shard output directories")->required();
  merge->add_option("-o,--output", merge_out, "merged output directory")->required();
  std::string merge_images;
  merge->add_option("--image", merge_images, kImageHelp)->check(CLI::ExistingDirectory);

  FilterCommand filter_command;
  BandOptions filter_bands;
  CLI::App* filter = app.add_subcommand("filter", "split a dataset into clean and rejected items by their verdicts");
  filter_command.in.add_to(*filter, "dataset: native JSONL, or --from a source");
  filter_bands.add_to(*filter);
  filter->add_option("--keep", filter_command.keep, "JSONL of clean items (native lines kept byte for byte)")
      ->required();
  filter->add_option("--reject", filter_command.reject, "JSONL of rejected items with their reasons")->required();
  filter
      ->add_option("--policy", filter_command.policy,
                   "strict: every question ok; lenient: no question wrong or invalid")
      ->check(CLI::IsMember({"strict", "lenient"}))
      ->capture_default_str();

  ScoreCommand score_command;
  BandOptions score_bands;
  CLI::App* score =
      app.add_subcommand("score",
                         "score model outputs on all items, on the items audited ok, and against the truth where the "
                         "annotated answer is wrong");
  score_command.in.add_to(*score, "dataset: native JSONL (each line a scene with its questions), or --from a source");
  score_bands.add_to(*score);
  score
      ->add_option("--responses", score_command.responses,
                   "model outputs, one JSONL file per model ({question_id: \"<scene>/<question>\", response}, "
                   "or the dataset's own ids), or a directory of them (one file per aspect)")
      ->required()
      ->check(CLI::ExistingPath);
  score->add_option("--json", score_command.json, "write the scores as JSON to this file");
  score->add_option("--html", score_command.html, "write the scores as an HTML page to this file");

  RenderCommand render_command;
  BandOptions render_bands;
  CLI::App* render = app.add_subcommand("render", "draw each scene to a PNG or JPEG image named after its id");
  render_command.in.add_to(*render, "scene files: JSONL, a .json scene, or - for stdin; or --from a source");
  render->add_option("-o,--output-dir", render_command.directory, "directory for the images")->required();
  render->add_option("--records", render_command.output, "JSONL of {id, image, width, height} (default: stdout)");
  render->add_option("--format", render_command.format, "png or jpeg")
      ->check(CLI::IsMember({"png", "jpeg"}))
      ->capture_default_str();
  render->add_option("--quality", render_command.quality, "JPEG quality 0-100")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  render->add_option("--threads", render_command.threads,
                     "worker threads (default: all cores); files and records as with one");
  render_command.picture.add_to(*render);
  render->add_option("--render-size", render_bands.render_size,
                     "as --size, in the audit's terms (pixels of the frame's longer side)");

  CrosscheckCommand crosscheck_command;
  BandOptions crosscheck_bands;
  CLI::App* crosscheck = app.add_subcommand(
      "crosscheck", "compare each scene with what OpenCV detects in its picture (own rendering, or --image)");
  crosscheck_command.in.add_to(*crosscheck, "scene files: JSONL, a .json scene, or - for stdin; or --from a source");
  crosscheck->add_option("--image", crosscheck_command.image,
                         "the scenes' own pictures: an image file, or a directory holding <id>.png, <id>.jpg or "
                         "<id>/img_diagram.png (default: render each scene)");
  crosscheck->add_option("--overlay", crosscheck_command.overlay_dir,
                         "directory for overlay PNGs: scene in blue, detections in orange, disagreements circled");
  crosscheck->add_option("-o,--output", crosscheck_command.output, "output JSONL file (default: stdout)");
  crosscheck_command.picture.add_to(*crosscheck);
  crosscheck_bands.add_to(*crosscheck);
  crosscheck->footer("Exit: 0 every scene agrees, 1 some records could not be read, 2 usage, 3 some scene disagrees.");

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
        std::cerr << "geotruth import: --from must name a source format (geometry3k, pgdp, linelist, gepbench, ai2d)\n";
        return kUsage;
      }
      return geotruth::cli::import_scenes(import_in, import_out);
    }
    if (generate->parsed()) return geotruth::cli::generate(generate_command);
    if (audit->parsed()) {
      if (audit_vision) {
        std::cerr
            << "geotruth audit: --vision is not built into audit yet; run geotruth crosscheck on the same scenes\n";
        return kUsage;
      }
      return geotruth::cli::audit(audit_command, audit_bands);
    }
    if (merge->parsed()) return geotruth::cli::merge(merge_dirs, merge_out, merge_images);
    if (filter->parsed()) return geotruth::cli::filter(filter_command, filter_bands);
    if (score->parsed()) return geotruth::cli::score(score_command, score_bands);
    if (render->parsed()) return geotruth::cli::render(render_command, render_bands);
    if (crosscheck->parsed()) return geotruth::cli::crosscheck(crosscheck_command, crosscheck_bands);
  } catch (const std::exception& e) {
    std::cerr << "geotruth: " << e.what() << '\n';
    return kUsage;
  }
  return kUsage;
}
