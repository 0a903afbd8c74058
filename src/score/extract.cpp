#include "score/extract.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <geotruth/questions.hpp>
#include <geotruth/rational.hpp>
#include <vector>

namespace geotruth::score {

const char* method_name(Method method) {
  switch (method) {
    case Method::marker:
      return "marker";
    case Method::letter:
      return "letter";
    case Method::text:
      return "text";
    case Method::number:
      return "number";
    case Method::given:
      return "given";
    case Method::none:
      break;
  }
  return "none";
}

namespace {

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
// Letters, digits, '_' and any byte of a non-ASCII character belong to a word.
bool is_word(char c) {
  return is_alpha(c) || is_digit(c) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
std::string lowered(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = lower(c);
  return out;
}
std::string_view trimmed(std::string_view text, std::string_view strip = " \t\r\n") {
  const auto begin = text.find_first_not_of(strip);
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(strip) - begin + 1);
}

// A candidate answer found at [begin, end) of the text.
struct Found {
  std::size_t begin = 0, end = 0;
  std::optional<std::size_t> option;
  std::string value;
};

// The word starting at `at` (letters only).
std::string_view word_at(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && is_alpha(text[end])) ++end;
  return text.substr(at, end - at);
}

// "A circle" and "I think" are prose; "A is", "A because" name an option.
bool is_prose(std::string_view text, std::size_t at) {
  const char c = text[at];
  if ((c != 'A' && c != 'I') || at + 2 >= text.size() || text[at + 1] != ' ') return false;
  const std::string_view next = word_at(text, at + 2);
  if (next.empty() || !(next[0] >= 'a' && next[0] <= 'z')) return false;
  static constexpr std::array<std::string_view, 16> kConnectives = {
      "is",  "because", "since", "as",   "and",     "or",   "with",        "which",
      "for", "but",     "so",    "then", "matches", "fits", "corresponds", "seems"};
  for (auto w : kConnectives)
    if (next == w) return false;
  return true;
}

// Standalone option letters in `text`, in order. `strict`: letters naming points count only as
// the whole text or opening it ("B.", "B)", "(B)").
std::vector<Found> letters(std::string_view text, std::size_t options, const std::set<char>& point_letters,
                           bool strict) {
  std::vector<Found> out;
  const std::string_view whole = trimmed(text, " \t\r\n.()[]*:'\"");
  const std::string_view opening = trimmed(text, " \t\r\n([*");
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool upper = c >= 'A' && c < static_cast<char>('A' + options);
    const bool lower_in_parens = c >= 'a' && c < static_cast<char>('a' + options) && i > 0 && text[i - 1] == '(' &&
                                 i + 1 < text.size() && text[i + 1] == ')';
    if (!upper && !lower_in_parens) continue;
    const char before = i > 0 ? text[i - 1] : ' ', after = i + 1 < text.size() ? text[i + 1] : ' ';
    const char after2 = i + 2 < text.size() ? text[i + 2] : ' ';
    if (is_word(before) || is_word(after)) continue;
    if ((before == '-' && i > 1 && is_word(text[i - 2])) || ((after == '-' || after == '\'') && is_word(after2)))
      continue;  // "A-B" names a segment; "A's" is a word
    if (is_prose(text, i)) continue;
    const std::size_t option = static_cast<std::size_t>(lower(c) - 'a');
    if (strict && point_letters.count(static_cast<char>('A' + option))) {
      const bool alone = whole.size() == 1 && whole.data() == text.data() + i;
      const bool opens = opening.data() == text.data() + i && (after == '.' || after == ')' || after == ':');
      if (!alone && !opens) continue;
    }
    out.push_back({i, i + 1, option, {}});
  }
  return out;
}

bool is_number_option(const std::string& option) {
  return parse_rational_string(std::string(trimmed(option))).value.has_value();
}

