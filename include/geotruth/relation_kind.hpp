// The relations a scene may declare between two elements, and that the relation engine decides.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace geotruth {

enum class RelationKind {
  tangent,
  internal_tangent,
  external_tangent,
  parallel,
  perpendicular,
  concentric,
  circumscribed,  ///< a is circumscribed about b (directional)
  inscribed,      ///< a is inscribed in b (directional)
  shared_edge,
  diagonal,    ///< a (a straight piece) is a diagonal of b (directional)
  major_axis,  ///< a is the major axis of b (directional)
  minor_axis,  ///< a is the minor axis of b (directional)
  diameter,    ///< a is a diameter of b (directional)
  similar,
  symmetric,
  intersecting,  ///< topology: the boundaries cross or touch
  contained,     ///< topology: a lies inside b (directional)
  disjoint,      ///< topology
  on,            ///< a point on a curve (declared only)
  label,         ///< a shape against its own declared kind ("square"): not declarable
};

/// The name used in scene files and outputs ("internal_tangent").
const char* relation_name(RelationKind kind);
/// The kind named `name`, if any (only declarable kinds: not `label`).
std::optional<RelationKind> relation_kind(std::string_view name);
/// Every declarable kind, in the order above.
const std::vector<RelationKind>& declarable_relations();
/// True when "a R b" differs from "b R a" (circumscribed, inscribed, diagonal, the axes, diameter,
/// contained).
bool is_directional(RelationKind kind);
/// True for the topological relations (intersecting, contained, disjoint): information about a
/// pair, decided exactly, without a slack.
bool is_topological(RelationKind kind);

}  // namespace geotruth
