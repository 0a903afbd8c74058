// Diagrams as graphs: hand-worked food webs, cycles, circuits and layers; positions at the thresholds.
#include <gtest/gtest.h>

#include <fstream>
#include <geotruth/diagram_findings.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/input.hpp>
#include <geotruth/questions.hpp>
#include "test_paths.hpp"

using namespace geotruth;

namespace {

Scene scene_from(const std::string& text) {
  auto result = read_scene(text);
  if (auto* e = std::get_if<InputError>(&result)) ADD_FAILURE() << e->pointer << ": " << e->message;
  return std::get<Scene>(result);
}

Question ask(std::string json_text) {
  const Scene s = scene_from(R"({"id":"q","questions":[)" + json_text + "]}");
  return s.questions.at(0);
}

std::vector<std::string> truth_of(const Scene& s, const std::string& question) {
  SceneEvaluator evaluator(s);
  Truth t = evaluator.evaluate(ask(question));
  EXPECT_TRUE(t.supported) << t.reason;
  std::sort(t.values.begin(), t.values.end());
  return t.values;
}

using Names = std::vector<std::string>;

// Entities as 60×30 boxes at the given top-left corners; links "a>b" (arrows) or "a-b" (lines/wires).
std::string diagram(const std::vector<std::tuple<std::string, int, int, std::string>>& entities,
                    const std::vector<std::string>& links, const std::string& more = "") {
  std::string text = R"({"id":"d","entities":[)";
  for (std::size_t i = 0; i < entities.size(); ++i) {
    const auto& [id, x, y, tags] = entities[i];
    text += (i ? "," : "") + std::string(R"({"id":")") + id + R"(","text":")" + id + R"(","box":[)" +
            std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(x + 60) + "," + std::to_string(y + 30) +
            "]" + (tags.empty() ? "" : R"(,"tags":[")" + tags + R"("])") + "}";
  }
  text += R"(],"links":[)";
  for (std::size_t i = 0; i < links.size(); ++i) {
    const auto& l = links[i];
    const std::size_t cut = l.find_first_of(">-");
    const bool directed = l[cut] == '>';
    text += (i ? "," : "") + std::string(R"({"from":")") + l.substr(0, cut) + R"(","to":")" + l.substr(cut + 1) +
            R"(","directed":)" + (directed ? "true" : "false") + (directed ? "" : R"(,"kind":"wire")") + "}";
  }
  return text + "]" + more + "}";
}

}  // namespace

TEST(FoodWeb, TenEntitiesCountedByHand) {
  // Arrows from prey to predator. By hand, from grass: rabbit→fox, rabbit→owl, mouse→snake→owl,
  // mouse→owl, grasshopper→frog→snake→owl, grasshopper→mouse→snake→owl, grasshopper→mouse→owl (7);
  // from algae: algae→fish (1). Eight chains.
  const Scene s = scene_from(
      diagram({{"grass", 0, 500, "producer"},
               {"algae", 500, 500, "producer"},
               {"rabbit", 0, 300, ""},
               {"mouse", 100, 300, ""},
               {"grasshopper", 200, 400, ""},
               {"frog", 300, 300, ""},
               {"snake", 200, 200, ""},
               {"fox", 0, 100, ""},
               {"owl", 200, 0, ""},
               {"fish", 500, 300, ""}},
              {"grass>rabbit", "grass>mouse", "grass>grasshopper", "grasshopper>frog", "grasshopper>mouse",
               "frog>snake", "mouse>snake", "mouse>owl", "rabbit>fox", "rabbit>owl", "snake>owl", "algae>fish"}));
  EXPECT_EQ(truth_of(s, R"({"id":"c","ask":"count","of":"food_chains"})"), Names{"8"});
  // With the heron the second producer's chain gets longer, not more numerous: still one from algae.
  Scene with_heron = s;
  with_heron.entities.push_back(with_heron.entities.back());
  with_heron.entities.back().id = with_heron.entities.back().text = "heron";
  with_heron.links.push_back({"", "fish", "heron", true, LinkKind::arrow, {}, {}, {}, ""});
  EXPECT_EQ(truth_of(with_heron, R"({"id":"c","ask":"count","of":"food_chains"})"), Names{"8"});
  EXPECT_EQ(truth_of(s, R"({"id":"p","ask":"count","of":"prey","anchor":"owl"})"), Names{"3"});  // mouse, rabbit, snake
  EXPECT_EQ(truth_of(s, R"({"id":"p","ask":"count","of":"predators","anchor":"mouse"})"), Names{"2"});
  EXPECT_EQ(truth_of(s, R"({"id":"w","ask":"which","relation":"prey_of","anchor":"snake"})"), (Names{"frog", "mouse"}));
  EXPECT_EQ(truth_of(s, R"({"id":"w","ask":"which","relation":"predator_of","anchor":"rabbit"})"),
            (Names{"fox", "owl"}));
  // The other convention: arrows from predator to prey reverse prey and predators, not chains.
  Scene reversed = s;
  reversed.food_arrows = FoodArrows::to_prey;
  EXPECT_EQ(truth_of(reversed, R"({"id":"p","ask":"count","of":"predators","anchor":"owl"})"), Names{"3"});
  EXPECT_EQ(truth_of(reversed, R"({"id":"c","ask":"count","of":"food_chains"})"), Names{"8"});
}