// Whole-phrase occurrences of the (non-numeric) options' texts, any case.
std::vector<Found> option_texts(std::string_view text, const Question& question) {
  const std::string haystack = lowered(text);
  std::vector<Found> out;
  for (std::size_t k = 0; k < question.options.size(); ++k) {
    if (is_number_option(question.options[k])) continue;
    std::string phrase = lowered(trimmed(question.options[k]));
    std::vector<std::string> phrases{phrase};
    if (const auto paren = phrase.find(" ("); paren != std::string::npos && paren > 0)
      phrases.push_back(phrase.substr(0, paren));
    for (const auto& p : phrases) {
      if (p.empty()) continue;
      for (auto at = haystack.find(p); at != std::string::npos; at = haystack.find(p, at + 1)) {
        const std::size_t end = at + p.size();
        if ((at > 0 && is_word(haystack[at - 1])) || (end < haystack.size() && is_word(haystack[end]))) continue;
        out.push_back({at, end, k, {}});
      }
    }
  }
  return out;
}

// Numbers in digits ("3", "-2", "0.42") or words ("three"), with their decimal text.
std::vector<Found> numbers(std::string_view text) {
  static constexpr std::array<std::string_view, 21> kWords = {
      "zero",     "one",     "two",     "three",     "four",     "five",     "six",
      "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",   "thirteen",
      "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
  std::vector<Found> out;
  for (std::size_t i = 0; i < text.size();) {
    if (is_digit(text[i]) && (i == 0 || !is_word(text[i - 1]))) {
      std::size_t begin = i > 0 && text[i - 1] == '-' && (i < 2 || !is_word(text[i - 2])) ? i - 1 : i, end = i;
      while (end < text.size() && is_digit(text[end])) ++end;
      if (end + 1 < text.size() && text[end] == '.' && is_digit(text[end + 1])) {
        ++end;
        while (end < text.size() && is_digit(text[end])) ++end;
      }
      if (end == text.size() || !is_word(text[end]))
        out.push_back({begin, end, {}, std::string(text.substr(begin, end - begin))});
      i = end;
      continue;
    }
    if (is_alpha(text[i]) && (i == 0 || !is_word(text[i - 1]))) {
      const std::string_view word = word_at(text, i);
      const std::string w = lowered(word);
      for (std::size_t n = 0; n < kWords.size(); ++n)
        if (w == kWords[n] && (i + word.size() == text.size() || !is_word(text[i + word.size()])))
          out.push_back({i, i + word.size(), {}, std::to_string(n)});
      i += word.size();
      continue;
    }
    ++i;
  }
  return out;
}

// Numbers that are an option's value (questions with options), or every number (without).
std::vector<Found> number_answers(std::string_view text, const Question& question) {
  std::vector<Found> out;
  for (Found f : numbers(text)) {
    if (!question.options.empty()) {
      Truth value;
      value.values = {f.value};
      const auto matching = matching_options(question, value);
      if (matching.empty()) continue;
      f.option = matching.front();
    }
    out.push_back(std::move(f));
  }
  return out;
}

bool numeric_question(const Question& question) {
  if (question.options.empty()) return question.ask == "count" || is_number_option(question.answer);
  for (const auto& o : question.options)
    if (!is_number_option(o)) return false;
  return true;
}

struct Rules {
  std::vector<Found> letters, texts, numbers;
};

Rules find_all(std::string_view text, const Question& question, const std::set<char>& point_letters, bool strict) {
  Rules r;
  if (!question.options.empty()) {
    r.letters = letters(text, question.options.size(), point_letters, strict);
    r.texts = option_texts(text, question);
  }
  if (numeric_question(question)) r.numbers = number_answers(text, question);
  return r;
}

// The text after each answer marker, to the end of its line, last marker first.
std::vector<std::string_view> after_markers(std::string_view response) {
  const std::string text = lowered(response);
  std::vector<std::string_view> out;
  for (std::string_view noun : {"answer", "option", "choice"})
    for (auto at = text.find(noun); at != std::string::npos; at = text.find(noun, at + 1)) {
      if ((at > 0 && is_word(text[at - 1])) ||
          (at + noun.size() < text.size() && is_word(text[at + noun.size()]) && text[at + noun.size()] != 's'))
        continue;
      std::size_t i = at + noun.size();
      if (i < text.size() && text[i] == 's') ++i;  // "answers:"
      auto skip = [&] {
        while (i < text.size() && std::string_view(" \t*_\"'`").find(text[i]) != std::string_view::npos) ++i;
      };
      skip();
      bool connected = false;
      for (std::string_view connector : {":", "=", "is", "would be", "should be", "must be", "will be"})
        if (text.compare(i, connector.size(), connector) == 0 &&
            (!is_alpha(connector.back()) || i + connector.size() == text.size() ||
             !is_word(text[i + connector.size()]))) {
          i += connector.size();
          connected = true;
          break;
        }
      if (!connected) continue;
      skip();
      if (i < text.size() && text[i] == ':') ++i, skip();
      const std::size_t end = std::min(text.find('\n', i), text.size());
      out.push_back(response.substr(i, end - i));
    }
  std::sort(out.begin(), out.end(), [](auto a, auto b) { return a.data() > b.data(); });
  return out;
}

}  // namespace

