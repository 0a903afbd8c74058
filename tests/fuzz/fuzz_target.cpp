// The fuzz target: one input is one record of any source format (its first byte picks the format,
// the rest is the text; a GePBench input is its rules, a newline, then its VQA lines). Every
// scene that reads is written and read back (it must round-trip), built into incidences in all
// three modes, counted and audited, under a small work limit. A bad record must give an
// InputError; anything else escaping (another exception, a signal, a sanitizer report) is a bug.
// The text also goes through both paths of the JSON reader, which must agree.
#include <geotruth/audit.hpp>
#include <geotruth/counts.hpp>
#include <geotruth/import.hpp>
#include <geotruth/incidence.hpp>
#include <geotruth/input.hpp>
#include <geotruth/work_limit.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_reader.hpp"
#include "round_trip.hpp"

namespace {

using namespace geotruth;

constexpr SourceFormat kFormats[] = {SourceFormat::native,   SourceFormat::geometry3k, SourceFormat::pgdp,
                                     SourceFormat::linelist, SourceFormat::gepbench,   SourceFormat::ai2d};

std::vector<Scene> read_any(SourceFormat format, std::string_view text, const Limits& limits) {
  std::vector<Scene> scenes;
  auto keep = [&](SceneOrError&& s) {
    if (auto* scene = std::get_if<Scene>(&s)) scenes.push_back(std::move(*scene));
  };
  if (format == SourceFormat::native) {
    keep(read_scene(text, limits));
  } else if (format == SourceFormat::gepbench) {
    const std::size_t split = text.find('\n');
    const std::string rules(text.substr(0, split)), vqa(split == text.npos ? "" : text.substr(split + 1));
    for (auto& s : import_gepbench({{"rules.json", rules}, {"vqa.jsonl", vqa}})) keep(std::move(s.scene));
  } else {
    for (auto& s : import_source(format, text, "fuzz")) keep(std::move(s.scene));
  }
  return scenes;
}

// The JSON reader's fast path accepts only what its exact path accepts, as the same tree.
void check_json_paths(std::string_view text, const Limits& limits) {
  const auto fast = json::read_fast(text, limits);
  if (!fast) return;
  const auto exact = json::read_exact(text, limits);
  const auto* value = std::get_if<json::Value>(&exact);
  if (value && json::to_text(*value) == json::to_text(*fast)) return;
  std::fprintf(stderr, "json paths: the fast path accepted %s\n",
               value ? "a different tree" : "what the exact path rejects");
  std::abort();
}

void exercise(const Scene& scene) {
  fuzz::check_round_trip(scene);
  for (const auto mode : {IncidenceMode::declared, IncidenceMode::geometric, IncidenceMode::merged})
    count_figure(scene, build_incidence(scene, mode));
  audit_scene(scene);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > (1u << 16)) return 0;
  const SourceFormat format = kFormats[data[0] % std::size(kFormats)];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  Limits limits;
  limits.max_elements = 1000;
  limits.work = {200'000, 5, 1u << 20};
  check_json_paths(text, limits);
  std::vector<Scene> scenes;
  try {
    scenes = read_any(format, text, limits);
  } catch (const InputError&) {
    return 0;
  }
  for (const Scene& scene : scenes) {
    try {
      const WorkBudget budget(limits.work);
      exercise(scene);
    } catch (const InputError&) {  // the work limit
    }
  }
  return 0;
}
