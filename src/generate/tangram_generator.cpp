// Tangram items: school-exam figures with lettered points (triangles with cevians, altitudes,
// midlines and parallels; quadrilaterals with their diagonals; circles through, inside and about
// the figures; composite figures sharing a side), every point exact, and the four Tangram
// questions. The counts are worked out here from the construction (the points on each maximal
// drawn line, by exact incidence) and must agree with geotruth's (the audit's judge).
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "generate/certify.hpp"
#include "generate/exact.hpp"
#include "generate/items.hpp"
#include "generate/random.hpp"

namespace geotruth::generate {
namespace {

constexpr double kPi = 3.14159265358979323846;

double d(const Rational& r) {
  return to_double(r);
}

// Rational unit vectors ((m² − n²), 2mn) / (m² + n²), turned by quarter turns and mirrored.
const std::vector<Direction>& rational_directions() {
  static const std::vector<Direction> all = [] {
    std::vector<Direction> out;
    std::set<std::pair<Rational, Rational>> seen;
    for (long m = 2; m <= 8; ++m)
      for (long n = 1; n < m; ++n) {
        if (std::gcd(m, n) != 1 || (m - n) % 2 == 0) continue;
        const Rational h = m * m + n * n, a = Rational(m * m - n * n) / h, b = Rational(2 * m * n) / h;
        for (const auto& [x, y] : std::vector<std::pair<Rational, Rational>>{
                 {a, b}, {b, a}, {-a, b}, {-b, a}, {a, -b}, {b, -a}, {-a, -b}, {-b, -a}})
          if (seen.insert({x, y}).second) {
            double t = std::atan2(d(y), d(x));
            if (t < 0) t += 2 * kPi;
            out.push_back({{x, y}, t});
          }
      }
    for (const auto& [x, y] : std::vector<std::pair<int, int>>{{1, 0}, {0, 1}, {-1, 0}, {0, -1}})
      out.push_back({{x, y}, std::atan2(y, x) < 0 ? std::atan2(y, x) + 2 * kPi : std::atan2(y, x)});
    std::sort(out.begin(), out.end(), [](const Direction& p, const Direction& q) { return p.radians < q.radians; });
    return out;
  }();
  return all;
}

struct Piece {
  std::size_t a, b;  // point indices
};
struct Round {
  std::size_t centre;  // point index
  std::optional<Rational> radius;
  std::size_t on;  // a point on it (sets the radius when none is given)
};

class Figure {
 public:
  explicit Figure(Random& rng) : rng_(&rng) {}

  std::vector<Vec2> at;
  std::vector<bool> lettered;
  std::vector<Piece> pieces;
  std::vector<Round> rounds;
  std::vector<std::array<std::size_t, 3>> triangles;    // drawn triangles (for cevians)
  std::vector<std::array<std::size_t, 4>> quads;        // drawn quadrilaterals (for diagonals)
  std::set<std::pair<std::size_t, std::size_t>> touch;  // (piece, round) tangent by construction

  std::size_t point(const Vec2& p, bool letter = true) {
    for (std::size_t i = 0; i < at.size(); ++i)
      if (at[i] == p) {
        lettered[i] = lettered[i] || letter;
        return i;
      }
    at.push_back(p);
    lettered.push_back(letter);
    return at.size() - 1;
  }
  void join(std::size_t a, std::size_t b) {
    for (const auto& p : pieces)
      if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return;
    pieces.push_back({a, b});
  }
  void polygon(const std::vector<std::size_t>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) join(v[i], v[(i + 1) % v.size()]);
    if (v.size() == 3) triangles.push_back({v[0], v[1], v[2]});
    if (v.size() == 4) quads.push_back({v[0], v[1], v[2], v[3]});
  }

