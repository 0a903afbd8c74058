#include "generate/certify.hpp"

#include <geotruth/input.hpp>

#include <algorithm>

namespace geotruth::generate {
namespace {

// Any fact in the ambiguous band, whether or not it would change the answer (analyze's
// answer_is_ambiguous asks less): every option is to be decided outside the band.
bool any_fact_ambiguous(const Truth& truth) {
  return std::any_of(truth.facts.begin(), truth.facts.end(), [](const Fact& f) { return f.ambiguous; });
}

}  // namespace

std::string question_problem(SceneEvaluator& evaluator, const Question& question, const FrameBands& bands) {
  const Truth truth = evaluator.evaluate(question);
  if (!truth.supported) return "unsupported";
  if (any_fact_ambiguous(truth)) return "ambiguous_fact";
  const QuestionVerdict verdict = judge(question, truth, bands);
  if (verdict.verdict == Verdict::ok) return "";
  for (const auto& reason : verdict.reasons)
    if (reason.kind != "engine_note") return reason.kind;
  return verdict_name(verdict.verdict);
}

std::string certify(const Scene& scene, const Bands& bands, const VisibilityRules& rules, SceneEvaluator* evaluator) {
  if (validate(scene)) return "invalid";
  if (auto problem = visibility_problem(scene, bands, rules); !problem.empty()) return "visibility: " + problem;
  std::vector<Truth> truths;
  const SceneAudit audit = audit_scene(scene, bands, {.truths = &truths, .evaluator = evaluator});
  if (!audit.findings.empty()) return "finding: " + std::string(finding_kind_name(audit.findings.front().kind));
  for (const auto& v : audit.verdicts)
    if (v.verdict != Verdict::ok)
      return "question: " + (v.reasons.empty() ? std::string(verdict_name(v.verdict)) : v.reasons.front().kind);
  for (const auto& truth : truths)
    if (any_fact_ambiguous(truth)) return "question: ambiguous_fact";
  return "";
}

}  // namespace geotruth::generate
