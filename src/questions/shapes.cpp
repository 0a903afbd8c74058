// GePBench shape questions on the measures geometry/measures.hpp gives (centroids, extents,
// areas), each answer with the slack that the measure leaves.
#include "questions/shapes.hpp"
#include <geotruth/work_limit.hpp>

#include "geometry/measures.hpp"
#include "geometry/relations.hpp"
#include "questions/gepbench_rule.hpp"

#include <geotruth/shape_types.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace geotruth::questions {
namespace {

Truth no_truth(std::string reason) {
  Truth t;
  t.reason = std::move(reason);
  return t;
}

std::vector<const Shape*> of_type(const Scene& s, const std::string& type) {
  std::vector<const Shape*> out;
  for (const auto& shape : s.shapes)
    if (shape.id == type || shape_type(shape) == type) out.push_back(&shape);
  return out;
}

// The one shape a question names ("the circle"); a name matching several is no truth.
const Shape* the_shape(const Scene& s, const std::string& name, Truth& fail) {
  const auto shapes = of_type(s, name);
  if (shapes.size() == 1) return shapes.front();
  fail = no_truth("\"the " + name + "\" names " + std::to_string(shapes.size()) + " shapes in this scene");
  return nullptr;
}

// Two vertices of a polygon within ε_num of each other: a repeated vertex (the shape is drawn with
// fewer corners than its type says). Returns the squared distance of the closest such pair.
std::optional<Rational> repeated_vertex(const Shape& shape, const FrameBands& bands) {
  const auto* polygon = std::get_if<PolygonShape>(&shape.geometry);
  if (!polygon) return std::nullopt;
  std::optional<Rational> closest;
  for (std::size_t i = 0; i < polygon->points.size(); ++i)
    for (std::size_t j = i + 1; j < polygon->points.size(); ++j) {
      const Rational dx = polygon->points[i].x - polygon->points[j].x, dy = polygon->points[i].y - polygon->points[j].y;
      const Rational d2 = dx * dx + dy * dy;
      if (bands.decide_squared(d2) == Decision::holds && (!closest || d2 < *closest)) closest = d2;
    }
  return closest;
}

class ShapeQuestions {
 public:
  ShapeQuestions(const Scene& s, const Bands& bands)
      : s_(s), frame_bands_(bands, s.frame), px_(frame_bands_.px_per_unit()) {}

  void needs_boxes() { needs_boxes_ = true; }

  std::optional<Truth> evaluate(const Question& q) {
    needs_boxes_ = needs_boxes_ || q.criterion == "region" || q.criterion == "direction";
    if (auto degenerate = names_degenerate(q)) return no_truth(*degenerate);
    if (q.ask == "count") return count(q);
    if (q.ask == "exists") return exists(q);
    if (q.ask == "location") return location(q);
    if (q.ask == "size") return size(q);
    if (q.ask == "reference") return reference(q);
    if (q.ask == "relation") return relation(q);
    return std::nullopt;
  }

 private:
  Truth count(const Question& q) {
    Truth t;
    t.values = {std::to_string(of_type(s_, q.of).size())};
    return t;
  }

  Truth exists(const Question& q) {
    Truth t;
    if (q.between.size() == 2) {  // "Is there an A and a B?" with sentence options
      const std::size_t bar = q.value.find('|');
      const std::string a = bar == std::string::npos ? q.between[0] : q.value.substr(0, bar);
      const std::string b = bar == std::string::npos ? q.between[1] : q.value.substr(bar + 1);
      const bool has_a = !of_type(s_, q.between[0]).empty(), has_b = !of_type(s_, q.between[1]).empty();
      t.values = {has_a && has_b ? "Yes, both exist."
                  : has_a        ? "No, only the " + a + " exists."
                  : has_b        ? "No, only the " + b + " exists."
                                 : "No, neither exists."};
      return t;
    }
    for (const auto& option : q.options)
      if (of_type(s_, type_of_phrase(option)).empty() == q.absent) t.values.push_back(option);
    return t;
  }

