// VisOnlyQA's item files (tests/fixtures/visonlyqa: figures and questions of our own in its
// format): scenes from the text items' descriptions, plain items paired by image_path, real and
// 3D items unsupported with their reason, every quirk noted; the audit's verdicts worked by hand.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <geotruth/audit.hpp>
#include <geotruth/import.hpp>
#include <map>

#include "batch/batch.hpp"
#include "score/score.hpp"
#include "test_paths.hpp"

using namespace geotruth;

namespace {

const std::string kSplit = std::string(GEOTRUTH_FIXTURES) + "/visonlyqa/split";

struct Imported {
  std::vector<ImportedScene> scenes;
  std::map<std::string, std::size_t> by_id;
  const Scene& scene(const std::string& id) const { return std::get<Scene>(scenes.at(by_id.at(id)).scene); }
  const std::vector<ImportNote>& notes(const std::string& id) const { return scenes.at(by_id.at(id)).notes; }
};

Imported import_split(const std::vector<std::string>& inputs) {
  Imported out;
  RecordStream stream(inputs, SourceFormat::visonlyqa, Limits{});
  StreamItem item;
  while (stream.next(item)) {
    ImportedScene s{item.raw.key, *item.imported, item.raw.notes, {}};
    out.by_id.emplace(s.key, out.scenes.size());
    out.scenes.push_back(std::move(s));
  }
  return out;
}

bool noted(const std::vector<ImportNote>& notes, const std::string& kind) {
  for (const auto& n : notes)
    if (n.kind == kind) return true;
  return false;
}

}  // namespace

TEST(VisOnlyQA, EveryItemIsOneSceneNamedByItsId) {
  const Imported all = import_split({kSplit});
  // 9 text items, 9 plain ones, 1 3D item, 2 real items.
  ASSERT_EQ(all.scenes.size(), 21u);
  for (const auto& s : all.scenes) {
    ASSERT_TRUE(std::holds_alternative<Scene>(s.scene)) << s.key;
    const Scene& scene = std::get<Scene>(s.scene);
    EXPECT_EQ(scene.id, s.key);
    ASSERT_EQ(scene.questions.size(), 1u);
    EXPECT_EQ(scene.questions[0].id, scene.id);
  }
}

TEST(VisOnlyQA, TheDescriptionIsReadExactlyAndLinesAreOrderedAlongThemselves) {
  const Imported all = import_split({kSplit + "/synthetic_with_text/text_syntheticgeometry__triangle.jsonl"});
  ASSERT_FALSE(all.scenes.empty());
  ASSERT_TRUE(std::holds_alternative<Scene>(all.scenes.front().scene));
  const Scene& s = std::get<Scene>(all.scenes.front().scene);
  ASSERT_EQ(s.points.size(), 5u);
  // Shifted so that the frame (the extent with 30 % margins) starts at 0: A (0, 0) is at
  // (0.3 · 2, 0.3 · 1.5) = (0.6, 0.45); the frame is 1.6 × the extent, y up.
  EXPECT_EQ(s.points[0].id, "A");
  EXPECT_EQ(*s.points[0].at, (Vec2{Rational(3, 5), Rational(9, 20)}));
  EXPECT_EQ(s.frame.width, Rational(16, 5));
  EXPECT_EQ(s.frame.height, Rational(12, 5));
  EXPECT_EQ(s.frame.y, YAxis::up);
  EXPECT_EQ(*s.frame.precision, Rational(1, 100));
  EXPECT_EQ(*s.frame.px_per_unit, Rational(160));  // 320 / the larger extent (2)
  // "DBA" is ordered A, D, B along its line; "EAC" as A, E, C.
  ASSERT_EQ(s.lines.size(), 4u);
  auto names = [&](const Line& l) {
    std::string out;
    for (auto p : l.through) out += s.points[p].id;
    return out;
  };
  const std::string first = names(s.lines[0]), second = names(s.lines[1]);
  EXPECT_TRUE(first == "ADB" || first == "BDA") << first;
  EXPECT_TRUE(second == "AEC" || second == "CEA") << second;
}

