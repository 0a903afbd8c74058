// The topology of two shapes: how often their boundaries cross, whether one holds the other, or
// whether they are disjoint. Exact: CGAL segment intersections and circular kernel
// (geometry/predicates.hpp) and the conic crossing counts of geometry/conics.hpp, each behind a
// double filter that only skips work it can prove unnecessary.
#include "geometry/predicates.hpp"
#include "geometry/relations/engine.hpp"

#include <algorithm>
#include <array>

namespace geotruth::geometry::relations {
namespace {

using K = RelationKind;

// A topological relation: decided exactly, no slack.
ShapeRelation exact(K kind, bool holds, std::optional<int> crossings = std::nullopt) {
  return {kind, holds ? Decision::holds : Decision::fails, std::nullopt, crossings};
}

// p in the frame where the ellipse is the unit circle.
D2 to_unit_disc(const View& e, const D2& p) {
  const D2 d = minus(p, e.centre_d);
  return {dot(d, e.e1d) / e.ra_d, dot(d, e.e2d) / e.rb_d};
}

// Crossings of the segment [p, q] with the unit circle when the doubles decide them with
// `margin` to spare: none (clearly outside or inside), one (an end clearly on each side), two
// (both ends clearly outside, the middle clearly inside); nullopt otherwise.
std::optional<int> segment_unit_circle(const D2& p, const D2& q, double margin) {
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
double bend_between(const View& a, const View& b) {
  const double reach = std::max(a.ra_d, a.rb_d), narrow = std::min(b.ra_d, b.rb_d);
  return 2 * reach * (2 * reach + distance(a.centre_d, b.centre_d)) / (narrow * narrow);
}
std::optional<int> sampled_crossings(const View& a, const View& b, double slop) {
  const double bend_bound = bend_between(a, b);
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
bool within_sweep(const View& sector, const Vec2& p) {
  const Vec2 d = minus(p, *sector.centre);
  const bool after_start = cross(sector.arc_from, d) >= 0, before_end = cross(d, sector.arc_to) >= 0;
  if (sector.sweep_deg == 360) return true;
  return sector.sweep_deg <= 180 ? after_start && before_end : after_start || before_end;
}

// Where two sectors' arcs meet: the crossings of their circles (exact, CGAL's circular kernel)
// that lie on both arcs. The points come out as doubles: one within `slop` of an arc's end ray
// is at the arc's end, where the radius meets it too, and counts (the arcs touch there).
int arc_arc_crossings(const View& a, const View& b, double slop) {
  auto on_arc = [&](const View& sector, double x, double y) {
    const D2 d{x - sector.centre_d.x, y - sector.centre_d.y}, from = approx(sector.arc_from),
                                                              to = approx(sector.arc_to);
    const double after_start = cross(from, d), before_end = cross(d, to);
    if (sector.sweep_deg == 360) return true;
    return sector.sweep_deg <= 180 ? after_start >= -slop && before_end >= -slop
                                   : after_start >= -slop || before_end >= -slop;
  };
  if (*a.centre == *b.centre && a.ra == b.ra) return 0;  // one circle: the shared radii meet instead
  int count = 0;
  for (const auto& x : circle_circle_points(*a.centre, a.ra * a.ra, *b.centre, b.ra * b.ra))
    if (on_arc(a, x.x, x.y) && on_arc(b, x.x, x.y)) count += x.multiplicity;
  return count;
}

// True when p lies in the closed region the shape bounds.
bool region_has(const View& v, const Vec2& p) {
  switch (v.kind) {
    case ViewKind::polygon:
      return region_has_point(Region{std::nullopt, 0, v.vertices}, p);
    case ViewKind::circle:
    case ViewKind::ellipse:
      return ellipse_has_point(conic_of(v), p);
    case ViewKind::sector:
      return norm2(minus(p, *v.centre)) <= v.ra * v.ra && within_sweep(v, p);
    default:
      return false;
  }
}

// A point on the shape's boundary.
Vec2 boundary_point(const View& v) {
  if (v.kind == ViewKind::polygon) return v.vertices.front();
  if (v.kind == ViewKind::sector) return *v.centre;
  return {v.centre->x + v.ra * v.e1.x, v.centre->y + v.ra * v.e1.y};
}

// ---- Shapes with a spiral: a certified interval method -----------------------------------
// Every shape is traced by polylines within a certified distance of its curve (a polygon or a
// straight piece exactly; a circle, ellipse or arc by chords of at most 1e-5 frame units' error;
// a spiral by its View's trace). Two polyline segments whose ends lie on opposite sides of each
// other's line by more than the two errors cross once, for sure; a pair nearer than the errors
// that does not is uncertain. With no uncertain pair the crossing count is certain; otherwise
// the relations are ambiguous, their slack the uncertainty (never a yes/no).
struct Traced {
  std::vector<std::vector<D2>> lines;
  double error = 0;
};

void add_curve_trace(Traced& t, const D2& centre, double ra, double rb, const D2& e1, const D2& e2, double from,
                     double sweep, std::vector<D2> prefix = {}, std::vector<D2> suffix = {}) {
  const double bend = std::max(ra, rb);
  const int steps = trace_steps(sweep, bend, 8);
  const double h = sweep / steps;
  std::vector<D2> line = std::move(prefix);
  for (int k = 0; k <= steps; ++k) {
    const double t = from + h * k, x = ra * std::cos(t), y = rb * std::sin(t);
    line.push_back({centre.x + x * e1.x + y * e2.x, centre.y + x * e1.y + y * e2.y});
  }
  line.insert(line.end(), suffix.begin(), suffix.end());
  t.lines.push_back(std::move(line));
  t.error = std::max(t.error, bend * h * h / 8 + 1e-12 * (1 + std::abs(centre.x) + std::abs(centre.y) + bend));
}

Traced trace_of(const View& v) {
  Traced t;
  switch (v.kind) {
    case ViewKind::polygon: {
      auto line = v.vertices_d;
      line.push_back(v.vertices_d.front());
      t.lines.push_back(std::move(line));
      break;
    }
    case ViewKind::straight:
      if (v.drawn) t.lines.push_back({v.drawn_from, v.drawn_to});
      break;
    case ViewKind::circle:
    case ViewKind::ellipse:
      add_curve_trace(t, v.centre_d, v.ra_d, v.rb_d, v.e1d, v.e2d, 0, 2 * M_PI);
      break;
    case ViewKind::sector: {
      const double from = std::atan2(v.arc_from.y.get_d(), v.arc_from.x.get_d());
      add_curve_trace(t, v.centre_d, v.ra_d, v.ra_d, {1, 0}, {0, 1}, from, v.sweep_deg.get_d() * M_PI / 180,
                      {v.centre_d}, {v.centre_d});
      break;
    }
    case ViewKind::other:
      t.lines.push_back(v.trace);
      t.error = v.trace_error;
      break;
  }
  return t;
}

void relate_traced(const RelationDecider& decide, const View& a, const View& b, RelationCheck& out) {
  const Traced ta = trace_of(a), tb = trace_of(b);
  const double tolerance = ta.error + tb.error;
  int crossings = 0;
  bool uncertain = false;
  auto side = [](const D2& p, const D2& q, const D2& r) {  // signed distance of r from the line p→q
    const D2 u = minus(q, p);
    const double length = std::hypot(u.x, u.y);
    return length > 0 ? cross(u, minus(r, p)) / length : 0.0;
  };
  for (const auto& la : ta.lines)
    for (std::size_t i = 0; i + 1 < la.size(); ++i) {
      const D2 &p = la[i], &q = la[i + 1];
      for (const auto& lb : tb.lines)
        for (std::size_t j = 0; j + 1 < lb.size(); ++j) {
          const D2 &r = lb[j], &s = lb[j + 1];
          if (std::max(p.x, q.x) + tolerance < std::min(r.x, s.x) ||
              std::max(r.x, s.x) + tolerance < std::min(p.x, q.x) ||
              std::max(p.y, q.y) + tolerance < std::min(r.y, s.y) ||
              std::max(r.y, s.y) + tolerance < std::min(p.y, q.y))
            continue;
          const double d1 = side(p, q, r), d2 = side(p, q, s), d3 = side(r, s, p), d4 = side(r, s, q);
          const bool clear = std::min({std::abs(d1), std::abs(d2), std::abs(d3), std::abs(d4)}) > tolerance;
          if (clear && d1 * d2 < 0 && d3 * d4 < 0) {
            ++crossings;
          } else if ((d1 * d2 <= 0 && d3 * d4 <= 0) ||
                     std::min({segment_distance(p, r, s), segment_distance(q, r, s), segment_distance(r, p, q),
                               segment_distance(s, p, q)}) <= tolerance) {
            uncertain = true;  // they meet or come within the traces' error, but not certainly across
          }
        }
    }
  const double slack_px = decide.bands().to_px(tolerance);
  if (crossings == 0 && uncertain) {
    for (const K kind : {K::intersecting, K::contained, K::disjoint})
      out.relations.push_back({kind, Decision::ambiguous, slack_px, std::nullopt});
    return;
  }
  // No uncertain pair: the count is certain. Without a crossing, a closed shape holds the other
  // (a spiral bounds no region) when it holds one of its traced points.
  const auto closed = [](const View& v) { return v.kind != ViewKind::straight && v.kind != ViewKind::other; };
  const auto holds = [&](const View& outer, const Traced& inner) {
    if (!closed(outer) || inner.lines.empty() || inner.lines.front().empty()) return false;
    const D2 p = inner.lines.front().front();
    return region_has(outer, {Rational(p.x), Rational(p.y)});
  };
  const bool inside = crossings == 0 && holds(b, ta), around = crossings == 0 && holds(a, tb);
  auto result = [&](K kind, bool value, std::optional<int> count = std::nullopt) {
    return ShapeRelation{kind, value ? Decision::holds : Decision::fails, slack_px, count};
  };
  out.relations.push_back(result(K::intersecting, crossings > 0, crossings));
  out.relations.push_back(result(K::contained, inside));
  out.relations.push_back(result(K::disjoint, crossings == 0 && !inside && !around));
}

// Crossings, containment and disjointness of polygons, circles, ellipses, sectors and straight
// pieces, exact: CGAL segment intersections and circular kernel, and the conic crossing counts
// of conics.hpp (a tangency counts as two crossings); shapes with a spiral by the certified
// interval method above.
}  // namespace

void relate_topology(const RelationDecider& decider, const View& a, const View& b, bool directional_only,
                     RelationCheck& out) {
  if (directional_only) return;  // decided once per unordered pair
  if (a.kind == ViewKind::other || b.kind == ViewKind::other) return relate_traced(decider, a, b, out);
  // The straight parts: a drawn line, a polygon's edges, a sector's radii.
  auto pieces = [](const View& v) {
    std::vector<std::pair<Pt, Pt>> out;
    if (v.drawn) out.emplace_back(Pt{v.drawn->first, v.drawn_from}, Pt{v.drawn->second, v.drawn_to});
    for (std::size_t i = 0; i < v.vertices.size(); ++i) out.emplace_back(vertex(v, i), vertex(v, i + 1));
    if (v.kind == ViewKind::sector) {
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
    if (v.centre && v.kind != ViewKind::other) {  // the circumscribed circle's box
      const double r = std::max(v.ra_d, v.rb_d);
      grow(v.centre_d.x - r, v.centre_d.y - r), grow(v.centre_d.x + r, v.centre_d.y + r);
    } else if (v.kind == ViewKind::straight) {
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
    out.relations.push_back(exact(K::intersecting, false, 0));
    out.relations.push_back(exact(K::contained, false));
    out.relations.push_back(exact(K::disjoint, true));
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
      if (c.kind == ViewKind::circle) {
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
      } else if (c.kind == ViewKind::ellipse) {
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
  const bool curved_a = a.centre && a.kind != ViewKind::other, curved_b = b.centre && b.kind != ViewKind::other;
  if (curved_a) curve_and_pieces(a, pb);
  if (curved_b) curve_and_pieces(b, pa);
  if (curved_a && curved_b) {  // curve against curve
    std::optional<int> meet;
    if (a.kind == ViewKind::circle && b.kind == ViewKind::circle) {
      meet = 0;
      for (const auto& x : circle_circle_points(*a.centre, a.ra * a.ra, *b.centre, b.ra * b.ra))
        *meet += x.multiplicity;
    } else if (a.kind == ViewKind::sector && b.kind == ViewKind::sector) {
      meet = arc_arc_crossings(a, b, slop);
    } else if (a.kind == ViewKind::sector || b.kind == ViewKind::sector) {
      const View &arc = a.kind == ViewKind::sector ? a : b, &conic = a.kind == ViewKind::sector ? b : a;
      meet = arc_ellipse_crossings({*arc.centre, arc.ra, arc.arc_from, arc.arc_to}, conic_of(conic));
    } else if (auto clear = bend_between(a, b) < bend_between(b, a) ? sampled_crossings(a, b, slop)
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
  const bool closed = a.kind != ViewKind::straight && b.kind != ViewKind::straight;
  auto holds_region = [&](const View& outer, const View& inner) {
    if ((outer.kind == ViewKind::circle || outer.kind == ViewKind::polygon) &&
        (inner.kind == ViewKind::circle || inner.kind == ViewKind::polygon))
      return region_contains(Region{outer.centre, outer.ra, outer.vertices},
                             Region{inner.centre, inner.ra, inner.vertices});
    return region_has(outer, boundary_point(inner));
  };
  const bool inside = closed && crossings == 0 && holds_region(b, a);
  out.relations.push_back(exact(K::intersecting, crossings > 0, crossings));
  out.relations.push_back(exact(K::contained, inside));
  out.relations.push_back(exact(K::disjoint, crossings == 0 && !inside && !(closed && holds_region(a, b))));
}

}  // namespace geotruth::geometry::relations
