// A shape converted once for the relation engine: exact data, drawn extents and double estimates.
#include "geometry/predicates.hpp"
#include "geometry/relations/engine.hpp"

#include <geotruth/shape_types.hpp>

#include <algorithm>
#include <cmath>

namespace geotruth::geometry::relations {

bool clearly_apart(const D2& p, const D2& q, const D2& r, const D2& s, double margin) {
  auto one_side = [margin](const D2& P, const D2& Q, const D2& R, const D2& S) {
    const double r = cross(minus(Q, P), minus(R, P)), s = cross(minus(Q, P), minus(S, P));
    return (r > margin && s > margin) || (r < -margin && s < -margin);
  };
  return one_side(p, q, r, s) || one_side(r, s, p, q);
}

double segment_distance(const D2& p, const D2& a, const D2& b) {
  const D2 u = minus(b, a), w = minus(p, a);
  const double uu = dot(u, u);
  const double t = uu > 0 ? std::clamp(dot(w, u) / uu, 0.0, 1.0) : 0.0;
  return std::hypot(w.x - t * u.x, w.y - t * u.y);
}

double scale(std::initializer_list<D2> points) {
  double s = 1;
  for (const auto& p : points) s = std::max({s, 1 + std::abs(p.x), 1 + std::abs(p.y)});
  return s;
}

namespace {

// An exact rational unit vector at `degrees` from +x (tangent half-angle, via one double of the
// angle reduced exactly into [0, 360): any size of angle gives a finite double).
Vec2 unit_at(const Rational& any_degrees) {
  const Rational degrees = reduce_degrees(any_degrees);
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

// end − start reduced into (0, 360] exactly (validate() rejects a multiple of 360).
Rational sweep_of(const Rational& start_deg, const Rational& end_deg) {
  const Rational sweep = reduce_degrees(end_deg - start_deg);
  return sweep == 0 ? Rational(360) : sweep;
}

// No two edges meet except adjacent ones at their shared vertex.
bool is_simple(const View& v) {
  const std::size_t n = v.vertices.size();
  for (std::size_t i = 0; i < n && n > 3; ++i)
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j + 1 == n) continue;  // adjacent around the end
      const std::size_t i1 = (i + 1) % n, j1 = (j + 1) % n;
      if (clearly_apart(v.vertices_d[i], v.vertices_d[i1], v.vertices_d[j], v.vertices_d[j1], 1e-9 * v.size * v.size))
        continue;
      const Vec2 &p = v.vertices[i], &q = v.vertices[i1], &r = v.vertices[j], &s = v.vertices[j1];
      if (p == q || r == s || segment_crossing(p, q, r, s)) return false;
    }
  return true;
}

// A spiral is not algebraic: it is traced by a polyline of points on the curve, with a certified
// bound on the distance between the two. P(θ) = c + r(θ)(cos θ, sin θ) has |P″| ≤ |r| + 2|r′| + |r″|,
// each bounded over [0, T] from r = a + (b + ε sin(ωθ + φ))θ; a chord over a step h then stays
// within |P″|·h²/8 of the arc it spans. Steps are chosen for 1e-5 frame units (at most 4,000).
void trace_spiral(const SpiralShape& g, View& v) {
  const double a = to_double(g.initial_radius), b = to_double(g.growth_rate), eps = std::abs(to_double(g.sin_eps));
  const double omega = std::abs(to_double(g.sin_omega)), T = std::max(0.0, to_double(g.max_theta));
  const double r_max = std::abs(a) + (std::abs(b) + eps) * T, r1_max = std::abs(b) + eps + eps * omega * T;
  const double r2_max = 2 * eps * omega + eps * omega * omega * T, bend = r_max + 2 * r1_max + r2_max;
  const int steps = trace_steps(T, bend, 1);
  const double h = T / steps, cx = to_double(g.center.x), cy = to_double(g.center.y);
  const double phi = to_double(g.sin_phi), signed_eps = to_double(g.sin_eps), signed_omega = to_double(g.sin_omega);
  for (int k = 0; k <= steps; ++k) {  // spiral_radius, with the parameters converted once
    const double t = h * k, r = a + (b + signed_eps * std::sin(signed_omega * t + phi)) * t;
    v.trace.push_back({cx + r * std::cos(t), cy + r * std::sin(t)});
  }
  v.trace_error = bend * h * h / 8 + 1e-12 * (1 + std::abs(cx) + std::abs(cy) + r_max);  // + the doubles' rounding
}

}  // namespace

