// GePBench: rules.json (a list of {shapes, relations} on a unit square, y up, full axis lengths,
// radians) plus any number of VQA JSONL files ({image_id, question_id, question, choices, answer}).
#include <cstdio>
#include <geotruth/bands.hpp>
#include "import/importers.hpp"

#include <geotruth/shape_types.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <unordered_map>

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

// The engine draws a spiral as r = a + b·θ (data/draw/plt_backend.py, __handle_spiral): its rule's
// sine term, which its areas and boxes use, is not in the picture. The picture's spiral is recorded
// as the shape's `drawn` geometry, and the difference noted.
void note_drawing(Shape& shape, std::vector<ImportNote>& notes) {
  auto* spiral = std::get_if<SpiralShape>(&shape.geometry);
  if (!spiral || spiral->sin_eps == 0) return;
  SpiralShape drawn = *spiral;
  drawn.sin_eps = drawn.sin_omega = drawn.sin_phi = 0;
  shape.drawn = drawn;
  const Bands bands = dataset_bands("gepbench");
  const FrameBands frame(bands, Frame{1, 1, YAxis::up});
  char px[32];
  std::snprintf(px, sizeof px, "%.1f", frame.to_px(drawn_gap(shape)));
  notes.push_back({"drawn_differently", "the engine draws spiral " + shape.id +
                                            " without its sine term (r = a + b·θ): up to " + px +
                                            " px from the curve its answers use"});
}

// One engine shape as a native shape. Only the structure is checked here (the keys a shape of its
// type needs, numbers where numbers go); what the numbers mean (positive axes, a star's point
// count, ...) is checked by validate() like every other source. `ptr` is the shape's pointer in
// the rules file.
class ShapeConverter {
 public:
  ShapeConverter(const Value& v, std::string id, std::string ptr) : v_(v), ptr_(std::move(ptr)) {
    s_.id = std::move(id);
  }

  Shape convert() {
    s_.kind = text_of(v_.find("special_info"));
    const std::string type = text_of(v_.find("type"));
    if (type == "polygon") {
      PolygonShape p;
      const Value* pts = v_.find("points");
      if (!pts || pts->kind != Kind::array) missing("points", "a list of [x, y] vertices");
      for (std::size_t k = 0; k < pts->items.size(); ++k)
        p.points.push_back(point(&pts->items[k], "points/" + std::to_string(k)));
      s_.type = "polygon";
      s_.geometry = p;
    } else if (type == "line" || type == "segment" || type == "ray") {
      const Value* pts = v_.find("points");
      if (!pts || pts->kind != Kind::array || pts->items.size() != 2) missing("points", "two points [[x, y], [x, y]]");
      s_.type = type;
      s_.geometry = StraightShape{type == "segment" ? Extent::segment
                                  : type == "ray"   ? Extent::ray
                                                    : Extent::line,
                                  point(&pts->items[0], "points/0"), point(&pts->items[1], "points/1")};
    } else if (type == "ellipse") {
      const Rational major = value("major_axis"), minor = value("minor_axis");
      EllipseShape e{point(v_.find("center"), "center"), {major / 2, minor / 2}, degrees("rotation")};
      s_.type = s_.kind == "circle" && major == minor ? "circle" : "ellipse";
      if (s_.type == "circle") e.rotation_deg = 0;
      s_.geometry = e;
    } else if (type == "spiral") {
      SpiralShape sp;
      sp.center = point(v_.find("center"), "center");
      sp.initial_radius = value("initial_radius");
      sp.growth_rate = value("growth_rate");
      sp.max_theta = value("max_theta");
      if (const Value* params = v_.find("sin_params");
          params && params->kind == Kind::array && params->items.size() == 3) {
        sp.sin_eps = number(&params->items[0]).value_or(0);
        sp.sin_omega = number(&params->items[1]).value_or(0);
        sp.sin_phi = number(&params->items[2]).value_or(0);
      }
      s_.type = "spiral";
      s_.geometry = sp;
    } else if (type == "sector") {
      s_.type = "sector";
      s_.geometry = SectorShape{point(v_.find("center"), "center"), value("radius"), degrees("start_angle"),
                                degrees("end_angle")};
    } else if (type == "star") {
      const Rational n = value("num_points");
      if (n.get_den() != 1 || n < 0 || n > 1000) fail("/num_points", "expected an integer from 3 to 1000");
      s_.type = "star";
      s_.geometry = StarShape{point(v_.find("center"), "center"), value("outer_radius"), value("inner_radius"),
                              static_cast<int>(n.get_num().get_si()), degrees("rotation")};
    } else {
      fail("/type", "unknown shape type \"" + type +
                        "\" (expected polygon, line, segment, ray, ellipse, spiral, sector or star)");
    }
    return std::move(s_);
  }

