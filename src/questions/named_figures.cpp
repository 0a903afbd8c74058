#include "questions/named_figures.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "core/px_text.hpp"
#include "geometry/estimates.hpp"
#include "geometry/measures.hpp"
#include "geometry/predicates.hpp"
#include "questions/truths.hpp"

namespace geotruth::questions {

bool is_named_figure_question(const Question& q) {
  return (q.ask == "exists" && !q.vertices.empty()) || q.ask == "diameter" || q.ask == "radius" || q.ask == "estimate";
}

namespace {

enum class State { yes, no, doubtful };

// One condition a named figure rests on, with the fact that says why. A condition too close to
// call (doubtful) still leans one way by the exact geometry (`lean`): the answer it gives is the
// truth shown beside the ambiguous verdict.
struct Condition {
  State state = State::yes;
  Fact fact;
  bool lean = true;
  /// A side no drawn line joins, doubtful only as its end `near_point` may lie on drawn line
  /// `near_line` through its other end.
  std::optional<std::size_t> near_line;
  std::size_t near_point = 0;
};

std::string joined(const std::vector<std::string>& names, const char* separator = ", ") {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : separator) + n;
  return out;
}

class Figures {
 public:
  Figures(const Scene& scene, const Incidence& inc, const FrameBands& bands)
      : scene_(scene), inc_(inc), bands_(bands), lines_of_(scene.points.size()) {
    for (std::size_t i = 0; i < scene.points.size(); ++i) index_.emplace(scene.points[i].id, i);
    for (std::size_t l = 0; l < inc.lines.size(); ++l) {
      line_index_.emplace(inc.lines[l].name, l);
      for (auto v : inc.lines[l].vertices)
        if (v < lines_of_.size()) lines_of_[v].insert(l);
    }
  }

  Truth evaluate(const Question& q) {
    if (scene_.points.empty())
      return unsupported(
          "the item has no symbolic figure (no points): its questions can only be answered from "
          "its picture");
    std::vector<std::size_t> corners, versus;
    if (auto missing = resolve(q.vertices, corners)) return *missing;
    if (auto missing = resolve(q.versus, versus)) return *missing;
    if (q.ask == "exists") {
      const std::size_t n = q.of == "triangle" ? 3 : q.of == "quadrilateral" ? 4 : 0;
      if (n == 0) return unsupported("named figures of \"" + q.of + "\" are not evaluated (triangle, quadrilateral)");
      if (corners.size() != n)
        return unsupported("a " + q.of + " is named by " + std::to_string(n) + " points, got " +
                           std::to_string(corners.size()));
      return polygon(q, corners);
    }
    if (q.ask == "diameter" || q.ask == "radius") {
      if (corners.size() != 2) return unsupported("a " + q.ask + " is named by its two ends");
      return q.ask == "diameter" ? diameter(q, corners) : radius(q, corners);
    }
    if (q.ask == "estimate") return estimate(q, corners, versus);
    return unsupported("named-figure questions asking \"" + q.ask + "\" are not evaluated");
  }

 private:
  std::optional<Truth> resolve(const std::vector<std::string>& names, std::vector<std::size_t>& out) const {
    for (const auto& name : names) {
      auto it = index_.find(name);
      if (it == index_.end()) return unsupported("the figure has no point named \"" + name + "\"");
      out.push_back(it->second);
    }
    return std::nullopt;
  }

  const std::string& id(std::size_t p) const { return scene_.points[p].id; }
  const std::optional<Vec2>& at(std::size_t p) const { return scene_.points[p].at; }

  static Truth boolean(bool value) {
    Truth t;
    t.values.push_back(value ? "True" : "False");
    return t;
  }

  // Doubtful incidence findings about point p and a line that holds point q: p might be on it.
  const Finding* doubtful_on_line_with(std::size_t p, std::size_t q) const {
    for (const Finding& f : inc_.findings) {
      if (f.severity != Severity::doubtful || f.elements.size() < 2 || f.elements[0] != id(p)) continue;
      auto line = line_index_.find(f.elements[1]);
      if (line != line_index_.end() && lines_of_[q].count(line->second)) return &f;
    }
    return nullptr;
  }

