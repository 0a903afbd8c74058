#include "geometry/relations.hpp"

#include "geometry/conics.hpp"
#include "geometry/predicates.hpp"

#include <geotruth/shape_types.hpp>

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
D2 minus(const D2& a, const D2& b) {
  return {a.x - b.x, a.y - b.y};
}
double dot(const D2& u, const D2& v) {
  return u.x * v.x + u.y * v.y;
}
double cross(const D2& u, const D2& v) {
  return u.x * v.y - u.y * v.x;
}
// True when both ends of one segment lie clearly (by more than `margin`, a bound on the error of
// the doubles' cross products) on one side of the other's line: the closed segments do not meet.
bool clearly_apart(const D2& p, const D2& q, const D2& r, const D2& s, double margin) {
  auto one_side = [margin](const D2& P, const D2& Q, const D2& R, const D2& S) {
    const double r = cross(minus(Q, P), minus(R, P)), s = cross(minus(Q, P), minus(S, P));
    return (r > margin && s > margin) || (r < -margin && s < -margin);
  };
  return one_side(p, q, r, s) || one_side(r, s, p, q);
}

// Distance from p to the segment (a, b).
double segment_distance(const D2& p, const D2& a, const D2& b) {
  const D2 u = minus(b, a), w = minus(p, a);
  const double uu = dot(u, u);
  const double t = uu > 0 ? std::clamp(dot(w, u) / uu, 0.0, 1.0) : 0.0;
  return std::hypot(w.x - t * u.x, w.y - t * u.y);
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
  std::optional<std::pair<Vec2, Vec2>> drawn;  // straight: the part drawn on the canvas
  std::optional<Vec2> centre;                  // centre-bearing shapes
  Rational ra, rb;                             // circle: ra = rb = r; ellipse: semi-axes
  Vec2 e1{1, 0}, e2{0, 1};                     // ellipse axes (exact unit vectors)
  std::vector<Vec2> vertices;                  // polygon
  bool simple = true;                          // polygon: no two edges meet except adjacent ones at their vertex
  std::size_t tip_stride = 1;  // the vertices a circumscribed curve passes through: all, or a star's tips
  Vec2 arc_from, arc_to;       // sector: unit directions of the arc's ends
  Rational sweep_deg;
  Vec2 arc_start, arc_end;  // sector: the arc's end points (its radii's outer ends)
  // The same in double, converted once, for the filters.
  D2 ad{}, bd{}, centre_d{}, e1d{1, 0}, e2d{0, 1}, drawn_from{}, drawn_to{}, arc_start_d{}, arc_end_d{};
  double ra_d = 0, rb_d = 0;
  std::vector<D2> vertices_d;
  double size = 1;  // 1 + the largest |coordinate| of the vertices: the scale of their doubles' rounding
};

// A circle or an ellipse as conics.hpp takes it.
ExactEllipse conic_of(const View& v) {
  return {*v.centre, v.ra, v.rb, v.e1, v.e2};
}

// A point with its double estimate (for the filters), borrowed from a View.
struct Pt {
  const Vec2& exact;
  D2 d;
};
Pt vertex(const View& v, std::size_t i) {
  i %= v.vertices.size();
  return {v.vertices[i], v.vertices_d[i]};
}

View view_of(const Shape& s, const Frame& frame) {
  View v;
  std::visit(
      [&](const auto& g) {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, StraightShape>) {
          v.kind = Kind::straight;
          v.a = g.a, v.b = g.b, v.extent = g.extent;
          if (g.a != g.b) v.drawn = drawn_extent(g.a, g.b, g.extent, frame);
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
          v.arc_start = {g.center.x + g.radius * v.arc_from.x, g.center.y + g.radius * v.arc_from.y};
          v.arc_end = {g.center.x + g.radius * v.arc_to.x, g.center.y + g.radius * v.arc_to.y};
        } else if constexpr (std::is_same_v<T, StarShape>) {
          // The polygon of its 2n points. Their coordinates are irrational (cos, sin): each goes
          // through one double (~1e-16), far below the input's own rounding.
          v.kind = Kind::polygon;
          v.tip_stride = 2;  // a star's circumscribed circle passes through its tips, not its inner corners
          for (const auto& [x, y] : star_vertices(g)) v.vertices.push_back({Rational(x), Rational(y)});
        } else {
          v.centre = g.center;
        }
      },
      s.geometry);
  v.ad = approx(v.a), v.bd = approx(v.b), v.e1d = approx(v.e1), v.e2d = approx(v.e2);
  if (v.centre) v.centre_d = approx(*v.centre);
  if (v.drawn) v.drawn_from = approx(v.drawn->first), v.drawn_to = approx(v.drawn->second);
  if (v.kind == Kind::sector) v.arc_start_d = approx(v.arc_start), v.arc_end_d = approx(v.arc_end);
  v.ra_d = v.ra.get_d(), v.rb_d = v.rb.get_d();
  for (const auto& p : v.vertices) v.vertices_d.push_back(approx(p));
  for (const auto& p : v.vertices_d) v.size = std::max({v.size, 1 + std::abs(p.x), 1 + std::abs(p.y)});
  const std::size_t n = v.vertices.size();
  for (std::size_t i = 0; i < n && n > 3 && v.simple; ++i)
    for (std::size_t j = i + 2; j < n && v.simple; ++j) {
      if (i == 0 && j + 1 == n) continue;  // adjacent around the end
      const std::size_t i1 = (i + 1) % n, j1 = (j + 1) % n;
      if (clearly_apart(v.vertices_d[i], v.vertices_d[i1], v.vertices_d[j], v.vertices_d[j1], 1e-9 * v.size * v.size))
        continue;
      const Vec2 &p = v.vertices[i], &q = v.vertices[i1], &r = v.vertices[j], &s = v.vertices[j1];
      if (p == q || r == s || segment_crossing(p, q, r, s)) v.simple = false;
    }
  return v;
}

class Relater {
 public:
  Relater(const Frame& frame, const Bands& bands)
      : bands_(bands, frame), px_(bands_.px_per_unit()), eps_(bands_.eps_num()), eps_vis_(bands_.eps_vis()) {}

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

