// JSONL batches: one output record per input record, errors name file, line and pointer.
#include "batch/batch.hpp"
#include "test_paths.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace geotruth;

namespace {

std::vector<ordered_json> lines_of(const std::string& text) {
  std::vector<ordered_json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(ordered_json::parse(line));
  return out;
}

const SceneHandler kEcho = [](const Scene& scene, const RawRecord& record) {
  return ordered_json{{"line", record.line}, {"id", scene.id}};
};

std::string write_temp(const std::string& name, const std::string& content) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

}  // namespace

TEST(Batch, ContinuesPastBadLines) {
  const std::string path = std::string(GEOTRUTH_FIXTURES) + "/two_valid_three_bad.jsonl";
  std::ostringstream out, diagnostics;
  const BatchStats stats = run_batch({path}, {}, kEcho, out, diagnostics);
  EXPECT_EQ(stats.records, 5u);
  EXPECT_EQ(stats.errors, 3u);
  const auto records = lines_of(out.str());
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records[0]["id"], "ok-1");
  EXPECT_EQ(records[1]["line"], 2);
  EXPECT_NE(records[1]["error"]["message"].get<std::string>().find("invalid JSON"), std::string::npos);
  EXPECT_EQ(records[2]["error"]["pointer"], "/lines/0/through/1");
  EXPECT_NE(records[2]["error"]["message"].get<std::string>().find("\"Q\""), std::string::npos);
  EXPECT_EQ(records[3]["id"], "ok-2");
  EXPECT_EQ(records[4]["error"]["pointer"], "/points/0/at/0");
  EXPECT_EQ(records[4]["file"], path);
  EXPECT_NE(diagnostics.str().find(path + ":3: /lines/0/through/1: unknown point label"), std::string::npos)
      << diagnostics.str();
}

TEST(Batch, OverlongLineIsOneErrorAndTheNextLineStillReads) {
  const std::string big = "{\"id\":\"big\",\"extra\":\"" + std::string(5000, 'x') + "\"}";
  const std::string path = write_temp("geotruth_overlong.jsonl", big + "\n{\"id\":\"after\"}\n");
  Limits limits;
  limits.max_line_bytes = 1000;
  std::ostringstream out, diagnostics;
  const BatchStats stats = run_batch({path}, limits, kEcho, out, diagnostics);
  const auto records = lines_of(out.str());
  ASSERT_EQ(records.size(), 2u);
  EXPECT_NE(records[0]["error"]["message"].get<std::string>().find("exceeds the limit of 1000 bytes"),
            std::string::npos);
  EXPECT_EQ(records[1]["id"], "after");
  EXPECT_EQ(records[1]["line"], 2);
  EXPECT_EQ(stats.errors, 1u);
}

TEST(Batch, BlankLinesAreNotRecordsButKeepLineNumbers) {
  const std::string path = write_temp("geotruth_blank.jsonl", "\n{\"id\":\"a\"}\n  \n{\"id\":\"b\"}");
  std::ostringstream out, diagnostics;
  const auto records = lines_of((run_batch({path}, {}, kEcho, out, diagnostics), out.str()));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["line"], 2);
  EXPECT_EQ(records[1]["line"], 4);  // last line without a trailing newline still counts
}

TEST(Batch, BinaryGarbageGivesValidJsonErrorRecords) {
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919) % 256);
  const std::string path = write_temp("geotruth_garbage.jsonl", garbage);
  std::ostringstream out, diagnostics;
  const BatchStats stats = run_batch({path}, {}, kEcho, out, diagnostics);
  EXPECT_GT(stats.records, 0u);
  EXPECT_EQ(stats.errors, stats.records);
  EXPECT_EQ(lines_of(out.str()).size(), stats.records);  // every line parses as JSON
}

TEST(Batch, MissingFileIsAnErrorRecord) {
  std::ostringstream out, diagnostics;
  const BatchStats stats = run_batch({"/nonexistent/scenes.jsonl"}, {}, kEcho, out, diagnostics);
  EXPECT_EQ(stats.errors, 1u);
  EXPECT_NE(out.str().find("cannot open input"), std::string::npos);
}

TEST(Batch, JsonFileIsOneRecordOverManyLines) {
  const std::string path = write_temp("geotruth_pretty.json", "{\n  \"id\": \"pretty\",\n  \"points\": []\n}\n");
  std::ostringstream out, diagnostics;
  const auto records = lines_of((run_batch({path}, {}, kEcho, out, diagnostics), out.str()));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["id"], "pretty");
}
