// Options and output handling shared by the subcommands.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <geotruth/audit.hpp>
#include <geotruth/bands.hpp>
#include <geotruth/incidence.hpp>
#include <geotruth/vision.hpp>
#include <memory>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "batch/batch.hpp"
#include "batch/files.hpp"
#include "batch/run_bands.hpp"
#include "batch/run_output.hpp"
#include "batch/shard.hpp"
#include "records/records.hpp"

namespace geotruth {
class HarnessWriter;  // export/harness_export.hpp
}  // namespace geotruth

namespace geotruth::cli {

/// The companion file `name` of the running executable: in its directory (the build tree puts
/// geotruth, geotruth-parallel and the modules side by side), else in <dir>/../lib/geotruth/ (an
/// installed geotruth in <prefix>/bin: the .deb and the wheel put geotruth-parallel and the modules
/// in <prefix>/lib/geotruth), else in <dir>/../../bin/ (geotruth itself, from there). The first
/// that exists; <dir>/name when none does (for the error message).
std::filesystem::path beside_executable(const char* name);

/// Exit codes: every subcommand returns one of these.
/// 3 (crosscheck only): every record was read, and some scene disagrees with its picture.
enum Exit : int { kOk = 0, kRecordErrors = 1, kUsage = 2, kDisagree = 3 };

/// Inputs (files or "-") plus the resource limits, registered on a subcommand.
struct InputOptions {
  std::vector<std::string> inputs;
  Limits limits;
  std::string from = "native";
  std::string categories;  ///< AI2D's categories.json
  int threads = 0;         ///< --from picture: threads reading pictures (0: all cores)
  void add_to(CLI::App& app, const std::string& what = "scene files: JSONL, a .json scene, or - for stdin");
  /// --threads, for the subcommands that read pictures but have no threads of their own.
  void add_threads_to(CLI::App& app);
  ImportSource format() const { return {*source_format_named(from), categories}; }
};

/// run_batch over `in`, except that pictures (--from picture) are read on `in.threads` threads (in
/// geotruth-parallel, which reads them; the handler still runs in input order on one thread).
BatchStats run_records(const InputOptions& in, const SceneHandler& handler, std::ostream& out,
                       std::ostream& diagnostics, const BatchPlan& plan);

/// The decision band options of every subcommand that decides.
struct BandOptions : BandRequest {
  void add_to(CLI::App& app);
};

/// The band in force for a run over `in` (geotruth::resolve_bands).
RunBands resolve_bands(const BandOptions& options, InputOptions& in, std::ostream& log);

/// Where a command's records go: a file written under a temporary name and renamed on commit
/// (a reader never sees half a file), or stdout.
class Output {
 public:
  explicit Output(const std::string& path);  ///< "" or "-" is stdout
  ~Output();
  std::ostream& stream();
  bool commit();  ///< false (with the reason on stderr) if the output could not be written
 private:
  std::string path_;
  std::unique_ptr<AtomicFile> file_;
  std::unique_ptr<DescriptorBuffer> stdout_;
  std::unique_ptr<std::ostream> stream_;
};

/// --shard, --resume and --checkpoint-every: one sharding and one resume for every batch
/// subcommand (docs/scale.md).
struct BatchOptions {
  std::string shard;
  bool resume = false;
  std::size_t checkpoint_every = 500;
  double checkpoint_seconds = 1;
  void add_to(CLI::App& app, bool checkpoint_option = true);
  Shard parsed() const { return shard.empty() ? Shard{} : *parse_shard(shard); }
  /// Whether the run keeps checkpoints and writes a run manifest (a shard or a resumable run).
  bool resumable() const { return resume || !parsed().whole(); }
};

/// The records of a batch subcommand (count, analyze, import, render, crosscheck): stdout or a
/// file as before, or, for a shard or a resumable run, a RunOutput (checkpoints, .part file, run
/// manifest) under the run's home.
struct RecordsTarget {
  std::string subcommand;
  std::string records;   ///< the records file, "" (or "-") for stdout
  std::string home;      ///< the run's home when it is a directory (render), else "" (the records file)
  ordered_json options;  ///< what shapes the output besides the inputs
  std::vector<RunPictures> pictures;
  std::vector<std::string> inputs;  ///< the input files (set from InputOptions; none for generate)
};

class RecordsOutput {
 public:
  /// Throws CLI::ValidationError when a sharded or resumable run has no records file, and
  /// std::runtime_error when its home holds another run.
  RecordsOutput(const RecordsTarget& target, const BatchOptions& batch);
  /// The same for a run over `in`: its inputs, and its format and limits among the options.
  RecordsOutput(const RecordsTarget& target, const InputOptions& in, const BatchOptions& batch);
  ~RecordsOutput();
  /// Resume of a finished run: nothing is to be written.
  bool complete() const { return run_ && run_->complete(); }
  std::ostream& stream();
  BatchPlan plan();
  /// The lines of the records an interrupted run wrote (what a resumed one continues).
  void each_written_line(const std::function<void(const std::string&)>& fn) const;
  /// Commits the records (and publishes a run); false (said on stderr) when they cannot be written.
  bool finish(const BatchStats& stats);
  /// Records and error records of the whole run, also those written before an interruption.
  RunTotals totals(const BatchStats& stats) const;