TEST(VisOnlyQA, PlainItemsTakeTheirFigureFromTheTextItemWithTheSamePicture) {
  // Given alone, the plain file reads its text sibling for the descriptions.
  const Imported plain = import_split({kSplit + "/synthetic/syntheticgeometry__quadrilateral.jsonl"});
  ASSERT_EQ(plain.scenes.size(), 2u);
  for (const auto& s : plain.scenes) {
    const Scene& scene = std::get<Scene>(s.scene);
    EXPECT_FALSE(scene.points.empty()) << s.key;
    EXPECT_TRUE(noted(s.notes, "scene_from_text_item")) << s.key;
    EXPECT_TRUE(noted(s.notes, "null_question")) << s.key;
    EXPECT_NE(scene.extra.find("\"scene_from\":\"text_fixture_"), std::string::npos) << scene.extra;
  }
  // The circle of the second figure: named "(" in the text, its centre the point O.
  const Scene& circled = std::get<Scene>(plain.scenes.front().scene);
  ASSERT_EQ(circled.circles.size(), 1u);
  EXPECT_EQ(circled.points[*circled.circles[0].center_point].id, "O");
  EXPECT_TRUE(noted(plain.scenes.front().notes, "circle_name"));
  // A text keeping a circle "(" may have dropped others (unlisted_reason, which the cross-check
  // reads); a figure without one lists all it has.
  EXPECT_NE(unlisted_reason(circled, "circles").find("one circle at most"), std::string::npos) << circled.extra;
  EXPECT_EQ(unlisted_reason(circled, "lines"), "");
  const Scene& plain_figure = std::get<Scene>(plain.scenes.back().scene);
  ASSERT_TRUE(plain_figure.circles.empty());
  EXPECT_EQ(unlisted_reason(plain_figure, "circles"), "");
}

TEST(VisOnlyQA, EstimatesCarryTheGeneratorsOptionRanges) {
  // Angle and area options carry the ranges VisOnlyQA's generator asks them in, in the question's
  // option order; its length questions carry none (the nearest option decides).
  const Imported all = import_split({kSplit + "/synthetic/syntheticgeometry__angle.jsonl",
                                     kSplit + "/synthetic/syntheticgeometry__area.jsonl",
                                     kSplit + "/synthetic/syntheticgeometry__length.jsonl"});
  std::size_t angles = 0, areas = 0, lengths = 0;
  for (const auto& s : all.scenes)
    for (const Question& q : std::get<Scene>(s.scene).questions) {
      if (q.of == "length_ratio") {
        ++lengths;
        EXPECT_TRUE(q.option_ranges.empty()) << s.key;
        continue;
      }
      ASSERT_EQ(q.option_ranges.size(), q.options.size()) << s.key;
      for (std::size_t i = 0; i < q.options.size(); ++i) {
        const std::string& o = q.options[i];
        const auto& r = q.option_ranges[i];
        if (q.of == "angle") {
          ++angles;
          const std::array<std::string, 2> expected =
              o == "180"
                  ? std::array<std::string, 2>{"175", "180"}
                  : std::array<std::string, 2>{std::to_string(std::stoi(o) - 5), std::to_string(std::stoi(o) + 5)};
          EXPECT_EQ(r, expected) << o;
        } else {
          ++areas;
          if (o == "0.5") {
            EXPECT_EQ(r, (std::array<std::string, 2>{"5/11", "5/9"}));
          } else if (o == "2") {
            EXPECT_EQ(r, (std::array<std::string, 2>{"1.8", "2.2"}));
          }
        }
      }
    }
  EXPECT_EQ(angles, 10u);  // two questions of five options
  EXPECT_EQ(areas, 5u);
  EXPECT_EQ(lengths, 1u);
}

TEST(VisOnlyQA, RealAnd3dItemsAreUnsupportedWithTheirReason) {
  const Imported all = import_split({kSplit});
  const std::string diameter = "fixture_real_diameter_1", shape = "fixture_real_shape_1", solid = "fixture_3d_size_1";
  const Question& d = all.scene(diameter).questions[0];
  EXPECT_EQ(d.ask, "diameter");
  EXPECT_TRUE(d.absent);
  EXPECT_EQ(d.vertices, (std::vector<std::string>{"A", "B"}));
  // Quoted text, no prompt_no_reasoning; a primed point name.
  const Question& q = all.scene(shape).questions[0];
  EXPECT_EQ(q.ask, "exists");
  EXPECT_EQ(q.of, "quadrilateral");
  EXPECT_EQ(q.vertices, (std::vector<std::string>{"A'", "B", "C", "D"}));
  EXPECT_TRUE(noted(all.notes(shape), "quoted_question"));
  EXPECT_TRUE(noted(all.notes(shape), "missing_key"));
  for (const std::string& id : {diameter, shape, solid}) {
    const SceneAudit audit = audit_scene(all.scene(id));
    ASSERT_EQ(audit.verdicts.size(), 1u);
    EXPECT_EQ(audit.verdicts[0].verdict, Verdict::unsupported) << id;
    ASSERT_FALSE(audit.verdicts[0].reasons.empty());
    const std::string& why = audit.verdicts[0].reasons[0].detail;
    EXPECT_NE(why.find(id == solid ? "3D" : "no symbolic figure"), std::string::npos) << why;
  }
}

