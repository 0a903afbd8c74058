// Exact numbers for constructions: decimals (every generated number is a short decimal, so it is
// written and read back as the same rational, by geotruth and by the GePBench engine's own JSON
// reader alike) and rational unit directions (Pythagorean: (a, b) / 5^k with a² + b² = 25^k, whose
// coordinates are decimals), so that right angles, tangent lines and points on circles are exact.
#pragma once

#include <geotruth/scene.hpp>

#include <string>
#include <vector>

namespace geotruth::generate {

/// `value` rounded to `places` decimals (half away from zero), exactly.
Rational round_decimal(const Rational& value, int places);
/// The double `value` rounded to `places` decimals, as an exact rational.
Rational decimal(double value, int places);

/// Decimal text of a rational whose denominator divides a power of ten ("0.125", "-3"); the
/// exact JSON number the engine's files hold.
std::string decimal_text(const Rational& value);
/// Whether `value` is a decimal of at most `places` places.
bool is_decimal(const Rational& value, int places);

/// A rational unit vector (cos, sin) with the angle it stands for.
struct Direction {
  Vec2 u;
  double radians = 0;
};
/// Every unit vector (a, b) / 5^k with integers a² + b² = 25^k and k ≤ 4, sorted by angle in
/// [0, 2π): 36 directions about 10° apart, each coordinate a decimal of at most 4 places.
const std::vector<Direction>& unit_directions();
/// The direction of unit_directions() nearest to `radians`.
const Direction& nearest_direction(double radians);

inline Vec2 operator+(const Vec2& a, const Vec2& b) {
  return {a.x + b.x, a.y + b.y};
}
inline Vec2 operator-(const Vec2& a, const Vec2& b) {
  return {a.x - b.x, a.y - b.y};
}
inline Vec2 operator*(const Rational& k, const Vec2& a) {
  return {k * a.x, k * a.y};
}
inline Vec2 perp(const Vec2& a) {
  return {-a.y, a.x};
}  ///< a turned by +90° (y up: counter-clockwise)
inline Rational dot(const Vec2& a, const Vec2& b) {
  return a.x * b.x + a.y * b.y;
}
inline Rational cross(const Vec2& a, const Vec2& b) {
  return a.x * b.y - a.y * b.x;
}

}  // namespace geotruth::generate