  // "upper left" etc. of p against ref (y up when the frame says so).
  std::string quadrant(const Vec2& p, const Vec2& ref) const {
    const bool up = s_.frame.y == YAxis::up;
    return std::string((p.y > ref.y) == up ? "upper " : "lower ") + (p.x < ref.x ? "left" : "right");
  }
  static double nearer_gap(const Vec2& p, const Vec2& ref) {
    return std::min(to_double(abs(p.x - ref.x)), to_double(abs(p.y - ref.y)));
  }

  // The quadrant of a centroid against a reference point; slack = the nearer of the two gaps.
  // An engine question (one with a template) is decided on the engine's centroids, rounded to
  // 0.01 as the engine rounds them; the true centroids must agree, else it is too close to call.
  Truth position(const gepbench::EngineShape& shape, const Vec2& engine_ref, const Vec2& true_ref, bool engine,
                 const std::string& what) {
    Truth t;
    const std::string truth = quadrant(shape.true_centre, true_ref);
    const std::string value = engine ? quadrant(shape.centre, engine_ref) : truth;
    double slack = nearer_gap(shape.true_centre, true_ref);
    if (engine) slack = std::min(slack, nearer_gap(shape.centre, engine_ref));
    const bool split = value != truth;  // only within the rounding of a dividing line: too close to call
    if (split)
      t.notes.push_back("the engine's centroids, rounded to 0.01, put " + what + " " + value + " but the true ones " +
                        truth);
    t.values = {value};
    const double slack_px = slack * px_;
    t.facts.push_back({"centroid_position",
                       {what},
                       "centroid's distance to the nearer dividing line",
                       slack_px,
                       split || frame_bands_.decide_px(slack_px) != Decision::fails});
    return t;
  }

  // The engine's view, built on first use: boxes only for the box rule (they sample curves), built
  // again with them when a later question of the scene needs them.
  const std::vector<gepbench::EngineShape>& engine_shapes() {
    if (engine_.empty() || (needs_boxes_ && !have_boxes_))
      engine_ = gepbench::engine_shapes(s_, needs_boxes_), have_boxes_ = needs_boxes_;
    return engine_;
  }
  // A shape's measures, computed once for the scene's questions.
  const geometry::ShapeMeasures& measures(const Shape* shape) {
    const auto i = static_cast<std::size_t>(shape - s_.shapes.data());
    if (measures_.empty()) measures_.resize(s_.shapes.size());
    if (!measures_[i]) measures_[i] = geometry::measure_shape(*shape);
    return *measures_[i];
  }
  const gepbench::EngineShape& engine_of(const Shape* shape) {
    return engine_shapes().at(static_cast<std::size_t>(shape - s_.shapes.data()));
  }

  Truth location(const Question& q) {
    Truth fail;
    const Shape* shape = the_shape(s_, q.of, fail);
    if (!shape) return fail;
    const bool engine = !q.template_name.empty();
    const auto& x = engine_of(shape);
    if (q.relative_to.empty()) {
      const Vec2 middle{s_.frame.width / 2, s_.frame.height / 2};
      return position(x, middle, middle, engine, shape->id);
    }
    const Shape* other = the_shape(s_, q.relative_to, fail);
    if (!other) return fail;
    const auto& ref = engine_of(other);
    return position(x, ref.centre, ref.true_centre, engine, shape->id + " vs " + other->id);
  }

  // The option nearest to the true value; the slack is how much nearer it is than the next, in
  // pixels: lengths scale by px, areas as the side of a square of that area.
  Truth nearest_option(const Question& q, double value, const std::string& what, bool is_area) {
    // A measure the doubles cannot hold (a shape reaching past them) is no value to pick from.
    if (!std::isfinite(value))
      return no_truth(what + "'s " + (is_area ? "area" : "extent") +
                      " is not a finite number (the shape reaches past what doubles hold): no option can be picked");
    Truth t;
    std::vector<std::pair<double, std::string>> distances;
    for (const auto& option : q.options)
      if (auto v = parse_rational_string(option).value) distances.emplace_back(std::abs(to_double(*v) - value), option);
    if (distances.empty()) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.4f", value);
      t.values = {buffer};
      return t;
    }
    std::sort(distances.begin(), distances.end());
    t.values = {distances[0].second};
    if (distances.size() > 1) {
      const double gap = distances[1].first - distances[0].first;
      const double margin = is_area ? std::sqrt(gap) * px_ : gap * px_;
      t.facts.push_back({"nearest_option",
                         {what},
                         "how much nearer the true value is to this option than the next",
                         margin,
                         frame_bands_.decide_px(margin) != Decision::fails});
    }
    return t;
  }

