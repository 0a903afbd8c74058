// geotruth import: another dataset's format → native scenes (JSONL), importer notes under "extra".
#include <filesystem>
#include <iostream>

#include "cli/common.hpp"

namespace geotruth::cli {

int import_scenes(const InputOptions& in, const BatchOptions& batch, const std::string& output,
                  const std::string& overlay_dir) {
  RecordsOutput out({"import", output, "", ordered_json::object(), {}}, in, batch);
  if (out.complete()) return out.totals({}).errors ? kRecordErrors : kOk;
#ifdef GEOTRUTH_PARALLEL  // pictures are read only here (cli/subcommands.cpp runs this executable for them)
  if (!overlay_dir.empty()) {
    std::filesystem::create_directories(overlay_dir);
    set_picture_reader(lazy_picture_reader(64ull << 20, overlay_dir));  // the default limit, as main_parallel's
  }
#else
  (void)overlay_dir;  // geotruth runs geotruth-parallel whenever it reads pictures
#endif
  std::size_t notes = 0;
  const BatchStats stats = run_records(
      in,
      [&](const Scene& scene, const RawRecord& record) {
        notes += record.notes.size();
        return import_record(scene, in.from, record.notes);
      },
      out.stream(), std::cerr, out.plan());
  if (!out.finish(stats)) return kUsage;
  std::cerr << "import (" << in.from << "): " << stats.records << " records, " << stats.records - stats.errors
            << " scenes, " << stats.errors << " errors, " << notes << " importer notes\n";
  return out.totals(stats).errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