  // Condition c is doubtful where doubtful findings say point p may be off the line named `line`
  // (the line merged within the ambiguous band, or p too close to it to tell): each joins its detail.
  void doubt_if_off(Condition& c, std::size_t p, const std::string& line) const {
    for (const Finding& f : inc_.findings)
      if (f.severity == Severity::doubtful && f.elements.size() >= 2 && f.elements[0] == id(p) &&
          f.elements[1] == line) {
        c.state = State::doubtful;
        c.fact.detail += "; " + id(p) + ": " + f.detail + (f.slack_px ? " (" + px_text(*f.slack_px) + ")" : "");
        c.fact.slack_px = f.slack_px;
      }
  }

  // A finding of `kind` about point p and the element named `element`.
  const Finding* finding_about(FindingKind kind, std::size_t p, const std::string& element) const {
    for (const Finding& f : inc_.findings)
      if (f.kind == kind && f.elements.size() >= 2 && f.elements[0] == id(p) && f.elements[1] == element) return &f;
    return nullptr;
  }

  // Whether one of `line`'s pieces starts or ends at point v and holds point w.
  bool drawn_from(std::size_t v, std::size_t w, const MaximalLine& line) const {
    return std::any_of(line.pieces.begin(), line.pieces.end(), [&](auto k) {
      const auto& through = scene_.lines[k].through;
      const bool ends_at_v = through.front() == v || through.back() == v;
      return ends_at_v && std::find(through.begin(), through.end(), w) != through.end();
    });
  }

  // Side p–q: a segment formed by letters (both on one maximal drawn line).
  Condition side(std::size_t p, std::size_t q) const {
    Condition c;
    c.fact.kind = "side";
    c.fact.elements = {id(p), id(q)};
    std::optional<std::size_t> common;
    for (auto l : lines_of_[p])
      if (lines_of_[q].count(l)) {
        common = l;
        break;
      }
    if (common) {
      const MaximalLine& line = inc_.lines[*common];
      c.fact.elements.push_back(line.name);
      c.fact.detail = id(p) + "–" + id(q) + " is drawn (on " + line.name + ")";
      if (line.pieces.size() > 1) {
        std::string pieces;
        for (auto k : line.pieces) {
          const auto& through = scene_.lines[k].through;
          pieces += (pieces.empty() ? "" : ", ") + scene_.points[through.front()].id + scene_.points[through.back()].id;
        }
        c.fact.detail +=
            ", one straight line drawn as " + std::to_string(line.pieces.size()) + " pieces (" + pieces + ")";
      }
      for (std::size_t v : {p, q}) {
        if (const Finding* f = finding_about(FindingKind::undeclared_on_line, v, line.name))
          c.fact.detail += "; " + id(v) + " lies on it" + (f->slack_px ? " within " + px_text(*f->slack_px) : "") +
                           " but is not declared on it";
        // A piece drawn from v through the other joins them whether or not v is on the rest of the
        // line (VisOnlyQA 00578noise_1: F–D drawn as a piece of its own, merged with J–D).
        if (!drawn_from(v, v == p ? q : p, line)) doubt_if_off(c, v, line.name);
      }
      if (c.state == State::yes && line.ends && at(p) && at(q)) {
        const auto& [a, b] = *line.ends;
        const Rational off = std::max(geometry::squared_distance_to_line(*at(p), a, b),
                                      geometry::squared_distance_to_line(*at(q), a, b));
        c.fact.slack_px = bands_.squared_to_px(off);
      }
      return c;
    }
    c.state = State::no;
    c.lean = false;
    c.fact.detail = "no drawn line joins " + id(p) + " and " + id(q);
    for (auto [a, b] : {std::pair{p, q}, std::pair{q, p}})
      if (const Finding* f = doubtful_on_line_with(a, b)) {
        c.state = State::doubtful;
        c.fact.detail += "; but " + id(a) + " is too close to " + f->elements[1] + " (through " + id(b) +
                         ") to tell whether it lies on it";
        c.fact.slack_px = f->slack_px;
        c.fact.elements.push_back(f->elements[1]);
        c.near_line = line_index_.at(f->elements[1]), c.near_point = a;
      }
    return c;
  }

