// Resumable run outputs and merge (src/batch/run_output.hpp, src/batch/merge.hpp): shards written
// through RunOutput and joined by merge_runs, against outputs worked out by hand.
#include "batch/run_output.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "batch/merge.hpp"

using namespace geotruth;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class RunOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("geotruth_run_output_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    input_ = (dir_ / "input.jsonl").string();
    std::ofstream(input_) << "1\n2\n3\n4\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A render-like run: a home directory of pictures with records.jsonl naming them.
  RunSpec picture_run(const fs::path& home, Shard shard, bool resume = false) const {
    RunSpec spec;
    spec.subcommand = "render";
    spec.home = home;
    spec.home_is_directory = true;
    spec.streams.push_back({home / "records.jsonl", StreamOrder::position, "records"});
    spec.pictures.push_back({home, 0, "image", ""});
    spec.inputs = {input_};
    spec.options = {{"format", "png"}};
    spec.shard = shard;
    spec.resume = resume;
    return spec;
  }

  fs::path dir_;
  std::string input_;
};

// One record's line as render writes it, its picture named by `name` in `home`.
std::string picture_record(std::size_t line, const std::string& id, const fs::path& home, const std::string& name) {
  return to_line({{"line", line}, {"id", id}, {"image", (home / name).string()}});
}

}  // namespace

// Four records: "a" (line 1), "a" again (line 2), an id that is the second one's name, "a-line2"
// (line 3), and no id (line 4). One run names them a, a-line2, a-line2-line3 and line4. Split in
// two shards, each names its own "a" plainly: merge must rename them as the one run did.
TEST_F(RunOutputTest, MergeNamesPicturesAsOneRunDoes) {
  const fs::path s0 = dir_ / "s0", s1 = dir_ / "s1", out = dir_ / "all";
  {
    RunOutput run(picture_run(s0, {0, 2}), std::cerr);
    std::ofstream(s0 / "a.png") << "picture 1";
    run.stream(0) << picture_record(1, "a", s0, "a.png") << '\n';
    run.written(1, false);
    std::ofstream(s0 / "a-line2.png") << "picture 3";
    run.stream(0) << picture_record(3, "a-line2", s0, "a-line2.png") << '\n';
    run.written(3, false);
    run.finish(4);
  }
  {
    RunOutput run(picture_run(s1, {1, 2}), std::cerr);
    std::ofstream(s1 / "a.png") << "picture 2";
    run.stream(0) << picture_record(2, "a", s1, "a.png") << '\n';
    run.written(2, false);
    std::ofstream(s1 / "line4.png") << "picture 4";
    run.stream(0) << picture_record(4, "", s1, "line4.png") << '\n';
    run.written(4, false);
    run.finish(4);
  }
  const MergeResult merged = merge_runs({s1.string(), s0.string()}, {out.string(), {}}, {});
  EXPECT_EQ(merged.subcommand, "render");
  EXPECT_EQ(merged.shards, 2u);
  EXPECT_EQ(merged.ordinals, 4u);
  EXPECT_EQ(merged.pictures, 4u);
  EXPECT_EQ(slurp(out / "records.jsonl"), picture_record(1, "a", out, "a.png") + "\n" +
                                              picture_record(2, "a", out, "a-line2.png") + "\n" +
                                              picture_record(3, "a-line2", out, "a-line2-line3.png") + "\n" +
                                              picture_record(4, "", out, "line4.png") + "\n");
  EXPECT_EQ(slurp(out / "a.png"), "picture 1");
  EXPECT_EQ(slurp(out / "a-line2.png"), "picture 2");
  EXPECT_EQ(slurp(out / "a-line2-line3.png"), "picture 3");
  EXPECT_EQ(slurp(out / "line4.png"), "picture 4");
  // The shards are left as they were.
  EXPECT_EQ(slurp(s0 / "a-line2.png"), "picture 3");
  // The merged manifest is that of one whole run over the four records.
  const ordered_json manifest = ordered_json::parse(slurp(out / ".run.json"));
  EXPECT_EQ(manifest["shard"], "0/1");
  EXPECT_EQ(manifest["records"]["total"], 4);
  EXPECT_EQ(manifest["records"]["kept"], 4);
  EXPECT_EQ(manifest["streams"][0]["path"], "records.jsonl");
  EXPECT_EQ(manifest["pictures"][0]["dir"], ".");
}

