// Reading an audit directory's JSONL files back, line by line.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "core/exact_json.hpp"

namespace geotruth {

/// Calls fn(line) for each non-empty line of `path` (none when the file is missing).
template <typename Fn>
void each_line(const std::filesystem::path& path, Fn&& fn) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) fn(line);
}

/// The records of `path` one at a time, parsed (none when the file is missing).
class JsonlCursor {
 public:
  explicit JsonlCursor(const std::filesystem::path& path) : in_(path) { advance(); }
  const ordered_json* current() const { return done_ ? nullptr : &record_; }
  void advance() {
    for (std::string line; std::getline(in_, line);)
      if (!line.empty()) {
        record_ = ordered_json::parse(line);
        return;
      }
    done_ = true;
  }

 private:
  std::ifstream in_;
  ordered_json record_;
  bool done_ = false;
};

/// Calls fn(record) for each non-empty line of `path`, parsed.
template <typename Fn>
void each_record(const std::filesystem::path& path, Fn&& fn) {
  each_line(path, [&](const std::string& line) { fn(ordered_json::parse(line)); });
}

}  // namespace geotruth
