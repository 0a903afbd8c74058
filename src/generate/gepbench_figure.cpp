// Random GePBench figures: the engine's shapes and relations, built so that every relation holds
// exactly where rationals allow it. Free numbers are decimals of four places (as the engine
// rounds its own); directions that must be exact (the sides of squares and rectangles, tangent
// points on circles, perpendiculars) are the rational unit vectors of unit_directions(), so
// products stay decimals. What cannot be rational (regular pentagons, points on a rotated
// ellipse, a star's tips) is rounded to ten places: 6e-8 px at 640 px, far inside ε_num.
#include "generate/gepbench_figure.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "generate/exact.hpp"

namespace geotruth::generate {
namespace {

constexpr double kPi = 3.14159265358979323846;

double d(const Rational& r) {
  return to_double(r);
}
Rational dec4(double v) {
  return decimal(v, 4);
}
Rational dec10(double v) {
  return decimal(v, 10);
}
Vec2 round10(double x, double y) {
  return {dec10(x), dec10(y)};
}

struct Box {
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  void add(double x, double y) {
    x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
  }
  double area() const { return std::max(0.0, x1 - x0) * std::max(0.0, y1 - y0); }
};

double overlap(const Box& a, const Box& b) {
  return std::max(0.0, std::min(a.x1, b.x1) - std::max(a.x0, b.x0)) *
         std::max(0.0, std::min(a.y1, b.y1) - std::max(a.y0, b.y0));
}

// The shape's extent in frame units, sampled where it is curved.
Box box_of(const EngineShape& s) {
  Box box;
  if (!s.points.empty()) {
    for (const auto& p : s.points) box.add(d(p.x), d(p.y));
    return box;
  }
  const double cx = d(s.center.x), cy = d(s.center.y);
  if (s.type == "ellipse") {
    const double a = d(s.major) / 2, b = d(s.minor) / 2, t = d(s.rotation);
    const double hx = std::hypot(a * std::cos(t), b * std::sin(t)), hy = std::hypot(a * std::sin(t), b * std::cos(t));
    box.add(cx - hx, cy - hy), box.add(cx + hx, cy + hy);
  } else if (s.type == "sector") {
    const double r = d(s.radius), t0 = d(s.start);
    double sweep = d(s.end) - t0;
    while (sweep <= 0) sweep += 2 * kPi;
    box.add(cx, cy);
    for (int k = 0; k <= 64; ++k)
      box.add(cx + r * std::cos(t0 + sweep * k / 64), cy + r * std::sin(t0 + sweep * k / 64));
  } else if (s.type == "star") {
    const double r = d(s.outer);
    for (int k = 0; k < s.num_points; ++k) {
      const double t = d(s.rotation) + 2 * kPi * k / s.num_points;
      box.add(cx + r * std::cos(t), cy + r * std::sin(t));
    }
  } else if (s.type == "spiral") {
    const double T = d(s.max_theta), a = d(s.initial_radius), b = d(s.growth_rate), e = d(s.sin_eps),
                 w = d(s.sin_omega), phi = d(s.sin_phi);
    for (int k = 0; k <= 2000; ++k) {
      const double t = T * k / 2000, r = a + (b + e * std::sin(w * t + phi)) * t;
      box.add(cx + r * std::cos(t), cy + r * std::sin(t));
    }
  }
  return box;
}

bool convex(const std::vector<Vec2>& p) {
  int sign = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Rational c = cross(p[(i + 1) % p.size()] - p[i], p[(i + 2) % p.size()] - p[(i + 1) % p.size()]);
    const int s = sgn(c);
    if (s == 0 || (sign != 0 && s != sign)) return false;
    sign = s;
  }
  return true;
}

// Interior angles within [0.15π, 0.85π] (the engine's check_angle) and sides of at least `side`.
bool well_shaped(const std::vector<Vec2>& p, double side = 0.04) {
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 &a = p[(i + n - 1) % n], &b = p[i], &c = p[(i + 1) % n];
    const double ux = d(a.x - b.x), uy = d(a.y - b.y), vx = d(c.x - b.x), vy = d(c.y - b.y);
    const double lu = std::hypot(ux, uy), lv = std::hypot(vx, vy);
    if (lv < side) return false;
    const double angle = std::acos(std::clamp((ux * vx + uy * vy) / (lu * lv), -1.0, 1.0));
    if (angle < 0.15 * kPi || angle > 0.85 * kPi) return false;
  }
  return true;
}

double polygon_area(const std::vector<Vec2>& p) {
  double a = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    a += d(p[i].x) * d(p[(i + 1) % p.size()].y) - d(p[(i + 1) % p.size()].x) * d(p[i].y);
  return std::abs(a) / 2;
}

class Builder {
 public:
  explicit Builder(Random& rng) : rng_(rng) {}
  EngineFigure figure;