  // The filtered path: a double slack estimate `rough` (units), computed from coordinates of
  // magnitude below `scale` by a well-conditioned formula, so its error is far below 1e-9·scale,
  // decides the relation when it is that far from both band edges; nullopt sends the caller to
  // the exact path.
  std::optional<ShapeRelation> decided(const char* name, double rough, double scale) const {
    const double error = 1e-9 * scale, eps = bands_.bands().eps_num_px / px_, vis = bands_.bands().eps_vis_px / px_;
    if (rough + error < eps) return ShapeRelation{name, true, false, rough * px_};
    if (rough - error > eps && rough + error < vis) return ShapeRelation{name, false, true, rough * px_};
    if (rough - error > vis) return ShapeRelation{name, false, false, rough * px_};
    return std::nullopt;
  }
  static double scale(std::initializer_list<D2> points) {
    double s = 1;
    for (const auto& p : points) s = std::max({s, 1 + std::abs(p.x), 1 + std::abs(p.y)});
    return s;
  }

  // A relation whose slack is only known as a double (the point-to-ellipse estimate).
  ShapeRelation by_estimate(std::string name, double slack_units) const {
    const double slack = slack_units * px_;
    return {std::move(name), slack <= bands_.bands().eps_num_px,
            slack > bands_.bands().eps_num_px && slack < bands_.bands().eps_vis_px, slack};
  }

  // A relation that clearly does not hold, with its double slack estimate.
  ShapeRelation far(std::string name, double slack_units) const {
    return {std::move(name), false, false, slack_units * px_};
  }