  Rational coordinate(double lo, double hi) { return Rational(static_cast<long>(std::lround(rng_->uniform(lo, hi)))); }
  Vec2 spot(double lo = 110, double hi = 530) { return {coordinate(lo, hi), coordinate(lo, hi)}; }
  Rational ratio() {
    static const std::vector<Rational> ratios = {Rational(1, 2), Rational(1, 3), Rational(2, 3), Rational(1, 4),
                                                 Rational(3, 4), Rational(2, 5), Rational(3, 5)};
    return rng_->pick(ratios);
  }

  // --- bases --------------------------------------------------------------------------------
  bool triangle() {
    std::vector<Vec2> p{spot(), spot(), spot()};
    if (!well_shaped(p, 140)) return false;
    polygon({point(p[0]), point(p[1]), point(p[2])});
    return true;
  }

  bool quadrilateral() {
    const Vec2 a = spot(100, 300);
    std::vector<Vec2> p;
    const int kind = static_cast<int>(rng_->below(5));
    const Vec2 u{coordinate(150, 300), coordinate(-90, 90)};
    if (kind == 0 || kind == 1) {  // square or rectangle: sides u and k·perp(u)
      const Rational k = kind == 0 ? Rational(1) : Rational(static_cast<long>(rng_->between(5, 9)), 10);
      const Vec2 v = k * perp(u);
      p = {a, a + u, a + u + v, a + v};
    } else if (kind == 2) {  // parallelogram
      const Vec2 v{coordinate(-80, 80), coordinate(140, 260)};
      p = {a, a + u, a + u + v, a + v};
    } else if (kind == 3) {  // trapezoid: DC parallel to AB
      const Vec2 v{coordinate(-40, 100), coordinate(140, 260)};
      const Rational t(static_cast<long>(rng_->between(4, 8)), 10);
      p = {a, a + u, a + v + t * u, a + v};
    } else {
      p = {a, a + u, a + u + Vec2{coordinate(-60, 60), coordinate(140, 260)},
           a + Vec2{coordinate(-60, 60), coordinate(140, 260)}};
    }
    if (!convex(p) || !well_shaped(p, 120)) return false;
    polygon({point(p[0]), point(p[1]), point(p[2]), point(p[3])});
    return true;
  }

  // A right triangle in a semicircle: diameter AB, C on the circle, centre O.
  bool thales() {
    const Vec2 o = spot(200, 440);
    const Rational r = coordinate(110, 190);
    const auto& dirs = rational_directions();
    const Vec2 u = rng_->pick(dirs).u, v = rng_->pick(dirs).u;
    const Vec2 a = o + r * u, b = o - r * u, c = o + r * v;
    if (!well_shaped({a, b, c}, 100)) return false;
    const std::size_t ia = point(a), ib = point(b), ic = point(c);
    const std::size_t io = point(o, rng_->chance(0.7));
    polygon({ia, ib, ic});
    join(ia, io), join(io, ib);  // the diameter through O
    rounds.push_back({io, r, ia});
    return true;
  }

  // A triangle about a circle: its sides tangent at rational points, which are lettered.
  bool incircle() {
    const Vec2 c = spot(250, 390);
    const Rational r = coordinate(55, 95);
    const auto& dirs = rational_directions();
    std::vector<Direction> t;
    for (int attempt = 0; attempt < 40 && t.empty(); ++attempt) {
      std::vector<Direction> pick{rng_->pick(dirs), rng_->pick(dirs), rng_->pick(dirs)};
      std::sort(pick.begin(), pick.end(), [](const Direction& p, const Direction& q) { return p.radians < q.radians; });
      bool ok = true;
      for (int k = 0; k < 3 && ok; ++k) {
        double gap = pick[(k + 1) % 3].radians - pick[k].radians;
        if (gap <= 0) gap += 2 * kPi;
        ok = gap > 90 * kPi / 180 && gap < 150 * kPi / 180;
      }
      if (ok) t = pick;
    }
    if (t.empty()) return false;
    std::vector<Vec2> v;  // corner between tangent points k and k+1
    for (int k = 0; k < 3; ++k) {
      const Vec2 &u = t[k].u, &w = t[(k + 1) % 3].u;
      v.push_back(c + (r / (1 + dot(u, w))) * (u + w));
    }
    if (!well_shaped(v, 120)) return false;
    const std::size_t io = point(c, rng_->chance(0.7));
    std::vector<std::size_t> corner, contact;
    for (int k = 0; k < 3; ++k) corner.push_back(point(v[k]));
    for (int k = 0; k < 3; ++k) contact.push_back(point(c + r * t[k].u));
    const std::size_t round = rounds.size();
    rounds.push_back({io, r, contact[0]});
    // Side k runs from corner k-1 to corner k through contact k.
    for (int k = 0; k < 3; ++k) {
      const std::size_t from = corner[(k + 2) % 3], to = corner[k];
      join(from, contact[k]), join(contact[k], to);
      touch.insert({pieces.size() - 2, round}), touch.insert({pieces.size() - 1, round});
    }
    triangles.push_back({corner[0], corner[1], corner[2]});
    return true;
  }

