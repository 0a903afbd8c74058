// GePBench-style scenes: the relation matrix (every ordered pair) and every question's truth.
#include <geotruth/audit.hpp>
#include <geotruth/input.hpp>

#include <benchmark/benchmark.h>

#include <random>
#include <string>

namespace {

using namespace geotruth;

// A scene of n shapes on the unit canvas (squares, circles, ellipses, segments, triangles,
// rectangles) with a count, a location, a size and a relation question.
Scene shapes_scene(int n, std::mt19937_64& rng) {
  auto coordinate = [&] { return std::to_string(100 + static_cast<int>(rng() % 800)); };
  auto at = [&] { return "[0." + coordinate() + ",0." + coordinate() + "]"; };
  std::string shapes;
  for (int k = 0; k < n; ++k) {
    const std::string id = "\"s" + std::to_string(k) + "\"";
    std::string shape;
    switch (k % 6) {
      case 0:
        shape = R"({"id":)" + id +
                R"(,"type":"polygon","kind":"square","points":[[0.2,0.2],[0.4,0.2],[0.4,0.4],[0.2,0.4]]})";
        break;
      case 1:
        shape = R"({"id":)" + id + R"(,"type":"circle","center":)" + at() + R"(,"radius":0.1})";
        break;
      case 2:
        shape = R"({"id":)" + id + R"(,"type":"ellipse","center":)" + at() + R"(,"axes":[0.2,0.08],"rotation":30})";
        break;
      case 3:
        shape = R"({"id":)" + id + R"(,"type":"segment","points":[)" + at() + "," + at() + "]}";
        break;
      case 4:
        shape = R"({"id":)" + id + R"(,"type":"polygon","points":[)" + at() + "," + at() + "," + at() + "]}";
        break;
      default:
        shape = R"({"id":)" + id +
                R"(,"type":"polygon","kind":"rectangle","points":[[0.5,0.6],[0.9,0.6],[0.9,0.8],[0.5,0.8]]})";
    }
    shapes += (k ? "," : "") + shape;
  }
  const std::string text = R"({"id":"b","frame":{"width":1,"height":1,"y":"up"},"shapes":[)" + shapes +
                           R"(],"relations":[{"type":"tangent","between":["s0","s1"]}],"questions":[
    {"id":"c","ask":"count","of":"circle","options":["0","1","2","3"],"answer":"B"},
    {"id":"l","ask":"location","of":"s0","options":["upper left","upper right","lower left","lower right"],"answer":"C"},
    {"id":"w","ask":"size","of":"s0","measure":"width","options":["0.05","0.2","0.35","0.5"],"answer":"B"},
    {"id":"r","ask":"relation","between":["s0","s1"],"options":["tangent","parallel","inscribed","none of the above"],"answer":"D"}]})";
  return std::get<Scene>(read_scene(text));
}

void BM_ShapeScene(benchmark::State& state) {
  std::mt19937_64 rng(7);
  std::vector<Scene> scenes;
  for (int i = 0; i < 64; ++i) scenes.push_back(shapes_scene(static_cast<int>(state.range(0)), rng));
  std::size_t i = 0, findings = 0;
  for (auto _ : state) findings += audit_scene(scenes[i++ % scenes.size()]).findings.size();
  benchmark::DoNotOptimize(findings);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("scenes; relation matrix + 4 questions + findings each");
}
BENCHMARK(BM_ShapeScene)->Arg(2)->Arg(4)->Arg(8);

}  // namespace
