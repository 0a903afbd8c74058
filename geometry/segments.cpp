// Filtered queries over many segments (see segments.hpp). Intervals come from CGAL's Interval_nt
// (upward rounding, set once per query); exact work is plain GMP on integers, or the exact
// predicates of predicates.cpp for the rare undecided case.
#include "geometry/segments.hpp"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cmath>
#include <geotruth/work_limit.hpp>
#include <numeric>
#include <optional>

#include "geometry/intervals.hpp"
#include "geometry/predicates.hpp"

namespace geotruth::geometry {

// Points on a common decimal grid (Geometry3K's and most annotations' coordinates are decimals):
// each coordinate times one scale is an integer below 2⁶², so differences fit in 64 bits and
// the products the spread compares fit in 128: exact without GMP.
struct GridPoint {
  std::int64_t x, y;
};

namespace {

// The sign of an interval when it is certain.
std::optional<int> certain_sign(const Interval& v) {
  if (v.inf() > 0) return 1;
  if (v.sup() < 0) return -1;
  if (v.inf() == 0 && v.sup() == 0) return 0;
  return std::nullopt;
}

// The line through a segment as A·x + B·y = C with integer coefficients (the rational ones times
// their denominators' common multiple): crossing points need no gcd until the very end.
struct IntegerLine {
  mpz_class a, b, c;
  IntegerLine(const Vec2& from, const Vec2& to) {
    const Rational qa = to.y - from.y, qb = from.x - to.x, qc = qa * from.x + qb * from.y;
    mpz_class scale;
    mpz_lcm(scale.get_mpz_t(), qa.get_den_mpz_t(), qb.get_den_mpz_t());
    mpz_lcm(scale.get_mpz_t(), scale.get_mpz_t(), qc.get_den_mpz_t());
    a = qa.get_num() * (scale / qa.get_den());
    b = qb.get_num() * (scale / qb.get_den());
    c = qc.get_num() * (scale / qc.get_den());
  }
};

}  // namespace

struct SegmentSet::Impl {
  struct Entry {
    EndPoints exact;
    IntervalPoint a, b;
    double x0, y0, x1, y1;  // a box that surely holds the segment
    IntegerLine line;
  };
  std::vector<std::optional<Entry>> entries;
  std::vector<std::size_t> by_left;  // present entries by the left edge of their box

  // Pairs i < j (increasing) whose boxes, each grown by `margin`, overlap.
  template <typename Visit>
  void overlapping_boxes(double margin, Visit&& visit) const {
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t k = 0; k < by_left.size(); ++k) {
      const Entry& left = *entries[by_left[k]];
      for (std::size_t m = k + 1; m < by_left.size(); ++m) {
        const Entry& right = *entries[by_left[m]];
        if (right.x0 > left.x1 + margin) break;  // rounded upwards: never too small
        charge_work();
        if (right.y0 <= left.y1 + margin && left.y0 <= right.y1 + margin)
          pairs.push_back(std::minmax(by_left[k], by_left[m]));
      }
    }
    std::sort(pairs.begin(), pairs.end());
    for (const auto& [i, j] : pairs) visit(i, j);
  }

  // Whether some end of `shorter` is clearly farther than √r2 from `longer`'s line.
  static bool clearly_off_line(const Entry& longer, const Entry& shorter, const Interval& r2) {
    const Interval dx = longer.b.x - longer.a.x, dy = longer.b.y - longer.a.y;
    const Interval reach = r2 * (dx * dx + dy * dy);  // squared distance × squared length
    for (const IntervalPoint* end : {&shorter.a, &shorter.b})
      if (CGAL::square(cross(longer.a, longer.b, *end)).inf() > reach.sup()) return true;
    return false;
  }

  // The one point where the lines of i and j cross, from their integer equations.
  Vec2 crossing_point(std::size_t i, std::size_t j) const {
    const IntegerLine &p = entries[i]->line, &q = entries[j]->line;
    const mpz_class det = p.a * q.b - q.a * p.b;
    Vec2 at{Rational(p.c * q.b - q.c * p.b, det), Rational(p.a * q.c - q.a * p.c, det)};
    at.x.canonicalize();
    at.y.canonicalize();
    return at;
  }
};