  // A side doubtful only as one end may lie on a drawn line through the other that also holds a
  // corner next to the side (`neighbours`) fails either way: on that line, three corners in a row
  // are collinear; off it, no drawn line joins the two (VisOnlyQA 00204: A 3.5 px from line F-I,
  // triangle AIF).
  void settle_either_way(Condition& c, const std::array<std::size_t, 2>& neighbours) const {
    if (c.state != State::doubtful || !c.near_line) return;
    for (std::size_t r : neighbours)
      if (r != c.near_point && lines_of_[r].count(*c.near_line)) {
        c.state = State::no;
        c.fact.detail += "; either way no side: on it, " + id(c.near_point) + " would make three corners in a row (" +
                         id(r) + " lies on it too) collinear";
        return;
      }
  }

  // Corners p, q, r not on one line: no drawn line holds all three, and their smallest height is
  // beyond the band (exact: (2·area)² against ε² · longest side²).
  Condition not_collinear(std::size_t p, std::size_t q, std::size_t r) const {
    Condition c;
    c.fact.kind = "not_collinear";
    c.fact.elements = {id(p), id(q), id(r)};
    for (auto l : lines_of_[p])
      if (lines_of_[q].count(l) && lines_of_[r].count(l)) {
        c.state = State::no;
        c.lean = false;
        c.fact.elements.push_back(inc_.lines[l].name);
        c.fact.detail = id(p) + ", " + id(q) + " and " + id(r) + " lie on one drawn line (" + inc_.lines[l].name + ")";
        // One of them may be off it (VisOnlyQA 00142noise_1: B–C and B–E, read 0.4° apart, merged
        // as sharing B and a point within the band of both; E lies 2.4 px off the line through C and B).
        for (std::size_t v : {p, q, r}) doubt_if_off(c, v, inc_.lines[l].name);
        return c;
      }
    if (!at(p) || !at(q) || !at(r)) {
      c.fact.detail = "no drawn line holds " + id(p) + ", " + id(q) + " and " + id(r);
      return c;
    }
    const Vec2 &a = *at(p), &b = *at(q), &d = *at(r);
    const Rational twice_area = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x);
    auto d2 = [](const Vec2& u, const Vec2& v) -> Rational {
      return (u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y);
    };
    const Rational longest = std::max({d2(a, b), d2(b, d), d2(a, d)});
    const Rational height2 = longest == 0 ? Rational(0) : Rational(twice_area * twice_area / longest);
    const Decision decision = bands_.decide_squared(height2);
    c.fact.slack_px = bands_.squared_to_px(height2);
    const std::string names = id(p) + ", " + id(q) + ", " + id(r);
    if (decision == Decision::holds) {
      c.state = State::no;
      c.lean = false;
      c.fact.detail = names + " lie on one line within the band (smallest height " + px_text(*c.fact.slack_px) + ")";
    } else if (decision == Decision::ambiguous) {
      c.state = State::doubtful;
      c.fact.detail = names + " are nearly on one line (smallest height " + px_text(*c.fact.slack_px) + ")";
    } else {
      c.fact.detail = names + " are not on one line (smallest height " + px_text(*c.fact.slack_px) + ")";
    }
    return c;
  }

