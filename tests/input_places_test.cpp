// Where a record is: with several inputs, or a folder given as input, every record (and every error
// record) names its own file and its line within that file — not the first input's name, nor an
// ordinal running on across files. Fixtures: tests/fixtures/places (our own items, in VisOnlyQA's
// format and native JSONL; blank lines so that a file's line and a record's ordinal differ).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <geotruth/import.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "batch/batch.hpp"
#include "test_paths.hpp"

using namespace geotruth;

namespace {

const std::string kPlaces = std::string(GEOTRUTH_FIXTURES) + "/places";

struct Place {
  std::string file;
  std::size_t line = 0;
  std::string id;  ///< the scene's id, or "" for an error record
  std::string error;
};

// Every record of the inputs as the batch layer hands it out.
std::vector<Place> places(const std::vector<std::string>& inputs, const ImportSource& source) {
  std::vector<Place> out;
  RecordStream stream(inputs, source, Limits{});
  StreamItem item;
  while (stream.next(item)) {
    Place p{item.raw.file, item.raw.line, "", ""};
    const SceneOrError scene = scene_of(item, Limits{});
    if (const auto* error = std::get_if<InputError>(&scene))
      p.error = error->message;
    else
      p.id = std::get<Scene>(scene).id;
    out.push_back(p);
  }
  return out;
}

// The error records of `all`.
std::vector<Place> errors(const std::vector<Place>& all) {
  std::vector<Place> out;
  for (const auto& p : all)
    if (!p.error.empty()) out.push_back(p);
  return out;
}

// Where each id is, read here line by line from the files themselves (not through the importer).
std::map<std::string, std::pair<std::string, std::size_t>> ids_by_place(const std::vector<std::string>& files) {
  std::map<std::string, std::pair<std::string, std::size_t>> out;
  for (const auto& file : files) {
    std::ifstream in(file);
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      const auto item = nlohmann::json::parse(line, nullptr, false);
      if (item.is_object() && item.contains("id") && item["id"].is_string())
        out[item["id"].get<std::string>()] = {file, number};
    }
  }
  return out;
}

// Both fixtures' layout: the first file holds two records; the second a record, a blank line, a
// broken record (its line 3) and a record on its line 4 whose id is `last_id`.
void expect_second_file_layout(const std::vector<Place>& all, const std::string& first, const std::string& second,
                               const std::string& last_id) {
  ASSERT_EQ(all.size(), 5u);  // the blank line is no record
  const auto bad = errors(all);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].file, second);
  EXPECT_EQ(bad[0].line, 3u);  // line 2 is blank: its ordinal in the file is 2, its line 3
  EXPECT_EQ(all[0].file, first);
  EXPECT_EQ(all[0].line, 1u);
  EXPECT_EQ(all[1].file, first);
  EXPECT_EQ(all[1].line, 2u);
  EXPECT_EQ(all[2].file, second);
  EXPECT_EQ(all[2].line, 1u);
  EXPECT_EQ(all[4].file, second);
  EXPECT_EQ(all[4].line, 4u);
  EXPECT_EQ(all[4].id, last_id);
}

}  // namespace

TEST(InputPlaces, VisOnlyQAErrorInTheSecondFileNamesThatFileAndItsLine) {
  const std::string first = kPlaces + "/visonlyqa/3d__size_first.jsonl";
  const std::string second = kPlaces + "/visonlyqa/3d__size_second.jsonl";
  expect_second_file_layout(places({first, second}, SourceFormat::visonlyqa), first, second, "places_second_4");
}

TEST(InputPlaces, VisOnlyQAFolderAsInputNamesEachFile) {
  const auto all = places({kPlaces + "/visonlyqa"}, SourceFormat::visonlyqa);
  const auto bad = errors(all);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(std::filesystem::path(bad[0].file), std::filesystem::path(kPlaces) / "visonlyqa/3d__size_second.jsonl");
  EXPECT_EQ(bad[0].line, 3u);
}

TEST(InputPlaces, EveryItemOfASplitFolderIsAtItsOwnFileAndLine) {
  // The fixture split (three folders, eleven files): each item's place read from the files here.
  const std::string split = std::string(GEOTRUTH_FIXTURES) + "/visonlyqa/split";
  const auto all = places({split}, SourceFormat::visonlyqa);
  const auto expected = ids_by_place(visonlyqa_inputs(split));
  ASSERT_EQ(all.size(), expected.size());
  std::set<std::string> files;
  for (const auto& p : all) {
    ASSERT_TRUE(p.error.empty()) << p.file << ":" << p.line << ": " << p.error;
    const auto it = expected.find(p.id);
    ASSERT_NE(it, expected.end()) << p.id;
    EXPECT_EQ(p.file, it->second.first) << p.id;
    EXPECT_EQ(p.line, it->second.second) << p.id;
    files.insert(p.file);
  }
  EXPECT_GT(files.size(), 5u);
}

TEST(InputPlaces, NativeErrorInTheSecondFileNamesThatFileAndItsLine) {
  const std::string first = kPlaces + "/native/first.jsonl";
  const std::string second = kPlaces + "/native/second.jsonl";
  expect_second_file_layout(places({first, second}, SourceFormat::native), first, second, "second-4");
}

TEST(InputPlaces, GePBenchScenesNameTheRulesFileWhateverInputComesFirst) {
  const std::string dir = std::string(GEOTRUTH_FIXTURES) + "/gepbench";
  std::ifstream in(dir + "/rules.json");
  const auto rules = nlohmann::json::parse(in);
  const auto all = places({dir + "/size.jsonl", dir + "/rules.json"}, SourceFormat::gepbench);
  ASSERT_EQ(all.size(), rules.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].file, dir + "/rules.json");
    EXPECT_EQ(all[i].line, i + 1);
  }
}

TEST(InputPlaces, Ai2dLinesKeepTheirLinePastABlankLine) {
  const std::string file = kPlaces + "/ai2d_lines_blank.jsonl";
  const auto all = places({file}, SourceFormat::ai2d);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].line, 1u);
  EXPECT_EQ(all[1].line, 3u);
  EXPECT_FALSE(all[1].error.empty());
}
