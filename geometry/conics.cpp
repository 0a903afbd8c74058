#include "geometry/conics.hpp"

#include <cmath>
#include <vector>

namespace geotruth::geometry {
namespace {

// A polynomial with rational coefficients, lowest degree first, without trailing zeros (the
// zero polynomial is empty).
using Poly = std::vector<Rational>;

void trim(Poly& p) {
  while (!p.empty() && p.back() == 0) p.pop_back();
}
int degree(const Poly& p) {
  return static_cast<int>(p.size()) - 1;
}
Poly add(const Poly& a, const Poly& b) {
  Poly out(std::max(a.size(), b.size()), Rational(0));
  for (std::size_t i = 0; i < a.size(); ++i) out[i] += a[i];
  for (std::size_t i = 0; i < b.size(); ++i) out[i] += b[i];
  trim(out);
  return out;
}
Poly times(const Poly& p, const Rational& k) {
  Poly out;
  for (const auto& c : p) out.push_back(c * k);
  trim(out);
  return out;
}
Poly times(const Poly& a, const Poly& b) {
  if (a.empty() || b.empty()) return {};
  Poly out(a.size() + b.size() - 1, Rational(0));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) out[i + j] += a[i] * b[j];
  trim(out);
  return out;
}
Poly derivative(const Poly& p) {
  Poly out;
  for (std::size_t i = 1; i < p.size(); ++i) out.push_back(p[i] * static_cast<long>(i));
  trim(out);
  return out;
}
Rational value_at(const Poly& p, const Rational& x) {
  Rational v = 0;
  for (std::size_t i = p.size(); i-- > 0;) v = v * x + p[i];
  return v;
}
Poly remainder(Poly a, const Poly& b) {
  while (!a.empty() && degree(a) >= degree(b)) {
    const Rational factor = a.back() / b.back();
    const std::size_t shift = a.size() - b.size();
    for (std::size_t i = 0; i < b.size(); ++i) a[i + shift] -= factor * b[i];
    a.pop_back();  // its coefficient is now 0
    trim(a);
  }
  return a;
}
Poly gcd(Poly a, Poly b) {
  while (!b.empty()) {
    Poly r = remainder(a, b);
    a = std::move(b);
    b = std::move(r);
  }
  return times(a, Rational(1) / a.back());
}
// p / (x − root), for a root of p (synthetic division).
Poly deflate(const Poly& p, const Rational& root) {
  Poly out(p.size() - 1, Rational(0));
  Rational carry = 0;
  for (std::size_t i = p.size(); i-- > 1;) {
    carry = carry * root + p[i];
    out[i - 1] = carry;
  }
  trim(out);
  return out;
}

// An end of an interval of the parameter: a rational, or infinite (nullopt: −∞ as a lower end,
// +∞ as an upper end).
using End = std::optional<Rational>;

int sign_at(const Poly& p, const End& x, bool upper) {
  if (p.empty()) return 0;
  if (x) return sgn(value_at(p, *x));
  const int lead = sgn(p.back());
  return upper || degree(p) % 2 == 0 ? lead : -lead;
}

// Distinct real roots of p (not zero) strictly between lo and hi, by Sturm's theorem.
// Precondition: neither finite end is a root.
int distinct_roots_between(const Poly& p, const End& lo, const End& hi) {
  std::vector<Poly> chain{p, derivative(p)};
  while (!chain.back().empty()) chain.push_back(times(remainder(chain[chain.size() - 2], chain.back()), Rational(-1)));
  auto changes = [&](const End& x, bool upper) {
    int count = 0, last = 0;
    for (const auto& q : chain) {
      const int s = sign_at(q, x, upper);
      if (s == 0) continue;
      if (last != 0 && s != last) ++count;
      last = s;
    }
    return count;
  };
  return changes(lo, false) - changes(hi, true);
}

// Real roots of p (not zero) in the closed interval [lo, hi] (lo ≤ hi), with multiplicity.
int roots_between(Poly p, const End& lo, const End& hi) {
  int count = 0;
  if (lo && hi && *lo == *hi) {  // a single point: its multiplicity
    while (!p.empty() && value_at(p, *lo) == 0) p = deflate(p, *lo), ++count;
    return count;
  }
  for (const End& end : {lo, hi})  // roots at the ends, divided out
    if (end)
      while (!p.empty() && value_at(p, *end) == 0) p = deflate(p, *end), ++count;
  // A root of multiplicity m is a root of g₀ = p, g₁ = gcd(g₀, g₀′), …, g_{m−1}: once each.
  while (degree(p) > 0) {
    count += distinct_roots_between(p, lo, hi);
    p = gcd(p, derivative(p));
  }
  return count;
}

// A curve (X(t)/W(t), Y(t)/W(t)).
struct Curve {
  Poly x, y, w;
};

Curve segment_curve(const Vec2& p, const Vec2& q) {
  Poly x{p.x, q.x - p.x}, y{p.y, q.y - p.y};
  trim(x), trim(y);
  return {x, y, {Rational(1)}};
}

// c + a·(1 − s²)/(1 + s²)·e1 + b·2s/(1 + s²)·e2; s = ∞ is c − a·e1.
Curve ellipse_curve(const ExactEllipse& e) {
  const Poly w{1, 0, 1}, cosine{1, 0, -1}, sine{0, 2};
  auto coordinate = [&](const Rational& c, const Rational& e1, const Rational& e2) {
    return add(add(times(w, c), times(cosine, e.a * e1)), times(sine, e.b * e2));
  };
  return {coordinate(e.centre.x, e.e1.x, e.e2.x), coordinate(e.centre.y, e.e1.y, e.e2.y), w};
}

// The ellipse's equation on the curve, cleared of denominators:
// b²((P − c)·e1)² + a²((P − c)·e2)² − a²b², times W².
Poly ellipse_equation_on(const ExactEllipse& e, const Curve& curve) {
  const Poly u = add(curve.x, times(curve.w, -e.centre.x)), v = add(curve.y, times(curve.w, -e.centre.y));
  const Poly along = add(times(u, e.e1.x), times(v, e.e1.y)), across = add(times(u, e.e2.x), times(v, e.e2.y));
  const Rational a2 = e.a * e.a, b2 = e.b * e.b;
  return add(add(times(times(along, along), b2), times(times(across, across), a2)),
             times(times(curve.w, curve.w), -(a2 * b2)));
}

// The arc as part of its circle's curve: e1 points away from its start, so s = ∞ is the start and
// s runs from −∞ to the end, tan(φ/2) for the end's angle φ ∈ (−π, π] from e1.
struct ArcCurve {
  ExactEllipse circle;
  End end;  // nullopt: the full circle
};
ArcCurve arc_curve(const ExactArc& arc) {
  ArcCurve out{{arc.centre, arc.r, arc.r, {-arc.from.x, -arc.from.y}, {arc.from.y, -arc.from.x}}, std::nullopt};
  const Rational along = arc.to.x * out.circle.e1.x + arc.to.y * out.circle.e1.y;
  const Rational across = arc.to.x * out.circle.e2.x + arc.to.y * out.circle.e2.y;
  if (along != -1) out.end = across / (1 + along);
  return out;
}

// Roots of f on a closed curve parametrized over ℝ ∪ {∞} (degree ≤ 4), up to `end`, plus the
// point at infinity with its multiplicity 4 − deg f.
int closed_curve_roots(const Poly& f, const End& end) {
  return roots_between(f, std::nullopt, end) + (4 - degree(f));
}

// p divided by q, exactly (q divides p).
Poly exact_quotient(Poly p, const Poly& q) {
  Poly out(p.size() - q.size() + 1, Rational(0));
  while (!p.empty() && degree(p) >= degree(q)) {
    const Rational factor = p.back() / q.back();
    const std::size_t shift = p.size() - q.size();
    out[shift] = factor;
    for (std::size_t i = 0; i < q.size(); ++i) p[i + shift] -= factor * q[i];
    p.pop_back();
    trim(p);
  }
  trim(out);
  return out;
}

// A polynomial with integer coefficients (a positive multiple of a rational one): its sign at a
// dyadic point m / 2^k is the sign of Σ aᵢ mⁱ 2^(k(n−i)), by Horner's rule in integers (no gcd).
using IntPoly = std::vector<mpz_class>;
IntPoly integer_multiple(const Poly& p) {
  mpz_class scale = 1;
  for (const auto& c : p) mpz_lcm(scale.get_mpz_t(), scale.get_mpz_t(), c.get_den_mpz_t());
  IntPoly out;
  for (const auto& c : p) out.push_back(c.get_num() * (scale / c.get_den()));
  return out;
}
int sign_at_dyadic(const IntPoly& p, const mpz_class& m, unsigned k) {
  if (p.empty()) return 0;
  mpz_class v = p.back(), term;
  for (std::size_t i = p.size() - 1; i-- > 0;) {
    mpz_mul_2exp(term.get_mpz_t(), p[i].get_mpz_t(), k * static_cast<unsigned>(p.size() - 1 - i));
    v = v * m + term;
  }
  return sgn(v);
}

// A positive multiple of a mod b over the integers, primitive (pseudo-division: each step scales
// a by b's leading coefficient; the sign is put back when that scaling was negative).
IntPoly pseudo_remainder(IntPoly a, const IntPoly& b) {
  const mpz_class& lead = b.back();
  int steps = 0;
  while (!a.empty() && a.size() >= b.size()) {
    const mpz_class factor = a.back();
    const std::size_t shift = a.size() - b.size();
    for (auto& c : a) c *= lead;
    for (std::size_t i = 0; i < b.size(); ++i) a[i + shift] -= factor * b[i];
    a.pop_back();
    while (!a.empty() && a.back() == 0) a.pop_back();
    ++steps;
  }
  if (lead < 0 && steps % 2 == 1)
    for (auto& c : a) c = -c;
  mpz_class content = 0;
  for (const auto& c : a) mpz_gcd(content.get_mpz_t(), content.get_mpz_t(), c.get_mpz_t());
  if (content > 1)
    for (auto& c : a) mpz_divexact(c.get_mpz_t(), c.get_mpz_t(), content.get_mpz_t());
  return a;
}

IntPoly integer_derivative(const IntPoly& p) {
  IntPoly out;
  for (std::size_t i = 1; i < p.size(); ++i) out.push_back(p[i] * static_cast<unsigned long>(i));
  return out;
}

// Sturm's sequence of p over the integers, each member a positive multiple of the classical one.
std::vector<IntPoly> sturm_sequence(const IntPoly& p) {
  std::vector<IntPoly> chain{p, integer_derivative(p)};
  while (!chain.back().empty()) {
    IntPoly next = pseudo_remainder(chain[chain.size() - 2], chain.back());
    for (auto& c : next) c = -c;
    chain.push_back(std::move(next));
  }
  chain.pop_back();
  return chain;
}

Poly as_rational(const IntPoly& p) {
  Poly out;
  for (const auto& c : p) out.push_back(Rational(c));
  return out;
}

// The distinct real roots of p (not zero), each as a dyadic rational within 2⁻⁸⁰ of it: the
// Sturm sequence of p's square-free part, evaluated exactly at dyadic points m / 2⁸⁰ in integers,
// counts the roots in each interval (a, b]; intervals are halved until each holds one root and
// is one step wide. Every point lies inside the Cauchy bound 1 + max |aᵢ / aₙ|.
std::vector<Rational> real_roots(const Poly& p) {
  std::vector<IntPoly> sturm = sturm_sequence(integer_multiple(p));
  if (sturm.back().size() > 1)  // p has repeated roots: the sequence of p / gcd(p, p′)
    sturm = sturm_sequence(integer_multiple(exact_quotient(p, as_rational(sturm.back()))));
  std::vector<Rational> out;
  const IntPoly& f = sturm.front();
  if (f.size() < 2) return out;
  constexpr unsigned kBits = 80;
  auto changes = [&](const mpz_class& m) {  // zeros dropped: the count just right of m
    int count = 0, last = 0;
    for (const auto& q : sturm) {
      const int s = sign_at_dyadic(q, m, kBits);
      if (s == 0) continue;
      if (last != 0 && s != last) ++count;
      last = s;
    }
    return count;
  };
  mpz_class bound = 1;  // ⌈max |aᵢ / aₙ|⌉
  for (std::size_t i = 0; i + 1 < f.size(); ++i) {
    mpz_class q;
    mpz_cdiv_q(q.get_mpz_t(), mpz_class(abs(f[i])).get_mpz_t(), mpz_class(abs(f.back())).get_mpz_t());
    bound = std::max(bound, q);
  }
  const mpz_class edge = (bound + 2) << kBits;
  struct Interval {
    mpz_class lo, hi;
    int v_lo, v_hi;
  };
  std::vector<Interval> pending{{-edge, edge, changes(-edge), changes(edge)}};
  while (!pending.empty()) {
    const Interval i = pending.back();
    pending.pop_back();
    if (i.v_lo - i.v_hi <= 0) continue;
    if (i.hi - i.lo <= 1) {  // one step wide: its root is within 2⁻⁸⁰ of its right end
      Rational root(i.hi, mpz_class(1) << kBits);
      root.canonicalize();
      out.push_back(root);
      continue;
    }
    const mpz_class mid = (i.lo + i.hi) / 2;
    const int v_mid = changes(mid);
    pending.push_back({i.lo, mid, i.v_lo, v_mid});
    pending.push_back({mid, i.hi, v_mid, i.v_hi});
  }
  return out;
}

}  // namespace

