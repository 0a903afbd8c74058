// The one validation every scene passes, whatever its source: the reader, every importer and the
// generators. Errors point into the native scene; importers translate the pointer into their
// source file (ImportedScene::origins).
#include <algorithm>
#include <geotruth/input.hpp>
#include <geotruth/relation_kind.hpp>
#include <unordered_map>
#include <unordered_set>

namespace geotruth {

namespace {

struct Invalid {
  InputError error;
};

[[noreturn]] void fail(std::string pointer, std::string message) {
  throw Invalid{{std::move(pointer), std::move(message)}};
}

std::string at(const std::string& pointer, std::string_view key) {
  return pointer + "/" + std::string(key);
}
std::string at(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

// Magnitudes a double can hold: docs/format.md rejects numbers outside 1e-308 … 1e308 (or 0).
const Rational kHuge = [] {
  Rational r;
  mpz_ui_pow_ui(r.get_num_mpz_t(), 10, 308);
  return r;
}();
const Rational kTiny = 1 / kHuge;

bool in_range(const Rational& value) {
  // A numerator and a denominator of one 64-bit limb each keep it within 2^±64: no need to compare.
  if (mpz_size(value.get_num_mpz_t()) <= 1 && mpz_size(value.get_den_mpz_t()) <= 1) return true;
  const Rational magnitude = abs(value);
  return !(magnitude > kHuge || (magnitude != 0 && magnitude < kTiny));
}
void check_range(const Rational& value, const std::string& pointer) {
  if (!in_range(value)) fail(pointer, out_of_range_message());
}
bool in_range(const Vec2& v) {
  return in_range(v.x) && in_range(v.y);
}
void check_range(const Vec2& v, const std::string& pointer) {
  if (!in_range(v.x)) fail(at(pointer, 0), out_of_range_message());
  if (!in_range(v.y)) fail(at(pointer, 1), out_of_range_message());
}
void check_positive(const Rational& value, const std::string& pointer, std::string_view what) {
  check_range(value, pointer);
  if (value <= 0) fail(pointer, std::string(what) + " must be positive, got " + to_text(value));
}

// Twice the signed area of a closed polygon (the shoelace sum), exact.
Rational twice_signed_area(const std::vector<Vec2>& p) {
  Rational sum = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec2 &a = p[i], &b = p[(i + 1) % p.size()];
    sum += a.x * b.y - b.x * a.y;
  }
  return sum;
}

// `angle` reduced exactly into [0, 360).
Rational modulo_360(const Rational& angle) {
  const Rational turns = angle / 360;
  mpz_class whole;
  mpz_fdiv_q(whole.get_mpz_t(), turns.get_num_mpz_t(), turns.get_den_mpz_t());
  return angle - Rational(whole) * 360;
}

class Validator {
 public:
  explicit Validator(const Scene& scene) : s_(scene) {}

  void run() {
    if (s_.id.empty()) fail("/id", "expected a non-empty string (the scene's id)");
    check_range(s_.frame.width, "/frame/width");
    check_range(s_.frame.height, "/frame/height");
    if (s_.frame.width <= 0) fail("/frame/width", "width must be positive, got " + to_text(s_.frame.width));
    if (s_.frame.height <= 0) fail("/frame/height", "height must be positive, got " + to_text(s_.frame.height));
    if (const auto& scale = s_.frame.px_per_unit) {
      check_range(*scale, "/frame/px_per_unit");
      if (*scale <= 0) fail("/frame/px_per_unit", "pixels per unit must be positive, got " + to_text(*scale));
    }
    if (const auto& step = s_.frame.precision) {
      check_range(*step, "/frame/precision");
      if (*step < 0) fail("/frame/precision", "the rounding step must not be negative, got " + to_text(*step));
    }
    for (std::size_t i = 0; i < s_.points.size(); ++i) point(i);
    for (std::size_t i = 0; i < s_.lines.size(); ++i) line(i);
    for (std::size_t i = 0; i < s_.circles.size(); ++i) circle(i);
    for (std::size_t i = 0; i < s_.shapes.size(); ++i) shape(i);
    for (std::size_t i = 0; i < s_.entities.size(); ++i) entity(i);
    for (std::size_t i = 0; i < s_.arrows.size(); ++i) arrow(i);
    for (std::size_t i = 0; i < s_.arrow_heads.size(); ++i) arrow_head(i);
    for (std::size_t i = 0; i < s_.links.size(); ++i) link(i);
    for (std::size_t i = 0; i < s_.layers.size(); ++i) layer(i);
    for (std::size_t i = 0; i < s_.relations.size(); ++i) relation(i);
    std::unordered_set<std::string> question_ids;
    for (std::size_t i = 0; i < s_.questions.size(); ++i)
      if (!question_ids.insert(s_.questions[i].id).second)
        fail(at(at("/questions", i), "id"), "duplicate question id \"" + s_.questions[i].id + "\"");
  }

