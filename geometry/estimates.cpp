#include "geometry/estimates.hpp"

#include <CGAL/CORE_Expr.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <tuple>
#include <utility>

#include "geometry/measures.hpp"

namespace geotruth::geometry {

namespace {

CORE::Expr expr(const Rational& q) {
  return CORE::Expr(CORE::BigRat(q.get_mpq_t()));
}

Rational squared_length(const Vec2& a, const Vec2& b) {
  const Rational dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}

double length(const Vec2& a, const Vec2& b) {
  return std::sqrt(to_double(squared_length(a, b)));
}

// A 256-bit MPFR number, freed on scope exit.
class Big {
 public:
  Big() { mpfr_init2(v_, 256); }
  explicit Big(const Rational& q) : Big() { mpfr_set_q(v_, q.get_mpq_t(), MPFR_RNDN); }
  ~Big() { mpfr_clear(v_); }
  Big(const Big&) = delete;
  Big& operator=(const Big&) = delete;
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }

 private:
  mpfr_t v_;
};

// The nearest option on a scale where each option's distance to the value is ranked by `far`:
// far(i) is a rational that grows with option i's distance (exactly comparable). Ties between
// best and runner-up are exact.
template <typename Far>
EstimateChoice nearest_by(std::size_t n, Far far) {
  EstimateChoice choice;
  std::vector<Rational> distance(n);
  for (std::size_t i = 0; i < n; ++i) distance[i] = far(i);
  for (std::size_t i = 1; i < n; ++i)
    if (distance[i] < distance[choice.best]) choice.best = i;
  for (std::size_t i = 0; i < n; ++i)
    if (i != choice.best && (!choice.runner_up || distance[i] < distance[*choice.runner_up])) choice.runner_up = i;
  choice.tie = choice.runner_up && distance[*choice.runner_up] == distance[choice.best];
  return choice;
}

// The boundary √(best · runner-up) between the two nearest options of a ratio, with the value's
// log-scale margin to it set on `choice`; nothing when there is no runner-up or the two tie (a
// tie is decided: it holds).
std::optional<double> log_boundary(EstimateChoice& choice, const std::vector<Rational>& options) {
  if (!choice.runner_up) return std::nullopt;
  const double boundary = std::sqrt(to_double(options[choice.best] * options[*choice.runner_up]));
  choice.margin = std::abs(std::log(choice.value) - std::log(boundary));
  if (!choice.tie) return boundary;
  choice.decision = Decision::holds;
  return std::nullopt;
}

// Decides the smallest move δ (frame units) with gap = δ·lin + δ²·quad against the band, exactly:
// δ compares with ε as gap does with ε·lin + ε²·quad (the right side grows with ε).
Decision decide_move(const CORE::Expr& gap, const CORE::Expr& lin, const CORE::Expr& quad, const FrameBands& bands) {
  auto versus = [&](const Rational& eps) {
    const CORE::Expr e = expr(eps);
    return CORE::cmp(gap, e * lin + e * e * quad);
  };
  return FrameBands::decide(versus(bands.point_noise()), versus(bands.eps_vis()));
}

// X = |a b| / |c d|, and the least move (frame units, reporting) of the points for X to reach a
// boundary `bound` (exact; `rough` its double), that move decided against the data's noise: a
// point moved by δ changes a length by at most 2δ over its two ends, so |ab| − bound·|cd| against
// 2δ·(1 + bound).
struct LengthRatio {
  LengthRatio(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d)
      : l1(squared_length(a, b)), l2(squared_length(c, d)), L1(CORE::sqrt(expr(l1))), L2(CORE::sqrt(expr(l2))) {}
  // −1, 0 or +1 as X is below, at or above `bound` (> 0).
  int compare(const Rational& bound) const {
    const Rational x = bound * bound * l2;
    return l1 < x ? -1 : l1 == x ? 0 : 1;
  }
  std::pair<double, Decision> move_to(const CORE::Expr& bound, double rough, const FrameBands& bands) const {
    const double units = std::abs(std::sqrt(to_double(l1)) - rough * std::sqrt(to_double(l2))) / (2 * (1 + rough));
    return {units, decide_move(CORE::abs(L1 - bound * L2), 2 * (1 + bound), CORE::Expr(0), bands)};
  }
  Rational l1, l2;  // X² = l1 / l2
  CORE::Expr L1, L2;
};

// X = area(P) / area(Q), and the least move of the corners for X to reach a boundary, decided as
// above: a corner moved by δ changes its polygon's area by at most δ·|next − previous| / 2, and two
// neighbours moved together by δ²/2 more, so |A_P − bound·A_Q| against δ·(S_P + bound·S_Q) +
// δ²·(n_P + bound·n_Q)/2 (S: the sum of those half-diagonals, n: the corners).
struct AreaRatio {
  AreaRatio(const std::vector<Vec2>& p, const std::vector<Vec2>& q)
      : ap(abs(polygon_area(p))), aq(abs(polygon_area(q))), np(p.size()), nq(q.size()) {
    sp = sensitivity(p, rough_sp), sq = sensitivity(q, rough_sq);
  }
  int compare(const Rational& bound) const {
    const Rational x = bound * aq;
    return ap < x ? -1 : ap == x ? 0 : 1;
  }
  std::pair<double, Decision> move_to(const CORE::Expr& bound, double rough, const FrameBands& bands) const {
    const CORE::Expr gap = CORE::abs(expr(ap) - bound * expr(aq)), lin = sp + bound * sq,
                     quad = (expr(Rational(static_cast<long>(np))) + bound * expr(Rational(static_cast<long>(nq)))) / 2;
    // The smallest δ with gap = δ·lin + δ²·quad.
    const double g = std::abs(to_double(ap) - rough * to_double(aq)), l = rough_sp + rough * rough_sq,
                 k = (static_cast<double>(np) + rough * static_cast<double>(nq)) / 2;
    return {k > 0 ? (-l + std::sqrt(l * l + 4 * k * g)) / (2 * k) : g / l, decide_move(gap, lin, quad, bands)};
  }
  // Σ |next − previous| / 2 over the corners, exactly; `rough` receives it as a double.
  static CORE::Expr sensitivity(const std::vector<Vec2>& poly, double& rough) {
    CORE::Expr exact = 0;
    rough = 0;
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const Vec2 &prev = poly[(i + poly.size() - 1) % poly.size()], &next = poly[(i + 1) % poly.size()];
      exact = exact + CORE::sqrt(expr(squared_length(prev, next))) / 2;
      rough += length(prev, next) / 2;
    }
    return exact;
  }
  Rational ap, aq;
  std::size_t np, nq;
  CORE::Expr sp, sq;
  double rough_sp = 0, rough_sq = 0;
};

