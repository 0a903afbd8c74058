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

/// Calls fn(record) for each non-empty line of `path`, parsed.
template <typename Fn>
void each_record(const std::filesystem::path& path, Fn&& fn) {
  each_line(path, [&](const std::string& line) { fn(ordered_json::parse(line)); });
}

}  // namespace geotruth
