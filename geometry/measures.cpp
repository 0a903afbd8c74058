#include "geometry/measures.hpp"

#include <geotruth/shape_types.hpp>

#include <algorithm>
#include <cmath>

namespace geotruth::geometry {
namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

Vec2 polygon_centroid(const std::vector<Vec2>& p) {
  Rational twice_area = 0, cx = 0, cy = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec2 &a = p[i], &b = p[(i + 1) % p.size()];
    const Rational cross = a.x * b.y - b.x * a.y;
    twice_area += cross;
    cx += (a.x + b.x) * cross;
    cy += (a.y + b.y) * cross;
  }
  if (twice_area == 0) {  // degenerate (validate() rejects it): no area to weigh by
    Vec2 mean{0, 0};
    for (const auto& q : p) mean = {mean.x + q.x / p.size(), mean.y + q.y / p.size()};
    return mean;
  }
  return {cx / (3 * twice_area), cy / (3 * twice_area)};
}

Rational polygon_area(const std::vector<Vec2>& p) {
  Rational twice = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    twice += p[i].x * p[(i + 1) % p.size()].y - p[(i + 1) % p.size()].x * p[i].y;
  return abs(twice) / 2;
}

ShapeMeasures measure_shape(const Shape& shape) {
  ShapeMeasures m;
  auto extent_of = [&](const std::vector<std::pair<double, double>>& pts) {
    m.x0 = m.y0 = 1e300;
    m.x1 = m.y1 = -1e300;
    for (const auto& [x, y] : pts) {
      m.x0 = std::min(m.x0, x), m.x1 = std::max(m.x1, x), m.y0 = std::min(m.y0, y), m.y1 = std::max(m.y1, y);
    }
  };
  std::visit(
      [&](const auto& g) {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, PolygonShape>) {
          m.exact_centroid = polygon_centroid(g.points);
          m.area = to_double(polygon_area(g.points));
          std::vector<std::pair<double, double>> pts;
          for (const auto& p : g.points) pts.emplace_back(to_double(p.x), to_double(p.y));
          extent_of(pts);
        } else if constexpr (std::is_same_v<T, StraightShape>) {
          m.exact_centroid = Vec2{(g.a.x + g.b.x) / 2, (g.a.y + g.b.y) / 2};
          extent_of({{to_double(g.a.x), to_double(g.a.y)}, {to_double(g.b.x), to_double(g.b.y)}});
        } else if constexpr (std::is_same_v<T, EllipseShape>) {
          m.exact_centroid = g.center;
          const double a = to_double(g.axes[0]), b = to_double(g.axes[1]),
                       t = to_double(reduce_degrees(g.rotation_deg)) * kPi / 180;
          const double hx = std::hypot(a * std::cos(t), b * std::sin(t)),
                       hy = std::hypot(a * std::sin(t), b * std::cos(t));
          const double cx = to_double(g.center.x), cy = to_double(g.center.y);
          m.x0 = cx - hx, m.x1 = cx + hx, m.y0 = cy - hy, m.y1 = cy + hy;
          m.area = kPi * a * b;
        } else if constexpr (std::is_same_v<T, SectorShape>) {
          const double r = to_double(g.radius), cx = to_double(g.center.x), cy = to_double(g.center.y);
          double t0 = to_double(reduce_degrees(g.start_deg)),
                 t1 = t0 + to_double(reduce_degrees(g.end_deg - g.start_deg));
          double sweep = std::fmod(std::fmod(t1 - t0, 360) + 360, 360);
          if (sweep == 0) sweep = 360;  // validate() rejects a zero sweep: equal ends are the full disc
          // The area centroid: 2r·sin(α/2) / (3·α/2) from the centre along the bisector (α the sweep).
          const double half = sweep * kPi / 360, bisector = (t0 + sweep / 2) * kPi / 180;
          const double reach = 2 * r * std::sin(half) / (3 * half);
          m.cx = cx + reach * std::cos(bisector), m.cy = cy + reach * std::sin(bisector);
          std::vector<std::pair<double, double>> pts = {{cx, cy}};
          for (double k = 0; k <= 1.0; k += 1.0 / 720) {  // arc samples every quarter degree
            const double t = (t0 + sweep * k) * kPi / 180;
            pts.emplace_back(cx + r * std::cos(t), cy + r * std::sin(t));
          }
          extent_of(pts);
          m.area = r * r * sweep * kPi / 360;
        } else if constexpr (std::is_same_v<T, StarShape>) {
          m.exact_centroid = g.center;
          const auto pts = star_vertices(g);
          extent_of(pts);
          double twice = 0;
          for (std::size_t i = 0; i < pts.size(); ++i)
            twice += pts[i].first * pts[(i + 1) % pts.size()].second - pts[(i + 1) % pts.size()].first * pts[i].second;
          m.area = std::abs(twice) / 2;
        } else if constexpr (std::is_same_v<T, SpiralShape>) {
          m.exact_centroid = g.center;
          const double T = to_double(g.max_theta), cx = to_double(g.center.x), cy = to_double(g.center.y);
          std::vector<std::pair<double, double>> pts;
          for (int k = 0; k <= 4000; ++k) {
            const double t = T * k / 4000, r = spiral_radius(g, t);
            pts.emplace_back(cx + r * std::cos(t), cy + r * std::sin(t));
          }
          extent_of(pts);
          // The engine's area: ∫ r²/2 dθ over the last full turn (Simpson's rule).
          const double from = std::max(0.0, T - 2 * kPi);
          const int n = 2000;
          double sum = 0;
          for (int k = 0; k <= n; ++k) {
            const double t = from + (T - from) * k / n, r = spiral_radius(g, t);
            sum += (k == 0 || k == n ? 1 : k % 2 ? 4 : 2) * r * r / 2;
          }
          m.area = sum * (T - from) / n / 3;
        }
      },
      shape.geometry);
  if (m.exact_centroid) m.cx = to_double(m.exact_centroid->x), m.cy = to_double(m.exact_centroid->y);
  return m;
}

}  // namespace geotruth::geometry
