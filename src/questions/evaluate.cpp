// The question registry: one evaluator per (ask, of/relation), each returning the truth and the
// facts it rests on. Kinds not built yet answer `unsupported`, never a guess.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <geotruth/counts.hpp>
#include <geotruth/diagram_findings.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/questions.hpp>
#include <map>
#include <nlohmann/json.hpp>

#include "geometry/predicates.hpp"
#include "graph/diagram.hpp"
#include "questions/named_figures.hpp"
#include "questions/picture_doubts.hpp"
#include "questions/shapes.hpp"
#include "questions/truths.hpp"

namespace geotruth {

bool fact_changes_answer(const Question& q, const Truth& truth, const Fact& fact) {
  if (!fact.ambiguous) return false;
  if (fact.toggles) {
    if (q.options.empty()) return true;
    Truth alone;
    alone.values = {*fact.toggles};
    return !matching_options(q, alone).empty();
  }
  if (fact.alternative) {
    Truth flipped;
    flipped.values = {*fact.alternative};
    if (q.options.empty()) {
      Question as_option = q;
      as_option.options = truth.values;
      return matching_options(as_option, flipped).empty();
    }
    return matching_options(q, flipped) != matching_options(q, truth);
  }
  return true;
}

bool answer_is_ambiguous(const Question& q, const Truth& truth) {
  return std::any_of(truth.facts.begin(), truth.facts.end(),
                     [&](const Fact& f) { return fact_changes_answer(q, truth, f); });
}

std::string question_kind(const Question& q) {
  if (q.ask == "count") return "count/" + q.of;
  if (q.ask == "which") return "which/" + (q.connected_pair ? std::string("connected_pair") : q.relation);
  if (q.ask == "size") return "size/" + q.measure;
  if (q.ask == "reference") return "reference/" + q.criterion;
  if (q.ask == "exists" && !q.vertices.empty()) return "exists/" + q.of + (q.absent ? "/absent" : "");
  if (q.ask == "exists") return q.absent ? "exists/absent" : "exists";
  if (q.ask == "estimate") return "estimate/" + q.of;
  if ((q.ask == "diameter" || q.ask == "radius") && q.absent) return q.ask + "/absent";
  return q.ask;
}

std::string option_letter(std::size_t index) {
  return std::string(1, static_cast<char>('A' + index));
}

namespace {

// Lower case, trimmed, single spaces, " - " between the names of a pair.
std::string normalized(std::string_view text) {
  std::string out;
  for (char c : text) {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::isspace(static_cast<unsigned char>(lower))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (lower == '-') {
      if (!out.empty() && out.back() != ' ') out += ' ';
      out += "- ";
    } else {
      out += lower;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

using questions::unsupported;

Truth value(std::size_t n) {
  Truth t;
  t.values.push_back(std::to_string(n));
  return t;
}

}  // namespace

std::vector<std::size_t> matching_options(const Question& question, const Truth& truth) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < question.options.size(); ++i) {
    const auto option_number = parse_rational_string(question.options[i]).value;
    for (const auto& v : truth.values) {
      const auto value_number = parse_rational_string(v).value;
      const bool match = option_number && value_number ? *option_number == *value_number
                                                       : normalized(question.options[i]) == normalized(v);
      if (match) {
        out.push_back(i);
        break;
      }
    }
  }
  return out;
}

struct SceneEvaluator::Cache {
  explicit Cache(const Scene& scene, const Bands& bands) : bands(bands, scene.frame) {}
  FrameBands bands;
  // Scenes the picture may show instead, each with the finding that says why: links the drawing
  // contradicts (reversed, misassigned) redrawn its way, the shapes the source draws otherwise as
  // drawn, and what the caller adds (consider).
  struct Alternative {
    Finding finding;
    std::unique_ptr<Scene> scene;
    std::unique_ptr<SceneEvaluator> evaluator;
  };
  std::optional<std::vector<Alternative>> alternatives;
  std::vector<Vec2> centres;  // entity box centres
  std::optional<Incidence> incidence;
  std::optional<TangramCounts> counts;
  std::unique_ptr<graph::DiagramGraph> diagram;
  std::optional<graph::DiagramGraph::Circuit> circuit;
  std::unique_ptr<questions::ShapeEvaluator> shapes;  // GePBench shape questions, sharing their measures
};

SceneEvaluator::SceneEvaluator(const Scene& scene, Bands bands, bool with_doubts)
    : scene_(scene),
      bands_(std::move(bands)),
      cache_(std::make_unique<Cache>(scene, bands_)),
      with_doubts_(with_doubts) {
  for (const auto& e : scene.entities)
    cache_->centres.push_back({(e.box[0] + e.box[2]) / 2, (e.box[1] + e.box[3]) / 2});
}
SceneEvaluator::~SceneEvaluator() = default;

namespace {

// The evaluators of one scene, sharing its derived structures.
class Evaluators {
 public:
  Evaluators(SceneEvaluator& owner, const Scene& scene, const Bands& bands, SceneEvaluator::Cache& cache)
      : owner_(owner), scene_(scene), bands_(bands), cache_(cache), frame_bands_(cache.bands) {}