  Truth size(const Question& q) {
    Truth fail;
    const Shape* shape = the_shape(s_, q.of, fail);
    if (!shape) return fail;
    const geometry::ShapeMeasures& m = measures(shape);
    const double w = to_double(s_.frame.width), h = to_double(s_.frame.height);
    // Spans on the canvas: the extent clipped to the frame.
    if (q.measure == "width")
      return nearest_option(q, std::clamp(m.x1, 0.0, w) - std::clamp(m.x0, 0.0, w), shape->id, false);
    if (q.measure == "height")
      return nearest_option(q, std::clamp(m.y1, 0.0, h) - std::clamp(m.y0, 0.0, h), shape->id, false);
    if (q.measure == "area") {
      if (m.area == 0) return no_truth(shape->id + " has no area");
      return nearest_option(q, m.area, shape->id, true);
    }
    Truth t;
    t.supported = false;
    t.reason = "size measure \"" + q.measure + "\" is not evaluated";
    return t;
  }

  // The shapes an option names, with the engine's view of each.
  std::vector<const gepbench::EngineShape*> named(const std::string& option) {
    std::vector<const gepbench::EngineShape*> out;
    for (const Shape* shape : of_type(s_, type_of_phrase(option))) out.push_back(&engine_of(shape));
    return out;
  }
  static bool is_none_option(const std::string& option) { return type_of_phrase(option) == "none of the above"; }

  // One option of a rule question, as the engine aggregates the shapes an option names: right
  // when the rule holds for one of them and clearly fails for none, wrong when it fails for all
  // (an absent shape is never right), too close to call otherwise. The rule is decided on the
  // engine's numbers and again on the true ones; a gray class, a margin inside the visual band or
  // a split between the two makes the option's fact ambiguous.
  template <typename Rule>
  void rule_option(Truth& t, const std::string& option, const std::string& kind, const std::string& against,
                   Rule rule) {
    const auto shapes = named(option);
    if (shapes.empty()) return;
    auto aggregate = [&](bool engine) {
      bool any_holds = false, all_fail = true, any_fails = false;
      double holds_margin = 1e300, fails_margin = 1e300;
      for (const auto* shape : shapes) {
        const gepbench::RuleResult r = rule(*shape, engine);
        any_holds = any_holds || r.cls == gepbench::RuleClass::holds;
        any_fails = any_fails || r.cls == gepbench::RuleClass::fails;
        all_fail = all_fail && r.cls == gepbench::RuleClass::fails;
        if (r.cls != gepbench::RuleClass::fails)
          holds_margin = std::min(holds_margin, r.cls == gepbench::RuleClass::holds ? r.margin : r.to_fails);
        fails_margin = std::min(fails_margin, r.margin);
      }
      if (any_holds && !any_fails) return gepbench::RuleResult{gepbench::RuleClass::holds, holds_margin, holds_margin};
      if (all_fail) return gepbench::RuleResult{gepbench::RuleClass::fails, fails_margin, fails_margin};
      return gepbench::RuleResult{gepbench::RuleClass::gray, 0, 0};
    };
    const gepbench::RuleResult by_engine = aggregate(true), by_truth = aggregate(false);
    const bool split = by_engine.cls != by_truth.cls;
    const double px = std::min(by_engine.margin, by_truth.margin) * px_;
    const bool ambiguous =
        split || by_engine.cls == gepbench::RuleClass::gray || frame_bands_.decide_px(px) != Decision::fails;
    std::string ids;
    for (const auto* shape : shapes) ids += (ids.empty() ? "" : ", ") + shape->shape->id;
    std::string detail = std::string("engine rule ") + gepbench::rule_class_name(by_engine.cls);
    if (split) detail += std::string(", on the true centroids and extents ") + gepbench::rule_class_name(by_truth.cls);
    if (by_engine.cls == gepbench::RuleClass::gray)
      detail += " (between the engine's thresholds: it does not ask this)";
    t.facts.push_back({kind, {ids, against}, detail, px, ambiguous, option});
    if (by_engine.cls == gepbench::RuleClass::holds) t.values.push_back(option);
  }