  // The segment (p, q) on the segment (r, s), either way round: slack = the larger endpoint gap.
  ShapeRelation endpoints_match(Pt p, Pt q, Pt r, Pt s) const {
    const double rough =
        std::min(std::max(distance(p.d, r.d), distance(q.d, s.d)), std::max(distance(p.d, s.d), distance(q.d, r.d)));
    if (auto filtered = decided("", rough, scale({p.d, q.d, r.d, s.d}))) return *filtered;
    const Rational d1 = std::max(norm2(minus(p.exact, r.exact)), norm2(minus(q.exact, s.exact)));
    const Rational d2 = std::max(norm2(minus(p.exact, s.exact)), norm2(minus(q.exact, r.exact)));
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
  // = cross² (or dot²) · min(|u|², |v|²) / (|u|² |v|²), exact) of the directions p→q and r→s.
  ShapeRelation direction(const char* name, Pt p, Pt q, Pt r, Pt s, bool parallel) const {
    {
      const D2 du = minus(q.d, p.d), dv = minus(s.d, r.d);
      const double nu = std::hypot(du.x, du.y), nv = std::hypot(dv.x, dv.y);
      if (nu > 0 && nv > 0) {
        const double c = parallel ? cross(du, dv) : dot(du, dv);
        const double rough = std::abs(c) / std::max(nu, nv);  // |sin Δ| (|cos Δ|) × the shorter length
        if (auto filtered = decided(name, rough, scale({p.d, q.d, r.d, s.d}))) return *filtered;
      }
    }
    const Vec2 u = minus(q.exact, p.exact), v = minus(s.exact, r.exact);
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

  // Tangency of the line through p and q to a circle or ellipse: |distance to centre − support|
  // on the line's normal n; the support of the ellipse is √(A²(n·e1)² + B²(n·e2)²)/|n|.
  ShapeRelation line_tangent(Pt p, Pt q, const View& c) const {
    {
      const D2 n{p.d.y - q.d.y, q.d.x - p.d.x};
      const double nn = std::hypot(n.x, n.y);
      if (nn > 0) {
        const double d = std::abs(dot(n, minus(c.centre_d, p.d))) / nn;
        const double support = std::hypot(c.ra_d * dot(n, c.e1d), c.rb_d * dot(n, c.e2d)) / nn;
        if (auto filtered = decided("tangent", std::abs(d - support), scale({p.d, q.d, c.centre_d}) + c.ra_d + c.rb_d))
          return *filtered;
      }
    }
    const Vec2 u = minus(q.exact, p.exact);
    if (norm2(u) == 0) return {"tangent", false, false, kNoSuchRelation};
    const Vec2 n{-u.y, u.x};
    const Rational d = dot(n, minus(*c.centre, p.exact));
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

  // The double estimate of a point's distance to a circle or an ellipse: exact decisions for
  // circles start from it, and it is the (first-order) slack for ellipses.
  static double curve_gap(const D2& p, const View& c) {
    if (c.kind != Kind::ellipse) return std::abs(distance(p, c.centre_d) - c.ra_d);
    const D2 d = minus(p, c.centre_d);
    const double x = dot(d, c.e1d), y = dot(d, c.e2d), a = c.ra_d, b = c.rb_d;
    const double q = x * x / (a * a) + y * y / (b * b);
    const double gradient = 2 * std::hypot(x / (a * a), y / (b * b));
    return gradient > 0 ? std::abs(q - 1) / gradient : a;
  }

  ShapeRelation point_on(Pt p, const View& c) const {
    const double rough = curve_gap(p.d, c);
    if (c.kind == Kind::ellipse) return by_estimate("on", rough);
    if (auto filtered = decided("on", rough, scale({p.d, c.centre_d}) + c.ra_d)) return *filtered;
    return by_root_gap("on", norm2(minus(p.exact, *c.centre)), c.ra * c.ra);
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
    {  // Filter: every distance from the circle's centre to the ellipse lies in [d − A, d + A].
      const double d = distance(circle.centre_d, ellipse.centre_d), A = std::max(ellipse.ra_d, ellipse.rb_d);
      const double rough = std::max({d - A - circle.ra_d, circle.ra_d - d - A, 0.0});
      if (clearly_not(rough)) {
        for (const char* name : {"external_tangent", "internal_tangent", "tangent"})
          out.relations.push_back(far(name, rough));
        return;
      }
    }
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

  // The curve passes through every vertex of the polygon (every tip of a star).
  ShapeRelation through_vertices(const View& curve, const View& polygon) const {
    const std::size_t n = polygon.vertices.size(), stride = polygon.tip_stride;
    double rough = 0;
    for (std::size_t i = 0; i < n; i += stride) rough = std::max(rough, curve_gap(polygon.vertices_d[i], curve));
    if (clearly_not(rough)) return far("circumscribed", rough);
    std::vector<ShapeRelation> parts;
    for (std::size_t i = 0; i < n; i += stride) parts.push_back(point_on(vertex(polygon, i), curve));
    return worst("circumscribed", parts);
  }

  // The double gap between the side (a, b) and the curve: |distance − radius| for a circle (to the
  // segment), |distance − support| for an ellipse (to the side's line). Precondition: a ≠ b.
  static double side_gap(const View& curve, const D2& a, const D2& b) {
    if (curve.kind == Kind::circle) return std::abs(segment_distance(curve.centre_d, a, b) - curve.ra_d);
    const D2 normal{a.y - b.y, b.x - a.x};
    return std::abs(std::abs(dot(normal, minus(curve.centre_d, a))) -
                    std::hypot(curve.ra_d * dot(normal, curve.e1d), curve.rb_d * dot(normal, curve.e2d))) /
           std::hypot(normal.x, normal.y);
  }

  // touches_sides decided in double when every side's gap and the centre's side of every edge
  // are clear of their band edges; nullopt otherwise.
  // `gaps` are side_gap of each side (i, i + 1).
  std::optional<ShapeRelation> touches_sides_filtered(const View& polygon, const View& curve,
                                                      const std::vector<double>& gaps) const {
    const std::size_t n = polygon.vertices.size();
    std::vector<ShapeRelation> parts;
    int turn = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const D2 &a = polygon.vertices_d[i], &b = polygon.vertices_d[(i + 1) % n];
      const double size = scale({a, b, curve.centre_d}) + curve.ra_d + curve.rb_d;
      if (distance(a, b) < 1e-6 * size) return std::nullopt;  // a (nearly) repeated vertex: the exact path
      auto part = decided("side", gaps[i], size);
      const double o = cross(minus(b, a), minus(curve.centre_d, a));
      if (!part || std::abs(o) < 1e-9 * size * size) return std::nullopt;
      parts.push_back(*part);
      const int side = o > 0 ? 1 : -1;
      if (turn == 0) turn = side;
      if (side != turn) parts.push_back({"inside", false, false, kNoSuchRelation});  // centre outside
    }
    return worst("circumscribed", parts);
  }

  // The curve touches every side of the polygon from inside.
  ShapeRelation touches_sides(const View& polygon, const View& curve) const {
    const std::size_t n = polygon.vertices.size();
    std::vector<double> gaps(n, 0.0);  // each side's gap in double (0 for a repeated vertex)
    for (std::size_t i = 0; i < n; ++i) {
      const D2 &a = polygon.vertices_d[i], &b = polygon.vertices_d[(i + 1) % n];
      if (a.x != b.x || a.y != b.y) gaps[i] = side_gap(curve, a, b);
    }
    if (const double rough = *std::max_element(gaps.begin(), gaps.end()); clearly_not(rough))
      return far("circumscribed", rough);
    if (auto filtered = touches_sides_filtered(polygon, curve, gaps)) return *filtered;
    std::vector<ShapeRelation> parts;
    int turn = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Pt a = vertex(polygon, i), b = vertex(polygon, i + 1);
      if (a.exact == b.exact) continue;  // a repeated vertex: no side
      if (curve.kind == Kind::circle) {
        parts.push_back(
            by_root_gap("side", squared_distance_to_segment(*curve.centre, a.exact, b.exact), curve.ra * curve.ra));
      } else {
        parts.push_back(line_tangent(a, b, curve));
      }
      const int side = orientation(a.exact, b.exact, *curve.centre);
      if (turn == 0) turn = side;
      if (side == 0 || side != turn) parts.push_back({"inside", false, false, kNoSuchRelation});  // centre outside
    }
    return worst("circumscribed", parts);
  }

  RelationCheck relate(const View& a, const View& b, bool directional_only) const {
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
    const Pt a1{a.a, a.ad}, a2{a.b, a.bd}, b1{b.a, b.ad}, b2{b.b, b.bd};  // straight shapes' points
    if (a.centre && b.centre && !directional_only) {
      const auto filtered = decided("", distance(a.centre_d, b.centre_d), scale({a.centre_d, b.centre_d}));
      add(filtered ? *filtered : by_squared("", norm2(minus(*a.centre, *b.centre))), "concentric");
    }
    if (a.kind == Kind::straight && b.kind == Kind::straight && !directional_only) {
      add(direction("", a1, a2, b1, b2, true), "parallel");
      add(direction("", a1, a2, b1, b2, false), "perpendicular");
    }
    if ((a.kind == Kind::straight && b.kind == Kind::polygon) ||
        (a.kind == Kind::polygon && b.kind == Kind::straight)) {
      const View& line = a.kind == Kind::straight ? a : b;
      const View& poly = a.kind == Kind::straight ? b : a;
      std::vector<ShapeRelation> edges;
      const Pt l1{line.a, line.ad}, l2{line.b, line.bd};
      for (std::size_t i = 0; i < poly.vertices.size(); ++i)
        edges.push_back(direction("", l1, l2, vertex(poly, i), vertex(poly, i + 1), true));
      if (!directional_only) add(best("", edges), "parallel");
      if (a.kind == Kind::straight) {  // "the line is a diagonal of the polygon"
        std::vector<ShapeRelation> diagonals;
        const auto& v = poly.vertices;
        for (std::size_t i = 0; i < v.size(); ++i)
          for (std::size_t j = i + 2; j < v.size(); ++j) {
            if (i == 0 && j + 1 == v.size()) continue;  // adjacent around the end
            diagonals.push_back(endpoints_match(l1, l2, vertex(poly, i), vertex(poly, j)));
          }
        if (!diagonals.empty()) add(best("", diagonals), "diagonal");
      }
    }
    const bool line_round = (a.kind == Kind::straight && (round_b || b.kind == Kind::sector)) ||
                            (b.kind == Kind::straight && (round_a || a.kind == Kind::sector));
    if (line_round) {
      const View& line = a.kind == Kind::straight ? a : b;
      const View& curve = a.kind == Kind::straight ? b : a;
      ShapeRelation tangent =
          directional_only ? ShapeRelation{} : line_tangent({line.a, line.ad}, {line.b, line.bd}, curve);
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
        const double rough = std::max(curve_gap(a.ad, curve), curve_gap(a.bd, curve));
        add(clearly_not(rough) ? far("", rough)
                               : worst("", {by_squared("", line_distance2(*curve.centre, a.a, minus(a.b, a.a))),
                                            point_on(a1, curve), point_on(a2, curve)}),
            "diameter");
      }
      if (a.kind == Kind::straight && curve.kind == Kind::ellipse) {
        for (const bool major : {true, false}) {
          const Vec2& axis = major ? b.e1 : b.e2;
          const Rational& length = major ? b.ra : b.rb;
          const Vec2 p{b.centre->x + length * axis.x, b.centre->y + length * axis.y};
          const Vec2 q{b.centre->x - length * axis.x, b.centre->y - length * axis.y};
          add(endpoints_match(a1, a2, {p, approx(p)}, {q, approx(q)}), major ? "major_axis" : "minor_axis");
        }
      }
    }
    if (directional_only) {
      // the symmetric relations below were decided with the pair in the other order
    } else if (a.kind == Kind::circle && b.kind == Kind::circle) {
      const double d = distance(a.centre_d, b.centre_d), size = scale({a.centre_d, b.centre_d}) + a.ra_d + b.ra_d;
      auto outer_f = decided("", std::abs(d - (a.ra_d + b.ra_d)), size);
      auto inner_f = decided("", std::abs(d - std::abs(a.ra_d - b.ra_d)), size);
      const Rational d2 = outer_f && inner_f ? Rational(0) : norm2(minus(*a.centre, *b.centre));
      const ShapeRelation outer = outer_f ? *outer_f : by_root_gap("", d2, (a.ra + b.ra) * (a.ra + b.ra));
      const ShapeRelation inner = inner_f ? *inner_f : by_root_gap("", d2, (a.ra - b.ra) * (a.ra - b.ra));
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
      add(similar(a, b), "similar");
      add(symmetric(a, b), "symmetric");
      std::vector<ShapeRelation> shared;
      const auto &p = a.vertices, &q = b.vertices;
      for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t j = 0; j < q.size(); ++j) {
          shared.push_back(endpoints_match(vertex(a, i), vertex(a, i + 1), vertex(b, j), vertex(b, j + 1)));
        }
      add(best("", shared), "shared_edge");
    }
    if (!directional_only) topology(a, b, out);
    return out;
  }

