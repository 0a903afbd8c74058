// VisOnlyQA (psunlpgroup/VisOnlyQA, docs/visonlyqa.md): one scene per item, named by the item's
// id. `synthetic_with_text` items describe their AlphaGeometry figure in the prompt (points at
// two-decimal positions, lines as runs of point names, circles by centre and radius); plain
// `synthetic` items share their pictures with text items and take the figure of the text item with
// the same image_path; `real` items (textbook figures) and the 3D tasks have no description: their
// questions are read into the vocabulary, and a scene without points is unsupported, never guessed.
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <sstream>

#include "core/exact_json.hpp"
#include "import/importers.hpp"

namespace geotruth {

namespace {

namespace fs = std::filesystem;
using json::Value;
using Kind = json::Value::Kind;

constexpr const char* kDescriptionHead = "The following text provides information about geometric shapes";
constexpr const char* k3dHead = "The following text provides information about 3D objects";
constexpr const char* kQuestionsAfter = "answer the following questions.";

std::string string_field(const Value& item, const char* key) {
  const Value* v = item.find(key);
  return v && v->kind == Kind::string ? v->text : std::string();
}

std::string trimmed(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r\n"), end = text.find_last_not_of(" \t\r\n");
  return begin == std::string_view::npos ? std::string() : std::string(text.substr(begin, end - begin + 1));
}

// The set an item file belongs to: its folder's name when it is one of VisOnlyQA's, else read
// from the file's name ("text_…" files carry descriptions).
std::string set_of(const std::string& path) {
  const std::string folder = fs::path(path).parent_path().filename().string();
  if (folder == "synthetic_with_text" || folder == "synthetic" || folder == "real") return folder;
  const std::string stem = fs::path(path).stem().string();
  if (stem.rfind("text_", 0) == 0) return "synthetic_with_text";
  if (stem.find("syntheticgeometry__") != std::string::npos || stem.rfind("3d__", 0) == 0) return "synthetic";
  return "real";
}

// The figure a text item describes, as read from its prompt.
struct Description {
  struct Point {
    std::string name;
    Vec2 at;
  };
  std::vector<Point> points;
  std::vector<std::string> lines;  // as written: runs of point names
  struct CircleText {
    std::string name;
    Vec2 center;
    Rational radius;
  };
  std::vector<CircleText> circles;
  std::string source_id;  // the text item it came from
};

// Reads "<number>" at `pos` in `text` (a JSON-style decimal), exactly.
std::optional<Rational> number_at(const std::string& text, std::size_t& pos) {
  const std::size_t begin = pos;
  while (pos < text.size() && (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '-' ||
                               text[pos] == '.' || text[pos] == '+' || text[pos] == 'e' || text[pos] == 'E'))
    ++pos;
  return parse_decimal(std::string_view(text).substr(begin, pos - begin)).value;
}

// Parses the description block; errors name what was expected.
std::variant<Description, std::string> parse_description(const std::string& prompt, std::vector<ImportNote>& notes) {
  Description d;
  const auto points_at = prompt.find("\nPoints:\n");
  const auto lines_at = prompt.find("\nLine:");
  const auto circles_at = prompt.find("\nCircles:\n");
  if (points_at == std::string::npos || lines_at == std::string::npos || circles_at == std::string::npos)
    return std::string("the description lacks its \"Points:\", \"Line:\" or \"Circles:\" section");
  // Points: "  Point A: Position(x=-0.01, y=1.42)"
  {
    std::istringstream block(prompt.substr(points_at + 9, lines_at - points_at - 9));
    std::string line;
    while (std::getline(block, line)) {
      line = trimmed(line);
      if (line.empty()) continue;
      static const std::string kPoint = "Point ", kAt = ": Position(x=", kY = ", y=";
      const auto colon = line.find(kAt);
      std::size_t pos = colon == std::string::npos ? 0 : colon + kAt.size();
      std::optional<Rational> x, y;
      if (line.rfind(kPoint, 0) == 0 && colon != std::string::npos && (x = number_at(line, pos)) &&
          line.compare(pos, kY.size(), kY) == 0) {
        pos += kY.size();
        y = number_at(line, pos);
      }
      if (!x || !y || pos >= line.size() || line[pos] != ')') {
        notes.push_back(
            {"malformed_point", "cannot read \"" + line + "\" (expected Point <name>: Position(x=…, y=…))"});
        continue;
      }
      d.points.push_back({line.substr(kPoint.size(), colon - kPoint.size()), {*x, *y}});
    }
  }
  // Lines: "Line: AB, EGB, …" (one line of text).
  {
    std::string text = prompt.substr(lines_at + 6, circles_at - lines_at - 6);
    std::stringstream list(trimmed(text));
    std::string run;
    while (std::getline(list, run, ',')) {
      run = trimmed(run);
      if (!run.empty()) d.lines.push_back(run);
    }
  }
  // Circles: "  No circle" or "  Circle (: CenterPosition(x=…, y=…), Radius=…" (repeated, one per
  // circle the text keeps; AlphaGeometry's circle names all begin with "(").
  {
    const auto end = prompt.find("Using the figure", circles_at);
    const std::string block = prompt.substr(circles_at + 10, end == std::string::npos ? end : end - circles_at - 10);
    static const std::string kCircle = "Circle ", kCentre = ": CenterPosition(x=", kY = ", y=", kR = "), Radius=";
    std::size_t at = 0;
    while ((at = block.find(kCircle, at)) != std::string::npos) {
      const auto colon = block.find(kCentre, at);
      if (colon == std::string::npos) break;
      const std::string name = block.substr(at + kCircle.size(), colon - at - kCircle.size());
      std::size_t pos = colon + kCentre.size();
      std::optional<Rational> x, y, r;
      if ((x = number_at(block, pos)) && block.compare(pos, kY.size(), kY) == 0) {
        pos += kY.size();
        if ((y = number_at(block, pos)) && block.compare(pos, kR.size(), kR) == 0) {
          pos += kR.size();
          r = number_at(block, pos);
        }
      }
      if (!x || !y || !r) {
        notes.push_back({"malformed_circle", "cannot read the circle at \"" + block.substr(at, 60) + "\""});
        at = colon;
        continue;
      }
      d.circles.push_back({name, {*x, *y}, *r});
      at = pos;
    }
  }
  return d;
}

// Splits a run of point names ("EGB", "A1B") by the known names: the one way it splits, else none.
std::optional<std::vector<std::string>> split_names(const std::string& run, const std::vector<std::string>& names) {
  // ways[i]: how many splits run[i..] has (capped at 2), next[i]: the name that starts the split.
  const std::size_t n = run.size();
  std::vector<int> ways(n + 1, 0);
  std::vector<std::size_t> next(n + 1, 0);
  ways[n] = 1;
  for (std::size_t i = n; i-- > 0;)
    for (const auto& name : names)
      if (!name.empty() && run.compare(i, name.size(), name) == 0 && i + name.size() <= n && ways[i + name.size()]) {
        ways[i] = std::min(2, ways[i] + ways[i + name.size()]);
        next[i] = name.size();
      }
  if (ways[0] != 1) return std::nullopt;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; i += next[i]) out.push_back(run.substr(i, next[i]));
  return out;
}

// Point names in a question, without a list of the figure's points (real items): a capital
// letter with its primes and digits ("A'", "B1"), else the run as one name.
std::vector<std::string> letter_names(const std::string& run) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < run.size();) {
    if (!std::isupper(static_cast<unsigned char>(run[i]))) return {run};
    std::size_t j = i + 1;
    while (j < run.size() && (run[j] == '\'' || std::isdigit(static_cast<unsigned char>(run[j])))) ++j;
    out.push_back(run.substr(i, j - i));
    i = j;
  }
  return out.empty() ? std::vector<std::string>{run} : out;
}

