// geotruth generate: synthetic items on every core (TBB), written in item order. Tangram and
// GePBench items are certified (generate_item); with --render each picture is drawn, encoded and
// cross-checked in the vision module, and a candidate whose picture disagrees is rejected too.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_pipeline.h>

#include <geotruth/generate.hpp>
#include <geotruth/input.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include "audit/run.hpp"
#include "batch/shard.hpp"
#include "cli/common.hpp"

namespace geotruth::cli {
namespace {

namespace fs = std::filesystem;

const char* const kAspects[] = {"existence", "counting", "size", "location", "reference", "relation"};

struct Work {
  std::uint64_t ordinal = 0;  // 1-based, in the whole run
  GeneratedItem item;
  PictureVerdict picture;
};

// The engine's name for image `id` (common/args.py figure_name "{prefix}_{id:08d}.jpg").
std::string engine_image_name(const std::string& prefix, std::size_t id, const std::string& extension) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%08zu", id);
  return prefix + "_" + digits + extension;
}

std::string engine_row(std::size_t image_id, const EngineQuestion& q, bool with_aspect) {
  std::string row = "{\"image_id\": " + std::to_string(image_id) +
                    ", \"question_id\": " + std::to_string(q.question_id) +
                    ", \"question\": " + ordered_json(q.question).dump() + ", \"choices\": [";
  for (std::size_t i = 0; i < q.choices.size(); ++i) row += (i ? ", " : "") + q.choices[i];
  row += "], \"answer\": " + q.answer;
  if (with_aspect) row += ", \"aspect\": \"" + q.aspect + "\"";
  return row + "}";
}

}  // namespace

