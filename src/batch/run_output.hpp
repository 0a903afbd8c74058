// The output of one batch run, resumable and shardable the same way for every batch subcommand
// (audit, render, crosscheck, count, analyze, import): record streams written in input order
// through .part files and checkpoints, picture folders, and a run manifest that says what wrote
// them, so that `--resume` continues an interrupted run and `merge` joins shards.
//
// Where it lives: a run's *home* is its main output, a directory (audit, render) or a file (count,
// analyze, import, crosscheck). Beside the outputs, hidden:
//   home a directory D:   D/.checkpoint.json   D/.lock   D/.run.json
//   home a file P/F:      P/.F.checkpoint.json P/.F.lock P/.F.run.json
// The checkpoint exists while the run is unfinished; the manifest (.run.json) once it is done.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <geotruth/import.hpp>
#include <geotruth/input.hpp>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "batch/shard.hpp"
#include "core/exact_json.hpp"

namespace geotruth {

/// How merge puts a stream's lines from several shards back in input order.
enum class StreamOrder {
  position,  ///< one line per record: shard i's j-th line is record i + 1 + j·n
  record,    ///< any number of lines per record, each with its ordinal under "record"
};

/// A file written in record order (as PATH.part until the run ends).
struct RunStream {
  std::filesystem::path path;
  StreamOrder order = StreamOrder::position;
  std::string option;  ///< the option that named it ("" when it is the home itself or inside it)
};

/// A folder of pictures, one per record at most, each named in the record's member `field` (the
/// record's last member), after the record's id (picture_stem), unique within the run; merge names
/// them as one run does. With `field` "", the pictures are named by their item alone, unique
/// across shards (no record names them): merge gathers them as they are.
struct RunPictures {
  std::filesystem::path dir;
  std::size_t stream = 0;  ///< the stream whose records name the pictures
  std::string field;       ///< "image", "overlay"; "" for pictures named by their item
  std::string option;      ///< the option that named the folder ("" when it is the home itself or inside it)
};

struct RunSpec {
  std::string subcommand;  ///< "audit", "render", …
  std::filesystem::path home;
  bool home_is_directory = false;
  std::vector<RunStream> streams;
  std::vector<RunPictures> pictures;
  std::vector<std::string> same_files;  ///< files in a home directory, the same in every shard (bands.json)
  std::vector<std::string> inputs;
  ordered_json options;  ///< every option that shapes the output (never the shard, threads or checkpoints)
  Shard shard;
  bool resume = false;
  std::size_t checkpoint_every = 500;
  /// And, after the first, at least this long between checkpoints (0: by records alone): each one
  /// fsyncs the outputs on a thread of its own, which a fast batch on every core would otherwise
  /// wake 50 times a second, taking a core from the workers each time.
  double checkpoint_seconds = 0;
};

/// The input side of a run's options: the source format (and AI2D's categories file) and the limits.
ordered_json input_signature(const ImportSource& source, const Limits& limits);

/// Paths of a home's hidden files: ".checkpoint.json", ".lock", ".run.json".
std::filesystem::path run_file(const std::filesystem::path& home, bool home_is_directory, const std::string& name);
/// The manifest of the run whose home is `home` (directory or file, as it is on disk).
std::filesystem::path manifest_path(const std::filesystem::path& home);

/// Records written so far by a run, counted across its interruptions.
struct RunTotals {
  std::size_t records = 0, errors = 0;
};

class RunOutput {
 public:
  /// Creates the home, takes its lock and, with `resume`, reads the checkpoint (truncating the
  /// .part files to it) or finds the run already complete. Throws std::runtime_error when the
  /// directory holds another run (other inputs, options or shard) or is busy.
  RunOutput(RunSpec spec, std::ostream& log);
  ~RunOutput();
  RunOutput(const RunOutput&) = delete;
  RunOutput& operator=(const RunOutput&) = delete;

  /// The run was finished before (resume of a complete run): nothing is to be written.
  bool complete() const { return complete_; }
  /// Ordinals up to here were written by the interrupted run: the batch starts after it.
  std::size_t resume_after() const { return done_; }
  RunTotals totals() const { return totals_; }
  const RunSpec& spec() const { return spec_; }

  /// Stream k's part file, to append the records' lines to.
  std::ostream& stream(std::size_t k);
  /// The lines stream k holds from the interrupted run (to rebuild state such as the picture
  /// names taken), in order.
  void each_written_line(std::size_t k, const std::function<void(const std::string&)>& fn) const;

  /// After the lines of the record `ordinal` are written: a checkpoint every `checkpoint_every`
  /// records, after the first at least `checkpoint_seconds` apart.
  void written(std::size_t ordinal, bool error);
  /// The last step: the final checkpoint, the part files renamed into place, the manifest written,
  /// the checkpoint removed. `ordinals` is how many records the inputs held in all.
  void finish(std::size_t ordinals);

 private:
  struct Part;
  class Syncer;
  ordered_json signature() const;
  void checkpoint(std::size_t through, bool complete);
  void publish(std::size_t ordinals);
  ordered_json manifest(std::size_t ordinals) const;
  RunSpec spec_;
  std::filesystem::path checkpoint_path_;
  std::unique_ptr<class RunLock> lock_;
  std::vector<std::unique_ptr<Part>> parts_;
  std::unique_ptr<Syncer> syncer_;  // declared after parts_: stopped before they close
  ordered_json signature_;
  std::size_t done_ = 0, last_ = 0, since_checkpoint_ = 0;
  std::optional<std::chrono::steady_clock::time_point> checkpointed_;  // the last intermediate checkpoint
  RunTotals totals_;
  bool complete_ = false;
};

/// The manifest a run over `spec` writes once done (also what merge writes for joined shards).
ordered_json run_manifest(const RunSpec& spec, const ordered_json& signature, std::size_t ordinals,
                          const RunTotals& totals);

}  // namespace geotruth
