// The only translation unit that includes CGAL's kernels (slow to compile: keep it alone).
#include "geometry/predicates.hpp"

#include <CGAL/CORE_Expr.h>
#include <CGAL/Exact_circular_kernel_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_rational.h>
#include <CGAL/Iso_rectangle_2.h>
#include <CGAL/intersections.h>

#include <boost/multiprecision/gmp.hpp>
#include <cmath>

namespace geotruth::geometry {
namespace {

using K = CGAL::Epeck;
using CK = CGAL::Exact_circular_kernel_2;

// Rational ↔ CGAL numbers, bit for bit through GMP's mpq_t.
K::FT ft(const Rational& q) {
  return K::FT(CGAL::Exact_rational(q.get_mpq_t()));
}
K::Point_2 pt(const Vec2& v) {
  return {ft(v.x), ft(v.y)};
}
// Epeck's exact type is mpq_class or boost's gmp_rational depending on configuration.
Rational from_exact(const mpq_class& q) {
  return q;
}
[[maybe_unused]] Rational from_exact(const boost::multiprecision::mpq_rational& q) {
  return Rational(q.backend().data());
}
Rational rational(const K::FT& value) {
  return from_exact(CGAL::exact(value));
}
Vec2 vec(const K::Point_2& p) {
  return {rational(p.x()), rational(p.y())};
}

CK::FT ck_ft(const Rational& q) {
  return CK::FT(CGAL::Gmpq(q.get_mpq_t()));
}
CK::Point_2 ck_pt(const Vec2& v) {
  return {ck_ft(v.x), ck_ft(v.y)};
}

template <typename Results>
std::vector<CirclePoint> circle_points(const Results& results) {
  std::vector<CirclePoint> out;
  for (const auto& r : results) {
    if (const auto* p = boost::get<std::pair<CK::Circular_arc_point_2, unsigned>>(&r))
      out.push_back({CGAL::to_double(p->first.x()), CGAL::to_double(p->first.y()), static_cast<int>(p->second)});
  }
  return out;
}

CORE::Expr expr(const Rational& q) {
  return CORE::Expr(CORE::BigRat(q.get_mpq_t()));
}

}  // namespace

int orientation(const Vec2& a, const Vec2& b, const Vec2& c) {
  return static_cast<int>(CGAL::orientation(pt(a), pt(b), pt(c)));
}

Rational squared_distance_to_line(const Vec2& p, const Vec2& a, const Vec2& b) {
  return rational(CGAL::squared_distance(pt(p), K::Line_2(pt(a), pt(b))));
}

Rational squared_distance_to_segment(const Vec2& p, const Vec2& a, const Vec2& b) {
  return rational(CGAL::squared_distance(pt(p), K::Segment_2(pt(a), pt(b))));
}

Rational line_parameter(const Vec2& p, const Vec2& a, const Vec2& b) {
  const K::Vector_2 ab = pt(b) - pt(a), ap = pt(p) - pt(a);
  return rational(ap * ab / ab.squared_length());
}

Vec2 point_at(const Vec2& a, const Vec2& b, const Rational& t) {
  return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
}

std::optional<Vec2> segment_crossing(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const auto hit = CGAL::intersection(K::Segment_2(pt(a), pt(b)), K::Segment_2(pt(c), pt(d)));
  if (!hit) return std::nullopt;
  if (const auto* p = boost::get<K::Point_2>(&*hit)) return vec(*p);
  return std::nullopt;  // overlapping along a stretch: collinear, not a crossing
}

std::optional<std::pair<Vec2, Vec2>> drawn_extent(const Vec2& a, const Vec2& b, Extent extent, const Frame& frame) {
  if (extent == Extent::segment) return std::make_pair(a, b);
  const K::Iso_rectangle_2 box(K::Point_2(0, 0), K::Point_2(ft(frame.width), ft(frame.height)));
  auto clipped = [](const auto& hit) -> std::optional<std::pair<Vec2, Vec2>> {
    if (!hit) return std::nullopt;
    if (const auto* s = boost::get<K::Segment_2>(&*hit)) return std::make_pair(vec(s->source()), vec(s->target()));
    return std::nullopt;  // grazes a corner: nothing drawn
  };
  if (extent == Extent::ray) return clipped(CGAL::intersection(K::Ray_2(pt(a), pt(b)), box));
  auto both = clipped(CGAL::intersection(K::Line_2(pt(a), pt(b)), box));
  // Keep the direction a → b so that parameters along the piece keep their sign.
  if (both && line_parameter(both->first, a, b) > line_parameter(both->second, a, b))
    std::swap(both->first, both->second);
  return both;
}

std::vector<CirclePoint> segment_circle_points(const Vec2& a, const Vec2& b, const Vec2& c, const Rational& r2) {
  using Result = CGAL::CK2_Intersection_traits<CK, CK::Line_arc_2, CK::Circle_2>::type;
  std::vector<Result> results;
  CGAL::intersection(CK::Line_arc_2(CK::Segment_2(ck_pt(a), ck_pt(b))), CK::Circle_2(ck_pt(c), ck_ft(r2)),
                     std::back_inserter(results));
  return circle_points(results);
}

std::vector<CirclePoint> circle_circle_points(const Vec2& c1, const Rational& r1_squared, const Vec2& c2,
                                              const Rational& r2_squared) {
  if (c1 == c2) return {};  // concentric: identical or disjoint
  using Result = CGAL::CK2_Intersection_traits<CK, CK::Circle_2, CK::Circle_2>::type;
  std::vector<Result> results;
  CGAL::intersection(CK::Circle_2(ck_pt(c1), ck_ft(r1_squared)), CK::Circle_2(ck_pt(c2), ck_ft(r2_squared)),
                     std::back_inserter(results));
  return circle_points(results);
}

int compare_circle_gap(const Vec2& p, const Vec2& c, const Rational& r2, const Rational& eps) {
  const Rational dx = p.x - c.x, dy = p.y - c.y;
  const CORE::Expr gap = CORE::abs(CORE::sqrt(expr(dx * dx + dy * dy)) - CORE::sqrt(expr(r2)));
  return CORE::cmp(gap, expr(eps));
}

double circle_gap(const Vec2& p, const Vec2& c, const Rational& r2) {
  const double dx = to_double(p.x - c.x), dy = to_double(p.y - c.y);
  return std::abs(std::hypot(dx, dy) - std::sqrt(to_double(r2)));
}

}  // namespace geotruth::geometry
