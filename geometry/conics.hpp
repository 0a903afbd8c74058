// Exact crossing counts of ellipses (circles included), circular arcs and segments.
//
// Every curve here has a rational parametrization: a segment p + t(q − p), t ∈ [0, 1]; an
// ellipse with rational centre, rational semi-axes and rational orthonormal axes e1, e2,
//   P(s) = c + a·(1 − s²)/(1 + s²)·e1 + b·2s/(1 + s²)·e2,   s ∈ ℝ ∪ {∞};
// an arc the same with e1 pointing away from its start, over an interval of s. Substituting one
// curve's parametrization into the other's implicit equation gives a polynomial of degree ≤ 4
// with rational coefficients whose real roots are the meeting points; they are counted exactly
// with Sturm sequences over GMP rationals, with multiplicity (a tangency counts twice, as for
// the circular kernel's crossings). No square root, no floating point.
#pragma once

#include <geotruth/rational.hpp>
#include <geotruth/scene.hpp>

#include <optional>

namespace geotruth::geometry {

/// An ellipse {c + x·e1 + y·e2 : x²/a² + y²/b² = 1}. Preconditions: a, b > 0; e1 and e2 exact
/// unit vectors with e2 = e1 turned by +90°.
struct ExactEllipse {
  Vec2 centre;
  Rational a, b;
  Vec2 e1{1, 0}, e2{0, 1};
};

/// The arc of the circle (centre, r) from the unit direction `from` counter-clockwise to the
/// unit direction `to`; `from == to` is the full circle. Preconditions: r > 0, exact unit vectors.
struct ExactArc {
  Vec2 centre;
  Rational r;
  Vec2 from, to;
};

/// True when p lies inside the ellipse or on it.
bool ellipse_has_point(const ExactEllipse& e, const Vec2& p);

/// Where the closed segment [p, q] meets the ellipse, counted with multiplicity (an end on the
/// curve counts once, a touching point twice). Precondition: p ≠ q.
int segment_ellipse_crossings(const Vec2& p, const Vec2& q, const ExactEllipse& e);

/// Where two ellipses meet, with multiplicity (at most 4); nullopt when they are the same curve.
std::optional<int> ellipse_ellipse_crossings(const ExactEllipse& a, const ExactEllipse& b);

/// Where the arc meets the ellipse, with multiplicity (the arc's ends included); nullopt when the
/// arc lies on the ellipse.
std::optional<int> arc_ellipse_crossings(const ExactArc& arc, const ExactEllipse& e);

/// The least or greatest value of `of`'s level function q(x) = ((x − c)·e1/a)² + ((x − c)·e2/b)²
/// (1 on its curve) along the curve of `on`, where it is reached, and the radial gap there: the
/// distance from that point to `of`'s curve along the ray from `of`'s centre,
/// |x − c|·|1 − 1/√q|. The critical points are the real roots of a polynomial of degree ≤ 7 with
/// rational coefficients (the derivative of q along `on`'s rational parametrization), isolated by
/// Sturm sequences and bisected over dyadic rationals to width 2⁻⁸⁰ before one conversion to double:
/// the value is exact to a double's rounding, not sampled.
struct LevelExtreme {
  double level = 0;
  double x = 0, y = 0;  ///< the point of `on`
  double radial_gap = 0;
};
std::pair<LevelExtreme, LevelExtreme> level_extremes(const ExactEllipse& on, const ExactEllipse& of);

/// Where the arc meets the closed segment [p, q], with multiplicity. Precondition: p ≠ q.
int arc_segment_crossings(const ExactArc& arc, const Vec2& p, const Vec2& q);

}  // namespace geotruth::geometry