 private:
  [[noreturn]] void fail(const std::string& suffix, std::string message) const {
    throw InputError{ptr_ + suffix, std::move(message)};
  }
  [[noreturn]] void missing(const std::string& key, const std::string& what) const {
    fail("/" + key, "a " + text_of(v_.find("type")) + " needs \"" + key + "\": " + what);
  }
  Rational value(const char* key) const {
    auto n = number(v_.find(key));
    if (!n) missing(key, "a number");
    return *n;
  }
  Vec2 point(const Value* v, const std::string& key) const {
    auto p = pair(v);
    if (!p) fail("/" + key, "expected [x, y]");
    return *p;
  }
  // Radians as given (already rounded to 4 decimals) to degrees. The factor 180/π is irrational:
  // the product goes through one double, ~1e-16 relative, far below the input's own rounding.
  Rational degrees(const char* key) const {
    const Value* v = v_.find(key);
    if (!v) return 0;
    const auto radians = number(v);
    if (!radians) fail(std::string("/") + key, "expected an angle in radians");
    const double deg = to_double(*radians) * 180.0 / M_PI;
    if (!std::isfinite(deg)) fail(std::string("/") + key, "angle out of range: " + v->text + " radians");
    return Rational(deg);
  }

  const Value& v_;
  std::string ptr_;
  Shape s_;
};

// The engine's question templates (data/vqa/rule.py), each with a short stable name and how it
// fills a native question. Text that matches none keeps ask "unmapped" under the template
// "unmatched" (evaluated as unsupported, never guessed).
struct Template {
  const char* name;
  std::regex pattern;
  void (*fill)(Question& q, const std::smatch& m);
};

const std::vector<Template>& templates() {
  static const std::vector<Template> table = [] {
    std::vector<Template> t;
    auto add = [&](const char* name, const char* pattern, void (*fill)(Question&, const std::smatch&)) {
      t.push_back({name, std::regex(pattern), fill});
    };
    add("counting", R"(How many (.+) are there in the image\?)", [](Question& q, const std::smatch& m) {
      q.ask = "count";
      q.of = type_of_phrase(m[1]);
    });
    add("existence_pair", R"(Is there an? (.+) and an? (.+) in the image\?)", [](Question& q, const std::smatch& m) {
      q.ask = "exists";
      q.between = {type_of_phrase(m[1]), type_of_phrase(m[2])};
      q.value = std::string(m[1]) + "|" + std::string(m[2]);  // the phrases the options repeat
    });
    add("existence_choice", R"(Which of the following is (present|absent) in the image\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "exists";
          q.absent = m[1] == "absent";
        });
    add("relative_position", R"(Considering the centroid, where is the (.+) located relative to the (.+)\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "location";
          q.of = type_of_phrase(m[1]);
          q.relative_to = type_of_phrase(m[2]);
        });
    add("absolute_position", R"(Considering the centroid, where is the (.+) located in the image\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "location";
          q.of = type_of_phrase(m[1]);
        });
    add("size_span", R"(closest to the (horizontal span|vertical span) of the (.+)\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "size";
          q.measure = m[1] == "horizontal span" ? "width" : "height";
          q.of = type_of_phrase(m[2]);
        });
    add("size_area", R"(closest to the area of the (.+)\?)", [](Question& q, const std::smatch& m) {
      q.ask = "size";
      q.measure = "area";
      q.of = type_of_phrase(m[1]);
    });
    add("half_image",
        R"(Considering the centroid, which of the following is in the (left|right|upper|lower) half of the image\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "reference";
          q.criterion = "region";
          q.value = std::string(m[1]) + " half";
        });
    add("quarter_image",
        R"(Considering the centroid, which of the following is in the (top|bottom) (left|right) quarter of the image\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "reference";
          q.criterion = "region";
          q.value = std::string(m[1]) + " " + std::string(m[2]) + " quarter";
        });
    add("relative_direction",
        R"(Considering the centroid, which of the following is (directly to the (top|bottom|left|right)|to the (upper left|upper right|lower left|lower right)) of the (.+)\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "reference";
          q.criterion = "direction";
          q.value = m[2].matched ? std::string(m[2]) : std::string(m[3]);
          q.anchor = type_of_phrase(m[4]);
        });
    add("more_frequent", R"(appears (more|less) frequently than (.+?)(\(s\))?\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "reference";
          q.criterion = m[1] == "more" ? "more" : "fewer";
          q.anchor = type_of_phrase(m[2]);
        });
    add("larger_area", R"(has a (larger|smaller) area than (.+?)( in the image)?\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "reference";
          q.criterion = m[1];
          q.anchor = type_of_phrase(m[2]);
        });
    add("larger_area", R"(shapes presented in the image is (larger|smaller) than (.+?) in the image\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "reference";
          q.criterion = m[1];
          q.anchor = type_of_phrase(m[2]);
        });
    add("relation", R"(What is the relationship of the (.+) to the (.+) in the image\?)",
        [](Question& q, const std::smatch& m) {
          q.ask = "relation";
          q.between = {type_of_phrase(m[1]), type_of_phrase(m[2])};
        });
    return t;
  }();
  return table;
}

