#include "vision/figure.hpp"
#include "geometry/predicates.hpp"

#include <geotruth/findings.hpp>
#include <geotruth/shape_types.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace geotruth::vision {
namespace {

constexpr int kMaxSide = 16384;

// Frame units → image pixels: one uniform scale, the frame's origin corner at `offset`, y-up
// frames flipped about the frame's top.
struct Transform {
  double scale = 1, height = 0;  ///< height: the frame's height in pixels
  bool y_up = false;
  P2 offset;
  P2 operator()(double x, double y) const {
    return {offset.x + x * scale, offset.y + (y_up ? height - y * scale : y * scale)};
  }
  P2 operator()(const Vec2& v) const { return (*this)(to_double(v.x), to_double(v.y)); }
  double length(double units) const { return units * scale; }
  // A frame direction angle (degrees, from +x toward +y) as an image angle: the flip mirrors it.
  double angle_deg(double frame_deg) const { return y_up ? -frame_deg : frame_deg; }
};

// Segments for a chord error of at most 0.05 px on a curve of radius r px.
int segments_for_radius(double r) {
  if (r <= 0.1) return 16;
  return std::clamp(static_cast<int>(std::ceil(std::numbers::pi / std::acos(1 - 0.05 / r))), 16, 20000);
}

class Builder {
 public:
  Builder(const Scene& scene, int width, int height, double scale, P2 offset, double font_px, bool as_drawn)
      : scene_(scene), as_drawn_(as_drawn) {
    fig_.width = width, fig_.height = height;
    tf_ = {scale, to_double(scene.frame.height) * scale, scene.frame.y == YAxis::up, offset};
    fig_.px_per_unit = scale;
    fig_.font_px = font_px > 0 ? font_px : std::max(11.0, 0.022 * std::max(width, height));
  }

  Figure build() {
    for (const auto& line : scene_.lines) add_line(line);
    for (const auto& circle : scene_.circles) add_circle(circle);
    for (const auto& shape : scene_.shapes) add_shape(shape);
    for (const auto& layer : scene_.layers) add_layer(layer);
    for (const auto& entity : scene_.entities) add_entity(entity);
    for (const auto& link : scene_.links) add_link(link);
    for (const auto& arrow : scene_.arrows)
      add_polyline(arrow.id, "links", arrow.polygon, arrow.polygon.size() > 2, false);
    for (const auto& head : scene_.arrow_heads) add_head(head);
    for (const auto& point : scene_.points) add_point(point);
    return std::move(fig_);
  }

 private:
  std::size_t add_straight(const std::string& element, const Vec2& a, const Vec2& b) {
    fig_.straights.push_back({element, tf_(a), tf_(b), a, b});
    return fig_.straights.size() - 1;
  }

  // A polyline stroke whose pieces are straight (polygons, boxes, links), from its frame points.
  Curve& add_polyline(const std::string& element, const std::string& category, const std::vector<Vec2>& points,
                      bool closed, bool dashed) {
    Curve c;
    c.element = element, c.category = category, c.closed = closed, c.dashed = dashed;
    for (std::size_t i = 0; i + 1 < points.size() + (closed ? 1 : 0); ++i)
      c.straights.push_back(add_straight(element, points[i], points[(i + 1) % points.size()]));
    for (const auto& p : points) c.path.push_back(tf_(p));
    fig_.curves.push_back(std::move(c));
    return fig_.curves.back();
  }

  // A straight stroke from a (through b) with the given extent: the part the frame shows, as
  // geometry/ clips it (the same extent the relations and incidences use).
  void add_extent(const std::string& element, const Vec2& a, const Vec2& b, Extent extent, bool dashed) {
    if (a == b) return fig_.problems.push_back(element);
    const auto piece = geometry::drawn_extent(a, b, extent, scene_.frame);
    if (!piece) return;  // a ray or line that misses the frame
    Curve& c = add_polyline(element, "lines", {piece->first, piece->second}, false, dashed);
    c.drawn_ends = {extent != Extent::line && piece->first == a, extent == Extent::segment && piece->second == b};
  }

  void add_line(const Line& line) {
    const Point &first = scene_.points[line.through.front()], &last = scene_.points[line.through.back()];
    const std::string name = stroke_name(scene_, line);
    if (!first.at || !last.at) return fig_.problems.push_back(name);
    add_extent(name, *first.at, *last.at, line.extent, line.style == Stroke::dashed);
  }

