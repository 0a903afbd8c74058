// The GePBench engine's own position rules (starreeze/geocap data/vqa/rule.py, thresholds from
// common/args.py), decided exactly on the numbers the engine decides on: each shape's centroid and
// bounding box as the engine computes them, rounded to 0.01 as its VQA loader does. Every rule
// reports the class of a shape (the rule holds, clearly fails, or lies in the band the engine
// itself avoids asking about) and the margin of that class in frame units; the same rule on the
// true centroid and box says whether the engine's rounding changed the answer. docs/gepbench.md
// says what each question asks and how the engine decides it.
#pragma once

#include <geotruth/rational.hpp>
#include <geotruth/scene.hpp>

#include <optional>
#include <string>
#include <vector>

namespace geotruth::questions::gepbench {

/// A box [x0, x1] × [y0, y1] (y up).
struct Box {
  Rational x0, y0, x1, y1;
};

/// What the engine's VQA code sees of one shape, and what the picture shows.
struct EngineShape {
  const Shape* shape = nullptr;
  std::string type;  ///< shape_type(): the engine's type name
  Vec2 centre;       ///< the engine's centroid, rounded to 0.01 as the engine rounds it
  Box box;           ///< the engine's bounding box, rounded the same way
  Vec2 true_centre;  ///< the area centroid (a sector's too), exact or to a double's precision
  Box true_box;      ///< the drawn shape's extent
};

/// The engine's view of every shape of a scene, in order. Its boxes sample curves at up to 1,000
/// points, as the engine does: without `boxes` neither box is computed (centres only are needed).
/// A shape whose numbers overflow the doubles they are computed in is an InputError naming it.
std::vector<EngineShape> engine_shapes(const Scene& scene, bool boxes = true);

/// How a rule classifies one shape.
enum class RuleClass { holds, fails, gray };
const char* rule_class_name(RuleClass c);

struct RuleResult {
  RuleClass cls = RuleClass::fails;
  double margin = 0;    ///< frame units: how far the shape is from the nearest other class
  double to_fails = 0;  ///< frame units: how far from the `fails` class (= margin unless gray)
};

/// "X is <direction> A" (direction: "top", "bottom", "left", "right", "upper left", "upper right",
/// "lower left", "lower right"), from A's position to X's, y up. Holds when X is ahead of A along
/// the direction by the engine's 0.04 (measured on the engine's direction vector, which has
/// length 2 on the diagonals: 0.02 along the diagonal itself) and within π/9 of it; gray when it
/// is that far ahead but between π/9 and π/5 off (the engine does not ask then); fails otherwise
/// (behind, nearer than the threshold, or π/5 or more off). Exact: the angles are compared
/// through their cosines' minimal polynomials.
RuleResult relative_direction(const std::string& direction, const Vec2& anchor, const Vec2& x);
/// True for the eight direction names above.
bool is_direction(const std::string& direction);

/// The engine asks a relative-direction question only when the answer's box and the anchor's
/// overlap by at most half of either box's area (`_ratio_1`, `_ratio_2` ≤ 0.5): holds when they
/// do, fails when one ratio is over a half; the margin is the shortest shift of one box along x
/// or y that crosses the threshold, from either side. Nullopt when a box has no area (the engine
/// divides by it).
std::optional<RuleResult> boxes_overlap_at_most_half(const Box& answer, const Box& anchor);

/// "X is in the <region> of the image" (region: "upper half", "lower half", "left half",
/// "right half", "top left quarter", "top right quarter", "bottom left quarter",
/// "bottom right quarter") by the engine's box rule: holds when the box (grown by 0.0001) lies
/// wholly in the region grown by 0.2 and at least 80% of it in the region shrunk by 0.1 from the
/// midlines; fails when less than half of it lies in the grown region; gray otherwise.
RuleResult region_by_box(const std::string& region, const Box& box);
/// True for the eight region names above.
bool is_region(const std::string& region);
/// Whether a point (y up) lies in the region as the picture reads it: against the midlines `mid`.
bool region_has_centre(const std::string& region, const Vec2& centre, const Vec2& mid);

}  // namespace geotruth::questions::gepbench