  questions::ShapeEvaluator& shape_evaluator() {
    if (!cache_.shapes) cache_.shapes = std::make_unique<questions::ShapeEvaluator>(scene_, bands_);
    return *cache_.shapes;
  }

  Truth evaluate(const Question& q) {
    // Figures named by their points (VisOnlyQA): triangles, quadrilaterals, diameters, estimates.
    if (questions::is_named_figure_question(q))
      return questions::evaluate_named_figure(scene_, q, owner_.incidence(), frame_bands_);
    // Questions about GePBench-style shapes (a scene with `shapes` and no entities).
    if (!scene_.shapes.empty() && scene_.entities.empty())
      if (auto truth = shape_evaluator().evaluate(q)) return *truth;
    if (q.ask == "count") {
      static const std::map<std::string, Truth (Evaluators::*)(const Question&)> kCounts = {
          {"letters", &Evaluators::tangram},
          {"circles", &Evaluators::tangram},
          {"segments", &Evaluators::tangram},
          {"triangles", &Evaluators::tangram},
          {"quadrilaterals", &Evaluators::tangram},
          {"entities", &Evaluators::count_entities},
          {"text_labels", &Evaluators::count_entities},
          {"links", &Evaluators::count_links},
          {"food_chains", &Evaluators::food_chains},
          {"cycles", &Evaluators::count_cycles},
          {"stages", &Evaluators::count_stages},
          {"prey", &Evaluators::food_neighbours},
          {"predators", &Evaluators::food_neighbours},
          {"stages_after", &Evaluators::stages_after},
          {"transitions", &Evaluators::transitions},
          {"glowing_bulbs", &Evaluators::glowing_bulbs},
          {"layers_outside", &Evaluators::layers_outside},
          {"boundaries", &Evaluators::boundaries},
      };
      if (auto it = kCounts.find(q.of); it != kCounts.end()) return (this->*(it->second))(q);
      return unsupported("counting \"" + q.of + "\" is not evaluated yet");
    }
    if (q.ask == "which") return which(q);
    if (q.ask == "exists" && !scene_.entities.empty()) return exists(q);
    // An importer's question that maps to no kind, with the importer's reason when it gave one.
    if (q.ask == "unmapped" && !q.extra.empty())
      if (const auto extra = nlohmann::json::parse(q.extra, nullptr, false);
          extra.is_object() && extra.contains("unsupported") && extra["unsupported"].is_string())
        return unsupported(extra["unsupported"].get<std::string>());
    return unsupported("questions asking \"" + q.ask + "\"" + (q.of.empty() ? "" : " of \"" + q.of + "\"") +
                       " are not evaluated yet");
  }

 private:
  // --- Tangram -------------------------------------------------------------------------------
  Truth tangram(const Question& q) {
    TangramCounts c = owner_.tangram_counts();
    if (q.of == "quadrilaterals") c = count_figure(scene_, owner_.incidence(), {false, true});
    Truth truth = value(q.of == "letters"     ? c.letters
                        : q.of == "circles"   ? c.circles
                        : q.of == "segments"  ? c.segments
                        : q.of == "triangles" ? c.triangles
                                              : *c.quadrilaterals);
    // An incidence too close to call can change every count but letters and circles.
    if (q.of != "letters" && q.of != "circles")
      for (const auto& f : owner_.incidence().findings)
        if (f.severity == Severity::doubtful)
          truth.facts.push_back({finding_kind_name(f.kind), f.elements, f.detail, f.slack_px, true});
    return truth;
  }

