// geotruth count: Tangram counts per scene (letters, circles, segments, triangles formed by letters).
#include <cstdio>
#include <iostream>
#include <map>

#include "cli/common.hpp"
#include "cli/records.hpp"

namespace geotruth::cli {

int count(CountCommand command, const FigureOptions& figure) {
  const RunBands run = resolve_bands(figure.bands, command.in, std::cerr);
  const Bands& bands = run.bands;
  Output out(command.output);
  const CountOptions options{command.any_vertex, command.quadrilaterals};
  std::map<std::string, std::size_t> by_difficulty;
  std::size_t scenes = 0, conflicts = 0, doubtful = 0;
  if (command.table)
    std::fprintf(stderr, "%-48s %7s %7s %8s %9s %5s  %-10s %s\n", "scene", "letters", "circles", "segments",
                 "triangles", "total", "difficulty", "conflicts");
  const BatchStats stats = run_batch(
      command.in.inputs, command.in.format(), command.in.limits,
      [&](const Scene& scene, const RawRecord& record) {
        const Incidence incidence = build_incidence(scene, figure.incidence_mode(), bands);
        const TangramCounts counts = count_figure(scene, incidence, options);
        ordered_json result = record_head(scene, record);
        result.update(counts_json(counts));
        result["mode"] = mode_name(incidence.mode);
        result["bands"] = bands_json(bands);
        std::vector<Finding> findings = incidence.findings;
        findings.insert(findings.end(), counts.findings.begin(), counts.findings.end());
        add_findings(result, findings, record);
        ++scenes;
        ++by_difficulty[counts.difficulty];
        conflicts += result["conflicts"].size();
        doubtful += result["doubtful"].size();
        if (command.table)
          std::fprintf(stderr, "%-48s %7zu %7zu %8zu %9zu %5zu  %-10s %zu\n", scene.id.substr(0, 48).c_str(),
                       counts.letters, counts.circles, counts.segments, counts.triangles, counts.total,
                       counts.difficulty.c_str(), result["conflicts"].size());
        return result;
      },
      out.stream(), std::cerr);
  if (!out.commit()) return kUsage;
  std::cerr << "count (" << figure.mode << "): " << stats.records << " records, " << scenes << " scenes ("
            << by_difficulty["Easy"] << " Easy, " << by_difficulty["Medium"] << " Medium, " << by_difficulty["Hard"]
            << " Hard), " << stats.errors << " errors, " << conflicts << " conflicts, " << doubtful << " doubtful\n";
  return stats.errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
