// Certified interval enclosures of exact rationals, for the filters in front of exact predicates
// (geometry/ only). Interval arithmetic here needs upward rounding: hold a
// CGAL::Protect_FPU_rounding<true> while computing with these.
#pragma once

#include <CGAL/FPU.h>
#include <CGAL/Interval_nt.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <geotruth/scene.hpp>
#include <limits>
#include <optional>

namespace geotruth::geometry {

using Interval = CGAL::Interval_nt<false>;

/// The next double after a finite d towards −∞ (direction < 0) or +∞: std::nextafter without the
/// library call (this runs for every coordinate of every filtered predicate).
inline double next_double(double d, int direction) {
  if (d == 0)
    return direction > 0 ? std::numeric_limits<double>::denorm_min() : -std::numeric_limits<double>::denorm_min();
  auto bits = std::bit_cast<std::uint64_t>(d);
  bits += (d > 0) == (direction > 0) ? 1 : -1;  // away from zero: the magnitude grows
  return std::bit_cast<double>(bits);
}

/// An interval that holds q: the double found is within one step of q (GMP's conversion truncates;
/// a single division rounds to a neighbour in any rounding mode).
inline Interval enclosure(const Rational& q) {
  // Numerator and denominator below 2⁵³ (decimals of up to 15 digits) are exact as doubles, so one
  // division rounds once (in whatever mode): cheaper than GMP's conversion, same guarantee.
  constexpr mp_limb_t kExact = mp_limb_t{1} << 53;
  const __mpz_struct *num = mpq_numref(q.get_mpq_t()), *den = mpq_denref(q.get_mpq_t());
  const double d = std::abs(num->_mp_size) <= 1 && den->_mp_size == 1 && mpz_getlimbn(num, 0) < kExact &&
                           mpz_getlimbn(den, 0) < kExact
                       ? (num->_mp_size < 0 ? -1.0 : 1.0) * static_cast<double>(mpz_getlimbn(num, 0)) /
                             static_cast<double>(mpz_getlimbn(den, 0))
                       : q.get_d();
  return {next_double(d, -1), next_double(d, 1)};
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