  // An arc (or whole curve) of the ellipse centre + (a cos t, b sin t) rotated by `rot`, all in
  // frame units, for t from t0 to t1 degrees.
  std::vector<P2> ellipse_path(const Vec2& center, double a, double b, double rot_deg, double t0, double t1) {
    const double cx = to_double(center.x), cy = to_double(center.y), rot = rot_deg * std::numbers::pi / 180;
    const int n = std::max(
        2, static_cast<int>(std::ceil(segments_for_radius(tf_.length(std::max(a, b))) * std::abs(t1 - t0) / 360)));
    std::vector<P2> path;
    for (int k = 0; k <= n; ++k) {
      const double t = (t0 + (t1 - t0) * k / n) * std::numbers::pi / 180, x = a * std::cos(t), y = b * std::sin(t);
      path.push_back(tf_(cx + x * std::cos(rot) - y * std::sin(rot), cy + x * std::sin(rot) + y * std::cos(rot)));
    }
    return path;
  }

  void add_round(const std::string& element, const std::string& category, const Vec2& center, double a, double b,
                 double rot_deg, bool dashed) {
    Curve c;
    c.element = element, c.category = category, c.closed = true, c.dashed = dashed;
    c.path = ellipse_path(center, a, b, rot_deg, 0, 360);
    c.path.pop_back();  // closed: the last point is the first
    c.model = a == b ? Curve::Model::circle : Curve::Model::ellipse;
    c.center = tf_(center);
    c.a = tf_.length(a), c.b = tf_.length(b), c.angle_deg = tf_.angle_deg(rot_deg);
    fig_.curves.push_back(std::move(c));
  }

  void add_circle(const Circle& circle) {
    const std::string name =
        circle.id.empty() && circle.center_point ? scene_.points[*circle.center_point].id : circle.id;
    const auto r2 = radius_squared(scene_, circle);
    if (!circle.center || !r2) return fig_.problems.push_back(name);
    const double r = std::sqrt(to_double(*r2));
    const bool dashed = circle.style == Stroke::dashed;
    if (circle.quadrants == "1111") {
      add_round(name, "circles", *circle.center, r, r, 0, dashed);
      fig_.curves.back().exact_center = *circle.center, fig_.curves.back().exact_radius2 = *r2;
      return;
    }
    for (int q = 0; q < 4 && q < static_cast<int>(circle.quadrants.size()); ++q) {
      if (circle.quadrants[q] != '1') continue;
      Curve c;
      c.element = name, c.category = "arcs", c.dashed = dashed, c.full = false, c.model = Curve::Model::circle;
      c.path = ellipse_path(*circle.center, r, r, 0, 90.0 * q, 90.0 * (q + 1));
      c.center = tf_(*circle.center), c.a = c.b = tf_.length(r);
      c.exact_center = *circle.center, c.exact_radius2 = *r2;
      fig_.curves.push_back(std::move(c));
    }
  }

  void add_shape(const Shape& shape) {
    const bool dashed = shape.style == Stroke::dashed;
    std::visit(
        [&](const auto& g) {
          using T = std::decay_t<decltype(g)>;
          if constexpr (std::is_same_v<T, PolygonShape>) {
            add_polyline(shape.id, "polygons", g.points, true, dashed);
          } else if constexpr (std::is_same_v<T, StraightShape>) {
            add_extent(shape.id, g.a, g.b, g.extent, dashed);
          } else if constexpr (std::is_same_v<T, EllipseShape>) {
            const double a = to_double(g.axes[0]), b = to_double(g.axes[1]);
            add_round(shape.id, a == b || shape.type == "circle" ? "circles" : "ellipses", g.center, a, b,
                      to_double(reduce_degrees(g.rotation_deg)), dashed);
            if (g.axes[0] == g.axes[1])
              fig_.curves.back().exact_center = g.center, fig_.curves.back().exact_radius2 = g.axes[0] * g.axes[0];
          } else if constexpr (std::is_same_v<T, SectorShape>) {
            const double r = to_double(g.radius), t0 = to_double(reduce_degrees(g.start_deg));
            double sweep = to_double(reduce_degrees(g.end_deg - g.start_deg));
            if (sweep <= 0) sweep += 360;
            std::vector<P2> arc = ellipse_path(g.center, r, r, 0, t0, t0 + sweep);
            Curve c;
            c.element = shape.id, c.category = "sectors", c.closed = true, c.dashed = dashed;
            auto arc_end = [&](double deg) {  // an irrational point: its offset through one double
              const double t = deg * std::numbers::pi / 180;
              return Vec2{g.center.x + Rational(r * std::cos(t)), g.center.y + Rational(r * std::sin(t))};
            };
            c.straights = {add_straight(shape.id, g.center, arc_end(t0)),
                           add_straight(shape.id, arc_end(t0 + sweep), g.center)};
            c.path.push_back(tf_(g.center));
            c.path.insert(c.path.end(), arc.begin(), arc.end());
            c.center = tf_(g.center), c.a = c.b = tf_.length(r);
            fig_.curves.push_back(std::move(c));
          } else if constexpr (std::is_same_v<T, StarShape>) {
            add_polyline(shape.id, "stars", star_corners(g), true, dashed);  // irrational corners, through doubles
          } else if constexpr (std::is_same_v<T, SpiralShape>) {
            const double T = std::max(0.0, to_double(g.max_theta)), cx = to_double(g.center.x),
                         cy = to_double(g.center.y);
            const double r_max = tf_.length(std::abs(spiral_radius(g, T)) + std::abs(to_double(g.initial_radius)));
            const int n = std::clamp(static_cast<int>(std::ceil(T * std::max(r_max, 20.0))), 2, 50000);
            Curve c;
            c.element = shape.id, c.category = "spirals", c.dashed = dashed;
            for (int k = 0; k <= n; ++k) {
              const double t = T * k / n, r = spiral_radius(g, t);
              c.path.push_back(tf_(cx + r * std::cos(t), cy + r * std::sin(t)));
            }
            fig_.curves.push_back(std::move(c));
          }
        },
        as_drawn_ && shape.drawn ? *shape.drawn : shape.geometry);
  }