  // --- additions ----------------------------------------------------------------------------
  bool cevian() {
    if (triangles.empty()) return false;
    const auto t = rng_->pick(triangles);
    const std::size_t k = rng_->below(3);
    const std::size_t v = t[k], p = t[(k + 1) % 3], q = t[(k + 2) % 3];
    const Vec2 foot = at[p] + ratio() * (at[q] - at[p]);
    const std::size_t f = point(foot);
    join(v, f);
    triangles.push_back({v, p, f}), triangles.push_back({v, f, q});
    return true;
  }

  bool altitude() {
    if (triangles.empty()) return false;
    const auto t = rng_->pick(triangles);
    const std::size_t k = rng_->below(3);
    const std::size_t v = t[k], p = t[(k + 1) % 3], q = t[(k + 2) % 3];
    const Vec2 side = at[q] - at[p];
    const Rational s = dot(at[v] - at[p], side) / dot(side, side);
    if (s <= Rational(1, 6) || s >= Rational(5, 6)) return false;
    const std::size_t h = point(at[p] + s * side);
    join(v, h);
    triangles.push_back({v, p, h}), triangles.push_back({v, h, q});
    return true;
  }

  bool parallel() {  // DE parallel to PQ, D on VP and E on VQ at the same ratio
    if (triangles.empty()) return false;
    const auto t = rng_->pick(triangles);
    const std::size_t k = rng_->below(3);
    const std::size_t v = t[k], p = t[(k + 1) % 3], q = t[(k + 2) % 3];
    const Rational s = ratio();
    const std::size_t a = point(at[v] + s * (at[p] - at[v])), b = point(at[v] + s * (at[q] - at[v]));
    join(a, b);
    triangles.push_back({v, a, b});
    return true;
  }

  bool diagonals() {
    if (quads.empty()) return false;
    const auto q = rng_->pick(quads);
    // AC and BD meet at A + s(C − A) with s from the cross products.
    const Vec2 r = at[q[2]] - at[q[0]], w = at[q[3]] - at[q[1]];
    const Rational den = cross(r, w);
    if (den == 0) return false;
    const Rational s = cross(at[q[1]] - at[q[0]], w) / den;
    const std::size_t o = point(at[q[0]] + s * r, rng_->chance(0.7));
    join(q[0], o), join(o, q[2]), join(q[1], o), join(o, q[3]);
    return true;
  }

  bool circumcircle() {
    if (triangles.empty()) return false;
    const auto t = rng_->pick(triangles);
    const Vec2 &a = at[t[0]], &b = at[t[1]], &c = at[t[2]];
    const Rational den = 2 * cross(b - a, c - a);
    if (den == 0) return false;
    const Rational b2 = dot(b - a, b - a), c2 = dot(c - a, c - a);
    const Vec2 o = a + Vec2{((c - a).y * b2 - (b - a).y * c2) / den, ((b - a).x * c2 - (c - a).x * b2) / den};
    for (const auto& round : rounds)
      if (at[round.centre] == o) return false;
    rounds.push_back({point(o, rng_->chance(0.6)), std::nullopt, t[0]});
    return true;
  }