  // Opposite sides [a, b] and [c, d] of a quadrilateral must not cross. Slack: when they cross,
  // the least distance of an end to the other side's line (how far it must move to uncross);
  // otherwise the distance between the two sides.
  Condition sides_apart(std::size_t p1, std::size_t p2, std::size_t q1, std::size_t q2) const {
    Condition c;
    c.fact.kind = "sides_cross";
    c.fact.elements = {id(p1), id(p2), id(q1), id(q2)};
    const std::string sides = id(p1) + id(p2) + " and " + id(q1) + id(q2);
    if (!at(p1) || !at(p2) || !at(q1) || !at(q2)) {
      c.fact.detail = "sides " + sides + ": positions unknown";
      return c;
    }
    const Vec2 &a = *at(p1), &b = *at(p2), &d1 = *at(q1), &d2 = *at(q2);
    if (a == b || d1 == d2) {
      c.state = State::no;
      c.lean = false;
      c.fact.detail = "a side of zero length";
      return c;
    }
    const int o1 = geometry::orientation(a, b, d1), o2 = geometry::orientation(a, b, d2),
              o3 = geometry::orientation(d1, d2, a), o4 = geometry::orientation(d1, d2, b);
    const bool collinear = o1 == 0 && o2 == 0;
    const bool cross = !collinear && o1 * o2 <= 0 && o3 * o4 <= 0;
    Rational slack2;
    if (cross) {
      slack2 = std::min({geometry::squared_distance_to_line(a, d1, d2), geometry::squared_distance_to_line(b, d1, d2),
                         geometry::squared_distance_to_line(d1, a, b), geometry::squared_distance_to_line(d2, a, b)});
    } else {
      slack2 =
          std::min({geometry::squared_distance_to_segment(a, d1, d2), geometry::squared_distance_to_segment(b, d1, d2),
                    geometry::squared_distance_to_segment(d1, a, b), geometry::squared_distance_to_segment(d2, a, b)});
    }
    const Decision decision = bands_.decide_squared(slack2);
    c.fact.slack_px = bands_.squared_to_px(slack2);
    if (cross) {
      c.state = decision == Decision::fails ? State::no : State::doubtful;
      c.lean = false;
      c.fact.detail = "sides " + sides + " cross: the quadrilateral is not simple" +
                      (c.state == State::doubtful ? " (barely: an end within the band of the other side's line)" : "");
    } else if (decision == Decision::fails) {
      c.fact.detail = "sides " + sides + " do not meet";
    } else {
      c.state = State::doubtful;
      c.fact.detail = "sides " + sides + " come within " + px_text(*c.fact.slack_px) + " of each other";
    }
    return c;
  }

  // The conjunction of conditions as a True/False truth (negated by `absent`): false as soon as
  // one condition clearly fails; ambiguous when none fails and some is too close to call.
  static Truth conclude(const Question& q, std::vector<Condition> conditions) {
    const bool any_no = std::any_of(conditions.begin(), conditions.end(), [](auto& c) { return c.state == State::no; });
    const bool any_doubt =
        std::any_of(conditions.begin(), conditions.end(), [](auto& c) { return c.state == State::doubtful; });
    const bool holds = !any_no && !any_doubt;
    // Too close to call: the answer the exact geometry gives, with the other as the alternative.
    const bool leans = !any_no && std::all_of(conditions.begin(), conditions.end(), [](auto& c) {
      return c.state == State::yes || (c.state == State::doubtful && c.lean);
    });
    Truth t = boolean(leans != q.absent);
    const std::string other = (leans != q.absent) ? "False" : "True";
    for (auto& c : conditions) {
      Fact f = std::move(c.fact);
      if (!any_no && c.state == State::doubtful) {
        f.ambiguous = true;
        f.alternative = other;
      }
      f.decisive = any_no ? c.state == State::no : holds;
      t.facts.push_back(std::move(f));
    }
    return t;
  }

  Truth polygon(const Question& q, const std::vector<std::size_t>& corners) const {
    const std::size_t n = corners.size();
    std::vector<Condition> conditions;
    std::set<std::size_t> distinct(corners.begin(), corners.end());
    if (distinct.size() != n) {
      Condition c;
      c.state = State::no;
      c.fact.kind = "corners";
      c.fact.elements = q.vertices;
      c.fact.detail = "the named corners repeat (" + joined(q.vertices) + ")";
      conditions.push_back(std::move(c));
      return conclude(q, std::move(conditions));
    }
    for (std::size_t k = 0; k < n; ++k) {
      conditions.push_back(side(corners[k], corners[(k + 1) % n]));
      settle_either_way(conditions.back(), {corners[(k + n - 1) % n], corners[(k + 2) % n]});
    }
    if (n == 3) {
      conditions.push_back(not_collinear(corners[0], corners[1], corners[2]));
    } else {
      for (std::size_t k = 0; k < n; ++k)
        conditions.push_back(not_collinear(corners[(k + n - 1) % n], corners[k], corners[(k + 1) % n]));
      conditions.push_back(sides_apart(corners[0], corners[1], corners[2], corners[3]));
      conditions.push_back(sides_apart(corners[1], corners[2], corners[3], corners[0]));
    }
    return conclude(q, std::move(conditions));
  }

