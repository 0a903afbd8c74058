// Validation of native format v1 (docs/format.md) into the Scene model.
#include <algorithm>
#include <geotruth/input.hpp>
#include <initializer_list>
#include <unordered_map>
#include <unordered_set>

#include "core/exact_json.hpp"
#include "core/json_reader.hpp"

namespace geotruth {

std::optional<Rational> radius_squared(const Scene& scene, const Circle& circle) {
  if (circle.radius) return *circle.radius * *circle.radius;
  if (!circle.center) return std::nullopt;
  std::vector<Rational> squared;
  for (auto i : circle.through)
    if (const auto& on = scene.points[i].at) {
      const Rational dx = on->x - circle.center->x, dy = on->y - circle.center->y;
      squared.push_back(dx * dx + dy * dy);
    }
  if (squared.empty()) return std::nullopt;
  // The lower median: one point's own distance, so the radius stays exact and no single
  // sloppy annotation sets it.
  auto median = squared.begin() + static_cast<std::ptrdiff_t>((squared.size() - 1) / 2);
  std::nth_element(squared.begin(), median, squared.end());
  return *median;
}

namespace {

// extra.<section>.<kind> of a scene when it is a string, else "".
std::string extra_reason(const Scene& scene, const char* section, const std::string& kind) {
  if (scene.extra.find(std::string("\"") + section + "\"") == std::string::npos) return "";
  const ordered_json extra = ordered_json::parse(scene.extra, nullptr, false);
  if (!extra.is_object() || !extra.contains(section) || !extra[section].is_object()) return "";
  const ordered_json& reasons = extra[section];
  return reasons.contains(kind) && reasons[kind].is_string() ? reasons[kind].get<std::string>() : "";
}

}  // namespace

std::string unlisted_reason(const Scene& scene, const std::string& kind) {
  return extra_reason(scene, "unlisted", kind);
}

std::string unshown_reason(const Scene& scene, const std::string& kind) {
  return extra_reason(scene, "unshown", kind);
}

std::array<Rational, 4> bounding_box(const std::vector<Vec2>& points) {
  std::array<Rational, 4> box{points.front().x, points.front().y, points.front().x, points.front().y};
  for (const auto& p : points) {
    box[0] = std::min(box[0], p.x);
    box[1] = std::min(box[1], p.y);
    box[2] = std::max(box[2], p.x);
    box[3] = std::max(box[3], p.y);
  }
  return box;
}

namespace {

using json::Value;
using Kind = Value::Kind;

struct Failure {
  InputError error;
};

[[noreturn]] void fail(const std::string& pointer, std::string message) {
  throw Failure{{pointer, std::move(message)}};
}

std::string at(const std::string& pointer, std::string_view key) {
  return pointer + "/" + json::pointer_token(key);
}
std::string at(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

std::string join(std::initializer_list<std::string_view> words) {
  std::string out;
  for (auto w : words) out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

void expect_kind(const Value& v, Kind kind, const std::string& ptr, std::string_view what) {
  if (v.kind != kind) fail(ptr, "expected " + std::string(what) + ", got " + json::kind_name(v.kind));
}

// Checks that `v` is an object whose keys are all in `allowed` (plus "extra").
void expect_object(const Value& v, const std::string& ptr, std::string_view what,
                   std::initializer_list<std::string_view> allowed) {
  expect_kind(v, Kind::object, ptr, what);
  for (const auto& [key, _] : v.members) {
    if (key == "extra") continue;
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      fail(at(ptr, key), "unknown key \"" + key + "\" in " + std::string(what) + " (expected one of: " + join(allowed) +
                             "; put anything else under \"extra\")");
  }
}

std::string extra_of(const Value& v) {
  const Value* extra = v.find("extra");
  return extra ? json::to_text(*extra) : std::string();
}

const Value& required(const Value& obj, const std::string& ptr, std::string_view key, std::string_view what) {
  const Value* v = obj.find(key);
  if (!v) fail(ptr, "missing key \"" + std::string(key) + "\" (" + std::string(what) + ")");
  return *v;
}

std::string read_string(const Value& v, const std::string& ptr, bool non_empty = true) {
  expect_kind(v, Kind::string, ptr, "a string");
  if (non_empty && v.text.empty()) fail(ptr, "expected a non-empty string");
  return v.text;
}

std::string optional_string(const Value& obj, const std::string& ptr, std::string_view key) {
  const Value* v = obj.find(key);
  return v ? read_string(*v, at(ptr, key), false) : std::string();
}

bool optional_bool(const Value& obj, const std::string& ptr, std::string_view key, bool fallback) {
  const Value* v = obj.find(key);
  if (!v) return fallback;
  expect_kind(*v, Kind::boolean, at(ptr, key), "true or false");
  return v->flag;
}

// A string restricted to a fixed set of words.
template <typename Enum>
Enum read_choice(const Value& obj, const std::string& ptr, std::string_view key, Enum fallback,
                 std::initializer_list<std::pair<std::string_view, Enum>> choices) {
  const Value* v = obj.find(key);
  if (!v) return fallback;
  const std::string p = at(ptr, key);
  const std::string word = read_string(*v, p);
  std::string names;
  for (const auto& [name, value] : choices) {
    if (name == word) return value;
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  fail(p, "unknown value \"" + word + "\" (expected one of: " + names + ")");
}

Rational read_number(const Value& v, const std::string& ptr) {
  RationalParse parsed;
  if (v.kind == Kind::number)
    parsed = parse_decimal(v.text);
  else if (v.kind == Kind::string)
    parsed = parse_rational_string(v.text);
  else
    fail(ptr, std::string("expected a number or a \"p/q\" string, got ") + json::kind_name(v.kind));
  if (!parsed.value) fail(ptr, parsed.error);
  return std::move(*parsed.value);
}

Vec2 read_vec2(const Value& v, const std::string& ptr) {
  expect_kind(v, Kind::array, ptr, "a coordinate pair [x, y]");
  if (v.items.size() != 2)
    fail(ptr, "expected a coordinate pair [x, y], got " + std::to_string(v.items.size()) + " numbers");
  return {read_number(v.items[0], at(ptr, 0)), read_number(v.items[1], at(ptr, 1))};
}

std::vector<Vec2> read_vec2_list(const Value& v, const std::string& ptr, std::size_t min_count, std::string_view what) {
  expect_kind(v, Kind::array, ptr, "an array of [x, y] pairs");
  if (v.items.size() < min_count)
    fail(ptr, std::string(what) + " needs at least " + std::to_string(min_count) + " points, got " +
                  std::to_string(v.items.size()));
  std::vector<Vec2> out;
  out.reserve(v.items.size());
  for (std::size_t i = 0; i < v.items.size(); ++i) out.push_back(read_vec2(v.items[i], at(ptr, i)));
  return out;
}

const std::initializer_list<std::pair<std::string_view, Stroke>> kStrokes = {{"solid", Stroke::solid},
                                                                             {"dashed", Stroke::dashed}};

// The model is built from the text here; what it means is checked by validate() (validate.cpp).
class SceneReader {
 public:
  Scene read(const Value& root) {
    expect_object(root, "", "a scene",
                  {"id", "frame", "points", "lines", "circles", "shapes", "relations", "entities", "links", "arrows",
                   "arrow_heads", "layers", "grid", "food_arrows", "domain", "questions"});
    scene_.id = read_string(required(root, "", "id", "the scene's id, a non-empty string"), "/id");
    scene_.extra = extra_of(root);
    if (const Value* frame = root.find("frame")) read_frame(*frame);
    each(root, "points", [&](const Value& v, const std::string& p) { read_point(v, p); });
    each(root, "lines", [&](const Value& v, const std::string& p) { read_line(v, p); });
    each(root, "circles", [&](const Value& v, const std::string& p) { read_circle(v, p); });
    each(root, "shapes", [&](const Value& v, const std::string& p) { read_shape(v, p); });
    each(root, "entities", [&](const Value& v, const std::string& p) { read_entity(v, p); });
    each(root, "links", [&](const Value& v, const std::string& p) { read_link(v, p); });
    each(root, "arrows", [&](const Value& v, const std::string& p) { read_arrow(v, p); });
    each(root, "arrow_heads", [&](const Value& v, const std::string& p) { read_arrow_head(v, p); });
    each(root, "layers", [&](const Value& v, const std::string& p) { read_layer(v, p); });
    if (const Value* grid = root.find("grid")) read_grid(*grid);
    scene_.food_arrows = read_choice(root, "", "food_arrows", FoodArrows::to_predator,
                                     {{"to_predator", FoodArrows::to_predator}, {"to_prey", FoodArrows::to_prey}});
    scene_.domain = read_choice<std::string>(
        root, "", "domain", "",
        {{"food_web", "food_web"}, {"life_cycle", "life_cycle"}, {"circuit", "circuit"}, {"other", "other"}});
    each(root, "relations", [&](const Value& v, const std::string& p) { read_relation(v, p); });
    each(root, "questions", [&](const Value& v, const std::string& p) { read_question(v, p); });
    return std::move(scene_);
  }

 private:
  template <typename Fn>
  void each(const Value& root, std::string_view key, Fn&& fn) {
    const Value* list = root.find(key);
    if (!list) return;
    const std::string ptr = at("", key);
    expect_kind(*list, Kind::array, ptr, "an array");
    for (std::size_t i = 0; i < list->items.size(); ++i) fn(list->items[i], at(ptr, i));
  }

  std::size_t point_index(const Value& v, const std::string& ptr) {
    const std::string id = read_string(v, ptr);
    auto it = point_by_id_.find(id);
    if (it == point_by_id_.end())
      fail(ptr, "unknown point label \"" + id + "\" (expected the id of a point in /points)");
    return it->second;
  }

  void read_frame(const Value& v) {
    expect_object(v, "/frame", "the frame", {"width", "height", "y", "px_per_unit", "precision"});
    if (const Value* w = v.find("width")) scene_.frame.width = read_number(*w, "/frame/width");
    if (const Value* h = v.find("height")) scene_.frame.height = read_number(*h, "/frame/height");
    scene_.frame.y = read_choice(v, "/frame", "y", YAxis::down, {{"down", YAxis::down}, {"up", YAxis::up}});
    if (const Value* s = v.find("px_per_unit")) scene_.frame.px_per_unit = read_number(*s, "/frame/px_per_unit");
    if (const Value* p = v.find("precision")) scene_.frame.precision = read_number(*p, "/frame/precision");
  }

  void read_point(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "a point", {"id", "at", "z", "label"});
    Point point;
    point.id = read_string(required(v, ptr, "id", "the point's label"), at(ptr, "id"));
    if (const Value* pos = v.find("at")) {
      const std::string p = at(ptr, "at");
      expect_kind(*pos, Kind::array, p, "[x, y] or [x, y, z]");
      if (pos->items.size() != 2 && pos->items.size() != 3)
        fail(p, "expected [x, y] or [x, y, z], got " + std::to_string(pos->items.size()) + " numbers");
      point.at = Vec2{read_number(pos->items[0], at(p, 0)), read_number(pos->items[1], at(p, 1))};
      if (pos->items.size() == 3) point.z = read_number(pos->items[2], at(p, 2));
    }
    if (const Value* z = v.find("z")) {
      if (point.z) fail(at(ptr, "z"), "z given twice (in \"at\" and \"z\")");
      point.z = read_number(*z, at(ptr, "z"));
    }
    point.labelled = optional_bool(v, ptr, "label", true);
    point.extra = extra_of(v);
    point_by_id_.emplace(point.id, scene_.points.size());
    scene_.points.push_back(std::move(point));
  }

  void read_line(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "a line", {"id", "through", "extent", "style"});
    Line line;
    line.id = optional_string(v, ptr, "id");
    const std::string tp = at(ptr, "through");
    const Value& through = required(v, ptr, "through", "the point ids along the line, in order");
    expect_kind(through, Kind::array, tp, "an array of point ids");
    for (std::size_t i = 0; i < through.items.size(); ++i)
      line.through.push_back(point_index(through.items[i], at(tp, i)));
    line.extent = read_choice(v, ptr, "extent", Extent::segment,
                              {{"segment", Extent::segment}, {"ray", Extent::ray}, {"line", Extent::line}});
    line.style = read_choice(v, ptr, "style", Stroke::solid, kStrokes);
    line.extra = extra_of(v);
    scene_.lines.push_back(std::move(line));
  }

  void read_circle(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "a circle", {"id", "center", "radius", "through", "claimed_centers", "quadrants", "style"});
    Circle circle;
    circle.id = optional_string(v, ptr, "id");
    const std::string cp = at(ptr, "center");
    const Value& center = required(v, ptr, "center", "a point id or [x, y]");
    if (center.kind == Kind::string) {
      circle.center_point = point_index(center, cp);
      circle.center = scene_.points[*circle.center_point].at;
    } else if (center.kind == Kind::array) {
      circle.center = read_vec2(center, cp);
    } else {
      fail(cp, std::string("expected a point id or [x, y], got ") + json::kind_name(center.kind));
    }
    if (const Value* r = v.find("radius")) circle.radius = read_number(*r, at(ptr, "radius"));
    if (const Value* through = v.find("through")) {
      const std::string tp = at(ptr, "through");
      expect_kind(*through, Kind::array, tp, "an array of point ids");
      for (std::size_t i = 0; i < through->items.size(); ++i)
        circle.through.push_back(point_index(through->items[i], at(tp, i)));
    }
    if (const Value* claimed = v.find("claimed_centers")) {
      const std::string cp = at(ptr, "claimed_centers");
      expect_kind(*claimed, Kind::array, cp, "an array of {\"center\", \"through\"}");
      for (std::size_t i = 0; i < claimed->items.size(); ++i) {
        const Value& item = claimed->items[i];
        const std::string ip = at(cp, i);
        expect_object(item, ip, "a claimed centre", {"center", "through"});
        ClaimedCentre claim;
        claim.point = point_index(required(item, ip, "center", "a point id"), at(ip, "center"));
        if (const Value* through = item.find("through")) {
          expect_kind(*through, Kind::array, at(ip, "through"), "an array of point ids");
          for (std::size_t k = 0; k < through->items.size(); ++k)
            claim.through.push_back(point_index(through->items[k], at(at(ip, "through"), k)));
        }
        circle.claimed_centers.push_back(std::move(claim));
      }
    }
    if (const Value* q = v.find("quadrants")) circle.quadrants = read_string(*q, at(ptr, "quadrants"));
    circle.style = read_choice(v, ptr, "style", Stroke::solid, kStrokes);
    circle.extra = extra_of(v);
    scene_.circles.push_back(std::move(circle));
  }

  void read_shape(const Value& v, const std::string& ptr) {
    const Value& type_value = required(v, ptr, "type", "the shape type");
    Shape shape;
    shape.type = read_string(type_value, at(ptr, "type"));
    expect_kind(v, Kind::object, ptr, "a shape");
    shape.geometry = read_geometry(v, shape.type, ptr, [&](std::string_view key) { return at(ptr, key); });
    // What the dataset's own picture draws instead: the keys it changes, over the definition's.
    if (const Value* drawn = v.find("drawn")) {
      const std::string dp = at(ptr, "drawn");
      expect_kind(*drawn, Kind::object, dp, "an object of the shape's keys as its picture draws them");
      Value merged = v;
      for (const auto& [key, value] : drawn->members) {
        if (key == "id" || key == "type" || key == "kind" || key == "style" || key == "drawn" || key == "extra")
          fail(at(dp, key), "\"" + key + "\" is not geometry: \"drawn\" takes the keys that place and size the shape");
        // By name, not by capture: clang 14 (Debian 12's) cannot capture a structured binding.
        const std::string& name = key;
        auto it =
            std::find_if(merged.members.begin(), merged.members.end(), [&](const auto& m) { return m.first == name; });
        if (it == merged.members.end())
          merged.members.emplace_back(key, value);
        else
          it->second = value;
      }
      shape.drawn = read_geometry(merged, shape.type, ptr,
                                  [&](std::string_view key) { return drawn->find(key) ? at(dp, key) : at(ptr, key); });
    }
    shape.id = read_string(required(v, ptr, "id", "the shape's id"), at(ptr, "id"));
    shape.kind = optional_string(v, ptr, "kind");
    shape.style = read_choice(v, ptr, "style", Stroke::solid, kStrokes);
    shape.extra = extra_of(v);
    scene_.shapes.push_back(std::move(shape));
  }

  // A shape's geometry from the keys of `v` (a shape object); `key_ptr` names each key's pointer.
  template <class KeyPointer>
  ShapeGeometry read_geometry(const Value& v, const std::string& type, const std::string& ptr,
                              const KeyPointer& key_ptr) {
    auto keys_of = [&](std::initializer_list<std::string_view> specific) {
      std::vector<std::string_view> all = {"id", "type", "kind", "style", "drawn"};
      all.insert(all.end(), specific.begin(), specific.end());
      for (const auto& [key, _] : v.members)
        if (key != "extra" && std::find(all.begin(), all.end(), key) == all.end())
          fail(key_ptr(key), "unknown key \"" + key + "\" for a " + type + " (put anything else under \"extra\")");
    };
    auto need = [&](std::string_view key, std::string_view what) -> const Value& {
      return required(v, ptr, key, what);
    };
    if (type == "polygon") {
      keys_of({"points"});
      return PolygonShape{read_vec2_list(need("points", "the vertices"), key_ptr("points"), 0, "a polygon")};
    } else if (type == "segment" || type == "ray" || type == "line") {
      keys_of({"points"});
      auto pts = read_vec2_list(need("points", "two points"), key_ptr("points"), 2, "a " + type);
      if (pts.size() != 2) fail(key_ptr("points"), "a " + type + " takes exactly 2 points");
      const Extent e = type == "segment" ? Extent::segment : type == "ray" ? Extent::ray : Extent::line;
      return StraightShape{e, pts[0], pts[1]};
    } else if (type == "ellipse") {
      keys_of({"center", "axes", "rotation"});
      EllipseShape e;
      e.center = read_vec2(need("center", "[x, y]"), key_ptr("center"));
      const std::string ap = key_ptr("axes");
      const Value& axes = need("axes", "the two semi-axis lengths [a, b]");
      expect_kind(axes, Kind::array, ap, "[a, b] semi-axis lengths");
      if (axes.items.size() != 2) fail(ap, "expected 2 semi-axis lengths");
      for (std::size_t i = 0; i < 2; ++i) e.axes[i] = read_number(axes.items[i], at(ap, i));
      e.rotation_deg = (v.find("rotation") ? read_number(*v.find("rotation"), key_ptr("rotation")) : Rational(0));
      return e;
    } else if (type == "circle") {
      keys_of({"center", "radius"});
      EllipseShape e;
      e.center = read_vec2(need("center", "[x, y]"), key_ptr("center"));
      const Rational r = read_number(need("radius", "the radius"), key_ptr("radius"));
      e.axes = {r, r};
      return e;
    } else if (type == "sector") {
      keys_of({"center", "radius", "start_angle", "end_angle"});
      SectorShape s;
      s.center = read_vec2(need("center", "[x, y]"), key_ptr("center"));
      s.radius = read_number(need("radius", "the radius"), key_ptr("radius"));
      s.start_deg = read_number(need("start_angle", "degrees"), key_ptr("start_angle"));
      s.end_deg = read_number(need("end_angle", "degrees"), key_ptr("end_angle"));
      return s;
    } else if (type == "star") {
      keys_of({"center", "outer_radius", "inner_radius", "num_points", "rotation"});
      StarShape s;
      s.center = read_vec2(need("center", "[x, y]"), key_ptr("center"));
      s.outer_radius = read_number(need("outer_radius", "a length"), key_ptr("outer_radius"));
      s.inner_radius = read_number(need("inner_radius", "a length"), key_ptr("inner_radius"));
      const Rational n = read_number(need("num_points", "an integer ≥ 3"), key_ptr("num_points"));
      // The model holds an int: out-of-range integers are caught here, the 3–1000 rule by validate().
      if (n.get_den() != 1 || n < 0 || n > 1000) fail(key_ptr("num_points"), "expected an integer from 3 to 1000");
      s.num_points = static_cast<int>(n.get_num().get_si());
      s.rotation_deg = (v.find("rotation") ? read_number(*v.find("rotation"), key_ptr("rotation")) : Rational(0));
      return s;
    } else if (type == "spiral") {
      keys_of({"center", "initial_radius", "growth_rate", "sin_params", "max_theta"});
      SpiralShape s;
      s.center = read_vec2(need("center", "[x, y]"), key_ptr("center"));
      s.initial_radius = read_number(need("initial_radius", "a length"), key_ptr("initial_radius"));
      s.growth_rate = read_number(need("growth_rate", "length per radian"), key_ptr("growth_rate"));
      s.max_theta = read_number(need("max_theta", "radians"), key_ptr("max_theta"));
      if (const Value* sp = v.find("sin_params")) {
        const std::string p = key_ptr("sin_params");
        expect_kind(*sp, Kind::array, p, "[epsilon, omega, phi]");
        if (sp->items.size() != 3) fail(p, "expected [epsilon, omega, phi]");
        s.sin_eps = read_number(sp->items[0], at(p, 0));
        s.sin_omega = read_number(sp->items[1], at(p, 1));
        s.sin_phi = read_number(sp->items[2], at(p, 2));
      }
      return s;
    }
    fail(key_ptr("type"),
         "unknown shape type \"" + type +
             "\" (expected one of: polygon, segment, ray, line, ellipse, circle, sector, star, spiral)");
  }

  std::array<Rational, 4> read_box(const Value& box, const std::string& bp) {
    expect_kind(box, Kind::array, bp, "[x0, y0, x1, y1]");
    if (box.items.size() != 4)
      fail(bp, "expected [x0, y0, x1, y1], got " + std::to_string(box.items.size()) + " numbers");
    std::array<Rational, 4> out;
    for (std::size_t i = 0; i < 4; ++i) out[i] = read_number(box.items[i], at(bp, i));
    return out;
  }

  std::vector<std::string> read_strings(const Value& list, const std::string& lp) {
    expect_kind(list, Kind::array, lp, "an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list.items.size(); ++i) out.push_back(read_string(list.items[i], at(lp, i)));
    return out;
  }

  void read_entity(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "an entity", {"id", "text", "kind", "box", "polygon", "labels", "tags"});
    Entity e;
    e.id = read_string(required(v, ptr, "id", "the entity's id"), at(ptr, "id"));
    e.text = optional_string(v, ptr, "text");
    e.kind = read_choice(v, ptr, "kind", EntityKind::text, {{"text", EntityKind::text}, {"icon", EntityKind::icon}});
    if (const Value* polygon = v.find("polygon"))
      e.polygon = read_vec2_list(*polygon, at(ptr, "polygon"), 3, "an entity polygon");
    if (const Value* box = v.find("box"))
      e.box = read_box(*box, at(ptr, "box"));
    else if (!e.polygon.empty())
      e.box = bounding_box(e.polygon);
    else
      fail(ptr, "missing key \"box\" ([x0, y0, x1, y1], or a \"polygon\" outline)");
    if (const Value* labels = v.find("labels")) {
      const std::string lp = at(ptr, "labels");
      expect_kind(*labels, Kind::array, lp, "an array of labels");
      for (std::size_t i = 0; i < labels->items.size(); ++i) {
        const Value& label = labels->items[i];
        const std::string p = at(lp, i);
        expect_object(label, p, "a label", {"id", "text", "box"});
        e.labels.push_back({read_string(required(label, p, "id", "the label's id"), at(p, "id")),
                            optional_string(label, p, "text"),
                            read_box(required(label, p, "box", "[x0, y0, x1, y1]"), at(p, "box"))});
      }
    }
    if (const Value* tags = v.find("tags")) e.tags = read_strings(*tags, at(ptr, "tags"));
    e.extra = extra_of(v);
    scene_.entities.push_back(std::move(e));
  }

  void read_link(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "a link", {"id", "from", "to", "directed", "kind", "path", "arrows", "merged"});
    Link link;
    link.id = optional_string(v, ptr, "id");
    link.from = read_string(required(v, ptr, "from", "an entity id"), at(ptr, "from"));
    link.to = read_string(required(v, ptr, "to", "an entity id"), at(ptr, "to"));
    link.directed = optional_bool(v, ptr, "directed", true);
    link.kind = read_choice(v, ptr, "kind", LinkKind::arrow,
                            {{"arrow", LinkKind::arrow}, {"line", LinkKind::line}, {"wire", LinkKind::wire}});
    if (const Value* path = v.find("path")) link.path = read_vec2_list(*path, at(ptr, "path"), 0, "a link path");
    if (const Value* arrows = v.find("arrows")) link.arrows = read_strings(*arrows, at(ptr, "arrows"));
    if (const Value* merged = v.find("merged")) link.merged = read_strings(*merged, at(ptr, "merged"));
    link.extra = extra_of(v);
    scene_.links.push_back(std::move(link));
  }

