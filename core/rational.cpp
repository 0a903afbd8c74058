#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <geotruth/rational.hpp>
#include <limits>

namespace geotruth {
namespace {

static_assert(sizeof(unsigned long) >= sizeof(std::uint64_t), "mpz_set_ui takes 64 bits");

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Largest decimal exponent (of the leading digit) we accept: doubles overflow beyond 1e308.
constexpr long kMaxDecimalExponent = 308;

RationalParse fail(std::string message) {
  return {std::nullopt, std::move(message)};
}

}  // namespace

RationalParse parse_decimal(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  bool negative = false;
  if (i < n && text[i] == '-') {
    negative = true;
    ++i;
  }
  std::string digits;
  const std::size_t int_start = i;
  while (i < n && is_digit(text[i])) digits.push_back(text[i++]);
  const std::size_t int_len = i - int_start;
  if (int_len == 0) return fail("expected a decimal number, got \"" + std::string(text) + "\"");
  if (int_len > 1 && text[int_start] == '0')
    return fail("leading zeros are not JSON numbers: \"" + std::string(text) + "\"");
  long frac_len = 0;
  if (i < n && text[i] == '.') {
    ++i;
    while (i < n && is_digit(text[i])) {
      digits.push_back(text[i++]);
      ++frac_len;
    }
    if (frac_len == 0) return fail("expected digits after '.' in \"" + std::string(text) + "\"");
  }
  long exponent = 0;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
    std::size_t exp_digits = 0;
    while (i < n && is_digit(text[i])) {
      // Saturate: anything this large is out of range anyway.
      if (exponent < 100'000'000) exponent = exponent * 10 + (text[i] - '0');
      ++i;
      ++exp_digits;
    }
    if (exp_digits == 0) return fail("expected digits in the exponent of \"" + std::string(text) + "\"");
    if (exp_negative) exponent = -exponent;
  }
  if (i != n) return fail("expected a decimal number, got \"" + std::string(text) + "\"");

  const std::size_t first_nonzero = digits.find_first_not_of('0');
  if (first_nonzero == std::string::npos) return {Rational(0), {}};
  const long significant = static_cast<long>(digits.size() - first_nonzero);
  const long leading_exponent = significant - 1 + exponent - frac_len;
  if (leading_exponent > kMaxDecimalExponent || leading_exponent < -kMaxDecimalExponent)
    return fail(out_of_range_message(text));

  const long scale = exponent - frac_len;
  if (significant <= 19 && scale <= 0 && scale >= -19) {
    // Mantissa and 10^−scale fit in 64 bits (as most coordinates do): reduced by their common
    // factors of 2 and 5 (the only ones 10^k has), no GMP string parsing or gcd.
    std::uint64_t top = 0, bottom = 1;
    for (std::size_t k = first_nonzero; k < digits.size(); ++k) top = top * 10 + static_cast<unsigned>(digits[k] - '0');
    for (long k = 0; k < -scale; ++k) bottom *= 10;
    for (std::uint64_t factor : {2u, 5u})
      while (bottom % factor == 0 && top % factor == 0) top /= factor, bottom /= factor;
    Rational value;
    mpz_set_ui(value.get_num_mpz_t(), top);
    mpz_set_ui(value.get_den_mpz_t(), bottom);
    if (negative) mpq_neg(value.get_mpq_t(), value.get_mpq_t());
    return {std::move(value), {}};
  }
  mpz_class mantissa(digits.substr(first_nonzero), 10);
  mpz_class power;
  mpz_ui_pow_ui(power.get_mpz_t(), 10, static_cast<unsigned long>(scale < 0 ? -scale : scale));
  Rational value = scale >= 0 ? Rational(mantissa * power) : Rational(mantissa, power);
  value.canonicalize();
  if (negative) value = -value;
  return {std::move(value), {}};
}

Rational reduce_degrees(const Rational& degrees) {
  const Rational turns = degrees / 360;
  mpz_class whole;
  mpz_fdiv_q(whole.get_mpz_t(), turns.get_num_mpz_t(), turns.get_den_mpz_t());
  return degrees - Rational(whole) * 360;
}

std::string out_of_range_message(std::string_view text) {
  std::string message = "number out of range: its magnitude must lie within 1e-308 … 1e308 (or be 0)";
  if (!text.empty()) message += ", got \"" + std::string(text.substr(0, 40)) + (text.size() > 40 ? "…" : "") + "\"";
  return message;
}

RationalParse parse_rational_string(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return parse_decimal(text);
  const std::string_view num = text.substr(0, slash), den = text.substr(slash + 1);
  auto is_integer = [](std::string_view s, bool allow_sign) {
    if (allow_sign && !s.empty() && s.front() == '-') s.remove_prefix(1);
    if (s.empty() || s.size() > 2 * kMaxDecimalExponent + 1) return false;
    for (char c : s)
      if (!is_digit(c)) return false;
    return true;
  };
  if (!is_integer(num, true) || !is_integer(den, false))
    return fail("expected a rational \"p/q\" with integers p and q, got \"" + std::string(text) + "\"");
  mpz_class q(std::string(den), 10);
  if (q == 0) return fail("zero denominator in \"" + std::string(text) + "\"");
  // The same range as a decimal for the value, and for the numerator and denominator what an
  // exact in-range decimal can need (10^616: a 308-digit fraction of a 1e-308 value): a 700-digit
  // numerator is as far from anything drawable as 1e700, and as slow to compute with.
  const mpz_class p(std::string(num), 10);
  static const mpz_class huge = [] {
    mpz_class h;
    mpz_ui_pow_ui(h.get_mpz_t(), 10, 2 * kMaxDecimalExponent);
    return h;
  }();
  if (abs(p) > huge || q > huge) return fail(out_of_range_message(text));
  Rational value(p, q);
  value.canonicalize();
  static const Rational largest = [] {
    Rational r;
    mpz_ui_pow_ui(r.get_num_mpz_t(), 10, kMaxDecimalExponent);
    return r;
  }();
  if (value != 0 && (abs(value) > largest || abs(value) < 1 / largest)) return fail(out_of_range_message(text));
  return {std::move(value), {}};
}

std::string to_text(const Rational& value) {
  if (value.get_den() == 1) return value.get_num().get_str();
  mpz_class den = value.get_den();
  unsigned twos = 0, fives = 0;
  while (mpz_divisible_ui_p(den.get_mpz_t(), 2)) {
    den /= 2;
    ++twos;
  }
  while (mpz_divisible_ui_p(den.get_mpz_t(), 5)) {
    den /= 5;
    ++fives;
  }
  const unsigned places = twos > fives ? twos : fives;
  if (den != 1 || places > 40) return value.get_str();
  mpz_class scale;
  mpz_ui_pow_ui(scale.get_mpz_t(), 10, places);
  mpz_class scaled = abs(value.get_num()) * (scale / value.get_den());
  std::string digits = scaled.get_str();
  if (digits.size() <= places) digits.insert(0, places - digits.size() + 1, '0');
  digits.insert(digits.size() - places, ".");
  return (value < 0 ? "-" : "") + digits;
}

double to_double(const Rational& value) {
  return value.get_d();
}

}  // namespace geotruth