  // The double-precision slack of a polygon relation, for the filter: when it exceeds the
  // visual band by far more than any rounding error, the exact evaluation is not needed.
  bool clearly_not(double slack_units) const { return slack_units * px_ > 4 * bands_.bands().eps_vis_px + 1; }

  // Similar: B's edges are A's edges times one complex number z (rotation and scale), for some
  // correspondence of vertices (a cyclic shift, either direction, optionally mirrored). z comes
  // from the first edge pair; slack² = the largest |bᵢ − z·aᵢ|². Each correspondence is tried in
  // double first; only those the filter cannot decide are computed in exact rationals.
  ShapeRelation similar(const View& a, const View& b) const {
    const std::vector<Vec2>&A = a.vertices, &B = b.vertices;
    if (A.size() != B.size()) return {"similar", false, false, kNoSuchRelation};
    const std::size_t n = A.size();
    const double size = std::max(a.size, b.size);
    std::vector<ShapeRelation> options;
    double nearest = kNoSuchRelation;  // the smallest double slack among the options
    for (bool mirrored : {false, true})
      for (bool reversed : {false, true})
        for (std::size_t k = 0; k < n; ++k) {
          auto b_index = [&](std::size_t i) { return reversed ? (k + n - i % n) % n : (k + i) % n; };
          auto a_edge_d = [&](std::size_t i) {
            D2 e = minus(a.vertices_d[(i + 1) % n], a.vertices_d[i]);
            if (mirrored) e.y = -e.y;
            return e;
          };
          const D2 a0 = a_edge_d(0), b0 = minus(b.vertices_d[b_index(1)], b.vertices_d[b_index(0)]);
          const double n2 = dot(a0, a0);
          if (n2 == 0) continue;
          const D2 z{dot(b0, a0) / n2, cross(a0, b0) / n2};  // b0 / a0 as complex numbers
          double rough = 0, longest = 0;
          for (std::size_t i = 0; i < n; ++i) {
            const D2 ai = a_edge_d(i), bi = minus(b.vertices_d[b_index(i + 1)], b.vertices_d[b_index(i)]);
            rough = std::max(rough, std::hypot(bi.x - (z.x * ai.x - z.y * ai.y), bi.y - (z.x * ai.y + z.y * ai.x)));
            longest = std::max(longest, std::hypot(ai.x, ai.y));
          }
          nearest = std::min(nearest, rough);
          if (clearly_not(rough)) continue;
          // z's error grows with 1/|a0|, and each term's with |z|·|aᵢ|.
          const double condition = (1 + std::hypot(z.x, z.y)) * (1 + longest / std::sqrt(n2));
          if (auto filtered = decided("", rough, size * condition)) {
            options.push_back(*filtered);
            continue;
          }
          auto a_edge = [&](std::size_t i) {
            Vec2 e = minus(A[(i + 1) % n], A[i]);
            if (mirrored) e.y = -e.y;
            return e;
          };
          const Vec2 e0 = a_edge(0), f0 = minus(B[b_index(1)], B[b_index(0)]);
          if (norm2(e0) == 0) continue;
          const Vec2 exact_z{dot(f0, e0) / norm2(e0), cross(e0, f0) / norm2(e0)};
          Rational worst2 = 0;
          for (std::size_t i = 0; i < n; ++i) {
            const Vec2 ai = a_edge(i), bi = minus(B[b_index(i + 1)], B[b_index(i)]);
            const Vec2 zai{exact_z.x * ai.x - exact_z.y * ai.y, exact_z.x * ai.y + exact_z.y * ai.x};
            worst2 = std::max(worst2, norm2(minus(bi, zai)));
          }
          options.push_back(by_squared("", worst2));
        }
    if (options.empty()) return far("similar", nearest);
    return best("similar", options);
  }

