// geotruth audit / merge / filter: the main job over whole datasets.
#include <unistd.h>

#include <cstdlib>
#include <geotruth/audit.hpp>
#include <iostream>

#include "audit/run.hpp"
#include "batch/merge.hpp"
#include "cli/common.hpp"
#include "export/harness_export.hpp"

namespace geotruth::cli {

int audit(AuditCommand command, const BandOptions& bands) {
  AuditOptions options;
  RunBands run = resolve_bands(bands, command.in, std::cerr);
  options.inputs = command.in.inputs;
  options.format = command.in.format();
  options.limits = command.in.limits;
  options.bands = std::move(run.bands);
  options.evidence = std::move(run.evidence);
  options.out_dir = command.output;
  options.image_dir = command.image_dir;
  if (!command.image_dir.empty())
    options.pictures = picture_check(command.image_dir, options.bands, command.max_image_pixels);
  options.resume = command.batch.resume;
  options.shard = command.batch.parsed();
  options.threads = command.threads;
  options.checkpoint_every = command.batch.checkpoint_every;
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
  const RunBands run = resolve_bands(band_options, command.in, std::cerr);
  PictureCheck pictures;
  if (!command.image_dir.empty()) pictures = picture_check(command.image_dir, run.bands, command.max_image_pixels);
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
    const Scene& scene = std::get<Scene>(parsed);
    std::optional<PictureEvidence> picture;
    if (pictures) picture = pictures(scene, item.raw.key);
    const SceneAudit audit = audit_scene(scene, run.bands, {.picture = picture ? &*picture : nullptr});
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
      keep->stream() << (item.imported ? write_scene(scene) : item.raw.text) << '\n';
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
