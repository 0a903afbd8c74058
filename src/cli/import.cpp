// geotruth import: another dataset's format → native scenes (JSONL), importer notes under "extra".
#include <iostream>

#include "cli/common.hpp"
#include "cli/records.hpp"

namespace geotruth::cli {

int import_scenes(const InputOptions& in, const std::string& output) {
  Output out(output);
  std::size_t notes = 0;
  const BatchStats stats = run_batch(
      in.inputs, in.format(), in.limits,
      [&](const Scene& scene, const RawRecord& record) {
        // The dataset's name travels with the scene: later runs pick its band (docs/design.md).
        ordered_json result = scene_json(scene);
        ordered_json& extra = result["extra"];
        if (!extra.is_object()) extra = ordered_json::object();
        extra["dataset"] = in.from;
        if (!record.notes.empty()) {
          extra["import_notes"] = import_notes_json(record.notes);
          notes += record.notes.size();
        }
        return result;
      },
      out.stream(), std::cerr);
  if (!out.commit()) return kUsage;
  std::cerr << "import (" << in.from << "): " << stats.records << " records, " << stats.records - stats.errors
            << " scenes, " << stats.errors << " errors, " << notes << " importer notes\n";
  return stats.errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
