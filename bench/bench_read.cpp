// Reading and normalizing scenes: the floor under every subcommand's throughput.
#include <benchmark/benchmark.h>

#include <geotruth/input.hpp>
#include <string>

namespace {

// A Tangram-style figure: a triangle with k cevians and one parallel, all crossings named.
std::string tangram_scene(int k) {
  std::string points, lines;
  auto point = [&](const std::string& id, const std::string& x, const std::string& y) {
    points += (points.empty() ? "" : ",") + ("{\"id\":\"" + id + "\",\"at\":[" + x + "," + y + "]}");
  };
  std::string base = "\"B\"", parallel = "\"F\"";
  point("A", "320", "80");
  point("B", "80", "560");
  point("C", "560", "560");
  point("F", "200", "320");
  point("G", "440", "320");
  for (int i = 1; i <= k; ++i) {
    const int num = 80 * (k + 1) + 480 * i, den = k + 1;
    point("D" + std::to_string(i), "\"" + std::to_string(num) + "/" + std::to_string(den) + "\"", "560");
    point("H" + std::to_string(i), "\"" + std::to_string(num + 320 * den) + "/" + std::to_string(2 * den) + "\"",
          "320");
    lines += ",{\"through\":[\"A\",\"H" + std::to_string(i) + "\",\"D" + std::to_string(i) + "\"]}";
    parallel += ",\"H" + std::to_string(i) + "\"";
    base += ",\"D" + std::to_string(i) + "\"";
  }
  return "{\"id\":\"bench\",\"points\":[" + points + "],\"lines\":[{\"through\":[\"A\",\"F\",\"B\"]}," +
         "{\"through\":[\"A\",\"G\",\"C\"]},{\"through\":[" + base + ",\"C\"]},{\"through\":[" + parallel + ",\"G\"]}" +
         lines + "],\"questions\":[{\"id\":\"t\",\"ask\":\"count\",\"of\":\"triangles\"," +
         "\"options\":[\"1\",\"2\",\"3\",\"4\"],\"answer\":\"A\"}]}";
}

void BM_ReadScene(benchmark::State& state) {
  const std::string text = tangram_scene(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto scene = geotruth::read_scene(text);
    benchmark::DoNotOptimize(scene);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_ReadScene)->Arg(2)->Arg(8)->Arg(64);

void BM_ReadWriteScene(benchmark::State& state) {
  const std::string text = tangram_scene(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto scene = std::get<geotruth::Scene>(geotruth::read_scene(text));
    benchmark::DoNotOptimize(geotruth::write_scene(scene));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadWriteScene)->Arg(2)->Arg(8);

}  // namespace
