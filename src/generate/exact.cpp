#include "generate/exact.hpp"

#include <algorithm>
#include <cmath>

namespace geotruth::generate {

Rational round_decimal(const Rational& value, int places) {
  mpz_class scale = 1;
  for (int i = 0; i < places; ++i) scale *= 10;
  const Rational scaled = value * scale;
  // Half away from zero: floor(|x| + 1/2) with the sign put back.
  mpz_class n = (abs(scaled.get_num()) * 2 + scaled.get_den()) / (scaled.get_den() * 2);
  if (scaled < 0) n = -n;
  Rational out(n, scale);
  out.canonicalize();
  return out;
}

Rational decimal(double value, int places) {
  return round_decimal(Rational(value), places);
}

bool is_decimal(const Rational& value, int places) {
  mpz_class scale = 1;
  for (int i = 0; i < places; ++i) scale *= 10;
  return scale % value.get_den() == 0;
}

std::string decimal_text(const Rational& value) {
  mpz_class den = value.get_den();
  int places = 0;
  mpz_class scale = 1;
  while (scale % den != 0) {
    scale *= 10;
    ++places;
    if (places > 60) return to_text(value);  // not a decimal: never made by the generators
  }
  const mpz_class n = value.get_num() * (scale / den);
  const std::string digits = mpz_class(abs(n)).get_str();
  const std::string sign = n < 0 ? "-" : "";
  if (places == 0) return sign + digits;
  const std::size_t p = static_cast<std::size_t>(places);
  // Leading zeros so that there is a digit before the point (GCC 12 warns falsely on string::insert).
  const std::string padded = digits.size() <= p ? std::string(p + 1 - digits.size(), '0') + digits : digits;
  return sign + padded.substr(0, padded.size() - p) + "." + padded.substr(padded.size() - p);
}

const std::vector<Direction>& unit_directions() {
  static const std::vector<Direction> directions = [] {
    constexpr long kHypotenuse = 625;  // 5^4
    std::vector<Direction> out;
    for (long a = -kHypotenuse; a <= kHypotenuse; ++a) {
      const long b2 = kHypotenuse * kHypotenuse - a * a;
      const long b = std::lround(std::sqrt(static_cast<double>(b2)));
      if (b * b != b2) continue;
      for (long sign : {1L, -1L}) {
        if (b == 0 && sign < 0) continue;
        Vec2 u{Rational(a) / kHypotenuse, Rational(sign * b) / kHypotenuse};
        double angle = std::atan2(static_cast<double>(sign * b), static_cast<double>(a));
        if (angle < 0) angle += 2 * M_PI;
        out.push_back({u, angle});
      }
    }
    std::sort(out.begin(), out.end(), [](const Direction& x, const Direction& y) { return x.radians < y.radians; });
    return out;
  }();
  return directions;
}

const Direction& nearest_direction(double radians) {
  radians = std::fmod(radians, 2 * M_PI);
  if (radians < 0) radians += 2 * M_PI;
  const auto& all = unit_directions();
  const Direction* best = &all.front();
  double best_gap = 10;
  for (const auto& d : all) {
    double gap = std::abs(d.radians - radians);
    gap = std::min(gap, 2 * M_PI - gap);
    if (gap < best_gap) best_gap = gap, best = &d;
  }
  return *best;
}

}  // namespace geotruth::generate