TEST(VisOnlyQA, VerdictsWorkedByHand) {
  const Imported all = import_split({kSplit});
  // Figure 1: A(0,0) B(2,0) C(1,1.5) D(1,0) E(0.5,0.75); lines A-D-B, A-E-C, B-C, C-D.
  // Figure 2: O(0,0) P(1,0) Q(-1,0) R(0,1) S(0.6,0.8); lines Q-O-P, R-O, R-S; a unit circle at O.
  // Every label is right but "there is no triangle ADC" (True): A–D, D–C and C–A are drawn.
  std::size_t checked = 0, wrong = 0;
  for (const auto& s : all.scenes) {
    const Scene& scene = std::get<Scene>(s.scene);
    if (scene.points.empty()) continue;
    const SceneAudit audit = audit_scene(scene, dataset_bands("visonlyqa"));
    const QuestionVerdict& v = audit.verdicts.at(0);
    const Question& q = scene.questions[0];
    SCOPED_TRACE(scene.id + " " + q.text);
    if (q.text.find("triangle ADC") != std::string::npos) {
      ++wrong;
      EXPECT_EQ(v.verdict, Verdict::wrong);
      EXPECT_EQ(v.truth, "B");
    } else {
      EXPECT_EQ(v.verdict, Verdict::ok) << (v.reasons.empty() ? "" : v.reasons[0].detail);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 18u);
  EXPECT_EQ(wrong, 2u);  // the text item and its plain twin
}

TEST(VisOnlyQA, BandsFollowThePrintedPrecisionAtThePicturesScale) {
  const Imported all = import_split({kSplit + "/synthetic_with_text/text_syntheticgeometry__length.jsonl"});
  const Scene& s = std::get<Scene>(all.scenes.front().scene);
  const Bands bands = dataset_bands("visonlyqa");
  const FrameBands fb(bands, s.frame);
  // 160 px per unit: rounding to 0.01 reaches 3/2 · 0.01 = 0.015 units = 2.4 px (above 0.5 px);
  // ε_vis stays 2.5 px above it; a point alone moves by up to 3/4 · 0.01.
  EXPECT_DOUBLE_EQ(fb.px_per_unit(), 160);
  EXPECT_EQ(fb.eps_num(), Rational(3, 200));
  EXPECT_NEAR(fb.eps_num_px(), 2.4, 1e-9);
  EXPECT_NEAR(fb.eps_vis_px(), 4.9, 1e-9);
  EXPECT_EQ(fb.point_noise(), Rational(3, 400));
  EXPECT_EQ(bands.source, "dataset:visonlyqa");
  EXPECT_NE(bands.reason.find("0.01"), std::string::npos);
}

TEST(VisOnlyQA, ScoresMatchPublishedRowsToItemsByOrder) {
  score::Scorer scorer;
  RecordStream stream({kSplit}, SourceFormat::visonlyqa, Limits{});
  score::add_records(
      scorer, [&](StreamItem& item) { return stream.next(item); }, dataset_bands("visonlyqa"), Limits{});
  const auto models =
      score::read_visonlyqa_models({std::string(GEOTRUTH_FIXTURES) + "/visonlyqa/responses/model_responses"}, scorer);
  ASSERT_EQ(models.size(), 4u);  // the reasoning prompt's file is not read
  const ordered_json scores = scorer.score(models);
  // Worked by hand: the plain file asks AEB (False), "no ADC" (annotated True; the truth is
  // False) and ABC (True); the text file asks them in the opposite order.
  const std::map<std::string, std::tuple<std::string, int, int, int>> expected{
      {"model-a", {"syntheticgeometry__triangle", 3, 2, 2}},
      {"model-b", {"syntheticgeometry__triangle", 0, 0, 1}},
      {"model-c (fine-tuned)", {"syntheticgeometry__triangle", 2, 2, 3}},
      {"model-c (fine-tuned with text)", {"text_syntheticgeometry__triangle", 3, 2, 2}},
  };
  for (const auto& m : scores["models"]) {
    const std::string name = m["name"];
    ASSERT_TRUE(expected.count(name)) << name;
    const auto& [task, all, clean, corrected] = expected.at(name);
    SCOPED_TRACE(name);
    const ordered_json& views = m["by_task"][task];
    EXPECT_EQ(views["all"]["n"], 3);
    EXPECT_EQ(views["all"]["correct"], all);
    EXPECT_EQ(views["clean"]["n"], 2);
    EXPECT_EQ(views["clean"]["correct"], clean);
    EXPECT_EQ(views["corrected"]["correct"], corrected);
    EXPECT_EQ(m["responses"]["matched"], 3);
    EXPECT_EQ(m["responses"]["unreadable"], 0);
    EXPECT_EQ(m["responses"]["by_method"]["given"], 3);
  }
}

TEST(VisOnlyQA, RowsOutOfOrderAreCaught) {
  score::Scorer scorer;
  RecordStream stream({kSplit + "/synthetic/syntheticgeometry__triangle.jsonl"}, SourceFormat::visonlyqa, Limits{});
  score::add_records(
      scorer, [&](StreamItem& item) { return stream.next(item); }, dataset_bands("visonlyqa"), Limits{});
  // The text file's rows against the plain file's items: the prompts name other triangles.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "geotruth_voqa_order" / "eval_synthetic" /
                                    "syntheticgeometry__triangle" / "prompt=no_reasoning";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(std::string(GEOTRUTH_FIXTURES) +
                                 "/visonlyqa/responses/model_responses/eval_synthetic_with_text/"
                                 "text_syntheticgeometry__triangle/prompt=no_reasoning/"
                                 "model-c_text_syntheticgeometry__triangle.jsonl",
                             dir / "model-x.jsonl", std::filesystem::copy_options::overwrite_existing);
  const auto models = score::read_visonlyqa_models({dir.string()}, scorer);
  ASSERT_EQ(models.size(), 1u);
  std::size_t unreadable = 0;
  for (const auto& row : models[0].rows) unreadable += !row.error.empty();
  EXPECT_EQ(unreadable, 2u);  // the middle row asks the same question in both files
}

// VisOnlyQA reuses an item's id in another file (a real geometry__shape item and a triangle item
// about the same picture): each file's rows are scored against that file's own item.
TEST(VisOnlyQA, AnIdReusedInAnotherFileIsScoredAgainstItsOwnItem) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "geotruth_voqa_reused_id";
  fs::remove_all(root);
  fs::create_directories(root / "split/real");
  const fs::path answers = root / "model_responses/eval_real/geometry__triangle/prompt=no_reasoning";
  fs::create_directories(answers);
  auto item = [](const std::string& question, const std::string& answer, const std::string& task) {
    return ordered_json{{"image_path", "images/MathVista/images/shared.jpg"},
                        {"question", question + " True or False?"},
                        {"answer", answer},
                        {"image_category", "geometry"},
                        {"task_category", task},
                        {"response_options", {"True", "False"}},
                        {"id", "reused_id"}}
        .dump();
  };
  std::ofstream(root / "split/real/geometry__shape.jsonl")
      << item("There is no quadrilateral ABCD in this figure.", "True", "shape") << "\n";
  // The triangle file asks two questions; the first shares its id with the shape item.
  ordered_json second = ordered_json::parse(item("There is a triangle ABC in the figure.", "True", "triangle"));
  second["id"] = "own_id";
  std::ofstream(root / "split/real/geometry__triangle.jsonl")
      << item("There is a triangle ABD in the figure.", "False", "triangle") << "\n"
      << second.dump() << "\n";
  // The model answers both triangle questions right.
  std::ofstream(answers / "model-r.jsonl")
      << R"({"prompt": "There is a triangle ABD in the figure. True or False?", "response": "False", "y_pred": "False", "y_true": "False"})"
      << "\n"
      << R"({"prompt": "There is a triangle ABC in the figure. True or False?", "response": "True", "y_pred": "True", "y_true": "True"})"
      << "\n";
  score::Scorer scorer;
  RecordStream stream({(root / "split").string()}, SourceFormat::visonlyqa, Limits{});
  score::add_records(
      scorer, [&](StreamItem& item) { return stream.next(item); }, dataset_bands("visonlyqa"), Limits{});
  const auto models = score::read_visonlyqa_models({(root / "model_responses").string()}, scorer);
  ASSERT_EQ(models.size(), 1u);
  for (const auto& row : models[0].rows) EXPECT_EQ(row.error, "");
  const ordered_json scores = scorer.score(models);
  const ordered_json& triangle = scores["models"][0]["by_task"]["geometry__triangle"]["all"];
  EXPECT_EQ(triangle["n"], 2);
  EXPECT_EQ(triangle["correct"], 2);
  fs::remove_all(root);
}