TEST(FoodWeb, CyclesAreReportedNeverLoopedOver) {
  // A cycle with nothing entering it from outside: no source, so no chain.
  const Scene s = scene_from(diagram({{"a", 0, 0, ""}, {"b", 100, 0, ""}, {"c", 200, 0, ""}}, {"a>b", "b>c", "c>a"}));
  SceneEvaluator evaluator(s);
  const Question q = ask(R"({"id":"c","ask":"count","of":"food_chains"})");
  const Truth t = evaluator.evaluate(q);
  EXPECT_EQ(t.values, std::vector<std::string>{"0"});
  ASSERT_EQ(t.facts.size(), 1u);
  EXPECT_EQ(t.facts[0].kind, "food_web_cycle");
  EXPECT_EQ(t.facts[0].elements.size(), 3u);
  EXPECT_FALSE(answer_is_ambiguous(q, t));
  // grass feeds a cycle b ⇄ c that leads out to d and e. By hand, the simple paths from grass to
  // a sink: grass-b-d, grass-b-c-e, grass-c-e, grass-c-b-d: four (none goes round the cycle).
  const Scene web = scene_from(
      diagram({{"grass", 0, 0, ""}, {"b", 100, 0, ""}, {"c", 200, 0, ""}, {"d", 300, 0, ""}, {"e", 400, 0, ""}},
              {"grass>b", "grass>c", "b>c", "c>b", "b>d", "c>e"}));
  EXPECT_EQ(truth_of(web, R"({"id":"c","ask":"count","of":"food_chains"})"), Names{"4"});
  EXPECT_EQ(truth_of(web, R"({"id":"c","ask":"count","of":"cycles"})"), Names{"1"});
}

TEST(LifeCycle, EggLarvaPupaAdult) {
  const Scene s = scene_from(diagram({{"egg", 270, 40, "stage"},
                                      {"larva", 500, 300, "stage"},
                                      {"pupa", 270, 560, "stage"},
                                      {"adult", 40, 300, "stage"}},
                                     {"egg>larva", "larva>pupa", "pupa>adult", "adult>egg"}));
  EXPECT_EQ(truth_of(s, R"({"id":"n","ask":"which","relation":"next_stage","anchor":"pupa"})"), Names{"adult"});
  EXPECT_EQ(truth_of(s, R"({"id":"n","ask":"which","relation":"next_stage","anchor":"adult"})"), Names{"egg"});
  EXPECT_EQ(truth_of(s, R"({"id":"t","ask":"count","of":"transitions"})"), Names{"4"});
  EXPECT_EQ(truth_of(s, R"({"id":"a","ask":"count","of":"stages_after","anchor":"larva"})"), Names{"3"});
}