  // Symmetric: B is A reflected across the line of one of A's or B's edges, its vertices matched
  // cyclically in either order; slack² = the largest vertex distance². Each axis is tried in
  // double first; only those the filter cannot decide are reflected in exact rationals.
  ShapeRelation symmetric(const View& a, const View& b) const {
    const std::vector<Vec2>&A = a.vertices, &B = b.vertices;
    if (A.size() != B.size()) return {"symmetric", false, false, kNoSuchRelation};
    const std::size_t n = A.size();
    const double size = std::max(a.size, b.size);
    std::vector<ShapeRelation> options;
    double nearest = kNoSuchRelation;
    std::vector<D2> mirror_d(n);
    for (const View* side : {&a, &b})
      for (std::size_t e = 0; e < n; ++e) {
        const D2 p = side->vertices_d[e], u = minus(side->vertices_d[(e + 1) % n], p);
        const double u2 = dot(u, u);
        if (u2 == 0) continue;
        for (std::size_t i = 0; i < n; ++i) {  // p + 2((v−p)·u)u/|u|² − (v−p)
          const D2 v = minus(a.vertices_d[i], p);
          const double t = 2 * dot(v, u) / u2;
          mirror_d[i] = {p.x + t * u.x - v.x, p.y + t * u.y - v.y};
        }
        std::vector<Vec2> mirror;  // exact, computed when a correspondence needs it
        for (bool reversed : {false, true})
          for (std::size_t k = 0; k < n; ++k) {
            auto b_index = [&](std::size_t i) { return reversed ? (k + n - i) % n : (k + i) % n; };
            double rough = 0;
            for (std::size_t i = 0; i < n; ++i)
              rough = std::max(rough, distance(mirror_d[i], b.vertices_d[b_index(i)]));
            nearest = std::min(nearest, rough);
            if (clearly_not(rough)) continue;
            if (auto filtered = decided("", rough, size * (1 + size / std::sqrt(u2)))) {
              options.push_back(*filtered);
              continue;
            }
            const Vec2& P = side->vertices[e];
            const Vec2 U = minus(side->vertices[(e + 1) % n], P);
            if (norm2(U) == 0) continue;
            if (mirror.empty())
              for (const auto& v : A) {
                const Vec2 d = minus(v, P);
                const Rational t = 2 * dot(d, U) / norm2(U);
                mirror.push_back({P.x + t * U.x - d.x, P.y + t * U.y - d.y});
              }
            Rational worst2 = 0;
            for (std::size_t i = 0; i < n; ++i) worst2 = std::max(worst2, norm2(minus(mirror[i], B[b_index(i)])));
            options.push_back(by_squared("", worst2));
          }
      }
    if (options.empty()) return far("symmetric", nearest);
    return best("symmetric", options);
  }

  // p in the frame where the ellipse is the unit circle.
  static D2 to_unit_disc(const View& e, const D2& p) {
    const D2 d = minus(p, e.centre_d);
    return {dot(d, e.e1d) / e.ra_d, dot(d, e.e2d) / e.rb_d};
  }

  // Crossings of the segment [p, q] with the unit circle when the doubles decide them with
  // `margin` to spare: none (clearly outside or inside), one (an end clearly on each side), two
  // (both ends clearly outside, the middle clearly inside); nullopt otherwise.
  static std::optional<int> segment_unit_circle(const D2& p, const D2& q, double margin) {
    const double near = segment_distance({0, 0}, p, q), dp = std::hypot(p.x, p.y), dq = std::hypot(q.x, q.y);
    if (near > 1 + margin || std::max(dp, dq) < 1 - margin) return 0;
    if (std::min(dp, dq) < 1 - margin && std::max(dp, dq) > 1 + margin) return 1;
    if (std::min(dp, dq) > 1 + margin && near < 1 - margin) return 2;
    return std::nullopt;
  }

