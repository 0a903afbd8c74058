// GePBench-style scenes: the relation matrix (every ordered pair) and every question's truth.
#include <geotruth/audit.hpp>
#include <geotruth/input.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

namespace {

using namespace geotruth;

// A scene of n shapes placed like the public engine places them: random centres, sizes and
// rotations on the unit canvas, numbers rounded to 4 decimals (squares, circles, ellipses,
// segments, triangles, rectangles, and from the 8th shape on a circle built tangent to the first
// circle), with a count, a location, a size and a relation question.
Scene shapes_scene(int n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.15, 0.85), size(0.05, 0.2), turn(0, 2 * M_PI);
  auto number = [](double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", v);
    return std::string(text);
  };
  auto pair = [&](double x, double y) { return "[" + number(x) + "," + number(y) + "]"; };
  // The corners of a w × h rectangle centred at (x, y), turned by t.
  auto box = [&](double x, double y, double w, double h, double t) {
    std::string out;
    for (const auto& [u, v] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
      const double dx = u * w / 2, dy = v * h / 2;
      out += (out.empty() ? "" : ",") +
             pair(x + dx * std::cos(t) - dy * std::sin(t), y + dx * std::sin(t) + dy * std::cos(t));
    }
    return out;
  };
  double circle_x = 0.5, circle_y = 0.5, circle_r = 0.1;
  std::string shapes;
  for (int k = 0; k < n; ++k) {
    const std::string id = "\"s" + std::to_string(k) + "\"";
    const double x = unit(rng), y = unit(rng), r = size(rng), t = turn(rng);
    std::string shape;
    if (k == 7) {  // externally tangent to s1
      const double r7 = size(rng), d = circle_r + r7;
      shape = R"({"id":)" + id + R"(,"type":"circle","center":)" +
              pair(circle_x + d * std::cos(t), circle_y + d * std::sin(t)) + R"(,"radius":)" + number(r7) + "}";
    } else if (k % 6 == 0) {
      shape = R"({"id":)" + id + R"(,"type":"polygon","kind":"square","points":[)" + box(x, y, 2 * r, 2 * r, t) + "]}";
    } else if (k % 6 == 1) {
      circle_x = std::stod(number(x)), circle_y = std::stod(number(y)), circle_r = std::stod(number(r));
      shape = R"({"id":)" + id + R"(,"type":"circle","center":)" + pair(x, y) + R"(,"radius":)" + number(r) + "}";
    } else if (k % 6 == 2) {
      shape = R"({"id":)" + id + R"(,"type":"ellipse","center":)" + pair(x, y) + R"(,"axes":[)" + number(r) + "," +
              number(r / 2) + R"(],"rotation":)" + number(t * 180 / M_PI) + "}";
    } else if (k % 6 == 3) {
      shape =
          R"({"id":)" + id + R"(,"type":"segment","points":[)" + pair(x, y) + "," + pair(unit(rng), unit(rng)) + "]}";
    } else if (k % 6 == 4) {
      shape = R"({"id":)" + id + R"(,"type":"polygon","points":[)" + pair(x, y) + "," + pair(unit(rng), unit(rng)) +
              "," + pair(unit(rng), unit(rng)) + "]}";
    } else {
      shape = R"({"id":)" + id + R"(,"type":"polygon","kind":"rectangle","points":[)" + box(x, y, 2 * r, r, t) + "]}";
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
