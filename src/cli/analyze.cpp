// geotruth analyze: parse, validate and print each scene normalized, with its incidence structure.
#include <iostream>

#include "cli/common.hpp"
#include "cli/records.hpp"
#include "questions/shapes.hpp"

#include <cmath>

namespace geotruth::cli {

int analyze(InputOptions in, const FigureOptions& figure, const std::string& output) {
  const RunBands run = resolve_bands(figure.bands, in, std::cerr);
  const Bands& bands = run.bands;
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
        const Incidence incidence = build_incidence(scene, figure.incidence_mode(), bands);
        ordered_json result = record_head(scene, record);
        result["bands"] = bands_json(bands);
        result["scene"] = scene_json(scene);
        result["incidence"] = incidence_json(scene, incidence);
        std::vector<Finding> all = incidence.findings;
        if (!scene.entities.empty())
          for (auto& f : diagram_findings(scene, bands)) all.push_back(std::move(f));
        if (!scene.shapes.empty())
          for (auto& f : questions::shape_findings(scene, bands)) all.push_back(std::move(f));
        add_findings(result, all, record);
        findings += result["conflicts"].size();
        if (!scene.shapes.empty()) {
          // Every relation that holds or nearly holds, and every crossing count.
          ordered_json relations = ordered_json::array();
          for (const auto& [a, b, rel] : questions::relation_matrix(scene, bands)) {
            if (rel.decision == Decision::fails) continue;
            ordered_json item{{"a", a}, {"b", b}, {"relation", rel.name()}, {"holds", rel.holds()}};
            if (rel.ambiguous()) item["ambiguous"] = true;
            if (rel.slack_px && *rel.slack_px > 0) item["slack_px"] = rounded_px(*rel.slack_px);
            if (rel.crossings) item["crossings"] = *rel.crossings;
            relations.push_back(std::move(item));
          }
          result["relations"] = std::move(relations);
        }
        // Each question's truth, with the facts it rests on (verdicts against the annotated
        // answers are the audit's job).
        SceneEvaluator evaluator(scene, bands);
        ordered_json truths = ordered_json::array();
        for (const auto& q : scene.questions) {
          const Truth t = evaluator.evaluate(q);
          ordered_json item{{"id", q.id}, {"supported", t.supported}};
          if (t.supported) {
            item["values"] = t.values;
            ordered_json letters = ordered_json::array();
            for (auto i : matching_options(q, t)) letters.push_back(option_letter(i));
            if (!q.options.empty()) item["options"] = letters;
            item["ambiguous"] = t.ambiguous();
          }
          if (!t.reason.empty()) item["reason"] = t.reason;
          if (!t.facts.empty()) {
            item["facts"] = ordered_json::array();
            for (const auto& f : t.facts) item["facts"].push_back(fact_json(f));
          }
          truths.push_back(std::move(item));
        }
        if (!truths.empty()) result["truths"] = std::move(truths);
        return result;
      },
      out.stream(), std::cerr);
  if (!out.commit()) return kUsage;
  std::cerr << "analyze: " << stats.records << " records, " << scenes << " scenes, " << stats.errors << " errors | "
            << points << " points, " << lines << " lines, " << circles << " circles, " << shapes << " shapes, "
            << entities << " entities, " << questions << " questions, " << findings << " conflicts\n";
  return stats.errors ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