// The scene a description draws: points, lines ordered along themselves (exactly), circles, and
// the frame matplotlib's canvas would have (the figure's extent with 30 % margins on every side,
// y up, coordinates shifted so that it starts at 0: the shift is kept under extra).
struct Built {
  Scene scene;
  std::vector<ImportNote> notes;
  std::vector<Rational> offset;  // the dataset's coordinates are the scene's plus this
};

Built build_scene(const Description& d) {
  Built out;
  Scene& s = out.scene;
  std::vector<std::string> names;
  std::map<std::string, std::size_t> index;
  for (const auto& p : d.points) {
    if (index.count(p.name)) {
      out.notes.push_back({"duplicate_point", "point " + p.name + " is listed twice; the first position is kept"});
      continue;
    }
    index.emplace(p.name, s.points.size());
    names.push_back(p.name);
    s.points.push_back({p.name, p.at, std::nullopt, true, ""});
  }
  // Extent: the points and the circles (matplotlib's data limits include the circle patches).
  std::optional<Rational> x0, x1, y0, y1;
  auto extend = [&](const Rational& lo_x, const Rational& hi_x, const Rational& lo_y, const Rational& hi_y) {
    if (!x0 || lo_x < *x0) x0 = lo_x;
    if (!x1 || hi_x > *x1) x1 = hi_x;
    if (!y0 || lo_y < *y0) y0 = lo_y;
    if (!y1 || hi_y > *y1) y1 = hi_y;
  };
  for (const auto& p : s.points) extend(p.at->x, p.at->x, p.at->y, p.at->y);
  std::set<std::string> seen_lines;
  for (const auto& run : d.lines) {
    auto split = split_names(run, names);
    if (!split) {
      out.notes.push_back({"unresolvable_line", "line \"" + run + "\" does not split into the figure's point names " +
                                                    "in exactly one way"});
      continue;
    }
    std::vector<std::size_t> through;
    for (const auto& n : *split)
      if (std::find(through.begin(), through.end(), index[n]) == through.end()) through.push_back(index[n]);
    if (through.size() != split->size())
      out.notes.push_back({"repeated_point", "line \"" + run + "\" names a point twice; it is listed once"});
    if (through.size() < 2) {
      out.notes.push_back({"short_line", "line \"" + run + "\" has fewer than two points; it is not drawn"});
      continue;
    }
    // Along the line: by the projection on the direction of its two farthest points (exact).
    std::size_t a = 0, b = 1;
    Rational far = -1;
    for (std::size_t i = 0; i < through.size(); ++i)
      for (std::size_t j = i + 1; j < through.size(); ++j) {
        const Vec2 &p = *s.points[through[i]].at, &q = *s.points[through[j]].at;
        const Rational d2 = (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y);
        if (d2 > far) far = d2, a = i, b = j;
      }
    if (far == 0) {
      out.notes.push_back({"zero_length_piece", "the points of line \"" + run + "\" are all at one position"});
      continue;
    }
    const Vec2 origin = *s.points[through[a]].at,
               dir{s.points[through[b]].at->x - origin.x, s.points[through[b]].at->y - origin.y};
    auto key = [&](std::size_t p) {
      const Vec2& at = *s.points[p].at;
      return Rational((at.x - origin.x) * dir.x + (at.y - origin.y) * dir.y);
    };
    std::stable_sort(through.begin(), through.end(), [&](std::size_t p, std::size_t q) { return key(p) < key(q); });
    std::vector<std::size_t> sorted = through;
    std::sort(sorted.begin(), sorted.end());
    std::string signature;
    for (auto p : sorted) signature += s.points[p].id + ",";
    if (!seen_lines.insert(signature).second) {
      out.notes.push_back({"duplicate_line", "line \"" + run + "\" repeats a line already listed"});
      continue;
    }
    Line line;
    line.through = std::move(through);
    s.lines.push_back(std::move(line));
  }
  for (const auto& c : d.circles) {
    if (c.radius <= 0) {
      out.notes.push_back({"malformed_circle", "a circle of radius " + to_text(c.radius) + " is not drawn"});
      continue;
    }
    if (c.name == "(") {
      out.notes.push_back(
          {"circle_name",
           "the text names its circle \"(\" (AlphaGeometry's circle names all begin with a parenthesis, "
           "so the text keeps one circle of that name): read as an unnamed circle"});
      // The picture may draw more: the cross-check does not count one it draws on the points as a difference.
      s.extra = ordered_json{{"unlisted",
                              {{"circles",
                                "VisOnlyQA's text keeps one circle at most (AlphaGeometry names every "
                                "circle \"(\"), so a circle drawn on the figure's points may be "
                                "missing from it"}}}}
                    .dump();
    }
    Circle circle;
    circle.id = "circle" + std::to_string(s.circles.size() + 1);
    circle.center = c.center;
    circle.radius = c.radius;
    for (std::size_t i = 0; i < s.points.size(); ++i)
      if (*s.points[i].at == c.center) circle.center_point = i;
    extend(c.center.x - c.radius, c.center.x + c.radius, c.center.y - c.radius, c.center.y + c.radius);
    s.circles.push_back(std::move(circle));
  }
  if (!x0) return out;
  Rational xr = *x1 - *x0, yr = *y1 - *y0;
  const Rational longer = std::max(xr, yr);
  if (longer == 0) xr = yr = 1;  // one point: any frame around it
  if (xr == 0) xr = longer;
  if (yr == 0) yr = longer;
  const Rational margin = Rational(3, 10);
  const Rational ox = *x0 - margin * xr, oy = *y0 - margin * yr;
  for (auto& p : s.points) p.at = Vec2{p.at->x - ox, p.at->y - oy};
  for (auto& c : s.circles) c.center = Vec2{c.center->x - ox, c.center->y - oy};
  s.frame.width = xr * Rational(8, 5);
  s.frame.height = yr * Rational(8, 5);
  s.frame.y = YAxis::up;
  // Without the picture: the scale of the generator's smallest canvas (512 × 512 px at 100 dpi,
  // 1.5 times that for figures of more than ten points), where matplotlib fits 1.6 × the figure's
  // larger extent: 320 / extent pixels per unit (480 / extent).
  s.frame.px_per_unit = Rational(s.points.size() > 10 ? 480 : 320) / std::max(xr, yr);
  s.frame.precision = Rational(1, 100);
  out.offset = {ox, oy};
  return out;
}

