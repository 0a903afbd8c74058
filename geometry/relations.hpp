// Relations between GePBench shapes, decided on the given numbers with the decision bands.
//
// Exact where the numbers allow: parallelism, perpendicularity, concentricity, the axis, diagonal
// and shared-edge relations compare squared rational distances with eps²; tangency and points on
// circles compare |√x − √y| with eps through CORE. An ellipse's rotation is replaced by the exact
// rational rotation nearest to it (tangent half-angle, within 1e-16 rad), so its axes are rational
// vectors. Two approximations, both far below a pixel: a point's distance to an ellipse near its
// curve uses the first-order estimate |q − 1| / |∇q| (q the normalized quadratic form), and the
// tangency of a circle and an ellipse compares the radius with the nearest and farthest distances
// from the circle's centre to the ellipse, found numerically (error ~1e-12 units). Crossing
// counts are exact (CGAL for segments and circles, geometry/conics.hpp for ellipses and arcs).
// Every decision is tried in double first and falls back to the exact one unless the double is
// clear of the band edges by far more than its rounding (docs/gepbench.md, "Filters").
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/relation_kind.hpp>
#include <geotruth/scene.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace geotruth::geometry {

/// One relation from shape a to shape b, decided at the run's band.
struct ShapeRelation {
  RelationKind kind = RelationKind::tangent;
  Decision decision = Decision::fails;
  /// By how much the configuration misses the relation, in rendered pixels. Absent for a relation
  /// that cannot hold at all (a zero-length edge, polygons of different vertex counts, a tangent
  /// line that stops short of its contact) and for the topological relations (decided exactly).
  std::optional<double> slack_px;
  /// intersecting: the number of crossing points of the exact curves (a tangency counts twice).
  /// A pair whose tangency holds is not intersecting whatever this count (docs/gepbench.md).
  std::optional<int> crossings;

  bool holds() const { return decision == Decision::holds; }
  bool ambiguous() const { return decision == Decision::ambiguous; }
  const char* name() const { return relation_name(kind); }
};

/// The relations from `a` to `b` ("a is circumscribed about b", "a is a diameter of b"): every
/// relation that applies to this pair of shape kinds, each decided; `undecided` names relations
/// that apply but geotruth does not decide yet (ellipse–ellipse tangency; crossings involving
/// spirals or two sectors).
struct RelationCheck {
  std::vector<ShapeRelation> relations;
  std::vector<RelationKind> undecided;

  const ShapeRelation* find(RelationKind kind) const;
  bool is_undecided(RelationKind kind) const;
};
/// With `directional_only`, only the relations whose meaning depends on the order (circumscribed,
/// inscribed, diagonal, diameter, major/minor axis) are decided: callers that already related
/// (b, a) use it for the other direction.
RelationCheck relate(const Shape& a, const Shape& b, const Frame& frame, const Bands& bands,
                     bool directional_only = false);

/// The same for many pairs of one scene's shapes: each shape is converted once (exact axes,
/// drawn extents, double estimates for the filters), not once per pair.
class ShapeRelations {
 public:
  ShapeRelations(const std::vector<Shape>& shapes, const Frame& frame, const Bands& bands);
  ~ShapeRelations();
  /// relate(shapes[a], shapes[b], …) without converting them again.
  RelationCheck relate(std::size_t a, std::size_t b, bool directional_only = false) const;

  /// How far a shape is from its declared kind ("rectangle": right angles; "square": and equal
  /// sides; "equilateral triangle", "regular pentagon"/"regular hexagon": equal sides and equal
  /// distances from the vertex mean; "circle": equal axes), as a relation of kind `label`; empty
  /// when the shape declares nothing checkable.
  std::optional<ShapeRelation> label_check(std::size_t shape) const;

  /// The kind a person would give an unlabelled shape that is within 3° of it (a quadrilateral
  /// with right angles: "rectangle"; a triangle with 60° angles: "equilateral triangle") or, for
  /// an ellipse, whose axes differ by less than eps_vis ("circle"); empty otherwise.
  std::optional<std::string> looks_like(std::size_t shape) const;

 private:
  struct Prepared;
  std::unique_ptr<Prepared> prepared_;
};

}  // namespace geotruth::geometry
