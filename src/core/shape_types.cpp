#include <geotruth/shape_types.hpp>

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

}  // namespace geotruth
