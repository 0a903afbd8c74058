// Audits: a planted dataset yields exactly the planted verdicts; verdict rules one by one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <geotruth/audit.hpp>
#include <map>
#include <sstream>

#include "audit/run.hpp"
#include "test_paths.hpp"

using namespace geotruth;
namespace fs = std::filesystem;

namespace {

std::vector<ordered_json> read_lines(const fs::path& path) {
  std::vector<ordered_json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(ordered_json::parse(line));
  return out;
}

fs::path audit_planted(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  AuditOptions options;
  options.inputs = {std::string(GEOTRUTH_FIXTURES) + "/audit_planted.jsonl"};
  options.out_dir = dir.string();
  options.threads = 2;
  std::ostringstream log;
  const AuditTotals totals = run_audit(options, log);
  EXPECT_EQ(totals.records, 11u);
  EXPECT_EQ(totals.errors, 1u);
  return dir;
}

}  // namespace

TEST(Audit, PlantedDatasetGivesExactlyThePlantedVerdicts) {
  const fs::path dir = audit_planted("geotruth_audit_planted");
  std::map<std::string, std::pair<std::string, std::string>> got;  // scene → (verdict, first reason)
  for (const auto& v : read_lines(dir / "verdicts.jsonl"))
    got[v["scene"]] = {v["verdict"], v["reasons"].empty() ? "" : v["reasons"][0]["kind"].get<std::string>()};
  const std::map<std::string, std::pair<std::string, std::string>> planted = {
      {"ok-triangle", {"ok", ""}},
      {"wrong-segments", {"wrong", "wrong_answer"}},
      {"ambiguous-left", {"ambiguous", "ambiguous_fact"}},
      {"duplicate-options", {"invalid", "duplicate_options"}},
      {"answer-out-of-range", {"invalid", "answer_out_of_range"}},
      {"several-correct", {"invalid", "several_correct_options"}},
      {"no-correct-option", {"invalid", "no_correct_option"}},
      {"unreadable-circuit", {"invalid", "no_truth"}},
      {"unsupported-reference", {"unsupported", "unsupported"}},
      {"missing-answer", {"invalid", "missing_answer"}},
  };
  EXPECT_EQ(got, planted);
  // One scenes.jsonl record per input line, the broken one as an error record in its place.
  const auto scenes = read_lines(dir / "scenes.jsonl");
  ASSERT_EQ(scenes.size(), 11u);
  EXPECT_EQ(scenes[9]["line"], 10);
  EXPECT_TRUE(scenes[9].contains("error"));
  for (std::size_t i = 0; i < scenes.size(); ++i) EXPECT_EQ(scenes[i]["record"], i + 1);
  const auto summary = ordered_json::parse(std::ifstream(dir / "summary.json"));
  EXPECT_EQ(summary["by_verdict"]["invalid"], 6);
  EXPECT_EQ(summary["errors"], 1);
  // The three identical triangle figures differ only in their questions: not duplicates.
  EXPECT_TRUE(summary["duplicate_scenes"].empty());
  EXPECT_TRUE(fs::exists(dir / "report.html"));
}

TEST(Audit, WrongAnswerNamesBothValues) {
  const fs::path dir = audit_planted("geotruth_audit_wrong");
  for (const auto& v : read_lines(dir / "verdicts.jsonl")) {
    if (v["scene"] == "wrong-segments") {
      EXPECT_EQ(v["reasons"][0]["detail"], "annotated A (2) but the truth is B (3)");
    }
  }
}

TEST(Judge, CloseNumericSizeOptionsAreInvalid) {
  Question q;
  q.id = "w";
  q.ask = "size";
  q.measure = "width";
  q.options = {"0.300", "0.302", "0.4", "0.5"};
  q.answer = "A";
  Truth t;
  t.values = {"0.3"};
  // Unit canvas at 640 px: 0.002 apart is 1.28 px, under the 3 px visual threshold.
  const Bands bands;
  Frame unit;
  unit.width = unit.height = 1;
  const FrameBands at640(bands, unit);
  const QuestionVerdict v = judge(q, t, at640);
  EXPECT_EQ(v.verdict, Verdict::invalid);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0].kind, "close_options");
  EXPECT_NEAR(*v.reasons[0].slack_px, 1.28, 1e-9);
  q.options = {"0.300", "0.31", "0.4", "0.5"};  // 6.4 px apart: fine
  EXPECT_EQ(judge(q, t, at640).verdict, Verdict::ok);
}