 private:
  // Every element id lives in one namespace (points, lines, circles, shapes, entities, links, layers).
  void claim(const std::string& id, const std::string& pointer) {
    if (id.empty()) return;
    auto [it, inserted] = ids_.emplace(id, pointer);
    if (!inserted) fail(pointer, "duplicate id \"" + id + "\" (already used at " + it->second + ")");
  }

  void point(std::size_t i) {
    const Point& p = s_.points[i];
    const std::string ptr = at("/points", i);
    if (p.id.empty()) fail(at(ptr, "id"), "expected a non-empty string");
    claim(p.id, at(ptr, "id"));
    if (p.at && !in_range(*p.at)) check_range(*p.at, at(ptr, "at"));
    if (p.z) check_range(*p.z, at(ptr, "z"));
  }

  void line(std::size_t i) {
    const Line& line = s_.lines[i];
    auto ptr = [&] { return at("/lines", i); };  // spelled out only when needed (most lines have no id)
    auto tp = [&] { return at(ptr(), "through"); };
    if (!line.id.empty()) claim(line.id, at(ptr(), "id"));
    for (std::size_t k = 0; k < line.through.size(); ++k)
      if (std::find(line.through.begin(), line.through.begin() + static_cast<std::ptrdiff_t>(k), line.through[k]) !=
          line.through.begin() + static_cast<std::ptrdiff_t>(k))
        fail(at(tp(), k), "point \"" + s_.points[line.through[k]].id + "\" is listed twice on one line");
    if (line.through.size() < 2)
      fail(tp(), "a line needs at least 2 distinct points, got " + std::to_string(line.through.size()));
    const Point& first = s_.points[line.through.front()];
    const Point& last = s_.points[line.through.back()];
    // Ends that differ only in depth (solid geometry) are one point of the picture too: such a piece
    // would be drawn as a dot, and no line runs through it.
    if (first.at && last.at && *first.at == *last.at)
      fail(tp(), "the ends \"" + first.id + "\" and \"" + last.id + "\" are distinct points at the same position" +
                     (first.z.value_or(0) == last.z.value_or(0) ? "" : " in the picture (they differ only in depth)") +
                     ": the piece has zero length");
  }

  void circle(std::size_t i) {
    const Circle& c = s_.circles[i];
    const std::string ptr = at("/circles", i);
    claim(c.id, at(ptr, "id"));
    if (c.center && !c.center_point) check_range(*c.center, at(ptr, "center"));
    if (c.radius) {
      check_range(*c.radius, at(ptr, "radius"));
      if (*c.radius <= 0) fail(at(ptr, "radius"), "zero or negative radius " + to_text(*c.radius));
    }
    for (std::size_t k = 0; k < c.through.size(); ++k) {
      const Point& p = s_.points[c.through[k]];
      const std::string tp = at(at(ptr, "through"), k);
      if (c.center_point && c.through[k] == *c.center_point)
        fail(tp, "the centre \"" + p.id + "\" cannot lie on its own circle");
      if (c.center && p.at && *p.at == *c.center) fail(tp, "point \"" + p.id + "\" sits at the centre: zero radius");
    }
    for (std::size_t k = 0; k < c.claimed_centers.size(); ++k)
      if (c.center_point && c.claimed_centers[k].point == *c.center_point)
        fail(
            at(at(at(ptr, "claimed_centers"), k), "center"),
            "the centre \"" + s_.points[*c.center_point].id + "\" is the circle's own centre, not a claimed other one");
    if (c.quadrants.size() != 4 || c.quadrants.find_first_not_of("01") != std::string::npos || c.quadrants == "0000")
      fail(at(ptr, "quadrants"), "expected four characters 0/1 with at least one 1, like \"1111\"");
  }

  void shape(std::size_t i) {
    const Shape& shape = s_.shapes[i];
    const std::string ptr = at("/shapes", i);
    if (shape.id.empty()) fail(at(ptr, "id"), "expected a non-empty string");
    claim(shape.id, at(ptr, "id"));
    std::visit([&](const auto& g) { check(g, ptr, shape.type); }, shape.geometry);
    if (shape.drawn) {
      if (shape.drawn->index() != shape.geometry.index())
        fail(at(ptr, "drawn"), "the shape as drawn must be of its own type");
      std::visit([&](const auto& g) { check(g, at(ptr, "drawn"), shape.type); }, *shape.drawn);
    }
  }