int generate(const GenerateCommand& command, const BandOptions& band_options) {
  if (!known_level(command.family, command.level)) {
    std::cerr << "geotruth generate: --level " << command.level << " does not apply to --family " << command.family
              << " (gepbench: easy, hard; tangram: easy, medium, hard; diagram: none)\n";
    return kUsage;
  }
  if (command.format == "gepbench" && command.family != "gepbench") {
    std::cerr << "geotruth generate: --format gepbench writes GePBench items: use it with --family gepbench\n";
    return kUsage;
  }
  if (command.format == "gepbench" && command.output.empty()) {
    std::cerr << "geotruth generate: --format gepbench needs -o DIR (it writes DIR/scenes.jsonl, DIR/rules.json, "
                 "DIR/vqa.jsonl and DIR/vqa/<aspect>.jsonl)\n";
    return kUsage;
  }
  Shard shard;
  if (!command.shard.empty()) {
    const auto parsed = parse_shard(command.shard);
    if (!parsed) {
      std::cerr << "geotruth generate: --shard " << command.shard << ": expected i/n with 0 <= i < n\n";
      return kUsage;
    }
    shard = *parsed;
  }

  GenerateOptions options;
  options.family = command.family;
  options.level = command.level;
  options.grid = command.grid;
  options.max_attempts = command.max_attempts;
  options.bands = command.family == "gepbench" ? dataset_bands("gepbench") : Bands{};
  if (band_options.eps_num) options.bands.eps_num_px = *band_options.eps_num, options.bands.source = "option";
  if (band_options.eps_vis) options.bands.eps_vis_px = *band_options.eps_vis, options.bands.source = "option";
  options.bands.render_size_px = command.picture.size > 0 ? command.picture.size : band_options.render_size;

  // Pictures: drawn and cross-checked in the vision module, on every thread.
  DrawAndCheckFunction* draw_and_check_picture = nullptr;
  PictureRequest request;
  const bool jpeg = command.image_format == "jpeg";
  if (!command.render_dir.empty()) {
    draw_and_check_picture = draw_and_check();
    PictureOptions picture = command.picture;
    picture.seed = command.seed;  // the noise of each picture follows from the run's seed and the item's id
    request.render = picture.options(options.bands);
    request.check.bands = options.bands;
    request.format = jpeg ? vision::ImageFormat::jpeg : vision::ImageFormat::png;
    request.quality = command.quality;
    fs::create_directories(command.render_dir);
  }

  // Outputs: native scenes; with --format gepbench also the engine's rules and VQA files.
  const bool engine = command.format == "gepbench";
  const fs::path dir = engine ? fs::path(command.output) : fs::path();
  std::unique_ptr<Output> scenes, rules, vqa;
  std::map<std::string, std::unique_ptr<Output>> by_aspect;
  if (engine) {
    fs::create_directories(dir / "vqa");
    scenes = std::make_unique<Output>((dir / "scenes.jsonl").string());
    rules = std::make_unique<Output>((dir / "rules.json").string());
    vqa = std::make_unique<Output>((dir / "vqa.jsonl").string());
    for (const char* aspect : kAspects)
      by_aspect[aspect] = std::make_unique<Output>((dir / "vqa" / (std::string(aspect) + ".jsonl")).string());
    rules->stream() << "[";
  } else {
    scenes = std::make_unique<Output>(command.output);
  }
  std::map<std::string, std::size_t> written_rows;  // per aspect: JSONL rows need no separators

  std::optional<tbb::global_control> parallelism;
  if (command.threads > 0) parallelism.emplace(tbb::global_control::max_allowed_parallelism, command.threads);
  const auto started = std::chrono::steady_clock::now();
  std::map<std::string, std::size_t> rejected, dropped;
  std::size_t made = 0, errors = 0, candidates = 0, images = 0;
  std::uint64_t next = 0;  // ordinals handed out so far
  const std::string prefix = command.level.empty() ? "easy" : command.level;

  tbb::parallel_pipeline(
      static_cast<std::size_t>(std::max(4, 4 * command.threads)),
      tbb::make_filter<void, Work*>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control& control) -> Work* {
        while (next < command.count && !shard.keeps(next + 1)) ++next;
        if (next >= command.count) {
          control.stop();
          return nullptr;
        }
        auto* work = new Work;
        work->ordinal = ++next;
        return work;
      }) & tbb::make_filter<Work*, Work*>(tbb::filter_mode::parallel, [&](Work* work) {
        CandidateCheck picture;
        if (draw_and_check_picture)
          picture = [&, work](const Scene& scene) -> std::string {
            draw_and_check_picture(scene, request, work->picture);
            if (work->picture.agree) return "";
            std::string kinds;
            for (const auto& r : work->picture.reasons)
              if (kinds.find(r) == std::string::npos) kinds += (kinds.empty() ? "" : ", ") + r;
            return "picture: " + kinds;
          };
        work->item = generate_item(options, command.seed, work->ordinal, picture);
        // Diagrams are not certified: their pictures are drawn and kept whatever the check says.
        if (draw_and_check_picture && !work->item.error && work->picture.bytes.empty())
          draw_and_check_picture(work->item.scene, request, work->picture);
        return work;
      }) & tbb::make_filter<Work*, void>(tbb::filter_mode::serial_in_order, [&](Work* work) {
        std::unique_ptr<Work> owned(work);
        const GeneratedItem& item = work->item;
        for (const auto& [reason, n] : item.rejected) rejected[reason] += n;
        for (const auto& [reason, n] : item.dropped) dropped[reason] += n;
        candidates += item.attempts;
        if (item.error) {
          ++errors;
          scenes->stream()
              << ordered_json{{"line", work->ordinal}, {"error", {{"pointer", ""}, {"message", *item.error}}}}.dump()
              << '\n';
          std::cerr << "generate: item " << work->ordinal << ": " << *item.error << '\n';
          return;
        }
        scenes->stream() << write_scene(item.scene) << '\n';
        const std::size_t image_id = made++;
        if (engine) {
          rules->stream() << (image_id ? ",\n" : "\n") << item.engine_rules;
          for (const auto& q : item.engine_questions) {
            vqa->stream() << engine_row(image_id, q, true) << '\n';
            by_aspect[q.aspect]->stream() << engine_row(image_id, q, false) << '\n';
          }
        }
        if (draw_and_check_picture) {
          const std::string extension = jpeg ? ".jpg" : ".png";
          const std::string name = engine ? engine_image_name(prefix, image_id, extension) : item.scene.id + extension;
          write_atomically((fs::path(command.render_dir) / name).string(),
                           {reinterpret_cast<const char*>(work->picture.bytes.data()), work->picture.bytes.size()});
          ++images;
        }
      }));
  if (engine) rules->stream() << "\n]\n";
  bool written = scenes->commit();
  if (engine) {
    written = rules->commit() && written;
    written = vqa->commit() && written;
    for (auto& [_, out] : by_aspect) written = out->commit() && written;
  }
  if (!written) return kUsage;

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "generate: " << made << " " << command.family << (command.level.empty() ? "" : " " + command.level)
            << " items (seed " << command.seed << (shard.whole() ? "" : ", shard " + shard.text()) << ") from "
            << candidates << " candidates in " << seconds << " s";
  if (images) std::cerr << ", " << images << " pictures in " << command.render_dir;
  std::cerr << '\n';
  auto table = [](const char* title, const std::map<std::string, std::size_t>& counts) {
    if (counts.empty()) return;
    std::vector<std::pair<std::size_t, std::string>> rows;
    for (const auto& [reason, n] : counts) rows.emplace_back(n, reason);
    std::sort(rows.rbegin(), rows.rend());
    std::cerr << title << '\n';
    for (const auto& [n, reason] : rows) std::cerr << "  " << n << "  " << reason << '\n';
  };
  table("rejected candidates by reason:", rejected);
  table("questions not certified (not asked) by reason:", dropped);
  return errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