  bool chord() {  // a segment joining two points not yet joined
    if (at.size() < 4) return false;
    const std::size_t a = rng_->below(at.size()), b = rng_->below(at.size());
    if (a == b || !lettered[a] || !lettered[b]) return false;
    for (const auto& p : pieces)
      if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return false;
    join(a, b);
    return true;
  }

  bool square_on_side() {  // a square built outward on a triangle's side
    if (triangles.empty()) return false;
    const auto t = rng_->pick(triangles);
    const std::size_t k = rng_->below(3);
    const std::size_t p = t[k], q = t[(k + 1) % 3], r = t[(k + 2) % 3];
    Vec2 n = perp(at[q] - at[p]);
    if (sgn(dot(n, at[r] - at[p])) > 0) n = Rational(-1) * n;
    const std::size_t c = point(at[q] + n), dd = point(at[p] + n);
    join(q, c), join(c, dd), join(dd, p);
    quads.push_back({p, q, c, dd});
    return true;
  }

  bool radius() {  // a radius to a new point of a circle
    if (rounds.empty()) return false;
    const Round& round = rng_->pick(rounds);
    if (!round.radius) return false;
    const std::size_t e = point(at[round.centre] + *round.radius * rng_->pick(rational_directions()).u);
    lettered[round.centre] = true;
    join(round.centre, e);
    return true;
  }

  // The figure moved and scaled (by a simple rational factor) into the middle of the 640 × 640
  // frame when it reaches outside [50, 590]: a similarity, so every incidence and tangency stays exact.
  void fit() {
    double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    auto extend = [&](double x, double y, double r) {
      x0 = std::min(x0, x - r), y0 = std::min(y0, y - r), x1 = std::max(x1, x + r), y1 = std::max(y1, y + r);
    };
    for (const auto& p : at) extend(d(p.x), d(p.y), 0);
    for (const auto& r : rounds) {
      const Vec2 rim = at[r.on] - at[r.centre];
      extend(d(at[r.centre].x), d(at[r.centre].y), r.radius ? d(*r.radius) : std::sqrt(d(dot(rim, rim))));
    }
    if (x0 >= 50 && y0 >= 50 && x1 <= 590 && y1 <= 590) return;
    const double extent = std::max(x1 - x0, y1 - y0);
    const Rational k(std::min(20L, static_cast<long>(std::floor(20 * 540 / extent))), 20);
    const Vec2 middle{Rational(static_cast<long>(std::lround((x0 + x1) / 2))),
                      Rational(static_cast<long>(std::lround((y0 + y1) / 2)))};
    for (auto& p : at) p = Vec2{320, 320} + k * (p - middle);
    for (auto& r : rounds)
      if (r.radius) r.radius = k * *r.radius;
  }

  static bool convex(const std::vector<Vec2>& p) {
    int sign = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const int s = sgn(cross(p[(i + 1) % p.size()] - p[i], p[(i + 2) % p.size()] - p[(i + 1) % p.size()]));
      if (s == 0 || (sign && s != sign)) return false;
      sign = s;
    }
    return true;
  }
  // Angles of at least 30° and sides of at least `side` pixels.
  static bool well_shaped(const std::vector<Vec2>& p, double side) {
    for (std::size_t i = 0; i < p.size(); ++i) {
      const Vec2 &a = p[(i + p.size() - 1) % p.size()], &b = p[i], &c = p[(i + 1) % p.size()];
      const double ux = d(a.x - b.x), uy = d(a.y - b.y), vx = d(c.x - b.x), vy = d(c.y - b.y);
      const double lu = std::hypot(ux, uy), lv = std::hypot(vx, vy);
      if (lv < side) return false;
      const double angle = std::acos(std::clamp((ux * vx + uy * vy) / (lu * lv), -1.0, 1.0)) * 180 / kPi;
      if (angle < 30 || angle > 150) return false;
    }
    return true;
  }