  // --- diagrams: entities and positions ------------------------------------------------------
  graph::DiagramGraph& diagram() {
    if (!cache_.diagram) cache_.diagram = std::make_unique<graph::DiagramGraph>(scene_);
    return *cache_.diagram;
  }

  std::optional<std::size_t> anchor(const Question& q, Truth& fail) {
    const std::string& name = !q.anchor.empty() ? q.anchor : !q.touching.empty() ? q.touching : q.connected_to;
    auto e = diagram().entity(name);
    if (!e) fail = unsupported("unknown anchor \"" + name + "\"");
    return e;
  }

  const Vec2& centre(std::size_t e) const { return cache_.centres[e]; }

  // Signed margin by which entity e satisfies `relation` against the anchor (frame units).
  std::optional<Rational> margin(const std::string& relation, std::size_t e, std::size_t anchor) const {
    const Vec2 &c = centre(e), &a = centre(anchor);
    const bool down = scene_.frame.y == YAxis::down;
    if (relation == "left_of") return a.x - c.x;
    if (relation == "right_of") return c.x - a.x;
    if (relation == "above") return down ? a.y - c.y : c.y - a.y;
    if (relation == "below") return down ? c.y - a.y : a.y - c.y;
    return std::nullopt;
  }

  // Decides "e is <relation> of anchor" with the bands: |margin| ≤ ε_num is aligned (no). The
  // fact toggles e's name: it matters only to questions that offer e.
  bool satisfies(const std::string& relation, std::size_t e, std::size_t a, Truth& truth) {
    const Rational m = *margin(relation, e, a);
    const Rational size = abs(m);
    const Decision decision = frame_bands_.decide(size);
    if (decision == Decision::holds) return false;
    const bool ambiguous = decision == Decision::ambiguous;
    if (ambiguous || m > 0)
      truth.facts.push_back({relation,
                             {diagram().name(e), diagram().name(a)},
                             "distance between the box centres",
                             frame_bands_.to_px(size),
                             ambiguous,
                             diagram().name(e)});
    return m > 0;
  }

  std::vector<std::size_t> related(const std::string& relation, std::size_t a, Truth& truth) {
    std::vector<std::size_t> out;
    for (std::size_t e = 0; e < scene_.entities.size(); ++e)
      if (e != a && satisfies(relation, e, a, truth)) out.push_back(e);
    return out;
  }

  static std::string cell_name(int index, int count, bool rows) {
    if (count == 3)
      return rows ? std::array<const char*, 3>{"top", "center", "bottom"}[index]
                  : std::array<const char*, 3>{"left", "center", "right"}[index];
    return std::to_string(index + 1);
  }

  // The grid cell index of an entity's centre along rows or columns, with its boundary slack.
  int cell(std::size_t e, bool rows, Truth& truth) {
    const Grid grid = scene_.grid.value_or(Grid{});
    const int count = rows ? grid.rows : grid.columns;
    const Rational extent = rows ? scene_.frame.height : scene_.frame.width;
    Rational coordinate = rows ? centre(e).y : centre(e).x;
    if (rows && scene_.frame.y == YAxis::up) coordinate = extent - coordinate;  // row 0 is the top
    int index = 0;
    Rational nearest = extent;
    for (int k = 1; k < count; ++k) {
      const Rational boundary = extent * k / count;
      if (coordinate >= boundary) index = k;
      nearest = std::min(nearest, Rational(abs(coordinate - boundary)));
    }
    if (frame_bands_.decide(nearest) != Decision::fails)
      truth.facts.push_back({rows ? "in_row" : "in_column",
                             {diagram().name(e)},
                             "box centre near a grid line",
                             frame_bands_.to_px(nearest),
                             true,
                             diagram().name(e)});
    return index;
  }

  std::optional<int> cell_named(const std::string& name, bool rows) const {
    const Grid grid = scene_.grid.value_or(Grid{});
    const int count = rows ? grid.rows : grid.columns;
    const std::string wanted = name == "middle" ? "center" : name;
    for (int k = 0; k < count; ++k)
      if (cell_name(k, count, rows) == wanted) return k;
    return std::nullopt;
  }

  std::vector<std::size_t> in_cell(const std::string& name, bool rows, Truth& truth) {
    std::vector<std::size_t> out;
    const auto wanted = cell_named(name, rows);
    if (!wanted) {
      truth = unsupported("no " + std::string(rows ? "row" : "column") + " named \"" + name + "\"");
      return out;
    }
    for (std::size_t e = 0; e < scene_.entities.size(); ++e)
      if (cell(e, rows, truth) == *wanted) out.push_back(e);
    return out;
  }