  void check(const PolygonShape& p, const std::string& ptr, const std::string&) {
    const std::string pp = at(ptr, "points");
    if (p.points.size() < 3) fail(pp, "a polygon needs at least 3 points, got " + std::to_string(p.points.size()));
    for (std::size_t k = 0; k < p.points.size(); ++k) check_range(p.points[k], at(pp, k));
    if (twice_signed_area(p.points) == 0)
      fail(pp, "a polygon of zero area: its vertices are collinear, or its loops cancel (a symmetric bow-tie)");
  }
  void check(const StraightShape& s, const std::string& ptr, const std::string& type) {
    const std::string pp = at(ptr, "points");
    check_range(s.a, at(pp, 0));
    check_range(s.b, at(pp, 1));
    if (s.a == s.b) fail(pp, "the two points of a " + type + " coincide");
  }
  void check(const EllipseShape& e, const std::string& ptr, const std::string& type) {
    check_range(e.center, at(ptr, "center"));
    if (type == "circle") {
      check_positive(e.axes[0], at(ptr, "radius"), "radius");
      if (e.axes[0] != e.axes[1]) fail(at(ptr, "radius"), "a circle has one radius");
      return;
    }
    for (std::size_t k = 0; k < 2; ++k) check_positive(e.axes[k], at(at(ptr, "axes"), k), "a semi-axis");
    check_range(e.rotation_deg, at(ptr, "rotation"));
  }
  void check(const SectorShape& s, const std::string& ptr, const std::string&) {
    check_range(s.center, at(ptr, "center"));
    check_positive(s.radius, at(ptr, "radius"), "radius");
    check_range(s.start_deg, at(ptr, "start_angle"));
    check_range(s.end_deg, at(ptr, "end_angle"));
    if (modulo_360(s.end_deg - s.start_deg) == 0)
      fail(at(ptr, "end_angle"),
           "a sector's start and end angles coincide (modulo 360°): its angle is zero or a full turn");
  }
  void check(const StarShape& s, const std::string& ptr, const std::string&) {
    check_range(s.center, at(ptr, "center"));
    check_positive(s.outer_radius, at(ptr, "outer_radius"), "outer_radius");
    check_positive(s.inner_radius, at(ptr, "inner_radius"), "inner_radius");
    if (s.inner_radius >= s.outer_radius) fail(at(ptr, "inner_radius"), "inner_radius must be below outer_radius");
    if (s.num_points < 3 || s.num_points > 1000) fail(at(ptr, "num_points"), "expected an integer from 3 to 1000");
    check_range(s.rotation_deg, at(ptr, "rotation"));
  }
  void check(const SpiralShape& s, const std::string& ptr, const std::string&) {
    check_range(s.center, at(ptr, "center"));
    for (const auto& [value, key] :
         {std::pair{&s.initial_radius, "initial_radius"}, {&s.growth_rate, "growth_rate"}, {&s.max_theta, "max_theta"}})
      check_range(*value, at(ptr, key));
    for (const auto& [k, value] : {std::pair{0, &s.sin_eps}, {1, &s.sin_omega}, {2, &s.sin_phi}})
      check_range(*value, at(at(ptr, "sin_params"), static_cast<std::size_t>(k)));
    if (s.initial_radius < 0) fail(at(ptr, "initial_radius"), "initial_radius must not be negative");
    if (s.max_theta <= 0) fail(at(ptr, "max_theta"), "max_theta must be positive, got " + to_text(s.max_theta));
    // r(θ) = a + (b + ε sin(ωθ + φ)) θ ≥ a + (b − |ε|) θ, linear in θ: never negative on [0, θmax]
    // when it is not negative at θmax.
    if (s.initial_radius + (s.growth_rate - abs(s.sin_eps)) * s.max_theta < 0)
      fail(at(ptr, "growth_rate"), "the radius a + (b ± ε)·θ may become negative before max_theta");
  }

  void entity(std::size_t i) {
    const Entity& e = s_.entities[i];
    const std::string ptr = at("/entities", i);
    if (e.id.empty()) fail(at(ptr, "id"), "expected a non-empty string");
    claim(e.id, at(ptr, "id"));
    box(e.box, at(ptr, "box"));
    for (std::size_t k = 0; k < e.polygon.size(); ++k) check_range(e.polygon[k], at(at(ptr, "polygon"), k));
    for (std::size_t k = 0; k < e.labels.size(); ++k) {
      const std::string lp = at(at(ptr, "labels"), k);
      if (e.labels[k].id.empty()) fail(at(lp, "id"), "expected a non-empty string");
      claim(e.labels[k].id, at(lp, "id"));
      box(e.labels[k].box, at(lp, "box"));
    }
    entities_.insert(e.id);
  }