// "(a) 90 degrees (b) 45 degrees …" → {"90", "45", …} in letter order.
std::vector<std::string> lettered_options(const std::string& text) {
  static const std::regex kOption(R"(\(([a-z])\)\s*([-0-9.]+)(\s*degrees)?)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kOption); it != std::sregex_iterator(); ++it) {
    if (static_cast<std::size_t>((*it)[1].str()[0] - 'a') != out.size()) return {};
    out.push_back((*it)[2].str());
  }
  return out;
}

// The values for which VisOnlyQA gives each option of a synthetic item, as its generator asks its
// estimates (src/training_dataset/dataset_creation/create_syntheticgeometry.py): an angle question
// only when the angle lies within 5° of an option (180: from 175° on), an area question only when
// the ratio lies within 0.8–1.2 of 1, 1.8–2.2 of 2, 3.5–4.5 of 4, or their inverses for 0.5 and
// 0.25. Its length questions come from code it does not publish: no ranges, the nearest option.
using Ranges = std::map<std::string, std::array<std::string, 2>>;
const Ranges kAngleRanges = {
    {"10", {"5", "15"}}, {"45", {"40", "50"}}, {"90", {"85", "95"}}, {"135", {"130", "140"}}, {"180", {"175", "180"}}};
const Ranges kAreaRanges = {{"0.25", {"2/9", "2/7"}},
                            {"0.5", {"5/11", "5/9"}},
                            {"1", {"0.8", "1.2"}},
                            {"2", {"1.8", "2.2"}},
                            {"4", {"3.5", "4.5"}}};