// Streams ordered by record: any number of lines per record, each naming its ordinal.
TEST_F(RunOutputTest, MergeInterleavesRecordStreamsByOrdinal) {
  auto audit_like = [&](const fs::path& home, Shard shard) {
    RunSpec spec;
    spec.subcommand = "audit";
    spec.home = home;
    spec.home_is_directory = true;
    spec.streams.push_back({home / "verdicts.jsonl", StreamOrder::record, ""});
    spec.inputs = {input_};
    spec.shard = shard;
    return spec;
  };
  for (std::size_t i = 0; i < 2; ++i) {
    RunOutput run(audit_like(dir_ / ("s" + std::to_string(i)), {i, 2}), std::cerr);
    for (std::size_t ordinal = i + 1; ordinal <= 4; ordinal += 2) {
      // Record 1 has no question, record 2 three, record 3 one, record 4 two.
      const std::size_t questions[] = {0, 0, 3, 1, 2};
      for (std::size_t q = 0; q < questions[ordinal]; ++q)
        run.stream(0) << to_line({{"record", ordinal}, {"question", q}}) << '\n';
      run.written(ordinal, false);
    }
    run.finish(4);
  }
  merge_runs({(dir_ / "s0").string(), (dir_ / "s1").string()}, {(dir_ / "all").string(), {}}, {});
  std::string expected;
  for (const auto& [record, q] : std::vector<std::pair<int, int>>{{2, 0}, {2, 1}, {2, 2}, {3, 0}, {4, 0}, {4, 1}})
    expected += to_line({{"record", record}, {"question", q}}) + "\n";
  EXPECT_EQ(slurp(dir_ / "all" / "verdicts.jsonl"), expected);
}

// A file home: its part file and checkpoint while it runs, resumed by a second RunOutput after
// the checkpoint, refused with other options.
TEST_F(RunOutputTest, ResumeContinuesAfterTheCheckpointAndRefusesAnotherRun) {
  RunSpec spec;
  spec.subcommand = "count";
  spec.home = dir_ / "counts.jsonl";
  spec.streams.push_back({spec.home, StreamOrder::position, "records"});
  spec.inputs = {input_};
  spec.options = {{"mode", "merged"}};
  spec.checkpoint_every = 2;
  spec.resume = true;
  {
    RunOutput run(spec, std::cerr);
    for (std::size_t ordinal = 1; ordinal <= 3; ++ordinal) {
      run.stream(0) << "record " << ordinal << '\n';
      run.written(ordinal, ordinal == 2);
    }
    // Interrupted here: records 1 and 2 are past the checkpoint, record 3 is not.
    EXPECT_TRUE(fs::exists(dir_ / ".counts.jsonl.checkpoint.json"));
    EXPECT_FALSE(fs::exists(dir_ / "counts.jsonl"));
  }
  RunSpec other = spec;
  other.options = {{"mode", "declared"}};
  EXPECT_THROW(RunOutput(other, std::cerr), std::runtime_error);
  RunOutput run(spec, std::cerr);
  EXPECT_FALSE(run.complete());
  EXPECT_EQ(run.resume_after(), 2u);
  EXPECT_EQ(run.totals().records, 2u);
  EXPECT_EQ(run.totals().errors, 1u);
  for (std::size_t ordinal = 3; ordinal <= 4; ++ordinal) {
    run.stream(0) << "record " << ordinal << '\n';
    run.written(ordinal, false);
  }
  run.finish(4);
  EXPECT_EQ(slurp(dir_ / "counts.jsonl"), "record 1\nrecord 2\nrecord 3\nrecord 4\n");
  EXPECT_FALSE(fs::exists(dir_ / ".counts.jsonl.checkpoint.json"));
  const ordered_json manifest = ordered_json::parse(slurp(dir_ / ".counts.jsonl.run.json"));
  EXPECT_EQ(manifest["records"], ordered_json({{"total", 4}, {"kept", 4}, {"errors", 1}}));
  EXPECT_EQ(manifest["streams"][0]["path"], "counts.jsonl");
}