  // One group (a free shape, or shapes built around a relation), or false when this attempt at
  // it does not fit. `room` is how many shapes it may add.
  bool add_group(std::size_t room) {
    struct Group {
      double weight;
      std::size_t size;
      bool (Builder::*make)();
    };
    static const std::vector<Group> groups = {
        {5, 1, &Builder::free_polygon},
        {2, 1, &Builder::free_line},
        {3, 1, &Builder::free_round},
        {1, 1, &Builder::free_spiral},
        {2, 1, &Builder::free_sector},
        {2, 1, &Builder::free_star},
        {2, 2, &Builder::circle_tangent_line},
        {1.5, 2, &Builder::concentric},
        {2, 2, &Builder::polygon_in_circle},
        {2, 2, &Builder::circle_in_polygon},
        {2, 2, &Builder::tangent_circles},
        {1, 2, &Builder::diameter},
        {1.5, 2, &Builder::ellipse_tangent_line},
        {1, 2, &Builder::polygon_in_ellipse},
        {1, 2, &Builder::ellipse_in_polygon},
        {1, 2, &Builder::ellipse_tangent_circle},
        {1, 2, &Builder::ellipse_axis},
        {1, 2, &Builder::parallel},
        {1, 2, &Builder::perpendicular},
        {2, 2, &Builder::triangle_circumcircle},
        {2, 2, &Builder::triangle_incircle},
        {1, 2, &Builder::shared_edge},
        {2, 2, &Builder::rectangle_circumcircle},
        {1, 2, &Builder::diagonal},
        {1.5, 2, &Builder::regular_circumcircle},
        {1, 2, &Builder::similar},
        {1, 2, &Builder::symmetric},
        {1, 2, &Builder::sector_tangent_line},
        {1, 2, &Builder::adjacent_sector},
        {1, 2, &Builder::adjacent_polygon},
        {1.5, 2, &Builder::star_circumcircle},
    };
    double total = 0;
    for (const auto& g : groups)
      if (g.size <= room) total += g.weight;
    double x = rng_.uniform(0, total);
    for (const auto& g : groups) {
      if (g.size > room) continue;
      if ((x -= g.weight) > 0) continue;
      const EngineFigure before = figure;
      if ((this->*g.make)() && placed_well(before.shapes.size())) return true;
      figure = before;
      return false;
    }
    return false;
  }

 private:
  Random& rng_;

  Rational u4(double lo, double hi) { return dec4(rng_.uniform(lo, hi)); }
  Vec2 point(double lo = 0.2, double hi = 0.8) { return {u4(lo, hi), u4(lo, hi)}; }
  const Direction& direction() { return rng_.pick(unit_directions()); }

  std::size_t add(EngineShape s) {
    figure.shapes.push_back(std::move(s));
    return figure.shapes.size() - 1;
  }
  void relate(std::size_t a, std::size_t b, std::string name) {
    figure.relations.push_back({a, b, std::move(name)});
    figure.touching.emplace_back(a, b);
  }

  static EngineShape polygon(std::vector<Vec2> points, std::string special = "") {
    EngineShape s;
    s.type = "polygon", s.points = std::move(points), s.special = std::move(special);
    if (s.special.empty() && s.points.size() == 3) s.special = "triangle";
    return s;
  }
  static EngineShape straight(const std::string& type, Vec2 a, Vec2 b) {
    EngineShape s;
    s.type = type, s.points = {std::move(a), std::move(b)};
    return s;
  }
  static EngineShape circle(Vec2 c, const Rational& r) {
    EngineShape s;
    s.type = "ellipse", s.special = "circle", s.center = std::move(c), s.major = s.minor = 2 * r, s.rotation = 0;
    return s;
  }
  static EngineShape ellipse(Vec2 c, const Rational& a, const Rational& b, const Rational& rotation) {
    EngineShape s;
    s.type = "ellipse", s.center = std::move(c), s.major = 2 * a, s.minor = 2 * b, s.rotation = rotation;
    return s;
  }

  // The new shapes from `first` on lie in the canvas and do not pile onto the others: the sum of
  // their boxes' overlaps (intersection over union) with earlier shapes stays under the engine's
  // 0.2 (data/rule/utils.py no_overlap).
  bool placed_well(std::size_t first) const {
    for (std::size_t i = first; i < figure.shapes.size(); ++i) {
      const auto& s = figure.shapes[i];
      const Box b = box_of(s);
      const bool straight_line = s.type == "line" || s.type == "ray";
      const double m = straight_line ? -1e-9 : 0.01;
      if (b.x0 < m || b.y0 < m || b.x1 > 1 - m || b.y1 > 1 - m) return false;
      double iou = 0;
      for (std::size_t j = 0; j < first; ++j) {
        const Box o = box_of(figure.shapes[j]);
        const double inter = overlap(b, o), uni = b.area() + o.area() - inter;
        if (uni > 0) iou += inter / uni;
      }
      if (iou > 0.2) return false;
    }
    return true;
  }