  void add_layer(const Layer& layer) {
    P2 top;
    if (layer.center) {
      const double r = to_double(layer.radius);
      add_round(layer.id, "layers", *layer.center, r, r, 0, false);
      Curve& c = fig_.curves.back();
      c.exact_center = *layer.center, c.exact_radius2 = layer.radius * layer.radius;
      top = {c.center.x, c.center.y - c.b};
    } else {
      const Curve& c = add_polyline(layer.id, "layers", layer.points, true, false);
      top = *std::min_element(c.path.begin(), c.path.end(), [](P2 a, P2 b) { return a.y < b.y; });
    }
    if (!layer.text.empty()) fig_.texts.push_back({layer.id, layer.text, {top.x, top.y + fig_.font_px}, top, false});
  }

  void add_entity(const Entity& e) {
    if (!e.polygon.empty()) {  // a traced outline (AI2D blob), named at its label or its middle
      add_polyline(e.id, "entities", e.polygon, true, false);
      const auto& box = e.labels.empty() ? e.box : e.labels.front().box;
      const P2 mid = tf_(Vec2{(box[0] + box[2]) / 2, (box[1] + box[3]) / 2});
      if (!e.text.empty()) fig_.texts.push_back({e.id, e.text, mid, mid, false});
      return;
    }
    // Corners clockwise from the image's top left, as the image shows them.
    const Rational &left = std::min(e.box[0], e.box[2]), &right = std::max(e.box[0], e.box[2]);
    const Rational &low = std::min(e.box[1], e.box[3]), &high = std::max(e.box[1], e.box[3]);
    const Rational &top = tf_.y_up ? high : low, &bottom = tf_.y_up ? low : high;
    const Curve& c =
        add_polyline(e.id, "entities", {{left, top}, {right, top}, {right, bottom}, {left, bottom}}, true, false);
    const P2 mid{(c.path[0].x + c.path[2].x) / 2, (c.path[0].y + c.path[2].y) / 2};
    if (!e.text.empty()) fig_.texts.push_back({e.id, e.text, mid, mid, false});
  }

  void add_link(const Link& link) {
    if (link.path.size() < 2) return;
    const std::string name = link.id.empty() ? link.from + "->" + link.to : link.id;
    // The head points along the last piece of non-zero length (a path may repeat its end point).
    auto before_tip =
        std::find_if(link.path.rbegin(), link.path.rend(), [&](const Vec2& p) { return p != link.path.back(); });
    const P2 tip = tf_(link.path.back()), from = tf_(before_tip == link.path.rend() ? link.path.back() : *before_tip);
    add_polyline(name, "links", link.path, false, false);
    if (!link.directed || link.kind != LinkKind::arrow) return;
    const double len = std::hypot(tip.x - from.x, tip.y - from.y);
    if (len == 0) return;
    const double head = std::max(10.0, fig_.font_px * 1.1), ux = (tip.x - from.x) / len, uy = (tip.y - from.y) / len;
    const P2 base{tip.x - ux * head, tip.y - uy * head};
    fig_.heads.push_back({name,
                          tip,
                          {base.x - uy * head * 0.4, base.y + ux * head * 0.4},
                          {base.x + uy * head * 0.4, base.y - ux * head * 0.4}});
  }

