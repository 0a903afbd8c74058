// Geometry3K: diagram_logic_forms_annot.json (keyed by problem id) or a per-problem logic_form.json.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <streambuf>

#include "core/exact_json.hpp"
#include "core/json_reader.hpp"
#include "import/figure_builder.hpp"
#include "import/importers.hpp"
#include "import/logic_form.hpp"

namespace geotruth::import {
namespace {

using json::Value;

std::optional<Vec2> position(const Value& v) {
  if (v.kind != Value::Kind::array || v.items.size() != 2) return std::nullopt;
  auto x = parse_decimal(v.items[0].text), y = parse_decimal(v.items[1].text);
  if (v.items[0].kind != Value::Kind::number || v.items[1].kind != Value::Kind::number || !x.value || !y.value)
    return std::nullopt;
  if (*x.value == -1 && *y.value == -1) return std::nullopt;  // Geometry3K's "no position"
  return Vec2{std::move(*x.value), std::move(*y.value)};
}

// The strings of a JSON list (views into it). Geometry3K writes "" as a placeholder for "none"
// (e.g. "circle_instances": [""]): those are absent, counted in `placeholders`.
std::vector<std::string_view> strings(const Value* list, std::size_t& placeholders) {
  std::vector<std::string_view> out;
  if (list && list->kind == Value::Kind::array)
    for (const auto& item : list->items)
      if (item.kind == Value::Kind::string) {
        if (item.text.empty())
          ++placeholders;
        else
          out.push_back(item.text);
      }
  return out;
}

// "SR" → (S, R) when exactly one split names two known points. Linear in the name's length: a
// name longer than two point names cannot split, and the halves are looked up as views.
std::optional<std::pair<std::string_view, std::string_view>> split_line_name(std::string_view name,
                                                                             FigureBuilder& figure) {
  std::optional<std::pair<std::string_view, std::string_view>> found;
  std::size_t splits = 0;
  if (name.size() <= 2 * figure.longest_point_name())
    for (std::size_t k = 1; k < name.size(); ++k) {
      const std::string_view a = name.substr(0, k), b = name.substr(k);
      if (figure.has_point(a) && figure.has_point(b) && ++splits == 1) found.emplace(a, b);
    }
  if (splits == 1) return found;
  figure.note("unresolvable_line", "line \"" +
                                       (name.size() > 80 ? std::string(name.substr(0, 80)) + "…" : std::string(name)) +
                                       "\" splits " + std::to_string(splits) + " ways into known point names; skipped");
  return std::nullopt;
}

bool is_name(const Term& t) {
  return t.args.empty();
}

void apply_fact(std::string_view text, FigureBuilder& figure) {
  auto unparsable = [&] { figure.note("malformed_fact", "cannot parse \"" + std::string(text) + "\""); };
  const std::string_view name = term_name(text);
  const bool on_line = name == "PointLiesOnLine", on_circle = name == "PointLiesOnCircle";
  if (!on_line && !on_circle) {  // measures, perpendicularity, ...: not incidences, only checked
    if (!is_term(text)) unparsable();
    return;
  }
  const auto term = parse_term(text);
  if (!term) {
    unparsable();
    return;
  }
  const std::string_view shape = on_line ? "Line" : "Circle";
  // Circle(O) without a radius name is the unnamed circle about O.
  const std::size_t shape_args = term->args.size() == 2 ? term->args[1].args.size() : 0;
  if (term->args.size() != 2 || !is_name(term->args[0]) || term->args[1].name != shape ||
      !(shape_args == 2 || (on_circle && shape_args == 1)) ||
      !std::all_of(term->args[1].args.begin(), term->args[1].args.end(), is_name)) {
    figure.note("malformed_fact", "expected " + std::string(term->name) + "(P, " + std::string(shape) + "(A, " +
                                      (on_line ? "B" : "r") + ")), got \"" + std::string(text) + "\"");
    return;
  }
  const std::string_view p = term->args[0].name, a = term->args[1].args[0].name,
                         b = shape_args == 2 ? term->args[1].args[1].name : "";
  const std::string_view needed[] = {p, a, b};
  for (const std::string_view n : std::span(needed, on_line ? 3 : 2))
    if (!(on_circle && n == a ? figure.has_centre(n) : figure.has_point(n))) {
      figure.note("unknown_point", "\"" + std::string(text) + "\" names unknown point " + std::string(n));
      return;
    }
  if (on_line) {
    if (auto piece = figure.piece(a, b)) figure.on_piece(*piece, p);
  } else {
    figure.on_circle(figure.circle(a, b), p);
  }
}

ImportedScene import_problem(const std::string& id, const Value& problem, const std::string& pointer) {
  FigureBuilder figure(id);
  figure.set_origin(pointer);
  std::size_t placeholders = 0;
  if (problem.kind != Value::Kind::object) return {id, InputError{json::member_pointer(id), "expected an object"}, {}};
  const Value* positions = problem.find("point_positions");
  std::vector<std::string_view> names = strings(problem.find("point_instances"), placeholders);
  if (names.empty() && positions && positions->kind == Value::Kind::object)
    for (const auto& [name, _] : positions->members) names.push_back(name);
  const Value* redundant = problem.find("redundant_point_positions");
  if (redundant && redundant->kind != Value::Kind::object) redundant = nullptr;
  figure.reserve_points(names.size() + (redundant ? redundant->members.size() : 0));
  for (const auto& name : names) {
    const Value* at = positions ? positions->find(name) : nullptr;
    auto p = at ? position(*at) : std::nullopt;
    if (!p) figure.note("missing_position", "point " + std::string(name) + " has no position");
    figure.add_point(name, std::move(p));
  }
  if (redundant)
    for (const auto& [name, at] : redundant->members) figure.add_point(name, position(at), false);

  std::vector<std::string_view> seen;
  for (const auto name : strings(problem.find("line_instances"), placeholders)) {
    if (std::count(seen.begin(), seen.end(), name)) {
      figure.note("duplicate_line", "line \"" + std::string(name) + "\" is listed twice");
      continue;
    }
    seen.push_back(name);
    if (auto ends = split_line_name(name, figure)) figure.piece(ends->first, ends->second);
  }
  std::vector<std::size_t> drawn;
  for (const auto centre : strings(problem.find("circle_instances"), placeholders)) {
    if (centre.empty() || !figure.has_centre(centre)) {
      figure.note("circle_without_centre", "circle instance \"" + std::string(centre) + "\" names no known point");
      continue;
    }
    drawn.push_back(figure.circle(centre));
  }
  const Value* facts = problem.find("diagram_logic_forms");
  if (!facts) facts = problem.find("diagram_logic_form");
  for (const auto fact : strings(facts, placeholders)) apply_fact(fact, figure);
  figure.reconcile_centres(drawn);
  if (placeholders > 0)
    figure.note("placeholder", std::to_string(placeholders) + " empty \"\" entr" + (placeholders == 1 ? "y" : "ies") +
                                   " (Geometry3K's placeholder for none) read as absent");
  ImportedScene out = figure.finish();
  // The picture cross-check does not count a name the picture does not letter as a difference.
  if (auto* scene = std::get_if<Scene>(&out.scene))
    scene->extra = ordered_json{{"unshown",
                                 {{"letters", "Geometry3K's annotators name every point of the figure, "
                                              "whether its picture letters it or not"}}}}
                       .dump();
  return out;
}

constexpr const char* kExpected = "a Geometry3K object keyed by problem id";

// A whole-file input as the importers get it (batch.cpp reads the file and ends it with one '\n';
// an empty file stays empty), read in chunks rather than held.
class SourceText : public std::streambuf {
 public:
  explicit SourceText(const std::string& path) : file_(std::fopen(path.c_str(), "rb")), buffer_(new char[kSize]) {}
  ~SourceText() override {
    if (file_) std::fclose(file_);
  }
  SourceText(const SourceText&) = delete;
  SourceText& operator=(const SourceText&) = delete;
  bool ok() const { return file_ != nullptr; }

