// Pair families with a straight piece (a line, ray or segment): against another straight piece,
// a polygon, and a circle, ellipse or sector.
#include "geometry/predicates.hpp"
#include "geometry/relations/engine.hpp"

namespace geotruth::geometry::relations {
using K = RelationKind;

ShapeRelation line_tangent(const RelationDecider& decide, RelationKind kind, Pt p, Pt q, const View& c) {
  {
    const D2 n{p.d.y - q.d.y, q.d.x - p.d.x};
    const double nn = std::hypot(n.x, n.y);
    if (nn > 0) {
      const double d = std::abs(dot(n, minus(c.centre_d, p.d))) / nn;
      const double support = std::hypot(c.ra_d * dot(n, c.e1d), c.rb_d * dot(n, c.e2d)) / nn;
      if (auto decided = decide.filtered(kind, std::abs(d - support), scale({p.d, q.d, c.centre_d}) + c.ra_d + c.rb_d))
        return *decided;
    }
  }
  const Vec2 u = minus(q.exact, p.exact);
  if (norm2(u) == 0) return RelationDecider::impossible(kind);
  const Vec2 n{-u.y, u.x};
  const Rational d = dot(n, minus(*c.centre, p.exact));
  const Rational support2 = c.ra * c.ra * dot(n, c.e1) * dot(n, c.e1) + c.rb * c.rb * dot(n, c.e2) * dot(n, c.e2);
  return decide.by_root_gap(kind, d * d / norm2(n), support2 / norm2(n));
}

namespace {

// The drawn straight piece touches its tangent point (the foot of the perpendicular from the
// centre for circles; for ellipses the contact point, to a double's precision: a secondary check).
bool reaches_contact(const RelationDecider& decide, const View& s, const View& c) {
  const Vec2 u = minus(s.b, s.a);
  Vec2 contact = *c.centre;
  if (c.kind == ViewKind::ellipse) {
    // In the ellipse's frame, with n the piece's normal, the contact is ∓(a² nx, b² ny) / N,
    // N = √(a² nx² + b² ny²): each coordinate is its axis times a share a nx / N or b ny / N of
    // at most 1 in size, whose square is exact. Only those shares are rounded, so that no double
    // overflows (axes and directions may be as long as 1e308).
    const Vec2 n{-u.y, u.x};
    const Rational nx = dot(n, c.e1), ny = dot(n, c.e2);
    const Rational pa = c.ra * c.ra * nx * nx, pb = c.rb * c.rb * ny * ny, total = pa + pb;
    const int side = dot(n, minus(*c.centre, s.a)) > 0 ? -1 : 1;
    const Rational lx = Rational(side * sgn(nx) * std::sqrt(to_double(pa / total))) * c.ra;
    const Rational ly = Rational(side * sgn(ny) * std::sqrt(to_double(pb / total))) * c.rb;
    contact.x += lx * c.e1.x + ly * c.e2.x;
    contact.y += lx * c.e1.y + ly * c.e2.y;
  } else {
    const Rational t = dot(minus(*c.centre, s.a), u) / norm2(u);
    contact = {s.a.x + t * u.x, s.a.y + t * u.y};
  }
  if (s.extent == Extent::line) return true;
  if (s.extent == Extent::ray) {  // along ≥ −ε |u|, squared: no square root, no double
    const Rational along = dot(minus(contact, s.a), u);
    return along >= 0 || along * along <= decide.bands().eps_num_squared() * norm2(u);
  }
  return squared_distance_to_segment(contact, s.a, s.b) <= decide.bands().eps_num_squared();
}

}  // namespace

// Whether the direction of `point` from the sector's centre lies on its arc, allowing eps at the
// arc's ends (cross products against unit directions are distances from the end rays).
bool on_arc(const RelationDecider& decide, const View& sector, const Vec2& point) {
  const Vec2 d = minus(point, *sector.centre);
  const Rational& eps = decide.bands().eps_num();
  const bool after_start = cross(sector.arc_from, d) >= -eps, before_end = cross(d, sector.arc_to) >= -eps;
  return sector.sweep_deg <= 180 ? after_start && before_end : after_start || before_end;
}

void relate_straight_straight(const RelationDecider& decide, const View& a, const View& b, bool directional_only,
                              RelationCheck& out) {
  if (directional_only) return;
  const Pt a1{a.a, a.ad}, a2{a.b, a.bd}, b1{b.a, b.ad}, b2{b.b, b.bd};
  out.relations.push_back(decide.direction(K::parallel, a1, a2, b1, b2, true));
  out.relations.push_back(decide.direction(K::perpendicular, a1, a2, b1, b2, false));
}

void relate_straight_polygon(const RelationDecider& decide, const View& a, const View& b, bool directional_only,
                             RelationCheck& out) {
  const View& line = a.kind == ViewKind::straight ? a : b;
  const View& poly = a.kind == ViewKind::straight ? b : a;
  const Pt l1{line.a, line.ad}, l2{line.b, line.bd};
  if (!directional_only) {  // parallel to one of its edges
    std::vector<ShapeRelation> edges;
    for (std::size_t i = 0; i < poly.vertices.size(); ++i)
      edges.push_back(decide.direction(K::parallel, l1, l2, vertex(poly, i), vertex(poly, i + 1), true));
    out.relations.push_back(RelationDecider::best(K::parallel, edges));
  }
  if (a.kind != ViewKind::straight) {  // the engine's reverse of "diagonal": the polygon about the segment
    if (line.extent == Extent::segment) {
      std::vector<ShapeRelation> chords;
      const std::size_t n = poly.vertices.size();
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 2; j < n; ++j)
          if (!(i == 0 && j + 1 == n))
            chords.push_back(decide.endpoints_match(K::circumscribed, vertex(poly, i), vertex(poly, j), l1, l2));
      if (!chords.empty()) out.relations.push_back(RelationDecider::best(K::circumscribed, chords));
    }
    return;
  }
  // "the line is a diagonal of the polygon"
  std::vector<ShapeRelation> diagonals;
  const std::size_t n = poly.vertices.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j + 1 == n) continue;  // adjacent around the end
      diagonals.push_back(decide.endpoints_match(K::diagonal, l1, l2, vertex(poly, i), vertex(poly, j)));
    }
  if (!diagonals.empty()) out.relations.push_back(RelationDecider::best(K::diagonal, diagonals));
}

