#include <geotruth/shape_types.hpp>

#include <algorithm>
#include <cmath>

namespace geotruth {

std::string shape_type(const Shape& shape) {
  if (!shape.kind.empty()) return shape.kind;
  if (const auto* polygon = std::get_if<PolygonShape>(&shape.geometry)) {
    static const char* kByCount[] = {"triangle", "quadrilateral", "pentagon", "hexagon"};
    const std::size_t n = polygon->points.size();
    return n >= 3 && n <= 6 ? kByCount[n - 3] : "polygon";
  }
  if (shape.type == "segment" || shape.type == "ray") return "line";
  return shape.type;
}

std::string type_of_phrase(std::string phrase) {
  for (auto at = phrase.find("(s)"); at != std::string::npos; at = phrase.find("(s)")) phrase.erase(at, 3);
  if (auto paren = phrase.find(" ("); paren != std::string::npos) phrase.erase(paren);
  while (!phrase.empty() && phrase.back() == ' ') phrase.pop_back();
  for (bool stripped = true; stripped;) {  // "all the stars"
    stripped = false;
    for (std::string article : {"the ", "all ", "a ", "an "})
      if (phrase.rfind(article, 0) == 0) {
        phrase.erase(0, article.size());
        stripped = true;
      }
  }
  if (phrase.size() > 1 && phrase.back() == 's') phrase.pop_back();  // every shape plural here adds an s
  return phrase;
}

std::vector<std::pair<double, double>> star_vertices(const StarShape& s) {
  constexpr double kPi = 3.14159265358979323846;
  std::vector<std::pair<double, double>> out;
  const double rot = to_double(reduce_degrees(s.rotation_deg)) * kPi / 180;
  for (int k = 0; k < 2 * s.num_points; ++k) {
    const double r = to_double(k % 2 ? s.inner_radius : s.outer_radius), t = rot + kPi * k / s.num_points;
    out.emplace_back(to_double(s.center.x) + r * std::cos(t), to_double(s.center.y) + r * std::sin(t));
  }
  return out;
}

std::vector<Vec2> star_corners(const StarShape& s) {
  constexpr double kPi = 3.14159265358979323846;
  std::vector<Vec2> out;
  const double rot = to_double(reduce_degrees(s.rotation_deg)) * kPi / 180;
  for (int k = 0; k < 2 * s.num_points; ++k) {
    const double r = to_double(k % 2 ? s.inner_radius : s.outer_radius), t = rot + kPi * k / s.num_points;
    out.push_back({s.center.x + Rational(r * std::cos(t)), s.center.y + Rational(r * std::sin(t))});
  }
  return out;
}

double spiral_radius(const SpiralShape& s, double t) {
  return to_double(s.initial_radius) +
         (to_double(s.growth_rate) +
          to_double(s.sin_eps) * std::sin(to_double(s.sin_omega) * t + to_double(s.sin_phi))) *
             t;
}

namespace {

// Points of a shape's outline at fixed parameters, so that two versions of one shape correspond
// point by point.
std::vector<std::pair<double, double>> outline_samples(const ShapeGeometry& geometry, double theta_max,
                                                       int spiral_samples) {
  constexpr double kPi = 3.14159265358979323846;
  constexpr int kSamples = 720;
  std::vector<std::pair<double, double>> out;
  std::visit(
      [&](const auto& g) {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, PolygonShape>) {
          for (const auto& p : g.points) out.emplace_back(to_double(p.x), to_double(p.y));
        } else if constexpr (std::is_same_v<T, StraightShape>) {
          out = {{to_double(g.a.x), to_double(g.a.y)}, {to_double(g.b.x), to_double(g.b.y)}};
        } else if constexpr (std::is_same_v<T, EllipseShape>) {
          const double rot = to_double(reduce_degrees(g.rotation_deg)) * kPi / 180, a = to_double(g.axes[0]),
                       b = to_double(g.axes[1]);
          for (int k = 0; k < kSamples; ++k) {
            const double t = 2 * kPi * k / kSamples, x = a * std::cos(t), y = b * std::sin(t);
            out.emplace_back(to_double(g.center.x) + x * std::cos(rot) - y * std::sin(rot),
                             to_double(g.center.y) + x * std::sin(rot) + y * std::cos(rot));
          }
        } else if constexpr (std::is_same_v<T, SectorShape>) {
          const double r = to_double(g.radius), t0 = to_double(reduce_degrees(g.start_deg)) * kPi / 180;
          double sweep = to_double(reduce_degrees(g.end_deg - g.start_deg));
          if (sweep <= 0) sweep += 360;
          out.emplace_back(to_double(g.center.x), to_double(g.center.y));
          for (int k = 0; k <= kSamples; ++k) {
            const double t = t0 + sweep * kPi / 180 * k / kSamples;
            out.emplace_back(to_double(g.center.x) + r * std::cos(t), to_double(g.center.y) + r * std::sin(t));
          }
        } else if constexpr (std::is_same_v<T, StarShape>) {
          out = star_vertices(g);
        } else if constexpr (std::is_same_v<T, SpiralShape>) {
          for (int k = 0; k <= spiral_samples; ++k) {
            const double t = theta_max * k / spiral_samples, r = spiral_radius(g, t);
            out.emplace_back(to_double(g.center.x) + r * std::cos(t), to_double(g.center.y) + r * std::sin(t));
          }
        }
      },
      geometry);
  return out;
}

}  // namespace

double drawn_gap(const Shape& shape) {
  if (!shape.drawn) return 0;
  // Spirals are compared at the same angles, finely enough for the faster of the two sine terms.
  double theta_max = 0, omega = 0;
  for (const ShapeGeometry* g : {&shape.geometry, &*shape.drawn})
    if (const auto* spiral = std::get_if<SpiralShape>(g)) {
      theta_max = std::max(theta_max, to_double(spiral->max_theta));
      omega = std::max(omega, std::abs(to_double(spiral->sin_omega)));
    }
  const int spiral_samples = std::clamp(static_cast<int>(theta_max * (omega + 1) * 64), 720, 1000000);
  const auto defined = outline_samples(shape.geometry, theta_max, spiral_samples),
             drawn = outline_samples(*shape.drawn, theta_max, spiral_samples);
  double gap = 0;
  for (std::size_t k = 0; k < std::min(defined.size(), drawn.size()); ++k)
    gap = std::max(gap, std::hypot(defined[k].first - drawn[k].first, defined[k].second - drawn[k].second));
  return gap;
}

}  // namespace geotruth
