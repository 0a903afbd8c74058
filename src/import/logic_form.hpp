// Geometry3K-style logic form terms: "PointLiesOnLine(N, Line(X, Z))".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace geotruth::import {

struct Term {
  std::string_view name;   ///< a view into the parsed text
  std::vector<Term> args;  ///< empty for a plain name
};

/// Parses one term; empty on malformed text (unbalanced parentheses, empty names, trailing text).
/// The term's names view `text`, which must outlive it.
std::optional<Term> parse_term(std::string_view text);

/// Whether parse_term would give a term, without building it.
bool is_term(std::string_view text);

/// The name of the term `text` would parse to (when it parses at all): its text up to the first
/// parenthesis or comma, without surrounding space.
std::string_view term_name(std::string_view text);

}  // namespace geotruth::import