  // --- free shapes ---------------------------------------------------------------------------
  std::vector<Vec2> random_convex(std::size_t n, Vec2 c, double radius) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      std::vector<double> angles;
      for (std::size_t i = 0; i < n; ++i) angles.push_back(rng_.uniform(0, 2 * kPi));
      std::sort(angles.begin(), angles.end());
      std::vector<Vec2> p;
      for (double a : angles) {
        const double r = radius * rng_.uniform(0.75, 1.0);
        p.push_back({dec4(d(c.x) + r * std::cos(a)), dec4(d(c.y) + r * std::sin(a))});
      }
      if (convex(p) && well_shaped(p) && polygon_area(p) >= 0.01) return p;
    }
    return {};
  }

  // A square or rectangle by its centre and half-diagonals c ± ρu1, c ± ρu2 (u1, u2 rational unit
  // vectors): right angles exact, its circumscribed circle (c, ρ) exact.
  std::vector<Vec2> rectangle(const Vec2& c, const Rational& rho, bool square) {
    const auto& dirs = unit_directions();
    const std::size_t i = rng_.below(dirs.size());
    if (square) {
      const Vec2 u = dirs[i].u, v = perp(u);
      return {c + rho * u, c + rho * v, c - rho * u, c - rho * v};
    }
    for (int attempt = 0; attempt < 20; ++attempt) {
      const auto& a = dirs[i];
      const auto& b = rng_.pick(dirs);
      double phi = b.radians - a.radians;
      if (phi < 0) phi += 2 * kPi;
      // Sides 2ρ sin(φ/2), 2ρ cos(φ/2): a ratio of 1.2 to 4 (the engine's rectangle_ratio_thres).
      const double ratio = std::tan(phi / 2);
      if (phi >= kPi || ratio < 1.2 || ratio > 4) continue;
      return {c + rho * a.u, c + rho * b.u, c - rho * a.u, c - rho * b.u};
    }
    return {};
  }

  std::vector<Vec2> regular(const Vec2& c, double r, std::size_t n) {
    const double t0 = rng_.uniform(0, 2 * kPi);
    std::vector<Vec2> p;
    for (std::size_t k = 0; k < n; ++k) {
      const double t = t0 + 2 * kPi * static_cast<double>(k) / static_cast<double>(n);
      p.push_back(round10(d(c.x) + r * std::cos(t), d(c.y) + r * std::sin(t)));
    }
    return p;
  }

  bool free_polygon() {
    const double x = rng_.unit();
    const Vec2 c = point(0.25, 0.75);
    if (x < 0.1) return add(polygon(rectangle(c, u4(0.08, 0.22), true), "square")), true;
    if (x < 0.2) {
      auto p = rectangle(c, u4(0.08, 0.22), false);
      return !p.empty() && (add(polygon(p, "rectangle")), true);
    }
    if (x < 0.3) return add(polygon(regular(c, d(u4(0.08, 0.2)), 5), "regular pentagon")), true;
    if (x < 0.4) return add(polygon(regular(c, d(u4(0.08, 0.2)), 6), "regular hexagon")), true;
    auto p = random_convex(static_cast<std::size_t>(rng_.between(3, 6)), c, rng_.uniform(0.08, 0.22));
    return !p.empty() && (add(polygon(p)), true);
  }

  // A point on the canvas's edge: 0 left, 1 right, 2 bottom, 3 top.
  Vec2 edge_point(int edge) {
    const Rational t = u4(0.1, 0.9);
    switch (edge) {
      case 0:
        return {0, t};
      case 1:
        return {1, t};
      case 2:
        return {t, 0};
      default:
        return {t, 1};
    }
  }

  bool free_line() {
    const int kind = static_cast<int>(rng_.below(3));
    for (int attempt = 0; attempt < 20; ++attempt) {
      Vec2 a, b;
      if (kind == 0) {
        a = point(0.05, 0.95), b = point(0.05, 0.95);
      } else if (kind == 1) {
        a = point(0.1, 0.9), b = edge_point(static_cast<int>(rng_.below(4)));
      } else {
        const int e1 = static_cast<int>(rng_.below(4));
        int e2 = static_cast<int>(rng_.below(3));
        if (e2 >= e1) ++e2;
        a = edge_point(e1), b = edge_point(e2);
      }
      const double len = std::hypot(d(a.x - b.x), d(a.y - b.y));
      if (len < 0.2 || len > 0.8) continue;
      add(straight(kind == 0 ? "segment" : kind == 1 ? "ray" : "line", a, b));
      return true;
    }
    return false;
  }

  bool free_round() {
    const Vec2 c = point(0.25, 0.75);
    if (rng_.chance(0.5)) return add(circle(c, u4(0.06, 0.2))), true;
    const Rational a = u4(0.14, 0.32);
    const Rational b = dec4(d(a) / rng_.uniform(1.3, 3.2));
    if (b < Rational(6, 100)) return false;
    add(ellipse(c, a, b, u4(0, kPi)));
    return true;
  }

  bool free_spiral() {
    EngineShape s;
    s.type = "spiral";
    s.center = point(0.3, 0.7);
    s.initial_radius = Rational(5, 10000);
    s.growth_rate = u4(0.008, 0.012);
    // No sine term: the engine draws its spirals as r = a + b·θ (docs/gepbench.md, Import), so a
    // picture of these rules by the engine and geotruth's are the same curve.
    s.sin_eps = 0;
    s.sin_omega = u4(0.7, 1.3);
    s.sin_phi = u4(0, kPi);
    // As many turns as fit: the engine's 2.5 to 6 turns, its outer radius inside the canvas.
    const double room = std::min({d(s.center.x), d(s.center.y), 1 - d(s.center.x), 1 - d(s.center.y)}) - 0.03;
    const double most = (room - d(s.initial_radius)) / (d(s.growth_rate) + d(s.sin_eps));
    const double turns = std::min(rng_.uniform(5 * kPi, 12 * kPi), most);
    if (turns < 4 * kPi) return false;
    s.max_theta = dec4(turns);
    add(s);
    return true;
  }

  EngineShape sector(const Vec2& c, const Rational& r, const Rational& start, double span) {
    EngineShape s;
    s.type = "sector", s.center = c, s.radius = r, s.start = start;
    double end = d(start) + span;
    if (end >= 2 * kPi) end -= 2 * kPi;
    s.end = dec4(end);
    return s;
  }

  bool free_sector() {
    const Rational r = u4(0.12, 0.32);
    const double span = rng_.uniform(25, 150) * kPi / 180;
    if (d(r) * d(r) * span / 2 < 0.01) return false;
    add(sector(point(0.25, 0.75), r, u4(0, 2 * kPi), span));
    return true;
  }

  EngineShape star(const Vec2& c, const Rational& outer) {
    EngineShape s;
    s.type = "star", s.center = c, s.outer = outer, s.inner = dec4(d(outer) * rng_.uniform(0.45, 0.7));
    s.num_points = static_cast<int>(rng_.between(5, 6));
    s.rotation = u4(0, 2 * kPi);
    return s;
  }

  bool free_star() { return add(star(point(0.25, 0.75), u4(0.1, 0.22))), true; }

  // --- circles and their relations ----------------------------------------------------------
  bool circle_tangent_line() {
    const Vec2 c = point(0.25, 0.75);
    const Rational r = u4(0.06, 0.18);
    const Vec2 u = direction().u, t = perp(u), p = c + r * u;
    const std::size_t ci = add(circle(c, r));
    const std::size_t li = add(straight("segment", p - u4(0.08, 0.3) * t, p + u4(0.08, 0.3) * t));
    relate(ci, li, "tangent line");
    return true;
  }

  bool concentric() {
    const Vec2 c = point(0.3, 0.7);
    const bool round = rng_.chance(0.6);
    const Rational a = u4(round ? 0.06 : 0.1, round ? 0.14 : 0.18);
    const Rational b = round ? a : dec4(d(a) / rng_.uniform(1.3, 2.5));
    if (b < Rational(5, 100)) return false;
    const Rational rotation = round ? Rational(0) : u4(0, kPi);
    const std::size_t first = add(round ? circle(c, a) : ellipse(c, a, b, rotation));
    const Rational k = dec4(rng_.uniform(1.25, 1.6));
    const std::size_t second = add(round ? circle(c, a * k) : ellipse(c, a * k, b * k, rotation));
    relate(first, second, "concentric");
    return true;
  }

  // n rational directions in angle order, every gap between consecutive ones within [lo, hi].
  std::vector<Direction> spread_directions(std::size_t n, double lo_deg, double hi_deg) {
    const auto& all = unit_directions();
    for (int attempt = 0; attempt < 40; ++attempt) {
      std::vector<std::size_t> pick;
      while (pick.size() < n) {
        const std::size_t i = rng_.below(all.size());
        if (std::find(pick.begin(), pick.end(), i) == pick.end()) pick.push_back(i);
      }
      std::sort(pick.begin(), pick.end());
      bool ok = true;
      for (std::size_t k = 0; k < n && ok; ++k) {
        double gap = all[pick[(k + 1) % n]].radians - all[pick[k]].radians;
        if (gap <= 0) gap += 2 * kPi;
        ok = gap >= lo_deg * kPi / 180 && gap <= hi_deg * kPi / 180;
      }
      if (!ok) continue;
      std::vector<Direction> out;
      for (auto i : pick) out.push_back(all[i]);
      return out;
    }
    return {};
  }

  // A polygon whose vertices lie on the circle (c, r): vertices c + r·u, exact.
  bool polygon_in_circle() {
    const Vec2 c = point(0.25, 0.75);
    const Rational r = u4(0.09, 0.2);
    std::vector<Vec2> p;
    std::string kind;
    const double x = rng_.unit();
    if (x < 0.2) {
      p = rectangle(c, r, true), kind = "square";
    } else if (x < 0.4) {
      p = rectangle(c, r, false), kind = "rectangle";
    } else {
      for (const auto& dir : spread_directions(static_cast<std::size_t>(rng_.between(3, 6)), 40, 150))
        p.push_back(c + r * dir.u);
    }
    if (p.empty() || !well_shaped(p)) return false;
    const std::size_t ci = add(circle(c, r));
    const std::size_t pi = add(polygon(p, kind));
    relate(ci, pi, "circumscribed");
    return true;
  }

  // The polygon of the tangent lines at the directions u_i: vertex c + r (u_i + u_j) / (1 + u_i·u_j).
  static std::vector<Vec2> tangent_polygon(const Vec2& c, const Rational& r, const std::vector<Direction>& dirs) {
    std::vector<Vec2> p;
    for (std::size_t k = 0; k < dirs.size(); ++k) {
      const Vec2 &u = dirs[k].u, &v = dirs[(k + 1) % dirs.size()].u;
      const Vec2 q = c + (r / (1 + dot(u, v))) * (u + v);
      // Exact when 1 + u·v divides into a decimal (always for a square), else rounded once.
      p.push_back(is_decimal(q.x, 12) && is_decimal(q.y, 12) ? q : round10(d(q.x), d(q.y)));
    }
    return p;
  }

  bool circle_in_polygon() {
    const Vec2 c = point(0.25, 0.75);
    const Rational r = u4(0.06, 0.15);
    std::vector<Vec2> p;
    std::string kind;
    if (rng_.chance(0.3)) {
      const Vec2 u = direction().u, v = perp(u);
      p = {c + r * (u + v), c + r * (v - u), c - r * (u + v), c + r * (u - v)}, kind = "square";
    } else {
      const auto dirs = spread_directions(static_cast<std::size_t>(rng_.between(3, 6)), 50, 150);
      if (dirs.empty()) return false;
      p = tangent_polygon(c, r, dirs);
    }
    if (!well_shaped(p)) return false;
    const std::size_t ci = add(circle(c, r));
    const std::size_t pi = add(polygon(p, kind));
    relate(ci, pi, "inscribed");
    return true;
  }

  bool tangent_circles() {
    const Vec2 c = point(0.3, 0.7);
    const Rational r = u4(0.08, 0.18);
    const Vec2 u = direction().u;
    const bool internal = rng_.chance(0.5);
    const Rational r2 = internal ? dec4(d(r) * rng_.uniform(0.3, 0.65)) : u4(0.05, 0.14);
    const Vec2 c2 = c + (internal ? Rational(r - r2) : Rational(r + r2)) * u;
    const std::size_t a = add(circle(c, r));
    const std::size_t b = add(circle(c2, r2));
    relate(a, b, internal ? "internal tangent circle" : "external tangent circle");
    return true;
  }

  bool diameter() {
    const Vec2 c = point(0.25, 0.75);
    const Rational r = u4(0.08, 0.2);
    const Vec2 u = direction().u;
    const std::size_t li = add(straight("segment", c - r * u, c + r * u));
    const std::size_t ci = add(circle(c, r));
    relate(li, ci, "diameter");
    return true;
  }

  // --- ellipses (rotated: their points are rounded) -----------------------------------------
  struct Oval {
    Vec2 c;
    Rational a, b, rotation;
    double cx() const { return d(c.x); }
    double cy() const { return d(c.y); }
    // c + a cos t e1 + b sin t e2.
    std::pair<double, double> at(double t) const {
      const double r = d(rotation), x = d(a) * std::cos(t), y = d(b) * std::sin(t);
      return {cx() + x * std::cos(r) - y * std::sin(r), cy() + x * std::sin(r) + y * std::cos(r)};
    }
    // The unit tangent at t.
    std::pair<double, double> tangent(double t) const {
      const double r = d(rotation), x = -d(a) * std::sin(t), y = d(b) * std::cos(t);
      const double tx = x * std::cos(r) - y * std::sin(r), ty = x * std::sin(r) + y * std::cos(r),
                   n = std::hypot(tx, ty);
      return {tx / n, ty / n};
    }
  };
  Oval oval(double lo = 0.1, double hi = 0.22) {
    Oval o;
    o.c = point(0.3, 0.7);
    o.a = u4(lo, hi);
    o.b = dec4(d(o.a) / rng_.uniform(1.3, 2.6));
    o.rotation = u4(0, kPi);
    return o;
  }
  bool oval_ok(const Oval& o) const { return o.b >= Rational(6, 100); }

  bool ellipse_tangent_line() {
    const Oval o = oval();
    if (!oval_ok(o)) return false;
    const double t = rng_.uniform(0, 2 * kPi);
    const auto [px, py] = o.at(t);
    const auto [tx, ty] = o.tangent(t);
    const double l1 = rng_.uniform(0.08, 0.3), l2 = rng_.uniform(0.08, 0.3);
    const std::size_t ei = add(ellipse(o.c, o.a, o.b, o.rotation));
    const std::size_t li =
        add(straight("segment", round10(px - l1 * tx, py - l1 * ty), round10(px + l2 * tx, py + l2 * ty)));
    relate(ei, li, "tangent line");
    return true;
  }

  bool polygon_in_ellipse() {
    const Oval o = oval();
    if (!oval_ok(o)) return false;
    std::vector<double> ts;
    std::string kind;
    if (rng_.chance(0.3)) {
      const double t = rng_.uniform(0.25, 0.6) * kPi / 2;
      ts = {t, kPi - t, kPi + t, 2 * kPi - t}, kind = "rectangle";
    } else {
      const std::size_t n = static_cast<std::size_t>(rng_.between(3, 6));
      const double step = 2 * kPi / static_cast<double>(n), t0 = rng_.uniform(0, step);
      for (std::size_t k = 0; k < n; ++k)
        ts.push_back(t0 + step * static_cast<double>(k) + rng_.uniform(-0.2, 0.2) * step);
    }
    std::vector<Vec2> p;
    for (double t : ts) {
      const auto [x, y] = o.at(t);
      p.push_back(round10(x, y));
    }
    if (!convex(p) || !well_shaped(p)) return false;
    const std::size_t ei = add(ellipse(o.c, o.a, o.b, o.rotation));
    const std::size_t pi = add(polygon(p, kind));
    relate(ei, pi, "circumscribed");
    return true;
  }

  bool ellipse_in_polygon() {
    const Oval o = oval(0.08, 0.16);
    if (!oval_ok(o)) return false;
    std::vector<double> ts;
    std::string kind;
    if (rng_.chance(0.4)) {
      ts = {0, kPi / 2, kPi, 3 * kPi / 2}, kind = "rectangle";
    } else {
      const std::size_t n = static_cast<std::size_t>(rng_.between(3, 6));
      const double step = 2 * kPi / static_cast<double>(n), t0 = rng_.uniform(0, step);
      for (std::size_t k = 0; k < n; ++k)
        ts.push_back(t0 + step * static_cast<double>(k) + rng_.uniform(0, 0.4) * step);
    }
    // Corners where consecutive tangent lines meet.
    std::vector<Vec2> p;
    for (std::size_t k = 0; k < ts.size(); ++k) {
      const auto [x1, y1] = o.at(ts[k]);
      const auto [dx1, dy1] = o.tangent(ts[k]);
      const auto [x2, y2] = o.at(ts[(k + 1) % ts.size()]);
      const auto [dx2, dy2] = o.tangent(ts[(k + 1) % ts.size()]);
      const double den = dx1 * dy2 - dy1 * dx2;
      if (std::abs(den) < 1e-6) return false;
      const double s = ((x2 - x1) * dy2 - (y2 - y1) * dx2) / den;
      p.push_back(round10(x1 + s * dx1, y1 + s * dy1));
    }
    if (!convex(p) || !well_shaped(p)) return false;
    const std::size_t ei = add(ellipse(o.c, o.a, o.b, o.rotation));
    const std::size_t pi = add(polygon(p, kind));
    relate(ei, pi, "inscribed");
    return true;
  }

  bool ellipse_tangent_circle() {
    const Oval o = oval();
    if (!oval_ok(o)) return false;
    // At an end of the minor axis (as the engine does), along the minor axis.
    const double t = rng_.chance(0.5) ? kPi / 2 : 3 * kPi / 2;
    const auto [px, py] = o.at(t);
    const double nx = px - o.cx(), ny = py - o.cy(), n = std::hypot(nx, ny);
    const bool internal = rng_.chance(0.5);
    const double rho = internal ? d(o.b) * rng_.uniform(0.35, 0.7) : rng_.uniform(0.05, 0.12);
    const double s = internal ? -rho : rho;
    const Rational r = dec10(rho);
    const std::size_t ei = add(ellipse(o.c, o.a, o.b, o.rotation));
    const std::size_t ci = add(circle(round10(px + s * nx / n, py + s * ny / n), r));
    relate(ei, ci, internal ? "internal tangent circle" : "external tangent circle");
    return true;
  }

  bool ellipse_axis() {
    const Oval o = oval();
    if (!oval_ok(o)) return false;
    const bool major = rng_.chance(0.5);
    const auto [x0, y0] = o.at(major ? 0 : kPi / 2);
    const auto [x1, y1] = o.at(major ? kPi : 3 * kPi / 2);
    const std::size_t li = add(straight("segment", round10(x0, y0), round10(x1, y1)));
    const std::size_t ei = add(ellipse(o.c, o.a, o.b, o.rotation));
    relate(li, ei, major ? "major axis" : "minor axis");
    return true;
  }

  // --- lines ----------------------------------------------------------------------------------
  std::pair<Vec2, Vec2> segment_ends(double lo, double hi) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      const Vec2 a = point(0.1, 0.9), b = point(0.1, 0.9);
      const double len = std::hypot(d(a.x - b.x), d(a.y - b.y));
      if (len >= lo && len <= hi) return {a, b};
    }
    return {};
  }

  bool parallel() {
    const auto [a, b] = segment_ends(0.25, 0.55);
    if (a == b) return false;
    const Vec2 dir = b - a;
    const double len = std::hypot(d(dir.x), d(dir.y));
    const Rational h = dec4(rng_.uniform(0.08, 0.3) / len * (rng_.chance(0.5) ? 1 : -1));
    const Vec2 q = a + u4(-0.3, 0.3) * dir + h * perp(dir);
    const std::size_t first = add(straight("segment", a, b));
    const std::size_t second = add(straight("segment", q, q + u4(0.6, 1.2) * dir));
    relate(first, second, "parallel");
    return true;
  }

  bool perpendicular() {
    const auto [a, b] = segment_ends(0.25, 0.6);
    if (a == b) return false;
    const Vec2 dir = b - a, n = perp(dir);
    const double len = std::hypot(d(dir.x), d(dir.y));
    const Vec2 x = a + decimal(rng_.uniform(0.25, 0.75), 2) * dir;
    const std::size_t first = add(straight("segment", a, b));
    const std::size_t second = add(
        straight("segment", x - dec4(rng_.uniform(0.1, 0.25) / len) * n, x + dec4(rng_.uniform(0.1, 0.25) / len) * n));
    relate(first, second, "perpendicular");
    return true;
  }

  // --- polygons and their relations --------------------------------------------------------
  bool triangle_circumcircle() {
    const Vec2 c = point(0.25, 0.75);
    const Rational r = u4(0.09, 0.2);
    std::vector<Vec2> p;
    for (const auto& dir : spread_directions(3, 60, 170)) p.push_back(c + r * dir.u);
    if (p.empty() || !well_shaped(p)) return false;
    const std::size_t ti = add(polygon(p, "triangle"));
    const std::size_t ci = add(circle(c, r));
    relate(ci, ti, "circumscribed circle of triangle");
    return true;
  }

  bool triangle_incircle() {
    const Vec2 c = point(0.25, 0.75);
    const Rational r = u4(0.05, 0.1);
    const auto dirs = spread_directions(3, 80, 150);
    if (dirs.empty()) return false;
    const auto p = tangent_polygon(c, r, dirs);
    if (!well_shaped(p)) return false;
    const std::size_t ti = add(polygon(p, "triangle"));
    const std::size_t ci = add(circle(c, r));
    relate(ci, ti, "inscribed circle");
    return true;
  }

  bool shared_edge() {
    const auto p = random_convex(3, point(0.3, 0.7), rng_.uniform(0.08, 0.18));
    if (p.empty()) return false;
    // The third corner across the side p0 p1 from p2.
    const Vec2 side = p[1] - p[0];
    Vec2 n = perp(side);
    if (sgn(dot(n, p[2] - p[0])) > 0) n = Rational(-1) * n;
    const Vec2 q = p[0] + decimal(rng_.uniform(0.2, 0.8), 2) * side + decimal(rng_.uniform(0.4, 1.0), 2) * n;
    const std::vector<Vec2> p2{p[0], p[1], q};
    if (!well_shaped(p2) || polygon_area(p2) < 0.01) return false;
    const std::size_t a = add(polygon(p, "triangle"));
    const std::size_t b = add(polygon(p2, "triangle"));
    relate(a, b, "shared edge");
    return true;
  }

  // A rectangle (a square 40 % of the time) about a free centre, by its half-diagonal: added to the
  // figure unless it does not fit (its index then none).
  struct AddedRectangle {
    Vec2 centre;
    Rational half_diagonal;
    bool square = false;
    std::vector<Vec2> corners;
    std::optional<std::size_t> index;
  };
  AddedRectangle add_rectangle() {
    AddedRectangle r{point(0.25, 0.75), u4(0.1, 0.22), rng_.chance(0.4), {}, std::nullopt};
    r.corners = rectangle(r.centre, r.half_diagonal, r.square);
    if (!r.corners.empty()) r.index = add(polygon(r.corners, r.square ? "square" : "rectangle"));
    return r;
  }

  bool rectangle_circumcircle() {
    const AddedRectangle r = add_rectangle();
    if (!r.index) return false;
    const std::size_t ci = add(circle(r.centre, r.half_diagonal));
    relate(ci, *r.index, r.square ? "circumscribed circle of square" : "circumscribed circle of rectangle");
    return true;
  }

  bool diagonal() {
    const AddedRectangle r = add_rectangle();
    if (!r.index) return false;
    const std::size_t k = rng_.below(2);
    const std::size_t li = add(straight("segment", r.corners[k], r.corners[k + 2]));
    relate(li, *r.index, "diagonal");
    return true;
  }

  bool regular_circumcircle() {
    const Vec2 c = point(0.25, 0.75);
    const Rational r = u4(0.09, 0.2);
    const bool five = rng_.chance(0.5);
    const std::size_t pi = add(polygon(regular(c, d(r), five ? 5 : 6), five ? "regular pentagon" : "regular hexagon"));
    const std::size_t ci = add(circle(c, r));
    relate(ci, pi, five ? "circumscribed circle of regular pentagon" : "circumscribed circle of regular hexagon");
    return true;
  }

  // The polygon scaled by k and turned by a rational rotation about its first vertex, moved to q.
  static std::vector<Vec2> moved(const std::vector<Vec2>& p, const Rational& k, const Vec2& u, const Vec2& q) {
    std::vector<Vec2> out;
    for (const auto& v : p) {
      const Vec2 w = v - p.front();
      out.push_back(q + k * Vec2{u.x * w.x - u.y * w.y, u.y * w.x + u.x * w.y});
    }
    return out;
  }

  std::vector<Vec2> some_polygon(const Vec2& c, std::string& kind) {
    const double x = rng_.unit();
    if (x < 0.2) return kind = "square", rectangle(c, u4(0.07, 0.14), true);
    if (x < 0.4) return kind = "rectangle", rectangle(c, u4(0.07, 0.14), false);
    kind = "";
    return random_convex(static_cast<std::size_t>(rng_.between(3, 6)), c, rng_.uniform(0.07, 0.14));
  }

  bool similar() {
    std::string kind;
    const auto p = some_polygon(point(0.2, 0.8), kind);
    if (p.empty()) return false;
    const Vec2 u = rng_.chance(0.5) ? Vec2{1, 0} : direction().u;
    const auto q = moved(p, decimal(rng_.uniform(0.5, 0.8), 2), u, point(0.15, 0.85));
    const std::size_t a = add(polygon(p, kind));
    const std::size_t b = add(polygon(q, kind));
    relate(a, b, "similar");
    return true;
  }

  bool symmetric() {
    std::string kind;
    const auto p = some_polygon(point(0.3, 0.7), kind);
    if (p.empty()) return false;
    // Reflected across the line of side k: R(x) = a + 2((x − a)·e)e − (x − a) with e = side / |side|.
    const std::size_t k = rng_.below(p.size());
    const Vec2 a = p[k], side = p[(k + 1) % p.size()] - a;
    const Rational len2 = dot(side, side);
    std::vector<Vec2> q;
    for (const auto& v : p) {
      const Vec2 w = v - a;
      const Vec2 r = a + (2 * dot(w, side) / len2) * side - w;
      q.push_back(is_decimal(r.x, 12) && is_decimal(r.y, 12) ? r : round10(d(r.x), d(r.y)));
    }
    const std::size_t i = add(polygon(p, kind));
    const std::size_t j = add(polygon(q, kind));
    // A mirror image across one of its sides is also similar to the polygon and shares that side with
    // it: geotruth finds both, so both are declared (the engine's list allows several per pair).
    relate(i, j, "symmetric");
    relate(i, j, "similar");
    relate(i, j, "shared edge");
    return true;
  }

  // --- sectors and stars --------------------------------------------------------------------
  bool sector_tangent_line() {
    const Vec2 c = point(0.3, 0.7);
    const Rational r = u4(0.14, 0.3);
    const double span = rng_.uniform(50, 150) * kPi / 180;
    const Rational start = u4(0, 2 * kPi);
    // A rational direction well inside the arc.
    std::vector<Direction> inside;
    for (const auto& dir : unit_directions()) {
      double off = dir.radians - d(start);
      while (off < 0) off += 2 * kPi;
      if (off > 12 * kPi / 180 && off < span - 12 * kPi / 180) inside.push_back(dir);
    }
    if (inside.empty()) return false;
    const Vec2 u = rng_.pick(inside).u, p = c + r * u, t = perp(u);
    const std::size_t si = add(sector(c, r, start, span));
    const std::size_t li = add(straight("segment", p - u4(0.08, 0.25) * t, p + u4(0.08, 0.25) * t));
    relate(si, li, "tangent line");
    return true;
  }

  bool adjacent_sector() {
    const Vec2 c = point(0.3, 0.7);
    const Rational r = u4(0.12, 0.24);
    const auto& dir = direction();
    const double span = rng_.uniform(30, 110) * kPi / 180;
    // The second sector's centre is the first one's arc start c + r·u; it starts back toward c.
    const Rational start = dec10(dir.radians);
    double back = dir.radians + kPi;
    if (back >= 2 * kPi) back -= 2 * kPi;
    const std::size_t a = add(sector(c, r, start, span));
    const std::size_t b = add(sector(c + r * dir.u, r, dec10(back), span));
    relate(a, b, "shared edge");
    return true;
  }

  bool adjacent_polygon() {
    const Vec2 c = point(0.3, 0.7);
    const Rational r = u4(0.12, 0.24);
    const auto& dir = direction();
    const double span = rng_.uniform(30, 110) * kPi / 180;
    // Corners clockwise from the sector's start edge c → c + r·u, at rational directions.
    std::vector<Vec2> p{c, c + r * dir.u};
    const std::size_t extra = static_cast<std::size_t>(rng_.between(1, 3));
    double angle = dir.radians;
    for (std::size_t k = 0; k < extra; ++k) {
      angle -= rng_.uniform(0.35, 0.9);
      p.push_back(c + dec4(d(r) * rng_.uniform(0.6, 1.3)) * nearest_direction(angle).u);
    }
    if (!convex(p) || !well_shaped(p) || polygon_area(p) < 0.01) return false;
    const std::size_t si = add(sector(c, r, dec10(dir.radians), span));
    const std::size_t pi = add(polygon(p));
    relate(si, pi, "shared edge");
    return true;
  }

  bool star_circumcircle() {
    const Vec2 c = point(0.25, 0.75);
    const Rational outer = u4(0.1, 0.2);
    const std::size_t si = add(star(c, outer));
    const std::size_t ci = add(circle(c, outer));
    relate(ci, si, "circumscribed circle");
    return true;
  }
};

