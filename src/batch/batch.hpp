// Streaming JSONL batches: one output record per input record, bad records become error records.
#pragma once

#include <cstdio>
#include <filesystem>
#include <functional>
#include <geotruth/import.hpp>
#include <geotruth/input.hpp>
#include <geotruth/work_limit.hpp>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "batch/shard.hpp"
#include "core/exact_json.hpp"

namespace geotruth {

/// One record as read from an input: the file, its 1-based line, and the text.
struct RawRecord {
  std::string file;
  std::size_t line = 0;  ///< JSONL line; imported: the line its importer names, else the scene's ordinal
  std::string text;
  std::size_t dropped_bytes = 0;  ///< bytes of an over-long line that were skipped, not stored
  std::string key;                ///< an imported scene's own name in its source, else ""
  std::vector<ImportNote> notes;  ///< what the importer noticed
};

/// Reads records from a file: one per non-blank line (JSONL), or the whole file as one record
/// when its name ends in ".json". Lines longer than the limit are skipped without storing them.
class RecordReader {
 public:
  RecordReader(std::string path, std::size_t max_bytes);  ///< "-" reads standard input
  ~RecordReader();
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;

  bool ok() const { return file_ != nullptr; }
  std::size_t consumed() const { return consumed_; }  ///< bytes handed out so far
  const std::string& open_error() const { return open_error_; }
  bool next(RawRecord& record);

 private:
  bool fill();
  std::string path_;
  std::size_t max_bytes_;
  std::FILE* file_ = nullptr;
  bool owns_ = false, whole_file_ = false, done_ = false;
  std::unique_ptr<char[]> buffer_;  // not zeroed: a small input touches only the pages it fills
  std::size_t begin_ = 0, end_ = 0, line_ = 0, consumed_ = 0;
  std::string open_error_;
};

/// One input record, numbered across all inputs (1-based `ordinal`), with its scene already built
/// for imported sources.
struct StreamItem {
  std::size_t ordinal = 0;
  RawRecord raw;
  std::optional<SceneOrError> imported;
  std::string picture;  ///< a picture file, read into its scene by scene_of (on the thread that needs it)
};

/// Reads one picture file into a scene (import --from picture, docs/reader.md); a picture that
/// cannot be read is an ImportedScene carrying the error. geotruth-parallel sets it (the reader
/// lives in its vision module); unset, a picture record is an error record saying so.
using PictureFileReader = std::function<ImportedScene(const std::string& path)>;
void set_picture_reader(PictureFileReader reader);
/// Reads `path` with the reader set (or gives the error of a process without one) within a budget
/// of its own, `work` (the reader charges it: charge_time): a reading past it is the picture's
/// error record naming the limit.
ImportedScene read_picture_file(const std::string& path, const WorkLimits& work);

/// The picture files an input stands for: a folder's .png, .jpg and .jpeg files (in its sub-folders
/// too, in path order), any other path itself.
std::vector<std::string> picture_inputs(const std::string& path);
/// A picture's scene id: its file's stem, or for Geometry3K's <id>/img_diagram.png its folder's name.
std::string picture_id(const std::string& path);

/// Every record of the inputs in order: native JSONL line by line (streaming), Geometry3K's
/// annotation file a problem at a time (stream_source), other formats a whole file at a time
/// through their importer. Over-long lines and unreadable files become
/// records whose scene() is an InputError, so nothing is lost.
class RecordStream {
 public:
  /// AI2D inputs may be directories (each of their annotation files is one input); a categories
  /// file that cannot be read throws std::invalid_argument.
  RecordStream(std::vector<std::string> inputs, const ImportSource& source, const Limits& limits);
  ~RecordStream();
  bool next(StreamItem& item);
  /// Bytes of native input consumed so far, and in all (0 when unknown, e.g. stdin).
  std::size_t bytes_read() const;
  std::size_t bytes_total() const { return bytes_total_; }
  /// Records handed out so far (all of them once next() returned false).
  std::size_t ordinals() const { return ordinal_; }

