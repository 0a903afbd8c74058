#include "geometry/relations.hpp"

#include "geometry/predicates.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace geotruth::geometry {
namespace {

Rational dot(const Vec2& u, const Vec2& v) {
  return u.x * v.x + u.y * v.y;
}
Rational cross(const Vec2& u, const Vec2& v) {
  return u.x * v.y - u.y * v.x;
}
Vec2 minus(const Vec2& a, const Vec2& b) {
  return {a.x - b.x, a.y - b.y};
}
Rational norm2(const Vec2& v) {
  return dot(v, v);
}
double root(const Rational& r) {
  return std::sqrt(to_double(r));
}

// Double estimates for the filters (never for a decision: see Relater::clearly_not).
struct D2 {
  double x, y;
};
D2 approx(const Vec2& v) {
  return {v.x.get_d(), v.y.get_d()};
}
double distance(const D2& a, const D2& b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

// An exact rational unit vector at `degrees` from +x (tangent half-angle, via one double).
Vec2 unit_at(const Rational& degrees) {
  // Right angles exactly (the axes are where arcs and rotations most often end).
  Rational turns = degrees / 90;
  if (turns.get_den() == 1) {
    const mpz_class quarter = turns.get_num() % 4;  // may be negative
    const long k = (quarter.get_si() + 4) % 4;
    return k == 0 ? Vec2{1, 0} : k == 1 ? Vec2{0, 1} : k == 2 ? Vec2{-1, 0} : Vec2{0, -1};
  }
  const Rational t(std::tan(to_double(degrees) * M_PI / 360));
  const Rational d = 1 + t * t;
  return {(1 - t * t) / d, 2 * t / d};
}

enum class Kind { straight, circle, ellipse, polygon, sector, other };

// The slack of a relation that cannot hold at all (a zero-length edge, a centre outside).
constexpr double kNoSuchRelation = 1e9;

struct View {  // a shape as the relations see it
  Kind kind = Kind::other;
  Vec2 a, b;  // straight: its two points
  Extent extent = Extent::segment;
  std::optional<Vec2> centre;  // centre-bearing shapes
  Rational ra, rb;             // circle: ra = rb = r; ellipse: semi-axes
  Vec2 e1{1, 0}, e2{0, 1};     // ellipse axes (exact unit vectors)
  std::vector<Vec2> vertices;  // polygon
  Vec2 arc_from, arc_to;       // sector: unit directions of the arc's ends
  Rational sweep_deg;
};

View view_of(const Shape& s) {
  View v;
  std::visit(
      [&](const auto& g) {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, StraightShape>) {
          v.kind = Kind::straight;
          v.a = g.a, v.b = g.b, v.extent = g.extent;
        } else if constexpr (std::is_same_v<T, PolygonShape>) {
          v.kind = Kind::polygon;
          v.vertices = g.points;
        } else if constexpr (std::is_same_v<T, EllipseShape>) {
          v.centre = g.center;
          v.ra = g.axes[0], v.rb = g.axes[1];
          v.kind = g.axes[0] == g.axes[1] ? Kind::circle : Kind::ellipse;
          if (v.kind == Kind::ellipse) {
            v.e1 = unit_at(g.rotation_deg);
            v.e2 = {-v.e1.y, v.e1.x};
          }
        } else if constexpr (std::is_same_v<T, SectorShape>) {
          v.kind = Kind::sector;
          v.centre = g.center;
          v.ra = v.rb = g.radius;
          v.arc_from = unit_at(g.start_deg);
          v.arc_to = unit_at(g.end_deg);
          Rational sweep = g.end_deg - g.start_deg;
          while (sweep < 0) sweep += 360;
          while (sweep > 360) sweep -= 360;
          v.sweep_deg = sweep;
        } else {
          v.centre = g.center;
        }
      },
      s.geometry);
  return v;
}

class Relater {
 public:
  Relater(const Frame& frame, const Thresholds& t) : px_(pixels_per_unit(frame, t)), t_(t) {
    eps_ = Rational(t.eps_num_px) / Rational(px_);
    eps_vis_ = Rational(t.eps_vis_px) / Rational(px_);
  }

  // A relation whose slack² is an exact rational (in frame units²).
  ShapeRelation by_squared(std::string name, const Rational& slack2) const {
    ShapeRelation r{std::move(name), slack2 <= eps_ * eps_, false, root(slack2) * px_};
    r.ambiguous = !r.holds && slack2 < eps_vis_ * eps_vis_;
    return r;
  }

  // A relation whose slack is |√x2 − √y2|, decided exactly.
  ShapeRelation by_root_gap(std::string name, const Rational& x2, const Rational& y2) const {
    ShapeRelation r{std::move(name), compare_root_gap(x2, y2, eps_) <= 0, false, std::abs(root(x2) - root(y2)) * px_};
    r.ambiguous = !r.holds && compare_root_gap(x2, y2, eps_vis_) < 0;
    return r;
  }

