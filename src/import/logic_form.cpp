#include "import/logic_form.hpp"

#include <cctype>

namespace geotruth::import {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<Term> whole() {
    auto term = parse(0);
    skip_space();
    if (!term || pos_ != text_.size()) return std::nullopt;
    return term;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  std::optional<Term> parse(int depth) {
    if (depth > 32) return std::nullopt;
    skip_space();
    Term term;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '(' && text_[pos_] != ')' && text_[pos_] != ',') ++pos_;
    term.name = text_.substr(start, pos_ - start);
    while (!term.name.empty() && std::isspace(static_cast<unsigned char>(term.name.back()))) term.name.remove_suffix(1);
    if (term.name.empty()) return std::nullopt;
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '(') {
      ++pos_;
      for (;;) {
        auto arg = parse(depth + 1);
        if (!arg) return std::nullopt;
        term.args.push_back(std::move(*arg));
        skip_space();
        if (pos_ >= text_.size()) return std::nullopt;
        if (text_[pos_] == ')') {
          ++pos_;
          break;
        }
        if (text_[pos_] != ',') return std::nullopt;
        ++pos_;
      }
    }
    return term;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<Term> parse_term(std::string_view text) {
  return Parser(text).whole();
}

}  // namespace geotruth::import
