// Reading an audit directory's JSONL files back, line by line.
#pragma once

#include <oneapi/tbb/parallel_for.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/exact_json.hpp"

namespace geotruth {

/// Calls fn(line) for each non-empty line of `path` (none when the file is missing).
template <typename Fn>
void each_line(const std::filesystem::path& path, Fn&& fn) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) fn(line);
}

/// The records of `path` one at a time, parsed (none when the file is missing). Lines are read a
/// block at a time and the block is parsed on every core the run allows: rereading an audit's
/// outputs is most of its serial work. Memory holds one block.
class JsonlCursor {
 public:
  /// `wanted`: the lines to parse (the others are skipped unread); all when empty.
  explicit JsonlCursor(const std::filesystem::path& path, std::function<bool(std::string_view)> wanted = {})
      : in_(path), wanted_(std::move(wanted)) {
    refill();
  }
  const ordered_json* current() const { return next_ < block_.size() ? &block_[next_] : nullptr; }
  void advance() {
    if (++next_ >= block_.size()) refill();
  }

 private:
  static constexpr std::size_t kBlock = 512;
  void refill() {
    lines_.clear();
    for (std::string line; lines_.size() < kBlock && std::getline(in_, line);)
      if (!line.empty() && (!wanted_ || wanted_(line))) lines_.push_back(std::move(line));
    block_.assign(lines_.size(), ordered_json());
    tbb::parallel_for(std::size_t(0), lines_.size(),
                      [&](std::size_t i) { block_[i] = ordered_json::parse(lines_[i]); });
    next_ = 0;
  }
  std::ifstream in_;
  std::function<bool(std::string_view)> wanted_;
  std::vector<std::string> lines_;
  std::vector<ordered_json> block_;
  std::size_t next_ = 0;
};

/// Calls fn(record) for each non-empty line of `path` (that `wanted` keeps, when given), parsed, in
/// file order.
template <typename Fn>
void each_record(const std::filesystem::path& path, Fn&& fn, std::function<bool(std::string_view)> wanted = {}) {
  for (JsonlCursor records(path, std::move(wanted)); records.current(); records.advance()) fn(*records.current());
}

}  // namespace geotruth
