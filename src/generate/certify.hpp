// Certification of generated items: one code path with `geotruth audit` and `analyze` (the
// question evaluators, the audit's judge and scene findings), plus the visibility of every drawn
// element at the render size.
#pragma once

#include <geotruth/audit.hpp>
#include <geotruth/questions.hpp>

#include <string>

#include "generate/visibility.hpp"

namespace geotruth::generate {

/// "" when the question is certified on this scene, else why not: its truth is unsupported, rests
/// on a fact in the ambiguous band (any fact: every option is decided outside it), or the audit's
/// judge does not find it ok (the reason kind of its verdict: wrong_answer, no_correct_option, ...).
std::string question_problem(SceneEvaluator& evaluator, const Question& question, const FrameBands& bands);

/// "" when the whole item is certified: it validates, audit_scene() finds nothing in it and judges
/// every question ok, no question's truth is ambiguous, and every element is visible
/// (visibility_problem). Else the first reason, prefixed by where it came from ("finding:
/// undeclared_relation", "question: ambiguous_fact", "visibility: near_miss", "invalid").
/// `evaluator`, when given, was made for this scene and these bands (it has already evaluated the
/// questions once: what it built is reused).
std::string certify(const Scene& scene, const Bands& bands, const VisibilityRules& rules,
                    SceneEvaluator* evaluator = nullptr);

}  // namespace geotruth::generate
