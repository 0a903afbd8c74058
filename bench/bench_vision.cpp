// The picture side's throughput at 640 × 640: render (in memory), render + detect + cross-check,
// reading a picture into a scene (a typical one, and one crowded with labels), and PNG / JPEG
// encoding. Targets (issue 7): ≥ 1,000 renders/s per core, ≤ 20 ms per render + detect + cross-check.
#include <benchmark/benchmark.h>

#include <geotruth/input.hpp>
#include <geotruth/reader.hpp>
#include <geotruth/vision.hpp>
#include <string>

namespace {

using namespace geotruth;

// A typical Tangram-style item: two crossing triangles with letters, three circles, one dashed line.
Scene typical_scene() {
  auto parsed = read_scene(R"({"id":"typical","frame":{"width":640,"height":640},"points":[
    {"id":"A","at":[100,100]},{"id":"B","at":[500,120]},{"id":"C","at":[300,500]},
    {"id":"D","at":[80,400]},{"id":"E","at":[560,380]},{"id":"F","at":[320,60]},
    {"id":"P","at":[60,600]},{"id":"Q","at":[600,590]}],
    "lines":[{"through":["A","B"]},{"through":["B","C"]},{"through":["C","A"]},
    {"through":["D","E"]},{"through":["E","F"]},{"through":["F","D"]},{"through":["P","Q"],"style":"dashed"}],
    "circles":[{"id":"c1","center":[200,300],"radius":60},{"id":"c2","center":[320,300],"radius":60},
    {"id":"c3","center":[450,470],"radius":40}]})");
  return std::get<Scene>(parsed);
}

void BM_RenderClean(benchmark::State& state) {
  const Scene scene = typical_scene();
  for (auto _ : state) benchmark::DoNotOptimize(vision::render(scene));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RenderClean)->Unit(benchmark::kMillisecond);

void BM_RenderDetectCrosscheck(benchmark::State& state) {
  const Scene scene = typical_scene();
  for (auto _ : state) benchmark::DoNotOptimize(vision::crosscheck(scene, vision::render(scene)).agree);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RenderDetectCrosscheck)->Unit(benchmark::kMillisecond);

// Reading the scene back from its picture alone (import --from picture): target ≥ 10 pictures of
// 640 × 640 per CPU-second (issue 35), i.e. ≤ 100 ms a picture.
void BM_ReadPicture(benchmark::State& state) {
  const vision::Image image = vision::render(typical_scene());
  for (auto _ : state) benchmark::DoNotOptimize(vision::read_picture(image, "typical").scene.lines.size());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadPicture)->Unit(benchmark::kMillisecond);

// A drawing crowded with 120 labels (A to Z, then A27, B28, ...) at pseudo-random places: every label
// wider than a letter is tried as two letters over each other, the reader's costliest step.
Scene crowded_labels_scene() {
  std::uint32_t seed = 12345;
  auto next = [&seed](std::uint32_t n) {
    seed = (seed * 1103515245u + 12345u) % 2147483648u;
    return seed % n;
  };
  std::string points;
  for (int k = 1; k <= 120; ++k) {
    const std::string label =
        std::string(1, static_cast<char>('A' + (k - 1) % 26)) + (k <= 26 ? "" : std::to_string(k));
    const std::uint32_t x = 20 + next(600), y = 20 + next(600);
    points += std::string(k > 1 ? "," : "") + R"({"id":")" + label + R"(","at":[)" + std::to_string(x) + "," +
              std::to_string(y) + "]}";
  }
  auto parsed = read_scene(R"({"id":"crowded","frame":{"width":640,"height":640},"points":[)" + points + "]}");
  return std::get<Scene>(parsed);
}

void BM_ReadCrowdedLabels(benchmark::State& state) {
  const vision::Image image = vision::render(crowded_labels_scene());
  for (auto _ : state) benchmark::DoNotOptimize(vision::read_picture(image, "crowded").scene.points.size());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadCrowdedLabels)->Unit(benchmark::kMillisecond);

void BM_EncodePng(benchmark::State& state) {
  const vision::Image image = vision::render(typical_scene());
  for (auto _ : state) benchmark::DoNotOptimize(vision::encode(image, vision::ImageFormat::png));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EncodePng)->Unit(benchmark::kMillisecond);

void BM_EncodeJpeg(benchmark::State& state) {
  const vision::Image image = vision::render(typical_scene());
  for (auto _ : state) benchmark::DoNotOptimize(vision::encode(image, vision::ImageFormat::jpeg, 90));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EncodeJpeg)->Unit(benchmark::kMillisecond);

}  // namespace