  // Crossings of two ellipses (circles included) certified in double: g(θ) = b's normalized
  // equation at a's point θ, sampled at 256 angles. With B ≥ |g″| (from b's gradient and Hessian
  // and a's speed and curvature), a step of length h from θ₀ whose ends have one sign and
  // |g(θ₀)| > |g′(θ₀)|·h + B·h²/2 has no root, and one with a sign change and |g′| > B·h at an end is
  // monotone: exactly one transversal crossing. An uncertain step is split in eight and tried
  // again; when every step is certified the sign changes are the crossings, else nullopt (near a
  // tangency): the exact count decides.
  static double bend_bound(const View& a, const View& b) {
    const double reach = std::max(a.ra_d, a.rb_d), narrow = std::min(b.ra_d, b.rb_d);
    return 2 * reach * (2 * reach + distance(a.centre_d, b.centre_d)) / (narrow * narrow);
  }
  static std::optional<int> sampled_crossings(const View& a, const View& b, double slop) {
    const double bend_bound = Relater::bend_bound(a, b);
    const double margin = 1e-6 + slop * bend_bound;  // far above g's double error
    struct Sample {
      double value, slope;
    };
    auto g = [&](double t) {
      const double c = std::cos(t), s = std::sin(t);
      const D2 p{a.centre_d.x + a.ra_d * c * a.e1d.x + a.rb_d * s * a.e2d.x,
                 a.centre_d.y + a.ra_d * c * a.e1d.y + a.rb_d * s * a.e2d.y};
      const D2 speed{-a.ra_d * s * a.e1d.x + a.rb_d * c * a.e2d.x, -a.ra_d * s * a.e1d.y + a.rb_d * c * a.e2d.y};
      const D2 u = to_unit_disc(b, p);
      const D2 gradient{2 * (u.x / b.ra_d * b.e1d.x + u.y / b.rb_d * b.e2d.x),
                        2 * (u.x / b.ra_d * b.e1d.y + u.y / b.rb_d * b.e2d.y)};
      return Sample{u.x * u.x + u.y * u.y - 1, dot(gradient, speed)};
    };
    // The crossings in [t, t + h] (0 or 1), or nullopt when the bounds cannot tell.
    auto step = [&](const Sample& x, const Sample& y, double h) -> std::optional<int> {
      if (std::abs(x.value) < margin || std::abs(y.value) < margin) return std::nullopt;
      if ((x.value > 0) != (y.value > 0))
        return std::max(std::abs(x.slope), std::abs(y.slope)) > bend_bound * h + margin ? std::optional<int>(1)
                                                                                        : std::nullopt;
      // From an end whose slope leads away from zero only the bend can bring g back to it.
      auto drift = [&](const Sample& end, bool leftward) {
        const bool away = (end.value > 0) == ((leftward ? -end.slope : end.slope) > 0);
        return (away ? 0 : std::abs(end.slope) * h) + bend_bound * h * h / 2 + margin;
      };
      return std::abs(x.value) > drift(x, false) || std::abs(y.value) > drift(y, true) ? std::optional<int>(0)
                                                                                       : std::nullopt;
    };
    constexpr int kSteps = 256, kSplit = 8;
    const double h = 2 * M_PI / kSteps;
    int crossings = 0;
    Sample previous = g(0);
    for (int k = 1; k <= kSteps; ++k) {
      const Sample next = g(k * h);
      if (auto n = step(previous, next, h)) {
        crossings += *n;
      } else {
        Sample from = previous;
        for (int i = 1; i <= kSplit; ++i) {
          const Sample to = i == kSplit ? next : g((k - 1) * h + i * h / kSplit);
          const auto m = step(from, to, h / kSplit);
          if (!m) return std::nullopt;
          crossings += *m;
          from = to;
        }
      }
      previous = next;
    }
    return crossings;
  }

  // Whether p lies on the sector's arc side: between its end rays (exact, no tolerance).
  static bool within_sweep(const View& sector, const Vec2& p) {
    const Vec2 d = minus(p, *sector.centre);
    const bool after_start = cross(sector.arc_from, d) >= 0, before_end = cross(d, sector.arc_to) >= 0;
    if (sector.sweep_deg == 360) return true;
    return sector.sweep_deg <= 180 ? after_start && before_end : after_start || before_end;
  }

  // True when p lies in the closed region the shape bounds.
  static bool region_has(const View& v, const Vec2& p) {
    switch (v.kind) {
      case Kind::polygon:
        return region_has_point(Region{std::nullopt, 0, v.vertices}, p);
      case Kind::circle:
      case Kind::ellipse:
        return ellipse_has_point(conic_of(v), p);
      case Kind::sector:
        return norm2(minus(p, *v.centre)) <= v.ra * v.ra && within_sweep(v, p);
      default:
        return false;
    }
  }

  // A point on the shape's boundary.
  static Vec2 boundary_point(const View& v) {
    if (v.kind == Kind::polygon) return v.vertices.front();
    if (v.kind == Kind::sector) return *v.centre;
    return {v.centre->x + v.ra * v.e1.x, v.centre->y + v.ra * v.e1.y};
  }

