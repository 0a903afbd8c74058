// geotruth generate: synthetic items on every core (TBB), written in item order. Tangram and
// GePBench items are certified (generate_item); with --render each picture is drawn, encoded and
// cross-checked in the vision module, and a candidate whose picture disagrees is rejected too.
// Sharded and resumed as every batch subcommand (RecordsOutput): one line per item. With --format
// gepbench that line is the item's record in DIR/.items.jsonl, and the engine's files (whose image
// ids count the items made before) are written from it once the run is complete, by the run or by
// merge (write_engine_files).
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include <geotruth/generate.hpp>
#include <geotruth/input.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "audit/run.hpp"
#include "batch/files.hpp"
#include "batch/pictures.hpp"
#include "batch/shard.hpp"
#include "cli/common.hpp"
#include "export/harness_export.hpp"

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

// The item's line of DIR/.items.jsonl: its native scene line, its rules.json element and its VQA
// rows, each as the text the engine's files get.
std::string item_record(const GeneratedItem& item) {
  ordered_json rows = ordered_json::array();
  for (const auto& q : item.engine_questions) rows.push_back({{"aspect", q.aspect}, {"row", engine_row_members(q)}});
  return ordered_json{
      {"id", item.scene.id}, {"scene", write_scene(item.scene)}, {"rules", item.engine_rules}, {"rows", rows}}
      .dump();
}

std::string picture_extension(const ordered_json& options) {
  return options.value("image_format", std::string("png")) == "jpeg" ? ".jpg" : ".png";
}

// An item's picture while its run (or shard) is going: named by the item's scene id, unique across
// shards; write_engine_files gives it the engine's name at the end.
std::string item_picture_name(const std::string& id, const ordered_json& options) {
  return picture_stem(id, 0) + picture_extension(options);
}

}  // namespace

