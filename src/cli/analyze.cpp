// geotruth analyze: parse, validate and print each scene in normalized form.
#include "cli/common.hpp"

#include <iostream>

namespace geotruth::cli {

int analyze(const InputOptions& in, const std::string& output) {
  Output out(output);
  std::size_t scenes = 0, points = 0, lines = 0, circles = 0, shapes = 0, entities = 0, questions = 0;
  const BatchStats stats = run_batch(
      in.inputs, in.limits,
      [&](const Scene& scene, const RawRecord& record) {
        ++scenes;
        points += scene.points.size();
        lines += scene.lines.size();
        circles += scene.circles.size();
        shapes += scene.shapes.size();
        entities += scene.entities.size();
        questions += scene.questions.size();
        ordered_json result;
        result["line"] = record.line;
        result["id"] = scene.id;
        result["scene"] = scene_json(scene);
        return result;
      },
      out.stream(), std::cerr);
  if (!out.commit()) return kUsage;
  std::cerr << "analyze: " << stats.records << " records, " << scenes << " scenes, " << stats.errors
            << " errors | " << points << " points, " << lines << " lines, " << circles << " circles, " << shapes
            << " shapes, " << entities << " entities, " << questions << " questions\n";
  return stats.errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
