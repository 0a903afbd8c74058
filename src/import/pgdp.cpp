// PGDP5K: {name: {width, height, geos: {points, lines, circles}, symbols, relations: {geo2geo, sym2geo}}}.
#include <map>

#include "core/json_reader.hpp"
#include "import/figure_builder.hpp"
#include "import/importers.hpp"

namespace geotruth::import {
namespace {

using json::Value;
using Kind = Value::Kind;

std::optional<Rational> number(const Value& v) {
  if (v.kind != Kind::number) return std::nullopt;
  return parse_decimal(v.text).value;
}

// Flattens [x, y], [[x, y]], [x1, y1, x2, y2] or [[x1, y1], [x2, y2]] into numbers.
std::vector<Rational> flat_numbers(const Value& v) {
  std::vector<Rational> out;
  if (v.kind == Kind::number) {
    if (auto n = number(v)) out.push_back(*n);
  } else if (v.kind == Kind::array) {
    for (const auto& item : v.items)
      for (auto& n : flat_numbers(item)) out.push_back(std::move(n));
  }
  return out;
}

std::string text_of(const Value* v) {
  return v && v->kind == Kind::string ? v->text : std::string();
}

ImportedScene import_image(const std::string& name, const Value& record) {
  FigureBuilder figure(name);
  figure.set_origin(json::member_pointer(name));
  if (record.kind != Kind::object) return {name, InputError{json::member_pointer(name), "expected an object"}, {}};
  if (const Value* w = record.find("width"), *h = record.find("height"); w && h && number(*w) && number(*h))
    figure.set_frame(Frame{*number(*w), *number(*h), YAxis::down});
  const Value* geos = record.find("geos");
  if (!geos || geos->kind != Kind::object)
    return {name, InputError{json::member_pointer(name) + "/geos", "missing \"geos\""}, {}};
  auto list = [&](const Value* parent, std::string_view key) -> std::vector<const Value*> {
    std::vector<const Value*> out;
    if (const Value* l = parent ? parent->find(key) : nullptr; l && l->kind == Kind::array)
      for (const auto& item : l->items) out.push_back(&item);
    return out;
  };

  // Point labels from text symbols linked to points (sym2geo); without symbols, ids are letters.
  std::map<std::string, std::string> text_of_symbol, label_of_point;
  const bool has_symbols = record.find("symbols") != nullptr;
  for (const Value* s : list(&record, "symbols"))
    if (text_of(s->find("sym_class")) == "text" && text_of(s->find("text_class")) == "point")
      text_of_symbol[text_of(s->find("id"))] = text_of(s->find("text_content"));
  const Value* relations = record.find("relations");
  for (const Value* rel : list(relations, "sym2geo")) {
    if (rel->kind != Kind::array || rel->items.size() != 2) continue;
    auto it = text_of_symbol.find(text_of(&rel->items[0]));
    if (it == text_of_symbol.end()) continue;
    for (const auto& geo : rel->items[1].items) label_of_point[text_of(&geo)] = it->second;
  }

  std::map<std::string, std::string> name_of;  // PGDP point id → scene point name
  for (const Value* p : list(geos, "points")) {
    const std::string id = text_of(p->find("id"));
    const auto xy = p->find("loc") ? flat_numbers(*p->find("loc")) : std::vector<Rational>{};
    if (id.empty() || xy.size() != 2) {
      figure.note("malformed_point", "point \"" + id + "\" needs an id and loc [x, y]");
      continue;
    }
    auto label = label_of_point.find(id);
    const bool labelled = !has_symbols || label != label_of_point.end();
    std::string scene_name = label != label_of_point.end() && !figure.has_point(label->second) ? label->second : id;
    name_of[id] = scene_name;
    figure.add_point(scene_name, Vec2{xy[0], xy[1]}, labelled);
  }

  std::map<std::string, std::vector<std::string>> endpoints, online, oncircle, centre;
  for (const Value* rel : list(relations, "geo2geo")) {
    if (rel->kind != Kind::array || rel->items.size() != 3) continue;
    const std::string p = text_of(&rel->items[0]), g = text_of(&rel->items[1]), kind = text_of(&rel->items[2]);
    if (!name_of.count(p)) {
      figure.note("unknown_point", "relation " + kind + " names unknown point " + p);
      continue;
    }
    auto& target = kind == "endpoint" ? endpoints : kind == "online" ? online : kind == "oncircle" ? oncircle : centre;
    if (kind != "endpoint" && kind != "online" && kind != "oncircle" && kind != "center") {
      figure.note("malformed_relation", "unknown geo2geo relation \"" + kind + "\"");
      continue;
    }
    target[g].push_back(name_of[p]);
  }

  for (const Value* l : list(geos, "lines")) {
    const std::string id = text_of(l->find("id"));
    const auto xy = l->find("loc") ? flat_numbers(*l->find("loc")) : std::vector<Rational>{};
    if (xy.size() != 4) {
      figure.note("malformed_line", "line \"" + id + "\" needs loc [x1, y1, x2, y2]");
      continue;
    }
    std::vector<std::string> ends = endpoints[id];
    if (ends.size() != 2) {
      // Ends not annotated as points: unlabelled points at the drawn ends.
      ends = {id + ".a", id + ".b"};
      figure.add_point(ends[0], Vec2{xy[0], xy[1]}, false);
      figure.add_point(ends[1], Vec2{xy[2], xy[3]}, false);
    }
    if (auto piece = figure.piece(ends[0], ends[1]))
      for (const auto& p : online[id]) figure.on_piece(*piece, p);
  }

  for (const Value* c : list(geos, "circles")) {
    const std::string id = text_of(c->find("id"));
    const Value* loc = c->find("loc");
    const auto numbers = loc ? flat_numbers(*loc) : std::vector<Rational>{};
    std::string mask = "1111";
    if (loc && loc->kind == Kind::array && !loc->items.empty() && loc->items.back().kind == Kind::string)
      mask = loc->items.back().text;
    if (numbers.size() != 3 || numbers[2] <= 0 || mask.size() != 4 ||
        mask.find_first_not_of("01") != std::string::npos) {
      figure.note("malformed_circle", "circle \"" + id + "\" needs loc [[x, y], r > 0, \"1111\"]");
      continue;
    }
    std::size_t index;
    if (centre[id].size() == 1) {
      index = figure.circle(centre[id].front(), id);  // concentric circles are different ids
      figure.draw_circle(index, numbers[2], mask);
    } else {
      index = figure.circle_at(Vec2{numbers[0], numbers[1]}, numbers[2], mask);
    }
    for (const auto& p : oncircle[id]) figure.on_circle(index, p);
  }
  return figure.finish();
}

}  // namespace

std::vector<ImportedScene> import_pgdp(std::string_view text, const std::string& file_name) {
  auto source = read_source_object(text, file_name, "a PGDP object keyed by image name");
  if (auto* error = std::get_if<ImportedScene>(&source)) return {std::move(*error)};
  const Value& root = std::get<Value>(source);
  std::vector<ImportedScene> out;
  for (const auto& [name, record] : root.members) out.push_back(import_image(name, record));
  return out;
}

}  // namespace geotruth::import