TEST(Circuit, OneShortCircuitedBulb) {
  // battery — j1 — bulb1 — j2 — bulb2 — j3 — switch — battery; a plain wire j2—j3 bypasses bulb2.
  // bulb3 hangs on j1 with one wire back to j1 through bulb3b: a dead end, off the loop.
  const Scene s = scene_from(
      diagram({{"battery", 0, 0, "battery"},
               {"j1", 100, 0, ""},
               {"bulb1", 200, 0, "bulb"},
               {"j2", 300, 0, ""},
               {"bulb2", 300, 100, "bulb"},
               {"j3", 300, 200, ""},
               {"switch", 100, 200, "switch"}},
              {"battery-j1", "j1-bulb1", "bulb1-j2", "j2-bulb2", "bulb2-j3", "j2-j3", "j3-switch", "switch-battery"}));
  EXPECT_EQ(truth_of(s, R"({"id":"g","ask":"count","of":"glowing_bulbs"})"), Names{"1"});
  SceneEvaluator evaluator(s);
  const Truth t = evaluator.evaluate(ask(R"({"id":"g","ask":"count","of":"glowing_bulbs"})"));
  ASSERT_EQ(t.facts.size(), 1u);
  EXPECT_EQ(t.facts[0].elements, Names{"bulb2"});
  // Without the bypass both glow; with a bulb on a dangling branch, that bulb does not.
  const Scene series =
      scene_from(diagram({{"battery", 0, 0, "battery"},
                          {"bulb1", 200, 0, "bulb"},
                          {"bulb2", 300, 100, "bulb"},
                          {"switch", 100, 200, "switch"},
                          {"bulb3", 400, 300, "bulb"},
                          {"j", 500, 300, ""}},
                         {"battery-bulb1", "bulb1-bulb2", "bulb2-switch", "switch-battery", "bulb3-j", "j-bulb3"}));
  EXPECT_EQ(truth_of(series, R"({"id":"g","ask":"count","of":"glowing_bulbs"})"), Names{"2"});
}

TEST(Circuit, ShortedBatteryLightsNothingAndBadComponentsAreReported) {
  const Scene shorted = scene_from(
      diagram({{"battery", 0, 0, "battery"}, {"bulb", 200, 0, "bulb"}, {"j1", 0, 100, ""}, {"j2", 200, 100, ""}},
              {"battery-j1", "j1-bulb", "bulb-j2", "j2-battery", "j1-j2"}));
  EXPECT_EQ(truth_of(shorted, R"({"id":"g","ask":"count","of":"glowing_bulbs"})"), Names{"0"});
  const Scene dangling =
      scene_from(diagram({{"battery", 0, 0, "battery"}, {"bulb", 200, 0, "bulb"}}, {"battery-bulb"}));
  SceneEvaluator evaluator(dangling);
  const Truth t = evaluator.evaluate(ask(R"({"id":"g","ask":"count","of":"glowing_bulbs"})"));
  EXPECT_TRUE(t.values.empty());
  EXPECT_NE(t.reason.find("exactly two"), std::string::npos) << t.reason;
}

TEST(Layers, ThreeNestedLayers) {
  // Earth: core (circle r 50) inside mantle (circle r 150) inside crust (a square of side 400).
  const Scene s = scene_from(R"({"id":"earth","layers":[
    {"id":"crust","text":"crust","points":[[120,120],[520,120],[520,520],[120,520]]},
    {"id":"core","text":"core","center":[320,320],"radius":50},
    {"id":"mantle","text":"mantle","center":[320,320],"radius":150}]})");
  EXPECT_EQ(truth_of(s, R"({"id":"n","ask":"which","relation":"next_layer_outside","anchor":"core"})"),
            Names{"mantle"});
  EXPECT_EQ(truth_of(s, R"({"id":"n","ask":"which","relation":"next_layer_outside","anchor":"mantle"})"),
            Names{"crust"});
  EXPECT_EQ(truth_of(s, R"({"id":"n","ask":"which","relation":"next_layer_outside","anchor":"crust"})"), Names{});
  EXPECT_EQ(truth_of(s, R"({"id":"c","ask":"count","of":"layers_outside","anchor":"core"})"), Names{"2"});
  EXPECT_EQ(truth_of(s, R"({"id":"b","ask":"count","of":"boundaries"})"), Names{"3"});
  // A circle of radius 201 around the square's centre pokes out of the square: not inside it.
  const Scene poking = scene_from(R"({"id":"p","layers":[
    {"id":"square","points":[[120,120],[520,120],[520,520],[120,520]]},{"id":"big","center":[320,320],"radius":201}]})");
  EXPECT_EQ(truth_of(poking, R"({"id":"c","ask":"count","of":"layers_outside","anchor":"big"})"), Names{"0"});
}