void write_pair(std::string& out, const Vec2& p) {
  out += "[" + decimal_text(p.x) + "," + decimal_text(p.y) + "]";
}

}  // namespace

EngineFigure random_figure(Random& rng, std::size_t count) {
  for (int restart = 0; restart < 50; ++restart) {
    Builder builder(rng);
    for (int tries = 0; tries < 60 && builder.figure.shapes.size() < count; ++tries)
      builder.add_group(count - builder.figure.shapes.size());
    if (builder.figure.shapes.size() == count) return std::move(builder.figure);
  }
  return {};
}

std::string engine_json(const EngineFigure& figure) {
  std::string out = "{\"shapes\":[";
  for (std::size_t i = 0; i < figure.shapes.size(); ++i) {
    const EngineShape& s = figure.shapes[i];
    if (i) out += ",";
    out += "{\"type\":\"" + s.type + "\"";
    auto number = [&](const char* key, const Rational& v) {
      out += std::string(",\"") + key + "\":" + decimal_text(v);
    };
    if (!s.points.empty()) {
      out += ",\"points\":[";
      for (std::size_t k = 0; k < s.points.size(); ++k) {
        if (k) out += ",";
        write_pair(out, s.points[k]);
      }
      out += "]";
    } else {
      out += ",\"center\":";
      write_pair(out, s.center);
    }
    if (s.type == "ellipse") {
      number("major_axis", s.major), number("minor_axis", s.minor), number("rotation", s.rotation);
    } else if (s.type == "sector") {
      number("radius", s.radius), number("start_angle", s.start), number("end_angle", s.end);
    } else if (s.type == "star") {
      number("outer_radius", s.outer), number("inner_radius", s.inner);
      out += ",\"num_points\":" + std::to_string(s.num_points);
      number("rotation", s.rotation);
    } else if (s.type == "spiral") {
      number("initial_radius", s.initial_radius), number("growth_rate", s.growth_rate);
      out += ",\"sin_params\":[" + decimal_text(s.sin_eps) + "," + decimal_text(s.sin_omega) + "," +
             decimal_text(s.sin_phi) + "]";
      number("max_theta", s.max_theta);
    }
    if (s.type == "polygon" || s.type == "ellipse" || s.type == "sector" || s.type == "star")
      out += ",\"special_info\":\"" + s.special + "\",\"fill_mode\":\"border\"";
    out += "}";
  }
  out += "],\"relations\":[";
  for (std::size_t i = 0; i < figure.relations.size(); ++i) {
    const auto& r = figure.relations[i];
    if (i) out += ",";
    out += "[" + std::to_string(r.a) + "," + std::to_string(r.b) + ",\"" + r.name + "\"]";
  }
  return out + "]}";
}

}  // namespace geotruth::generate