  // Crossings, containment and disjointness of polygons, circles, ellipses, sectors and straight
  // pieces, exact: CGAL segment intersections and circular kernel, and the conic crossing counts
  // of conics.hpp (a tangency counts as two crossings). Stars, spirals and two sectors: undecided.
  void topology(const View& a, const View& b, RelationCheck& out) const {
    auto undecided = [&] { out.undecided.insert(out.undecided.end(), {"intersecting", "contained", "disjoint"}); };
    if (a.kind == Kind::other || b.kind == Kind::other || (a.kind == Kind::sector && b.kind == Kind::sector))
      return undecided();
    // The straight parts: a drawn line, a polygon's edges, a sector's radii.
    auto pieces = [](const View& v) {
      std::vector<std::pair<Pt, Pt>> out;
      if (v.drawn) out.emplace_back(Pt{v.drawn->first, v.drawn_from}, Pt{v.drawn->second, v.drawn_to});
      for (std::size_t i = 0; i < v.vertices.size(); ++i) out.emplace_back(vertex(v, i), vertex(v, i + 1));
      if (v.kind == Kind::sector) {
        out.emplace_back(Pt{*v.centre, v.centre_d}, Pt{v.arc_start, v.arc_start_d});
        if (v.sweep_deg != 360) out.emplace_back(Pt{*v.centre, v.centre_d}, Pt{v.arc_end, v.arc_end_d});
      }
      return out;
    };
    // Filter: boxes that do not overlap (grown by 1e-9 of the coordinates' size, far above any
    // rounding of the double conversion) have no crossing and no containment.
    auto box = [](const View& v) {
      std::array<double, 4> bb{1e300, 1e300, -1e300, -1e300};
      auto grow = [&](double x, double y) {
        bb[0] = std::min(bb[0], x), bb[1] = std::min(bb[1], y), bb[2] = std::max(bb[2], x), bb[3] = std::max(bb[3], y);
      };
      if (v.centre && v.kind != Kind::other) {  // the circumscribed circle's box
        const double r = std::max(v.ra_d, v.rb_d);
        grow(v.centre_d.x - r, v.centre_d.y - r), grow(v.centre_d.x + r, v.centre_d.y + r);
      } else if (v.kind == Kind::straight) {
        grow(v.drawn_from.x, v.drawn_from.y), grow(v.drawn_to.x, v.drawn_to.y);
      }
      for (const auto& p : v.vertices_d) grow(p.x, p.y);
      return bb;
    };
    const auto ba = box(a), bb = box(b);
    double size = 1;  // 1 + the largest coordinate: the scale of the doubles' rounding errors
    for (const double c : ba) size = std::max(size, 1 + std::abs(c));
    for (const double c : bb) size = std::max(size, 1 + std::abs(c));
    const double slop = 1e-9 * size;
    if ((ba[2] + slop < bb[0] || bb[2] + slop < ba[0] || ba[3] + slop < bb[1] || bb[3] + slop < ba[1])) {
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
    auto boxes_apart = [&](const D2& P, const D2& Q, const D2& R, const D2& S) {
      return std::max(P.x, Q.x) + slop < std::min(R.x, S.x) || std::max(R.x, S.x) + slop < std::min(P.x, Q.x) ||
             std::max(P.y, Q.y) + slop < std::min(R.y, S.y) || std::max(R.y, S.y) + slop < std::min(P.y, Q.y);
    };
    const double margin = 1e-9 * size * size;
    // A clear crossing inside both segments is counted without its point: when both shapes are
    // simple no third edge can pass through it, so it cannot coincide with another crossing.
    auto clearly_proper = [&](const D2& P, const D2& Q, const D2& R, const D2& S) {
      return std::abs(cross(minus(Q, P), minus(R, P))) > margin && std::abs(cross(minus(Q, P), minus(S, P))) > margin &&
             std::abs(cross(minus(S, R), minus(P, R))) > margin && std::abs(cross(minus(S, R), minus(Q, R))) > margin;
    };
    const bool both_simple = a.simple && b.simple;
    for (const auto& [p, q] : pa)
      for (const auto& [r, s] : pb) {
        if (boxes_apart(p.d, q.d, r.d, s.d) || clearly_apart(p.d, q.d, r.d, s.d, margin) || p.exact == q.exact ||
            r.exact == s.exact)
          continue;
        if (both_simple && clearly_proper(p.d, q.d, r.d, s.d)) {
          ++crossings;
          continue;
        }
        if (auto x = segment_crossing(p.exact, q.exact, r.exact, s.exact);
            x && std::find(points.begin(), points.end(), *x) == points.end())
          points.push_back(*x);
      }
    crossings += static_cast<int>(points.size());
    // The curve of a circle, ellipse or sector against the other shape's straight parts.
    auto curve_and_pieces = [&](const View& c, const std::vector<std::pair<Pt, Pt>>& segments) {
      const double outer = std::max(c.ra_d, c.rb_d), inner = std::min(c.ra_d, c.rb_d);
      for (const auto& [p, q] : segments) {
        // Filter: a segment clearly outside the curve's circumscribed circle, or clearly inside its
        // inscribed one, does not meet it; for a circle, one end clearly inside and the other
        // clearly outside meet it once, both ends outside and the middle inside, twice.
        const double near = segment_distance(c.centre_d, p.d, q.d);
        const double dp = distance(c.centre_d, p.d), dq = distance(c.centre_d, q.d);
        if (near > outer + slop || std::max(dp, dq) < inner - slop || p.exact == q.exact) continue;
        if (c.kind == Kind::circle) {
          if (std::min(dp, dq) < inner - slop && std::max(dp, dq) > outer + slop) {
            crossings += 1;
            continue;
          }
          if (std::min(dp, dq) > outer + slop && near < inner - slop) {
            crossings += 2;
            continue;
          }
          for (const auto& x : segment_circle_points(p.exact, q.exact, *c.centre, c.ra * c.ra))
            crossings += x.multiplicity;
        } else if (c.kind == Kind::ellipse) {
          if (auto clear = segment_unit_circle(to_unit_disc(c, p.d), to_unit_disc(c, q.d), slop / inner)) {
            crossings += *clear;
            continue;
          }
          crossings += segment_ellipse_crossings(p.exact, q.exact, conic_of(c));
        } else {
          crossings += arc_segment_crossings({*c.centre, c.ra, c.arc_from, c.arc_to}, p.exact, q.exact);
        }
      }
    };
    const bool curved_a = a.centre && a.kind != Kind::other, curved_b = b.centre && b.kind != Kind::other;
    if (curved_a) curve_and_pieces(a, pb);
    if (curved_b) curve_and_pieces(b, pa);
    if (curved_a && curved_b) {  // curve against curve
      std::optional<int> meet;
      if (a.kind == Kind::circle && b.kind == Kind::circle) {
        meet = 0;
        for (const auto& x : circle_circle_points(*a.centre, a.ra * a.ra, *b.centre, b.ra * b.ra))
          *meet += x.multiplicity;
      } else if (a.kind == Kind::sector || b.kind == Kind::sector) {
        const View &arc = a.kind == Kind::sector ? a : b, &conic = a.kind == Kind::sector ? b : a;
        meet = arc_ellipse_crossings({*arc.centre, arc.ra, arc.arc_from, arc.arc_to}, conic_of(conic));
      } else if (auto clear = bend_bound(a, b) < bend_bound(b, a) ? sampled_crossings(a, b, slop)
                                                                  : sampled_crossings(b, a, slop)) {
        meet = *clear;
      } else {
        meet = ellipse_ellipse_crossings(conic_of(a), conic_of(b));
      }
      // The same curve twice has no crossing point: each region then holds the other.
      crossings += meet.value_or(0);
    }
    // No crossing: the boundaries are apart, so one region holds the other's boundary point
    // (then all of it) or they are disjoint.
    const bool closed = a.kind != Kind::straight && b.kind != Kind::straight;
    auto holds_region = [&](const View& outer, const View& inner) {
      if ((outer.kind == Kind::circle || outer.kind == Kind::polygon) &&
          (inner.kind == Kind::circle || inner.kind == Kind::polygon))
        return region_contains(Region{outer.centre, outer.ra, outer.vertices},
                               Region{inner.centre, inner.ra, inner.vertices});
      return region_has(outer, boundary_point(inner));
    };
    const bool inside = closed && crossings == 0 && holds_region(b, a);
    ShapeRelation intersecting{"intersecting", crossings > 0, false, 0};
    intersecting.count = crossings;
    out.relations.push_back(intersecting);
    out.relations.push_back({"contained", inside, false, 0});
    out.relations.push_back({"disjoint", crossings == 0 && !inside && !(closed && holds_region(a, b)), false, 0});
  }

 private:
  FrameBands bands_;
  double px_;
  Rational eps_, eps_vis_;
};

}  // namespace