Question map_question(const std::string& text) {
  Question q;
  std::smatch m;
  for (const auto& t : templates())
    if (std::regex_search(text, m, t.pattern)) {
      t.fill(q, m);
      q.template_name = t.name;
      return q;
    }
  q.ask = "unmapped";
  q.template_name = "unmatched";
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
               {},
               {},
               f.first,
               1}};
    rules = &f;
  }
  if (!rules)
    return {
        {files.empty() ? "" : files.front().first, InputError{"", "no rules.json (a JSON list) among the inputs"}, {}}};
  Limits limits;
  limits.max_line_bytes = kMaxSourceBytes;
  limits.max_elements = 10'000'000;
  auto tree = json::read(rules->second, limits);
  if (auto* error = std::get_if<InputError>(&tree)) return {{rules->first, *error, {}, {}, rules->first, 1}};
  const Value& root = std::get<Value>(tree);
  for (std::size_t i = 0; i < root.items.size(); ++i) {
    const Value& figure = root.items[i];
    Scene scene;
    scene.id = gepbench_scene_id(std::to_string(i));
    scene.frame = Frame{1, 1, YAxis::up};
    std::vector<ImportNote> notes;
    std::vector<std::pair<std::string, std::string>> origins;
    const std::string figure_ptr = "/" + std::to_string(i);
    try {
      if (const Value* shapes = figure.find("shapes"); shapes && shapes->kind == Kind::array)
        for (std::size_t k = 0; k < shapes->items.size(); ++k) {
          const std::string ptr = figure_ptr + "/shapes/" + std::to_string(k);
          origins.emplace_back("/shapes/" + std::to_string(scene.shapes.size()), ptr);
          scene.shapes.push_back(ShapeConverter(shapes->items[k], "s" + std::to_string(k), ptr).convert());
          note_drawing(scene.shapes.back(), notes);
        }
    } catch (const InputError& error) {
      out.push_back({scene.id, error, {}});
      continue;
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
    if (const Value* relations = figure.find("relations"); relations && relations->kind == Kind::array)
      origins.emplace_back("/relations", figure_ptr + "/relations");
    out.push_back({scene.id, std::move(scene), std::move(notes), std::move(origins)});
  }
  // Every scene is a figure of the rules file (its 1-based item there), whichever input came first.
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].file = rules->first;
    out[i].line = i + 1;
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
      // The engine writes one file per aspect; the shared samples add an "aspect" key instead.
      std::string aspect = text_of(v->find("aspect"));
      if (aspect.empty()) aspect = std::filesystem::path(f.first).stem().string();
      std::vector<std::string> choices;
      if (const Value* list = v->find("choices"); list && list->kind == Kind::array)
        for (const auto& c : list->items) choices.push_back(scalar(c));
      Question q =
          gepbench_question(aspect, v->find("question_id") ? v->find("question_id")->text : std::to_string(line_number),
                            text, choices, v->find("answer") ? scalar(*v->find("answer")) : std::string());
      if (q.ask == "unmapped") target.notes.push_back({"unmapped_question", "no template matches \"" + text + "\""});
      scene.questions.push_back(std::move(q));
    }
  }
  return out;
}

}  // namespace geotruth::import

namespace geotruth {

Question gepbench_question(const std::string& aspect, const std::string& question_id, const std::string& text,
                           const std::vector<std::string>& choices, const std::string& answer) {
  // The same texts recur (a dataset asks "How many circles are there in the image?" thousands of
  // times) and matching the templates' regular expressions is slow: each thread keeps the mapping
  // of the texts it has seen (a bounded memo: cleared when it grows past 4,096 texts, about 3 MB).
  static thread_local std::unordered_map<std::string, Question> mapped;
  auto it = mapped.find(text);
  if (it == mapped.end()) {
    if (mapped.size() >= 4096) mapped.clear();
    it = mapped.emplace(text, import::map_question(text)).first;
  }
  Question q = it->second;
  q.id = aspect + "-" + question_id;
  q.options = choices;
  // The engine stores the answer's value: annotate the letter of the option equal to it.
  q.answer = answer;
  for (std::size_t k = 0; k < q.options.size(); ++k)
    if (q.options[k] == answer) q.answer = std::string(1, static_cast<char>('A' + k));
  q.text = text;
  return q;
}

}  // namespace geotruth