  // "Which of the following is to the left of the star?": the engine's relative-direction rule
  // between the options' centroids and the anchor's (gepbench_rule.hpp).
  Truth direction(const Question& q) {
    if (!gepbench::is_direction(q.value)) return no_truth("unknown direction \"" + q.value + "\"");
    const auto anchors = named(q.anchor);
    if (anchors.empty()) return no_truth("no " + q.anchor + " in this scene");
    for (const auto* a : anchors)
      if (a->centre != anchors.front()->centre)
        return no_truth("\"the " + q.anchor + "\" names " + std::to_string(anchors.size()) +
                        " shapes at different places");
    const auto& anchor = *anchors.front();
    Truth t;
    std::string none;
    for (const auto& option : q.options) {
      if (is_none_option(option)) {
        none = option;
        continue;
      }
      rule_option(t, option, "relative_direction", anchor.shape->id, [&](const gepbench::EngineShape& x, bool engine) {
        return engine ? gepbench::relative_direction(q.value, anchor.centre, x.centre)
                      : gepbench::relative_direction(q.value, anchor.true_centre, x.true_centre);
      });
    }
    // The engine asks only when the answer's box and the anchor's overlap by at most half: a
    // question whose answer is near that threshold (from either side) is one it might not ask.
    for (const auto& option : std::vector<std::string>(t.values))
      for (const auto* x : named(option)) overlap_fact(t, option, anchor, *x);
    if (t.values.empty() && !none.empty()) t.values.push_back(none);
    return t;
  }

  void overlap_fact(Truth& t, const std::string& option, const gepbench::EngineShape& anchor,
                    const gepbench::EngineShape& x) {
    const auto by_engine = gepbench::boxes_overlap_at_most_half(x.box, anchor.box);
    const auto by_truth = gepbench::boxes_overlap_at_most_half(x.true_box, anchor.true_box);
    if (!by_engine || !by_truth) return;
    const bool split = by_engine->cls != by_truth->cls;
    const double px = std::min(by_engine->margin, by_truth->margin) * px_;
    const bool ambiguous =
        split || by_engine->cls == gepbench::RuleClass::fails || frame_bands_.decide_px(px) != Decision::fails;
    if (!ambiguous) return;
    std::string detail = by_engine->cls == gepbench::RuleClass::holds
                             ? "the boxes overlap by at most half of either (the engine asks)"
                             : "the boxes overlap by more than half of one (the engine does not ask this)";
    if (split)
      detail += ", on the true extents " +
                std::string(by_truth->cls == gepbench::RuleClass::holds ? "at most" : "more than") + " half";
    t.facts.push_back({"box_overlap", {x.shape->id, anchor.shape->id}, detail, px, true, option});
  }

  // "Which of the following is in the upper half / top left quarter of the image?": the engine
  // decides by bounding boxes (gepbench_rule.hpp), though the question says "considering the
  // centroid"; where an option's centroid reads otherwise, a note says so.
  Truth region(const Question& q) {
    Truth t;
    const Vec2 mid{s_.frame.width / 2, s_.frame.height / 2};
    const bool by_box = !q.template_name.empty() && gepbench::is_region(q.value);
    for (const auto& option : q.options) {
      if (is_none_option(option)) continue;
      if (by_box) {
        rule_option(t, option, "region_by_box", q.value, [&](const gepbench::EngineShape& x, bool engine) {
          return gepbench::region_by_box(q.value, engine ? x.box : x.true_box);
        });
        const bool right = std::find(t.values.begin(), t.values.end(), option) != t.values.end();
        for (const auto* x : named(option))
          if (right != gepbench::region_has_centre(q.value, x->true_centre, mid) &&
              frame_bands_.decide_px(nearer_gap(x->true_centre, mid) * px_) == Decision::fails)
            t.notes.push_back(option + ": the engine's box rule says " + (right ? "in" : "not in") + " the " + q.value +
                              ", its centroid says " + (right ? "not" : "in"));
        continue;
      }
      for (const auto* x : named(option)) {  // a native question: the centroid against the midlines
        const Vec2 c =
            s_.frame.y == YAxis::up ? x->true_centre : Vec2{x->true_centre.x, s_.frame.height - x->true_centre.y};
        const double gap = nearer_gap(c, mid) * px_;
        if (frame_bands_.decide_px(gap) != Decision::fails)
          t.facts.push_back({"centroid_region", {x->shape->id}, "centroid near a midline", gap, true, option});
        if (gepbench::region_has_centre(q.value, c, mid)) {
          t.values.push_back(option);
          break;
        }
      }
    }
    return t;
  }

