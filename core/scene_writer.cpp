#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <geotruth/input.hpp>
#include <optional>

#include "core/exact_json.hpp"

namespace geotruth {

ordered_json exact_number(const Rational& value) {
  if (value.get_den() == 1 && value.get_num().fits_slong_p()) return value.get_num().get_si();
  // A decimal value is written as a JSON number when nlohmann prints the nearest double in a form
  // that reads back as exactly that decimal. Usually it prints the shortest form, not always: its
  // Grisu2 prints 296.97072 as 296.97071999999997, which reads back as another rational.
  std::optional<double> nearest;
  constexpr long kDigits = 1'000'000'000'000'000;  // 10^15
  if (value.get_num().fits_slong_p() && value.get_den().fits_slong_p()) {
    // The common case, a short decimal (den divides 10^k, k ≤ 15, with at most 15 significant
    // digits): num and den are exact doubles, so num / den is the correctly rounded value.
    const long num = value.get_num().get_si(), den = value.get_den().get_si();
    long power = 1;
    while (power % den != 0 && power < kDigits) power *= 10;
    if (power % den == 0 && std::abs(num) < kDigits / (power / den))
      nearest = static_cast<double>(num) / static_cast<double>(den);
  }
  std::string text;
  if (!nearest) {
    text = to_text(value);
    if (text.find('/') != std::string::npos) return text;
    nearest = std::strtod(text.c_str(), nullptr);  // strtod rounds the exact decimal correctly
  }
  const ordered_json number = *nearest;
  const auto back = parse_decimal(number.dump());
  if (back.value && *back.value == value) return number;
  return text.empty() ? to_text(value) : text;
}

ordered_json exact_pair(const Vec2& v) {
  return ordered_json::array({exact_number(v.x), exact_number(v.y)});
}

namespace {

const char* name(Extent e) {
  return e == Extent::segment ? "segment" : e == Extent::ray ? "ray" : "line";
}
const char* name(Stroke s) {
  return s == Stroke::solid ? "solid" : "dashed";
}

void put_extra(ordered_json& out, const std::string& extra) {
  if (!extra.empty()) out["extra"] = ordered_json::parse(extra);
}
void put_if(ordered_json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}
ordered_json points_json(const std::vector<Vec2>& points) {
  ordered_json out = ordered_json::array();
  for (const auto& p : points) out.push_back(exact_pair(p));
  return out;
}
ordered_json box_json(const std::array<Rational, 4>& box) {
  ordered_json out = ordered_json::array();
  for (const auto& v : box) out.push_back(exact_number(v));
  return out;
}

// The keys that place and size a shape of `type`.
ordered_json geometry_json(const std::string& type, const ShapeGeometry& geometry) {
  ordered_json out = ordered_json::object();
  std::visit(
      [&](const auto& g) {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, PolygonShape>) {
          ordered_json pts = ordered_json::array();
          for (const auto& p : g.points) pts.push_back(exact_pair(p));
          out["points"] = pts;
        } else if constexpr (std::is_same_v<T, StraightShape>) {
          out["points"] = ordered_json::array({exact_pair(g.a), exact_pair(g.b)});
        } else if constexpr (std::is_same_v<T, EllipseShape>) {
          out["center"] = exact_pair(g.center);
          if (type == "circle") {
            out["radius"] = exact_number(g.axes[0]);
          } else {
            out["axes"] = ordered_json::array({exact_number(g.axes[0]), exact_number(g.axes[1])});
            out["rotation"] = exact_number(g.rotation_deg);
          }
        } else if constexpr (std::is_same_v<T, SectorShape>) {
          out["center"] = exact_pair(g.center);
          out["radius"] = exact_number(g.radius);
          out["start_angle"] = exact_number(g.start_deg);
          out["end_angle"] = exact_number(g.end_deg);
        } else if constexpr (std::is_same_v<T, StarShape>) {
          out["center"] = exact_pair(g.center);
          out["outer_radius"] = exact_number(g.outer_radius);
          out["inner_radius"] = exact_number(g.inner_radius);
          out["num_points"] = g.num_points;
          out["rotation"] = exact_number(g.rotation_deg);
        } else if constexpr (std::is_same_v<T, SpiralShape>) {
          out["center"] = exact_pair(g.center);
          out["initial_radius"] = exact_number(g.initial_radius);
          out["growth_rate"] = exact_number(g.growth_rate);
          out["sin_params"] =
              ordered_json::array({exact_number(g.sin_eps), exact_number(g.sin_omega), exact_number(g.sin_phi)});
          out["max_theta"] = exact_number(g.max_theta);
        }
      },
      geometry);
  return out;
}

ordered_json shape_json(const Shape& shape) {
  ordered_json out;
  out["id"] = shape.id;
  out["type"] = shape.type;
  put_if(out, "kind", shape.kind);
  const ordered_json geometry = geometry_json(shape.type, shape.geometry);
  for (auto it = geometry.begin(); it != geometry.end(); ++it) out[it.key()] = it.value();
  if (shape.drawn) {  // only the keys the picture draws otherwise
    ordered_json drawn = ordered_json::object();
    const ordered_json as_drawn = geometry_json(shape.type, *shape.drawn);
    for (const auto& [key, value] : as_drawn.items())
      if (geometry.at(key) != value) drawn[key] = value;
    if (!drawn.empty()) out["drawn"] = std::move(drawn);
  }
  out["style"] = name(shape.style);
  put_extra(out, shape.extra);
  return out;
}

ordered_json question_json(const Question& q) {
  ordered_json out;
  out["id"] = q.id;
  out["ask"] = q.ask;
  put_if(out, "of", q.of);
  if (!q.options.empty()) out["options"] = q.options;
  put_if(out, "answer", q.answer);
  if (!q.between.empty()) out["between"] = q.between;
  if (!q.vertices.empty()) out["vertices"] = q.vertices;
  if (!q.versus.empty()) out["versus"] = q.versus;
  if (!q.option_ranges.empty()) out["option_ranges"] = q.option_ranges;
  put_if(out, "anchor", q.anchor);
  put_if(out, "relative_to", q.relative_to);
  put_if(out, "measure", q.measure);
  put_if(out, "criterion", q.criterion);
  put_if(out, "value", q.value);
  put_if(out, "touching", q.touching);
  put_if(out, "connected_to", q.connected_to);
  put_if(out, "relation", q.relation);
  put_if(out, "row", q.row);
  put_if(out, "column", q.column);
  if (q.absent) out["absent"] = true;
  if (q.connected_pair) out["connected_pair"] = true;
  put_if(out, "text", q.text);
  put_if(out, "template", q.template_name);
  put_extra(out, q.extra);
  return out;
}

}  // namespace

