#include "batch/batch.hpp"

#include <cerrno>
#include <cstring>
#include <ostream>

namespace geotruth {

namespace {
constexpr std::size_t kChunk = 1 << 20;

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool is_blank(const std::string& s) {
  return s.find_first_not_of(" \t\r\n") == std::string::npos;
}
}  // namespace

RecordReader::RecordReader(std::string path, std::size_t max_bytes)
    : path_(std::move(path)), max_bytes_(max_bytes), buffer_(kChunk) {
  if (path_ == "-") {
    file_ = stdin;
  } else {
    file_ = std::fopen(path_.c_str(), "rb");
    owns_ = true;
    if (!file_) open_error_ = std::strerror(errno);
    whole_file_ = ends_with(path_, ".json");
  }
}

RecordReader::~RecordReader() {
  if (owns_ && file_) std::fclose(file_);
}

bool RecordReader::fill() {
  if (done_) return false;
  const std::size_t n = std::fread(buffer_.data(), 1, buffer_.size(), file_);
  begin_ = 0;
  end_ = n;
  if (n == 0) done_ = true;
  return n > 0;
}

bool RecordReader::next(RawRecord& record) {
  for (;;) {
    record = RawRecord{path_, 0, {}, 0, {}, {}};
    bool saw_any = false;
    for (;;) {
      if (begin_ == end_ && !fill()) break;
      saw_any = true;
      const char* start = buffer_.data() + begin_;
      const std::size_t avail = end_ - begin_;
      const void* nl = whole_file_ ? nullptr : std::memchr(start, '\n', avail);
      const std::size_t take = nl ? static_cast<const char*>(nl) - start : avail;
      if (record.dropped_bytes == 0 && record.text.size() + take <= max_bytes_) {
        record.text.append(start, take);
      } else {
        // Over the limit: count, don't store.
        record.dropped_bytes += record.text.size() + take;
        record.text.clear();
        record.text.shrink_to_fit();
      }
      begin_ += take;
      if (nl) {
        ++begin_;
        break;
      }
    }
    if (!saw_any) return false;
    record.line = whole_file_ ? 1 : ++line_;
    if (record.dropped_bytes == 0 && is_blank(record.text)) {
      if (whole_file_) return true;  // an empty .json file is still one (bad) record
      continue;
    }
    return true;
  }
}

ordered_json error_record(const RawRecord& record, const InputError& error) {
  ordered_json out;
  out["line"] = record.line;
  out["file"] = record.file;
  if (!record.key.empty()) out["key"] = record.key;
  out["error"] = {{"pointer", error.pointer}, {"message", error.message}};
  return out;
}

namespace {

// Reads a whole input (a file or stdin) for an importer.
std::optional<std::string> slurp(const std::string& path, std::string& error) {
  RecordReader reader(path, std::size_t{1} << 30);
  if (!reader.ok()) {
    error = reader.open_error();
    return std::nullopt;
  }
  std::string text;
  RawRecord record;
  while (reader.next(record)) {
    if (record.dropped_bytes) {
      error = "input larger than 1 GiB";
      return std::nullopt;
    }
    text += record.text;
    text += '\n';
  }
  return text;
}

}  // namespace

BatchStats run_batch(const std::vector<std::string>& inputs, SourceFormat format, const Limits& limits,
                     const SceneHandler& handler, std::ostream& out, std::ostream& diagnostics) {
  BatchStats stats;
  constexpr std::size_t kShownErrors = 20;
  auto report = [&](const RawRecord& record, const InputError& error) {
    ++stats.errors;
    out << to_line(error_record(record, error)) << '\n';
    if (stats.errors <= kShownErrors)
      diagnostics << record.file << ':' << record.line << (record.key.empty() ? "" : " (" + record.key + ")") << ": "
                  << (error.pointer.empty() ? "/" : error.pointer) << ": " << error.message << '\n';
  };
  auto handle = [&](const Scene& scene, const RawRecord& record) {
    try {
      out << to_line(handler(scene, record)) << '\n';
    } catch (const InputError& error) {
      report(record, error);
    }
  };
  for (const auto& path : inputs) {
    if (format != SourceFormat::native) {
      std::string error;
      const auto text = slurp(path, error);
      if (!text) {
        ++stats.records;
        report(RawRecord{path, 0, {}, 0, {}, {}}, {"", "cannot read input: " + error});
        continue;
      }
      std::size_t ordinal = 0;
      for (auto& imported : import_source(format, *text, path)) {
        ++stats.records;
        RawRecord record{path, ++ordinal, {}, 0, imported.key, std::move(imported.notes)};
        if (auto* error = std::get_if<InputError>(&imported.scene))
          report(record, *error);
        else
          handle(std::get<Scene>(imported.scene), record);
      }
      continue;
    }
    RecordReader reader(path, limits.max_line_bytes);
    if (!reader.ok()) {
      ++stats.records;
      report(RawRecord{path, 0, {}, 0, {}, {}}, {"", "cannot open input: " + reader.open_error()});
      continue;
    }
    RawRecord record;
    while (reader.next(record)) {
      ++stats.records;
      if (record.dropped_bytes > 0) {
        report(record, {"", "record of " + std::to_string(record.dropped_bytes) + " bytes exceeds the limit of " +
                                std::to_string(limits.max_line_bytes) + " bytes (raise --max-line-bytes)"});
        continue;
      }
      auto parsed = read_scene(record.text, limits);
      if (auto* error = std::get_if<InputError>(&parsed))
        report(record, *error);
      else
        handle(std::get<Scene>(parsed), record);
    }
  }
  if (stats.errors > kShownErrors)
    diagnostics << "... and " << stats.errors - kShownErrors << " more errors (see the error records)\n";
  out.flush();
  return stats;
}

}  // namespace geotruth