  // Point p on drawn circle c: in the incidence structure's circle points, or too close to tell.
  Condition on_circle(std::size_t p, std::size_t c) const {
    Condition cond;
    const std::string name = circle_name(scene_, c);
    cond.fact.kind = "on_circle";
    cond.fact.elements = {id(p), name};
    const auto& on = inc_.circle_points[c];
    const Circle& circle = scene_.circles[c];
    const auto r2 = radius_squared(scene_, circle);
    if (circle.center && r2 && at(p))
      cond.fact.slack_px = bands_.to_px(geometry::circle_gap(*at(p), *circle.center, *r2));
    if (std::find(on.begin(), on.end(), p) != on.end()) {
      cond.fact.detail = id(p) + " is on " + name;
      return cond;
    }
    cond.lean = false;
    if (const Finding* f = finding_about(FindingKind::near_miss_circle, p, name)) {
      cond.state = State::doubtful;
      cond.fact.detail = id(p) + ": " + f->detail + " (" + name + ")";
      return cond;
    }
    cond.state = State::no;
    cond.fact.detail = id(p) + " is not on " + name;
    return cond;
  }

  // The centre of circle c on the segment p–q (within the band of the line, between the ends).
  Condition centre_on(std::size_t c, std::size_t p, std::size_t q) const {
    Condition cond;
    const std::string name = circle_name(scene_, c);
    cond.fact.kind = "centre_on_segment";
    cond.fact.elements = {name, id(p), id(q)};
    const Circle& circle = scene_.circles[c];
    if (!circle.center || !at(p) || !at(q) || *at(p) == *at(q)) {
      cond.state = State::no;
      cond.lean = false;
      cond.fact.detail = "the centre of " + name + " or an end has no position";
      return cond;
    }
    const Rational off2 = geometry::squared_distance_to_segment(*circle.center, *at(p), *at(q));
    const Decision decision = bands_.decide_squared(off2);
    cond.fact.slack_px = bands_.squared_to_px(off2);
    cond.state = decision == Decision::holds       ? State::yes
                 : decision == Decision::ambiguous ? State::doubtful
                                                   : State::no;
    cond.lean = decision == Decision::holds;
    cond.fact.detail = "the centre of " + name + " is " + px_text(*cond.fact.slack_px) + " from " + id(p) + id(q);
    return cond;
  }

  // The centre of circle c is point p (by name, or by position within the band).
  Condition centre_is(std::size_t c, std::size_t p) const {
    Condition cond;
    const std::string name = circle_name(scene_, c);
    cond.fact.kind = "centre";
    cond.fact.elements = {name, id(p)};
    const Circle& circle = scene_.circles[c];
    if (circle.center_point && *circle.center_point == p) {
      cond.fact.detail = id(p) + " is the centre of " + name;
      return cond;
    }
    if (!circle.center || !at(p)) {
      cond.state = State::no;
      cond.lean = false;
      cond.fact.detail = id(p) + " is not the centre of " + name;
      return cond;
    }
    const Rational dx = at(p)->x - circle.center->x, dy = at(p)->y - circle.center->y, d2 = dx * dx + dy * dy;
    const Decision decision = bands_.decide_squared(d2);
    cond.fact.slack_px = bands_.squared_to_px(d2);
    cond.state = decision == Decision::holds       ? State::yes
                 : decision == Decision::ambiguous ? State::doubtful
                                                   : State::no;
    cond.lean = decision == Decision::holds;
    cond.fact.detail = id(p) + " is " + px_text(*cond.fact.slack_px) + " from the centre of " + name;
    return cond;
  }