// Each option's range, when every option is one the dataset gives a range for; else none.
std::vector<std::array<std::string, 2>> option_ranges(const Ranges& known, const std::vector<std::string>& options) {
  std::vector<std::array<std::string, 2>> out;
  for (const std::string& o : options) {
    const auto it = known.find(o);
    if (it == known.end()) return {};
    out.push_back(it->second);
  }
  return out;
}

struct Item {
  std::string id, image_path, set, task, kind;  // kind: geometry_text, geometry, 3d, real_geometry, real_other
  const Value* value = nullptr;
};

// The question of an item in the vocabulary; its text, template, options and answer.
Question read_question(const Item& item, const std::string& prompt, const std::vector<std::string>& point_names,
                       std::vector<ImportNote>& notes) {
  const Value& v = *item.value;
  Question q;
  q.id = item.id;
  std::string text = prompt;
  if (const auto after = text.find(kQuestionsAfter); after != std::string::npos)
    text = text.substr(after + std::string(kQuestionsAfter).size());
  text = trimmed(text);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    text = trimmed(text.substr(1, text.size() - 2));
    notes.push_back({"quoted_question", "the question text is wrapped in quotes; read without them"});
  }
  // The question is the first paragraph; the rest defines terms and asks for the answer's form.
  const auto paragraph = text.find("\n\n");
  q.text = trimmed(text.substr(0, paragraph));
  const std::string answer = string_field(v, "answer");
  std::vector<std::string> response_options;
  if (const Value* r = v.find("response_options"); r && r->kind == Kind::array)
    for (const auto& o : r->items) response_options.push_back(o.kind == Kind::string ? o.text : json::to_text(o));
  auto names = [&](const std::string& run) {
    if (!point_names.empty())
      if (auto split = split_names(run, point_names)) return *split;
    return letter_names(run);
  };
  auto true_false = [&] {
    q.options = response_options.empty() ? std::vector<std::string>{"True", "False"} : response_options;
    q.answer = answer;
    for (std::size_t k = 0; k < q.options.size(); ++k)
      if (q.options[k] == answer) q.answer = std::string(1, static_cast<char>('A' + k));
  };
  auto lettered = [&] {
    q.options = lettered_options(q.text);
    q.answer = answer.size() == 1 && answer[0] >= 'a' && answer[0] <= 'z'
                   ? std::string(1, static_cast<char>(answer[0] - 'a' + 'A'))
                   : answer;
    if (q.options.empty() || q.options.size() != response_options.size())
      notes.push_back({"options", "the options in the text do not match response_options"});
  };
  // The synthetic items' generator gives its options ranges; the real ones were asked by people.
  const bool synthetic = item.kind == "geometry" || item.kind == "geometry_text";
  std::smatch m;
  static const std::regex kFigure(
      R"(^There is (no|a) (triangle|quadrilateral) (\S+) in (the|this) figure\. True or False\?$)");
  static const std::regex kDiameter(
      R"(^In the figure, the line (\S+) is (not )?a (diameter|radius) of a circle\. True or False\?$)");
  static const std::regex kLength(R"(^Line (\S+) is X times longer than (\S+)\. Which of the following options)");
  static const std::regex kArea(R"(^(\S+) is X times larger in area than (\S+)\. Which of the following options)");
  static const std::regex kAngle(
      R"(^Which of the following options is a reasonable estimate of the angle (\S+) in the figure\?)");
  if (item.kind == "3d" || item.kind == "real_other") {
    q.ask = "unmapped";
    q.template_name = item.kind == "3d" ? "3d" : "not_geometry";
    q.options = response_options;
    q.answer = answer;
    for (std::size_t k = 0; k < q.options.size(); ++k)
      if (q.options[k] == answer) q.answer = std::string(1, static_cast<char>('A' + k));
  } else if (std::regex_search(q.text, m, kFigure)) {
    q.ask = "exists";
    q.of = m[2].str();
    q.absent = m[1].str() == "no";
    q.vertices = names(m[3].str());
    q.template_name = q.of + (q.absent ? "_absent" : "");
    true_false();
  } else if (std::regex_search(q.text, m, kDiameter)) {
    q.ask = m[3].str();
    q.absent = m[2].matched;
    q.vertices = names(m[1].str());
    q.template_name = q.ask + (q.absent ? "_not" : "");
    true_false();
  } else if (std::regex_search(q.text, m, kLength)) {
    q.ask = "estimate";
    q.of = "length_ratio";
    q.vertices = names(m[1].str());
    q.versus = names(m[2].str());
    q.template_name = "length";
    lettered();
  } else if (std::regex_search(q.text, m, kArea)) {
    q.ask = "estimate";
    q.of = "area_ratio";
    q.vertices = names(m[1].str());
    q.versus = names(m[2].str());
    q.template_name = "area";
    lettered();
    if (synthetic) q.option_ranges = option_ranges(kAreaRanges, q.options);
  } else if (std::regex_search(q.text, m, kAngle)) {
    q.ask = "estimate";
    q.of = "angle";
    q.vertices = names(m[1].str());
    q.template_name = "angle";
    lettered();
    if (synthetic) q.option_ranges = option_ranges(kAngleRanges, q.options);
  } else {
    q.ask = "unmapped";
    q.template_name = "unmatched";
    q.options = response_options;
    q.answer = answer;
    notes.push_back({"unmapped_question", "no template matches \"" + q.text + "\""});
  }
  ordered_json extra{{"task", item.task}, {"set", item.set}, {"answer", answer}};
  if (item.kind == "3d")
    extra["unsupported"] = "a 3D task (CLEVR/SuperCLEVR pictures of objects in space), not a geometry figure";
  else if (item.kind == "real_other")
    extra["unsupported"] =
        "a real " + string_field(v, "image_category") + " item (" + item.task + "), not a geometry figure";
  q.extra = extra.dump();
  return q;
}

}  // namespace

