#include "import/logic_form.hpp"

namespace geotruth::import {
namespace {

// White space as std::isspace has it in the C locale, without a library call per character.
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  // The whole text as one term, read into `out` (or only checked when it is null).
  bool whole(Term* out) {
    const bool parsed = parse(0, out);
    skip_space();
    return parsed && pos_ == text_.size();
  }

  // The name the text starts with (empty when it starts with none).
  std::string_view name() {
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '(' && text_[pos_] != ')' && text_[pos_] != ',') ++pos_;
    std::string_view name = text_.substr(start, pos_ - start);
    while (!name.empty() && is_space(name.back())) name.remove_suffix(1);
    return name;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }

  bool parse(int depth, Term* out) {
    if (depth > 32) return false;
    const std::string_view term_name = name();
    if (term_name.empty()) return false;
    if (out) out->name = term_name;
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '(') {
      ++pos_;
      for (;;) {
        if (!parse(depth + 1, out ? &out->args.emplace_back() : nullptr)) return false;
        skip_space();
        if (pos_ >= text_.size()) return false;
        if (text_[pos_] == ')') {
          ++pos_;
          break;
        }
        if (text_[pos_] != ',') return false;
        ++pos_;
      }
    }
    return true;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<Term> parse_term(std::string_view text) {
  Term term;
  if (!Parser(text).whole(&term)) return std::nullopt;
  return term;
}

bool is_term(std::string_view text) {
  return Parser(text).whole(nullptr);
}

std::string_view term_name(std::string_view text) {
  return Parser(text).name();
}

}  // namespace geotruth::import