int trace_steps(double span, double bend, int fewest) {
  constexpr int kMost = 4000;
  const double wanted = std::ceil(span / std::sqrt(8e-5 / std::max(bend, 1e-12)));
  if (!(wanted > fewest)) return fewest;  // NaN too: a span of 0 over an infinite bend
  return wanted >= kMost ? kMost : static_cast<int>(wanted);
}

View view_of(const Shape& s, const Frame& frame) {
  View v;
  std::visit(
      [&](const auto& g) {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, StraightShape>) {
          v.kind = ViewKind::straight;
          v.a = g.a, v.b = g.b, v.extent = g.extent;
          if (g.a != g.b) v.drawn = drawn_extent(g.a, g.b, g.extent, frame);
        } else if constexpr (std::is_same_v<T, PolygonShape>) {
          v.kind = ViewKind::polygon;
          v.vertices = g.points;
        } else if constexpr (std::is_same_v<T, EllipseShape>) {
          v.centre = g.center;
          v.ra = g.axes[0], v.rb = g.axes[1];
          v.kind = g.axes[0] == g.axes[1] ? ViewKind::circle : ViewKind::ellipse;
          if (v.kind == ViewKind::ellipse) {
            v.e1 = unit_at(g.rotation_deg);
            v.e2 = {-v.e1.y, v.e1.x};
          }
        } else if constexpr (std::is_same_v<T, SectorShape>) {
          v.kind = ViewKind::sector;
          v.centre = g.center;
          v.ra = v.rb = g.radius;
          v.arc_from = unit_at(g.start_deg);
          v.arc_to = unit_at(g.end_deg);
          v.sweep_deg = sweep_of(g.start_deg, g.end_deg);
          v.arc_start = {g.center.x + g.radius * v.arc_from.x, g.center.y + g.radius * v.arc_from.y};
          v.arc_end = {g.center.x + g.radius * v.arc_to.x, g.center.y + g.radius * v.arc_to.y};
        } else if constexpr (std::is_same_v<T, StarShape>) {
          // The polygon of its 2n points. Their coordinates are irrational (cos, sin): each goes
          // through one double (~1e-16), far below the input's own rounding.
          v.kind = ViewKind::polygon;
          v.tip_stride = 2;  // a star's circumscribed circle passes through its tips, not its inner corners
          v.vertices = star_corners(g);
        } else if constexpr (std::is_same_v<T, SpiralShape>) {
          v.centre = g.center;
          trace_spiral(g, v);
        }
      },
      s.geometry);
  v.ad = approx(v.a), v.bd = approx(v.b), v.e1d = approx(v.e1), v.e2d = approx(v.e2);
  if (v.centre) v.centre_d = approx(*v.centre);
  if (v.drawn) v.drawn_from = approx(v.drawn->first), v.drawn_to = approx(v.drawn->second);
  if (v.kind == ViewKind::sector) v.arc_start_d = approx(v.arc_start), v.arc_end_d = approx(v.arc_end);
  v.ra_d = v.ra.get_d(), v.rb_d = v.rb.get_d();
  for (const auto& p : v.vertices) v.vertices_d.push_back(approx(p));
  for (const auto& p : v.vertices_d) v.size = std::max({v.size, 1 + std::abs(p.x), 1 + std::abs(p.y)});
  v.simple = is_simple(v);
  return v;
}

}  // namespace geotruth::geometry::relations