  // Adds the entities' names as the truth's values (facts gathered while choosing them stay), and
  // every option that names one of them in other words ("nutrient" for "nutrients"). An entity
  // the diagram leaves unnamed (an unlabelled blob) makes the answer unknowable from the names.
  Truth& names(const Question& q, const std::vector<std::size_t>& entities, Truth& truth) {
    for (auto e : entities) {
      if (!diagram().named(e))
        return truth = unsupported("the answer includes " + diagram().name(e) + ", which the diagram does not name");
      truth.values.push_back(diagram().name(e));
    }
    for (const auto& option : q.options)
      if (auto e = diagram().entity(option); e && std::find(entities.begin(), entities.end(), *e) != entities.end())
        truth.values.push_back(option);
    return truth;
  }

  Truth count_entities(const Question& q) {
    Truth truth;
    std::vector<std::size_t> chosen;
    if (!q.row.empty() || !q.column.empty()) {
      chosen = in_cell(!q.row.empty() ? q.row : q.column, !q.row.empty(), truth);
      if (!truth.supported) return truth;
    } else if (!q.relation.empty()) {
      auto a = anchor(q, truth);
      if (!a) return truth;
      if (!margin(q.relation, *a, *a)) return unsupported("unknown relation \"" + q.relation + "\"");
      chosen = related(q.relation, *a, truth);
    } else if (!q.connected_to.empty()) {
      auto a = anchor(q, truth);
      if (!a) return truth;
      chosen = diagram().neighbours(*a);
    } else {
      for (std::size_t e = 0; e < scene_.entities.size(); ++e) chosen.push_back(e);
    }
    if (q.of == "text_labels")
      chosen.erase(std::remove_if(chosen.begin(), chosen.end(),
                                  [&](std::size_t e) { return scene_.entities[e].kind != EntityKind::text; }),
                   chosen.end());
    // A fact about one entity's side or cell moves the count by one: its alternative value.
    const std::size_t n = chosen.size();
    for (auto& f : truth.facts) {
      if (!f.toggles) continue;
      const auto e = diagram().entity(*f.toggles);
      const bool in = e && std::find(chosen.begin(), chosen.end(), *e) != chosen.end();
      const bool counted = e && (q.of != "text_labels" || scene_.entities[*e].kind == EntityKind::text);
      f.alternative = std::to_string(!counted ? n : in ? n - 1 : n + 1);
      f.toggles.reset();
    }
    truth.values = {std::to_string(n)};
    return truth;
  }

  Truth count_links(const Question& q) {
    if (q.touching.empty() && q.anchor.empty()) return value(scene_.links.size());
    Truth truth;
    auto a = anchor(q, truth);
    if (!a) return truth;
    return value(diagram().links_touching(*a));
  }

  Truth which(const Question& q) {
    Truth truth;
    if (q.connected_pair) {
      for (const Link& l : scene_.links) {
        const std::string a = diagram().name(*diagram().entity(l.from)), b = diagram().name(*diagram().entity(l.to));
        truth.values.push_back(a + " - " + b);
        truth.values.push_back(b + " - " + a);
      }
      return truth;
    }
    const std::string& r = q.relation;
    if (r == "in_row" || r == "in_column") {
      const auto chosen = in_cell(q.value, r == "in_row", truth);
      return truth.supported ? names(q, chosen, truth) : truth;
    }
    if (r == "next_layer_outside") return next_layer_outside(q);  // anchors a layer, not an entity
    const bool to_predator = scene_.food_arrows == FoodArrows::to_predator;
    if (r == "producer") return names(q, to_predator ? diagram().sources() : diagram().sinks(), truth);
    if (r == "top_predator") return names(q, to_predator ? diagram().sinks() : diagram().sources(), truth);
    auto a = anchor(q, truth);
    if (!a) return truth;
    if (margin(r, *a, *a)) {
      const auto chosen = related(r, *a, truth);
      return names(q, chosen, truth);
    }
    if (r == "connected_to") return names(q, diagram().neighbours(*a), truth);
    if (r == "prey_of") return names(q, to_predator ? diagram().predecessors(*a) : diagram().successors(*a), truth);
    if (r == "predator_of") return names(q, to_predator ? diagram().successors(*a) : diagram().predecessors(*a), truth);
    if (r == "next_stage") return names(q, diagram().successors(*a), truth);
    return unsupported("\"which\" with relation \"" + r + "\" is not evaluated yet");
  }

