// GePBench shape questions: counting, existence, location, size and reference.
#pragma once

#include "geometry/relations.hpp"

#include <geotruth/findings.hpp>
#include <geotruth/questions.hpp>

#include <memory>
#include <optional>

namespace geotruth::questions {

/// Evaluates a question about a scene's `shapes`; empty when the kind is not one of these.
std::optional<Truth> evaluate_shape_question(const Scene& scene, const Question& q, const Bands& bands);

/// The same for all questions of one scene: what they measure (the engine's view of every shape,
/// each shape's centroid, extent and area) is computed once for the scene, not once per question.
/// Keeps a reference to `scene`.
class ShapeEvaluator {
 public:
  ShapeEvaluator(const Scene& scene, const Bands& bands);
  ~ShapeEvaluator();
  std::optional<Truth> evaluate(const Question& q);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One decided relation from shape `a` to shape `b`.
struct PairRelation {
  std::string a, b;
  geometry::ShapeRelation relation;
};

/// Every relation geotruth decides between the scene's shapes: symmetric relations once per
/// unordered pair, directional ones for both orders.
std::vector<PairRelation> relation_matrix(const Scene& scene, const Bands& bands);

/// Scene findings for shapes: declared relations that do not hold (declared_relation_false) or
/// are ambiguous (declared_relation_ambiguous), relations that hold but are not declared
/// (undeclared_relation: they make "none of the above" wrong), and labels (label_mismatch).
std::vector<Finding> shape_findings(const Scene& scene, const Bands& bands);

/// Shapes the dataset's own picture draws unlike their definition (Shape::drawn), each with the
/// largest gap between the two in pixels (drawn_gap): conflicts, or doubtful within the band.
std::vector<Finding> drawn_differently(const Scene& scene, const Bands& bands);

}  // namespace geotruth::questions
