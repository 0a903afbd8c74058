// For the bench anchors: a JSON document whose numbers keep their decimal text (nlohmann's SAX
// parser hands the text over; the DOM would round it to a double), and that text as an exact
// rational.
#pragma once

#include <gmpxx.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace bench {

class ExactNumbers : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  using json_sax_dom_parser::json_sax_dom_parser;
  bool number_float(double, const std::string& text) {
    std::string copy = text;
    return string(copy);
  }
  bool number_integer(std::int64_t value) {
    std::string text = std::to_string(value);
    return string(text);
  }
  bool number_unsigned(std::uint64_t value) {
    std::string text = std::to_string(value);
    return string(text);
  }
};

// A document in which every number is a string of its decimal text.
inline nlohmann::json parse_exact(const std::string& text) {
  nlohmann::json document;
  ExactNumbers handler(document);
  if (!nlohmann::json::sax_parse(text, &handler)) throw std::runtime_error("not JSON");
  return document;
}

// "12.5" → 25/2 (plain decimals only: what the bench's generators write).
inline mpq_class decimal(const std::string& text) {
  const auto dot = text.find('.');
  std::string digits = text;
  mpz_class denominator = 1;
  if (dot != std::string::npos) {
    digits.erase(dot, 1);
    mpz_ui_pow_ui(denominator.get_mpz_t(), 10, text.size() - dot - 1);
  }
  mpq_class value(mpz_class(digits), denominator);
  value.canonicalize();
  return value;
}

}  // namespace bench