  // The best of several alternatives (one per circle): yes if any holds, else doubtful if any is
  // too close to call, else no; its conditions are those of that alternative.
  static std::vector<Condition> best_of(std::vector<std::vector<Condition>> alternatives, const std::string& none) {
    auto state_of = [](const std::vector<Condition>& all) {
      State s = State::yes;
      for (auto& c : all)
        if (c.state == State::no)
          return State::no;
        else if (c.state == State::doubtful)
          s = State::doubtful;
      return s;
    };
    for (State wanted : {State::yes, State::doubtful})
      for (auto& a : alternatives)
        if (state_of(a) == wanted) return std::move(a);
    Condition c;
    c.state = State::no;
    c.lean = false;
    c.fact.kind = "circle";
    c.fact.detail = none;
    for (auto& a : alternatives)
      for (auto& cond : a)
        if (cond.state == State::no) {
          c.fact.detail += "; " + cond.fact.detail;
          break;
        }
    return {std::move(c)};
  }

  std::vector<std::size_t> drawn_circles() const {
    std::vector<std::size_t> out;
    for (std::size_t c = 0; c < scene_.circles.size(); ++c)
      if (scene_.circles[c].quadrants == "1111") out.push_back(c);
    return out;
  }

  Truth diameter(const Question& q, const std::vector<std::size_t>& ends) const {
    const std::size_t a = ends[0], b = ends[1];
    std::vector<std::vector<Condition>> per_circle;
    for (auto c : drawn_circles()) per_circle.push_back({on_circle(a, c), on_circle(b, c), centre_on(c, a, b)});
    std::vector<Condition> conditions =
        best_of(std::move(per_circle),
                "no drawn circle has " + id(a) + " and " + id(b) + " on it with its centre between them");
    conditions.push_back(side(a, b));
    return conclude(q, std::move(conditions));
  }

  Truth radius(const Question& q, const std::vector<std::size_t>& ends) const {
    std::vector<std::vector<Condition>> alternatives;
    for (auto c : drawn_circles())
      for (auto [o, p] : {std::pair{ends[0], ends[1]}, std::pair{ends[1], ends[0]}})
        alternatives.push_back({centre_is(c, o), on_circle(p, c)});
    std::vector<Condition> conditions =
        best_of(std::move(alternatives),
                "no drawn circle is centred at one of " + id(ends[0]) + ", " + id(ends[1]) + " through the other");
    conditions.push_back(side(ends[0], ends[1]));
    return conclude(q, std::move(conditions));
  }