bool ellipse_has_point(const ExactEllipse& e, const Vec2& p) {
  const Rational dx = p.x - e.centre.x, dy = p.y - e.centre.y;
  const Rational along = dx * e.e1.x + dy * e.e1.y, across = dx * e.e2.x + dy * e.e2.y;
  return along * along * e.b * e.b + across * across * e.a * e.a <= e.a * e.a * e.b * e.b;
}

int segment_ellipse_crossings(const Vec2& p, const Vec2& q, const ExactEllipse& e) {
  return roots_between(ellipse_equation_on(e, segment_curve(p, q)), Rational(0), Rational(1));
}

std::optional<int> ellipse_ellipse_crossings(const ExactEllipse& a, const ExactEllipse& b) {
  const Poly f = ellipse_equation_on(b, ellipse_curve(a));
  if (f.empty()) return std::nullopt;
  return closed_curve_roots(f, std::nullopt);
}

std::optional<int> arc_ellipse_crossings(const ExactArc& arc, const ExactEllipse& e) {
  const ArcCurve curve = arc_curve(arc);
  const Poly f = ellipse_equation_on(e, ellipse_curve(curve.circle));
  if (f.empty()) return std::nullopt;
  return closed_curve_roots(f, curve.end);
}

int arc_segment_crossings(const ExactArc& arc, const Vec2& p, const Vec2& q) {
  const Poly f = ellipse_equation_on({arc.centre, arc.r, arc.r}, segment_curve(p, q));
  // Which t ∈ [0, 1] lie on the arc's side of a ray through the centre: cross(d, P(t) − c) ≥ 0
  // is linear in t, so each side is an interval of t.
  using Interval = std::pair<Rational, Rational>;
  auto side = [&](const Vec2& d, int sign) -> std::optional<Interval> {
    const Rational l0 = sign * (d.x * (p.y - arc.centre.y) - d.y * (p.x - arc.centre.x));
    const Rational l1 = sign * (d.x * (q.y - p.y) - d.y * (q.x - p.x));
    if (l1 == 0) return l0 >= 0 ? std::optional<Interval>(Interval{0, 1}) : std::nullopt;
    const Rational t = -l0 / l1;
    const Interval out = l1 > 0 ? Interval{std::max(t, Rational(0)), 1} : Interval{0, std::min(t, Rational(1))};
    return out.first <= out.second ? std::optional<Interval>(out) : std::nullopt;
  };
  auto count = [&](const std::optional<Interval>& i) { return i ? roots_between(f, i->first, i->second) : 0; };
  const Rational turn = arc.from.x * arc.to.y - arc.from.y * arc.to.x;
  const Rational along = arc.from.x * arc.to.x + arc.from.y * arc.to.y;
  if (turn == 0 && along > 0) return count(Interval{0, 1});  // the full circle
  const auto after_start = side(arc.from, 1), before_end = side(arc.to, -1);
  if (turn > 0 || (turn == 0 && along < 0)) {  // at most half a turn: both sides
    if (!after_start || !before_end) return 0;
    const Interval both{std::max(after_start->first, before_end->first),
                        std::min(after_start->second, before_end->second)};
    return both.first <= both.second ? count(both) : 0;
  }
  // More than half a turn: either side. Two intervals of [0, 1] that overlap are one.
  if (!after_start || !before_end) return count(after_start ? after_start : before_end);
  const Interval &x = std::min(*after_start, *before_end), &y = std::max(*after_start, *before_end);
  if (y.first <= x.second) return count(Interval{x.first, std::max(x.second, y.second)});
  return count(x) + count(y);
}