  Truth exists(const Question& q) {
    Truth truth;
    for (const auto& option : q.options)
      if (diagram().entity(option).has_value() != q.absent) truth.values.push_back(option);
    return truth;
  }

  // --- food webs, cycles, circuits -------------------------------------------------------------
  Truth food_chains(const Question&) {
    const auto chains = diagram().chains();
    Truth truth = value(chains.count);
    if (!chains.cycle.empty()) {
      std::string cycle;
      for (const auto& n : chains.cycle) cycle += (cycle.empty() ? "" : ", ") + n;
      truth.facts.push_back({"food_web_cycle", chains.cycle,
                             "the food web has a cycle (" + cycle +
                                 "): chains run from entities nothing enters to "
                                 "entities nothing leaves, never around it"});
    }
    return truth;
  }

  Truth count_cycles(const Question&) { return value(diagram().cycles().size()); }

  Truth count_stages(const Question&) { return value(diagram().linked().size()); }

  Truth food_neighbours(const Question& q) {
    Truth truth;
    auto a = anchor(q, truth);
    if (!a) return truth;
    const bool to_predator = scene_.food_arrows == FoodArrows::to_predator;
    const bool prey = q.of == "prey";
    const auto list = prey == to_predator ? diagram().predecessors(*a) : diagram().successors(*a);
    return value(list.size());
  }

  Truth stages_after(const Question& q) {
    Truth truth;
    auto a = anchor(q, truth);
    if (!a) return truth;
    return value(diagram().reachable_from(*a).size());
  }

  Truth transitions(const Question&) {
    const bool tagged = std::any_of(scene_.entities.begin(), scene_.entities.end(), [](const Entity& e) {
      return std::find(e.tags.begin(), e.tags.end(), "stage") != e.tags.end();
    });
    std::size_t n = 0;
    for (const Link& l : scene_.links) {
      auto is_stage = [&](const std::string& id) {
        const Entity& e = scene_.entities[*diagram().entity(id)];
        return !tagged || std::find(e.tags.begin(), e.tags.end(), "stage") != e.tags.end();
      };
      n += l.directed && is_stage(l.from) && is_stage(l.to);
    }
    return value(n);
  }

  Truth glowing_bulbs(const Question&) {
    if (!cache_.circuit) cache_.circuit = diagram().circuit();
    const auto& c = *cache_.circuit;
    if (!c.problem.empty()) {
      Truth truth;
      truth.reason = "the circuit cannot be read: " + c.problem;
      return truth;
    }
    Truth truth = value(c.glowing.size());
    for (auto e : c.shorted)
      truth.facts.push_back({"short_circuit", {diagram().name(e)}, diagram().name(e) + " is bypassed by plain wire"});
    return truth;
  }

  // --- layers ------------------------------------------------------------------------------------
  static geometry::Region region(const Layer& layer) { return {layer.center, layer.radius, layer.points}; }

  std::optional<std::size_t> layer_named(const std::string& name) const {
    for (std::size_t i = 0; i < scene_.layers.size(); ++i)
      if (scene_.layers[i].id == name || normalized(scene_.layers[i].text) == normalized(name)) return i;
    return std::nullopt;
  }

  std::string layer_name(std::size_t i) const {
    return scene_.layers[i].text.empty() ? scene_.layers[i].id : scene_.layers[i].text;
  }

  // Layers containing the anchor (a layer, or an entity by its box centre), innermost first.
  std::optional<std::vector<std::size_t>> containers(const Question& q, Truth& truth) {
    std::vector<std::size_t> out;
    if (auto layer = layer_named(q.anchor)) {
      for (std::size_t i = 0; i < scene_.layers.size(); ++i)
        if (i != *layer && geometry::region_contains(region(scene_.layers[i]), region(scene_.layers[*layer])))
          out.push_back(i);
    } else if (auto e = diagram().entity(q.anchor)) {
      for (std::size_t i = 0; i < scene_.layers.size(); ++i)
        if (geometry::region_has_point(region(scene_.layers[i]), centre(*e))) out.push_back(i);
    } else {
      truth = unsupported("unknown anchor \"" + q.anchor + "\"");
      return std::nullopt;
    }
    // Innermost first: a container inside more of the others comes earlier.
    auto depth = [&](std::size_t i) {
      return std::count_if(out.begin(), out.end(), [&](std::size_t j) {
        return j != i && geometry::region_contains(region(scene_.layers[j]), region(scene_.layers[i]));
      });
    };
    std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) { return depth(a) > depth(b); });
    return out;
  }