  // Appends to `out` the characters before the next one for which `stop` holds, and returns that
  // one (not consumed), or EOF: a whole buffer's run at a time.
  template <typename Stop>
  int append_until(std::string& out, Stop&& stop) {
    for (;;) {
      if (gptr() == egptr() && underflow() == traits_type::eof()) return traits_type::eof();
      char* at = gptr();
      while (at < egptr() && !stop(*at)) ++at;
      out.append(gptr(), at);
      setg(eback(), at, egptr());
      if (at < egptr()) return traits_type::to_int_type(*at);
    }
  }

  // Bytes [from, to) of the text, for error messages.
  static std::string bytes(const std::string& path, std::size_t size, std::size_t from, std::size_t to) {
    SourceText text(path);
    std::string out;
    if (!text.ok() || std::fseek(text.file_, static_cast<long>(from), SEEK_SET) != 0) return out;
    for (std::size_t at = from; at < std::min(to, size); ++at) {
      const int c = text.sbumpc();
      if (c == traits_type::eof()) break;
      out += static_cast<char>(c);
    }
    return out;
  }

 protected:
  int_type underflow() override {
    std::size_t n = file_ ? std::fread(buffer_.get(), 1, kSize, file_) : 0;
    if (n == 0) {
      if (ended_ || !read_any_) return traits_type::eof();
      ended_ = true;
      buffer_[0] = '\n';
      n = 1;
    }
    read_any_ = true;
    setg(buffer_.get(), buffer_.get(), buffer_.get() + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::FILE* file_;
  static constexpr std::size_t kSize = 1 << 16;
  std::unique_ptr<char[]> buffer_;  // not zeroed
  bool read_any_ = false, ended_ = false;
};

// The members of a root object checked beforehand (json::check): each problem's text is cut out
// by its brackets and string quotes, then read and imported on its own.
class ProblemStream final : public SourceStream {
 public:
  explicit ProblemStream(const std::string& path) : text_(path), file_name_(path) {
    skip_space();
    text_.sbumpc();  // '{'
  }

  bool next(ImportedScene& scene) override {
    skip_space();
    if (text_.sgetc() != '"') return false;  // '}' (or the end)
    const std::string id = nlohmann::json::parse(token()).get<std::string>();
    skip_space();
    text_.sbumpc();  // ':'
    skip_space();
    const std::string value = text_.sgetc() == '"' ? token() : nested_value();
    skip_space();
    if (text_.sgetc() == ',') text_.sbumpc();
    auto problem = json::read(value, source_limits());
    if (auto* error = std::get_if<InputError>(&problem)) {  // the file changed since it was checked
      scene = ImportedScene{file_name_, *error, {}, {}};
    } else {
      scene = import_problem(id, std::get<json::Value>(problem), json::member_pointer(id));
      validate_imported(scene);
    }
    return true;
  }

 private:
  void skip_space() {
    while (text_.sgetc() == ' ' || text_.sgetc() == '\n' || text_.sgetc() == '\t' || text_.sgetc() == '\r')
      text_.sbumpc();
  }
  // A string token with its quotes and escapes, as written.
  std::string token() {
    std::string out(1, static_cast<char>(text_.sbumpc()));
    for (int c; (c = text_.append_until(out, [](char k) { return k == '\\' || k == '"'; })) != EOF;) {
      out += static_cast<char>(text_.sbumpc());
      if (c == '"') break;
      if (text_.sgetc() != EOF) out += static_cast<char>(text_.sbumpc());  // the escaped character
    }
    return out;
  }
  // An object, array or bare scalar, up to where its parent resumes.
  std::string nested_value() {
    std::string out;
    int depth = 0;
    auto structure = [](char k) { return k == '"' || k == '{' || k == '[' || k == '}' || k == ']' || k == ','; };
    for (int c; (c = text_.append_until(out, structure)) != EOF;) {
      if (c == '"') {
        out += token();
        continue;
      }
      if (depth == 0 && (c == ',' || c == '}' || c == ']')) break;
      depth += (c == '{' || c == '[') - (c == '}' || c == ']');
      out += static_cast<char>(text_.sbumpc());
      if (depth == 0 && (c == '}' || c == ']')) break;
    }
    return out;
  }

  SourceText text_;  // read through its buffer directly: a character at a time, without istream's checks
  std::string file_name_;
};

// One record for the whole file: what import_geometry3k gives for a file it cannot read.
class FileError final : public SourceStream {
 public:
  explicit FileError(ImportedScene error) : error_(std::move(error)) {}
  bool next(ImportedScene& scene) override {
    if (done_) return false;
    scene = std::move(error_), done_ = true;
    return true;
  }

 private:
  ImportedScene error_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<SourceStream> stream_geometry3k(const std::string& path) {
  // Only a .json file is read whole by the batch layer as it is here (others are read by lines).
  std::error_code ec;
  const std::size_t bytes = std::filesystem::file_size(path, ec);
  if (path == "-" || ec || bytes >= kMaxSourceBytes ||
      !std::filesystem::path(path).extension().string().ends_with(".json"))
    return nullptr;
  const std::size_t size = bytes + (bytes > 0);  // the text ends with the '\n' the batch layer adds
  if (!SourceText(path).ok()) return nullptr;
  json::Value root;
  const auto error =
      json::check([&] { return std::make_unique<SourceText>(path); }, size,
                  [&](std::size_t from, std::size_t to) { return SourceText::bytes(path, size, from, to); },
                  source_limits(), {"diagram_logic_form", "point_positions"}, root);
  if (error) return std::make_unique<FileError>(ImportedScene{path, *error, {}, {}});
  if (root.kind != json::Value::Kind::object)
    return std::make_unique<FileError>(
        ImportedScene{path, InputError{"", std::string("expected ") + kExpected}, {}, {}});
  if (root.find("diagram_logic_form") || root.find("point_positions")) return nullptr;  // one small problem
  return std::make_unique<ProblemStream>(path);
}

std::vector<ImportedScene> import_geometry3k(std::string_view text, const std::string& file_name) {
  auto source = read_source_object(text, file_name, kExpected);
  if (auto* error = std::get_if<ImportedScene>(&source)) return {std::move(*error)};
  const Value& root = std::get<Value>(source);
  // A per-problem logic_form.json: its directory names the problem.
  if (root.find("diagram_logic_form") || root.find("point_positions")) {
    std::string id = std::filesystem::path(file_name).parent_path().filename().string();
    if (id.empty()) id = std::filesystem::path(file_name).stem().string();
    return {import_problem(id, root, "")};
  }
  std::vector<ImportedScene> out;
  for (const auto& [id, problem] : root.members) out.push_back(import_problem(id, problem, json::member_pointer(id)));
  return out;
}

}  // namespace geotruth::import
