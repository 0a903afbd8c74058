#include "questions/picture_doubts.hpp"

#include <algorithm>
#include <geotruth/input.hpp>

#include "core/exact_json.hpp"

namespace geotruth {
namespace {

// extra.picture of a scene, or null.
ordered_json picture_of(const Scene& scene) {
  if (scene.extra.empty() || scene.extra.find("\"picture\"") == std::string::npos) return nullptr;
  ordered_json extra = ordered_json::parse(scene.extra, nullptr, false);
  if (!extra.is_object() || !extra.contains("picture") || !extra["picture"].is_object()) return nullptr;
  return std::move(extra["picture"]);
}

std::optional<std::size_t> point_named(const Scene& scene, const std::string& id) {
  for (std::size_t i = 0; i < scene.points.size(); ++i)
    if (scene.points[i].id == id) return i;
  return std::nullopt;
}

// A fresh id for a point that gives up its letter.
std::string free_id(const Scene& scene, const std::string& base) {
  for (int k = 1;; ++k) {
    std::string id = base + "?" + std::to_string(k);
    if (!point_named(scene, id)) return id;
  }
}

// Squared distance along a line's direction, for ordering a point into its through list.
Rational along(const Scene& scene, const Line& line, std::size_t point) {
  const Vec2& a = *scene.points[line.through.front()].at;
  const Vec2& b = *scene.points[line.through.back()].at;
  const Vec2& p = *scene.points[point].at;
  return (p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y);
}

bool all_placed(const Scene& scene, const Line& line) {
  return std::all_of(line.through.begin(), line.through.end(), [&](std::size_t i) { return scene.points[i].at; });
}

// The scene with one edit applied; nullopt when the edit names nothing the scene has.
std::optional<Scene> edited(const Scene& scene, const ordered_json& edit) {
  if (!edit.is_object()) return std::nullopt;
  Scene out = scene;
  auto text = [&](const char* key) -> std::optional<std::string> {
    if (!edit.contains(key) || !edit[key].is_string()) return std::nullopt;
    return edit[key].get<std::string>();
  };
  if (auto id = text("rename"); id) {
    const auto to = text("to");
    const auto p = point_named(out, *id);
    if (!to || !p || to->empty()) return std::nullopt;
    if (auto other = point_named(out, *to)) {  // the letter is taken: its point gives it up
      out.points[*other].id = free_id(out, *to);
      out.points[*other].labelled = false;
    }
    out.points[*p].id = *to;
    out.points[*p].labelled = true;
    return out;
  }
  if (auto id = text("unlabel"); id) {
    const auto p = point_named(out, *id);
    if (!p) return std::nullopt;
    // The letter names no point: a question naming it cannot be answered on that reading.
    out.points[*p].id = free_id(out, *id);
    out.points[*p].labelled = false;
    return out;
  }
  if (edit.contains("swap") && edit["swap"].is_array() && edit["swap"].size() == 2 && edit["swap"][0].is_string() &&
      edit["swap"][1].is_string()) {
    const auto p = point_named(out, edit["swap"][0].get<std::string>());
    const auto q = point_named(out, edit["swap"][1].get<std::string>());
    if (!p || !q || *p == *q) return std::nullopt;
    std::swap(out.points[*p].id, out.points[*q].id);
    std::swap(out.points[*p].labelled, out.points[*q].labelled);
    return out;
  }
  if (auto name = text("drop_line"); name) {
    const auto before = out.lines.size();
    std::erase_if(out.lines, [&](const Line& l) { return stroke_name(scene, l) == *name; });
    if (out.lines.size() == before) return std::nullopt;
    return out;
  }
  if (auto name = text("add_to_line"); name) {
    const auto point = text("point");
    const auto p = point ? point_named(out, *point) : std::nullopt;
    if (!p || !out.points[*p].at) return std::nullopt;
    for (Line& l : out.lines) {
      if (stroke_name(scene, l) != *name || !all_placed(out, l)) continue;
      if (std::find(l.through.begin(), l.through.end(), *p) != l.through.end()) return std::nullopt;
      const Rational t = along(out, l, *p);
      auto at = std::find_if(l.through.begin(), l.through.end(), [&](std::size_t q) { return along(out, l, q) > t; });
      l.through.insert(at, *p);
      return out;
    }
    return std::nullopt;
  }
  if (auto id = text("drop_circle"); id) {
    const auto before = out.circles.size();
    for (std::size_t c = scene.circles.size(); c-- > 0;)
      if (circle_name(scene, c) == *id) out.circles.erase(out.circles.begin() + static_cast<std::ptrdiff_t>(c));
    if (out.circles.size() == before) return std::nullopt;
    return out;
  }
  if (auto id = text("retype"); id) {
    const auto to = text("to");
    if (!to) return std::nullopt;
    for (Shape& shape : out.shapes)
      if (shape.id == *id) {
        shape.kind = *to;
        return out;
      }
    return std::nullopt;
  }
  if (edit.contains("add_line") && edit["add_line"].is_array() && edit["add_line"].size() == 2 &&
      edit["add_line"][0].is_string() && edit["add_line"][1].is_string()) {
    const auto p = point_named(out, edit["add_line"][0].get<std::string>());
    const auto q = point_named(out, edit["add_line"][1].get<std::string>());
    if (!p || !q || *p == *q) return std::nullopt;
    Line line;
    line.through = {*p, *q};
    out.lines.push_back(std::move(line));
    return out;
  }
  return std::nullopt;
}

}  // namespace

bool read_from_picture(const Scene& scene) {
  return !picture_of(scene).is_null();
}

const char* truth_source(const Scene& scene) {
  return read_from_picture(scene) ? "picture" : "description";
}

std::vector<PictureDoubt> picture_doubts(const Scene& scene) {
  std::vector<PictureDoubt> out;
  const ordered_json picture = picture_of(scene);
  if (!picture.is_object() || !picture.contains("doubts") || !picture["doubts"].is_array()) return out;
  for (const ordered_json& d : picture["doubts"]) {
    if (!d.is_object() || !d.contains("kind") || !d["kind"].is_string()) continue;
    const auto kind = finding_kind_named(d["kind"].get<std::string>());
    if (!kind) continue;
    std::vector<std::string> elements;
    if (d.contains("elements") && d["elements"].is_array())
      for (const auto& e : d["elements"])
        if (e.is_string()) elements.push_back(e.get<std::string>());
    std::optional<double> slack;
    if (d.contains("slack_px") && d["slack_px"].is_number()) slack = d["slack_px"].get<double>();
    PictureDoubt doubt;
    doubt.finding = make_finding(*kind, std::move(elements), d.value("detail", std::string()), slack);
    doubt.finding.severity = Severity::doubtful;
    if (d.contains("instead"))
      if (auto alternative = edited(scene, d["instead"]); alternative && !validate(*alternative))
        doubt.instead = std::move(*alternative);
    out.push_back(std::move(doubt));
  }
  return out;
}

std::vector<Finding> picture_doubt_findings(const Scene& scene) {
  std::vector<Finding> out;
  for (auto& d : picture_doubts(scene)) out.push_back(std::move(d.finding));
  return out;
}

std::optional<Bands> picture_bands(const Scene& scene, const Bands& run) {
  if (run.source == "option") return std::nullopt;
  const ordered_json picture = picture_of(scene);
  if (!picture.is_object() || !picture.contains("band") || !picture["band"].is_object()) return std::nullopt;
  const ordered_json& band = picture["band"];
  if (!band.contains("eps_num_px") || !band["eps_num_px"].is_number() || !band.contains("eps_vis_px") ||
      !band["eps_vis_px"].is_number())
    return std::nullopt;
  const double num = band["eps_num_px"].get<double>(), vis = band["eps_vis_px"].get<double>();
  if (!(num > 0) || !(vis >= num) || vis > 1e4) return std::nullopt;
  Bands out = run;
  out.eps_num_px = num, out.eps_vis_px = vis;
  out.source = "picture";
  out.reason = band.value("reason", std::string("the picture's own stroke width and wobble"));
  return out;
}

}  // namespace geotruth
