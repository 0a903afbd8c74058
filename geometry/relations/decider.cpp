// The decider: slacks into decided relations, a double filter first and the exact path after.
#include "geometry/predicates.hpp"
#include "geometry/relations/engine.hpp"

#include <algorithm>

namespace geotruth::geometry::relations {

ShapeRelation RelationDecider::by_squared(RelationKind kind, const Rational& slack2) const {
  return {kind, bands_.decide_squared(slack2), bands_.squared_to_px(slack2), std::nullopt};
}

ShapeRelation RelationDecider::by_root_gap(RelationKind kind, const Rational& x2, const Rational& y2) const {
  const int versus_num = compare_root_gap(x2, y2, bands_.eps_num());
  const Decision decision =
      versus_num <= 0 ? Decision::holds : FrameBands::decide(versus_num, compare_root_gap(x2, y2, bands_.eps_vis()));
  return with_px(kind, decision, std::abs(std::sqrt(to_double(x2)) - std::sqrt(to_double(y2))));
}

std::optional<ShapeRelation> RelationDecider::filtered(RelationKind kind, double rough, double scale) const {
  if (auto decision = bands_.decide_filtered(rough, 1e-9 * scale)) return with_px(kind, *decision, rough);
  return std::nullopt;
}

ShapeRelation RelationDecider::by_estimate(RelationKind kind, double slack_units) const {
  return {kind, bands_.decide_px(bands_.to_px(slack_units)), bands_.to_px(slack_units), std::nullopt};
}

ShapeRelation RelationDecider::far(RelationKind kind, double slack_units) const {
  return with_px(kind, Decision::fails, slack_units);
}

ShapeRelation RelationDecider::worst(RelationKind kind, const std::vector<ShapeRelation>& parts) {
  ShapeRelation out{kind, Decision::holds, 0.0, std::nullopt};
  for (const auto& p : parts) {
    if (p.decision == Decision::fails || (p.decision == Decision::ambiguous && out.decision == Decision::holds))
      out.decision = p.decision;
    out.slack_px =
        p.slack_px && out.slack_px ? std::optional<double>(std::max(*out.slack_px, *p.slack_px)) : std::nullopt;
  }
  return out;
}

ShapeRelation RelationDecider::best(RelationKind kind, const std::vector<ShapeRelation>& options) {
  ShapeRelation out = impossible(kind);
  for (const auto& o : options)
    if (o.slack_px && (!out.slack_px || *o.slack_px < *out.slack_px))
      out = {kind, o.decision, o.slack_px, std::nullopt};
  return out;
}

ShapeRelation RelationDecider::endpoints_match(RelationKind kind, Pt p, Pt q, Pt r, Pt s) const {
  const double rough =
      std::min(std::max(distance(p.d, r.d), distance(q.d, s.d)), std::max(distance(p.d, s.d), distance(q.d, r.d)));
  if (auto decided = filtered(kind, rough, scale({p.d, q.d, r.d, s.d}))) return *decided;
  const Rational d1 = std::max(norm2(minus(p.exact, r.exact)), norm2(minus(q.exact, s.exact)));
  const Rational d2 = std::max(norm2(minus(p.exact, s.exact)), norm2(minus(q.exact, r.exact)));
  return by_squared(kind, std::min(d1, d2));
}

ShapeRelation RelationDecider::direction(RelationKind kind, Pt p, Pt q, Pt r, Pt s, bool parallel) const {
  {
    const D2 du = minus(q.d, p.d), dv = minus(s.d, r.d);
    const double nu = std::hypot(du.x, du.y), nv = std::hypot(dv.x, dv.y);
    if (nu > 0 && nv > 0) {
      const double c = parallel ? cross(du, dv) : dot(du, dv);
      const double rough = std::abs(c) / std::max(nu, nv);  // |sin Δ| (|cos Δ|) × the shorter length
      if (auto decided = filtered(kind, rough, scale({p.d, q.d, r.d, s.d}))) return *decided;
    }
  }
  const Vec2 u = minus(q.exact, p.exact), v = minus(s.exact, r.exact);
  const Rational uu = norm2(u), vv = norm2(v);
  if (uu == 0 || vv == 0) return impossible(kind);  // a zero-length edge
  const Rational c = parallel ? cross(u, v) : dot(u, v);
  const Rational slack2 = c * c * std::min(uu, vv) / (uu * vv);
  return by_squared(kind, slack2);
}

double RelationDecider::curve_gap(const D2& p, const View& c) {
  if (c.kind != ViewKind::ellipse) return std::abs(distance(p, c.centre_d) - c.ra_d);
  const D2 d = minus(p, c.centre_d);
  const double x = dot(d, c.e1d), y = dot(d, c.e2d), a = c.ra_d, b = c.rb_d;
  const double q = x * x / (a * a) + y * y / (b * b);
  const double gradient = 2 * std::hypot(x / (a * a), y / (b * b));
  return gradient > 0 ? std::abs(q - 1) / gradient : a;
}

ShapeRelation RelationDecider::point_on(RelationKind kind, Pt p, const View& c) const {
  const double rough = curve_gap(p.d, c);
  if (c.kind == ViewKind::ellipse) return by_estimate(kind, rough);
  if (auto decided = filtered(kind, rough, scale({p.d, c.centre_d}) + c.ra_d)) return *decided;
  return by_root_gap(kind, norm2(minus(p.exact, *c.centre)), c.ra * c.ra);
}

Rational RelationDecider::line_distance2(const Vec2& point, const Vec2& p, const Vec2& u) {
  if (norm2(u) == 0) return norm2(minus(point, p));
  const Rational c = cross(u, minus(point, p));
  return c * c / norm2(u);
}

}  // namespace geotruth::geometry::relations