  Truth layers_outside(const Question& q) {
    Truth truth;
    auto list = containers(q, truth);
    return list ? value(list->size()) : truth;
  }

  Truth next_layer_outside(const Question& q) {
    Truth truth;
    auto list = containers(q, truth);
    if (!list) return truth;
    if (!list->empty()) truth.values.push_back(layer_name(list->front()));
    return truth;
  }

  Truth boundaries(const Question&) { return value(scene_.layers.size()); }

  SceneEvaluator& owner_;
  const Scene& scene_;
  const Bands& bands_;
  SceneEvaluator::Cache& cache_;
  const FrameBands& frame_bands_;
};

}  // namespace

const Incidence& SceneEvaluator::incidence() {
  if (!cache_->incidence) cache_->incidence = build_incidence(scene_, IncidenceMode::merged, bands_);
  return *cache_->incidence;
}

const TangramCounts& SceneEvaluator::tangram_counts() {
  if (!cache_->counts) cache_->counts = count_figure(scene_, incidence(), {false, false});
  return *cache_->counts;
}

bool answers_differ(const Question& q, const Truth& a, const Truth& b) {
  if (a.supported != b.supported || a.values.empty() != b.values.empty()) return true;
  if (!q.options.empty()) return matching_options(q, a) != matching_options(q, b);
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  return sorted(a.values) != sorted(b.values);
}

void SceneEvaluator::built_in_alternatives() {
  cache_->alternatives.emplace();
  // A scene read from a picture: each reading the picture allows as well (a letter read otherwise,
  // attached elsewhere, a stroke that may not be drawn).
  for (auto& doubt : picture_doubts(scene_)) {
    if (!doubt.instead) continue;
    auto scene = std::make_unique<Scene>(std::move(*doubt.instead));
    doubt.finding.detail += "; the answer differs on that reading";
    auto evaluator = std::make_unique<SceneEvaluator>(*scene, bands_, false);
    cache_->alternatives->push_back({std::move(doubt.finding), std::move(scene), std::move(evaluator)});
  }
  for (auto& doubt : link_doubts(scene_, bands_)) {
    auto scene = std::make_unique<Scene>(scene_);
    scene->links[doubt.link] = std::move(doubt.redrawn);
    doubt.finding.detail += "; the answer changes with the link drawn that way";
    auto evaluator = std::make_unique<SceneEvaluator>(*scene, bands_, false);
    cache_->alternatives->push_back({std::move(doubt.finding), std::move(scene), std::move(evaluator)});
  }
  // The shapes as the dataset's own picture draws them (GePBench's spirals without their sine term).
  const std::vector<Finding> drawn = questions::drawn_differently(scene_, bands_);
  if (drawn.empty()) return;
  auto scene = std::make_unique<Scene>(scene_);
  for (Shape& shape : scene->shapes)
    if (shape.drawn) shape.geometry = *shape.drawn;
  Finding why = drawn.front();
  for (std::size_t k = 1; k < drawn.size(); ++k) {
    why.elements.insert(why.elements.end(), drawn[k].elements.begin(), drawn[k].elements.end());
    why.detail += "; " + drawn[k].detail;
  }
  why.detail += "; the answer differs on the picture's curve";
  auto evaluator = std::make_unique<SceneEvaluator>(*scene, bands_, false);
  cache_->alternatives->push_back({std::move(why), std::move(scene), std::move(evaluator)});
}

Truth SceneEvaluator::evaluate(const Question& question) {
  Truth truth = Evaluators(*this, scene_, bands_, *cache_).evaluate(question);
  if (!with_doubts_ || !truth.supported) return truth;
  // On a scene the picture may show instead, the question is ambiguous when its answer changes.
  if (!cache_->alternatives) built_in_alternatives();
  for (auto& r : *cache_->alternatives)
    if (answers_differ(question, truth, r.evaluator->evaluate(question)))
      truth.facts.push_back(
          {finding_kind_name(r.finding.kind), r.finding.elements, r.finding.detail, r.finding.slack_px, true});
  return truth;
}

}  // namespace geotruth