  // A relation whose slack is only known as a double (the point-to-ellipse estimate).
  ShapeRelation by_estimate(std::string name, double slack_units) const {
    const double slack = slack_units * px_;
    return {std::move(name), slack <= t_.eps_num_px, slack > t_.eps_num_px && slack < t_.eps_vis_px, slack};
  }

  // A relation that clearly does not hold, with its double slack estimate.
  ShapeRelation far(std::string name, double slack_units) const {
    return {std::move(name), false, false, slack_units * px_};
  }

  // The segment (p, q) on the segment (r, s), either way round: slack = the larger endpoint gap.
  ShapeRelation endpoints_match(const Vec2& p, const Vec2& q, const Vec2& r, const Vec2& s) const {
    const D2 P = approx(p), Q = approx(q), R = approx(r), S = approx(s);
    const double rough = std::min(std::max(distance(P, R), distance(Q, S)), std::max(distance(P, S), distance(Q, R)));
    if (clearly_not(rough)) return far("", rough);
    const Rational d1 = std::max(norm2(minus(p, r)), norm2(minus(q, s)));
    const Rational d2 = std::max(norm2(minus(p, s)), norm2(minus(q, r)));
    return by_squared("", std::min(d1, d2));
  }

  // All parts must hold; ambiguous when none clearly fails but some are too close to call.
  static ShapeRelation worst(std::string name, const std::vector<ShapeRelation>& parts) {
    ShapeRelation out{std::move(name), true, false, 0};
    bool none_fails = true;
    for (const auto& p : parts) {
      out.holds = out.holds && p.holds;
      none_fails = none_fails && (p.holds || p.ambiguous);
      out.slack_px = std::max(out.slack_px, p.slack_px);
    }
    out.ambiguous = !out.holds && none_fails;
    return out;
  }

  static ShapeRelation best(std::string name, const std::vector<ShapeRelation>& options) {
    ShapeRelation out{std::move(name), false, false, 1e300};
    for (const auto& o : options)
      if (o.slack_px < out.slack_px) out = {out.name, o.holds, o.ambiguous, o.slack_px};
    return out;
  }

  // Parallel: |sin Δ| × the shorter length; perpendicular: |cos Δ| × the shorter length (slack²
  // = cross² (or dot²) · min(|u|², |v|²) / (|u|² |v|²), exact).
  ShapeRelation direction(const char* name, const Vec2& u, const Vec2& v, bool parallel) const {
    {
      const D2 du = approx(u), dv = approx(v);
      const double nu = std::hypot(du.x, du.y), nv = std::hypot(dv.x, dv.y);
      if (nu > 0 && nv > 0) {
        const double c = parallel ? du.x * dv.y - du.y * dv.x : du.x * dv.x + du.y * dv.y;
        const double rough = std::abs(c) * std::min(nu, nv) / (nu * nv);
        if (clearly_not(rough)) return far(name, rough);
      }
    }
    const Rational uu = norm2(u), vv = norm2(v);
    if (uu == 0 || vv == 0) return {name, false, false, kNoSuchRelation};  // a zero-length edge
    const Rational c = parallel ? cross(u, v) : dot(u, v);
    const Rational slack2 = c * c * std::min(uu, vv) / (uu * vv);
    return by_squared(name, slack2);
  }

  // Squared distance from a point to the line through p with direction u.
  static Rational line_distance2(const Vec2& point, const Vec2& p, const Vec2& u) {
    if (norm2(u) == 0) return norm2(minus(point, p));
    const Rational c = cross(u, minus(point, p));
    return c * c / norm2(u);
  }

  // Tangency of the line (p, u) to a circle or ellipse: |distance to centre − support| on the
  // line's normal n; the support of the ellipse is √(A²(n·e1)² + B²(n·e2)²)/|n|.
  ShapeRelation line_tangent(const Vec2& p, const Vec2& u, const View& c) const {
    if (norm2(u) == 0) return {"tangent", false, false, kNoSuchRelation};
    const Vec2 n{-u.y, u.x};
    const Rational d = dot(n, minus(*c.centre, p));
    const Rational support2 = c.ra * c.ra * dot(n, c.e1) * dot(n, c.e1) + c.rb * c.rb * dot(n, c.e2) * dot(n, c.e2);
    return by_root_gap("tangent", d * d / norm2(n), support2 / norm2(n));
  }