  Truth reference(const Question& q) {
    Truth t;
    if (q.criterion == "region") return region(q);
    if (q.criterion == "direction") return direction(q);
    if (q.criterion == "more" || q.criterion == "fewer") {
      const std::size_t anchor = of_type(s_, q.anchor).size();
      for (const auto& option : q.options) {
        const std::size_t n = of_type(s_, type_of_phrase(option)).size();
        if (n > 0 && (q.criterion == "more" ? n > anchor : n < anchor)) t.values.push_back(option);
      }
      return t;
    }
    if (q.criterion == "larger" || q.criterion == "smaller") {
      const auto anchors = of_type(s_, q.anchor);
      if (anchors.empty()) return no_truth("no " + q.anchor + " in this scene");
      double lo = 1e300, hi = 0;
      for (const Shape* a : anchors) {
        const double area = measures(a).area;
        lo = std::min(lo, area), hi = std::max(hi, area);
      }
      for (const auto& option : q.options) {
        const auto shapes = of_type(s_, type_of_phrase(option));
        if (shapes.empty() || type_of_phrase(option) == "line") continue;
        bool all = true;
        for (const Shape* shape : shapes) {
          const double area = measures(shape).area;
          const double gap = q.criterion == "larger" ? area - hi : lo - area;
          const double side_px = std::sqrt(std::abs(gap)) * px_;
          if (gap > 0 && frame_bands_.decide_px(side_px) != Decision::fails)
            t.facts.push_back({"area_difference", {shape->id}, "areas too close to compare by eye", side_px, true});
          all = all && gap > 0;
        }
        if (all) t.values.push_back(option);
      }
      return t;
    }
    Truth u;
    u.supported = false;
    u.reason = "reference by \"" + q.criterion + "\" is not evaluated yet";
    return u;
  }

  // "What is the relationship of A to B?": the option relations that hold; "none of the above"
  // only when every option relation is decided and none holds.
  Truth relation(const Question& q) {
    if (q.between.size() != 2) return no_truth("a relation question names two shapes");
    Truth fail;
    const Shape* a = the_shape(s_, q.between[0], fail);
    if (!a) return fail;
    const Shape* b = the_shape(s_, q.between[1], fail);
    if (!b) return fail;
    const auto check = geometry::relate(*a, *b, s_.frame, frame_bands_.bands());
    Truth t;
    std::string undecided, none_option;
    for (const auto& option : q.options) {
      // A relation's name as the options write it ("major axis" → major_axis; not a shape's
      // phrase, whose plural s type_of_phrase would take off "axis").
      std::string name = option;
      for (auto& c : name) c = c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (name == "none_of_the_above") {
        none_option = option;
        continue;
      }
      const auto kind = relation_kind(name);
      if (const geometry::ShapeRelation* r = kind ? check.find(*kind) : nullptr) {
        t.facts.push_back({name, {a->id, b->id}, r->holds() ? "holds" : "does not hold", r->slack_px, r->ambiguous()});
        if (r->holds()) t.values.push_back(option);
      } else if (kind && check.is_undecided(*kind)) {
        undecided += (undecided.empty() ? "" : ", ") + name;
      }
    }
    if (t.values.empty() && !undecided.empty()) {
      Truth u;
      u.supported = false;
      u.reason = "cannot decide " + undecided + " between " + a->id + " and " + b->id + " yet";
      return u;
    }
    if (t.values.empty()) t.values.push_back(none_option.empty() ? "none" : none_option);
    return t;
  }

