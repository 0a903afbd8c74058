// Exact decimal semantics: numbers are read from their text, never through a double.
#include <gtest/gtest.h>

#include <geotruth/rational.hpp>

using geotruth::parse_decimal;
using geotruth::parse_rational_string;
using geotruth::Rational;

namespace {
Rational value_of(std::string_view text) {
  auto parsed = parse_rational_string(text);
  EXPECT_TRUE(parsed.value) << text << ": " << parsed.error;
  return parsed.value.value_or(Rational(-999));
}
}  // namespace

TEST(Rational, PointOnePlusPointTwoIsExactlyPointThree) {
  EXPECT_EQ(value_of("0.1") + value_of("0.2"), value_of("0.3"));
  // The doubles nearest these decimals do not add up; exactness is the point.
  EXPECT_NE(0.1 + 0.2, 0.3);
}

TEST(Rational, DecimalTextIsExact) {
  EXPECT_EQ(value_of("0.1"), Rational(1, 10));
  EXPECT_EQ(value_of("-12.5e-3"), Rational(-1, 80));
  EXPECT_EQ(value_of("1E2"), Rational(100));
  EXPECT_EQ(value_of("0.8726"), Rational(4363, 5000));
  EXPECT_EQ(value_of("123456789012345678901234567890"), Rational(mpz_class("123456789012345678901234567890")));
}

// Decimals of up to 19 digits are read in 64-bit integers, longer ones through GMP: both agree
// with the fraction "digits/10^k" read as integers, reduced or not, at and across the boundary.
TEST(Rational, ShortAndLongDecimalsAgreeWithTheirFractions) {
  for (std::string digits : {"105545573770491800", "1055455737704918000", "10554557377049180000", "9999999999999999999",
                             "1000000000000000000", "63669508196721310", "2500000000000000000"}) {
    for (std::size_t point = 1; point < digits.size(); ++point) {
      const std::string decimal = digits.substr(0, point) + "." + digits.substr(point);
      const std::string fraction = digits + "/1" + std::string(digits.size() - point, '0');
      EXPECT_EQ(value_of(decimal), value_of(fraction)) << decimal;
      EXPECT_EQ(value_of("-" + decimal), -value_of(fraction)) << decimal;
      EXPECT_EQ(value_of(decimal).get_den(), value_of(fraction).get_den()) << decimal << " is reduced";
    }
  }
}

TEST(Rational, FractionStrings) {
  EXPECT_EQ(value_of("1/3"), Rational(1, 3));
  EXPECT_EQ(value_of("700/3") * 3, Rational(700));
  EXPECT_EQ(value_of("-6/4"), Rational(-3, 2));
}

TEST(Rational, RejectsWhatIsNotANumber) {
  for (const char* bad : {"", "1/0", "abc", "1 /3", " 1", "01", "1.", ".5", "1e", "+1", "NaN", "Infinity", "1/-3"}) {
    auto parsed = parse_rational_string(bad);
    EXPECT_FALSE(parsed.value) << "accepted \"" << bad << "\"";
    EXPECT_FALSE(parsed.error.empty());
  }
}

TEST(Rational, OverflowIsAnError) {
  auto big = parse_decimal("1e400");
  ASSERT_FALSE(big.value);
  EXPECT_NE(big.error.find("out of range"), std::string::npos) << big.error;
  EXPECT_FALSE(parse_decimal("1e-400").value);
  EXPECT_FALSE(parse_decimal("1e99999999999999999999").value);
  EXPECT_TRUE(parse_decimal("1.7e308").value);
  EXPECT_TRUE(parse_decimal("0e99999").value);  // zero is zero whatever its exponent
}

TEST(Rational, CanonicalText) {
  EXPECT_EQ(geotruth::to_text(Rational(3)), "3");
  EXPECT_EQ(geotruth::to_text(Rational(-1, 3)), "-1/3");
  EXPECT_EQ(geotruth::to_text(Rational(1, 8)), "0.125");
  EXPECT_EQ(geotruth::to_text(Rational(-1, 80)), "-0.0125");
  EXPECT_EQ(geotruth::to_text(Rational(4363, 5000)), "0.8726");
  for (const char* text : {"0.125", "-1/3", "700/3", "0.8726", "-0.0125", "12"})
    EXPECT_EQ(value_of(geotruth::to_text(value_of(text))), value_of(text)) << text;
}