  // An annotated arrowhead: a triangle in its box, pointing its orientation (none when unknown).
  void add_head(const ArrowHead& head) {
    if (!head.orientation) return;
    const P2 a = tf_(Vec2{head.box[0], head.box[1]}), b = tf_(Vec2{head.box[2], head.box[3]});
    const P2 c{(a.x + b.x) / 2, (a.y + b.y) / 2};
    const double r = std::max(4.0, std::min(std::abs(b.x - a.x), std::abs(b.y - a.y)) / 2);
    const double t = tf_.angle_deg(to_double(*head.orientation)) * M_PI / 180, ux = std::cos(t), uy = std::sin(t);
    fig_.heads.push_back({head.id,
                          {c.x + ux * r, c.y + uy * r},
                          {c.x - ux * r - uy * r * 0.6, c.y - uy * r + ux * r * 0.6},
                          {c.x - ux * r + uy * r * 0.6, c.y - uy * r - ux * r * 0.6}});
  }

  // Clearance of a letter centred at c from every stroke and every letter placed so far.
  double clearance(P2 c) const {
    double best = 1e300;
    for (const auto& s : fig_.straights) best = std::min(best, distance_to_segment(c, s.a, s.b));
    for (const auto& curve : fig_.curves)
      if (curve.straights.empty()) best = std::min(best, distance_to_path(c, curve.path, curve.closed));
    for (const auto& t : fig_.texts)
      if (t.letter) best = std::min(best, std::hypot(c.x - t.center.x, c.y - t.center.y) * 0.7);
    return best;
  }

  void add_point(const Point& point) {
    if (!point.at) return;
    const P2 at = tf_(*point.at);
    if (!point.labelled) return;
    fig_.dots.push_back({point.id, at});
    const double d = fig_.font_px * (0.75 + 0.2 * std::max<std::size_t>(1, point.id.size()));
    P2 best = at;
    double best_clearance = -1;
    for (int k = 0; k < 8; ++k) {  // east first, then counter-clockwise on screen
      const double t = k * std::numbers::pi / 4;
      const P2 c{at.x + d * std::cos(t), at.y - d * std::sin(t)};
      const double inside = c.x > 0 && c.y > 0 && c.x < fig_.width && c.y < fig_.height ? 0 : 1e3;
      const double score = clearance(c) - inside;
      if (score > best_clearance + 1e-9) best_clearance = score, best = c;
    }
    fig_.texts.push_back({point.id, point.id, best, at, true});
  }

  const Scene& scene_;
  bool as_drawn_ = false;
  Transform tf_;
  Figure fig_;
};

}  // namespace

double render_scale(const Frame& frame, int size, const Bands& bands) {
  const double fw = to_double(frame.width), fh = to_double(frame.height);
  return size > 0 ? size / std::max(fw, fh) : to_double(bands.pixels_per_unit(frame));
}

std::pair<int, int> image_size(const Frame& frame, double scale) {
  const double w = std::round(to_double(frame.width) * scale), h = std::round(to_double(frame.height) * scale);
  if (!(w >= 1 && h >= 1 && w <= kMaxSide && h <= kMaxSide))
    throw std::invalid_argument("an image of " + std::to_string(std::llround(std::min(w, 1e15))) + " × " +
                                std::to_string(std::llround(std::min(h, 1e15))) + " pixels: each side must be 1 to " +
                                std::to_string(kMaxSide));
  return {static_cast<int>(w), static_cast<int>(h)};
}

double scale_for_image(const Frame& frame, int width, int height, bool& fills) {
  const double fw = to_double(frame.width), fh = to_double(frame.height);
  const double k = width / fw;
  fills = std::abs(fw * k - width) <= 1 && std::abs(fh * k - height) <= 1;
  if (fills) return k;
  if (fw <= width + 1 && fh <= height + 1) return 1;
  return std::min(width / fw, height / fh);
}

Figure build_figure(const Scene& scene, int width, int height, double scale, P2 offset, double font_px, bool as_drawn) {
  return Builder(scene, width, height, scale, offset, font_px, as_drawn).build();
}

double distance_to_segment(P2 p, P2 a, P2 b) {
  const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}

double distance_to_path(P2 p, const std::vector<P2>& path, bool closed) {
  double best = 1e300;
  if (path.size() == 1) return std::hypot(p.x - path[0].x, p.y - path[0].y);
  for (std::size_t i = 0; i + 1 < path.size() + (closed ? 1 : 0); ++i)
    best = std::min(best, distance_to_segment(p, path[i], path[(i + 1) % path.size()]));
  return best;
}

}  // namespace geotruth::vision