// The least move (frame units, reporting) of the points for the angle at `vertex` to reach
// `beta_degrees`, and that move decided against the data's noise: |θ − β| against δ·(2/|va| +
// 2/|vb|), in 256-bit MPFR (transcendental on both sides).
std::pair<double, Decision> angle_move(const Vec2& a, const Vec2& vertex, const Vec2& b, const Rational& beta_degrees,
                                       const FrameBands& bands) {
  const Rational ux = a.x - vertex.x, uy = a.y - vertex.y, vx = b.x - vertex.x, vy = b.y - vertex.y;
  const Rational dot = ux * vx + uy * vy, cross = abs(Rational(ux * vy - uy * vx));
  const Rational la = ux * ux + uy * uy, lb = vx * vx + vy * vy;
  Big y(cross), x(dot), theta, beta(beta_degrees), pi, gap, sa(la), sb(lb), rate, tmp;
  mpfr_atan2(theta.get(), y.get(), x.get(), MPFR_RNDN);
  mpfr_const_pi(pi.get(), MPFR_RNDN);
  mpfr_mul(beta.get(), beta.get(), pi.get(), MPFR_RNDN);
  mpfr_div_ui(beta.get(), beta.get(), 180, MPFR_RNDN);
  mpfr_sub(gap.get(), theta.get(), beta.get(), MPFR_RNDN);
  mpfr_abs(gap.get(), gap.get(), MPFR_RNDN);
  mpfr_rec_sqrt(sa.get(), sa.get(), MPFR_RNDN);
  mpfr_rec_sqrt(sb.get(), sb.get(), MPFR_RNDN);
  mpfr_add(rate.get(), sa.get(), sb.get(), MPFR_RNDN);
  mpfr_mul_ui(rate.get(), rate.get(), 2, MPFR_RNDN);
  auto versus = [&](const Rational& eps) {
    Big e(eps);
    mpfr_mul(tmp.get(), rate.get(), e.get(), MPFR_RNDN);
    return mpfr_cmp(gap.get(), tmp.get());
  };
  return {mpfr_get_d(gap.get(), MPFR_RNDN) / mpfr_get_d(rate.get(), MPFR_RNDN),
          FrameBands::decide(versus(bands.point_noise()), versus(bands.eps_vis()))};
}

