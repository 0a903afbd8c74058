// geotruth analyze: parse, validate and print each scene normalized, with its incidence structure.
#include <iostream>

#include "cli/common.hpp"
#include "cli/records.hpp"

namespace geotruth::cli {

int analyze(const InputOptions& in, const FigureOptions& figure, const std::string& output) {
  Output out(output);
  std::size_t scenes = 0, points = 0, lines = 0, circles = 0, shapes = 0, entities = 0, questions = 0, findings = 0;
  const BatchStats stats = run_batch(
      in.inputs, in.format(), in.limits,
      [&](const Scene& scene, const RawRecord& record) {
        ++scenes;
        points += scene.points.size();
        lines += scene.lines.size();
        circles += scene.circles.size();
        shapes += scene.shapes.size();
        entities += scene.entities.size();
        questions += scene.questions.size();
        const Incidence incidence = build_incidence(scene, figure.incidence_mode(), figure.thresholds);
        ordered_json result = record_head(scene, record);
        result["scene"] = scene_json(scene);
        result["incidence"] = incidence_json(scene, incidence);
        result["conflicts"] = conflicts_json(incidence, record);
        findings += result["conflicts"].size();
        return result;
      },
      out.stream(), std::cerr);
  if (!out.commit()) return kUsage;
  std::cerr << "analyze: " << stats.records << " records, " << scenes << " scenes, " << stats.errors << " errors | "
            << points << " points, " << lines << " lines, " << circles << " circles, " << shapes << " shapes, "
            << entities << " entities, " << questions << " questions, " << findings << " incidence conflicts\n";
  return stats.errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