 private:
  Random* rng_;
};

// A drawn line: the supporting line of some pieces and the stretch of it they cover.
struct DrawnLine {
  Vec2 origin, direction;  // every point of it is origin + t·direction
  Rational t0, t1;
  std::vector<std::size_t> pieces;
};

bool on_line(const Vec2& p, const Vec2& origin, const Vec2& direction) {
  return cross(p - origin, direction) == 0;
}
Rational along(const Vec2& p, const Vec2& origin, const Vec2& direction) {
  return dot(p - origin, direction) / dot(direction, direction);
}

constexpr std::string_view kLetters = "ABCDEFGHIJKLMNPQRSTUVWXYZ";

struct Counts {
  std::size_t letters = 0, circles = 0, segments = 0, triangles = 0;
  std::size_t total() const { return letters + circles + segments + triangles; }
};

// The scene of a figure: collinear pieces that overlap or touch are one line through every point
// on it, in order; circles through every point on them. Returns the counts worked out from it.
Counts build_scene(const Figure& f, Scene& s, VisibilityRules& rules) {
  // Letters in order of creation, O for a lettered circle centre when free.
  std::vector<std::string> names(f.at.size());
  std::size_t next = 0;
  bool o_used = false;
  for (std::size_t i = 0; i < f.at.size(); ++i) {
    const bool centre = std::any_of(f.rounds.begin(), f.rounds.end(), [&](const Round& r) { return r.centre == i; });
    if (f.lettered[i] && centre && !o_used) {
      names[i] = "O", o_used = true;
    } else if (f.lettered[i]) {
      names[i] = next < kLetters.size() ? std::string(1, kLetters[next]) : "P" + std::to_string(next);
      ++next;
    } else {
      names[i] = "u" + std::to_string(i + 1);
    }
  }
  for (std::size_t i = 0; i < f.at.size(); ++i)
    s.points.push_back({names[i], f.at[i], std::nullopt, f.lettered[i], ""});

  std::vector<DrawnLine> lines;
  for (std::size_t k = 0; k < f.pieces.size(); ++k) {
    const Vec2 &a = f.at[f.pieces[k].a], &b = f.at[f.pieces[k].b];
    DrawnLine* into = nullptr;
    for (auto& l : lines)
      if (on_line(a, l.origin, l.direction) && on_line(b, l.origin, l.direction)) {
        Rational ta = along(a, l.origin, l.direction), tb = along(b, l.origin, l.direction);
        if (ta > tb) std::swap(ta, tb);
        if (ta <= l.t1 && tb >= l.t0) {
          into = &l;
          l.t0 = std::min(l.t0, ta), l.t1 = std::max(l.t1, tb);
          break;
        }
      }
    if (!into) {
      lines.push_back({a, b - a, 0, 1, {}});
      into = &lines.back();
    }
    into->pieces.push_back(k);
  }
  // Stretches that grew into each other are one line too.
  for (bool merged = true; merged;) {
    merged = false;
    for (std::size_t i = 0; i < lines.size() && !merged; ++i)
      for (std::size_t j = i + 1; j < lines.size() && !merged; ++j) {
        auto &p = lines[i], &q = lines[j];
        if (!on_line(q.origin, p.origin, p.direction) || !on_line(q.origin + q.direction, p.origin, p.direction))
          continue;
        Rational a = along(q.origin + q.t0 * q.direction, p.origin, p.direction),
                 b = along(q.origin + q.t1 * q.direction, p.origin, p.direction);
        if (a > b) std::swap(a, b);
        if (a > p.t1 || b < p.t0) continue;
        p.t0 = std::min(p.t0, a), p.t1 = std::max(p.t1, b);
        p.pieces.insert(p.pieces.end(), q.pieces.begin(), q.pieces.end());
        lines.erase(lines.begin() + static_cast<long>(j));
        merged = true;
      }
  }
  Counts counts;
  for (bool l : f.lettered) counts.letters += l;
  std::vector<std::set<std::size_t>> letters_on(lines.size());
  std::vector<std::size_t> line_of_piece(f.pieces.size());
  for (std::size_t li = 0; li < lines.size(); ++li) {
    const auto& l = lines[li];
    for (std::size_t k : l.pieces) line_of_piece[k] = li;
    std::vector<std::pair<Rational, std::size_t>> on;
    for (std::size_t i = 0; i < f.at.size(); ++i)
      if (on_line(f.at[i], l.origin, l.direction)) {
        const Rational t = along(f.at[i], l.origin, l.direction);
        if (t >= l.t0 && t <= l.t1) on.emplace_back(t, i);
      }
    std::sort(on.begin(), on.end());
    Line line;
    for (const auto& [t, i] : on) {
      line.through.push_back(i);
      if (f.lettered[i]) letters_on[li].insert(i);
    }
    s.lines.push_back(line);
    const std::size_t k = letters_on[li].size();
    counts.segments += k * (k - 1) / 2;
  }
  for (std::size_t r = 0; r < f.rounds.size(); ++r) {
    const Round& round = f.rounds[r];
    Circle c;
    c.id = "k" + std::to_string(r + 1);
    c.center_point = round.centre;
    c.center = f.at[round.centre];
    c.radius = round.radius;
    const Vec2 rim = f.at[round.on] - f.at[round.centre];
    const Rational r2 = round.radius ? *round.radius * *round.radius : dot(rim, rim);
    for (std::size_t i = 0; i < f.at.size(); ++i)
      if (dot(f.at[i] - f.at[round.centre], f.at[i] - f.at[round.centre]) == r2) c.through.push_back(i);
    s.circles.push_back(c);
  }
  counts.circles = f.rounds.size();
  // Triangles: three letters pairwise on a common line, not all on one.
  std::vector<std::size_t> letters;
  for (std::size_t i = 0; i < f.at.size(); ++i)
    if (f.lettered[i]) letters.push_back(i);
  auto share = [&](std::size_t a, std::size_t b, std::size_t* which = nullptr) {
    for (std::size_t li = 0; li < lines.size(); ++li)
      if (letters_on[li].count(a) && letters_on[li].count(b)) {
        if (which) *which = li;
        return true;
      }
    return false;
  };
  for (std::size_t i = 0; i < letters.size(); ++i)
    for (std::size_t j = i + 1; j < letters.size(); ++j)
      for (std::size_t k = j + 1; k < letters.size(); ++k) {
        const std::size_t a = letters[i], b = letters[j], c = letters[k];
        if (share(a, b) && share(b, c) && share(a, c) && cross(f.at[b] - f.at[a], f.at[c] - f.at[a]) != 0)
          ++counts.triangles;
      }
  // Sides tangent to a circle by construction touch it along a stretch.
  for (const auto& [piece, round] : f.touch) {
    const Line& line = s.lines[line_of_piece[piece]];
    rules.touching.insert(
        {s.points[line.through.front()].id + "-" + s.points[line.through.back()].id, s.circles[round].id});
  }
  return counts;
}

