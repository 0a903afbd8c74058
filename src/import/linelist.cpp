// Line lists: one row per full drawn line, its points in order. "# figure: NAME" or a blank line
// starts the next figure; other text after '#' is a comment. A row is whitespace/comma separated
// names ("A D B"), or one word of single-letter names with primes or digits ("ADB", "AB'C").
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <sstream>

#include "import/figure_builder.hpp"
#include "import/importers.hpp"

namespace geotruth::import {
namespace {

std::vector<std::string> row_names(const std::string& row) {
  std::vector<std::string> words;
  std::string word;
  for (char c : row + " ") {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (words.size() != 1) return words;
  std::vector<std::string> letters;
  for (char c : words.front()) {
    if (std::isupper(static_cast<unsigned char>(c)) || letters.empty())
      letters.emplace_back(1, c);
    else
      letters.back() += c;  // primes and digits belong to the letter before them
  }
  return letters;
}

struct Draft {
  std::string name;
  std::vector<std::vector<std::string>> rows;
};

ImportedScene build(const Draft& draft) {
  FigureBuilder figure(draft.name);
  for (const auto& row : draft.rows)
    for (const auto& name : row)
      if (!figure.has_point(name)) figure.add_point(name, std::nullopt);
  for (const auto& row : draft.rows) {
    if (row.size() < 2) {
      figure.note("short_line", "a line needs at least two points");
      continue;
    }
    std::vector<std::string> seen;
    bool repeated = false;
    for (const auto& n : row) {
      repeated = repeated || std::count(seen.begin(), seen.end(), n);
      seen.push_back(n);
    }
    if (repeated) {
      figure.note("repeated_point", "a point is listed twice on one line; line skipped");
      continue;
    }
    auto piece = figure.piece(row.front(), row.back());
    if (!piece) continue;
    for (std::size_t k = 1; k + 1 < row.size(); ++k) figure.on_piece(*piece, row[k]);
  }
  return figure.finish();
}

// The offset of the first byte that breaks UTF-8 (RFC 3629: no overlongs, surrogates or code
// points past U+10FFFF), or npos. Point names must read back from the JSON we write.
std::size_t invalid_utf8_at(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return i;
    std::uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d >> 6) != 0x2) return i;
      cp = (cp << 6) | (d & 0x3F);
    }
    const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n;
  }
  return std::string_view::npos;
}

}  // namespace

std::vector<ImportedScene> import_linelist(std::string_view text, const std::string& file_name) {
  const std::string stem = std::filesystem::path(file_name).stem().string();
  std::vector<ImportedScene> out;
  if (const std::size_t bad = invalid_utf8_at(text); bad != std::string_view::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    out.push_back({stem,
                   InputError{"", "invalid UTF-8 on line " + std::to_string(line) + " (byte " + std::to_string(bad) +
                                      "): a line list is UTF-8 text"},
                   {},
                   {}});
    return out;
  }
  Draft draft;
  auto flush = [&] {
    if (draft.rows.empty()) return;
    if (draft.name.empty()) draft.name = stem + "-" + std::to_string(out.size() + 1);
    out.push_back(build(draft));
    draft = Draft{};
  };
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) {
      std::string comment = line.substr(hash + 1);
      const std::size_t colon = comment.find(':');
      std::string head = comment.substr(0, colon);
      head.erase(0, head.find_first_not_of(" \t"));
      if (colon != std::string::npos && head.rfind("figure", 0) == 0) {
        flush();
        std::string name = comment.substr(colon + 1);
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t\r") + 1);
        draft.name = name;
      }
      line.erase(hash);
    }
    auto names = row_names(line);
    if (names.empty()) {
      if (hash == std::string::npos) flush();  // a truly blank line ends the figure
      continue;
    }
    draft.rows.push_back(std::move(names));
  }
  flush();
  return out;
}

}  // namespace geotruth::import
