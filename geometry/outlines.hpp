// Distances between drawn outlines (AI2D blobs, arrows, text boxes), exact on rationals.
#pragma once

#include <geotruth/scene.hpp>
#include <vector>

#include "geometry/predicates.hpp"

namespace geotruth::geometry {

/// A drawn outline: a closed polygon (3 or more points: its interior counts), or a polyline of
/// 2 points (a stroke).
using Outline = std::vector<Vec2>;

/// The four corners of a box, as an outline.
Outline box_outline(const Box& box);

/// Squared distance from p to the outline (0 inside a closed one), exact.
Rational squared_distance_to_outline(const Vec2& p, const Outline& outline);

/// Squared distance between two outlines (0 when they touch, cross or one holds the other), exact.
Rational squared_distance_between(const Outline& a, const Outline& b);

/// The outlines an entity is drawn with: its polygon (or box) and its label boxes.
std::vector<Outline> entity_outlines(const Entity& entity);

/// The smallest squared distance between any of `from` and any of `to`.
Rational squared_distance_between(const std::vector<Outline>& from, const std::vector<Outline>& to);

/// The smallest squared distance from p to any of `outlines`.
Rational squared_distance_to_outlines(const Vec2& p, const std::vector<Outline>& outlines);

}  // namespace geotruth::geometry