  // A question about a shape with a repeated vertex has no truth (the shape's finding names it).
  std::optional<std::string> names_degenerate(const Question& q) const {
    std::vector<std::string> types{q.of, q.relative_to, q.anchor};
    types.insert(types.end(), q.between.begin(), q.between.end());
    if (q.ask == "exists" || q.ask == "reference")
      for (const auto& option : q.options) types.push_back(type_of_phrase(option));
    for (const auto& type : types)
      if (!type.empty())
        for (const Shape* shape : of_type(s_, type))
          if (repeated_vertex(*shape, frame_bands_))
            return shape->id + " (" + type +
                   ") has a repeated vertex: it is drawn with fewer corners than its type says";
    return std::nullopt;
  }

  const Scene& s_;
  std::vector<gepbench::EngineShape> engine_;  // built on first use
  std::vector<std::optional<geometry::ShapeMeasures>> measures_;
  bool needs_boxes_ = false, have_boxes_ = false;
  FrameBands frame_bands_;
  double px_;
};

}  // namespace

std::optional<Truth> evaluate_shape_question(const Scene& scene, const Question& q, const Bands& bands) {
  if (scene.shapes.empty()) return std::nullopt;
  return ShapeQuestions(scene, bands).evaluate(q);
}

struct ShapeEvaluator::Impl : ShapeQuestions {
  using ShapeQuestions::needs_boxes;
  using ShapeQuestions::ShapeQuestions;
};
ShapeEvaluator::ShapeEvaluator(const Scene& scene, const Bands& bands)
    : impl_(scene.shapes.empty() ? nullptr : std::make_unique<Impl>(scene, bands)) {
  // A region or direction question among the scene's: the engine's view is built with its boxes
  // from the start (not once without them for the questions before it and again with them).
  if (impl_)
    for (const auto& q : scene.questions)
      if (q.criterion == "region" || q.criterion == "direction") impl_->needs_boxes();
}
ShapeEvaluator::~ShapeEvaluator() = default;
std::optional<Truth> ShapeEvaluator::evaluate(const Question& q) {
  if (!impl_) return std::nullopt;
  return impl_->evaluate(q);
}

namespace {

std::vector<PairRelation> matrix_of(const Scene& scene, const geometry::ShapeRelations& relations) {
  std::vector<PairRelation> out;
  for (std::size_t i = 0; i < scene.shapes.size(); ++i)
    for (std::size_t j = 0; j < scene.shapes.size(); ++j) {
      if (i == j) continue;
      charge_work();
      const Shape &a = scene.shapes[i], &b = scene.shapes[j];
      // Each unordered pair once in full; the other order for its directional relations only.
      for (auto& rel : relations.relate(i, j, j < i).relations) out.push_back({a.id, b.id, std::move(rel)});
    }
  return out;
}

}  // namespace

std::vector<PairRelation> relation_matrix(const Scene& scene, const Bands& bands) {
  return matrix_of(scene, geometry::ShapeRelations(scene.shapes, scene.frame, bands));
}