 private:
  bool open_next_input();
  void open_ai2d(const std::string& path);
  ImportedScene* next_imported();  ///< the next scene of the open imported input, or null
  std::vector<std::string> inputs_;
  SourceFormat format_;
  Ai2dCategories categories_;
  Limits limits_;
  std::size_t input_ = 0, ordinal_ = 0, bytes_total_ = 0, bytes_done_ = 0;
  std::unique_ptr<RecordReader> reader_;
  std::unique_ptr<SourceStream> source_;  ///< a streamed import, else:
  ImportedScene streamed_;
  std::vector<ImportedScene> imported_;  ///< a whole file's scenes
  std::string imported_file_;
  std::size_t imported_next_ = 0;
  std::optional<StreamItem> pending_;  ///< an error record of an input, or a picture to read
};

/// The scene of a stream item: the imported one, or the native record's text read and validated.
SceneOrError scene_of(const StreamItem& item, const Limits& limits);
/// The same, moving an imported scene out of `item` instead of copying it.
SceneOrError take_scene(StreamItem& item, const Limits& limits);

/// The error record (docs/format.md "Errors"): {"line", "file", "error": {"pointer", "message"}}.
ordered_json error_record(const RawRecord& record, const InputError& error);

struct BatchStats {
  std::size_t records = 0, errors = 0;  ///< records worked on (and written), error records among them
  std::size_t ordinals = 0;             ///< records the inputs held in all
};

/// Which records a batch works on, and what follows each one written: one sharding and one
/// resume for every batch subcommand (batch/run_output.hpp keeps the checkpoints).
struct BatchPlan {
  Shard shard;            ///< --shard: the records at these positions
  std::size_t after = 0;  ///< --resume: records up to this ordinal were written before
  std::function<void(std::size_t ordinal, bool error)> written;  ///< after each record's line
  bool takes(std::size_t ordinal) const { return ordinal > after && shard.keeps(ordinal); }
};

/// Turns a scene into its output record, or throws InputError for a per-record problem.
using SceneHandler = std::function<ordered_json(const Scene& scene, const RawRecord& record)>;

/// Runs `handler` over every record of `inputs` (native JSONL, or whole files of another source
/// format), writing one JSON line per record to `out` and a "file:line: pointer: message" line
/// per error to `diagnostics` (first 20), control characters escaped (see printable).
/// `text` for a one-line diagnostic: control characters (a key with a newline or NUL, say) written
/// as JSON escapes (\n, \u0000), so one diagnostic is always one line.
std::string printable(std::string_view text);

/// A dataset's folder of pictures, listed once. The picture of a scene is, for its id and then its
/// source key: <name>.png, .jpg or .jpeg, or <name>/img_diagram.png (Geometry3K's layout); and for
/// a GePBench scene "gepbench-<i>", the engine's own name <prefix>_<i as 8 digits>.jpg (any prefix:
/// "easy_00000012.jpg").
/// The names a scene's picture may have: the scene's id, its source key, and the picture its
/// importer recorded under extra "image" (a path relative to the dataset's folder).
std::vector<std::string> picture_names(const Scene& scene, const std::string& key);

class PictureFolder {
 public:
  explicit PictureFolder(std::filesystem::path dir);
  std::optional<std::filesystem::path> find(const std::vector<std::string>& names) const;
  /// What find looked for, for an error message.
  std::string looked_for(const std::vector<std::string>& names) const;

 private:
  std::filesystem::path dir_;
  std::map<std::string, std::filesystem::path> by_stem_;
  std::map<std::uint64_t, std::filesystem::path> by_index_;  ///< <prefix>_<digits> names
};

BatchStats run_batch(const std::vector<std::string>& inputs, const ImportSource& source, const Limits& limits,
                     const SceneHandler& handler, std::ostream& out, std::ostream& diagnostics,
                     const BatchPlan& plan = {});

/// The heavy part of a record's work, run on any thread (it must not touch shared state); the step
/// it returns runs in input order on one thread and gives the output record (naming and writing
/// files, counting). Either may throw InputError for a per-record problem.
using RecordStep = std::function<ordered_json()>;
using ParallelSceneHandler = std::function<RecordStep(const Scene& scene, const RawRecord& record)>;

/// As run_batch, with the heavy part on `threads` threads (0: all cores): the output, records and
/// files, is the same as with one thread, in input order.
BatchStats run_batch_parallel(const std::vector<std::string>& inputs, const ImportSource& source, const Limits& limits,
                              int threads, const ParallelSceneHandler& handler, std::ostream& out,
                              std::ostream& diagnostics, const BatchPlan& plan = {});

/// Native JSONL inputs.
inline BatchStats run_batch(const std::vector<std::string>& inputs, const Limits& limits, const SceneHandler& handler,
                            std::ostream& out, std::ostream& diagnostics) {
  return run_batch(inputs, SourceFormat::native, limits, handler, out, diagnostics);
}

}  // namespace geotruth