TEST(Judge, AnswersWithoutOptionsCompareAsValues) {
  Question q;
  q.id = "n";
  q.ask = "count";
  q.of = "triangles";
  q.answer = "12";
  Truth t;
  t.values = {"12"};
  const Bands bands;
  const FrameBands pixels(bands, Frame{});
  EXPECT_EQ(judge(q, t, pixels).verdict, Verdict::ok);
  q.answer = "12.0";
  EXPECT_EQ(judge(q, t, pixels).verdict, Verdict::ok);
  q.answer = "10";
  EXPECT_EQ(judge(q, t, pixels).verdict, Verdict::wrong);
}

TEST(Audit, AnswerPositionBiasAndDuplicates) {
  // 40 copies of one scene whose answer is always D: p-value ≈ 0, and one duplicate group.
  const fs::path input = fs::temp_directory_path() / "geotruth_bias.jsonl";
  {
    std::ofstream out(input);
    for (int i = 0; i < 40; ++i)
      out << R"({"id":"s)" << i
          << R"(","points":[{"id":"A","at":[0,0]},{"id":"B","at":[9,0]}],"lines":[{"through":["A","B"]}],)"
          << R"("questions":[{"id":"q","ask":"count","of":"letters","options":["1","3","4","2"],"answer":"D"}]})"
          << "\n";
  }
  const fs::path dir = fs::temp_directory_path() / "geotruth_bias";
  fs::remove_all(dir);
  AuditOptions options;
  options.inputs = {input.string()};
  options.out_dir = dir.string();
  std::ostringstream log;
  run_audit(options, log);
  const auto summary = ordered_json::parse(std::ifstream(dir / "summary.json"));
  const auto& bias = summary["answer_position_bias"]["count/letters"];
  EXPECT_EQ(bias["letters"]["D"], 40);
  EXPECT_LT(bias["p_value_uniform"].get<double>(), 1e-6);
  ASSERT_EQ(summary["duplicate_scenes"].size(), 1u);
  EXPECT_EQ(summary["duplicate_scenes"][0].size(), 40u);
}

// "Which label is right of the chair?" with options turkey / desk / lamp / cow: a fifth entity
// that is not offered sits 2 px left of the chair (ambiguous band). It cannot change which option
// is right, so the verdict is ok; offered, the same fact makes the question ambiguous, named.
TEST(Judge, AmbiguousOnlyThroughAFactThatCanChangeTheAnswer) {
  auto scene_with = [](const std::string& options) {
    const std::string text = R"({"id":"room","entities":[
      {"id":"chair","text":"chair","box":[300,300,340,330]},
      {"id":"turkey","text":"turkey","box":[500,100,540,130]},
      {"id":"desk","text":"desk","box":[100,100,140,130]},
      {"id":"lamp","text":"lamp","box":[100,400,140,430]},
      {"id":"cow","text":"cow","box":[50,500,90,530]},
      {"id":"vase","text":"vase","box":[298,500,338,530]}],
      "questions":[{"id":"q","ask":"which","relation":"right_of","anchor":"chair","options":)" +
                             options + R"(,"answer":"A"}]})";
    return std::get<Scene>(read_scene(text));
  };
  const SceneAudit not_offered = audit_scene(scene_with(R"(["turkey","desk","lamp","cow"])"));
  ASSERT_EQ(not_offered.verdicts.size(), 1u);
  EXPECT_EQ(not_offered.verdicts[0].verdict, Verdict::ok);
  EXPECT_EQ(not_offered.verdicts[0].truth, "A");

  const SceneAudit offered = audit_scene(scene_with(R"(["turkey","vase","lamp","cow"])"));
  ASSERT_EQ(offered.verdicts[0].verdict, Verdict::ambiguous);
  ASSERT_EQ(offered.verdicts[0].reasons.size(), 1u);
  EXPECT_NE(offered.verdicts[0].reasons[0].detail.find("vase"), std::string::npos);
  EXPECT_DOUBLE_EQ(*offered.verdicts[0].reasons[0].slack_px, 2);
}