  void read_arrow(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "an arrow", {"id", "polygon"});
    Arrow arrow;
    arrow.id = read_string(required(v, ptr, "id", "the arrow's id"), at(ptr, "id"));
    arrow.polygon =
        read_vec2_list(required(v, ptr, "polygon", "the arrow's outline"), at(ptr, "polygon"), 2, "an arrow outline");
    arrow.extra = extra_of(v);
    scene_.arrows.push_back(std::move(arrow));
  }

  void read_arrow_head(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "an arrowhead", {"id", "box", "orientation", "arrow"});
    ArrowHead head;
    head.id = read_string(required(v, ptr, "id", "the arrowhead's id"), at(ptr, "id"));
    head.box = read_box(required(v, ptr, "box", "[x0, y0, x1, y1]"), at(ptr, "box"));
    if (const Value* orientation = v.find("orientation"))
      head.orientation = read_number(*orientation, at(ptr, "orientation"));
    head.arrow = optional_string(v, ptr, "arrow");
    head.extra = extra_of(v);
    scene_.arrow_heads.push_back(std::move(head));
  }

  void read_layer(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "a layer", {"id", "text", "center", "radius", "points"});
    Layer layer;
    layer.id = read_string(required(v, ptr, "id", "the layer's id"), at(ptr, "id"));
    layer.text = optional_string(v, ptr, "text");
    const Value* center = v.find("center");
    const Value* points = v.find("points");
    if (center && !points) {
      layer.center = read_vec2(*center, at(ptr, "center"));
      layer.radius = read_number(required(v, ptr, "radius", "the circle's radius"), at(ptr, "radius"));
    } else if (points && !center && !v.find("radius")) {
      layer.points = read_vec2_list(*points, at(ptr, "points"), 0, "a layer polygon");
    } else {
      fail(ptr, "a layer is either a circle (\"center\" and \"radius\") or a polygon (\"points\")");
    }
    layer.extra = extra_of(v);
    scene_.layers.push_back(std::move(layer));
  }

  void read_grid(const Value& v) {
    expect_object(v, "/grid", "a grid", {"rows", "columns"});
    Grid grid;
    auto count = [&](std::string_view key, int& out) {
      if (const Value* n = v.find(key)) {
        const Rational r = read_number(*n, at("/grid", key));
        if (r.get_den() != 1 || r < 1 || r > 100) fail(at("/grid", key), "expected an integer from 1 to 100");
        out = static_cast<int>(r.get_num().get_si());
      }
    };
    count("rows", grid.rows);
    count("columns", grid.columns);
    scene_.grid = grid;
  }

  void read_relation(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "a relation", {"type", "between"});
    Relation r;
    const std::string tp = at(ptr, "type");
    r.type = read_string(required(v, ptr, "type", "the relation name"), tp);
    const std::string bp = at(ptr, "between");
    const Value& between = required(v, ptr, "between", "two element ids");
    expect_kind(between, Kind::array, bp, "two element ids");
    if (between.items.size() != 2) fail(bp, "expected exactly two element ids");
    for (std::size_t i = 0; i < 2; ++i) r.between[i] = read_string(between.items[i], at(bp, i));
    r.extra = extra_of(v);
    scene_.relations.push_back(std::move(r));
  }

  // Options and answers may be written as numbers or strings; both keep their text.
  std::string scalar_text(const Value& v, const std::string& ptr) {
    if (v.kind == Kind::string) return v.text;
    if (v.kind == Kind::number) return v.text;
    fail(ptr, std::string("expected a string or a number, got ") + json::kind_name(v.kind));
  }

  void read_question(const Value& v, const std::string& ptr) {
    expect_object(v, ptr, "a question",
                  {"id",           "ask",         "of",       "options",   "answer",       "between",
                   "anchor",       "relative_to", "measure",  "criterion", "value",        "touching",
                   "connected_to", "relation",    "row",      "column",    "absent",       "connected_pair",
                   "text",         "template",    "vertices", "versus",    "option_ranges"});
    Question q;
    q.id = read_string(required(v, ptr, "id", "the question's id"), at(ptr, "id"));
    q.ask = read_string(required(v, ptr, "ask", "what is asked: count, exists, location, ..."), at(ptr, "ask"));
    q.of = optional_string(v, ptr, "of");
    if (const Value* options = v.find("options")) {
      const std::string op = at(ptr, "options");
      expect_kind(*options, Kind::array, op, "an array of options");
      for (std::size_t i = 0; i < options->items.size(); ++i)
        q.options.push_back(scalar_text(options->items[i], at(op, i)));
    }
    if (const Value* answer = v.find("answer")) q.answer = scalar_text(*answer, at(ptr, "answer"));
    if (const Value* between = v.find("between")) {
      const std::string bp = at(ptr, "between");
      expect_kind(*between, Kind::array, bp, "two element ids");
      for (std::size_t i = 0; i < between->items.size(); ++i)
        q.between.push_back(read_string(between->items[i], at(bp, i)));
    }
    for (const char* key : {"vertices", "versus"})
      if (const Value* names = v.find(key)) {
        const std::string np = at(ptr, key);
        expect_kind(*names, Kind::array, np, "point ids in order");
        auto& list = std::string_view(key) == "vertices" ? q.vertices : q.versus;
        for (std::size_t i = 0; i < names->items.size(); ++i) list.push_back(read_string(names->items[i], at(np, i)));
      }
    if (const Value* ranges = v.find("option_ranges")) {
      const std::string rp = at(ptr, "option_ranges");
      expect_kind(*ranges, Kind::array, rp, "one [low, high] range per option");
      if (ranges->items.size() != q.options.size())
        fail(rp, "expected one range per option (" + std::to_string(q.options.size()) + "), got " +
                     std::to_string(ranges->items.size()));
      for (std::size_t i = 0; i < ranges->items.size(); ++i) {
        const std::string ip = at(rp, i);
        expect_kind(ranges->items[i], Kind::array, ip, "a range [low, high]");
        if (ranges->items[i].items.size() != 2) fail(ip, "expected a range [low, high] of two numbers");
        q.option_ranges.push_back(
            {scalar_text(ranges->items[i].items[0], at(ip, 0)), scalar_text(ranges->items[i].items[1], at(ip, 1))});
      }
    }
    q.anchor = optional_string(v, ptr, "anchor");
    q.relative_to = optional_string(v, ptr, "relative_to");
    q.measure = optional_string(v, ptr, "measure");
    q.criterion = optional_string(v, ptr, "criterion");
    q.value = optional_string(v, ptr, "value");
    q.touching = optional_string(v, ptr, "touching");
    q.connected_to = optional_string(v, ptr, "connected_to");
    q.relation = optional_string(v, ptr, "relation");
    q.row = optional_string(v, ptr, "row");
    q.column = optional_string(v, ptr, "column");
    q.absent = optional_bool(v, ptr, "absent", false);
    q.connected_pair = optional_bool(v, ptr, "connected_pair", false);
    q.text = optional_string(v, ptr, "text");
    q.template_name = optional_string(v, ptr, "template");
    q.extra = extra_of(v);
    scene_.questions.push_back(std::move(q));
  }

  Scene scene_;
  std::unordered_map<std::string, std::size_t> point_by_id_;  // the first point of each label
};

}  // namespace

SceneOrError read_scene(std::string_view json_text, const Limits& limits) {
  auto tree = json::read(json_text, limits);
  if (auto* error = std::get_if<InputError>(&tree)) return *error;
  try {
    Scene scene = SceneReader().read(std::get<json::Value>(tree));
    if (auto invalid = validate(scene)) return *invalid;
    return scene;
  } catch (const Failure& failure) {
    return failure.error;
  }
}

}  // namespace geotruth