SegmentSet::SegmentSet(const std::vector<std::optional<EndPoints>>& segments) : impl_(std::make_unique<Impl>()) {
  impl_->entries.reserve(segments.size());
  for (const auto& s : segments) {
    if (!s) {
      impl_->entries.emplace_back();
      continue;
    }
    const auto [from, to] = *s;
    const IntervalPoint a(*from), b(*to);
    impl_->entries.push_back(Impl::Entry{*s, a, b, std::min(a.x.inf(), b.x.inf()), std::min(a.y.inf(), b.y.inf()),
                                         std::max(a.x.sup(), b.x.sup()), std::max(a.y.sup(), b.y.sup()),
                                         IntegerLine(*from, *to)});
    impl_->by_left.push_back(impl_->entries.size() - 1);
  }
  std::stable_sort(impl_->by_left.begin(), impl_->by_left.end(),
                   [&](std::size_t i, std::size_t j) { return impl_->entries[i]->x0 < impl_->entries[j]->x0; });
}

SegmentSet::~SegmentSet() = default;

std::vector<std::pair<std::size_t, std::size_t>> SegmentSet::maybe_collinear_pairs(const Rational& r2) const {
  CGAL::Protect_FPU_rounding<true> rounding;
  const Interval r2_enclosure = enclosure(r2);
  std::vector<std::pair<std::size_t, std::size_t>> out;
  impl_->overlapping_boxes(CGAL::sqrt(r2_enclosure).sup(), [&](std::size_t i, std::size_t j) {
    const auto &s = *impl_->entries[i], &t = *impl_->entries[j];
    // Either may turn out the longer one: left out only when both ways clearly fail.
    if (!Impl::clearly_off_line(s, t, r2_enclosure) || !Impl::clearly_off_line(t, s, r2_enclosure))
      out.emplace_back(i, j);
  });
  return out;
}

std::vector<SegmentCrossing> SegmentSet::crossings() const {
  CGAL::Protect_FPU_rounding<true> rounding;
  // The pairs first, in the order found, then their points into a list of the right size: a
  // growing list of exact points would copy each point at every growth (moving a GMP rational
  // allocates, so a vector copies them).
  struct Pair {
    std::size_t i, j;
    bool proper;  // a proper crossing; else an end on the other segment, collinear, or too close to tell
  };
  std::vector<Pair> pairs;
  impl_->overlapping_boxes(0, [&](std::size_t i, std::size_t j) {
    const auto &s = *impl_->entries[i], &t = *impl_->entries[j];
    const auto c = certain_sign(cross(s.a, s.b, t.a)), d = certain_sign(cross(s.a, s.b, t.b));
    const auto a = certain_sign(cross(t.a, t.b, s.a)), b = certain_sign(cross(t.a, t.b, s.b));
    auto same_side = [](std::optional<int> u, std::optional<int> v) { return u && v && *u != 0 && *u == *v; };
    if (same_side(c, d) || same_side(a, b)) return;  // clearly apart
    auto opposite = [](std::optional<int> u, std::optional<int> v) { return u && v && *u != 0 && *u == -*v; };
    pairs.push_back({i, j, opposite(c, d) && opposite(a, b)});
  });
  std::vector<SegmentCrossing> out;
  out.reserve(pairs.size());
  for (const auto& [i, j, proper] : pairs) {
    if (proper) {
      out.push_back({i, j, impl_->crossing_point(i, j)});
      continue;
    }
    const auto &s = *impl_->entries[i], &t = *impl_->entries[j];  // decided exactly
    if (auto x = segment_crossing(*s.exact.first, *s.exact.second, *t.exact.first, *t.exact.second))
      out.push_back({i, j, std::move(*x)});
  }
  return out;
}

