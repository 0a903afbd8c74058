// Certified interval enclosures of exact rationals, for the filters in front of exact predicates
// (geometry/ only). Interval arithmetic here needs upward rounding: hold a
// CGAL::Protect_FPU_rounding<true> while computing with these.
#pragma once

#include <CGAL/FPU.h>
#include <CGAL/Interval_nt.h>

#include <cmath>
#include <geotruth/scene.hpp>
#include <optional>

namespace geotruth::geometry {

using Interval = CGAL::Interval_nt<false>;

/// An interval that holds q: GMP's conversion truncates (or, under upward rounding, may round up),
/// so q is within one step of the double either way.
inline Interval enclosure(const Rational& q) {
  const double d = q.get_d();
  return {std::nextafter(d, -HUGE_VAL), std::nextafter(d, HUGE_VAL)};
}

struct IntervalPoint {
  Interval x, y;
  explicit IntervalPoint(const Vec2& p) : x(enclosure(p.x)), y(enclosure(p.y)) {}
};

/// (b − a) × (p − a): > 0 when p is left of a → b (y up).
inline Interval cross(const IntervalPoint& a, const IntervalPoint& b, const IntervalPoint& p) {
  return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

inline Interval squared_distance(const IntervalPoint& a, const IntervalPoint& b) {
  return CGAL::square(b.x - a.x) + CGAL::square(b.y - a.y);
}

/// The sign of x − y when the enclosures tell it.
inline std::optional<int> certain_compare(const Interval& x, const Interval& y) {
  if (x.inf() > y.sup()) return 1;
  if (x.sup() < y.inf()) return -1;
  return std::nullopt;
}

}  // namespace geotruth::geometry
