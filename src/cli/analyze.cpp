// geotruth analyze: parse, validate and print each scene normalized, with its incidence structure.
#include <iostream>

#include "cli/common.hpp"

namespace geotruth::cli {

int analyze(InputOptions in, const FigureOptions& figure, const BatchOptions& batch, const std::string& output) {
  const RunBands run = resolve_bands(figure.bands, in, std::cerr);
  const Bands& bands = run.bands;
  RecordsOutput out({"analyze", output, "", {{"mode", figure.mode}, {"bands", bands_json(bands)}}, {}}, in, batch);
  if (out.complete()) return out.totals({}).errors ? kRecordErrors : kOk;
  std::size_t scenes = 0, points = 0, lines = 0, circles = 0, shapes = 0, entities = 0, questions = 0, findings = 0;
  const BatchStats stats = run_records(
      in,
      [&](const Scene& scene, const RawRecord& record) {
        ++scenes;
        points += scene.points.size();
        lines += scene.lines.size();
        circles += scene.circles.size();
        shapes += scene.shapes.size();
        entities += scene.entities.size();
        questions += scene.questions.size();
        ordered_json result =
            with_place(scene, record, analyze_record(scene, bands, figure.incidence_mode(), record.notes));
        findings += result["conflicts"].size();
        return result;
      },
      out.stream(), std::cerr, out.plan());
  if (!out.finish(stats)) return kUsage;
  std::cerr << "analyze: " << stats.records << " records, " << scenes << " scenes, " << stats.errors << " errors | "
            << points << " points, " << lines << " lines, " << circles << " circles, " << shapes << " shapes, "
            << entities << " entities, " << questions << " questions, " << findings << " conflicts\n";
  return out.totals(stats).errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