namespace import {

std::vector<ImportedScene> import_visonlyqa(const std::vector<std::pair<std::string, std::string>>& given) {
  std::vector<std::pair<std::string, std::string>> files = given;
  Limits limits;
  limits.max_line_bytes = kMaxSourceBytes;
  // Every item, in file order, with its parsed line (kept alive in `trees`).
  std::vector<std::variant<Value, InputError>> trees;
  struct Line {
    std::size_t file, number, tree;
  };
  std::vector<Line> lines;
  auto read_lines = [&](std::size_t f) {
    std::size_t from = 0, number = 0;
    const std::string& text = files[f].second;
    while (from < text.size()) {
      const std::size_t end = std::min(text.find('\n', from), text.size());
      const std::string_view line = std::string_view(text).substr(from, end - from);
      from = end + 1;
      ++number;
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      trees.push_back(json::read(line, limits));
      lines.push_back({f, number, trees.size() - 1});
    }
  };
  for (std::size_t f = 0; f < files.size(); ++f) read_lines(f);
  auto item_of = [&](const Line& line) {
    Item item;
    const auto* v = std::get_if<Value>(&trees[line.tree]);
    if (!v || v->kind != Kind::object) return item;
    item.value = v;
    item.id = string_field(*v, "id");
    item.image_path = string_field(*v, "image_path");
    item.set = set_of(files[line.file].first);
    item.task = fs::path(files[line.file].first).stem().string();
    std::string prompt = string_field(*v, "prompt_no_reasoning");
    if (prompt.empty()) prompt = string_field(*v, "prompt_reasoning");
    if (prompt.empty()) prompt = string_field(*v, "question");
    const bool synthetic_geometry = string_field(*v, "source") == "SyntheticGeometry" ||
                                    item.image_path.find("SyntheticGeometry/") != std::string::npos;
    if (prompt.find(kDescriptionHead) != std::string::npos)
      item.kind = "geometry_text";
    else if (prompt.find(k3dHead) != std::string::npos || item.image_path.find("CLEVR") != std::string::npos ||
             item.task.find("3d__") != std::string::npos)
      item.kind = "3d";
    else if (synthetic_geometry)
      item.kind = "geometry";
    else
      item.kind = string_field(*v, "image_category") == "geometry" || item.task.rfind("geometry__", 0) == 0
                      ? "real_geometry"
                      : "real_other";
    return item;
  };
  auto prompt_of = [](const Value& v) {
    for (const char* key : {"prompt_no_reasoning", "prompt_reasoning", "question"})
      if (std::string p = string_field(v, key); !p.empty()) return p;
    return std::string();
  };
  // Descriptions by picture, from every text item among the inputs; a plain synthetic file whose
  // pictures none of them describes reads its text sibling (../synthetic_with_text/text_<name>).
  std::map<std::string, Description> by_image;
  std::map<std::string, std::vector<ImportNote>> description_notes;
  std::map<std::string, std::string> differing;  // image → the text item whose description differs
  auto collect = [&](std::size_t first_line) {
    for (std::size_t k = first_line; k < lines.size(); ++k) {
      const Item item = item_of(lines[k]);
      if (item.kind != "geometry_text" || item.image_path.empty()) continue;
      std::vector<ImportNote> notes;
      auto parsed = parse_description(prompt_of(*item.value), notes);
      if (auto* d = std::get_if<Description>(&parsed)) {
        d->source_id = item.id;
        auto [it, fresh] = by_image.emplace(item.image_path, *d);
        if (fresh)
          description_notes[item.image_path] = std::move(notes);
        else if (it->second.points.size() != d->points.size() || it->second.lines != d->lines)
          differing[item.image_path] = item.id;
      }
    }
  };
  collect(0);
  std::set<std::string> loaded;
  for (std::size_t f = 0; f < given.size(); ++f) {
    bool missing = false;
    for (const auto& line : lines)
      if (line.file == f)
        if (const Item item = item_of(line); item.kind == "geometry" && !by_image.count(item.image_path))
          missing = true;
    if (!missing) continue;
    const fs::path sibling = fs::path(given[f].first).parent_path().parent_path() / "synthetic_with_text" /
                             ("text_" + fs::path(given[f].first).filename().string());
    if (loaded.count(sibling.string())) continue;
    std::ifstream in(sibling, std::ios::binary);
    if (!in) continue;
    std::ostringstream text;
    text << in.rdbuf();
    loaded.insert(sibling.string());
    files.emplace_back(sibling.string(), text.str());
    const std::size_t first = lines.size();
    read_lines(files.size() - 1);
    collect(first);
  }
  std::vector<ImportedScene> out;
  // Each record names its own file and line (the batch layer's file:line), not the first input's.
  auto place = [&](ImportedScene scene, const Line& line) {
    scene.file = files[line.file].first;
    scene.line = line.number;
    out.push_back(std::move(scene));
  };
  for (const auto& line : lines) {
    if (line.file >= given.size()) break;  // siblings read for their descriptions only
    // A line that is not an item has no name of its own: its record is known by its file and line.
    if (const auto* error = std::get_if<InputError>(&trees[line.tree])) {
      place({"", *error, {}, {}}, line);
      continue;
    }
    const Item item = item_of(line);
    if (!item.value) {
      place({"", InputError{"", "expected a VisOnlyQA item (a JSON object)"}, {}, {}}, line);
      continue;
    }
    if (item.id.empty()) {
      place({"", InputError{"/id", "the item has no \"id\" (a non-empty string)"}, {}, {}}, line);
      continue;
    }
    std::vector<ImportNote> notes;
    for (const char* key : {"question", "prompt_no_reasoning", "prompt_reasoning"})
      if (const Value* v = item.value->find(key); !v)
        notes.push_back({"missing_key", std::string("the item has no \"") + key + "\""});
      else if (v->kind == Kind::null)
        notes.push_back({"null_" + std::string(key), std::string("\"") + key + "\" is null"});
    const std::string prompt = prompt_of(*item.value);
    if (prompt.empty()) {
      place({item.id, InputError{"/prompt_no_reasoning", "the item has no question text"}, {}, {}}, line);
      continue;
    }
    Scene scene;
    scene.id = item.id;
    // "image": the picture under the split's folder, where audit/crosscheck --image look for it.
    ordered_json extra{
        {"image", item.image_path},
        {"visonlyqa", {{"image_path", item.image_path}, {"set", item.set}, {"task", item.task}, {"kind", item.kind}}}};
    const Description* description = nullptr;
    if (item.kind == "geometry_text" || item.kind == "geometry")
      if (auto it = by_image.find(item.image_path); it != by_image.end()) description = &it->second;
    if (description) {
      Built built = build_scene(*description);
      scene = std::move(built.scene);
      scene.id = item.id;
      notes.insert(notes.end(), built.notes.begin(), built.notes.end());
      const auto& more = description_notes[item.image_path];
      notes.insert(notes.end(), more.begin(), more.end());
      if (!built.offset.empty())
        extra["visonlyqa"]["offset"] = {exact_number(built.offset[0]), exact_number(built.offset[1])};
      if (item.kind == "geometry") {
        extra["visonlyqa"]["scene_from"] = description->source_id;
        notes.push_back({"scene_from_text_item", "the figure is the one text item " + description->source_id +
                                                     " describes (same image_path " + item.image_path + ")"});
      }
      if (auto d = differing.find(item.image_path); d != differing.end())
        notes.push_back(
            {"descriptions_differ",
             "text item " + d->second + " describes the same picture otherwise; the first description is kept"});
    } else if (item.kind == "geometry") {
      notes.push_back({"no_description",
                       "no text item among the inputs (or the text file beside this one) "
                       "describes " +
                           item.image_path + ": the item has no scene"});
    } else if (item.kind == "real_geometry") {
      notes.push_back({"no_description", "a real figure: VisOnlyQA gives only its picture, so the item has no scene"});
    } else if (item.kind == "geometry_text") {
      notes.push_back({"no_description", "the description cannot be read: the item has no scene"});
    }
    std::vector<std::string> point_names;
    for (const auto& p : scene.points) point_names.push_back(p.id);
    scene.questions.push_back(read_question(item, prompt, point_names, notes));
    if (!scene.extra.empty())
      if (auto own = ordered_json::parse(scene.extra, nullptr, false); own.is_object()) extra.update(own);
    scene.extra = extra.dump();
    place({item.id, std::move(scene), std::move(notes), {}}, line);
  }
  return out;
}

}  // namespace import

std::vector<std::string> visonlyqa_inputs(const std::string& path) {
  std::error_code error;
  if (!fs::is_directory(path, error)) return {path};
  std::vector<std::string> out;
  for (const char* set : {"synthetic_with_text", "synthetic", "real"}) {
    const fs::path dir = fs::path(path) / set;
    if (!fs::is_directory(dir, error)) continue;
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir, error))
      if (entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    out.insert(out.end(), files.begin(), files.end());
  }
  if (out.empty()) {  // a folder of item files itself
    for (const auto& entry : fs::directory_iterator(path, error))
      if (entry.path().extension() == ".jsonl") out.push_back(entry.path().string());
    std::sort(out.begin(), out.end());
  }
  return out;
}

}  // namespace geotruth