 private:
  Shard shard_;
  std::unique_ptr<Output> plain_;
  std::unique_ptr<RunOutput> run_;
};

/// Options of the subcommands that build incidences (count, analyze).
struct FigureOptions {
  std::string mode = "merged";
  BandOptions bands;
  IncidenceMode incidence_mode() const { return *incidence_mode_named(mode); }
};

int analyze(InputOptions in, const FigureOptions& figure, const BatchOptions& batch, const std::string& output);

struct CountCommand {
  InputOptions in;
  BatchOptions batch;
  std::string output;
  bool any_vertex = false, quadrilaterals = false, table = false, list = false;
};
int count(CountCommand command, const FigureOptions& figure);

/// `overlay_dir` (--from picture): where each picture's reading is drawn over it (reading_overlay).
int import_scenes(const InputOptions& in, const BatchOptions& batch, const std::string& output,
                  const std::string& overlay_dir = "");

struct AuditCommand {
  InputOptions in;
  BatchOptions batch;
  std::string output, image_dir, truth_from = "description";
  std::uint64_t max_image_pixels = 64ull << 20;
  bool no_progress = false;
  int threads = 0;
};
int audit(AuditCommand command, const BandOptions& bands);

struct MergeCommand {
  std::vector<std::string> shards;
  std::string output, records, overlay, image_dir, render;
};
int merge(const MergeCommand& command);

struct FilterCommand {
  InputOptions in;
  std::string keep, reject, policy = "strict", image_dir, truth_from = "description";
  std::string format = "native", name;  ///< the kept items' layout: native, or a harness's (export)
  std::uint64_t max_image_pixels = 64ull << 20;
};
int filter(FilterCommand command, const BandOptions& bands);

struct ExportCommand {
  InputOptions in;
  std::string format, output, image_dir, name, records;
  std::uint64_t max_image_pixels = 64ull << 20;
  int threads = 0;  ///< 0: all cores
};
int export_dataset(ExportCommand command, const BandOptions& bands);
/// Commits a harness layout (export/harness_export.hpp) and says on stderr what it wrote.
void finish_harness(HarnessWriter& writer, const std::string& subcommand);

struct ScoreCommand {
  InputOptions in;
  std::vector<std::string> responses;
  std::string json, html;
  std::uint64_t max_unpacked_bytes = 1ull << 30;  ///< an .xlsx's parts, inflated (score/xlsx.hpp)
  std::string prompt = "no_reasoning";            ///< VisOnlyQA: whose prompt's responses (prompt=<prompt>/)
};
int score(ScoreCommand command, const BandOptions& bands);

/// The scene each item's truths are computed from when it is read from the dataset's pictures in
/// `image` (a folder, or one file): the picture read (import --from picture) with the item's id and
/// questions (audit and filter --truth-from picture; items without a description under --image),
/// each picture read within `work`.
PictureReader picture_truths(const std::string& image, const WorkLimits& work);
/// The reading of an item's picture under `image` drawn over it (audit --image: flagged items read
/// from their picture).
ReadingOverlay reading_overlays(const std::string& image);

/// --truth-from: "description" (default) or "picture" (needs --image).
void add_truth_from(CLI::App& app, std::string& truth_from);

/// Drawing options shared by render, crosscheck and generate.
struct PictureOptions {
  int size = 0;
  double stroke_width = 2.0;
  std::string color = "0", style = "clean";
  vision::Noise noise;
  std::uint64_t seed = 1;
  bool no_labels = false;
  /// `with_seed`: also --seed (generate seeds the noise with its own --seed).
  void add_to(CLI::App& app, bool with_seed = true);
  vision::RenderOptions options(const Bands& bands) const;
  ordered_json json() const;  ///< every option, for a run's signature
};

struct GenerateCommand {
  BatchOptions batch;
  std::string family = "diagram", level, output, format = "native", render_dir, image_format = "png", name;
  std::uint64_t count = 10, seed = 1;
  std::size_t max_attempts = 5000;
  bool grid = false;
  int threads = 0;  ///< 0: all cores
  int quality = 90;
  PictureOptions picture;
};
int generate(const GenerateCommand& command, const BandOptions& bands);
/// generate --format gepbench's last step, for a whole run or merged shards: DIR/scenes.jsonl,
/// rules.json, vqa.jsonl and vqa/<aspect>.jsonl from the items' records in DIR/.items.jsonl (image
/// ids counted over the items made), and each picture in `render_dir` renamed from its item's id
/// to the engine's <level>_<image id>. `options` are the run's (its manifest's). Throws
/// std::runtime_error when a file is missing or cannot be written.
void write_engine_files(const std::filesystem::path& dir, const ordered_json& options, const std::string& render_dir);

/// A generated item's picture: how to draw, encode and cross-check it.
struct PictureRequest {
  vision::RenderOptions render;
  vision::CrossCheckOptions check;
  vision::ImageFormat format = vision::ImageFormat::png;
  int quality = 90;
};
struct PictureVerdict {
  std::vector<std::uint8_t> bytes;  ///< the encoded image
  int width = 0, height = 0;
  bool agree = false;                ///< the cross-check found nothing
  std::vector<std::string> reasons;  ///< the kinds of what it found
};

struct RenderCommand {
  InputOptions in;
  BatchOptions batch;
  std::string directory, output, format = "png";
  int quality = 90;
  int threads = 0;  ///< 0: all cores
  PictureOptions picture;
};
int render(const RenderCommand& command, const BandOptions& bands);

/// crosscheck --count-check: whether the picture is also read on its own and its Tangram counts
/// compared with the scene's (docs/vision.md, "Counts"); `automatic`: for scenes that letter a point.
enum class CountCheckMode { automatic, on, off };

struct CrosscheckCommand {
  InputOptions in;
  BatchOptions batch;
  std::string image, overlay_dir, output;
  PictureOptions picture;
  int threads = 0;                               ///< 0: all cores
  double wobble_px = -1;                         ///< negative: measured per picture
  std::uint64_t max_image_pixels = 64ull << 20;  ///< pictures larger are refused before decoding
  CountCheckMode count_check = CountCheckMode::automatic;
};
int crosscheck(CrosscheckCommand command, const BandOptions& bands);

/// render and crosscheck above run in modules loaded on first use (cli/vision_loader.cpp):
/// geotruth-render.so (src/cli/render.cpp) exports `geotruth_render`, geotruth-vision.so
/// (src/cli/crosscheck.cpp) exports `geotruth_crosscheck`, with these types.
using RenderFunction = int(const RenderCommand& command, const BandOptions& bands);
/// audit --image and filter --image: each scene cross-checked against its picture in `image` (a
/// folder, or one file), from geotruth-vision.so (`geotruth_picture_check`).
using PictureCheckFunction = void(const std::string& image, const Bands& bands, std::uint64_t max_image_pixels,
                                  PictureCheck& out);
PictureCheck picture_check(const std::string& image, const Bands& bands, std::uint64_t max_image_pixels);
using CrosscheckFunction = int(CrosscheckCommand command, const BandOptions& bands);
/// geotruth-vision.so (src/cli/draw_and_check.cpp) also exports `geotruth_draw_and_check`: draws,
/// encodes and cross-checks one generated item.
using DrawAndCheckFunction = void(const Scene& scene, const PictureRequest& request, PictureVerdict& out);
/// Loads it (generate calls it from every thread: it keeps no state).
DrawAndCheckFunction* draw_and_check();

/// geotruth-vision.so (src/cli/read_picture.cpp) exports `geotruth_picture_reader`: a function that
/// reads one picture file into its scene (import --from picture, docs/reader.md), and with an
/// `overlay_dir` draws its reading over it there, as <id>.png (vision::reading_overlay).
using PictureReaderFunction = void(std::uint64_t max_image_pixels, const std::string& overlay_dir,
                                   PictureFileReader& out);
/// geotruth-vision.so also exports `geotruth_reading_overlay`: the picture file at `path` with the
/// scene read from it drawn over it (vision::reading_overlay), as PNG; empty when it cannot be drawn.
using ReadingOverlayFunction = void(const std::string& path, const Scene& read, std::vector<std::uint8_t>& png);
/// Loads it (from any thread: it keeps no state).
ReadingOverlayFunction* reading_overlay_function();
/// A picture reader that loads the vision module on its first call (from any thread).
PictureFileReader lazy_picture_reader(std::uint64_t max_image_pixels = 64ull << 20,
                                      const std::string& overlay_dir = "");

}  // namespace geotruth::cli