void write_engine_files(const fs::path& dir, const ordered_json& options, const std::string& render_dir) {
  std::ifstream items(dir / ".items.jsonl", std::ios::binary);
  if (!items) throw std::runtime_error((dir / ".items.jsonl").string() + " is missing");
  fs::create_directories(dir / "vqa");
  AtomicFile scenes(dir / "scenes.jsonl"), rules(dir / "rules.json"), vqa(dir / "vqa.jsonl");
  std::map<std::string, std::unique_ptr<AtomicFile>> by_aspect;
  for (const char* aspect : kAspects)
    by_aspect[aspect] = std::make_unique<AtomicFile>(dir / "vqa" / (std::string(aspect) + ".jsonl"));
  const std::string prefix =
      options.value("level", std::string()).empty() ? "easy" : options["level"].get<std::string>();
  const std::string extension = picture_extension(options);
  std::vector<std::pair<fs::path, fs::path>> renames;
  rules.stream() << "[";
  std::size_t image_id = 0;
  std::string line;
  while (std::getline(items, line)) {
    if (line.empty()) continue;
    const ordered_json item = ordered_json::parse(line);
    if (item.contains("error")) {  // an item without a certified candidate: no rules element
      scenes.stream() << line << '\n';
      continue;
    }
    scenes.stream() << item["scene"].get<std::string>() << '\n';
    rules.stream() << (image_id ? ",\n" : "\n") << item["rules"].get<std::string>();
    const std::string head = "{\"image_id\": " + std::to_string(image_id) + ", ";
    for (const auto& row : item["rows"]) {
      const std::string aspect = row["aspect"], tail = row["row"];
      vqa.stream() << head << tail << ", \"aspect\": \"" << aspect << "\"}\n";
      by_aspect.at(aspect)->stream() << head << tail << "}\n";
    }
    if (!render_dir.empty())
      renames.emplace_back(fs::path(render_dir) / item_picture_name(item["id"], options),
                           fs::path(render_dir) / engine_image_name(prefix, image_id, extension));
    ++image_id;
  }
  rules.stream() << "\n]\n";
  scenes.commit(), rules.commit(), vqa.commit();
  for (auto& [_, out] : by_aspect) out->commit();
  // Pictures were named by their item while the run (or its shards) made them. A second pass after
  // an interruption finds some renamed already.
  for (const auto& [from, to] : renames) {
    if (fs::exists(from))
      fs::rename(from, to);
    else if (!fs::exists(to))
      throw std::runtime_error(from.string() + " is missing (the picture of an item in " +
                               (dir / ".items.jsonl").string() + ")");
  }
}

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
  const std::optional<HarnessFormat> harness = harness_format_named(command.format);
  if (harness && command.output.empty()) {
    std::cerr << "geotruth generate: --format " << command.format << " needs -o DIR (it writes the layout there, with "
              << "the items as DIR/scenes.jsonl)\n";
    return kUsage;
  }
  if (harness && !command.batch.parsed().whole()) {
    std::cerr << "geotruth generate: --format " << command.format << " writes a whole run: generate the shards "
              << "natively, merge them, then geotruth export\n";
    return kUsage;
  }
  if (command.format == "gepbench" && command.output.empty()) {
    std::cerr << "geotruth generate: --format gepbench needs -o DIR (it writes DIR/scenes.jsonl, DIR/rules.json, "
                 "DIR/vqa.jsonl and DIR/vqa/<aspect>.jsonl)\n";
    return kUsage;
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

  // Pictures: drawn and cross-checked in the vision module, on every thread. A harness's layout
  // needs them: without --render, in a folder of the output removed once the layout is written.
  const std::string render_dir =
      harness && command.render_dir.empty() ? (fs::path(command.output) / ".pictures").string() : command.render_dir;
  DrawAndCheckFunction* draw_and_check_picture = nullptr;
  PictureRequest request;
  if (!render_dir.empty()) {
    draw_and_check_picture = draw_and_check();
    PictureOptions picture = command.picture;
    picture.seed = command.seed;  // the noise of each picture follows from the run's seed and the item's id
    request.render = picture.options(options.bands);
    request.check.bands = options.bands;
    request.format = command.image_format == "jpeg" ? vision::ImageFormat::jpeg : vision::ImageFormat::png;
    request.quality = command.quality;
    fs::create_directories(render_dir);
  }

  // One line per item: the native scene (or its error line), or with --format gepbench the item's
  // record, from which the engine's files are written at the end. Pictures are named by their item.
  const bool engine = command.format == "gepbench";
  ordered_json run_options = {{"family", command.family},
                              {"level", command.level},
                              {"count", command.count},
                              {"seed", command.seed},
                              {"grid", command.grid},
                              {"max_attempts", command.max_attempts},
                              {"format", command.format},
                              {"bands", bands_json(options.bands)},
                              {"image_format", command.image_format},
                              {"quality", command.quality},
                              {"picture", render_dir.empty() ? ordered_json() : command.picture.json()}};
  if (engine || harness) fs::create_directories(command.output);
  std::vector<RunPictures> pictures;
  if (!render_dir.empty()) pictures.push_back({render_dir, 0, "", "render"});
  RecordsOutput out({"generate",
                     engine    ? (fs::path(command.output) / ".items.jsonl").string()
                     : harness ? (fs::path(command.output) / "scenes.jsonl").string()
                               : command.output,
                     engine || harness ? command.output : "",
                     run_options,
                     pictures,
                     {}},
                    command.batch);
  const Shard shard = command.batch.parsed();
  // The engine's files need every item: a shard leaves them to merge.
  auto finish_engine = [&]() -> bool {
    if (!engine) return true;
    if (!shard.whole()) {
      std::cerr << "generate: shard " << shard.text() << ": the engine's files (rules.json, vqa.jsonl, pictures "
                << "by image id) are written by merge\n";
      return true;
    }
    try {
      write_engine_files(command.output, run_options, command.render_dir);
    } catch (const std::exception& e) {
      std::cerr << "geotruth generate: " << e.what() << '\n';
      return false;
    }
    return true;
  };
  // A harness's layout: the items audited again (for their verdicts) and written with their pictures.
  auto finish_harness_layout = [&]() -> bool {
    if (!harness) return true;
    try {
      HarnessWriter writer({*harness, command.output, command.name});
      const PictureFolder folder(render_dir);
      std::ifstream items(fs::path(command.output) / "scenes.jsonl", std::ios::binary);
      for (std::string line; std::getline(items, line);) {
        const SceneOrError parsed = read_scene(line);
        const Scene* scene = std::get_if<Scene>(&parsed);
        if (!scene) continue;  // an item without a certified candidate (its error line)
        const auto picture = folder.find({scene->id});
        if (!picture) throw std::runtime_error("the picture of item " + scene->id + " is missing in " + render_dir);
        writer.add(*scene, audit_scene(*scene, options.bands), *picture);
      }
      finish_harness(writer, "generate");
      if (command.render_dir.empty()) fs::remove_all(render_dir);
    } catch (const std::exception& e) {
      std::cerr << "geotruth generate: " << e.what() << '\n';
      return false;
    } catch (const InputError& e) {  // a picture that cannot be read
      std::cerr << "geotruth generate: " << e.message << '\n';
      return false;
    }
    return true;
  };
  if (out.complete())
    return finish_engine() && finish_harness_layout() ? (out.totals({}).errors ? kRecordErrors : kOk) : kUsage;
  const BatchPlan plan = out.plan();

  std::optional<tbb::global_control> parallelism;
  if (command.threads > 0) parallelism.emplace(tbb::global_control::max_allowed_parallelism, command.threads);
  const auto started = std::chrono::steady_clock::now();
  std::map<std::string, std::size_t> rejected, dropped;
  std::size_t made = 0, errors = 0, candidates = 0, images = 0;
  std::uint64_t next = plan.after;  // ordinals handed out so far

  // Items in flight: an item whose candidates are rejected many times holds up the in-order writer,
  // and the other threads go on with the items after it only while tokens are left (4 a thread,
  // and 4 in all by default, had them wait).
  const auto tokens = static_cast<std::size_t>(16 * tbb::this_task_arena::max_concurrency());
  tbb::parallel_pipeline(
      tokens,
      tbb::make_filter<void, Work*>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control& control) -> Work* {
        while (next < command.count && !plan.takes(next + 1)) ++next;
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
          out.stream()
              << ordered_json{{"line", work->ordinal}, {"error", {{"pointer", ""}, {"message", *item.error}}}}.dump()
              << '\n';
          std::cerr << "generate: item " << work->ordinal << ": " << *item.error << '\n';
        } else {
          out.stream() << (engine ? item_record(item) : write_scene(item.scene)) << '\n';
          ++made;
          if (draw_and_check_picture) {
            write_atomically(fs::path(render_dir) / item_picture_name(item.scene.id, run_options),
                             {reinterpret_cast<const char*>(work->picture.bytes.data()), work->picture.bytes.size()});
            ++images;
          }
        }
        if (plan.written) plan.written(work->ordinal, item.error.has_value());
      }));
  BatchStats stats;
  stats.records = made + errors, stats.errors = errors, stats.ordinals = command.count;
  if (!out.finish(stats) || !finish_engine() || !finish_harness_layout()) return kUsage;

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "generate: " << made << " " << command.family << (command.level.empty() ? "" : " " + command.level)
            << " items (seed " << command.seed << (shard.whole() ? "" : ", shard " + shard.text()) << ") from "
            << candidates << " candidates in " << seconds << " s";
  if (images) std::cerr << ", " << images << " pictures in " << render_dir;
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
  return out.totals(stats).errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
