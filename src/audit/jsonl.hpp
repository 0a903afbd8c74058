// Reading an audit directory's JSONL files back, line by line.
#pragma once

#include <oneapi/tbb/parallel_for.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/exact_json.hpp"

namespace geotruth {

/// Calls fn(line) for each non-empty line of `path` (none when the file is missing), as a view into
/// a block read a mebibyte at a time: no copy of a line unless it spans two blocks. The report
/// reads the whole verdicts file back at the end of a run, its serial part, where a getline per
/// line cost five times the scan.
template <typename Fn>
void each_line(const std::filesystem::path& path, Fn&& fn) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return;
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  std::vector<char> block(kBlock);
  std::string carried;  // the start of a line the last block cut
  for (;;) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    const std::size_t n = static_cast<std::size_t>(in.gcount());
    if (n == 0) break;
    const char* at = block.data();
    const char* const end = at + n;
    while (at < end) {
      const char* newline = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
      if (!newline) {
        carried.append(at, end);
        break;
      }
      if (!carried.empty()) {
        carried.append(at, newline);
        fn(std::string_view(carried));
        carried.clear();
      } else if (newline > at) {
        fn(std::string_view(at, static_cast<std::size_t>(newline - at)));
      }
      at = newline + 1;
    }
  }
  if (!carried.empty()) fn(std::string_view(carried));
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