std::string write_scene(const Scene& scene) {
  return to_line(scene_json(scene));
}

ordered_json scene_json(const Scene& scene) {
  ordered_json out;
  out["id"] = scene.id;
  out["frame"] = {{"width", exact_number(scene.frame.width)},
                  {"height", exact_number(scene.frame.height)},
                  {"y", scene.frame.y == YAxis::down ? "down" : "up"}};
  if (scene.frame.px_per_unit) out["frame"]["px_per_unit"] = exact_number(*scene.frame.px_per_unit);
  if (scene.frame.precision) out["frame"]["precision"] = exact_number(*scene.frame.precision);
  auto list = [&](const char* key, const auto& items, auto&& to_json) {
    if (items.empty()) return;
    ordered_json arr = ordered_json::array();
    for (const auto& item : items) arr.push_back(to_json(item));
    out[key] = std::move(arr);
  };
  list("points", scene.points, [](const Point& p) {
    ordered_json o;
    o["id"] = p.id;
    if (p.at) {
      o["at"] = exact_pair(*p.at);
      if (p.z) o["at"].push_back(exact_number(*p.z));
    } else if (p.z) {
      o["z"] = exact_number(*p.z);
    }
    o["label"] = p.labelled;
    put_extra(o, p.extra);
    return o;
  });
  list("lines", scene.lines, [&](const Line& l) {
    ordered_json o;
    put_if(o, "id", l.id);
    ordered_json through = ordered_json::array();
    for (auto i : l.through) through.push_back(scene.points[i].id);
    o["through"] = through;
    o["extent"] = name(l.extent);
    o["style"] = name(l.style);
    put_extra(o, l.extra);
    return o;
  });
  list("circles", scene.circles, [&](const Circle& c) {
    ordered_json o;
    put_if(o, "id", c.id);
    if (c.center_point)
      o["center"] = scene.points[*c.center_point].id;
    else
      o["center"] = exact_pair(*c.center);
    if (c.radius) o["radius"] = exact_number(*c.radius);
    if (!c.through.empty()) {
      ordered_json through = ordered_json::array();
      for (auto i : c.through) through.push_back(scene.points[i].id);
      o["through"] = through;
    }
    if (!c.claimed_centers.empty()) {
      ordered_json claimed = ordered_json::array();
      for (const auto& claim : c.claimed_centers) {
        ordered_json through = ordered_json::array();
        for (auto i : claim.through) through.push_back(scene.points[i].id);
        claimed.push_back({{"center", scene.points[claim.point].id}, {"through", through}});
      }
      o["claimed_centers"] = claimed;
    }
    if (c.quadrants != "1111") o["quadrants"] = c.quadrants;
    o["style"] = name(c.style);
    put_extra(o, c.extra);
    return o;
  });
  list("shapes", scene.shapes, shape_json);
  list("entities", scene.entities, [](const Entity& e) {
    ordered_json o;
    o["id"] = e.id;
    o["text"] = e.text;
    o["kind"] = e.kind == EntityKind::text ? "text" : "icon";
    o["box"] = box_json(e.box);
    if (!e.polygon.empty()) o["polygon"] = points_json(e.polygon);
    if (!e.labels.empty()) {
      o["labels"] = ordered_json::array();
      for (const auto& label : e.labels)
        o["labels"].push_back({{"id", label.id}, {"text", label.text}, {"box", box_json(label.box)}});
    }
    if (!e.tags.empty()) o["tags"] = e.tags;
    put_extra(o, e.extra);
    return o;
  });
  list("links", scene.links, [](const Link& l) {
    ordered_json o;
    put_if(o, "id", l.id);
    o["from"] = l.from;
    o["to"] = l.to;
    o["directed"] = l.directed;
    o["kind"] = l.kind == LinkKind::arrow ? "arrow" : l.kind == LinkKind::line ? "line" : "wire";
    if (!l.path.empty()) o["path"] = points_json(l.path);
    if (!l.arrows.empty()) o["arrows"] = l.arrows;
    if (!l.merged.empty()) o["merged"] = l.merged;
    put_extra(o, l.extra);
    return o;
  });
  list("arrows", scene.arrows, [](const Arrow& a) {
    ordered_json o;
    o["id"] = a.id;
    o["polygon"] = points_json(a.polygon);
    put_extra(o, a.extra);
    return o;
  });
  list("arrow_heads", scene.arrow_heads, [](const ArrowHead& h) {
    ordered_json o;
    o["id"] = h.id;
    o["box"] = box_json(h.box);
    if (h.orientation) o["orientation"] = exact_number(*h.orientation);
    put_if(o, "arrow", h.arrow);
    put_extra(o, h.extra);
    return o;
  });
  list("layers", scene.layers, [](const Layer& l) {
    ordered_json o;
    o["id"] = l.id;
    put_if(o, "text", l.text);
    if (l.center) {
      o["center"] = exact_pair(*l.center);
      o["radius"] = exact_number(l.radius);
    } else {
      o["points"] = ordered_json::array();
      for (const auto& p : l.points) o["points"].push_back(exact_pair(p));
    }
    put_extra(o, l.extra);
    return o;
  });
  if (scene.grid) out["grid"] = {{"rows", scene.grid->rows}, {"columns", scene.grid->columns}};
  if (scene.food_arrows == FoodArrows::to_prey) out["food_arrows"] = "to_prey";
  put_if(out, "domain", scene.domain);
  list("relations", scene.relations, [](const Relation& r) {
    ordered_json o;
    o["type"] = r.type;
    o["between"] = {r.between[0], r.between[1]};
    put_extra(o, r.extra);
    return o;
  });
  list("questions", scene.questions, question_json);
  put_extra(out, scene.extra);
  return out;
}

}  // namespace geotruth