  void box(const std::array<Rational, 4>& b, const std::string& ptr) {
    for (std::size_t k = 0; k < 4; ++k) check_range(b[k], at(ptr, k));
    if (b[0] >= b[2] || b[1] >= b[3]) fail(ptr, "degenerate box: expected x0 < x1 and y0 < y1");
  }

  void arrow(std::size_t i) {
    const Arrow& a = s_.arrows[i];
    const std::string ptr = at("/arrows", i);
    if (a.id.empty()) fail(at(ptr, "id"), "expected a non-empty string");
    claim(a.id, at(ptr, "id"));
    if (a.polygon.size() < 2)
      fail(at(ptr, "polygon"), "an arrow outline needs at least 2 points, got " + std::to_string(a.polygon.size()));
    for (std::size_t k = 0; k < a.polygon.size(); ++k) check_range(a.polygon[k], at(at(ptr, "polygon"), k));
    arrows_.insert(a.id);
  }

  void arrow_head(std::size_t i) {
    const ArrowHead& h = s_.arrow_heads[i];
    const std::string ptr = at("/arrow_heads", i);
    if (h.id.empty()) fail(at(ptr, "id"), "expected a non-empty string");
    claim(h.id, at(ptr, "id"));
    box(h.box, at(ptr, "box"));
    if (h.orientation) check_range(*h.orientation, at(ptr, "orientation"));
    if (!h.arrow.empty() && !arrows_.count(h.arrow))
      fail(at(ptr, "arrow"), "unknown arrow \"" + h.arrow + "\" (expected the id of an arrow in /arrows)");
  }

  void link(std::size_t i) {
    const Link& l = s_.links[i];
    const std::string ptr = at("/links", i);
    claim(l.id, at(ptr, "id"));
    for (const auto& [end, key] : {std::pair{&l.from, "from"}, {&l.to, "to"}})
      if (!entities_.count(*end))
        fail(at(ptr, key), "unknown entity \"" + *end + "\" (expected the id of an entity in /entities)");
    if (l.path.size() == 1) fail(at(ptr, "path"), "a link path needs at least 2 points, got 1");
    for (std::size_t k = 0; k < l.path.size(); ++k) check_range(l.path[k], at(at(ptr, "path"), k));
    for (std::size_t k = 0; k < l.arrows.size(); ++k)
      if (!arrows_.count(l.arrows[k]))
        fail(at(at(ptr, "arrows"), k),
             "unknown arrow \"" + l.arrows[k] + "\" (expected the id of an arrow in /arrows)");
  }

  void layer(std::size_t i) {
    const Layer& l = s_.layers[i];
    const std::string ptr = at("/layers", i);
    if (l.id.empty()) fail(at(ptr, "id"), "expected a non-empty string");
    claim(l.id, at(ptr, "id"));
    if (l.center) {
      check_range(*l.center, at(ptr, "center"));
      check_positive(l.radius, at(ptr, "radius"), "radius");
    } else {
      if (l.points.size() < 3)
        fail(at(ptr, "points"), "a layer polygon needs at least 3 points, got " + std::to_string(l.points.size()));
      for (std::size_t k = 0; k < l.points.size(); ++k) check_range(l.points[k], at(at(ptr, "points"), k));
    }
  }

  void relation(std::size_t i) {
    const Relation& r = s_.relations[i];
    const std::string ptr = at("/relations", i);
    if (!relation_kind(r.type)) {
      std::string names;
      for (auto k : declarable_relations()) names += (names.empty() ? "" : ", ") + std::string(relation_name(k));
      fail(at(ptr, "type"), "unknown relation \"" + r.type + "\" (expected one of: " + names + ")");
    }
    for (std::size_t k = 0; k < 2; ++k)
      if (!ids_.count(r.between[k])) fail(at(at(ptr, "between"), k), "unknown element \"" + r.between[k] + "\"");
  }

  const Scene& s_;
  std::unordered_map<std::string, std::string> ids_;  // id → pointer where it was declared
  std::unordered_set<std::string> entities_, arrows_;
};

}  // namespace

std::optional<InputError> validate(const Scene& scene) {
  try {
    Validator(scene).run();
  } catch (const Invalid& invalid) {
    return invalid.error;
  }
  return std::nullopt;
}

}  // namespace geotruth
