// geotruth-parallel: the subcommands that use every core (TBB) or draw and detect (cairo and
// OpenCV, in modules loaded when they run). geotruth executes it for them (cli/subcommands.hpp).
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "cli/subcommands.hpp"

namespace {

using namespace geotruth::cli;

constexpr const char* kImageHelp =
    "the dataset's own pictures (DIR/<id>.png or .jpg, DIR/<id>/img_diagram.png as Geometry3K ships them, the "
    "GePBench engine's DIR/<prefix>_<index:08d>.jpg): every scene is cross-checked against its picture, a question "
    "resting on what the picture lacks, hides or contradicts is ambiguous, and the error report draws its marks over "
    "them";
constexpr const char* kMaxPixelsHelp = "pictures with more pixels are refused before decoding";

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string_view, Configure> subcommands = {
      {"audit",
       [](CLI::App& app) {
         auto command = std::make_shared<AuditCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "dataset: native JSONL (each line a scene with its questions), or --from a source");
         bands->add_to(app);
         app.add_option("-o,--output", command->output, "output directory")->required();
         app.add_option("--image", command->image_dir, kImageHelp)->check(CLI::ExistingDirectory);
         add_truth_from(app, command->truth_from);
         app.add_option("--max-image-pixels", command->max_image_pixels, kMaxPixelsHelp)->capture_default_str();
         command->batch.add_to(app);
         app.add_option("--threads", command->threads, "worker threads (default: all cores)");
         app.add_flag("--no-progress", command->no_progress, "no progress bar (it only shows on a terminal anyway)");
         return [=] { return geotruth::cli::audit(*command, *bands); };
       }},
      {"merge",
       [](CLI::App& app) {
         auto command = std::make_shared<MergeCommand>();
         app.add_option("shards", command->shards,
                        "the shards' outputs (what each shard's -o named: audit and render directories, count, "
                        "analyze, import, crosscheck and generate files, generate --format gepbench directories), in "
                        "any order; a glob such as audit/shard* is enough")
             ->required();
         app.add_option("-o,--output", command->output,
                        "the merged output: a directory or a file, as the shards' (one run's -o)")
             ->required();
         app.add_option("--records", command->records,
                        "render: the merged records file, when the shards had --records outside their directory");
         app.add_option("--overlay", command->overlay, "crosscheck: the folder for the merged overlays");
         app.add_option("--render", command->render, "generate: the folder for the merged pictures");
         app.add_option("--image", command->image_dir, "audit: " + std::string(kImageHelp))
             ->check(CLI::ExistingDirectory);
         app.footer(
             "Each shard's run manifest (.run.json, written when the shard finished) says what it is: merge refuses "
             "shards of different runs, unfinished shards and missing ones.");
         return [=] { return geotruth::cli::merge(*command); };
       }},
      {"filter",
       [](CLI::App& app) {
         auto command = std::make_shared<FilterCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "dataset: native JSONL, or --from a source");
         bands->add_to(app);
         app.add_option("--keep", command->keep,
                        "the clean items: JSONL (native lines kept byte for byte), or with a harness --format the "
                        "folder export writes")
             ->required();
         app.add_option("--reject", command->reject, "JSONL of rejected items with their reasons")->required();
         app.add_option("--policy", command->policy, "strict: every question ok; lenient: no question wrong or invalid")
             ->check(CLI::IsMember({"strict", "lenient"}))
             ->capture_default_str();
         app.add_option("--format", command->format,
                        "the layout of --keep: native JSONL, or a harness's as export writes it (hf, vlmevalkit, "
                        "lmms-eval; needs --image)")
             ->check(CLI::IsMember({"native", "hf", "vlmevalkit", "lmms-eval"}))
             ->capture_default_str();
         app.add_option("--name", command->name, "with a harness --format: the dataset's name (default: --keep's)");
         app.add_option("--image", command->image_dir, kImageHelp)->check(CLI::ExistingDirectory);
         add_truth_from(app, command->truth_from);
         app.add_option("--max-image-pixels", command->max_image_pixels, kMaxPixelsHelp)->capture_default_str();
         return [=] { return geotruth::cli::filter(*command, *bands); };
       }},
      {"export",
       [](CLI::App& app) {
         auto command = std::make_shared<ExportCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "dataset: native JSONL (each line a scene with its questions), or --from a source");
         bands->add_to(app);
         app.add_option("--format", command->format,
                        "hf: a Hugging Face imagefolder (metadata.jsonl, images/); vlmevalkit: VLMEvalKit's "
                        "multiple-choice TSV (<name>.tsv); lmms-eval: a task folder (<name>.yaml, utils.py, data/)")
             ->check(CLI::IsMember({"hf", "vlmevalkit", "lmms-eval"}))
             ->required();
         app.add_option("-o,--output", command->output, "the folder to write")->required();
         app.add_option("--image", command->image_dir,
                        "the dataset's pictures, found and cross-checked as audit --image does (the verdicts are "
                        "audit --image's)")
             ->check(CLI::ExistingDirectory)
             ->required();
         app.add_option("--name", command->name,
                        "the dataset's name: VLMEvalKit's <name>.tsv, lmms-eval's task (default: the folder's name)");
         app.add_option("--records", command->records,
                        "JSONL of {line, id, questions, image}, one per input record (default: stdout)");
         app.add_option("--max-image-pixels", command->max_image_pixels, kMaxPixelsHelp)->capture_default_str();
         app.add_option("--threads", command->threads, "worker threads (default: all cores); output as with one");
         app.footer(
             "One row per question, each with the scene id, the question id, the options, the annotated "
             "answer, geotruth's verdict and truth (docs/export.md). Score a harness's outputs with "
             "geotruth score DATASET --responses FILE.");
         return [=] { return geotruth::cli::export_dataset(*command, *bands); };
       }},
      {"score",
       [](CLI::App& app) {
         auto command = std::make_shared<ScoreCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "dataset: native JSONL (each line a scene with its questions), or --from a source");
         bands->add_to(app);
         app.add_option("--responses", command->responses,
                        "model outputs, one file per model: JSONL ({question_id: \"<scene>/<question>\", response}, "
                        "the dataset's own ids, or lmms-eval's --log_samples rows), VLMEvalKit's predictions (.xlsx, "
                        ".csv, .tsv), or a directory of JSONL files (one per aspect); --from visonlyqa: VisOnlyQA's "
                        "results/model_responses folder (or any folder or file in it)")
             ->required()
             ->check(CLI::ExistingPath);
         app.add_option("--max-unpacked-bytes", command->max_unpacked_bytes,
                        "an .xlsx is a zip archive: refuse one whose parts inflate past this many bytes")
             ->capture_default_str();
         app.add_option("--prompt", command->prompt,
                        "visonlyqa: the prompt whose responses to score (the prompt=<name> folders)")
             ->capture_default_str();
         app.add_option("--json", command->json, "write the scores as JSON to this file");
         app.add_option("--html", command->html, "write the scores as an HTML page to this file");
         return [=] { return geotruth::cli::score(*command, *bands); };
       }},
      {"generate",
       [](CLI::App& app) {
         auto command = std::make_shared<GenerateCommand>();
         auto bands = std::make_shared<BandOptions>();
         app.add_option("--family", command->family,
                        "diagram (answers from the construction), tangram or gepbench (answers certified)")
             ->check(CLI::IsMember({"diagram", "tangram", "gepbench"}))
             ->capture_default_str();
         app.add_option("--level", command->level,
                        "gepbench: easy (2-4 shapes) or hard (5-8); tangram: easy (<= 15 elements in total), medium "
                        "(16-30) or hard (> 30); default easy");
         app.add_option("-n,--count", command->count, "how many items (the run's ordinals 1..n)")
             ->capture_default_str();
         app.add_option("--seed", command->seed, "random seed: item i depends on (seed, i) alone, same bytes anywhere")
             ->capture_default_str();
         command->batch.add_to(app);
         app.add_flag("--grid", command->grid, "diagram: place entities in a 3x3 grid, ask row questions");
         app.add_option("-o,--output", command->output,
                        "native JSONL of the items (default: stdout); with --format gepbench a directory");
         app.add_option("--format", command->format,
                        "native, or gepbench: -o DIR gets scenes.jsonl, the engine's rules.json, vqa.jsonl and "
                        "vqa/<aspect>.jsonl; or a harness's layout as export writes it (hf, vlmevalkit, lmms-eval): -o "
                        "DIR gets it and scenes.jsonl, the pictures drawn into --render (default: a folder removed "
                        "after)")
             ->check(CLI::IsMember({"native", "gepbench", "hf", "vlmevalkit", "lmms-eval"}))
             ->capture_default_str();
         app.add_option("--name", command->name, "with a harness --format: the dataset's name (default: -o's)");
         app.add_option("--render", command->render_dir,
                        "write each item's picture here (<id>.png; with --format gepbench <level>_<image_id>.png as "
                        "the engine names them); a candidate whose picture the cross-check disagrees with is rejected");
         app.add_option("--image-format", command->image_format, "png or jpeg")
             ->check(CLI::IsMember({"png", "jpeg"}))
             ->capture_default_str();
         app.add_option("--quality", command->quality, "JPEG quality 0-100")
             ->check(CLI::Range(0, 100))
             ->capture_default_str();
         command->picture.add_to(app, false);
         app.add_option("--eps-num", bands->eps_num, "certify at this band: a fact holds at slack <= this many pixels")
             ->check(CLI::Range(0.0, 1e4));
         app.add_option("--eps-vis", bands->eps_vis,
                        "certify at this band: no fact or stroke gap may lie between eps-num and this many pixels")
             ->check(CLI::Range(0.0, 1e4));
         app.add_option("--max-attempts", command->max_attempts, "candidates tried per item before it is an error")
             ->capture_default_str();
         app.add_option("--threads", command->threads, "worker threads (default: all cores); output as with one");
         app.footer("Exit: 0 every item made, 1 some item had no certified candidate (an error line in its place).");
         return [=] { return geotruth::cli::generate(*command, *bands); };
       }},
      {"render",
       [](CLI::App& app) {
         auto command = std::make_shared<RenderCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "scene files: JSONL, a .json scene, or - for stdin; or --from a source");
         app.add_option("-o,--output-dir", command->directory, "directory for the images")->required();
         app.add_option("--records", command->output,
                        "JSONL of {line, id, image, width, height} (default: stdout; DIR/records.jsonl for a shard or "
                        "a resumable run)");
         app.add_option("--format", command->format, "png or jpeg")
             ->check(CLI::IsMember({"png", "jpeg"}))
             ->capture_default_str();
         app.add_option("--quality", command->quality, "JPEG quality 0-100")
             ->check(CLI::Range(0, 100))
             ->capture_default_str();
         app.add_option("--threads", command->threads,
                        "worker threads (default: all cores); files and records as with one");
         command->picture.add_to(app);
         command->batch.add_to(app);
         app.add_option("--render-size", bands->render_size,
                        "as --size, in the audit's terms (pixels of the frame's longer side)");
         return [=] { return geotruth::cli::render(*command, *bands); };
       }},
      {"crosscheck",
       [](CLI::App& app) {
         auto command = std::make_shared<CrosscheckCommand>();
         auto bands = std::make_shared<BandOptions>();
         command->in.add_to(app, "scene files: JSONL, a .json scene, or - for stdin; or --from a source");
         app.add_option("--image", command->image,
                        "the scenes' own pictures: an image file, or a directory holding <id>.png, <id>.jpg, "
                        "<id>/img_diagram.png or the GePBench engine's <prefix>_<index:08d>.jpg (default: render "
                        "each scene)");
         app.add_option("--overlay", command->overlay_dir,
                        "directory for overlay PNGs: scene in blue, detections in orange, disagreements circled");
         app.add_option("-o,--output", command->output, "output JSONL file (default: stdout)");
         app.add_option("--threads", command->threads, "worker threads (default: all cores)");
         app.add_option("--wobble", command->wobble_px,
                        "how far the pictures' strokes stray from their place, px (default: measured on each picture)");
         app.add_option("--max-image-pixels", command->max_image_pixels, kMaxPixelsHelp)->capture_default_str();
         app.add_option("--count-check", command->count_check,
                        "also read the picture on its own (letters included) and compare its counts of letters, "
                        "circles, segments and triangles formed by letters with the scene's: auto (scenes that "
                        "letter a point, drawn in their own pixels: not a figure mapped by its dots), on, off")
             ->transform(CLI::CheckedTransformer(
                 std::map<std::string, CountCheckMode>{
                     {"auto", CountCheckMode::automatic}, {"on", CountCheckMode::on}, {"off", CountCheckMode::off}},
                 CLI::ignore_case))
             ->option_text("auto|on|off (default: auto)");
         command->picture.add_to(app);
         bands->add_to(app);
         command->batch.add_to(app);
         app.footer("Exit: 0 every scene agrees, 1 some records could not be read, 2 usage, 3 some scene disagrees.");
         return [=] { return geotruth::cli::crosscheck(*command, *bands); };
       }},
  };
  // analyze, count and import run here when they read pictures (geotruth runs them otherwise).
  subcommands.merge(light_subcommands());
  // Pictures are read by the vision module, loaded on the first picture.
  geotruth::set_picture_reader(lazy_picture_reader());
  return run_command_line(argc, argv, Executable::parallel, subcommands);
}