namespace {

// The index of the largest of n values (the first of equal ones), each known by an enclosure and,
// when enclosures overlap, exactly (as any type ordered like the values). A value must exceed
// `floor` (exactly) to count.
template <typename Value, typename Approx, typename Exact>
std::optional<std::size_t> first_largest(std::size_t n, const Value& floor, const Interval& floor_approx,
                                         Approx&& approx, Exact&& exact) {
  boost::container::small_vector<Interval, 16> values(n);
  for (std::size_t k = 0; k < n; ++k) values[k] = approx(k);
  Interval best_approx = floor_approx;
  // Usually one value's enclosure lies above every other and the floor: it is the largest.
  std::size_t top = 0;
  for (std::size_t k = 1; k < n; ++k)
    if (values[k].inf() > values[top].inf()) top = k;
  bool clear = n > 0 && values[top].inf() > best_approx.sup();
  for (std::size_t k = 0; k < n && clear; ++k) clear = k == top || values[k].sup() < values[top].inf();
  if (clear) return top;
  // Otherwise one at a time, exactly where two enclosures overlap.
  std::optional<std::size_t> best;
  std::optional<Value> best_exact;
  for (std::size_t k = 0; k < n; ++k) {
    std::optional<int> order = certain_compare(values[k], best_approx);
    if (!order) {
      if (!best_exact) best_exact = best ? exact(*best) : floor;
      Value value_exact = exact(k);
      order = value_exact > *best_exact ? 1 : -1;
      if (*order > 0) best_exact = std::move(value_exact);
    } else if (*order > 0) {
      best_exact.reset();
    }
    if (*order > 0) best = k, best_approx = values[k];
  }
  return best;
}

__extension__ using Int128 = __int128;
__extension__ using Uint128 = unsigned __int128;

std::optional<std::vector<GridPoint>> on_common_grid(const std::vector<const Vec2*>& points) {
  mpz_class scale = 1, scaled;
  for (const Vec2* p : points)
    if (p)
      for (const Rational* c : {&p->x, &p->y})
        if (!mpz_divisible_p(scale.get_mpz_t(), c->get_den_mpz_t()))
          mpz_lcm(scale.get_mpz_t(), scale.get_mpz_t(), c->get_den_mpz_t());
  constexpr long kLimit = long{1} << 62;
  std::vector<GridPoint> out(points.size(), GridPoint{0, 0});
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (!points[k]) continue;
    std::int64_t on_grid[2];
    for (int axis = 0; axis < 2; ++axis) {
      const Rational& c = axis == 0 ? points[k]->x : points[k]->y;
      mpz_divexact(scaled.get_mpz_t(), scale.get_mpz_t(), c.get_den_mpz_t());
      scaled *= c.get_num();
      if (!mpz_fits_slong_p(scaled.get_mpz_t())) return std::nullopt;
      on_grid[axis] = mpz_get_si(scaled.get_mpz_t());
      if (on_grid[axis] >= kLimit || on_grid[axis] <= -kLimit) return std::nullopt;
    }
    out[k] = {on_grid[0], on_grid[1]};
  }
  return out;
}

// |(b − a) × (p − a)| on the grid (differences below 2⁶³: below 2¹²⁷).
Uint128 grid_cross(const GridPoint& a, const GridPoint& b, const GridPoint& p) {
  const Int128 c = Int128(b.x - a.x) * (p.y - a.y) - Int128(b.y - a.y) * (p.x - a.x);
  return c < 0 ? -c : c;
}

Uint128 grid_squared_distance(const GridPoint& a, const GridPoint& b) {
  const Int128 dx = b.x - a.x, dy = b.y - a.y;
  return dx * dx + dy * dy;
}

// The sign of u²·v − w²·x, in up to 384 bits on GMP's limb layer (no allocation).
int compare_square_products(Uint128 u, Uint128 v, Uint128 w, Uint128 x) {
  static_assert(GMP_LIMB_BITS == 64);
  auto product = [](Uint128 square_of, Uint128 times, mp_limb_t(&out)[6]) {
    const mp_limb_t s[2] = {static_cast<mp_limb_t>(square_of), static_cast<mp_limb_t>(square_of >> 64)};
    const mp_limb_t t[2] = {static_cast<mp_limb_t>(times), static_cast<mp_limb_t>(times >> 64)};
    mp_limb_t square[4];
    mpn_sqr(square, s, 2);
    mpn_mul(out, square, 4, t, 2);
  };
  mp_limb_t left[6], right[6];
  product(u, v, left);
  product(w, x, right);
  return mpn_cmp(left, right, 6);
}

}  // namespace