std::vector<Finding> shape_findings(const Scene& scene, const Bands& bands) {
  std::vector<Finding> out;
  std::map<std::string, const Shape*> by_id;
  for (const auto& s : scene.shapes) by_id[s.id] = &s;
  // The same fact read the other way round: "b inscribed in a" is "a circumscribed about b", and
  // the engine's reverse of a diagonal, diameter or axis is the shape circumscribed about it.
  auto reverse = [](const std::string& r) {
    if (r == "circumscribed") return std::string("inscribed");
    if (r == "inscribed" || r == "diagonal" || r == "diameter" || r == "major_axis" || r == "minor_axis")
      return std::string("circumscribed");
    return r;
  };
  auto is_tangent = [](const std::string& r) { return r.find("tangent") != std::string::npos; };
  // One relation matrix serves both the declared facts and the undeclared ones.
  const geometry::ShapeRelations relations(scene.shapes, scene.frame, bands);
  const auto matrix = matrix_of(scene, relations);
  auto find = [&](const std::string& a, const std::string& b,
                  const std::string& name) -> const geometry::ShapeRelation* {
    for (const auto& [x, y, rel] : matrix)
      if (x == a && y == b && rel.name() == name) return &rel;
    return nullptr;
  };
  // Declared facts, audited. Directional relations are looked up in the declared order; the
  // symmetric ones were decided once per pair, in either order.
  std::set<std::tuple<std::string, std::string, std::string>> declared;
  for (const auto& r : scene.relations) {
    declared.insert({r.between[0], r.between[1], r.type});
    declared.insert({r.between[1], r.between[0], reverse(r.type)});
    const geometry::ShapeRelation* rel = find(r.between[0], r.between[1], r.type);
    if (!rel && reverse(r.type) == r.type) rel = find(r.between[1], r.between[0], r.type);
    if (rel && !rel->holds())
      out.push_back(make_finding(
          rel->ambiguous() ? FindingKind::declared_relation_ambiguous : FindingKind::declared_relation_false,
          {r.between[0], r.between[1]}, r.type + (rel->ambiguous() ? " is too close to call" : " does not hold"),
          rel->slack_px));
  }
  // Declared concentric shapes share one centre, pairs chained through others too.
  std::map<std::string, std::string> centre_group;
  std::function<std::string(const std::string&)> group = [&](const std::string& id) {
    auto it = centre_group.find(id);
    return it == centre_group.end() || it->second == id ? id : it->second = group(it->second);
  };
  for (const auto& r : scene.relations)
    if (r.type == "concentric") centre_group[group(r.between[0])] = group(r.between[1]);
  // A tangency declared as internal, external or plain covers all three names.
  auto is_declared = [&](const std::string& a, const std::string& b, const std::string& r) {
    if (declared.count({a, b, r})) return true;
    if (r == "concentric" && group(a) == group(b)) return true;
    if (is_tangent(r))
      for (const char* t : {"tangent", "internal_tangent", "external_tangent"})
        if (declared.count({a, b, t})) return true;
    return false;
  };
  // Undeclared relations that hold (or nearly do) between any two shapes.
  for (const auto& [a, b, rel] : matrix) {
    // "b inscribed in a" is "a circumscribed about b"; topology is information, not a relation.
    if (rel.kind == RelationKind::inscribed || is_topological(rel.kind) || !(rel.holds() || rel.ambiguous()) ||
        is_declared(a, b, rel.name()))
      continue;
    out.push_back(make_finding(
        FindingKind::undeclared_relation, {a, b},
        rel.name() + std::string(rel.holds() ? " holds" : " nearly holds (ambiguous)") + " but is not declared",
        rel.slack_px, rel.decision));
  }
  const FrameBands frame_bands(bands, scene.frame);
  for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
    const Shape& s = scene.shapes[i];
    if (auto d2 = repeated_vertex(s, frame_bands))
      out.push_back(make_finding(FindingKind::degenerate_shape, {s.id},
                                 shape_type(s) + " " + s.id + " has a repeated vertex: its questions are invalid",
                                 frame_bands.squared_to_px(*d2)));
    // A deviation within the ambiguous band is the input's rounding, not a wrong label.
    if (auto label = relations.label_check(i); label && label->decision == Decision::fails)
      out.push_back(make_finding(FindingKind::label_mismatch, {s.id}, "declared " + s.kind + " but it is not one",
                                 label->slack_px));
    if (auto kind = relations.looks_like(i))
      out.push_back(make_finding(FindingKind::label_mismatch, {s.id},
                                 "an unlabelled " + shape_type(s) + " that a person would call a " + *kind));
  }
  for (auto& f : drawn_differently(scene, bands)) out.push_back(std::move(f));
  return out;
}

std::vector<Finding> drawn_differently(const Scene& scene, const Bands& bands) {
  std::vector<Finding> out;
  const FrameBands frame_bands(bands, scene.frame);
  for (const Shape& s : scene.shapes) {
    if (!s.drawn) continue;
    const double gap = frame_bands.to_px(drawn_gap(s));
    const Decision decision = frame_bands.decide_px(gap);
    if (decision == Decision::holds) continue;
    char px[32];
    std::snprintf(px, sizeof px, "%.1f", gap);
    out.push_back(make_finding(FindingKind::drawn_differently, {s.id},
                               "the dataset's picture draws " + shape_type(s) + " " + s.id +
                                   " unlike its definition: up to " + px + " px from it",
                               gap, decision));
  }
  return out;
}

}  // namespace geotruth::questions