  // The drawn straight piece touches its tangent point (the foot of the perpendicular from the
  // centre for circles; for ellipses the contact point, in double: a secondary check).
  bool reaches_contact(const View& s, const View& c) const {
    const Vec2 u = minus(s.b, s.a);
    Vec2 contact = *c.centre;
    if (c.kind == Kind::ellipse) {
      const Vec2 n{-u.y, u.x};
      const double nx = to_double(dot(n, c.e1)), ny = to_double(dot(n, c.e2));
      const double a = to_double(c.ra), b = to_double(c.rb);
      const double norm = std::sqrt(a * a * nx * nx + b * b * ny * ny);
      const double side = to_double(dot(n, minus(*c.centre, s.a))) > 0 ? -1 : 1;
      const double lx = side * a * a * nx / norm, ly = side * b * b * ny / norm;  // contact in ellipse frame
      contact.x += Rational(lx * to_double(c.e1.x) + ly * to_double(c.e2.x));
      contact.y += Rational(lx * to_double(c.e1.y) + ly * to_double(c.e2.y));
    } else {
      const Rational t = dot(minus(*c.centre, s.a), u) / norm2(u);
      contact = {s.a.x + t * u.x, s.a.y + t * u.y};
    }
    if (s.extent == Extent::line) return true;
    if (s.extent == Extent::ray) return dot(minus(contact, s.a), u) >= -eps_ * root(norm2(u));
    return squared_distance_to_segment(contact, s.a, s.b) <= eps_ * eps_;
  }

  // Whether the direction of `point` from the sector's centre lies on its arc, allowing eps at the
  // arc's ends (cross products against unit directions are distances from the end rays).
  bool on_arc(const View& sector, const Vec2& point) const {
    const Vec2 d = minus(point, *sector.centre);
    const bool after_start = cross(sector.arc_from, d) >= -eps_, before_end = cross(d, sector.arc_to) >= -eps_;
    return sector.sweep_deg <= 180 ? after_start && before_end : after_start || before_end;
  }

  ShapeRelation point_on(const Vec2& p, const View& c) const {
    if (c.kind != Kind::ellipse) {
      const double rough = std::abs(distance(approx(p), approx(*c.centre)) - c.ra.get_d());
      if (clearly_not(rough)) return far("on", rough);
      return by_root_gap("on", norm2(minus(p, *c.centre)), c.ra * c.ra);
    }
    const Vec2 d = minus(p, *c.centre);
    const double x = to_double(dot(d, c.e1)), y = to_double(dot(d, c.e2)), a = to_double(c.ra), b = to_double(c.rb);
    const double q = x * x / (a * a) + y * y / (b * b);
    const double gradient = 2 * std::hypot(x / (a * a), y / (b * b));
    return by_estimate("on", gradient > 0 ? std::abs(q - 1) / gradient : a);
  }

  // Nearest and farthest distances from p to an ellipse's curve, in double: 720 samples of the
  // angle, then golden-section refinement around the best ones (error far below 1e-9 units).
  static std::pair<double, double> ellipse_distance_range(const View& e, const Vec2& p) {
    const Vec2 d = minus(p, *e.centre);
    const double x = to_double(dot(d, e.e1)), y = to_double(dot(d, e.e2)), a = to_double(e.ra), b = to_double(e.rb);
    auto f = [&](double t) { return std::hypot(a * std::cos(t) - x, b * std::sin(t) - y); };
    constexpr int kSamples = 720;
    const double step = 2 * M_PI / kSamples;
    int nearest_k = 0, farthest_k = 0;
    double nearest_v = 1e300, farthest_v = -1;
    for (int k = 0; k < kSamples; ++k) {  // one pass finds both extremes
      const double v = f(k * step);
      if (v < nearest_v) nearest_v = v, nearest_k = k;
      if (v > farthest_v) farthest_v = v, farthest_k = k;
    }
    auto refine = [&](bool nearest) {
      const int best = nearest ? nearest_k : farthest_k;
      double lo = (best - 1) * step, hi = (best + 1) * step;
      for (int it = 0; it < 60; ++it) {
        const double m1 = lo + (hi - lo) * 0.381966, m2 = hi - (hi - lo) * 0.381966;
        if ((f(m1) < f(m2)) == nearest)
          hi = m2;
        else
          lo = m1;
      }
      return f((lo + hi) / 2);
    };
    return {refine(true), refine(false)};
  }

  // Tangency of a circle and an ellipse: the circle's radius equals the nearest distance from its
  // centre to the ellipse (outside: external; inside: internal) or the farthest (the ellipse
  // inside the circle: internal).
  void circle_ellipse_tangent(const View& circle, const View& ellipse, RelationCheck& out) const {
    const auto [nearest, farthest] = ellipse_distance_range(ellipse, *circle.centre);
    const Vec2 d = minus(*circle.centre, *ellipse.centre);
    const Rational x = dot(d, ellipse.e1), y = dot(d, ellipse.e2);
    const bool outside = x * x / (ellipse.ra * ellipse.ra) + y * y / (ellipse.rb * ellipse.rb) > 1;
    const double r = to_double(circle.ra);
    const double external = outside ? std::abs(nearest - r) : 1e9;
    const double internal = std::min(outside ? 1e9 : std::abs(nearest - r), std::abs(farthest - r));
    out.relations.push_back(by_estimate("external_tangent", external));
    out.relations.push_back(by_estimate("internal_tangent", internal));
    out.relations.push_back(by_estimate("tangent", std::min(external, internal)));
  }