struct PlacedPoints::Impl {
  std::vector<const Vec2*> exact;
  std::vector<std::optional<IntervalPoint>> approx;
  // The points on a common grid, found the first time an exact answer is needed (then empty
  // when they are not on one).
  mutable std::optional<std::optional<std::vector<GridPoint>>> grid;
  const std::vector<GridPoint>* grid_points() const {
    if (!grid) grid = on_common_grid(exact);
    return *grid ? &**grid : nullptr;
  }
};

PlacedPoints::PlacedPoints(std::vector<const Vec2*> points) : impl_(std::make_unique<Impl>()) {
  impl_->approx.reserve(points.size());
  for (const Vec2* p : points) impl_->approx.push_back(p ? std::optional<IntervalPoint>(*p) : std::nullopt);
  impl_->exact = std::move(points);
}

PlacedPoints::~PlacedPoints() = default;

Spread PlacedPoints::spread(const std::vector<std::size_t>& indices) const {
  Spread result;
  boost::container::small_vector<std::size_t, 16> placed;  // positions in `indices`
  for (std::size_t k = 0; k < indices.size(); ++k)
    if (impl_->exact[indices[k]]) placed.push_back(k);
  if (placed.size() < 3) return result;
  auto exact = [&](std::size_t k) -> const Vec2& { return *impl_->exact[indices[placed[k]]]; };
  auto approx = [&](std::size_t k) -> const IntervalPoint& { return *impl_->approx[indices[placed[k]]]; };
  CGAL::Protect_FPU_rounding<true> rounding;
  const std::vector<GridPoint>* grid = impl_->grid_points();
  auto on_grid = [&](std::size_t k) -> const GridPoint& { return (*grid)[indices[placed[k]]]; };
  auto farthest_from = [&](std::size_t from) {
    auto approx_distance = [&](std::size_t k) {
      return k == from ? Interval(-1) : squared_distance(approx(from), approx(k));
    };
    if (grid)
      return first_largest(placed.size(), Uint128(0), Interval(0), approx_distance,
                           [&](std::size_t k) { return grid_squared_distance(on_grid(from), on_grid(k)); })
          .value_or(from);
    return first_largest(placed.size(), Rational(0), Interval(0), approx_distance,
                         [&](std::size_t k) {
                           const Rational dx = exact(k).x - exact(from).x, dy = exact(k).y - exact(from).y;
                           return Rational(dx * dx + dy * dy);
                         })
        .value_or(from);
  };
  const std::size_t first = farthest_from(0), second = farthest_from(first);
  result.first = placed[first], result.second = placed[second];
  if (first == second) return result;
  const std::size_t a = std::min(first, second), b = std::max(first, second);
  // Squared distances to the line are cross² / length², the same length for every point: cross²
  // (on the grid: |cross|) orders them. A point is not farther than 0 from itself, nor the
  // extremes from their line (their enclosure, −1, says so without an exact zero).
  auto approx_cross2 = [&](std::size_t k) {
    return k == a || k == b ? Interval(-1) : CGAL::square(cross(approx(a), approx(b), approx(k)));
  };
  const auto worst = grid ? first_largest(placed.size(), Uint128(0), Interval(0), approx_cross2,
                                          [&](std::size_t k) { return grid_cross(on_grid(a), on_grid(b), on_grid(k)); })
                          : first_largest(placed.size(), Rational(0), Interval(0), approx_cross2, [&](std::size_t k) {
                              const Rational c = (exact(b).x - exact(a).x) * (exact(k).y - exact(a).y) -
                                                 (exact(b).y - exact(a).y) * (exact(k).x - exact(a).x);
                              return Rational(c * c);
                            });
  if ((result.grid_ = grid)) {
    result.grid_a_ = &on_grid(a), result.grid_b_ = &on_grid(b);
    if (worst) result.grid_off_ = &on_grid(*worst);
  }
  if (!worst) return result;
  result.worst = placed[*worst];
  result.a_ = &exact(a), result.b_ = &exact(b), result.off_ = &exact(*worst);
  const Interval off =
      CGAL::square(cross(approx(a), approx(b), approx(*worst))) / squared_distance(approx(a), approx(b));
  result.low_ = off.inf(), result.high_ = off.sup();
  return result;
}

