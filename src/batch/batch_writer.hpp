// The writer of a batch's output, shared by the serial and the parallel batch runners.
#pragma once

#include <ostream>

#include "batch/batch.hpp"

namespace geotruth {

// One record's way through a batch: read, worked on (anywhere), finished and written (in order).
class BatchWriter {
 public:
  BatchWriter(const Limits& limits, std::ostream& out, std::ostream& diagnostics)
      : limits_(limits), out_(out), diagnostics_(diagnostics) {}

  // Writes the error record of `record`; false (an error) for the caller's count.
  bool error(const RawRecord& record, const InputError& error) {
    ++stats_.errors;
    out_ << to_line(error_record(record, error)) << '\n';
    if (stats_.errors <= kShownErrors)
      diagnostics_ << printable(record.file) << ':' << record.line
                   << (record.key.empty() ? "" : " (" + printable(record.key) + ")") << ": "
                   << printable(error.pointer.empty() ? "/" : error.pointer) << ": " << printable(error.message)
                   << '\n';
    return false;
  }

  // Writes the record `step` gives, or its error; whether it was the record (not an error).
  bool write(const RawRecord& record, const RecordStep& step) {
    try {
      std::string line;
      {
        const WorkBudget budget(limits_.work);
        line = to_line(step());
      }
      if (line.size() > limits_.work.max_output_bytes)
        throw InputError{"", "work limit: the output record would be " + std::to_string(line.size()) +
                                 " bytes, more than " + std::to_string(limits_.work.max_output_bytes) +
                                 " (--max-output-bytes)"};
      out_ << line << '\n';
      return true;
    } catch (const InputError& e) {
      return error(record, e);
    }
  }

  BatchStats finish(std::size_t records, std::size_t ordinals) {
    stats_.records = records;
    stats_.ordinals = ordinals;
    if (stats_.errors > kShownErrors)
      diagnostics_ << "... and " << stats_.errors - kShownErrors << " more errors (see the error records)\n";
    out_.flush();
    return stats_;
  }

 private:
  static constexpr std::size_t kShownErrors = 20;
  const Limits& limits_;
  std::ostream &out_, &diagnostics_;
  BatchStats stats_;
};

}  // namespace geotruth