  // The curve passes through every vertex of the polygon.
  ShapeRelation through_vertices(const View& curve, const View& polygon) const {
    std::vector<ShapeRelation> parts;
    for (const auto& v : polygon.vertices) parts.push_back(point_on(v, curve));
    return worst("circumscribed", parts);
  }

  // The curve touches every side of the polygon from inside.
  ShapeRelation touches_sides(const View& polygon, const View& curve) const {
    std::vector<ShapeRelation> parts;
    const auto& p = polygon.vertices;
    int turn = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const Vec2 &a = p[i], &b = p[(i + 1) % p.size()];
      if (a == b) continue;  // a repeated vertex: no side
      if (curve.kind == Kind::circle) {
        parts.push_back(by_root_gap("side", squared_distance_to_segment(*curve.centre, a, b), curve.ra * curve.ra));
      } else {
        parts.push_back(line_tangent(a, minus(b, a), curve));
      }
      const int side = orientation(a, b, *curve.centre);
      if (turn == 0) turn = side;
      if (side == 0 || side != turn) parts.push_back({"inside", false, false, kNoSuchRelation});  // centre outside
    }
    return worst("circumscribed", parts);
  }

  RelationCheck relate(const Shape& sa, const Shape& sb, bool directional_only) const {
    const View a = view_of(sa), b = view_of(sb);
    RelationCheck out;
    static const char* kDirectional[] = {"circumscribed", "inscribed",  "diagonal",
                                         "diameter",      "major_axis", "minor_axis"};
    auto add = [&](ShapeRelation r, const std::string& name) {
      if (directional_only &&
          std::find(std::begin(kDirectional), std::end(kDirectional), name) == std::end(kDirectional))
        return;
      r.name = name;
      out.relations.push_back(std::move(r));
    };
    const bool round_a = a.kind == Kind::circle || a.kind == Kind::ellipse;
    const bool round_b = b.kind == Kind::circle || b.kind == Kind::ellipse;
    if (a.centre && b.centre && !directional_only)
      add(by_squared("", norm2(minus(*a.centre, *b.centre))), "concentric");
    if (a.kind == Kind::straight && b.kind == Kind::straight && !directional_only) {
      add(direction("", minus(a.b, a.a), minus(b.b, b.a), true), "parallel");
      add(direction("", minus(a.b, a.a), minus(b.b, b.a), false), "perpendicular");
    }
    if ((a.kind == Kind::straight && b.kind == Kind::polygon) ||
        (a.kind == Kind::polygon && b.kind == Kind::straight)) {
      const View& line = a.kind == Kind::straight ? a : b;
      const View& poly = a.kind == Kind::straight ? b : a;
      std::vector<ShapeRelation> edges;
      for (std::size_t i = 0; i < poly.vertices.size(); ++i)
        edges.push_back(direction("", minus(line.b, line.a),
                                  minus(poly.vertices[(i + 1) % poly.vertices.size()], poly.vertices[i]), true));
      if (!directional_only) add(best("", edges), "parallel");
      if (a.kind == Kind::straight) {  // "the line is a diagonal of the polygon"
        std::vector<ShapeRelation> diagonals;
        const auto& v = poly.vertices;
        for (std::size_t i = 0; i < v.size(); ++i)
          for (std::size_t j = i + 2; j < v.size(); ++j) {
            if (i == 0 && j + 1 == v.size()) continue;  // adjacent around the end
            diagonals.push_back(endpoints_match(line.a, line.b, v[i], v[j]));
          }
        if (!diagonals.empty()) add(best("", diagonals), "diagonal");
      }
    }
    const bool line_round = (a.kind == Kind::straight && (round_b || b.kind == Kind::sector)) ||
                            (b.kind == Kind::straight && (round_a || a.kind == Kind::sector));
    if (line_round) {
      const View& line = a.kind == Kind::straight ? a : b;
      const View& curve = a.kind == Kind::straight ? b : a;
      ShapeRelation tangent = directional_only ? ShapeRelation{} : line_tangent(line.a, minus(line.b, line.a), curve);
      if (tangent.holds || tangent.ambiguous) {
        const bool reaches = reaches_contact(line, curve);
        bool on_the_arc = true;
        if (curve.kind == Kind::sector) {
          const Vec2 u = minus(line.b, line.a);
          const Rational t = dot(minus(*curve.centre, line.a), u) / norm2(u);
          on_the_arc = on_arc(curve, {line.a.x + t * u.x, line.a.y + t * u.y});
        }
        if (!reaches || !on_the_arc) tangent = {"", false, false, tangent.slack_px + kNoSuchRelation};
      }
      add(tangent, "tangent");
      if (a.kind == Kind::straight && curve.kind == Kind::circle) {
        // A diameter: through the centre, both ends on the circle.
        add(worst("", {by_squared("", line_distance2(*curve.centre, a.a, minus(a.b, a.a))), point_on(a.a, curve),
                       point_on(a.b, curve)}),
            "diameter");
      }
      if (a.kind == Kind::straight && curve.kind == Kind::ellipse) {
        for (const auto& [name, axis, length] : {std::tuple{"major_axis", b.e1, b.ra}, {"minor_axis", b.e2, b.rb}}) {
          const Vec2 p{b.centre->x + length * axis.x, b.centre->y + length * axis.y};
          const Vec2 q{b.centre->x - length * axis.x, b.centre->y - length * axis.y};
          add(endpoints_match(a.a, a.b, p, q), name);
        }
      }
    }
    if (directional_only) {
      // the symmetric relations below were decided with the pair in the other order
    } else if (a.kind == Kind::circle && b.kind == Kind::circle) {
      const Rational d2 = norm2(minus(*a.centre, *b.centre));
      const ShapeRelation outer = by_root_gap("", d2, (a.ra + b.ra) * (a.ra + b.ra));
      const ShapeRelation inner = by_root_gap("", d2, (a.ra - b.ra) * (a.ra - b.ra));
      add(outer, "external_tangent");
      add(inner, "internal_tangent");
      add(best("", {outer, inner}), "tangent");
    } else if ((a.kind == Kind::circle && b.kind == Kind::ellipse) ||
               (a.kind == Kind::ellipse && b.kind == Kind::circle)) {
      circle_ellipse_tangent(a.kind == Kind::circle ? a : b, a.kind == Kind::circle ? b : a, out);
    } else if (round_a && round_b) {
      out.undecided.push_back("tangent");
    }
    if (round_a && b.kind == Kind::polygon) {
      add(through_vertices(a, b), "circumscribed");
      add(touches_sides(b, a), "inscribed");
    }
    if (a.kind == Kind::polygon && round_b) {
      add(touches_sides(a, b), "circumscribed");
      add(through_vertices(b, a), "inscribed");
    }
    if (a.kind == Kind::polygon && b.kind == Kind::polygon && !directional_only) {
      add(similar(a.vertices, b.vertices), "similar");
      add(symmetric(a.vertices, b.vertices), "symmetric");
      std::vector<ShapeRelation> shared;
      const auto &p = a.vertices, &q = b.vertices;
      for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t j = 0; j < q.size(); ++j) {
          shared.push_back(endpoints_match(p[i], p[(i + 1) % p.size()], q[j], q[(j + 1) % q.size()]));
        }
      add(best("", shared), "shared_edge");
    }
    if (!directional_only) topology(a, b, out);
    return out;
  }

  // The double-precision slack of a polygon relation, for the filter: when it exceeds the
  // visual band by far more than any rounding error, the exact evaluation is not needed.
  bool clearly_not(double slack_units) const { return slack_units * px_ > 4 * t_.eps_vis_px + 1; }

  static double worst_similar_double(const std::vector<Vec2>& A, const std::vector<Vec2>& B) {
    const std::size_t n = A.size();
    auto d = [](const Vec2& p) { return std::pair<double, double>{to_double(p.x), to_double(p.y)}; };
    std::vector<std::pair<double, double>> a, b;
    for (const auto& p : A) a.push_back(d(p));
    for (const auto& p : B) b.push_back(d(p));
    double best = 1e300;
    for (bool mirrored : {false, true})
      for (bool reversed : {false, true})
        for (std::size_t k = 0; k < n; ++k) {
          auto bv = [&](std::size_t i) { return reversed ? b[(k + n - i % n) % n] : b[(k + i) % n]; };
          auto ae = [&](std::size_t i) {
            std::pair<double, double> e{a[(i + 1) % n].first - a[i].first, a[(i + 1) % n].second - a[i].second};
            if (mirrored) e.second = -e.second;
            return e;
          };
          const auto a0 = ae(0);
          const std::pair<double, double> b0{bv(1).first - bv(0).first, bv(1).second - bv(0).second};
          const double n2 = a0.first * a0.first + a0.second * a0.second;
          if (n2 == 0) continue;
          const double zx = (b0.first * a0.first + b0.second * a0.second) / n2;
          const double zy = (a0.first * b0.second - a0.second * b0.first) / n2;
          double worst = 0;
          for (std::size_t i = 0; i < n; ++i) {
            const auto ai = ae(i);
            const double bx = bv(i + 1).first - bv(i).first, by = bv(i + 1).second - bv(i).second;
            worst = std::max(worst,
                             std::hypot(bx - (zx * ai.first - zy * ai.second), by - (zx * ai.second + zy * ai.first)));
          }
          best = std::min(best, worst);
        }
    return best;
  }

  static double worst_symmetric_double(const std::vector<Vec2>& A, const std::vector<Vec2>& B) {
    const std::size_t n = A.size();
    double best = 1e300;
    auto dx = [](const Vec2& p) { return to_double(p.x); };
    auto dy = [](const Vec2& p) { return to_double(p.y); };
    for (int side = 0; side < 2; ++side)
      for (std::size_t e = 0; e < n; ++e) {
        const auto& P = side ? B : A;
        const double px = dx(P[e]), py = dy(P[e]), ux = dx(P[(e + 1) % n]) - px, uy = dy(P[(e + 1) % n]) - py;
        const double u2 = ux * ux + uy * uy;
        if (u2 == 0) continue;
        std::vector<std::pair<double, double>> m;
        for (const auto& v : A) {
          const double vx = dx(v) - px, vy = dy(v) - py, t = 2 * (vx * ux + vy * uy) / u2;
          m.emplace_back(px + t * ux - vx, py + t * uy - vy);
        }
        for (bool reversed : {false, true})
          for (std::size_t k = 0; k < n; ++k) {
            double worst = 0;
            for (std::size_t i = 0; i < n; ++i) {
              const Vec2& q = B[reversed ? (k + n - i) % n : (k + i) % n];
              worst = std::max(worst, std::hypot(m[i].first - dx(q), m[i].second - dy(q)));
            }
            best = std::min(best, worst);
          }
      }
    return best;
  }

  // Similar: B's edges are A's edges times one complex number z (rotation and scale), for some
  // correspondence of vertices (a cyclic shift, either direction, optionally mirrored). z comes
  // from the first edge pair; slack² = the largest |bᵢ − z·aᵢ|², all exact rationals.
  ShapeRelation similar(const std::vector<Vec2>& A, const std::vector<Vec2>& B) const {
    if (A.size() != B.size()) return {"similar", false, false, kNoSuchRelation};
    if (const double rough = worst_similar_double(A, B); clearly_not(rough))
      return {"similar", false, false, rough * px_};
    const std::size_t n = A.size();
    std::vector<ShapeRelation> options;
    for (bool mirrored : {false, true})
      for (bool reversed : {false, true})
        for (std::size_t k = 0; k < n; ++k) {
          auto b_at = [&](std::size_t i) { return reversed ? B[(k + n - i % n) % n] : B[(k + i) % n]; };
          auto a_edge = [&](std::size_t i) {
            Vec2 e = minus(A[(i + 1) % n], A[i]);
            if (mirrored) e.y = -e.y;
            return e;
          };
          const Vec2 a0 = a_edge(0), b0 = minus(b_at(1), b_at(0));
          if (norm2(a0) == 0) continue;
          const Vec2 z{dot(b0, a0) / norm2(a0), cross(a0, b0) / norm2(a0)};  // b0 / a0 as complex numbers
          Rational worst2 = 0;
          for (std::size_t i = 0; i < n; ++i) {
            const Vec2 ai = a_edge(i), bi = minus(b_at(i + 1), b_at(i));
            const Vec2 zai{z.x * ai.x - z.y * ai.y, z.x * ai.y + z.y * ai.x};
            worst2 = std::max(worst2, norm2(minus(bi, zai)));
          }
          options.push_back(by_squared("", worst2));
        }
    return best("similar", options);
  }

  // Symmetric: B is A reflected across the line of one of A's or B's edges (exact reflection),
  // its vertices matched cyclically in either order; slack² = the largest vertex distance².
  ShapeRelation symmetric(const std::vector<Vec2>& A, const std::vector<Vec2>& B) const {
    if (A.size() != B.size()) return {"symmetric", false, false, kNoSuchRelation};
    if (const double rough = worst_symmetric_double(A, B); clearly_not(rough))
      return {"symmetric", false, false, rough * px_};
    const std::size_t n = A.size();
    std::vector<ShapeRelation> options;
    std::vector<std::pair<Vec2, Vec2>> axes;
    for (std::size_t i = 0; i < n; ++i) {
      axes.emplace_back(A[i], A[(i + 1) % n]);
      axes.emplace_back(B[i], B[(i + 1) % n]);
    }
    for (const auto& [p, q] : axes) {
      const Vec2 u = minus(q, p);
      if (norm2(u) == 0) continue;
      std::vector<Vec2> mirror;
      for (const auto& v : A) {  // p + 2((v−p)·u)u/|u|² − (v−p)
        const Vec2 d = minus(v, p);
        const Rational t = 2 * dot(d, u) / norm2(u);
        mirror.push_back({p.x + t * u.x - d.x, p.y + t * u.y - d.y});
      }
      for (bool reversed : {false, true})
        for (std::size_t k = 0; k < n; ++k) {
          Rational worst2 = 0;
          for (std::size_t i = 0; i < n; ++i)
            worst2 = std::max(worst2, norm2(minus(mirror[i], B[reversed ? (k + n - i) % n : (k + i) % n])));
          options.push_back(by_squared("", worst2));
        }
    }
    return best("symmetric", options);
  }

  // Crossings, containment and disjointness of polygons, circles and straight pieces (exact:
  // CGAL segment intersections and the circular kernel; a tangency counts as two crossings).
  void topology(const View& a, const View& b, RelationCheck& out) const {
    auto decidable = [](const View& v) {
      return v.kind == Kind::polygon || v.kind == Kind::circle || v.kind == Kind::straight;
    };
    if (!decidable(a) || !decidable(b)) {
      out.undecided.insert(out.undecided.end(), {"intersecting", "contained", "disjoint"});
      return;
    }
    auto pieces = [](const View& v) {
      std::vector<std::pair<Vec2, Vec2>> out;
      if (v.kind == Kind::straight) out.emplace_back(v.a, v.b);
      for (std::size_t i = 0; i < v.vertices.size(); ++i)
        out.emplace_back(v.vertices[i], v.vertices[(i + 1) % v.vertices.size()]);
      return out;
    };
    // Filter: boxes that do not overlap (grown by 1e-9 of the coordinates' size, far above any
    // rounding of the double conversion) have no crossing and no containment.
    auto box = [](const View& v) {
      std::array<double, 4> bb{1e300, 1e300, -1e300, -1e300};
      auto grow = [&](double x, double y) {
        bb[0] = std::min(bb[0], x), bb[1] = std::min(bb[1], y), bb[2] = std::max(bb[2], x), bb[3] = std::max(bb[3], y);
      };
      if (v.kind == Kind::circle) {
        const double cx = to_double(v.centre->x), cy = to_double(v.centre->y), r = to_double(v.ra);
        grow(cx - r, cy - r), grow(cx + r, cy + r);
      } else if (v.kind == Kind::straight) {
        grow(to_double(v.a.x), to_double(v.a.y)), grow(to_double(v.b.x), to_double(v.b.y));
      }
      for (const auto& p : v.vertices) grow(to_double(p.x), to_double(p.y));
      return bb;
    };
    const auto ba = box(a), bb = box(b);
    const double slop = 1e-9 * (1 + std::max({std::abs(ba[0]), std::abs(ba[3]), std::abs(bb[0]), std::abs(bb[3])}));
    if (a.kind != Kind::straight && b.kind != Kind::straight &&
        (ba[2] + slop < bb[0] || bb[2] + slop < ba[0] || ba[3] + slop < bb[1] || bb[3] + slop < ba[1])) {
      ShapeRelation apart{"intersecting", false, false, 0};
      apart.count = 0;
      out.relations.push_back(apart);
      out.relations.push_back({"contained", false, false, 0});
      out.relations.push_back({"disjoint", true, false, 0});
      return;
    }
    int crossings = 0;
    const auto pa = pieces(a), pb = pieces(b);
    std::vector<Vec2> points;  // distinct straight crossings (a vertex on two edges is one point)
    auto boxes_apart = [](const Vec2& p, const Vec2& q, const Vec2& r, const Vec2& s) {
      const D2 P = approx(p), Q = approx(q), R = approx(r), S = approx(s);
      const double slop = 1e-9 * (1 + std::abs(P.x) + std::abs(P.y) + std::abs(R.x) + std::abs(R.y));
      return std::max(P.x, Q.x) + slop < std::min(R.x, S.x) || std::max(R.x, S.x) + slop < std::min(P.x, Q.x) ||
             std::max(P.y, Q.y) + slop < std::min(R.y, S.y) || std::max(R.y, S.y) + slop < std::min(P.y, Q.y);
    };
    for (const auto& [p, q] : pa)
      for (const auto& [r, s] : pb)
        if (p != q && r != s && !boxes_apart(p, q, r, s))
          if (auto x = segment_crossing(p, q, r, s); x && std::find(points.begin(), points.end(), *x) == points.end())
            points.push_back(*x);
    crossings += static_cast<int>(points.size());
    auto with_circle = [&](const std::vector<std::pair<Vec2, Vec2>>& segments, const View& c) {
      for (const auto& [p, q] : segments)
        if (p != q)
          for (const auto& x : segment_circle_points(p, q, *c.centre, c.ra * c.ra)) crossings += x.multiplicity;
    };
    if (a.kind == Kind::circle && b.kind == Kind::circle) {
      for (const auto& x : circle_circle_points(*a.centre, a.ra * a.ra, *b.centre, b.ra * b.ra))
        crossings += x.multiplicity;
    } else if (a.kind == Kind::circle) {
      with_circle(pb, a);
    } else if (b.kind == Kind::circle) {
      with_circle(pa, b);
    }
    auto region = [](const View& v) { return Region{v.centre, v.ra, v.vertices}; };
    const bool closed = a.kind != Kind::straight && b.kind != Kind::straight;
    const bool inside = closed && crossings == 0 && region_contains(region(b), region(a));
    ShapeRelation intersecting{"intersecting", crossings > 0, false, 0};
    intersecting.count = crossings;
    out.relations.push_back(intersecting);
    out.relations.push_back({"contained", inside, false, 0});
    out.relations.push_back(
        {"disjoint", crossings == 0 && !inside && !(closed && region_contains(region(a), region(b))), false, 0});
  }

 private:
  double px_;
  Thresholds t_;
  Rational eps_, eps_vis_;
};

}  // namespace