void relate_straight_curve(const RelationDecider& decide, const View& a, const View& b, bool directional_only,
                           RelationCheck& out) {
  const View& line = a.kind == ViewKind::straight ? a : b;
  const View& curve = a.kind == ViewKind::straight ? b : a;
  if (!directional_only) {
    ShapeRelation tangent = line_tangent(decide, K::tangent, {line.a, line.ad}, {line.b, line.bd}, curve);
    if (tangent.holds() || tangent.ambiguous()) {
      bool touches = reaches_contact(decide, line, curve);
      if (touches && curve.kind == ViewKind::sector) {  // the contact must be on the arc
        const Vec2 u = minus(line.b, line.a);
        const Rational t = dot(minus(*curve.centre, line.a), u) / norm2(u);
        touches = on_arc(decide, curve, {line.a.x + t * u.x, line.a.y + t * u.y});
      }
      if (!touches) tangent = RelationDecider::impossible(K::tangent);
    }
    out.relations.push_back(tangent);
  }
  if (a.kind != ViewKind::straight) {  // the engine's reverse of a diameter or axis: the curve about a chord
    if (line.extent == Extent::segment && curve.round()) {
      const double rough =
          std::max(RelationDecider::curve_gap(line.ad, curve), RelationDecider::curve_gap(line.bd, curve));
      out.relations.push_back(
          decide.clearly_fails(rough)
              ? decide.far(K::circumscribed, rough)
              : RelationDecider::worst(K::circumscribed,
                                       {decide.point_on(K::circumscribed, {line.a, line.ad}, curve),
                                        decide.point_on(K::circumscribed, {line.b, line.bd}, curve)}));
    }
    return;
  }
  const Pt a1{a.a, a.ad}, a2{a.b, a.bd};
  if (curve.kind == ViewKind::circle) {  // a diameter: through the centre, both ends on the circle
    const double rough = std::max(RelationDecider::curve_gap(a.ad, curve), RelationDecider::curve_gap(a.bd, curve));
    out.relations.push_back(
        decide.clearly_fails(rough)
            ? decide.far(K::diameter, rough)
            : RelationDecider::worst(
                  K::diameter,
                  {decide.by_squared(K::diameter, RelationDecider::line_distance2(*curve.centre, a.a, minus(a.b, a.a))),
                   decide.point_on(K::diameter, a1, curve), decide.point_on(K::diameter, a2, curve)}));
  }
  if (curve.kind == ViewKind::ellipse) {
    for (const bool major : {true, false}) {
      const Vec2& axis = major ? curve.e1 : curve.e2;
      const Rational& length = major ? curve.ra : curve.rb;
      const Vec2 p{curve.centre->x + length * axis.x, curve.centre->y + length * axis.y};
      const Vec2 q{curve.centre->x - length * axis.x, curve.centre->y - length * axis.y};
      const K kind = major ? K::major_axis : K::minor_axis;
      out.relations.push_back(decide.endpoints_match(kind, a1, a2, {p, approx(p)}, {q, approx(q)}));
    }
  }
}

}  // namespace geotruth::geometry::relations