TEST(Positions, AmbiguityAtTheThresholds) {
  // "sun" is 2 px, 4 px or 0 px left of "moon" (box centres, 640 frame: 1 unit = 1 px).
  for (const auto& [dx, left, ambiguous] : {std::tuple{2, true, true}, {4, true, false}, {0, false, false}}) {
    const Scene s = scene_from(diagram({{"sun", 100 - dx, 100, ""}, {"moon", 100, 300, ""}}, {}));
    SceneEvaluator evaluator(s);
    const Question q = ask(R"({"id":"l","ask":"which","relation":"left_of","anchor":"moon"})");
    const Truth t = evaluator.evaluate(q);
    EXPECT_EQ(t.values, left ? Names{"sun"} : Names{}) << dx;
    EXPECT_EQ(answer_is_ambiguous(q, t), ambiguous) << dx;
  }
  // Above/below follow the frame's y axis.
  const Scene down = scene_from(diagram({{"a", 0, 0, ""}, {"b", 0, 100, ""}}, {}));
  EXPECT_EQ(truth_of(down, R"({"id":"a","ask":"which","relation":"above","anchor":"b"})"), Names{"a"});
  Scene up = down;
  up.frame.y = YAxis::up;
  EXPECT_EQ(truth_of(up, R"({"id":"a","ask":"which","relation":"above","anchor":"a"})"), Names{"b"});
}

TEST(Positions, GridRowsAndColumns) {
  // 3×3 over 600×600: cells 200 wide. Centres at x = 30+... boxes 60×30.
  const Scene s = scene_from(diagram({{"a", 70, 70, ""}, {"b", 270, 85, ""}, {"c", 470, 470, ""}, {"d", 169, 400, ""}},
                                     {}, R"(,"frame":{"width":600,"height":600},"grid":{"rows":3,"columns":3})"));
  EXPECT_EQ(truth_of(s, R"({"id":"r","ask":"count","of":"entities","row":"top"})"), Names{"2"});
  EXPECT_EQ(truth_of(s, R"({"id":"r","ask":"which","relation":"in_row","value":"top"})"), (Names{"a", "b"}));
  EXPECT_EQ(truth_of(s, R"({"id":"r","ask":"which","relation":"in_column","value":"right"})"), Names{"c"});
  // d's centre x = 199: 1 px from the line between left and center columns: ambiguous.
  SceneEvaluator evaluator(s);
  const Question which = ask(R"({"id":"r","ask":"which","relation":"in_column","value":"left"})");
  EXPECT_TRUE(answer_is_ambiguous(which, evaluator.evaluate(which)));
  // Counted, d moves the count between 2 (a, d) and 1: ambiguous, the other value named; offered
  // only options that both counts leave unchosen or chosen alike, it changes nothing.
  Question count = ask(R"({"id":"n","ask":"count","of":"entities","column":"left"})");
  Truth t = evaluator.evaluate(count);
  EXPECT_EQ(t.values, Names{"2"});
  EXPECT_TRUE(answer_is_ambiguous(count, t));
  ASSERT_EQ(std::count_if(t.facts.begin(), t.facts.end(), [](const Fact& f) { return f.ambiguous; }), 1);
  for (const auto& f : t.facts) {
    if (f.ambiguous) {
      EXPECT_EQ(f.alternative, "1");
    }
  }
  count.options = {"1", "2", "3", "4"};
  EXPECT_TRUE(answer_is_ambiguous(count, t));
  count.options = {"2", "3", "4", "5"};  // 1 is not offered: the fact still moves the answer off B
  EXPECT_TRUE(answer_is_ambiguous(count, t));
  count.options = {"3", "4", "5", "6"};  // neither count is offered: no option changes
  EXPECT_FALSE(answer_is_ambiguous(count, t));
}