std::optional<ShapeRelation> label_check(const Shape& shape, const Frame& frame, const Thresholds& thresholds) {
  const Relater relater(frame, thresholds);
  const View v = view_of(shape);
  const std::string& kind = shape.kind;
  if (kind == "circle") {
    if (v.kind != Kind::circle && v.kind != Kind::ellipse) return std::nullopt;
    const Rational d = v.ra - v.rb;
    return relater.by_squared("label", d * d);
  }
  if (v.kind != Kind::polygon) return std::nullopt;
  const auto& p = v.vertices;
  const std::size_t n = p.size();
  const std::size_t wanted = kind == "rectangle" || kind == "square" ? 4
                             : kind == "equilateral triangle"        ? 3
                             : kind == "regular pentagon"            ? 5
                             : kind == "regular hexagon"             ? 6
                                                                     : 0;
  if (wanted == 0) return std::nullopt;
  if (n != wanted) return ShapeRelation{"label", false, false, kNoSuchRelation};
  std::vector<ShapeRelation> parts;
  auto edge = [&](std::size_t i) { return minus(p[(i + 1) % n], p[i % n]); };
  if (kind == "rectangle" || kind == "square")
    for (std::size_t i = 0; i < n; ++i) parts.push_back(relater.direction("", edge(i), edge(i + 1), false));
  if (kind != "rectangle")  // equal sides
    for (std::size_t i = 1; i < n; ++i) parts.push_back(relater.by_root_gap("", norm2(edge(0)), norm2(edge(i))));
  if (kind == "regular pentagon" || kind == "regular hexagon") {  // equal distances from the vertex mean
    Vec2 mean{0, 0};
    for (const auto& q : p) mean = {mean.x + q.x / n, mean.y + q.y / n};
    for (std::size_t i = 1; i < n; ++i)
      parts.push_back(relater.by_root_gap("", norm2(minus(p[0], mean)), norm2(minus(p[i], mean))));
  }
  return Relater::worst("label", parts);
}

