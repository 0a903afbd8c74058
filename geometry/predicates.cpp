// The only translation unit that includes CGAL's kernels (slow to compile: keep it alone).
#include "geometry/predicates.hpp"

#include "geometry/intervals.hpp"

#include <CGAL/CORE_Expr.h>
#include <CGAL/Exact_circular_kernel_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_rational.h>
#include <CGAL/Interval_nt.h>
#include <CGAL/Iso_rectangle_2.h>
#include <CGAL/Polygon_2.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/intersections.h>
#include <CGAL/mpq_class.h>

#include <cmath>

namespace geotruth::geometry {
namespace {

// K: exact rationals without laziness, for constructions whose result must come back as an exact
// rational anyway (crossing points, parameters, squared distances) and for the exact side of
// every filtered predicate. The filters themselves are intervals straight from the rationals
// (geometry/intervals.hpp): cheaper than converting each coordinate into Epeck's lazy numbers.
using K = CGAL::Simple_cartesian<mpq_class>;
// Interval arithmetic for bulk filters, exact fallback in K.
using IK = CGAL::Simple_cartesian<CGAL::Interval_nt<false>>;
using CK = CGAL::Exact_circular_kernel_2;

// Rational ↔ CGAL numbers, bit for bit through GMP's mpq_t.
const K::FT& ft(const Rational& q) {
  return q;
}
K::Point_2 pt(const Vec2& v) {
  return {v.x, v.y};
}
const Rational& rational(const K::FT& value) {
  return value;
}
IK::Point_2 ipt(const Vec2& v) {
  return {CGAL::to_interval(v.x), CGAL::to_interval(v.y)};
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
  {
    CGAL::Protect_FPU_rounding<true> rounding;
    if (auto sign = certain_compare(cross(IntervalPoint(a), IntervalPoint(b), IntervalPoint(c)), Interval(0)))
      return *sign;
  }
  return static_cast<int>(CGAL::orientation(pt(a), pt(b), pt(c)));
}

Rational squared_distance_to_line(const Vec2& p, const Vec2& a, const Vec2& b) {
  // ((b − a) × (p − a))² / |b − a|², in integers over the coordinates' common denominator s:
  // (S·cross)² / (S²·|b − a|²·s²) with S· the scaled coordinates, one reduction at the end
  // instead of one per rational operation.
  mpz_class scale = 1;
  for (const Rational* c : {&a.x, &a.y, &b.x, &b.y, &p.x, &p.y})
    mpz_lcm(scale.get_mpz_t(), scale.get_mpz_t(), c->get_den_mpz_t());
  auto scaled = [&](const Rational& c) {
    mpz_class out;
    mpz_divexact(out.get_mpz_t(), scale.get_mpz_t(), c.get_den_mpz_t());
    out *= c.get_num();
    return out;
  };
  const mpz_class ax = scaled(a.x), ay = scaled(a.y);
  const mpz_class dx = scaled(b.x) - ax, dy = scaled(b.y) - ay, ex = scaled(p.x) - ax, ey = scaled(p.y) - ay;
  const mpz_class cross = dx * ey - dy * ex;
  Rational out;
  mpz_mul(out.get_num_mpz_t(), cross.get_mpz_t(), cross.get_mpz_t());
  mpz_class length = dx * dx + dy * dy;
  length *= scale;
  length *= scale;
  out.get_den() = length;
  out.canonicalize();
  return out;
}

Rational squared_distance_to_segment(const Vec2& p, const Vec2& a, const Vec2& b) {
  return rational(CGAL::squared_distance(pt(p), K::Segment_2(pt(a), pt(b))));
}

// Both compare d² with r2 on intervals first (d² = cross² / length², compared as cross² against
// r2·length², no division), and exactly when the enclosures overlap.
int compare_squared_distance_to_line(const Vec2& p, const Vec2& a, const Vec2& b, const Rational& r2) {
  {
    CGAL::Protect_FPU_rounding<true> rounding;
    const IntervalPoint ia(a), ib(b), ip(p);
    if (auto order = certain_compare(CGAL::square(cross(ia, ib, ip)), enclosure(r2) * squared_distance(ia, ib)))
      return *order;
  }
  return static_cast<int>(CGAL::compare(CGAL::squared_distance(pt(p), K::Line_2(pt(a), pt(b))), r2));
}

int compare_squared_distance_to_segment(const Vec2& p, const Vec2& a, const Vec2& b, const Rational& r2) {
  {
    CGAL::Protect_FPU_rounding<true> rounding;
    const IntervalPoint ia(a), ib(b), ip(p);
    const Interval along = (ip.x - ia.x) * (ib.x - ia.x) + (ip.y - ia.y) * (ib.y - ia.y),
                   length = squared_distance(ia, ib);
    const Interval r = enclosure(r2);
    std::optional<int> order;
    if (along.sup() <= 0)  // nearest to a
      order = certain_compare(squared_distance(ia, ip), r);
    else if (along.inf() >= length.sup())  // nearest to b
      order = certain_compare(squared_distance(ib, ip), r);
    else if (along.inf() > 0 && along.sup() < length.inf())  // nearest to a point between
      order = certain_compare(CGAL::square(cross(ia, ib, ip)), r * length);
    if (order) return *order;
  }
  return static_cast<int>(CGAL::compare(CGAL::squared_distance(pt(p), K::Segment_2(pt(a), pt(b))), r2));
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

bool segment_enters_box(const Vec2& a, const Vec2& b, const Box& box) {
  const K::Iso_rectangle_2 rect(K::Point_2(box[0], box[1]), K::Point_2(box[2], box[3]));
  // A zero-length piece (a path that repeats a point) is a point: CGAL's segment clipping would
  // divide by its length.
  if (a == b) return rect.has_on_bounded_side(pt(a));
  const auto hit = CGAL::intersection(K::Segment_2(pt(a), pt(b)), rect);
  if (!hit) return false;
  const auto* piece = boost::get<K::Segment_2>(&*hit);
  if (!piece) return false;  // a single touching point
  // The clipped piece is convex inside the closed box: it reaches the interior iff its midpoint does.
  return rect.has_on_bounded_side(CGAL::midpoint(piece->source(), piece->target()));
}

Rational squared_distance_to_box(const Vec2& p, const Box& box) {
  const K::Iso_rectangle_2 rect(K::Point_2(box[0], box[1]), K::Point_2(box[2], box[3]));
  if (!rect.has_on_unbounded_side(pt(p))) return 0;
  Rational best = -1;
  for (int e = 0; e < 4; ++e) {
    const Rational d = rational(CGAL::squared_distance(pt(p), K::Segment_2(rect.vertex(e), rect.vertex(e + 1))));
    if (best < 0 || d < best) best = d;
  }
  return best;
}

namespace {
using Polygon = CGAL::Polygon_2<K>;
Polygon polygon_of(const std::vector<Vec2>& points) {
  Polygon polygon;
  for (const auto& p : points) polygon.push_back(pt(p));
  return polygon;
}
// The side of `p` by the even-odd rule, which is what Polygon_2::bounded_side computes too but
// without its precondition that the polygon be simple: shapes with a repeated vertex (a finding of
// their own) and hand-traced outlines that touch themselves are still regions here.
CGAL::Bounded_side side_of(const Polygon& polygon, const K::Point_2& p) {
  return CGAL::bounded_side_2(polygon.vertices_begin(), polygon.vertices_end(), p, K());
}
}  // namespace

bool region_has_point(const Region& region, const Vec2& p) {
  if (region.center) return CGAL::squared_distance(pt(p), pt(*region.center)) <= region.radius * region.radius;
  return side_of(polygon_of(region.polygon), pt(p)) != CGAL::ON_UNBOUNDED_SIDE;
}

bool region_contains(const Region& outer, const Region& inner) {
  if (outer.center && inner.center) {
    if (inner.radius > outer.radius) return false;
    const Rational gap = outer.radius - inner.radius;
    return CGAL::squared_distance(pt(*outer.center), pt(*inner.center)) <= gap * gap;
  }
  if (outer.center) {  // polygon in circle: its vertices in the disc
    for (const auto& v : inner.polygon)
      if (!region_has_point(outer, v)) return false;
    return true;
  }
  const Polygon out = polygon_of(outer.polygon);
  if (inner.center) {  // circle in polygon: centre inside, every edge at least r away
    if (side_of(out, pt(*inner.center)) != CGAL::ON_BOUNDED_SIDE) return false;
    for (auto e = out.edges_begin(); e != out.edges_end(); ++e)
      if (CGAL::squared_distance(pt(*inner.center), *e) < inner.radius * inner.radius) return false;
    return true;
  }
  for (const auto& v : inner.polygon)
    if (side_of(out, pt(v)) == CGAL::ON_UNBOUNDED_SIDE) return false;
  const Polygon in = polygon_of(inner.polygon);
  for (auto e = in.edges_begin(); e != in.edges_end(); ++e)
    for (auto f = out.edges_begin(); f != out.edges_end(); ++f) {
      const auto hit = CGAL::intersection(*e, *f);
      if (!hit) continue;
      const auto* x = boost::get<K::Point_2>(&*hit);
      // A proper crossing: at a point interior to both edges, not a shared vertex or touch.
      if (x && *x != e->source() && *x != e->target() && *x != f->source() && *x != f->target() &&
          CGAL::orientation(f->source(), f->target(), e->source()) !=
              CGAL::orientation(f->source(), f->target(), e->target()) &&
          CGAL::orientation(f->source(), f->target(), e->source()) != CGAL::COLLINEAR &&
          CGAL::orientation(f->source(), f->target(), e->target()) != CGAL::COLLINEAR)
        return false;
    }
  return true;
}

struct PointSet::Impl {
  std::vector<K::Point_2> exact;
  std::vector<IK::Point_2> approx;  // certified enclosures of `exact`
};

PointSet::PointSet(const std::vector<Vec2>& points) : impl_(std::make_unique<Impl>()) {
  impl_->exact.reserve(points.size());
  impl_->approx.reserve(points.size());
  for (const auto& p : points) {
    impl_->exact.push_back(pt(p));
    impl_->approx.push_back(ipt(p));
  }
}
PointSet::~PointSet() = default;
PointSet::PointSet(PointSet&&) noexcept = default;

std::vector<std::size_t> PointSet::near_segment(const Vec2& a, const Vec2& b, const Rational& r2) const {
  const K::Segment_2 segment(pt(a), pt(b));
  std::vector<std::size_t> out;
  CGAL::Protect_FPU_rounding<true> rounding;  // interval arithmetic needs upward rounding
  const IK::Segment_2 approx_segment(ipt(a), ipt(b));
  const IK::FT approx_r2 = CGAL::to_interval(r2);
  for (std::size_t i = 0; i < impl_->exact.size(); ++i) {
    // Fast path: the distance's enclosure decides; exact rationals only when it straddles r2.
    try {
      const IK::FT d2 = CGAL::squared_distance(impl_->approx[i], approx_segment);
      if (d2.inf() >= approx_r2.sup()) continue;
      if (d2.sup() < approx_r2.inf()) {
        out.push_back(i);
        continue;
      }
    } catch (const CGAL::Uncertain_conversion_exception&) {
    }
    if (CGAL::squared_distance(impl_->exact[i], segment) < r2) out.push_back(i);
  }
  return out;
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

int compare_root_gap(const Rational& x2, const Rational& y2, const Rational& eps) {
  // Filter: rationals to double (relative error ≤ 2⁻⁵³ each), a correctly rounded sqrt and one
  // subtraction stay far inside the 1e-9 relative margin; only gaps within it go to CORE.
  const double x = std::sqrt(x2.get_d()), y = std::sqrt(y2.get_d()), e = eps.get_d();
  const double gap = std::abs(x - y), margin = 1e-9 * (x + y + e) + 1e-300;
  if (gap > e + margin) return 1;
  if (gap < e - margin) return -1;
  const CORE::Expr gap_exact = CORE::abs(CORE::sqrt(expr(x2)) - CORE::sqrt(expr(y2)));
  return CORE::cmp(gap_exact, expr(eps));
}

int compare_circle_gap(const Vec2& p, const Vec2& c, const Rational& r2, const Rational& eps) {
  const Rational dx = p.x - c.x, dy = p.y - c.y;
  return compare_root_gap(dx * dx + dy * dy, r2, eps);
}

double circle_gap(const Vec2& p, const Vec2& c, const Rational& r2) {
  const double dx = to_double(p.x - c.x), dy = to_double(p.y - c.y);
  return std::abs(std::hypot(dx, dy) - std::sqrt(to_double(r2)));
}

GapDecision circle_circle_gap(const Vec2& c1, const Rational& r1_squared, const Vec2& c2, const Rational& r2_squared,
                              const FrameBands& bands) {
  const Rational dx = c1.x - c2.x, dy = c1.y - c2.y, d2 = dx * dx + dy * dy;
  const double d = std::sqrt(d2.get_d()), r1 = std::sqrt(r1_squared.get_d()), r2 = std::sqrt(r2_squared.get_d());
  const double gap = std::min(std::abs(d - r1 - r2), std::abs(d - std::abs(r1 - r2)));
  // Filter: each root's relative error is ~2⁻⁵³; 1e-9 of the sizes covers the sums.
  if (auto decision = bands.decide_filtered(gap, 1e-9 * (d + r1 + r2) + 1e-300)) return {*decision, bands.to_px(gap)};
  const CORE::Expr D = CORE::sqrt(expr(d2)), R1 = CORE::sqrt(expr(r1_squared)), R2 = CORE::sqrt(expr(r2_squared));
  const CORE::Expr apart = CORE::abs(D - R1 - R2), nested = CORE::abs(D - CORE::abs(R1 - R2));
  const CORE::Expr exact = CORE::cmp(apart, nested) <= 0 ? apart : nested;
  return {FrameBands::decide(CORE::cmp(exact, expr(bands.eps_num())), CORE::cmp(exact, expr(bands.eps_vis()))),
          bands.to_px(gap)};
}

GapDecision circle_segment_gap(const Vec2& c, const Rational& r_squared, const Vec2& a, const Vec2& b,
                               const FrameBands& bands) {
  const Rational d2 = squared_distance_to_segment(c, a, b);
  const int versus_num = compare_root_gap(d2, r_squared, bands.eps_num());
  const Decision decision = versus_num <= 0
                                ? Decision::holds
                                : FrameBands::decide(versus_num, compare_root_gap(d2, r_squared, bands.eps_vis()));
  return {decision, bands.to_px(std::abs(std::sqrt(d2.get_d()) - std::sqrt(r_squared.get_d())))};
}

}  // namespace geotruth::geometry
