// geotruth import: another dataset's format → native scenes (JSONL), importer notes under "extra".
#include <iostream>

#include "cli/common.hpp"

namespace geotruth::cli {

int import_scenes(const InputOptions& in, const std::string& output) {
  Output out(output);
  std::size_t notes = 0;
  const BatchStats stats = run_batch(
      in.inputs, in.format(), in.limits,
      [&](const Scene& scene, const RawRecord& record) {
        notes += record.notes.size();
        return import_record(scene, in.from, record.notes);
      },
      out.stream(), std::cerr);
  if (!out.commit()) return kUsage;
  std::cerr << "import (" << in.from << "): " << stats.records << " records, " << stats.records - stats.errors
            << " scenes, " << stats.errors << " errors, " << notes << " importer notes\n";
  return stats.errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
