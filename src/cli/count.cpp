// geotruth count: Tangram counts per scene (letters, circles, segments, triangles formed by letters).
#include <cstdio>
#include <iostream>
#include <map>

#include "cli/common.hpp"

namespace geotruth::cli {

int count(CountCommand command, const FigureOptions& figure) {
  const RunBands run = resolve_bands(figure.bands, command.in, std::cerr);
  const Bands& bands = run.bands;
  RecordsOutput out({"count",
                     command.output,
                     "",
                     {{"mode", figure.mode},
                      {"bands", bands_json(bands)},
                      {"any_vertex", command.any_vertex},
                      {"quadrilaterals", command.quadrilaterals},
                      {"list", command.list}},
                     {}},
                    command.in, command.batch);
  if (out.complete()) return out.totals({}).errors ? kRecordErrors : kOk;
  const CountOptions options{command.any_vertex, command.quadrilaterals, command.list};
  std::map<std::string, std::size_t> by_difficulty;
  std::size_t scenes = 0, conflicts = 0, doubtful = 0;
  if (command.table)
    std::fprintf(stderr, "%-48s %7s %7s %8s %9s %5s  %-10s %s\n", "scene", "letters", "circles", "segments",
                 "triangles", "total", "difficulty", "conflicts");
  const BatchStats stats = run_records(
      command.in,
      [&](const Scene& scene, const RawRecord& record) {
        const ordered_json result =
            with_place(scene, record, count_record(scene, bands, figure.incidence_mode(), options, record.notes));
        const std::string difficulty = result["difficulty"];
        ++scenes;
        ++by_difficulty[difficulty];
        conflicts += result["conflicts"].size();
        doubtful += result["doubtful"].size();
        if (command.table)
          std::fprintf(stderr, "%-48s %7zu %7zu %8zu %9zu %5zu  %-10s %zu\n", scene.id.substr(0, 48).c_str(),
                       result["letters"].get<std::size_t>(), result["circles"].get<std::size_t>(),
                       result["segments"].get<std::size_t>(), result["triangles"].get<std::size_t>(),
                       result["total"].get<std::size_t>(), difficulty.c_str(), result["conflicts"].size());
        return result;
      },
      out.stream(), std::cerr, out.plan());
  if (!out.finish(stats)) return kUsage;
  std::cerr << "count (" << figure.mode << "): " << stats.records << " records, " << scenes << " scenes ("
            << by_difficulty["Easy"] << " Easy, " << by_difficulty["Medium"] << " Medium, " << by_difficulty["Hard"]
            << " Hard), " << stats.errors << " errors, " << conflicts << " conflicts, " << doubtful << " doubtful\n";
  return out.totals(stats).errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