// The options whose ranges hold the measure (`compare(bound)`: −1, 0 or +1 as it is below, at or
// above the bound, exact) or are reached within the data's noise (`move(bound)`: the least move to
// the range's nearer bound and its decision), the least move first.
template <typename Compare, typename Move>
RangeReach reach_ranges(const std::vector<OptionRange>& ranges, Compare compare, Move move) {
  RangeReach out;
  out.move_units.assign(ranges.size(), 0);
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    std::optional<Rational> nearer;
    if (compare(ranges[i].low) < 0)
      nearer = ranges[i].low;
    else if (compare(ranges[i].high) > 0)
      nearer = ranges[i].high;
    if (nearer) {
      const auto [units, decision] = move(*nearer);
      out.move_units[i] = units;
      if (decision != Decision::holds) continue;
    }
    out.reachable.push_back(i);
  }
  std::stable_sort(out.reachable.begin(), out.reachable.end(),
                   [&](std::size_t i, std::size_t j) { return out.move_units[i] < out.move_units[j]; });
  return out;
}

}  // namespace

EstimateChoice length_ratio_choice(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d,
                                   const std::vector<Rational>& options, const FrameBands& bands) {
  const LengthRatio ratio(a, b, c, d);
  const Rational r = ratio.l1 / ratio.l2;  // r = X²
  // Log-scale distance of X to o ranked by max(X/o, o/X)², which is max(r/o², o²/r): rational.
  EstimateChoice choice = nearest_by(options.size(), [&](std::size_t i) {
    const Rational o2 = options[i] * options[i];
    return std::max(Rational(r / o2), Rational(o2 / r));
  });
  choice.value = std::sqrt(to_double(r));
  const std::optional<double> boundary = log_boundary(choice, options);
  if (!boundary) return choice;
  const CORE::Expr B = CORE::sqrt(expr(options[choice.best] * options[*choice.runner_up]));
  std::tie(choice.slack_units, choice.decision) = ratio.move_to(B, *boundary, bands);
  return choice;
}

EstimateChoice area_ratio_choice(const std::vector<Vec2>& p, const std::vector<Vec2>& q,
                                 const std::vector<Rational>& options, const FrameBands& bands) {
  const AreaRatio ratio(p, q);
  const Rational x = ratio.ap / ratio.aq;
  EstimateChoice choice = nearest_by(
      options.size(), [&](std::size_t i) { return std::max(Rational(x / options[i]), Rational(options[i] / x)); });
  choice.value = to_double(x);
  const std::optional<double> boundary = log_boundary(choice, options);
  if (!boundary) return choice;
  const CORE::Expr B = CORE::sqrt(expr(options[choice.best] * options[*choice.runner_up]));
  std::tie(choice.slack_units, choice.decision) = ratio.move_to(B, *boundary, bands);
  return choice;
}

