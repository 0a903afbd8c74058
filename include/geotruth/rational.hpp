// Exact rational numbers as geotruth reads them from JSON text.
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <string_view>

namespace geotruth {

/// Every coordinate, radius and angle in a scene is an exact rational. Values must be canonical
/// (lowest terms): GMP's mpq_class(p, q) does not reduce, so write Rational(p) / q instead.
using Rational = mpq_class;

/// Result of reading one number's text: the value, or why the text is not an accepted number.
struct RationalParse {
  std::optional<Rational> value;
  std::string error;  ///< empty when value is set
};

/// Reads a JSON number's decimal text ("-12.5e-3") exactly: 0.1 is 1/10, not the nearest double.
/// Accepts only JSON number grammar. Values whose decimal magnitude lies outside 1e±308
/// (they overflow a double, so no renderer could use them) are rejected as out of range.
RationalParse parse_decimal(std::string_view text);

/// Reads a number written as a string: decimal text as above, or "p/q" with integers p, q
/// (q != 0, optional leading '-'), e.g. "700/3". Whitespace is not accepted.
RationalParse parse_rational_string(std::string_view text);

/// `degrees` reduced exactly into [0, 360) (one floor division: no loop, whatever its size).
Rational reduce_degrees(const Rational& degrees);

/// The one message for a number outside 1e-308 … 1e308 (decimal, "p/q" or JSON), naming `text`
/// when it is given.
std::string out_of_range_message(std::string_view text = {});

/// Canonical text for a rational: "3", "-1/3", or the exact decimal "0.125" when the
/// denominator has no prime factor other than 2 and 5 and the decimal is short.
std::string to_text(const Rational& value);

/// Nearest double; only for reporting slack and drawing, never for decisions.
double to_double(const Rational& value);

}  // namespace geotruth