  Truth estimate(const Question& q, const std::vector<std::size_t>& first,
                 const std::vector<std::size_t>& second) const {
    std::vector<Rational> options;
    for (const auto& o : q.options) {
      auto value = parse_rational_string(o).value;
      if (!value) return unsupported("estimate options must be numbers, got \"" + o + "\"");
      options.push_back(*value);
    }
    if (options.empty()) return unsupported("an estimate needs options to choose from");
    for (auto p : first)
      if (!at(p)) return unsupported("point " + id(p) + " has no position");
    for (auto p : second)
      if (!at(p)) return unsupported("point " + id(p) + " has no position");
    auto placed = [&](const std::vector<std::size_t>& ids) {
      std::vector<Vec2> out;
      for (auto p : ids) out.push_back(*at(p));
      return out;
    };
    const bool ratio = q.of == "length_ratio" || q.of == "area_ratio";
    if (ratio && std::any_of(options.begin(), options.end(), [](const Rational& o) { return o <= 0; }))
      return unsupported("ratio options must be positive numbers");
    std::vector<geometry::OptionRange> ranges;
    for (const auto& [low, high] : q.option_ranges) {
      const auto lo = parse_rational_string(low).value, hi = parse_rational_string(high).value;
      if (!lo || !hi || *hi < *lo || (ratio && *lo <= 0))
        return unsupported("an option's range must be two numbers [low, high]" +
                           std::string(ratio ? ", both positive" : "") + ", got [" + low + ", " + high + "]");
      ranges.push_back({*lo, *hi});
    }
    std::optional<geometry::RangeReach> reach;
    geometry::EstimateChoice choice;
    std::string measure, scale = ratio ? "log scale" : "degrees";
    Truth t;
    if (q.of == "length_ratio") {
      if (first.size() != 2 || second.size() != 2)
        return unsupported("a length ratio names two segments (vertices and versus), two points each");
      if (*at(first[0]) == *at(first[1]) || *at(second[0]) == *at(second[1]))
        return unsupported("a named segment has zero length");
      choice =
          geometry::length_ratio_choice(*at(first[0]), *at(first[1]), *at(second[0]), *at(second[1]), options, bands_);
      if (!ranges.empty())
        reach =
            geometry::length_ratio_ranges(*at(first[0]), *at(first[1]), *at(second[0]), *at(second[1]), ranges, bands_);
      measure = "|" + id(first[0]) + id(first[1]) + "| / |" + id(second[0]) + id(second[1]) + "|";
      for (const auto& seg : {first, second})
        if (Condition c = side(seg[0], seg[1]); c.state != State::yes) {
          c.fact.kind = "not_drawn";
          t.facts.push_back(std::move(c.fact));
        }
    } else if (q.of == "area_ratio") {
      const auto p = placed(first), r = placed(second);
      for (const auto* poly : {&p, &r}) {
        if (poly->size() < 3) return unsupported("an area ratio names two polygons by at least three corners each");
        if (geometry::polygon_area(*poly) == 0) return unsupported("a named polygon has no area");
        if (!simple(*poly)) return unsupported("a named polygon crosses itself: its area is not defined");
      }
      choice = geometry::area_ratio_choice(p, r, options, bands_);
      if (!ranges.empty()) reach = geometry::area_ratio_ranges(p, r, ranges, bands_);
      std::vector<std::string> a, b;
      for (auto v : first) a.push_back(id(v));
      for (auto v : second) b.push_back(id(v));
      measure = "area(" + joined(a, "") + ") / area(" + joined(b, "") + ")";
    } else if (q.of == "angle") {
      if (first.size() != 3) return unsupported("an angle is named by three points, its vertex in the middle");
      if (*at(first[0]) == *at(first[1]) || *at(first[2]) == *at(first[1]))
        return unsupported("an arm of the angle has zero length");
      choice = geometry::angle_choice(*at(first[0]), *at(first[1]), *at(first[2]), options, bands_);
      if (!ranges.empty()) reach = geometry::angle_ranges(*at(first[0]), *at(first[1]), *at(first[2]), ranges, bands_);
      measure = "angle " + id(first[0]) + id(first[1]) + id(first[2]);
    } else {
      return unsupported("estimates of \"" + q.of + "\" are not evaluated (length_ratio, area_ratio, angle)");
    }
    Fact f;
    f.kind = "estimate";
    f.elements = q.vertices;
    f.elements.insert(f.elements.end(), q.versus.begin(), q.versus.end());
    char value[64];
    std::snprintf(value, sizeof value, ratio ? "%.3f" : "%.1f degrees", choice.value);
    f.decisive = true;
    // The option whose range the least move reaches, besides `besides` (reporting).
    auto least_move = [&](std::optional<std::size_t> besides) {
      std::optional<std::size_t> out;
      for (std::size_t i = 0; i < q.options.size(); ++i)
        if (i != besides && (!out || reach->move_units[i] < reach->move_units[*out])) out = i;
      return out;
    };
    if (reach && !reach->reachable.empty()) {
      // The dataset's ranges: the option whose range holds the measure, or one it reaches within the
      // data's precision; a second range reached too leaves the answer ambiguous.
      auto range_text = [&](std::size_t i) {
        return "option " + q.options[i] + "'s range [" + q.option_ranges[i][0] + ", " + q.option_ranges[i][1] + "]";
      };
      const std::size_t best = reach->reachable.front();
      t.values.push_back(q.options[best]);
      f.detail = measure + " = " + value + ": " +
                 (reach->move_units[best] == 0 ? "in " + range_text(best)
                                               : range_text(best) + " within the data's precision (" +
                                                     px_text(bands_.to_px(reach->move_units[best])) + ")");
      // The next range: a second one reached, else the one the least move reaches (reporting).
      const std::optional<std::size_t> next = reach->reachable.size() > 1 ? reach->reachable[1] : least_move(best);
      if (next) {
        f.slack_px = bands_.to_px(reach->move_units[*next]);
        f.detail += "; " + range_text(*next) + " is reached once the points move by " + px_text(*f.slack_px);
      }
      if (reach->reachable.size() > 1) {
        f.ambiguous = true;
        f.alternative = q.options[*next];
        f.detail += " (within the data's precision, ε_num)";
      }
      t.facts.insert(t.facts.begin(), std::move(f));
      return t;
    }
    t.values.push_back(q.options[choice.best]);
    f.detail = measure + " = " + value + ": nearest option " + q.options[choice.best] + " (" + scale + ")";
    if (reach) {
      // The dataset asks only within its ranges: a measure in none, even within the data's precision,
      // is of a figure it would not ask this of (misread, or misbuilt), and no option is its answer.
      const std::optional<std::size_t> other = least_move(choice.best);
      const std::size_t nearest_range =
          other && reach->move_units[*other] < reach->move_units[choice.best] ? *other : choice.best;
      f.slack_px = bands_.to_px(reach->move_units[nearest_range]);
      f.detail += ", in no option's range even within the data's precision (the nearest, option " +
                  q.options[nearest_range] + "'s, needs a move of " + px_text(*f.slack_px) +
                  "): the dataset asks this only of figures whose measure lies in one";
      f.ambiguous = true;
      f.alternative = q.options[nearest_range != choice.best ? nearest_range : choice.runner_up.value_or(choice.best)];
      t.facts.insert(t.facts.begin(), std::move(f));
      return t;
    }
    if (choice.runner_up) {
      f.slack_px = bands_.to_px(choice.slack_units);
      const std::string& next = q.options[*choice.runner_up];
      if (choice.tie) {
        f.detail += ", exactly halfway to " + next;
      } else {
        f.detail += "; " + next + " becomes the nearest once the points move by " + px_text(*f.slack_px);
      }
      // The data's own precision (ε_num: rounding) decides: an estimate asks for a coarse reading,
      // so a runner-up only the band's visual part (up to ε_vis) reaches leaves the answer.
      if (choice.tie || choice.decision == Decision::holds) {
        f.ambiguous = true;
        f.alternative = next;
        f.detail += " (within the data's precision, ε_num)";
      }
    }
    t.facts.insert(t.facts.begin(), std::move(f));
    return t;
  }

  // A polygon whose non-adjacent sides do not meet (exact orientation tests).
  static bool simple(const std::vector<Vec2>& poly) {
    const std::size_t n = poly.size();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        if (j == i + 1 || (i == 0 && j == n - 1)) continue;
        const Vec2 &a = poly[i], &b = poly[(i + 1) % n], &c = poly[j], &d = poly[(j + 1) % n];
        const int o1 = geometry::orientation(a, b, c), o2 = geometry::orientation(a, b, d),
                  o3 = geometry::orientation(c, d, a), o4 = geometry::orientation(c, d, b);
        if (o1 * o2 <= 0 && o3 * o4 <= 0 && !(o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0)) return false;
      }
    return true;
  }

  const Scene& scene_;
  const Incidence& inc_;
  const FrameBands& bands_;
  std::map<std::string, std::size_t> index_;
  std::map<std::string, std::size_t> line_index_;
  std::vector<std::set<std::size_t>> lines_of_;  // per scene point: the maximal lines through it
};

}  // namespace

Truth evaluate_named_figure(const Scene& scene, const Question& q, const Incidence& incidence,
                            const FrameBands& bands) {
  return Figures(scene, incidence, bands).evaluate(q);
}

}  // namespace geotruth::questions
