// geotruth audit / merge / filter: the main job over whole datasets.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <geotruth/audit.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "audit/run.hpp"
#include "batch/merge.hpp"
#include "cli/common.hpp"
#include "export/harness_export.hpp"
#include "questions/picture_doubts.hpp"

namespace geotruth::cli {

namespace {

// The picture a dataset's item names itself, relative to the pictures' folder: extra.image_path, or
// an importer's extra.<dataset>.image_path (VisOnlyQA's "images/SyntheticGeometry/….png").
std::optional<std::filesystem::path> named_picture(const Scene& scene, const std::filesystem::path& dir) {
  if (scene.extra.find("image_path") == std::string::npos) return std::nullopt;
  const ordered_json extra = ordered_json::parse(scene.extra, nullptr, false);
  if (!extra.is_object()) return std::nullopt;
  auto try_path = [&](const ordered_json& holder) -> std::optional<std::filesystem::path> {
    if (!holder.is_object() || !holder.contains("image_path") || !holder["image_path"].is_string()) return std::nullopt;
    const std::filesystem::path path = dir / holder["image_path"].get<std::string>();
    if (std::filesystem::is_regular_file(path)) return path;
    return std::nullopt;
  };
  if (auto path = try_path(extra)) return path;
  for (const auto& [key, value] : extra.items())
    if (auto path = try_path(value)) return path;
  return std::nullopt;
}

// The dataset's picture of `scene` under `image` (a file; or a folder, `folder`: the picture the
// item names itself, else by its id or source key), or the error saying what was looked for.
std::variant<std::string, InputError> picture_path(const std::string& image, const PictureFolder* folder,
                                                   const Scene& scene, const std::string& source_key) {
  if (!folder) return image;
  if (auto named = named_picture(scene, image)) return named->string();
  const std::vector<std::string> names{scene.id, source_key};
  if (const auto found = folder->find(names)) return found->string();
  return InputError{
      "", "no picture to read scene \"" + scene.id + "\" from (looked for " + folder->looked_for(names) + ")"};
}

std::shared_ptr<const PictureFolder> folder_of(const std::string& image) {
  return std::filesystem::is_directory(image) ? std::make_shared<const PictureFolder>(image) : nullptr;
}

}  // namespace

PictureReader picture_truths(const std::string& image, const WorkLimits& work) {
  return [image, folder = folder_of(image), work](const Scene& scene, const std::string& source_key) -> SceneOrError {
    const auto path = picture_path(image, folder.get(), scene, source_key);
    if (const auto* error = std::get_if<InputError>(&path)) return *error;
    ImportedScene read = read_picture_file(std::get<std::string>(path), work);
    if (auto* error = std::get_if<InputError>(&read.scene)) return *error;
    Scene out = std::move(std::get<Scene>(read.scene));
    out.id = scene.id;
    out.questions = scene.questions;
    return out;
  };
}

ReadingOverlay reading_overlays(const std::string& image) {
  return [image, folder = folder_of(image), draw = reading_overlay_function()](
             const Scene& item, const Scene& read, const std::string& source_key) -> std::vector<std::uint8_t> {
    const auto path = picture_path(image, folder.get(), item, source_key);
    std::vector<std::uint8_t> png;
    if (const auto* file = std::get_if<std::string>(&path)) draw(*file, read, png);
    return png;
  };
}

void add_truth_from(CLI::App& app, std::string& truth_from) {
  app.add_option("--truth-from", truth_from,
                 "description: truths from each item's description (items without one are read from their picture "
                 "under --image); picture: every item answered from its picture alone, read as import --from "
                 "picture reads it, its description ignored (needs --image)")
      ->check(CLI::IsMember({"description", "picture"}))
      ->capture_default_str();
}

int audit(AuditCommand command, const BandOptions& bands) {
  if (command.truth_from == "picture" && command.image_dir.empty())
    throw CLI::ValidationError("--truth-from", "picture needs the pictures: give --image DIR");
  AuditOptions options;
  RunBands run = resolve_bands(bands, command.in, std::cerr);
  if (command.truth_from == "picture" && run.bands.source != "option")
    std::cerr << "bands of the truths read from the pictures: each picture's own, from its strokes' width and wobble "
                 "(scenes.jsonl gives each)\n";
  options.inputs = command.in.inputs;
  options.format = command.in.format();
  options.limits = command.in.limits;
  options.bands = std::move(run.bands);
  options.evidence = std::move(run.evidence);
  options.out_dir = command.output;
  options.image_dir = command.image_dir;
  if (!command.image_dir.empty()) {
    options.pictures = picture_check(command.image_dir, options.bands, command.max_image_pixels);
    options.read_pictures = picture_truths(command.image_dir, command.in.limits.work);
    options.reading_overlays = reading_overlays(command.image_dir);
    options.truth_from_picture = command.truth_from == "picture";
  }
  options.resume = command.batch.resume;
  options.shard = command.batch.parsed();
  options.threads = command.threads;
  options.checkpoint_every = command.batch.checkpoint_every;
  options.checkpoint_seconds = command.batch.checkpoint_seconds;
  options.progress = !command.no_progress && ::isatty(STDERR_FILENO);
  const AuditTotals totals = run_audit(options, std::cerr);
  print_summary(command.output, std::cout);
  return totals.errors ? kRecordErrors : kOk;
}

int merge(const MergeCommand& command) {
  MergeTargets targets{command.output, {}};
  if (!command.records.empty()) targets.options["records"] = command.records;
  if (!command.overlay.empty()) targets.options["overlay"] = command.overlay;
  if (!command.render.empty()) targets.options["render"] = command.render;
  const MergeResult merged = merge_runs(command.shards, targets, [&](const MergeResult& result) {
    if (result.subcommand == "audit") finalize_audit(command.output, command.image_dir);
    if (result.subcommand == "generate" && result.options.value("format", std::string()) == "gepbench")
      write_engine_files(command.output, result.options, command.render);
  });
  std::cerr << "merge: " << merged.shards << " shards of " << merged.subcommand << " (" << merged.ordinals
            << " records, " << merged.totals.errors << " errors";
  if (merged.pictures) std::cerr << ", " << merged.pictures << " pictures";
  std::cerr << ") -> " << command.output << "\n";
  if (merged.subcommand == "audit") print_summary(command.output, std::cout);
  return kOk;
}

int filter(FilterCommand command, const BandOptions& band_options) {
  const bool harness = command.format != "native";
  if (harness && command.image_dir.empty()) {
    std::cerr << "geotruth filter: --format " << command.format
              << " writes each kept item's picture: give the dataset's pictures with --image DIR\n";
    return kUsage;
  }
  if (command.truth_from == "picture" && command.image_dir.empty())
    throw CLI::ValidationError("--truth-from", "picture needs the pictures: give --image DIR");
  const RunBands run = resolve_bands(band_options, command.in, std::cerr);
  PictureCheck pictures;
  PictureReader read_pictures;
  if (!command.image_dir.empty()) {
    pictures = picture_check(command.image_dir, run.bands, command.max_image_pixels);
    read_pictures = picture_truths(command.image_dir, command.in.limits.work);
  }
  // The clean items: native lines, or a harness's layout (export).
  std::unique_ptr<Output> keep;
  std::unique_ptr<HarnessWriter> writer;
  if (harness)
    writer = std::make_unique<HarnessWriter>(
        HarnessOptions{*harness_format_named(command.format), command.keep, command.name});
  else
    keep = std::make_unique<Output>(command.keep);
  Output reject(command.reject);
  RecordStream stream(command.in.inputs, command.in.format(), command.in.limits);
  std::size_t kept = 0, rejected = 0, errors = 0;
  StreamItem item;
  while (stream.next(item)) {
    const SceneOrError parsed = scene_of(item, command.in.limits);
    if (const auto* error = std::get_if<InputError>(&parsed)) {
      reject.stream() << to_line(error_record(item.raw, *error)) << '\n';
      ++errors;
      continue;
    }
    const Scene& described = std::get<Scene>(parsed);
    const SceneOrError for_truth =
        scene_for_truth(described, item.raw.key, &read_pictures, command.truth_from == "picture");
    if (const auto* error = std::get_if<InputError>(&for_truth)) {
      reject.stream() << to_line(error_record(item.raw, *error)) << '\n';
      ++errors;
      continue;
    }
    const Scene& scene = std::get<Scene>(for_truth);
    // A scene read from its picture is not checked against it; a harness still needs the picture.
    const bool judge_picture = !read_from_picture(scene);
    std::optional<PictureEvidence> picture;
    if (pictures && (judge_picture || writer)) picture = pictures(scene, item.raw.key);
    const SceneAudit audit = audit_scene(scene, run.bands, {.picture = picture && judge_picture ? &*picture : nullptr});
    ordered_json reasons = ordered_json::array();
    for (const auto& v : audit.verdicts) {
      const bool bad = command.policy == "strict" ? v.verdict != Verdict::ok
                                                  : v.verdict == Verdict::wrong || v.verdict == Verdict::invalid;
      if (!bad) continue;
      ordered_json why = ordered_json::array();
      for (const auto& r : v.reasons) why.push_back({{"kind", r.kind}, {"detail", r.detail}});
      reasons.push_back({{"question", v.question}, {"verdict", verdict_name(v.verdict)}, {"reasons", why}});
    }
    if (reasons.empty() && writer && picture->image.empty())  // a harness needs the picture
      reasons.push_back({{"picture", picture->findings.empty() ? "no picture" : picture->findings.front().detail}});
    if (reasons.empty() && writer) {
      try {
        writer->add(scene, audit, picture->image);
      } catch (const InputError& e) {
        reasons.push_back({{"picture", e.message}});
      }
    } else if (reasons.empty()) {  // native lines are kept byte for byte; imported scenes in normalized form
      keep->stream() << (item.imported || !item.picture.empty() ? write_scene(described) : item.raw.text) << '\n';
    }
    if (reasons.empty()) {
      ++kept;
    } else {
      ordered_json record{
          {"line", item.raw.line}, {"id", scene.id}, {"reasons", reasons}, {"scene", scene_json(scene)}};
      reject.stream() << to_line(record) << '\n';
      ++rejected;
    }
  }
  if (writer)
    finish_harness(*writer, "filter");
  else if (!keep->commit())
    return kUsage;
  if (!reject.commit()) return kUsage;
  std::cerr << "filter (" << command.policy << "): " << kept << " kept, " << rejected << " rejected, " << errors
            << " unreadable\n";
  return errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