int compare_angle_degrees(const Vec2& a, const Vec2& vertex, const Vec2& b, const Rational& degrees) {
  const Rational ux = a.x - vertex.x, uy = a.y - vertex.y, vx = b.x - vertex.x, vy = b.y - vertex.y;
  const Rational dot = ux * vx + uy * vy, cross = abs(Rational(ux * vy - uy * vx));
  // θ = atan2(cross, dot) ∈ [0°, 180°]; its tangent cross/dot is rational.
  if (degrees < 0) return 1;
  if (degrees > 180) return -1;
  if (degrees == 0) return cross == 0 && dot > 0 ? 0 : 1;
  if (degrees == 180) return cross == 0 && dot < 0 ? 0 : -1;
  if (degrees == 90) return dot > 0 ? -1 : dot == 0 ? 0 : 1;
  if (degrees == 45) {
    if (dot <= 0) return 1;
    return cross < dot ? -1 : cross == dot ? 0 : 1;
  }
  if (degrees == 135) {
    if (dot >= 0) return -1;
    return cross > -dot ? -1 : cross == -dot ? 0 : 1;
  }
  Big y(cross), x(dot), theta, beta(degrees), pi;
  mpfr_atan2(theta.get(), y.get(), x.get(), MPFR_RNDN);
  mpfr_const_pi(pi.get(), MPFR_RNDN);
  mpfr_mul(beta.get(), beta.get(), pi.get(), MPFR_RNDN);
  mpfr_div_ui(beta.get(), beta.get(), 180, MPFR_RNDN);
  return mpfr_cmp(theta.get(), beta.get());
}

EstimateChoice angle_choice(const Vec2& a, const Vec2& vertex, const Vec2& b, const std::vector<Rational>& options,
                            const FrameBands& bands) {
  EstimateChoice choice;
  std::vector<std::size_t> order(options.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return options[i] < options[j]; });
  // The region of the angle among the midpoints of neighbouring options.
  std::size_t region = 0;
  std::optional<std::size_t> tied;
  for (std::size_t k = 0; k + 1 < order.size(); ++k) {
    const Rational mid = (options[order[k]] + options[order[k + 1]]) / 2;
    const int side = options[order[k]] == options[order[k + 1]] ? 1 : compare_angle_degrees(a, vertex, b, mid);
    if (side > 0) region = k + 1;
    if (side == 0) tied = k;
  }
  if (tied) {
    choice.best = order[*tied];
    choice.runner_up = order[*tied + 1];
    choice.tie = true;
  } else {
    choice.best = order[region];
    if (order.size() > 1) {
      if (region == 0)
        choice.runner_up = order[1];
      else if (region + 1 == order.size())
        choice.runner_up = order[region - 1];
      else {
        const Rational mid = (options[order[region - 1]] + options[order[region + 1]]) / 2;
        choice.runner_up = compare_angle_degrees(a, vertex, b, mid) < 0 ? order[region - 1] : order[region + 1];
      }
    }
  }
  const Rational ux = a.x - vertex.x, uy = a.y - vertex.y, vx = b.x - vertex.x, vy = b.y - vertex.y;
  const Rational dot = ux * vx + uy * vy, cross = abs(Rational(ux * vy - uy * vx));
  choice.value = std::atan2(to_double(cross), to_double(dot)) * 180 / M_PI;
  if (!choice.runner_up) return choice;
  const Rational beta_degrees = (options[choice.best] + options[*choice.runner_up]) / 2;
  choice.margin = std::abs(choice.value - to_double(beta_degrees));
  if (choice.tie) {
    choice.decision = Decision::holds;
    return choice;
  }
  std::tie(choice.slack_units, choice.decision) = angle_move(a, vertex, b, beta_degrees, bands);
  return choice;
}

RangeReach length_ratio_ranges(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d,
                               const std::vector<OptionRange>& ranges, const FrameBands& bands) {
  const LengthRatio ratio(a, b, c, d);
  return reach_ranges(
      ranges, [&](const Rational& bound) { return ratio.compare(bound); },
      [&](const Rational& bound) { return ratio.move_to(expr(bound), to_double(bound), bands); });
}

RangeReach area_ratio_ranges(const std::vector<Vec2>& p, const std::vector<Vec2>& q,
                             const std::vector<OptionRange>& ranges, const FrameBands& bands) {
  const AreaRatio ratio(p, q);
  return reach_ranges(
      ranges, [&](const Rational& bound) { return ratio.compare(bound); },
      [&](const Rational& bound) { return ratio.move_to(expr(bound), to_double(bound), bands); });
}

RangeReach angle_ranges(const Vec2& a, const Vec2& vertex, const Vec2& b, const std::vector<OptionRange>& ranges,
                        const FrameBands& bands) {
  return reach_ranges(
      ranges, [&](const Rational& bound) { return compare_angle_degrees(a, vertex, b, bound); },
      [&](const Rational& bound) { return angle_move(a, vertex, b, bound, bands); });
}

}  // namespace geotruth::geometry
