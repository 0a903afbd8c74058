// GePBench: rules.json (a list of {shapes, relations} on a unit square, y up, full axis lengths,
// radians) plus any number of VQA JSONL files ({image_id, question_id, question, choices, answer}).
#include "import/importers.hpp"

#include <geotruth/shape_types.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>

namespace geotruth::import {
namespace {

using json::Value;
using Kind = Value::Kind;

std::optional<Rational> number(const Value* v) {
  if (!v || v->kind != Kind::number) return std::nullopt;
  return parse_decimal(v->text).value;
}

std::optional<Vec2> pair(const Value* v) {
  if (!v || v->kind != Kind::array || v->items.size() != 2) return std::nullopt;
  auto x = number(&v->items[0]), y = number(&v->items[1]);
  if (!x || !y) return std::nullopt;
  return Vec2{*x, *y};
}

// Radians as given (already rounded to 4 decimals) to degrees. The factor 180/π is irrational:
// the product goes through one double, ~1e-16 relative, far below the input's own rounding.
Rational degrees(const Rational& radians) {
  return Rational(to_double(radians) * 180.0 / M_PI);
}

std::string text_of(const Value* v) {
  return v && v->kind == Kind::string ? v->text : std::string();
}

// The engine's relation strings onto the native vocabulary.
std::optional<std::string> relation_type(const std::string& r) {
  if (r == "internal tangent circle") return "internal_tangent";
  if (r == "external tangent circle") return "external_tangent";
  if (r.find("tangent") != std::string::npos) return "tangent";
  if (r.rfind("circumscribed", 0) == 0) return "circumscribed";
  if (r.rfind("inscribed", 0) == 0) return "inscribed";
  static const std::map<std::string, std::string> plain = {
      {"parallel", "parallel"},       {"perpendicular", "perpendicular"}, {"concentric", "concentric"},
      {"shared edge", "shared_edge"}, {"diagonal", "diagonal"},           {"major axis", "major_axis"},
      {"minor axis", "minor_axis"},   {"diameter", "diameter"},           {"similar", "similar"},
      {"symmetric", "symmetric"}};
  auto it = plain.find(r);
  if (it != plain.end()) return it->second;
  return std::nullopt;
}

std::optional<Shape> convert_shape(const Value& v, const std::string& id, std::string& problem) {
  Shape s;
  s.id = id;
  s.kind = text_of(v.find("special_info"));
  const std::string type = text_of(v.find("type"));
  if (type == "polygon") {
    PolygonShape p;
    if (const Value* pts = v.find("points"); pts && pts->kind == Kind::array)
      for (const auto& item : pts->items)
        if (auto q = pair(&item)) p.points.push_back(*q);
    if (p.points.size() < 3) return problem = "polygon " + id + " needs 3 points", std::nullopt;
    s.type = "polygon";
    s.geometry = p;
  } else if (type == "line" || type == "segment" || type == "ray") {
    const Value* pts = v.find("points");
    auto a = pts && pts->items.size() == 2 ? pair(&pts->items[0]) : std::nullopt;
    auto b = pts && pts->items.size() == 2 ? pair(&pts->items[1]) : std::nullopt;
    if (!a || !b || *a == *b) return problem = type + " " + id + " needs two distinct points", std::nullopt;
    s.type = type;
    s.geometry = StraightShape{type == "segment" ? Extent::segment
                               : type == "ray"   ? Extent::ray
                                                 : Extent::line,
                               *a, *b};
  } else if (type == "ellipse") {
    auto c = pair(v.find("center"));
    auto major = number(v.find("major_axis")), minor = number(v.find("minor_axis"));
    if (!c || !major || !minor || *major <= 0 || *minor <= 0)
      return problem = "ellipse " + id + " needs a centre and positive axes", std::nullopt;
    EllipseShape e{*c, {*major / 2, *minor / 2}, degrees(number(v.find("rotation")).value_or(0))};
    if (s.kind == "circle" && *major == *minor) {
      s.type = "circle";
      e.rotation_deg = 0;
    } else {
      s.type = "ellipse";
    }
    s.geometry = e;
  } else if (type == "spiral") {
    SpiralShape sp;
    auto c = pair(v.find("center"));
    auto a = number(v.find("initial_radius")), b = number(v.find("growth_rate")), t = number(v.find("max_theta"));
    if (!c || !a || !b || !t || *t <= 0) return problem = "spiral " + id + " is incomplete", std::nullopt;
    sp.center = *c;
    sp.initial_radius = *a;
    sp.growth_rate = *b;
    sp.max_theta = *t;
    if (const Value* params = v.find("sin_params"); params && params->items.size() == 3) {
      sp.sin_eps = number(&params->items[0]).value_or(0);
      sp.sin_omega = number(&params->items[1]).value_or(0);
      sp.sin_phi = number(&params->items[2]).value_or(0);
    }
    s.type = "spiral";
    s.geometry = sp;
  } else if (type == "sector") {
    auto c = pair(v.find("center"));
    auto r = number(v.find("radius")), t0 = number(v.find("start_angle")), t1 = number(v.find("end_angle"));
    if (!c || !r || !t0 || !t1 || *r <= 0) return problem = "sector " + id + " is incomplete", std::nullopt;
    s.type = "sector";
    s.geometry = SectorShape{*c, *r, degrees(*t0), degrees(*t1)};
  } else if (type == "star") {
    auto c = pair(v.find("center"));
    auto ro = number(v.find("outer_radius")), ri = number(v.find("inner_radius")), n = number(v.find("num_points"));
    if (!c || !ro || !ri || !n || *ri <= 0 || *ri >= *ro || n->get_den() != 1)
      return problem = "star " + id + " is incomplete", std::nullopt;
    s.type = "star";
    s.geometry = StarShape{*c, *ro, *ri, static_cast<int>(n->get_num().get_si()),
                           degrees(number(v.find("rotation")).value_or(0))};
  } else {
    return problem = "unknown shape type \"" + type + "\"", std::nullopt;
  }
  return s;
}

// Maps a question's text to a native question by the engine's templates; text that matches no
// template stays as ask "unmapped" (evaluated as unsupported, never guessed).
Question map_question(const std::string& text) {
  Question q;
  std::smatch m;
  static const std::regex counting(R"(How many (.+) are there in the image\?)");
  static const std::regex both(R"(Is there an? (.+) and an? (.+) in the image\?)");
  static const std::regex present(R"(Which of the following is (present|absent) in the image\?)");
  static const std::regex located(R"(Considering the centroid, where is the (.+) located in the image\?)");
  static const std::regex relative(R"(Considering the centroid, where is the (.+) located relative to the (.+)\?)");
  static const std::regex span(R"(closest to the (horizontal span|vertical span|area) of the (.+)\?)");
  static const std::regex half(
      R"(Considering the centroid, which of the following is in the (left|right|upper|lower) half of the image\?)");
  static const std::regex frequency(R"(appears (more|less) frequently than (.+?)(\(s\))?\?)");
  static const std::regex area(R"(has a (larger|smaller) area than (.+?)( in the image)?\?)");
  static const std::regex shapes_area(R"(shapes presented in the image is (larger|smaller) than (.+?) in the image\?)");
  static const std::regex relation(R"(What is the relationship of the (.+) to the (.+) in the image\?)");
  if (std::regex_search(text, m, counting)) {
    q.ask = "count";
    q.of = type_of_phrase(m[1]);
  } else if (std::regex_search(text, m, both)) {
    q.ask = "exists";
    q.between = {type_of_phrase(m[1]), type_of_phrase(m[2])};
    q.value = std::string(m[1]) + "|" + std::string(m[2]);  // the phrases the options repeat
  } else if (std::regex_search(text, m, present)) {
    q.ask = "exists";
    q.absent = m[1] == "absent";
  } else if (std::regex_search(text, m, relative)) {
    q.ask = "location";
    q.of = type_of_phrase(m[1]);
    q.relative_to = type_of_phrase(m[2]);
  } else if (std::regex_search(text, m, located)) {
    q.ask = "location";
    q.of = type_of_phrase(m[1]);
  } else if (std::regex_search(text, m, span)) {
    q.ask = "size";
    q.measure = m[1] == "horizontal span" ? "width" : m[1] == "vertical span" ? "height" : "area";
    q.of = type_of_phrase(m[2]);
  } else if (std::regex_search(text, m, half)) {
    q.ask = "reference";
    q.criterion = "region";
    q.value = std::string(m[1]) + " half";
  } else if (std::regex_search(text, m, frequency)) {
    q.ask = "reference";
    q.criterion = m[1] == "more" ? "more" : "fewer";
    q.anchor = type_of_phrase(m[2]);
  } else if (std::regex_search(text, m, area) || std::regex_search(text, m, shapes_area)) {
    q.ask = "reference";
    q.criterion = m[1];
    q.anchor = type_of_phrase(m[2]);
  } else if (std::regex_search(text, m, relation)) {
    q.ask = "relation";
    q.between = {type_of_phrase(m[1]), type_of_phrase(m[2])};
  } else {
    q.ask = "unmapped";
  }
  return q;
}

std::string scalar(const Value& v) {
  return v.kind == Kind::string ? v.text : v.text;
}

}  // namespace

std::vector<ImportedScene> import_gepbench(const std::vector<std::pair<std::string, std::string>>& files) {
  // The rules file is the one whose text starts with '['; the others are VQA JSONL.
  std::vector<ImportedScene> out;
  const std::pair<std::string, std::string>* rules = nullptr;
  for (const auto& f : files) {
    const auto first = f.second.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || f.second[first] != '[') continue;
    // Images are numbered per rules file, so two of them would share scene ids and questions.
    if (rules)
      return {{f.first,
               InputError{"", "a second rules file (after " + rules->first +
                                  "): import each rules.json with its own VQA files, one import per rules file"},
               {}}};
    rules = &f;
  }
  if (!rules)
    return {
        {files.empty() ? "" : files.front().first, InputError{"", "no rules.json (a JSON list) among the inputs"}, {}}};
  Limits limits;
  limits.max_line_bytes = kMaxSourceBytes;
  limits.max_elements = 10'000'000;
  auto tree = json::read(rules->second, limits);
  if (auto* error = std::get_if<InputError>(&tree)) return {{rules->first, *error, {}}};
  const Value& root = std::get<Value>(tree);
  for (std::size_t i = 0; i < root.items.size(); ++i) {
    const Value& figure = root.items[i];
    Scene scene;
    scene.id = "gepbench-" + std::to_string(i);
    scene.frame = Frame{1, 1, YAxis::up};
    std::vector<ImportNote> notes;
    if (const Value* shapes = figure.find("shapes"); shapes && shapes->kind == Kind::array)
      for (std::size_t k = 0; k < shapes->items.size(); ++k) {
        std::string problem;
        if (auto s = convert_shape(shapes->items[k], "s" + std::to_string(k), problem))
          scene.shapes.push_back(std::move(*s));
        else
          notes.push_back({"malformed_shape", problem});
      }
    if (const Value* relations = figure.find("relations"); relations && relations->kind == Kind::array)
      for (const auto& r : relations->items) {
        if (r.kind != Kind::array || r.items.size() != 3 || r.items[2].kind != Kind::string) continue;
        const auto type = relation_type(r.items[2].text);
        if (!type) {
          notes.push_back({"unknown_relation", "relation \"" + r.items[2].text + "\" has no native name"});
          continue;
        }
        scene.relations.push_back({*type, {"s" + r.items[0].text, "s" + r.items[1].text}, ""});
      }
    out.push_back({scene.id, std::move(scene), std::move(notes)});
  }
  // Questions: every VQA line attaches to its image's scene.
  for (const auto& f : files) {
    if (&f == rules) continue;
    std::size_t line_number = 0;
    std::size_t from = 0;
    while (from < f.second.size()) {
      const std::size_t end = std::min(f.second.find('\n', from), f.second.size());
      const std::string line = f.second.substr(from, end - from);
      from = end + 1;
      ++line_number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      auto parsed = json::read(line, limits);
      const Value* v = std::get_if<Value>(&parsed);
      auto image = v ? number(v->find("image_id")) : std::nullopt;
      if (!v || !image || *image < 0 || image->get_den() != 1 || image->get_num() >= out.size() ||
          !std::holds_alternative<Scene>(out[image->get_num().get_ui()].scene)) {
        if (!out.empty())
          out.front().notes.push_back(
              {"unattached_question", f.first + ":" + std::to_string(line_number) + ": no image for this question"});
        continue;
      }
      ImportedScene& target = out[image->get_num().get_ui()];
      Scene& scene = std::get<Scene>(target.scene);
      const std::string text = text_of(v->find("question"));
      Question q = map_question(text);
      // The engine writes one file per aspect; the shared samples add an "aspect" key instead.
      std::string aspect = text_of(v->find("aspect"));
      if (aspect.empty()) aspect = std::filesystem::path(f.first).stem().string();
      q.id = aspect + "-" + (v->find("question_id") ? v->find("question_id")->text : std::to_string(line_number));
      if (const Value* choices = v->find("choices"); choices && choices->kind == Kind::array)
        for (const auto& c : choices->items) q.options.push_back(scalar(c));
      const std::string answer = v->find("answer") ? scalar(*v->find("answer")) : std::string();
      // The engine stores the answer's value: annotate the letter of the option equal to it.
      q.answer = answer;
      for (std::size_t k = 0; k < q.options.size(); ++k)
        if (q.options[k] == answer) q.answer = std::string(1, static_cast<char>('A' + k));
      q.extra = "{\"text\":" + nlohmann::json(text).dump() + "}";
      if (q.ask == "unmapped") target.notes.push_back({"unmapped_question", "no template matches \"" + text + "\""});
      scene.questions.push_back(std::move(q));
    }
  }
  return out;
}

}  // namespace geotruth::import