int Spread::compare_off(const Rational& r2) const {
  {
    CGAL::Protect_FPU_rounding<true> rounding;
    if (auto order = certain_compare(Interval(low_, high_), enclosure(r2))) return *order;
  }
  return squared_off() < r2 ? -1 : squared_off() > r2 ? 1 : 0;
}

bool Spread::less_off(const Spread& other) const {
  if (a_ == other.a_ && b_ == other.b_ && off_ == other.off_) return false;  // the same points: equal
  if (auto order = certain_compare(Interval(low_, high_), Interval(other.low_, other.high_))) return *order < 0;
  if (grid_ && grid_ == other.grid_) {
    // cross² / length² against the other's, cross multiplied.
    auto cross = [](const Spread& s) { return s.grid_off_ ? grid_cross(*s.grid_a_, *s.grid_b_, *s.grid_off_) : 0; };
    return compare_square_products(cross(*this), grid_squared_distance(*other.grid_a_, *other.grid_b_), cross(other),
                                   grid_squared_distance(*grid_a_, *grid_b_)) < 0;
  }
  return squared_off() < other.squared_off();
}

bool Spread::has_off() const {
  return off_ != nullptr;
}

const Rational& Spread::squared_off() const {
  if (!exact_) exact_ = off_ ? squared_distance_to_line(*off_, *a_, *b_) : Rational(0);
  return *exact_;
}

void PlacedPoints::sort_along(const Vec2& a, const Vec2& b, std::vector<std::size_t>& indices) const {
  if (indices.size() < 2) return;
  // Keys (p − a)·(b − a): enclosed in intervals, exact only when two enclosures overlap.
  boost::container::small_vector<Interval, 16> approx(indices.size());
  {
    CGAL::Protect_FPU_rounding<true> rounding;
    const IntervalPoint from(a), to(b);
    const Interval dx = to.x - from.x, dy = to.y - from.y;
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const IntervalPoint& p = *impl_->approx[indices[k]];
      approx[k] = (p.x - from.x) * dx + (p.y - from.y) * dy;
    }
  }
  std::optional<std::pair<Rational, Rational>> direction;  // b − a, when an exact key is needed
  std::vector<std::optional<Rational>> exact;
  auto exact_key = [&](std::size_t k) -> const Rational& {
    if (!direction) direction.emplace(b.x - a.x, b.y - a.y), exact.resize(indices.size());
    if (!exact[k]) {
      const Vec2& p = *impl_->exact[indices[k]];
      exact[k] = (p.x - a.x) * direction->first + (p.y - a.y) * direction->second;
    }
    return *exact[k];
  };
  auto compare_keys = [&](std::size_t k, std::size_t m) {
    if (auto order = certain_compare(approx[k], approx[m])) return *order;
    if (*impl_->exact[indices[k]] == *impl_->exact[indices[m]]) return 0;  // one place (pieces' shared ends)
    return cmp(exact_key(k), exact_key(m));
  };
  // By key, then by place in `indices`: a stable order without std::stable_sort's buffer.
  boost::container::small_vector<std::size_t, 16> order(indices.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t k, std::size_t m) {
    const int c = compare_keys(k, m);
    return c < 0 || (c == 0 && k < m);
  });
  const boost::container::small_vector<std::size_t, 16> unsorted(indices.begin(), indices.end());
  for (std::size_t k = 0; k < order.size(); ++k) indices[k] = unsorted[order[k]];
}

void sort_along(const std::vector<const Vec2*>& points, const Vec2& a, const Vec2& b,
                std::vector<std::size_t>& indices) {
  if (indices.size() < 2) return;
  PlacedPoints(points).sort_along(a, b, indices);
}

}  // namespace geotruth::geometry
