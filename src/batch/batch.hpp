// Streaming JSONL batches: one output record per input record, bad records become error records.
#pragma once

#include <cstdio>
#include <functional>
#include <geotruth/import.hpp>
#include <geotruth/input.hpp>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/exact_json.hpp"

namespace geotruth {

/// One record as read from an input: the file, its 1-based line, and the text.
struct RawRecord {
  std::string file;
  std::size_t line = 0;  ///< JSONL line; for imported sources, the scene's ordinal in the file
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
  const std::string& open_error() const { return open_error_; }
  bool next(RawRecord& record);

 private:
  bool fill();
  std::string path_;
  std::size_t max_bytes_;
  std::FILE* file_ = nullptr;
  bool owns_ = false, whole_file_ = false, done_ = false;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0, line_ = 0;
  std::string open_error_;
};

/// The error record of DESIGN.md: {"line", "file", "error": {"pointer", "message"}}.
ordered_json error_record(const RawRecord& record, const InputError& error);

struct BatchStats {
  std::size_t records = 0, errors = 0;
};

/// Turns a scene into its output record, or throws InputError for a per-record problem.
using SceneHandler = std::function<ordered_json(const Scene& scene, const RawRecord& record)>;

/// Runs `handler` over every record of `inputs` (native JSONL, or whole files of another source
/// format), writing one JSON line per record to `out` and a "file:line: pointer: message" line
/// per error to `diagnostics` (first 20).
BatchStats run_batch(const std::vector<std::string>& inputs, SourceFormat format, const Limits& limits,
                     const SceneHandler& handler, std::ostream& out, std::ostream& diagnostics);

/// Native JSONL inputs.
inline BatchStats run_batch(const std::vector<std::string>& inputs, const Limits& limits, const SceneHandler& handler,
                            std::ostream& out, std::ostream& diagnostics) {
  return run_batch(inputs, SourceFormat::native, limits, handler, out, diagnostics);
}

}  // namespace geotruth
