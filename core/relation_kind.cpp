#include <geotruth/relation_kind.hpp>

#include <array>
#include <utility>

namespace geotruth {
namespace {

constexpr std::array<std::pair<RelationKind, const char*>, 20> kNames = {{
    {RelationKind::tangent, "tangent"},
    {RelationKind::internal_tangent, "internal_tangent"},
    {RelationKind::external_tangent, "external_tangent"},
    {RelationKind::parallel, "parallel"},
    {RelationKind::perpendicular, "perpendicular"},
    {RelationKind::concentric, "concentric"},
    {RelationKind::circumscribed, "circumscribed"},
    {RelationKind::inscribed, "inscribed"},
    {RelationKind::shared_edge, "shared_edge"},
    {RelationKind::diagonal, "diagonal"},
    {RelationKind::major_axis, "major_axis"},
    {RelationKind::minor_axis, "minor_axis"},
    {RelationKind::diameter, "diameter"},
    {RelationKind::similar, "similar"},
    {RelationKind::symmetric, "symmetric"},
    {RelationKind::intersecting, "intersecting"},
    {RelationKind::contained, "contained"},
    {RelationKind::disjoint, "disjoint"},
    {RelationKind::on, "on"},
    {RelationKind::label, "label"},
}};

}  // namespace

const char* relation_name(RelationKind kind) {
  for (const auto& [k, name] : kNames)
    if (k == kind) return name;
  return "?";
}

std::optional<RelationKind> relation_kind(std::string_view name) {
  for (const auto& [k, n] : kNames)
    if (n == name && k != RelationKind::label) return k;
  return std::nullopt;
}

const std::vector<RelationKind>& declarable_relations() {
  static const std::vector<RelationKind> kinds = [] {
    std::vector<RelationKind> out;
    for (const auto& [k, name] : kNames)
      if (k != RelationKind::label) out.push_back(k);
    return out;
  }();
  return kinds;
}

bool is_directional(RelationKind kind) {
  switch (kind) {
    case RelationKind::circumscribed:
    case RelationKind::inscribed:
    case RelationKind::diagonal:
    case RelationKind::major_axis:
    case RelationKind::minor_axis:
    case RelationKind::diameter:
    case RelationKind::contained:
      return true;
    default:
      return false;
  }
}

bool is_topological(RelationKind kind) {
  return kind == RelationKind::intersecting || kind == RelationKind::contained || kind == RelationKind::disjoint;
}

}  // namespace geotruth
