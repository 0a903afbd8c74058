// Diagram questions: every question kind on a 9-entity diagram, evaluated from scratch per item.
#include <benchmark/benchmark.h>

#include <geotruth/generate.hpp>
#include <geotruth/input.hpp>
#include <geotruth/questions.hpp>

namespace {

using namespace geotruth;

// A generated 9-entity grid diagram plus the kinds the generator does not ask (food web,
// cycle, circuit and layer questions), so every diagram evaluator runs on each item.
Scene nine_entity_diagram() {
  Scene s;
  for (std::uint64_t i = 0; s.entities.size() != 9; ++i) s = generate_diagram(11, i, diagram_words(), {true});
  const std::string a = s.entities[0].text, b = s.entities[1].text;
  auto add = [&](std::string json_text) {
    const Scene q = std::get<Scene>(read_scene(R"({"id":"q","questions":[)" + json_text + "]}"));
    s.questions.push_back(q.questions.at(0));
  };
  add(R"({"id":"b1","ask":"count","of":"food_chains"})");
  add(R"({"id":"b2","ask":"count","of":"prey","anchor":")" + a + R"("})");
  add(R"({"id":"b3","ask":"which","relation":"predator_of","anchor":")" + a + R"("})");
  add(R"({"id":"b4","ask":"which","relation":"next_stage","anchor":")" + b + R"("})");
  add(R"({"id":"b5","ask":"count","of":"stages_after","anchor":")" + b + R"("})");
  add(R"({"id":"b6","ask":"count","of":"transitions"})");
  add(R"({"id":"b7","ask":"count","of":"glowing_bulbs"})");
  add(R"({"id":"b8","ask":"count","of":"boundaries"})");
  add(R"({"id":"b9","ask":"count","of":"text_labels"})");
  add(R"({"id":"b10","ask":"which","relation":"connected_to","anchor":")" + a + R"("})");
  add(R"({"id":"b11","ask":"which","relation":"in_column","value":"left"})");
  return s;
}

void BM_NineEntityDiagramAllKinds(benchmark::State& state) {
  const Scene s = nine_entity_diagram();
  std::size_t values = 0;
  for (auto _ : state) {
    SceneEvaluator evaluator(s);
    for (const auto& q : s.questions) values += evaluator.evaluate(q).values.size();
  }
  benchmark::DoNotOptimize(values);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::to_string(s.questions.size()) + " questions per diagram; items = diagrams");
}
BENCHMARK(BM_NineEntityDiagramAllKinds);

void BM_GenerateDiagram(benchmark::State& state) {
  std::uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(generate_diagram(5, i++, diagram_words()));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GenerateDiagram);

}  // namespace