TEST(Explicit, ConnectionsAndLinks) {
  const Scene s =
      scene_from(diagram({{"cow", 0, 0, ""}, {"grass", 200, 0, ""}, {"sun", 400, 0, ""}, {"rain", 0, 200, ""}},
                         {"sun>grass", "grass>cow", "rain>grass"}));
  EXPECT_EQ(truth_of(s, R"({"id":"n","ask":"count","of":"entities","connected_to":"grass"})"), Names{"3"});
  EXPECT_EQ(truth_of(s, R"({"id":"n","ask":"count","of":"links","touching":"cow"})"), Names{"1"});
  EXPECT_EQ(truth_of(s, R"({"id":"n","ask":"count","of":"links"})"), Names{"3"});
  SceneEvaluator evaluator(s);
  const Question pair = ask(R"({"id":"p","ask":"which","connected_pair":true,
    "options":["cow - sun","Grass -  cow","rain - sun","cow - rain"]})");
  EXPECT_EQ(matching_options(pair, evaluator.evaluate(pair)), std::vector<std::size_t>{1});
  const Question exists = ask(R"({"id":"e","ask":"exists","options":["cow","tiger","rain","moon"],"absent":true})");
  EXPECT_EQ(matching_options(exists, evaluator.evaluate(exists)), (std::vector<std::size_t>{1, 3}));
}

TEST(Findings, LinkGeometry) {
  // a→c passes straight through b; a→b ends 10 px short of b; a and d overlap; two links cross.
  const Scene s = scene_from(R"({"id":"f","entities":[
    {"id":"a","box":[0,0,40,40]},{"id":"b","box":[100,0,140,40]},{"id":"c","box":[200,0,240,40]},
    {"id":"d","box":[30,30,70,70]},{"id":"e","box":[100,200,140,240]},{"id":"g","box":[200,200,240,240]}],
    "links":[{"from":"a","to":"c","path":[[40,20],[200,20]]},{"from":"a","to":"b","path":[[40,10],[90,10]]},
             {"from":"b","to":"g","path":[[120,40],[220,200]]},{"from":"c","to":"e","path":[[220,40],[120,200]]}]})");
  std::map<std::string, int> kinds;
  for (const auto& f : diagram_findings(s)) {
    const std::string kind = finding_kind_name(f.kind);
    ++kinds[kind];
    if (kind == "link_detached" || kind == "overlapping_entities") {
      EXPECT_DOUBLE_EQ(*f.slack_px, 10) << kind;
    }
  }
  EXPECT_EQ(kinds["link_crosses_entity"], 1);
  EXPECT_EQ(kinds["link_detached"], 1);
  EXPECT_EQ(kinds["overlapping_entities"], 1);
  EXPECT_EQ(kinds["links_cross"], 1);
}

TEST(DefaultDataset, SupportedAnswersAgreeExceptThePlantedError) {
  std::ifstream in(std::string(GEOTRUTH_DATA) + "/scenes.jsonl");
  std::size_t agreed = 0, planted = 0, unsupported = 0;
  for (std::string line; std::getline(in, line);) {
    const Scene s = scene_from(line);
    SceneEvaluator evaluator(s);
    for (const auto& q : s.questions) {
      const Truth t = evaluator.evaluate(q);
      if (!t.supported) {
        ++unsupported;
        continue;
      }
      const auto right = matching_options(q, t);
      ASSERT_EQ(right.size(), 1u) << s.id << "/" << q.id;
      EXPECT_FALSE(answer_is_ambiguous(q, t)) << s.id << "/" << q.id;
      if (option_letter(right[0]) == q.answer) {
        ++agreed;
      } else {
        EXPECT_EQ(s.id + "/" + q.id, "tangram-two-cevians-one-parallel/triangles");  // data/README.md
        ++planted;
      }
    }
  }
  EXPECT_EQ(planted, 1u);
  EXPECT_EQ(agreed, 34u);  // 16 Tangram + 8 diagram + 10 GePBench shape questions
  EXPECT_EQ(unsupported, 0u);
}