// How far a shape is from its declared kind (see relations.hpp).
std::optional<ShapeRelation> label_of(const Relater& relater, const View& v, const std::string& kind) {
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
  // |a₁a₂| = |b₁b₂|: the double distances first, then exact square roots.
  auto equal_lengths = [&](Pt a1, Pt a2, Pt b1, Pt b2) {
    if (auto filtered = relater.decided("", std::abs(distance(a1.d, a2.d) - distance(b1.d, b2.d)), v.size))
      return *filtered;
    return relater.by_root_gap("", norm2(minus(a1.exact, a2.exact)), norm2(minus(b1.exact, b2.exact)));
  };
  if (kind == "rectangle" || kind == "square")
    for (std::size_t i = 0; i < n; ++i)
      parts.push_back(relater.direction("", vertex(v, i), vertex(v, i + 1), vertex(v, i + 1), vertex(v, i + 2), false));
  if (kind != "rectangle")  // equal sides
    for (std::size_t i = 1; i < n; ++i)
      parts.push_back(equal_lengths(vertex(v, 0), vertex(v, 1), vertex(v, i), vertex(v, i + 1)));
  if (kind == "regular pentagon" || kind == "regular hexagon") {  // equal distances from the vertex mean
    Vec2 mean{0, 0};
    for (const auto& q : p) mean = {mean.x + q.x / n, mean.y + q.y / n};
    const Pt centre{mean, approx(mean)};
    for (std::size_t i = 1; i < n; ++i) parts.push_back(equal_lengths(vertex(v, 0), centre, vertex(v, i), centre));
  }
  return Relater::worst("label", parts);
}

// The kind a person would give an unlabelled shape (see relations.hpp).
std::optional<std::string> looks_like_of(const View& v, const std::string& kind, double px, double eps_vis_px) {
  if (!kind.empty()) return std::nullopt;
  if (v.kind == Kind::ellipse) {
    if (std::abs(to_double(v.ra - v.rb)) * px < eps_vis_px) return "circle";
    return std::nullopt;
  }
  if (v.kind != Kind::polygon || (v.vertices.size() != 3 && v.vertices.size() != 4)) return std::nullopt;
  // Every angle within 3° of 90° (quadrilateral) or 60° (triangle), decided on cos² exactly
  // against rational bounds of cos²(87°), cos²(93°) = 0.0027390523… and cos²(57°), cos²(63°);
  // cos² in double first, exact only within 1e-9 of a bound.
  const auto& p = v.vertices;
  const std::size_t n = p.size();
  const Rational lo = n == 4 ? Rational(0) : Rational(20610737, 100000000);  // cos²63° ≈ 0.20610737
  const Rational hi = n == 4 ? Rational(27390523, 10000000000) : Rational(29663167, 100000000);  // cos²87°, cos²57°
  const double lo_d = lo.get_d(), hi_d = hi.get_d();
  for (std::size_t i = 0; i < n; ++i) {
    const D2 u_d = minus(v.vertices_d[(i + n - 1) % n], v.vertices_d[i]),
             w_d = minus(v.vertices_d[(i + 1) % n], v.vertices_d[i]);
    const double uu = dot(u_d, u_d), ww = dot(w_d, w_d);
    if (uu > 1e-12 && ww > 1e-12) {
      const double c = dot(u_d, w_d), cos2 = c * c / (uu * ww);
      const bool clear = std::abs(cos2 - lo_d) > 1e-9 && std::abs(cos2 - hi_d) > 1e-9 && std::abs(c) > 1e-9 * (uu + ww);
      if (clear && ((n == 3 && c < 0) || cos2 < lo_d || cos2 > hi_d)) return std::nullopt;
      if (clear) continue;
    }
    const Vec2 u = minus(p[(i + n - 1) % n], p[i]), w = minus(p[(i + 1) % n], p[i]);
    if (norm2(u) == 0 || norm2(w) == 0) return std::nullopt;
    const Rational c = dot(u, w), cos2 = c * c / (norm2(u) * norm2(w));
    if (n == 3 && c < 0) return std::nullopt;  // an obtuse angle
    if (cos2 < lo || cos2 > hi) return std::nullopt;
  }
  return std::string(n == 4 ? "rectangle" : "equilateral triangle");
}

struct ShapeRelations::Prepared {
  Relater relater;
  std::vector<View> views;
  std::vector<std::string> kinds;  // each shape's declared kind
  double px, eps_vis_px;
};

ShapeRelations::ShapeRelations(const std::vector<Shape>& shapes, const Frame& frame, const Bands& bands)
    : prepared_(std::make_unique<Prepared>(
          Prepared{Relater(frame, bands), {}, {}, to_double(bands.pixels_per_unit(frame)), bands.eps_vis_px})) {
  prepared_->views.reserve(shapes.size());
  for (const auto& s : shapes) {
    prepared_->views.push_back(view_of(s, frame));
    prepared_->kinds.push_back(s.kind);
  }
}

std::optional<ShapeRelation> ShapeRelations::label_check(std::size_t shape) const {
  return label_of(prepared_->relater, prepared_->views.at(shape), prepared_->kinds.at(shape));
}

std::optional<std::string> ShapeRelations::looks_like(std::size_t shape) const {
  return looks_like_of(prepared_->views.at(shape), prepared_->kinds.at(shape), prepared_->px, prepared_->eps_vis_px);
}

ShapeRelations::~ShapeRelations() = default;

RelationCheck ShapeRelations::relate(std::size_t a, std::size_t b, bool directional_only) const {
  return prepared_->relater.relate(prepared_->views.at(a), prepared_->views.at(b), directional_only);
}

RelationCheck relate(const Shape& a, const Shape& b, const Frame& frame, const Bands& bands, bool directional_only) {
  return Relater(frame, bands).relate(view_of(a, frame), view_of(b, frame), directional_only);
}

}  // namespace geotruth::geometry