Extracted extract_answer(std::string_view response, const Question& question, const std::set<char>& point_letters) {
  auto answer = [&](Method method, const Found& f) {
    Extracted e;
    e.method = method;
    e.option = f.option;
    e.value = f.value;
    return e;
  };
  // 1. After a marker: the first answer named there.
  for (std::string_view segment : after_markers(response)) {
    const Rules r = find_all(segment, question, point_letters, false);
    const Found* first = nullptr;
    for (const auto* list : {&r.letters, &r.texts, &r.numbers})
      if (!list->empty() && (!first || list->front().begin < first->begin)) first = &list->front();
    if (first) return answer(Method::marker, *first);
    if (question.options.empty() && !numeric_question(question) && !trimmed(segment, " \t\r\n.").empty()) {
      Found whole;
      whole.value = std::string(trimmed(segment, " \t\r\n."));
      return answer(Method::marker, whole);
    }
  }
  // 2–4 over the whole response: the last of each kind.
  const Rules r = find_all(response, question, point_letters, true);
  if (!r.letters.empty()) return answer(Method::letter, r.letters.back());
  if (!r.texts.empty()) {
    const Found* last = &r.texts.front();
    for (const auto& f : r.texts)
      if (f.end > last->end || (f.end == last->end && f.begin < last->begin)) last = &f;
    return answer(Method::text, *last);
  }
  if (!r.numbers.empty()) return answer(Method::number, r.numbers.back());
  if (question.options.empty() && !numeric_question(question) && !trimmed(response).empty()) {
    Found whole;
    whole.value = std::string(trimmed(response, " \t\r\n."));
    return answer(Method::text, whole);
  }
  return {};
}

Extracted given_answer(std::string_view answer, const Question& question) {
  Extracted e;
  e.method = Method::given;
  const auto begin = answer.find_first_not_of(" \t\r\n"), end = answer.find_last_not_of(" \t\r\n");
  e.value = begin == std::string_view::npos ? std::string() : std::string(answer.substr(begin, end - begin + 1));
  auto lower = [](std::string t) {
    for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return t;
  };
  for (std::size_t k = 0; k < question.options.size() && !e.option; ++k)
    if (lower(question.options[k]) == lower(e.value)) e.option = k;
  if (!e.option && e.value.size() == 1 && std::isalpha(static_cast<unsigned char>(e.value[0]))) {
    const std::size_t k = static_cast<std::size_t>(std::tolower(static_cast<unsigned char>(e.value[0])) - 'a');
    if (k < question.options.size()) e.option = k;
  }
  return e;
}

}  // namespace geotruth::score
