// Tangram counting throughput: a Geometry3K-sized batch and a scaling series of line figures.
#include <benchmark/benchmark.h>

#include <fstream>
#include <geotruth/counts.hpp>
#include <geotruth/import.hpp>
#include <sstream>

#include "figures.hpp"

namespace {

using namespace geotruth;

// The 40 real Geometry3K problems of the test fixtures, imported once.
const std::vector<Scene>& geometry3k_scenes() {
  static const std::vector<Scene> scenes = [] {
    const std::string path = std::string(GEOTRUTH_FIXTURES) + "/geometry3k/diagram_logic_forms_sample.json";
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::vector<Scene> out;
    for (auto& imported : import_source(SourceFormat::geometry3k, text.str(), path))
      if (auto* s = std::get_if<Scene>(&imported.scene)) out.push_back(std::move(*s));
    return out;
  }();
  return scenes;
}

void BM_Geometry3kDiagram(benchmark::State& state) {
  const auto& scenes = geometry3k_scenes();
  std::size_t i = 0, triangles = 0;
  for (auto _ : state) {
    const Scene& s = scenes[i++ % scenes.size()];
    triangles += count_figure(s, build_incidence(s, IncidenceMode::merged)).triangles;
  }
  benchmark::DoNotOptimize(triangles);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("diagrams");
}
BENCHMARK(BM_Geometry3kDiagram);

// n lines in general position given by their end points only: geometry finds all C(n,2)
// crossings; --any-vertex counts C(n,3) triangles.
void BM_GeneralPositionLines(benchmark::State& state) {
  const Scene s = figures::general_position(static_cast<int>(state.range(0)), false);
  for (auto _ : state) {
    const auto counts = count_figure(s, build_incidence(s, IncidenceMode::geometric), {true, false});
    benchmark::DoNotOptimize(counts);
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_GeneralPositionLines)
    ->RangeMultiplier(10)
    ->Range(10, 1000)
    ->Arg(300)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();

// An n/2 × n/2 grid of drawn lines, ends only: (n/2)² unlabelled crossings, no triangle.
void BM_GridLines(benchmark::State& state) {
  const int half = static_cast<int>(state.range(0)) / 2;
  Scene s;
  s.id = "grid";
  s.frame.width = s.frame.height = 10 * half + 20;
  for (int i = 0; i < half; ++i) {
    const Rational c = 10 * i + 15;
    const auto h0 = figures::add_point(s, figures::id_of({"H", std::to_string(i), "a"}), 5, c, false);
    const auto h1 = figures::add_point(s, figures::id_of({"H", std::to_string(i), "b"}), 10 * half + 15, c, false);
    const auto v0 = figures::add_point(s, figures::id_of({"V", std::to_string(i), "a"}), c, 5, false);
    const auto v1 = figures::add_point(s, figures::id_of({"V", std::to_string(i), "b"}), c, 10 * half + 15, false);
    figures::add_line(s, {h0, h1});
    figures::add_line(s, {v0, v1});
  }
  for (auto _ : state) {
    const auto counts = count_figure(s, build_incidence(s, IncidenceMode::geometric), {true, false});
    benchmark::DoNotOptimize(counts);
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_GridLines)->RangeMultiplier(10)->Range(10, 1000)->Arg(300)->Unit(benchmark::kMillisecond)->Complexity();

}  // namespace
