#include "questions/gepbench_rule.hpp"

#include "geometry/measures.hpp"

#include <geotruth/input.hpp>
#include <geotruth/shape_types.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>

namespace geotruth::questions::gepbench {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- The engine's numbers -------------------------------------------------------------------
// The engine computes centroids and boxes in double (data/rule/shapes.py) and its VQA loader
// rounds them with round(x, 2): Python's correctly rounded round() for Python floats, numpy's
// rint(100 x) / 100 for numpy scalars. Both are reproduced here bit for bit; the results are
// exact multiples of 1/100, on which every threshold is then compared exactly.

Rational python_round2(double x) {  // round half to even on the double's exact value
  const Rational scaled = Rational(x) * 100;
  mpz_class floor_part;
  mpz_fdiv_q(floor_part.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
  const Rational fraction = scaled - Rational(floor_part);
  if (fraction > Rational(1, 2) || (fraction == Rational(1, 2) && floor_part % 2 != 0)) floor_part += 1;
  Rational out(floor_part, 100);
  out.canonicalize();
  return out;
}

Rational numpy_round2(double x) {  // x * 100 is finite (engine_shapes)
  return Rational(std::nearbyint(x * 100)) / 100;
}

// The double nearest to r, as Python reads the rule set's decimal text (GMP's conversion
// truncates toward zero instead). Past the largest double it is infinite, as in Python (2e308,
// or a radius of 1e308 doubled): the engine's numbers then overflow, and engine_shapes says so.
// An infinity is never converted back to a rational (GMP would raise SIGFPE): the rounding
// compares with 2^1024, where IEEE rounding puts the step past the largest double.
double d(const Rational& r) {
  const double truncated = r.get_d();
  if (!std::isfinite(truncated)) return truncated;
  if (Rational(truncated) == r) return truncated;
  const double other = std::nextafter(truncated, r > Rational(truncated) ? kInf : -kInf);
  Rational other_value;
  if (std::isfinite(other)) {
    other_value = Rational(other);
  } else {
    mpz_class beyond;
    mpz_ui_pow_ui(beyond.get_mpz_t(), 2, 1024);
    other_value = other > 0 ? Rational(beyond) : Rational(-beyond);
  }
  return abs(other_value - r) < abs(Rational(truncated) - r) ? other : truncated;
}
double radians(const Rational& degrees) {
  return d(degrees) * kPi / 180;
}
double python_mod(double a, double m) {  // Python's float %: the sign of the divisor
  double r = std::fmod(a, m);
  if (r != 0 && (r < 0) != (m < 0)) r += m;
  return r;
}

// numpy.linspace(start, stop, n) (endpoint included).
std::vector<double> linspace(double start, double stop, int n) {
  std::vector<double> out(n);
  const double step = (stop - start) / (n - 1);
  for (int k = 0; k < n; ++k) out[k] = k * step + start;
  out[n - 1] = stop;
  return out;
}

struct DoubleBox {
  double x0 = kInf, y0 = kInf, x1 = -kInf, y1 = -kInf;
  void add(double x, double y) {
    x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
  }
};

Box rounded(const DoubleBox& b, bool numpy) {
  auto r = [&](double v) { return numpy ? numpy_round2(v) : python_round2(v); };
  return {r(b.x0), r(b.y0), r(b.x1), r(b.y1)};
}

// The engine's centroid and box of one shape, before rounding, and whether they are numpy scalars.
struct EngineNumbers {
  double cx = 0, cy = 0;
  bool centre_numpy = false;
  DoubleBox box;
  bool box_numpy = false;
};

EngineNumbers engine_numbers(const Shape& shape, bool boxes) {
  EngineNumbers e;
  std::visit(
      [&](const auto& g) {
        using T = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<T, PolygonShape>) {  // Polygon.get_centroid: the signed shoelace
          const std::size_t n = g.points.size();
          double area = 0, sx = 0, sy = 0;
          for (std::size_t i = 0; i < n; ++i) {
            const double xi = d(g.points[i].x), yi = d(g.points[i].y);
            const double xn = d(g.points[(i + 1) % n].x), yn = d(g.points[(i + 1) % n].y);
            area += xi * yn - xn * yi;
          }
          area /= 2.0;
          for (std::size_t i = 0; i < n; ++i) {
            const double xi = d(g.points[i].x), yi = d(g.points[i].y);
            const double xn = d(g.points[(i + 1) % n].x), yn = d(g.points[(i + 1) % n].y);
            const double common = xi * yn - xn * yi;
            sx += (xi + xn) * common;
            sy += (yi + yn) * common;
            e.box.add(xi, yi);
          }
          e.cx = sx / (6 * area), e.cy = sy / (6 * area);
        } else if constexpr (std::is_same_v<T, StraightShape>) {
          e.cx = (d(g.a.x) + d(g.b.x)) / 2, e.cy = (d(g.a.y) + d(g.b.y)) / 2;
          e.box.add(d(g.a.x), d(g.a.y)), e.box.add(d(g.b.x), d(g.b.y));
        } else if constexpr (std::is_same_v<T, EllipseShape>) {  // 1000 samples of the curve
          e.cx = d(g.center.x), e.cy = d(g.center.y);
          const double major = d(g.axes[0] * 2), minor = d(g.axes[1] * 2), rot = radians(g.rotation_deg);
          if (boxes)
            for (double t : linspace(0, 2 * kPi, 1000))
              e.box.add(e.cx + 0.5 * major * std::cos(t) * std::cos(rot) - 0.5 * minor * std::sin(t) * std::sin(rot),
                        e.cy + 0.5 * major * std::cos(t) * std::sin(rot) + 0.5 * minor * std::sin(t) * std::cos(rot));
        } else if constexpr (std::is_same_v<T, SectorShape>) {
          const double start = python_mod(radians(g.start_deg), 2 * kPi), end = python_mod(radians(g.end_deg), 2 * kPi);
          const double span = end <= start ? end + 2 * kPi - start : end - start, r = d(g.radius);
          const double c0 = d(g.center.x), c1 = d(g.center.y);
          const double bisector = start + span / 2, reach = (2.0 / 3) * r * std::sin(span / 2) / (span / 2);
          e.cx = c0 + reach * std::cos(bisector), e.cy = c1 + reach * std::sin(bisector);
          e.centre_numpy = true;
          e.box.add(c0, c1);
          const int n = std::max(50, static_cast<int>(span / (2 * kPi) * 200));
          for (double t : linspace(start, end <= start ? start + span : end, boxes ? n : 2))
            e.box.add(c0 + r * std::cos(t), c1 + r * std::sin(t));
        } else if constexpr (std::is_same_v<T, StarShape>) {
          e.cx = d(g.center.x), e.cy = d(g.center.y);
          if (boxes)
            for (const auto& [x, y] : star_vertices(g)) e.box.add(x, y);
          e.box_numpy = true;
        } else if constexpr (std::is_same_v<T, SpiralShape>) {
          e.cx = d(g.center.x), e.cy = d(g.center.y);
          for (double t : linspace(0, d(g.max_theta), boxes ? 1000 : 2)) {
            const double r = spiral_radius(g, t);
            e.box.add(e.cx + r * std::cos(t), e.cy + r * std::sin(t));
          }
          e.box_numpy = true;
        }
      },
      shape.geometry);
  return e;
}

// The true centroid: exact where the measures are (polygons, lines, centres), a sector's area
// centroid to a double's precision.
Vec2 true_centre(const geometry::ShapeMeasures& m) {
  return m.exact_centroid ? *m.exact_centroid : Vec2{Rational(m.cx), Rational(m.cy)};
}

// ---- Exact angle tests --------------------------------------------------------------------
// With c = cos 2θ = (d² − p²)/(d² + p²) for a point at angle θ off the direction:
// θ ≤ π/9 ⟺ c ≥ cos 40°, the root of 8c³ − 6c + 1 in (1/2, 1); θ < π/5 ⟺ c > cos 72° = (√5 − 1)/4.
bool within_20_degrees(const Rational& c) {
  return c > Rational(1, 2) && 8 * c * c * c - 6 * c + 1 >= 0;
}
bool within_36_degrees(const Rational& c) {
  const Rational k = 4 * c + 1;
  return k > 0 && k * k > 5;
}

struct DirectionSpec {
  int ux, uy;  // the engine's vector over its length: (0, 1), (−1, 1), …
};
const std::map<std::string, DirectionSpec>& directions() {
  static const std::map<std::string, DirectionSpec> table = {
      {"top", {0, 1}},         {"bottom", {0, -1}},     {"left", {-1, 0}},        {"right", {1, 0}},
      {"upper left", {-1, 1}}, {"upper right", {1, 1}}, {"lower left", {-1, -1}}, {"lower right", {1, -1}}};
  return table;
}

// ---- The box rule -------------------------------------------------------------------------
struct Region {
  Rational x0, y0, x1, y1;
};
const std::map<std::string, Region>& regions() {
  // VQAArgs.absolute_direction_text_and_box_dict: the midlines moved out by 0.1.
  static const Rational lo(-1), hi(2), near(2, 5), far(3, 5);
  static const std::map<std::string, Region> table = {{"upper half", {lo, far, hi, hi}},
                                                      {"lower half", {lo, lo, hi, near}},
                                                      {"left half", {lo, lo, near, hi}},
                                                      {"right half", {far, lo, hi, hi}},
                                                      {"top left quarter", {lo, far, near, hi}},
                                                      {"top right quarter", {far, far, hi, hi}},
                                                      {"bottom left quarter", {lo, lo, near, near}},
                                                      {"bottom right quarter", {far, lo, hi, near}}};
  return table;
}

Rational overlap_1d(const Rational& a0, const Rational& a1, const Rational& b0, const Rational& b1) {
  const Rational len = std::min(a1, b1) - std::max(a0, b0);
  return len > 0 ? len : Rational(0);
}

// The share of the box inside the region, per axis.
std::pair<Rational, Rational> shares(const Region& r, const Box& b) {
  return {overlap_1d(r.x0, r.x1, b.x0, b.x1) / (b.x1 - b.x0), overlap_1d(r.y0, r.y1, b.y0, b.y1) / (b.y1 - b.y0)};
}

// The shortest shift of the box along one axis that takes its share inside the region (times
// the other axis's share) across τ: the share is piecewise linear in the shift, with breaks
// where an edge of the box passes an edge of the region (doubles: a reported margin only).
double axis_shift(double r0, double r1, double b0, double b1, double other, double tau) {
  const double width = b1 - b0;
  auto share = [&](double shift) {
    return std::max(0.0, std::min(r1, b1 + shift) - std::max(r0, b0 + shift)) / width * other;
  };
  const bool now = share(0) >= tau;
  double best = kInf;
  for (const double sign : {1.0, -1.0}) {
    std::vector<double> breaks{0};
    for (const double b : {r1 - b1, r0 - b0, r1 - b0, r0 - b1})
      if (b * sign > 0) breaks.push_back(b * sign);
    std::sort(breaks.begin(), breaks.end());
    for (std::size_t k = 0; k + 1 < breaks.size(); ++k) {
      const double from = share(sign * breaks[k]), to = share(sign * breaks[k + 1]);
      if ((to >= tau) == now) continue;
      best = std::min(best, breaks[k] + (tau - from) / (to - from) * (breaks[k + 1] - breaks[k]));
      break;
    }
  }
  return best;
}
double ratio_margin(const Region& r, const Box& b, const Rational& tau) {
  const auto [fx, fy] = shares(r, b);
  return std::min(axis_shift(d(r.x0), d(r.x1), d(b.x0), d(b.x1), d(fy), d(tau)),
                  axis_shift(d(r.y0), d(r.y1), d(b.y0), d(b.y1), d(fx), d(tau)));
}

}  // namespace