// A checkpoint every record, but after the first at least an hour apart: an interrupted run resumes
// after the first record; by records alone (0 s), after the last.
TEST_F(RunOutputTest, CheckpointsAfterTheFirstAreSecondsApart) {
  for (const auto& [seconds, resumed_after] : {std::pair{3600.0, 1u}, {0.0, 4u}}) {
    RunSpec spec;
    spec.subcommand = "count";
    spec.home = dir_ / "timed.jsonl";
    spec.streams.push_back({spec.home, StreamOrder::position, "records"});
    spec.inputs = {input_};
    spec.checkpoint_every = 1;
    spec.checkpoint_seconds = seconds;
    spec.resume = true;
    fs::remove(dir_ / ".timed.jsonl.checkpoint.json");
    {
      RunOutput run(spec, std::cerr);
      for (std::size_t ordinal = 1; ordinal <= 4; ++ordinal) {
        run.stream(0) << "record " << ordinal << '\n';
        run.written(ordinal, false);
      }
    }  // interrupted
    RunOutput run(spec, std::cerr);
    EXPECT_EQ(run.resume_after(), resumed_after) << seconds << " s";
  }
}

// Pictures no record names (generate's, named by their item): merge gathers each shard's as they
// are, and refuses a name two shards used.
TEST_F(RunOutputTest, MergeGathersPicturesNamedByTheirItem) {
  auto run_of = [&](std::size_t i, const std::string& picture) {
    RunSpec spec;
    spec.subcommand = "generate";
    spec.home = dir_ / ("items" + std::to_string(i) + ".jsonl");
    spec.streams.push_back({spec.home, StreamOrder::position, "records"});
    spec.pictures.push_back({dir_ / ("pictures" + std::to_string(i)), 0, "", "render"});
    spec.inputs = {input_};
    spec.shard = {i, 2};
    RunOutput run(spec, std::cerr);
    for (std::size_t ordinal = i + 1; ordinal <= 3; ordinal += 2) {
      std::ofstream(dir_ / ("pictures" + std::to_string(i)) / (picture + std::to_string(ordinal) + ".png"))
          << "item " << ordinal;
      run.stream(0) << "item " << ordinal << '\n';
      run.written(ordinal, false);
    }
    run.finish(3);
  };
  run_of(0, "item-");
  run_of(1, "item-");
  const MergeResult merged = merge_runs({(dir_ / "items0.jsonl").string(), (dir_ / "items1.jsonl").string()},
                                        {(dir_ / "items.jsonl").string(), {{"render", (dir_ / "all").string()}}}, {});
  EXPECT_EQ(merged.pictures, 3u);
  EXPECT_EQ(slurp(dir_ / "items.jsonl"), "item 1\nitem 2\nitem 3\n");
  for (const int ordinal : {1, 2, 3})
    EXPECT_EQ(slurp(dir_ / "all" / ("item-" + std::to_string(ordinal) + ".png")), "item " + std::to_string(ordinal));
  EXPECT_THROW(merge_runs({(dir_ / "items0.jsonl").string(), (dir_ / "items1.jsonl").string()},
                          {(dir_ / "again.jsonl").string(), {}}, {}),
               std::runtime_error);  // the shards' pictures need --render
  std::ofstream(dir_ / "pictures1" / "item-1.png") << "again";
  EXPECT_THROW(merge_runs({(dir_ / "items0.jsonl").string(), (dir_ / "items1.jsonl").string()},
                          {(dir_ / "twice.jsonl").string(), {{"render", (dir_ / "twice").string()}}}, {}),
               std::runtime_error);                // item-1.png in both shards
  EXPECT_FALSE(fs::exists(dir_ / "twice.jsonl"));  // refused before anything is written
}
