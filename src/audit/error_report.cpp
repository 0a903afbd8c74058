#include "audit/error_report.hpp"
#include "audit/html.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <geotruth/bands.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/input.hpp>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "audit/jsonl.hpp"
#include "batch/batch.hpp"
#include "batch/files.hpp"
#include "core/exact_json.hpp"

namespace geotruth {
namespace {

namespace fs = std::filesystem;

struct Conflict {
  std::size_t record = 0;
  std::string id;
  ordered_json finding;
  double slack = -1;  // -1: none (ranked last)
};

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 3; ++k) v = v << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[(v >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

std::string decimal(double v) {
  std::ostringstream out;
  out.precision(6);
  out << (std::abs(v) < 5e-7 ? 0.0 : v);
  return out.str();
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The dataset's picture of a diagram, if there is a folder of them and it has one.
std::optional<fs::path> picture_of(const std::optional<PictureFolder>& pictures,
                                   const std::vector<std::string>& names) {
  return pictures ? pictures->find(names) : std::nullopt;
}

// Width and height from a PNG's IHDR chunk.
std::optional<std::pair<double, double>> png_size(std::string_view bytes) {
  if (bytes.size() < 24 || bytes.substr(1, 3) != "PNG") return std::nullopt;
  auto big_endian = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) v = v << 8 | static_cast<unsigned char>(bytes[at + k]);
    return static_cast<double>(v);
  };
  return std::make_pair(big_endian(16), big_endian(20));
}

// SVG by hand rather than through cairo: the marks carry <title> tooltips and stay editable text.
class DiagramSvg {
 public:
  DiagramSvg(const Scene& scene, const std::optional<fs::path>& picture) : scene_(scene) {
    scale_ = Bands().pixels_per_unit(scene.frame).get_d();  // the audit's own scale (the unit square at 640 px)
    width_ = scene.frame.width.get_d() * scale_, height_ = scene.frame.height.get_d() * scale_;
    // The view holds the frame and everything drawn (circles may leave it), with a margin.
    auto include = [&](double x, double y, double r) {
      low_x_ = std::min(low_x_, x - r), low_y_ = std::min(low_y_, y - r);
      high_x_ = std::max(high_x_, x + r), high_y_ = std::max(high_y_, y + r);
    };
    include(0, 0, 0), include(width_, height_, 0);
    for (std::size_t i = 0; i < scene.points.size(); ++i)
      if (auto p = at(i)) include(p->first, p->second, 0);
    for (std::size_t c = 0; c < scene.circles.size(); ++c)
      if (auto disc = disc_of(c)) include(disc->x, disc->y, disc->r);
    for (const auto& e : scene.entities) {
      const auto [x0, y0] = view({e.box[0], e.box[1]});
      const auto [x1, y1] = view({e.box[2], e.box[3]});
      include(x0, y0, 0), include(x1, y1, 0);
    }
    for (const auto& a : scene.arrows)
      for (const auto& p : a.polygon) include(view(p).first, view(p).second, 0);
    if (picture) {
      const std::string bytes = read_file(*picture);
      const bool png = picture->extension() == ".png";
      const auto size = png ? png_size(bytes) : std::nullopt;
      const double iw = size ? size->first : width_, ih = size ? size->second : height_;
      high_x_ = std::max(high_x_, iw), high_y_ = std::max(high_y_, ih);
      background_ = "<image x=\"0\" y=\"0\" width=\"" + number(iw) + "\" height=\"" + number(ih) +
                    "\" href=\"data:image/" + (png ? "png" : "jpeg") + ";base64," + base64(bytes) + "\"/>\n";
    } else {
      background_ = "<rect x=\"" + number(low_x_ - kMargin) + "\" y=\"" + number(low_y_ - kMargin) + "\" width=\"" +
                    number(high_x_ - low_x_ + 2 * kMargin) + "\" height=\"" + number(high_y_ - low_y_ + 2 * kMargin) +
                    "\" fill=\"white\"/>\n";
    }
  }

  std::string draw(const std::vector<const Conflict*>& conflicts) const {
    std::ostringstream svg;
    const double x = low_x_ - kMargin, y = low_y_ - kMargin;
    const double w = high_x_ - low_x_ + 2 * kMargin, h = high_y_ - low_y_ + 2 * kMargin;
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"" << number(x) << ' ' << number(y) << ' ' << number(w)
        << ' ' << number(h) << "\" width=\"" << number(w) << "\" height=\"" << number(h)
        << "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\n<title>" << xml_escape(scene_.id) << ": "
        << conflicts.size() << " conflict" << (conflicts.size() == 1 ? "" : "s") << "</title>\n"
        << background_;
    // The annotation as given: drawn lines, circles and points, in blue.
    svg << "<g stroke=\"#2a6fdb\" stroke-opacity=\"0.7\" fill=\"none\" stroke-width=\"1.2\">\n";
    for (const Line& line : scene_.lines)
      if (auto a = at(line.through.front()), b = at(line.through.back()); a && b) svg << segment(*a, *b);
    for (std::size_t c = 0; c < scene_.circles.size(); ++c) svg << circle(c);
    for (const auto& e : scene_.entities) svg << outline(e);
    for (const auto& a : scene_.arrows) svg << polygon(a.polygon);
    for (const auto& h : scene_.arrow_heads) svg << rectangle(h.box);
    for (const auto& l : scene_.links)
      if (l.path.size() >= 2) svg << polyline(l.path);
    svg << "</g>\n<g fill=\"#2a6fdb\">\n";
    for (const auto& e : scene_.entities)
      if (!e.text.empty()) {
        const auto& box = e.labels.empty() ? e.box : e.labels.front().box;
        const auto [x, y] = view({box[0], box[3]});
        svg << "<text x=\"" << number(x) << "\" y=\"" << number(y - 2) << "\">" << xml_escape(e.text) << "</text>\n";
      }
    for (std::size_t i = 0; i < scene_.points.size(); ++i)
      if (auto p = at(i)) {
        svg << "<circle cx=\"" << number(p->first) << "\" cy=\"" << number(p->second) << "\" r=\"2.5\"/>";
        if (scene_.points[i].labelled)
          svg << "<text x=\"" << number(p->first + 4) << "\" y=\"" << number(p->second - 4) << "\">"
              << xml_escape(scene_.points[i].id) << "</text>";
        svg << "\n";
      }
    svg << "</g>\n";
    // Each conflict: its points, lines and circles in red, with the finding as a tooltip.
    for (const Conflict* conflict : conflicts) {
      const ordered_json& f = conflict->finding;
      std::ostringstream title;
      title << f["kind"].get<std::string>();
      if (conflict->slack >= 0) title << ' ' << number(conflict->slack) << " px";
      title << ": " << f.value("detail", "");
      svg << "<g stroke=\"#e00000\" fill=\"none\" stroke-width=\"2.5\"><title>" << xml_escape(title.str())
          << "</title>\n";
      for (const auto& element : f["elements"]) svg << mark(element.get<std::string>());
      svg << "</g>\n";
    }
    svg << "</svg>\n";
    return svg.str();
  }

 private:
  static std::string number(double v) { return decimal(v); }

  // Frame coordinates to the view's (scaled; y down).
  std::pair<double, double> view(const Vec2& v) const {
    const double y = v.y.get_d() * scale_;
    return {v.x.get_d() * scale_, scene_.frame.y == YAxis::up ? height_ - y : y};
  }

  std::optional<std::pair<double, double>> at(std::size_t point) const {
    const auto& p = scene_.points[point].at;
    if (!p) return std::nullopt;
    return view(*p);
  }

  std::optional<std::size_t> point_named(const std::string& id) const {
    for (std::size_t i = 0; i < scene_.points.size(); ++i)
      if (scene_.points[i].id == id) return i;
    return std::nullopt;
  }

  std::string segment(std::pair<double, double> a, std::pair<double, double> b) const {
    return "<line x1=\"" + number(a.first) + "\" y1=\"" + number(a.second) + "\" x2=\"" + number(b.first) + "\" y2=\"" +
           number(b.second) + "\"/>\n";
  }

  struct Disc {
    double x, y, r;
  };
  // Where circle c is drawn, with the radius the geometry takes (radius_squared).
  std::optional<Disc> disc_of(std::size_t c) const {
    const Circle& circle = scene_.circles[c];
    const auto r2 = radius_squared(scene_, circle);
    if (!circle.center || !r2) return std::nullopt;
    const auto [x, y] = view(*circle.center);
    return Disc{x, y, std::sqrt(r2->get_d()) * scale_};
  }

  std::string circle(std::size_t c) const {
    const auto disc = disc_of(c);
    if (!disc) return "";
    return "<circle cx=\"" + number(disc->x) + "\" cy=\"" + number(disc->y) + "\" r=\"" + number(disc->r) + "\"/>\n";
  }

  std::string points_attribute(const std::vector<Vec2>& points) const {
    std::string out;
    for (const auto& p : points) {
      const auto [x, y] = view(p);
      if (!out.empty()) out += ' ';
      out += number(x);
      out += ',';
      out += number(y);
    }
    return out;
  }
  std::string polygon(const std::vector<Vec2>& points) const {
    return "<polygon points=\"" + points_attribute(points) + "\"/>\n";
  }
  std::string polyline(const std::vector<Vec2>& points) const {
    return "<polyline points=\"" + points_attribute(points) + "\"/>\n";
  }
  std::string rectangle(const std::array<Rational, 4>& box) const {
    return polygon({{box[0], box[1]}, {box[2], box[1]}, {box[2], box[3]}, {box[0], box[3]}});
  }
  // An entity: its traced outline (or box) and its label boxes.
  std::string outline(const Entity& e) const {
    std::string out = e.polygon.empty() ? rectangle(e.box) : polygon(e.polygon);
    for (const auto& label : e.labels) out += rectangle(label.box);
    return out;
  }

  // A finding element: a point (a ring), "line X-Y" (the segment), a circle (by its name), an
  // entity, a link (its arrows, or its path), an arrow or an arrowhead (by their ids).
  std::string mark(const std::string& element) const {
    for (const auto& e : scene_.entities)
      if (e.id == element) return outline(e);
    for (const auto& l : scene_.links)
      if (link_name(l) == element || std::find(l.merged.begin(), l.merged.end(), element) != l.merged.end()) {
        std::string out = l.path.size() >= 2 ? polyline(l.path) : "";
        for (const auto& a : scene_.arrows)
          if (std::find(l.arrows.begin(), l.arrows.end(), a.id) != l.arrows.end()) out += polygon(a.polygon);
        return out;
      }
    for (const auto& a : scene_.arrows)
      if (a.id == element) return polygon(a.polygon);
    for (const auto& h : scene_.arrow_heads)
      if (h.id == element) return rectangle(h.box);
    if (auto p = point_named(element)) {
      if (auto xy = at(*p))
        return "<circle cx=\"" + number(xy->first) + "\" cy=\"" + number(xy->second) + "\" r=\"7\"/>\n";
      return "";
    }
    if (element.rfind("line ", 0) == 0) {
      const std::string ends = element.substr(5);
      for (auto dash = ends.find('-'); dash != std::string::npos; dash = ends.find('-', dash + 1)) {
        auto a = point_named(ends.substr(0, dash)), b = point_named(ends.substr(dash + 1));
        if (!a || !b) continue;
        if (auto pa = at(*a), pb = at(*b); pa && pb) return segment(*pa, *pb);
      }
      return "";
    }
    for (std::size_t c = 0; c < scene_.circles.size(); ++c)
      if (circle_name(scene_, c) == element) return circle(c);
    return "";
  }

  static constexpr double kMargin = 12;  // px around everything drawn
  const Scene& scene_;
  double scale_ = 1, width_ = 0, height_ = 0;
  double low_x_ = 0, low_y_ = 0, high_x_ = 0, high_y_ = 0;  // what the view holds
  std::string background_;
};

std::string file_name(const std::string& id, std::set<std::string>& taken, std::size_t record) {
  std::string name;
  for (char c : id) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  if (name.empty() || name.size() > 100 || !taken.insert(name).second) {
    name = name.substr(0, 100) + "-" + std::to_string(record);
    taken.insert(name);
  }
  return "diagrams/" + name + ".svg";
}

}  // namespace

void write_error_report(const std::string& dir_text, const std::string& image_dir) {
  const fs::path dir(dir_text);
  std::optional<PictureFolder> pictures;
  if (!image_dir.empty()) pictures.emplace(image_dir);
  std::vector<Conflict> conflicts;
  std::map<std::size_t, std::vector<std::string>> names_of;  // record → id (and source key)
  // Only lines that have the string "conflict" can have a finding of that severity: the others are
  // not parsed (most scenes of a dataset).
  each_record(
      dir / "scenes.jsonl",
      [&](const ordered_json& r) {
        if (!r.contains("findings")) return;
        const std::size_t record = r["record"];
        for (const auto& f : r["findings"])
          if (f.value("severity", "") == "conflict") {
            conflicts.push_back({record, r["id"], f, f.contains("slack_px") ? f["slack_px"].get<double>() : -1});
            names_of[record] = {r["id"].get<std::string>(), r.value("key", "")};
          }
      },
      [](std::string_view line) { return line.find("\"conflict\"") != std::string_view::npos; });
  std::stable_sort(conflicts.begin(), conflicts.end(),
                   [](const Conflict& a, const Conflict& b) { return a.slack > b.slack; });

  // One SVG per diagram with a conflict, from the scene its flagged record carries.
  fs::remove_all(dir / "diagrams");
  std::map<std::size_t, std::string> svg_of;
  if (!conflicts.empty()) {
    fs::create_directories(dir / "diagrams");
    std::map<std::size_t, std::vector<const Conflict*>> by_record;
    for (const auto& c : conflicts) by_record[c.record].push_back(&c);
    std::set<std::string> taken;
    each_record(dir / "flagged.jsonl", [&](const ordered_json& r) {
      const auto it = by_record.find(r["record"].get<std::size_t>());
      if (it == by_record.end()) return;
      const SceneOrError parsed = read_scene(r["scene"].dump());
      if (!std::holds_alternative<Scene>(parsed)) return;
      const Scene& scene = std::get<Scene>(parsed);
      const std::string name = file_name(scene.id, taken, it->first);
      write_atomically((dir / name).string(),
                       DiagramSvg(scene, picture_of(pictures, names_of[it->first])).draw(it->second));
      svg_of[it->first] = name;
    });
  }

  std::string jsonl;
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>geotruth conflicts</title><style>"
          "body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}td,th{border-bottom:1px solid "
          "#ddd;padding:4px 8px;vertical-align:top;text-align:left}img{max-width:360px;max-height:260px}"
          "</style></head><body>\n<h1>Conflicts, largest slack first</h1>\n<p>"
       << conflicts.size() << " conflicts in " << names_of.size()
       << " diagrams. Each picture shows the annotated positions in blue and the conflict in red (hover for "
          "the finding).</p>\n<table><tr><th>#</th><th>diagram</th><th>kind</th><th>elements</th><th>slack "
          "px</th><th>detail</th><th>picture</th></tr>\n";
  std::size_t rank = 0;
  for (const auto& c : conflicts) {
    ++rank;
    ordered_json line{{"rank", rank}, {"record", c.record}, {"id", c.id}};
    for (const auto& [key, value] : c.finding.items()) line[key] = value;
    const auto svg = svg_of.find(c.record);
    if (svg != svg_of.end()) line["svg"] = svg->second;
    jsonl += to_line(line) + "\n";
    std::string elements;
    for (const auto& e : c.finding["elements"]) elements += (elements.empty() ? "" : ", ") + e.get<std::string>();
    html << "<tr><td>" << rank << "</td><td>" << xml_escape(c.id) << "</td><td>"
         << xml_escape(c.finding["kind"].get<std::string>()) << "</td><td>" << xml_escape(elements) << "</td><td>"
         << (c.slack >= 0 ? decimal(c.slack) : "") << "</td><td>" << xml_escape(c.finding.value("detail", ""))
         << "</td><td>";
    if (svg != svg_of.end())
      html << "<a href=\"" << svg->second << "\"><img loading=\"lazy\" src=\"" << svg->second << "\" alt=\""
           << xml_escape(c.id) << "\"></a>";
    html << "</td></tr>\n";
  }
  html << "</table>\n</body></html>\n";
  write_atomically((dir / "conflicts.jsonl").string(), jsonl);
  write_atomically((dir / "conflicts.html").string(), html.str());
}

}  // namespace geotruth
