// Reading an audit's JSONL files back (src/audit/jsonl.hpp): each_line reads a mebibyte at a time,
// so lines cut by a block's end must come out whole, the same lines std::getline gives.
#include "audit/jsonl.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace geotruth;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> by_getline(const fs::path& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

std::vector<std::string> by_each_line(const fs::path& path) {
  std::vector<std::string> lines;
  each_line(path, [&](std::string_view line) { lines.emplace_back(line); });
  return lines;
}

fs::path temporary(const std::string& name) {
  return fs::temp_directory_path() / ("geotruth_jsonl_" + std::to_string(::getpid()) + "_" + name);
}

}  // namespace

TEST(JsonlLines, LinesAcrossBlockEndsComeOutWhole) {
  const fs::path path = temporary("blocks.jsonl");
  {
    std::ofstream out(path, std::ios::binary);
    // Lengths that are not divisors of 2^20 (prime steps), blank lines between, 3 MiB in all, a
    // line longer than a whole block, and a last line without its newline.
    std::size_t written = 0;
    for (std::size_t k = 0; written < 3 * (std::size_t{1} << 20); ++k) {
      const std::string line =
          "{\"record\":" + std::to_string(k) + ",\"pad\":\"" + std::string(k * 37 % 1009, 'x') + "\"}";
      out << line << (k % 7 == 0 ? "\n\n" : "\n");
      written += line.size() + 1;
      if (k == 1500) out << std::string((std::size_t{1} << 20) + 17, 'y') << "\n";
    }
    out << "{\"last\":true}";
  }
  const auto expected = by_getline(path);
  ASSERT_GT(expected.size(), 5000u);
  EXPECT_EQ(by_each_line(path), expected);
  fs::remove(path);
}

TEST(JsonlLines, AMissingOrEmptyFileHasNoLines) {
  EXPECT_TRUE(by_each_line(temporary("missing.jsonl")).empty());
  const fs::path path = temporary("empty.jsonl");
  std::ofstream(path) << "\n\n";
  EXPECT_TRUE(by_each_line(path).empty());
  fs::remove(path);
}