const char* difficulty(std::size_t total) {
  return total <= 15 ? "easy" : total <= 30 ? "medium" : "hard";
}

}  // namespace

GeneratedItem tangram_item(const GenerateOptions& options, std::uint64_t seed, std::uint64_t index,
                           const CandidateCheck& picture) {
  const std::string level = options.level.empty() ? "easy" : options.level;
  GeneratedItem item;
  for (std::size_t attempt = 0; attempt < options.max_attempts; ++attempt) {
    if (attempt > 0) ++item.rejected[item.error.value_or("unknown")];
    item.attempts = attempt + 1;
    Random rng(seed, index, attempt);
    Figure f(rng);
    const double base = rng.unit();
    bool ok = false;  // a base figure that fits (each try is cheap)
    for (int tries = 0; tries < 50 && !ok; ++tries)
      ok = base < 0.35 ? f.triangle() : base < 0.6 ? f.quadrilateral() : base < 0.8 ? f.thales() : f.incircle();
    if (!ok) {
      item.error = "base_figure";
      continue;
    }
    // Additions until the figure's total reaches the level, each kept only when the figure (moved
    // into the frame) stays visible and within the level.
    const std::size_t lo = level == "easy"     ? 0
                           : level == "medium" ? 16
                                               : 31,
                      hi = level == "easy"     ? 15
                           : level == "medium" ? 30
                                               : 80;
    const std::size_t wanted = static_cast<std::size_t>(rng.between(
        static_cast<long>(std::max<std::size_t>(lo, 6)), static_cast<long>(std::min<std::size_t>(hi, lo + 25))));
    Scene scene;
    VisibilityRules rules;
    Counts counts;
    auto build = [&](Figure& g, Scene& s, VisibilityRules& r, Counts& c) {
      g.fit();
      s = Scene{}, r = VisibilityRules{};
      c = build_scene(g, s, r);
      return visibility_problem(s, options.bands, r);
    };
    if (const auto problem = build(f, scene, rules, counts); !problem.empty()) {
      item.error = "visibility: " + problem;
      continue;
    }
    for (int step = 0; step < 40 && counts.total() < wanted; ++step) {
      Figure trial = f;
      const double x = rng.unit();
      const bool added = x < 0.22   ? trial.cevian()
                         : x < 0.36 ? trial.altitude()
                         : x < 0.5  ? trial.parallel()
                         : x < 0.62 ? trial.diagonals()
                         : x < 0.74 ? trial.circumcircle()
                         : x < 0.84 ? trial.square_on_side()
                         : x < 0.92 ? trial.radius()
                                    : trial.chord();
      if (!added) continue;
      Scene s;
      VisibilityRules r;
      Counts c;
      const std::string problem = build(trial, s, r, c);
      if (!problem.empty() || c.total() > hi) continue;
      f = std::move(trial), scene = std::move(s), rules = std::move(r), counts = c;
    }
    if (difficulty(counts.total()) != level) {
      item.error = "difficulty";
      continue;
    }
    scene.id = "tangram-" + level + "-" + std::to_string(seed) + "-" + std::to_string(index);
    scene.extra = R"({"generated":{"family":"tangram","level":")" + level + R"(","seed":)" + std::to_string(seed) +
                  R"(,"item":)" + std::to_string(index) + "}}";
    // The four Tangram questions, the right count at its balanced place among four consecutive ones.
    const std::pair<const char*, std::size_t> asked[] = {{"letters", counts.letters},
                                                         {"circles", counts.circles},
                                                         {"segments", counts.segments},
                                                         {"triangles", counts.triangles}};
    const char* words[] = {"letters", "circles", "line segments formed by letters", "triangles formed by letters"};
    for (std::size_t k = 0; k < 4; ++k) {
      const auto& [of, value] = asked[k];
      Question q;
      q.id = of, q.ask = "count", q.of = of;
      q.text = std::string("How many ") + words[k] + " are there in the figure?";
      const std::size_t position = answer_position(seed, index, question_kind(q), 0);
      const long v = static_cast<long>(value);
      const long low = std::max(0L, v - static_cast<long>(position));
      std::vector<std::string> values;
      for (long x = low; x < low + 4; ++x) values.push_back(std::to_string(x));
      q.options = place_answer(values, static_cast<std::size_t>(v - low), position);
      q.answer = option_letter(position);
      scene.questions.push_back(std::move(q));
    }
    if (const auto problem = certify(scene, options.bands, rules); !problem.empty()) {
      item.error = problem;
      continue;
    }
    if (const auto problem = picture_problem(picture, scene); !problem.empty()) {
      item.error = problem;
      continue;
    }
    item.scene = std::move(scene);
    item.error.reset();
    return item;
  }
  return without_candidate(std::move(item), options);
}

}  // namespace geotruth::generate