const char* rule_class_name(RuleClass c) {
  return c == RuleClass::holds ? "holds" : c == RuleClass::fails ? "fails" : "gray";
}

std::vector<EngineShape> engine_shapes(const Scene& scene, bool boxes) {
  std::vector<EngineShape> out;
  for (const auto& shape : scene.shapes) {
    const EngineNumbers e = engine_numbers(shape, boxes);
    // The engine computes in doubles: a shape far outside its unit square overflows them, and
    // its rules then give no answer to round (a GMP conversion of one would abort the process).
    const double rounded_values[] = {e.cx, e.cy, e.box.x0, e.box.y0, e.box.x1, e.box.y1};
    if (!std::all_of(rounded_values, rounded_values + (boxes ? 6 : 2), [](double v) { return std::isfinite(v * 100); }))
      throw InputError{"/shapes/" + std::to_string(&shape - scene.shapes.data()),
                       "this shape's numbers overflow the doubles of the GePBench engine's rules, on which position "
                       "and reference answers rest (a shape far outside the frame)"};
    // The true measures are doubles where they are not exact (a sector's centroid, every extent):
    // a curve reaching past the doubles (a spiral growing by 1e308 a radian) overflows them too.
    const geometry::ShapeMeasures m = geometry::measure_shape(shape);
    const double true_values[] = {m.x0, m.y0, m.x1, m.y1};
    if ((!m.exact_centroid && !(std::isfinite(m.cx) && std::isfinite(m.cy))) ||
        (boxes &&
         !std::all_of(std::begin(true_values), std::end(true_values), [](double v) { return std::isfinite(v); })))
      throw InputError{"/shapes/" + std::to_string(&shape - scene.shapes.data()),
                       "this shape's extent overflows the doubles it is measured in, on which position and reference "
                       "answers rest (a shape far outside the frame)"};
    EngineShape s;
    s.shape = &shape;
    s.type = shape_type(shape);
    s.centre =
        e.centre_numpy ? Vec2{numpy_round2(e.cx), numpy_round2(e.cy)} : Vec2{python_round2(e.cx), python_round2(e.cy)};
    s.true_centre = true_centre(m);
    if (boxes) {
      s.box = rounded(e.box, e.box_numpy);
      s.true_box = {Rational(m.x0), Rational(m.y0), Rational(m.x1), Rational(m.y1)};
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool is_direction(const std::string& direction) {
  return directions().count(direction) > 0;
}

RuleResult relative_direction(const std::string& direction, const Vec2& anchor, const Vec2& x) {
  const DirectionSpec u = directions().at(direction);
  const bool diagonal = u.ux != 0 && u.uy != 0;
  const Rational dx = x.x - anchor.x, dy = x.y - anchor.y;
  const Rational para = dx * u.ux + dy * u.uy, perp = dx * u.uy - dy * u.ux;
  const Rational d2 = para * para, p2 = perp * perp;
  // The engine's projection is on a vector of length 1, or 2 on the diagonals (√2·u): the 0.04
  // threshold is then 0.04 / 2 along the diagonal, i.e. para·√2 ≥ 0.04 with |u| = √2.
  const Rational threshold(1, 25);  // 0.04
  const bool far_enough = diagonal ? para >= 0 && 2 * d2 >= threshold * threshold : para >= threshold;
  const bool ahead = para > 0;
  const Rational cos2 = d2 + p2 == 0 ? Rational(1) : (d2 - p2) / (d2 + p2);
  // Margins in frame units, on the unit direction (doubles: reported slack only).
  const double unit = diagonal ? std::sqrt(2.0) : 1.0, along = d(para) / unit, across = std::abs(d(perp)) / unit;
  const double length = std::hypot(along, across), angle = std::atan2(across, along);
  const double t_unit = diagonal ? 0.02 : 0.04;
  auto off_cone = [&](double half_angle) {  // distance to the cone of that half-angle
    return angle >= half_angle + kPi / 2 ? length : length * std::sin(std::abs(angle - half_angle));
  };
  RuleResult r;
  const bool within_20 = within_20_degrees(cos2), within_36 = ahead && within_36_degrees(cos2);
  if (far_enough && within_20) {
    r.cls = RuleClass::holds;
    r.margin = std::min(along - t_unit, off_cone(kPi / 9));
  } else if (far_enough && within_36) {
    r.cls = RuleClass::gray;
    r.margin = std::min({along - t_unit, off_cone(kPi / 5), off_cone(kPi / 9)});
    r.to_fails = std::min(along - t_unit, off_cone(kPi / 5));
    return r;
  } else {  // behind, too near, or clearly off the direction
    r.cls = RuleClass::fails;
    r.margin = std::max(far_enough ? 0.0 : t_unit - along, within_36 ? 0.0 : off_cone(kPi / 5));
  }
  r.to_fails = r.margin;
  return r;
}

bool is_region(const std::string& region) {
  return regions().count(region) > 0;
}

RuleResult region_by_box(const std::string& region, const Box& b) {
  const Region part = regions().at(region);
  const Rational grow(1, 5);
  const Region outer{part.x0 - grow, part.y0 - grow, part.x1 + grow, part.y1 + grow};
  const Rational pad(1, 10000);
  const Box box{b.x0 - pad, b.y0 - pad, b.x1 + pad, b.y1 + pad};
  const auto inside = [&](const Region& r) -> Rational {  // not a GMP expression of locals
    const auto [fx, fy] = shares(r, box);
    return fx * fy;
  };
  const Rational whole(9999, 10000), most(4, 5), half(1, 2);
  const Rational in_outer = inside(outer), in_part = inside(part);
  RuleResult r;
  if (in_outer >= whole && in_part >= most) {
    r.cls = RuleClass::holds;
    r.margin = std::min(ratio_margin(outer, box, whole), ratio_margin(part, box, most));
  } else if (in_outer < half) {
    r.cls = RuleClass::fails;
    r.margin = ratio_margin(outer, box, half);
  } else {
    r.cls = RuleClass::gray;
    r.to_fails = ratio_margin(outer, box, half);
    r.margin = std::min({r.to_fails, ratio_margin(outer, box, whole), ratio_margin(part, box, most)});
    return r;
  }
  r.to_fails = r.margin;
  return r;
}

std::optional<RuleResult> boxes_overlap_at_most_half(const Box& answer, const Box& anchor) {
  if (answer.x1 <= answer.x0 || answer.y1 <= answer.y0 || anchor.x1 <= anchor.x0 || anchor.y1 <= anchor.y0)
    return std::nullopt;
  const Rational half(1, 2);
  // The overlap over one box's area is the share of that box inside the other, seen as a region.
  const Region as_answer{answer.x0, answer.y0, answer.x1, answer.y1},
      as_anchor{anchor.x0, anchor.y0, anchor.x1, anchor.y1};
  const auto [ax, ay] = shares(as_answer, anchor);
  const auto [bx, by] = shares(as_anchor, answer);
  const Rational of_anchor = ax * ay, of_answer = bx * by;
  const double to_anchor = ratio_margin(as_answer, anchor, half), to_answer = ratio_margin(as_anchor, answer, half);
  RuleResult r;
  if (of_anchor <= half && of_answer <= half) {
    r.cls = RuleClass::holds;
    r.margin = std::min(to_anchor, to_answer);
  } else {  // every ratio over a half must come down
    r.cls = RuleClass::fails;
    r.margin = std::max(of_anchor > half ? to_anchor : 0.0, of_answer > half ? to_answer : 0.0);
  }
  r.to_fails = r.margin;
  return r;
}

bool region_has_centre(const std::string& region, const Vec2& c, const Vec2& mid) {
  const bool left = c.x < mid.x, right = mid.x < c.x, up = mid.y < c.y, down = c.y < mid.y;
  if (region == "upper half") return up;
  if (region == "lower half") return down;
  if (region == "left half") return left;
  if (region == "right half") return right;
  if (region == "top left quarter") return up && left;
  if (region == "top right quarter") return up && right;
  if (region == "bottom left quarter") return down && left;
  return down && right;
}

}  // namespace geotruth::questions::gepbench
