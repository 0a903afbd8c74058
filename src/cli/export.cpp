// geotruth export: a dataset with geotruth's verdicts in a harness's layout (src/export/). Reading,
// cross-checking each picture and auditing run on every core; the rows are written in input order.
#include <geotruth/audit.hpp>

#include <filesystem>
#include <iostream>

#include "cli/common.hpp"
#include "export/harness_export.hpp"

namespace geotruth::cli {

namespace fs = std::filesystem;

void finish_harness(HarnessWriter& writer, const std::string& subcommand) {
  writer.finish();
  const HarnessOptions& o = writer.options();
  const char* layout = o.format == HarnessFormat::hf           ? "metadata.jsonl and images/"
                       : o.format == HarnessFormat::vlmevalkit ? ".tsv"
                                                               : ".yaml, utils.py and data/";
  std::cerr << subcommand << ": " << writer.rows() << " questions of " << writer.scenes() << " scenes -> "
            << o.out.string() << " (" << o.name << ": " << layout << ")\n";
}

int export_dataset(ExportCommand command, const BandOptions& band_options) {
  const RunBands run = resolve_bands(band_options, command.in, std::cerr);
  const PictureCheck pictures = picture_check(command.image_dir, run.bands, command.max_image_pixels);
  HarnessWriter writer({*harness_format_named(command.format), command.output, command.name});
  Output records(command.records);
  const BatchStats stats = run_batch_parallel(
      command.in.inputs, command.in.format(), command.in.limits, command.threads,
      [&](const Scene& scene, const RawRecord& record) -> RecordStep {
        auto picture = std::make_shared<PictureEvidence>(pictures(scene, record.key));
        if (picture->image.empty())
          throw InputError{"", picture->findings.empty() ? "no picture" : picture->findings.front().detail};
        auto audit = std::make_shared<SceneAudit>(audit_scene(scene, run.bands, {.picture = picture.get()}));
        return [&, picture, audit, scene, result = record_head(scene, record)]() mutable {
          writer.add(scene, *audit, picture->image);
          result["questions"] = scene.questions.size();
          result["image"] = picture->image;
          return result;
        };
      },
      records.stream(), std::cerr);
  finish_harness(writer, "export");
  if (!records.commit()) return kUsage;
  return stats.errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
