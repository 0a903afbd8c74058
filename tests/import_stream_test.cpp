// Streamed Geometry3K import (stream_source) against the whole-file import (import_source) of the
// same bytes: the same scenes, notes and errors, including every way a file can be broken.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <geotruth/import.hpp>
#include <sstream>

#include <geotruth/input.hpp>
#include "test_paths.hpp"

using namespace geotruth;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(GEOTRUTH_FIXTURES) + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One imported scene as text: key, notes, and the scene or the error.
std::string describe(const ImportedScene& s) {
  std::string out = "key " + s.key + "\n";
  for (const auto& n : s.notes) out += "note " + n.kind + ": " + n.detail + "\n";
  if (const auto* error = std::get_if<InputError>(&s.scene))
    out += "error " + error->pointer + ": " + error->message + "\n";
  else
    out += write_scene(std::get<Scene>(s.scene)) + "\n";
  return out;
}

// The whole-file import gets the file as the batch layer reads it: its bytes and one '\n'.
std::string whole_file(const std::string& path, const std::string& bytes) {
  std::string out;
  for (const auto& s : import_source(SourceFormat::geometry3k, bytes.empty() ? bytes : bytes + "\n", path))
    out += describe(s);
  return out;
}

std::string streamed(const std::string& path) {
  auto stream = stream_source(SourceFormat::geometry3k, path);
  if (!stream) return "not streamed";
  std::string out;
  for (ImportedScene s; stream->next(s);) out += describe(s);
  return out;
}

class StreamedGeometry3k : public ::testing::Test {
 protected:
  std::string write(const std::string& bytes) {
    std::ofstream(path_, std::ios::binary) << bytes;
    return path_;
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::string path_ =
      (std::filesystem::temp_directory_path() / ("g3k-stream-" + std::to_string(::getpid()) + ".json")).string();
};

}  // namespace

TEST_F(StreamedGeometry3k, SameScenesAsTheWholeFile) {
  const std::string bytes = fixture("geometry3k/diagram_logic_forms_sample.json");
  const std::string path = write(bytes);
  const std::string expected = whole_file(path, bytes);
  EXPECT_EQ(streamed(path), expected);
  EXPECT_GT(std::count(expected.begin(), expected.end(), '\n'), 40);
}

TEST_F(StreamedGeometry3k, SameErrorsForBrokenFiles) {
  const std::string good = fixture("geometry3k/diagram_logic_forms_sample.json");
  std::vector<std::string> broken = {
      "",                                                   // empty
      "  \n ",                                              // blank
      "[1, 2]",                                             // not an object
      "{\"1\": {\"point_positions\": {\"A\": [NaN, 1]}}}",  // non-finite number
      "{\"1\": {}, \"1\": {}}",                             // duplicate problem id
      "{\"a/b~c\": 5, \"2\": \"x\", \"3\": [true, null]}",  // problems that are not objects
      "{\"1\": {\"line_instances\": [\"A}B\", \"{[\"]}}",   // brackets inside strings
      "{\"x\\\"y\": {}}",                                   // an escaped quote in an id
      good + "}",                                           // trailing garbage
  };
  for (std::size_t cut : {1ul, 2ul, 100ul, good.size() / 2, good.size() - 1})
    broken.push_back(good.substr(0, cut));  // truncated anywhere
  for (const auto& bytes : broken) {
    const std::string path = write(bytes);
    EXPECT_EQ(streamed(path), whole_file(path, bytes)) << "input: " << bytes.substr(0, 80);
  }
}

TEST_F(StreamedGeometry3k, OneProblemFileIsReadWhole) {
  write("{\"point_positions\": {\"A\": [1, 2]}, \"diagram_logic_form\": []}");
  EXPECT_EQ(streamed(path_), "not streamed");
}