std::pair<LevelExtreme, LevelExtreme> level_extremes(const ExactEllipse& on, const ExactEllipse& of) {
  // q along `on` is G/H with G = b²·along² + a²·across² over a²b², H = W² (W = 1 + s²).
  const Curve curve = ellipse_curve(on);
  const Poly u = add(curve.x, times(curve.w, -of.centre.x)), v = add(curve.y, times(curve.w, -of.centre.y));
  const Poly along = add(times(u, of.e1.x), times(v, of.e1.y)), across = add(times(u, of.e2.x), times(v, of.e2.y));
  const Rational a2 = of.a * of.a, b2 = of.b * of.b;
  const Poly G = times(add(times(times(along, along), b2), times(times(across, across), a2)), Rational(1) / (a2 * b2));
  const Poly H = times(curve.w, curve.w);
  const Poly critical = add(times(derivative(G), H), times(times(G, derivative(H)), Rational(-1)));
  auto at = [&](double x, double y) {
    const double dx = x - to_double(of.centre.x), dy = y - to_double(of.centre.y);
    const double p = dx * to_double(of.e1.x) + dy * to_double(of.e1.y),
                 q = dx * to_double(of.e2.x) + dy * to_double(of.e2.y);
    LevelExtreme e;
    e.level = p * p / to_double(a2) + q * q / to_double(b2);
    e.x = x, e.y = y;
    // At `of`'s centre every direction is radial: the gap is then at least the shorter semi-axis.
    e.radial_gap =
        e.level > 0 ? std::hypot(dx, dy) * std::abs(1 - 1 / std::sqrt(e.level)) : to_double(std::min(of.a, of.b));
    return e;
  };
  auto point_at = [&](const Rational& s) {  // exact, then one conversion
    const Rational w = value_at(curve.w, s);
    return at(to_double(value_at(curve.x, s) / w), to_double(value_at(curve.y, s) / w));
  };
  // s = ∞ (c − a·e1) is on the curve but outside the parametrization's finite range: a candidate.
  LevelExtreme low = at(to_double(on.centre.x - on.a * on.e1.x), to_double(on.centre.y - on.a * on.e1.y)), high = low;
  if (!critical.empty())
    for (const Rational& s : real_roots(critical)) {
      const LevelExtreme e = point_at(s);
      if (e.level < low.level) low = e;
      if (e.level > high.level) high = e;
    }
  return {low, high};
}

}  // namespace geotruth::geometry
