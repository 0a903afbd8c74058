#include "score/harness.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <vector>

namespace geotruth::score {
namespace {

namespace fs = std::filesystem;

std::string lowered_extension(const std::string& path) {
  std::string extension = fs::path(path).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension;
}

// RFC 4180 records: fields separated by `delimiter`, a field in double quotes may hold the
// delimiter, line breaks and "" for a quote. Characters after a closing quote are kept (pandas
// does the same); a file ending inside quotes is an error.
class DelimitedReader {
 public:
  DelimitedReader(std::istream& in, char delimiter, std::size_t max_record_bytes)
      : in_(in), delimiter_(delimiter), max_bytes_(max_record_bytes) {
    if (in_.peek() == 0xEF) {  // a UTF-8 byte order mark (Excel writes one)
      char bom[3];
      in_.read(bom, 3);
      if (std::string_view(bom, 3) != "\xEF\xBB\xBF") in_.seekg(0);
    }
  }

  /// The next record and the line it starts on; false at the end of the file.
  bool next(std::vector<std::string>& fields, std::size_t& line) {
    fields.clear();
    int c = in_.get();
    if (c == EOF) return false;
    line = ++line_;
    std::string field;
    std::size_t bytes = 0;
    bool quoted = false, was_quoted = false;
    for (;; c = in_.get()) {
      if (c == EOF) {
        if (quoted) throw std::runtime_error("line " + std::to_string(line) + ": a quoted field is not closed");
        break;
      }
      const char ch = static_cast<char>(c);
      if (++bytes > max_bytes_)
        throw std::runtime_error("line " + std::to_string(line) + ": a record longer than " +
                                 std::to_string(max_bytes_) + " bytes");
      if (quoted) {
        if (ch == '"') {
          if (in_.peek() == '"') {
            in_.get();
            field += '"';
          } else {
            quoted = false;
          }
        } else {
          if (ch == '\n') ++line_;
          field += ch;
        }
      } else if (ch == '"' && field.empty() && !was_quoted) {
        quoted = was_quoted = true;
      } else if (ch == delimiter_) {
        fields.push_back(std::move(field));
        field.clear(), was_quoted = false;
      } else if (ch == '\n') {
        break;
      } else if (ch == '\r' && in_.peek() == '\n') {
        continue;
      } else {
        field += ch;
      }
    }
    fields.push_back(std::move(field));
    return true;
  }

 private:
  std::istream& in_;
  char delimiter_;
  std::size_t max_bytes_, line_ = 0;
};

// Turns a table's rows (header first) into response rows.
class TableRows {
 public:
  TableRows(const std::string& path, Model& model) : path_(path), model_(model) {}

  void add(std::size_t line, const std::vector<std::string>& cells) {
    if (!header_) {
      header_ = true;
      for (std::size_t k = 0; k < cells.size(); ++k) columns_.try_emplace(cells[k], k);
      for (const char* needed : {"prediction", "question_id"})
        if (!columns_.count(needed))
          throw std::runtime_error(std::string("no ") + needed +
                                   " column (a VLMEvalKit prediction file of a dataset written by geotruth export "
                                   "--format vlmevalkit has scene_id, question_id and prediction)");
      return;
    }
    auto cell = [&](const char* column) -> const std::string* {
      const auto it = columns_.find(column);
      return it != columns_.end() && it->second < cells.size() ? &cells[it->second] : nullptr;
    };
    if (std::all_of(cells.begin(), cells.end(), [](const std::string& c) { return c.empty(); })) return;
    ordered_json row = ordered_json::object();
    if (const auto* scene = cell("scene_id"); scene && !scene->empty()) row["scene"] = *scene;
    if (const auto* id = cell("question_id")) row["question_id"] = *id;
    if (const auto* index = cell("index")) row["index"] = *index;
    const auto* prediction = cell("prediction");
    row["response"] = prediction ? *prediction : std::string();
    model_.rows.push_back({line, std::move(row), ""});
  }
  bool empty() const { return !header_; }

 private:
  std::string path_;
  Model& model_;
  bool header_ = false;
  std::map<std::string, std::size_t> columns_;
};

// The first text in a value: itself, or the first of its elements (depth first).
std::optional<std::string> first_text(const ordered_json& value, int depth = 0) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array() && depth < 8)
    for (const auto& element : value)
      if (auto text = first_text(element, depth + 1)) return text;
  return std::nullopt;
}

std::string id_text(const ordered_json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer() || value.is_number_unsigned()) return value.dump();
  return "";
}

}  // namespace

bool is_prediction_table(const std::string& path) {
  const std::string extension = lowered_extension(path);
  return extension == ".xlsx" || extension == ".csv" || extension == ".tsv";
}

void read_prediction_table(const std::string& path, const Limits& limits, const XlsxLimits& xlsx, Model& model) {
  TableRows rows(path, model);
  const std::size_t before = model.rows.size();
  try {
    if (lowered_extension(path) == ".xlsx") {
      XlsxLimits within = xlsx;
      within.max_cell_bytes = std::min(within.max_cell_bytes, limits.max_line_bytes);
      read_xlsx(path, within, [&](std::size_t row, std::vector<std::string>& cells) { rows.add(row, cells); });
    } else {
      std::ifstream in(path, std::ios::binary);
      if (!in) throw std::runtime_error("cannot open");
      DelimitedReader reader(in, lowered_extension(path) == ".tsv" ? '\t' : ',', limits.max_line_bytes);
      std::vector<std::string> fields;
      std::size_t line = 0;
      while (reader.next(fields, line)) rows.add(line, fields);
    }
    if (rows.empty()) throw std::runtime_error("no header row (an empty table)");
  } catch (const XlsxError& e) {
    model.rows.resize(before);
    model.rows.push_back({0, nullptr, e.what()});
  } catch (const std::exception& e) {
    model.rows.resize(before);
    model.rows.push_back({0, nullptr, path + ": " + e.what()});
  }
}

std::optional<ordered_json> lmms_eval_row(const ordered_json& row) {
  if (!row.is_object() || !row.contains("doc_id") || (!row.contains("filtered_resps") && !row.contains("resps")))
    return std::nullopt;
  ordered_json out = ordered_json::object();
  for (const char* source : {"geotruth", "doc"}) {
    const auto it = row.find(source);
    if (it == row.end() || !it->is_object()) continue;
    const std::string scene = id_text(it->value("scene_id", ordered_json())),
                      question = id_text(it->value("question_id", ordered_json()));
    if (question.empty()) continue;
    if (!scene.empty()) out["scene"] = scene;
    out["question_id"] = question;
    break;
  }
  std::optional<std::string> response;
  for (const char* key : {"filtered_resps", "resps"})
    if (!response && row.contains(key)) response = first_text(row[key]);
  if (response) out["response"] = *response;
  out["doc_id"] = row["doc_id"];
  return out;
}

}  // namespace geotruth::score