std::optional<std::string> looks_like(const Shape& shape, const Frame& frame, const Thresholds& thresholds) {
  if (!shape.kind.empty()) return std::nullopt;
  const View v = view_of(shape);
  if (v.kind == Kind::ellipse) {
    const double d = std::abs(to_double(v.ra - v.rb)) * pixels_per_unit(frame, thresholds);
    if (d < thresholds.eps_vis_px) return "circle";
    return std::nullopt;
  }
  if (v.kind != Kind::polygon || (v.vertices.size() != 3 && v.vertices.size() != 4)) return std::nullopt;
  // Every angle within 3° of 90° (quadrilateral) or 60° (triangle), decided on cos² exactly
  // against rational bounds of cos²(87°), cos²(93°) = 0.0027390523… and cos²(57°), cos²(63°).
  const auto& p = v.vertices;
  const std::size_t n = p.size();
  const Rational lo = n == 4 ? Rational(0) : Rational(20610737, 100000000);  // cos²63° ≈ 0.20610737
  const Rational hi = n == 4 ? Rational(27390523, 10000000000) : Rational(29663167, 100000000);  // cos²87°, cos²57°
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 u = minus(p[(i + n - 1) % n], p[i]), w = minus(p[(i + 1) % n], p[i]);
    if (norm2(u) == 0 || norm2(w) == 0) return std::nullopt;
    const Rational c = dot(u, w), cos2 = c * c / (norm2(u) * norm2(w));
    if (n == 3 && c < 0) return std::nullopt;  // an obtuse angle
    if (cos2 < lo || cos2 > hi) return std::nullopt;
  }
  return std::string(n == 4 ? "rectangle" : "equilateral triangle");
}

RelationCheck relate(const Shape& a, const Shape& b, const Frame& frame, const Thresholds& thresholds,
                     bool directional_only) {
  return Relater(frame, thresholds).relate(a, b, directional_only);
}

}  // namespace geotruth::geometry
