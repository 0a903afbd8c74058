// GePBench shape questions: counting, existence, location, size and reference.
#pragma once

#include <geotruth/questions.hpp>

namespace geotruth::questions {

/// Evaluates a question about a scene's `shapes`; empty when the kind is not one of these.
std::optional<Truth> evaluate_shape_question(const Scene& scene, const Question& q, const Thresholds& thresholds);

}  // namespace geotruth::questions
