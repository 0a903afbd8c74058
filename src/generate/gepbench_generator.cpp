// GePBench items: a random figure in the engine's vocabulary (gepbench_figure.cpp), imported by
// the GePBench importer itself (so the native scene is exactly what `import --from gepbench` makes
// of the rules written out), and questions of the engine's six aspects in its wording
// (data/vqa/rule.py), each mapped back through the importer's templates and kept only when
// certified. Every answer is geotruth's: the audit's judge must find each question ok.
#include <geotruth/import.hpp>
#include <geotruth/shape_types.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "generate/certify.hpp"
#include "generate/gepbench_figure.hpp"
#include "generate/items.hpp"
#include "geometry/measures.hpp"
#include "questions/gepbench_rule.hpp"

namespace geotruth::generate {
namespace {

// The engine's shape types, in its order (data/vqa/base.py total_shapes).
// (Arrays of C strings: no allocation before main, which would move the heap's state for every
// subcommand of the executable.)
constexpr const char* kTotalShapes[] = {
    "line",      "ellipse", "circle",           "triangle",        "quadrilateral", "pentagon", "hexagon",
    "rectangle", "square",  "regular pentagon", "regular hexagon", "spiral",        "star",     "sector"};

// parent → (child type, child description): "parent (not child)" when a child is in the image.
const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>& hierarchy() {
  static const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> h = {
      {"ellipse", {{"circle", "circle"}}},
      {"rectangle", {{"square", "square"}}},
      {"quadrilateral", {{"rectangle", "rectangle"}, {"square", "square"}}},
      {"pentagon", {{"regular pentagon", "regular pentagon"}}},
      {"hexagon", {{"regular hexagon", "regular hexagon"}}},
      {"line",
       {{"triangle", "polygon edge"},
        {"quadrilateral", "polygon edge"},
        {"pentagon", "polygon edge"},
        {"hexagon", "polygon edge"},
        {"rectangle", "polygon edge"},
        {"square", "polygon edge"},
        {"regular pentagon", "polygon edge"},
        {"regular hexagon", "polygon edge"},
        {"star", "polygon edge"},
        {"sector", "sector edge"}}},
  };
  return h;
}

const std::vector<std::pair<std::string, std::string>>* children_of(const std::string& type) {
  for (const auto& [parent, children] : hierarchy())
    if (parent == type) return &children;
  return nullptr;
}

bool contains(const std::vector<std::string>& list, const std::string& x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

// The descriptions of the children of `type` that occur in `types` (each once, in order).
std::vector<std::string> overlapping(const std::string& type, const std::vector<std::string>& types) {
  std::vector<std::string> out;
  if (const auto* children = children_of(type))
    for (const auto& [child, desc] : *children)
      if (contains(types, child) && !contains(out, desc)) out.push_back(desc);
  return out;
}

std::string join(const std::vector<std::string>& parts, const std::string& suffix) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p + suffix;
  return out;
}

// The engine's clarify_hierarchical_text: "lines (excluding polygon edges)", "ellipse (not circle)".
std::string clarify(const std::string& type, const std::vector<std::string>& image_types, bool add_s = false) {
  const auto descs = overlapping(type, image_types);
  if (descs.empty()) return add_s ? type + "s" : type;
  if (add_s) return type + "s (excluding " + join(descs, "s") + ")";
  return type + " (not " + join(descs, "") + ")";
}

// The engine's clarify_hierarchical_choices: "ellipse (circles excluded)".
void clarify_choices(std::vector<std::string>& choices, std::string& answer,
                     const std::vector<std::string>& image_types) {
  for (const auto& [parent, children] : hierarchy()) {
    auto it = std::find(choices.begin(), choices.end(), parent);
    if (it == choices.end()) continue;
    std::vector<std::string> seen = choices;
    seen.insert(seen.end(), image_types.begin(), image_types.end());
    const auto descs = overlapping(parent, seen);
    if (descs.empty()) continue;
    const std::string clarified = parent + " (" + join(descs, "s") + " excluded)";
    if (answer == *it) answer = clarified;
    *it = clarified;
  }
}

// A value in hundredths as Python prints round(v, 2): "0.21", "0.2", "1.0".
std::string hundredths(long v) {
  std::string text = std::to_string(v / 100) + ".";
  const long frac = v % 100;
  if (frac == 0) return text + "0";
  if (frac % 10 == 0) return text + std::to_string(frac / 10);
  return text + (frac < 10 ? "0" : "") + std::to_string(frac);
}

std::string quoted(const std::string& s) {
  return "\"" + s + "\"";
}

// One question before its options are placed.
struct Proposal {
  std::string text;
  std::vector<std::string> values;
  std::size_t right = 0;
  bool numbers = false;  ///< counting: the engine writes its choices as JSON numbers
};

constexpr const char* kRelations[] = {"tangent",     "parallel", "perpendicular", "circumscribed", "inscribed",
                                      "shared edge", "diagonal", "major axis",    "minor axis",    "diameter"};
// The engine's relation_reverse: the relation read the other way round.
std::string reverse_relation(const std::string& r) {
  if (r == "circumscribed") return "inscribed";
  if (r == "inscribed" || r == "diagonal" || r == "major axis" || r == "minor axis" || r == "diameter")
    return "circumscribed";
  return r;  // tangent, parallel, perpendicular, shared edge
}

// The engine's get_relation: the relation a question asks about, or "" for the ones it never asks
// (concentric, similar, symmetric).
std::string asked_relation(const std::string& r) {
  if (r.find("tangent") != std::string::npos) return "tangent";
  if (r.find("circumscribed") != std::string::npos) return "circumscribed";
  if (r.find("inscribed") != std::string::npos) return "inscribed";
  if (r == "concentric" || r == "similar" || r == "symmetric") return "";
  return r;
}

struct Phrase {
  const char* value;  ///< the native question's value
  const char* words;  ///< the engine's words
};
constexpr Phrase kDirections[] = {{"top", "directly to the top of"},      {"bottom", "directly to the bottom of"},
                                  {"left", "directly to the left of"},    {"right", "directly to the right of"},
                                  {"upper left", "to the upper left of"}, {"upper right", "to the upper right of"},
                                  {"lower left", "to the lower left of"}, {"lower right", "to the lower right of"}};
constexpr Phrase kRegions[] = {{"upper half", "in the upper half of the image"},
                               {"lower half", "in the lower half of the image"},
                               {"left half", "in the left half of the image"},
                               {"right half", "in the right half of the image"},
                               {"top left quarter", "in the top left quarter of the image"},
                               {"top right quarter", "in the top right quarter of the image"},
                               {"bottom left quarter", "in the bottom left quarter of the image"},
                               {"bottom right quarter", "in the bottom right quarter of the image"}};

class Questions {
 public:
  Questions(const Scene& scene, const EngineFigure& figure, const Bands& bands, Random& rng, std::uint64_t seed,
            std::uint64_t index)
      : scene_(scene),
        figure_(figure),
        bands_(bands),
        frame_bands_(bands_, scene.frame),
        evaluator_(scene, bands),
        rng_(rng),
        seed_(seed),
        index_(index) {
    for (const auto& s : scene.shapes) {
      types_.push_back(shape_type(s));
      ++counts_[types_.back()];
    }
    for (const auto& t : kTotalShapes) (counts_.count(t) ? present_ : absent_).push_back(t);
    // Types the engine's loader knows that are not in its list (none made here) count as present.
    for (const auto& [t, n] : counts_)
      if (!contains(present_, t)) present_.push_back(t);
    for (const auto& t : present_)
      if (counts_[t] == 1) single_.push_back(t);
  }

  // Every aspect's certified questions, or the aspect that has none.
  std::string ask_all(GeneratedItem& item) {
    // Reference before location: its region questions need the engine's boxes, which then serve
    // the location questions too (the evaluator builds the engine's view once).
    for (const char* aspect : {"existence", "counting", "size", "reference", "location", "relation"}) {
      std::vector<Proposal> proposals = propose(aspect);
      int kept = 0;
      for (auto& p : proposals) {
        if (kept == 3) break;
        if (keep(aspect, p, kept, item)) ++kept;
      }
      if (kept == 0) return std::string("no_") + aspect + "_question";
    }
    return "";
  }

  std::map<std::string, std::size_t> dropped;  ///< proposals not certified, by reason
  SceneEvaluator& evaluator() { return evaluator_; }

 private:
  std::vector<Proposal> propose(const std::string& aspect) {
    if (aspect == "existence") return existence();
    if (aspect == "counting") return counting();
    if (aspect == "size") return size();
    if (aspect == "location") return location();
    if (aspect == "reference") return reference();
    return relation();
  }

  // Places the right option, maps the question through the importer's templates and keeps it
  // when it is certified.
  bool keep(const std::string& aspect, const Proposal& p, int id, GeneratedItem& item) {
    const Question probe = gepbench_question(aspect, "0", p.text, {}, "");
    const std::string kind = question_kind(probe);
    const std::size_t occurrence = occurrences_[kind];
    const std::size_t position = answer_position(seed_, index_, kind, occurrence);
    Proposal placed = p;
    if (p.numbers) {  // four consecutive counts from the highest that puts the right one there
      placed.values.clear();
      const long c = std::stol(p.values[p.right]), lo = std::max(0L, c - static_cast<long>(position));
      for (long v = lo; v < lo + 4; ++v) placed.values.push_back(std::to_string(v));
      placed.right = static_cast<std::size_t>(c - lo);
    }
    const std::vector<std::string> values = place_answer(placed.values, placed.right, position);
    Question q = gepbench_question(aspect, std::to_string(id), p.text, values, p.values[p.right]);
    if (const std::string problem = question_problem(evaluator_, q, frame_bands_); !problem.empty()) {
      ++dropped[problem];
      return false;
    }
    ++occurrences_[kind];
    EngineQuestion e;
    e.aspect = aspect, e.question_id = id, e.question = p.text;
    for (const auto& v : values) e.choices.push_back(p.numbers ? v : quoted(v));
    e.answer = p.numbers ? placed.values[placed.right] : quoted(placed.values[placed.right]);
    item.engine_questions.push_back(std::move(e));
    item.scene.questions.push_back(std::move(q));
    return true;
  }

  std::string pick(const std::vector<std::string>& from) { return from[rng_.below(from.size())]; }
  // A number drawn for the block of four consecutive items this one is in (and `salt`).
  std::size_t block_draw(std::uint64_t salt) const { return Random(seed_, (index_ - 1) / 4, salt).below(1u << 30); }
  std::vector<std::string> sample(std::vector<std::string> from, std::size_t n) {
    rng_.shuffle(from);
    from.resize(std::min(n, from.size()));
    return from;
  }

  // --- existence ------------------------------------------------------------------------------
  Proposal pair_question(const std::string& first, const std::string& second, bool has_first, bool has_second) {
    const std::string a = clarify(first, present_), b = clarify(second, present_);
    const bool swap = rng_.chance(0.5);
    Proposal p;
    p.text = "Is there a " + a + " and a " + b + " in the image?";
    p.values = {"Yes, both exist.", "No, only the " + (swap ? b : a) + " exists.",
                "No, only the " + (swap ? a : b) + " exists.", "No, neither exists."};
    const std::string answer = has_first && has_second ? p.values[0]
                               : has_first             ? "No, only the " + a + " exists."
                               : has_second            ? "No, only the " + b + " exists."
                                                       : p.values[3];
    p.right = static_cast<std::size_t>(std::find(p.values.begin(), p.values.end(), answer) - p.values.begin());
    return p;
  }

  std::vector<Proposal> existence() {
    std::vector<Proposal> out;
    std::vector<std::string> cases{"TT", "TF", "FT", "FF"};
    rng_.shuffle(cases);
    for (const auto& c : cases) {
      if (c == "TT" && present_.size() >= 2) {
        const auto two = sample(present_, 2);
        out.push_back(pair_question(two[0], two[1], true, true));
      } else if (c == "FF" && absent_.size() >= 2) {
        const auto two = sample(absent_, 2);
        out.push_back(pair_question(two[0], two[1], false, false));
      } else if ((c == "TF" || c == "FT") && !present_.empty() && !absent_.empty()) {
        const std::string yes = pick(present_), no = pick(absent_);
        out.push_back(c == "TF" ? pair_question(yes, no, true, false) : pair_question(no, yes, false, true));
      }
      if (out.size() == 2) break;
    }
    const bool can_absent = present_.size() >= 3 && !absent_.empty();
    const bool can_present = !present_.empty() && absent_.size() >= 3;
    if (can_absent || can_present) {
      const bool ask_absent = can_absent && can_present ? rng_.chance(0.5) : can_absent;
      Proposal p;
      std::vector<std::string> image_types = present_;
      std::string answer;
      if (ask_absent) {
        image_types = sample(present_, 3);
        answer = pick(absent_);
        p.values = image_types;
        p.text = "Which of the following is absent in the image?";
      } else {
        answer = pick(present_);
        p.values = sample(absent_, 3);
        p.text = "Which of the following is present in the image?";
      }
      p.values.push_back(answer);
      clarify_choices(p.values, answer, image_types);
      p.right = static_cast<std::size_t>(std::find(p.values.begin(), p.values.end(), answer) - p.values.begin());
      out.push_back(p);
    }
    return out;
  }

  // --- counting -------------------------------------------------------------------------------
  std::vector<Proposal> counting() {
    std::vector<std::string> asked;
    std::vector<std::string> pool = present_;
    // Present types weighted by their counts, without repeats (the engine's np.random.choice).
    while (asked.size() < 2 && !pool.empty()) {
      std::size_t total = 0;
      for (const auto& t : pool) total += counts_[t];
      std::size_t x = rng_.below(total);
      auto it = pool.begin();
      for (; it != pool.end(); ++it) {
        if (x < counts_[*it]) break;
        x -= counts_[*it];
      }
      asked.push_back(*it);
      pool.erase(it);
    }
    // The absent type asked about is the block's (four consecutive items ask about the same one
    // when they can): its answer letters then take the four positions in each block.
    const std::string block_type = kTotalShapes[block_draw(1) % std::size(kTotalShapes)];
    asked.push_back(absent_.empty() ? pick(present_) : contains(absent_, block_type) ? block_type : pick(absent_));
    std::vector<Proposal> out;
    for (const auto& type : asked) {
      const long c = counts_.count(type) ? static_cast<long>(counts_[type]) : 0;
      Proposal p;
      p.text = "How many " + clarify(type, present_, true) + " are there in the image?";
      p.numbers = true;
      // Four consecutive counts with the right one at a random place, as the engine's choices.
      const long lo = std::max(0L, c - static_cast<long>(rng_.below(4)));
      for (long v = lo; v < lo + 4; ++v) p.values.push_back(std::to_string(v));
      p.right = static_cast<std::size_t>(c - lo);
      out.push_back(p);
    }
    return out;
  }

  // A shape's measures, once for the candidate.
  const geometry::ShapeMeasures& measures(const Shape& shape) {
    const auto i = static_cast<std::size_t>(&shape - scene_.shapes.data());
    if (measures_.empty()) measures_.resize(scene_.shapes.size());
    if (!measures_[i]) measures_[i] = geometry::measure_shape(shape);
    return *measures_[i];
  }

  const Shape& only(const std::string& type) const {
    for (std::size_t i = 0; i < scene_.shapes.size(); ++i)
      if (types_[i] == type) return scene_.shapes[i];
    return scene_.shapes.front();
  }

  // --- size -----------------------------------------------------------------------------------
  std::vector<Proposal> size() {
    std::vector<Proposal> out;
    const char* dims[] = {"horizontal span", "vertical span", "area"};
    for (int dim = 0; dim < 3; ++dim) {
      std::vector<std::string> types;
      for (const auto& t : single_)
        if (dim < 2 || t != "line") types.push_back(t);
      if (types.empty()) continue;
      const std::string type = pick(types);
      const geometry::ShapeMeasures& m = measures(only(type));
      const double value = dim == 0   ? std::clamp(m.x1, 0.0, 1.0) - std::clamp(m.x0, 0.0, 1.0)
                           : dim == 1 ? std::clamp(m.y1, 0.0, 1.0) - std::clamp(m.y0, 0.0, 1.0)
                                      : m.area;
      const long c = std::lround(value * 100);
      std::vector<long> valid;
      for (long pos = 0; pos < 4; ++pos)
        if (c - 15 * pos >= 0 && c + 15 * (3 - pos) <= 100) valid.push_back(pos);
      if (valid.empty()) continue;
      const long pos = valid[rng_.below(valid.size())];
      Proposal p;
      p.text = std::string(
                   "Suppose that the width and height of the image is 1, which of the following is closest to the ") +
               dims[dim] + " of the " + clarify(type, present_) + "?";
      for (long i = 0; i < 4; ++i) p.values.push_back(hundredths(c + 15 * (i - pos)));
      p.right = static_cast<std::size_t>(pos);
      out.push_back(p);
    }
    rng_.shuffle(out);
    return out;
  }

  const std::vector<questions::gepbench::EngineShape>& engine(bool boxes) {
    if (boxes && !boxes_) engine_.clear();
    if (engine_.empty()) engine_ = questions::gepbench::engine_shapes(scene_, boxes), boxes_ = boxes;
    return engine_;
  }
  const questions::gepbench::EngineShape& engine_of(const std::string& type, bool boxes = false) {
    const auto& all = engine(boxes);
    for (std::size_t i = 0; i < scene_.shapes.size(); ++i)
      if (types_[i] == type) return all[i];
    return all.front();
  }

  // --- location -------------------------------------------------------------------------------
  Proposal quadrant_question(const std::string& text, const Vec2& x, const Vec2& ref) {
    Proposal p;
    p.text = text;
    const std::string right = std::string(x.y > ref.y ? "upper " : "lower ") + (x.x < ref.x ? "left" : "right");
    p.values = {"upper left", "upper right", "lower left", "lower right"};
    p.right = static_cast<std::size_t>(std::find(p.values.begin(), p.values.end(), right) - p.values.begin());
    return p;
  }
  static bool apart(const Vec2& x, const Vec2& ref) {  // the engine's location_type_t = 0.03
    return abs(x.x - ref.x) >= Rational(3, 100) && abs(x.y - ref.y) >= Rational(3, 100);
  }

  std::vector<Proposal> location() {
    std::vector<Proposal> out;
    const Vec2 middle{Rational(1, 2), Rational(1, 2)};
    for (const auto& type : sample(single_, single_.size())) {
      const Vec2& c = engine_of(type).centre;
      if (!apart(c, middle)) continue;
      out.push_back(quadrant_question(
          "Considering the centroid, where is the " + clarify(type, present_) + " located in the image?", c, middle));
      if (out.size() == 2) break;
    }
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& a : single_)
      for (const auto& b : single_)
        if (a != b) pairs.emplace_back(a, b);
    rng_.shuffle(pairs);
    for (const auto& [a, b] : pairs) {
      const Vec2 &ca = engine_of(a).centre, &cb = engine_of(b).centre;
      if (!apart(ca, cb)) continue;
      out.push_back(quadrant_question("Considering the centroid, where is the " + clarify(a, present_) +
                                          " located relative to the " + clarify(b, present_) + "?",
                                      ca, cb));
      break;
    }
    return out;
  }

  // --- reference ------------------------------------------------------------------------------
  std::vector<std::string> absent_fill(bool no_line) const {
    std::vector<std::string> out;
    for (const auto& t : absent_)
      if (!no_line || t != "line") out.push_back(t);
    return out;
  }

  // Options: the answer and three distractors, the ones given first, then absent types.
  std::optional<Proposal> options_question(const std::string& text, const std::string& answer,
                                           std::vector<std::string> distractors, bool no_line) {
    rng_.shuffle(distractors);
    auto fill = absent_fill(no_line);
    rng_.shuffle(fill);
    distractors.insert(distractors.end(), fill.begin(), fill.end());
    if (distractors.size() < 3) return std::nullopt;
    distractors.resize(3);
    Proposal p;
    p.text = text;
    for (const auto& t : distractors) p.values.push_back(clarify(t, present_));
    p.values.push_back(clarify(answer, present_));
    p.right = 3;
    return p;
  }

  std::string anchor_phrase(const std::string& type, const char* plural_mark) {
    std::string phrase = clarify(type, present_);
    if (std::string(plural_mark) == "s") {
      if (counts_[type] == 1) return "the " + phrase;
      const auto at = phrase.find(" (");
      phrase = at == std::string::npos ? phrase + "s" : phrase.substr(0, at) + "s" + phrase.substr(at);
      return "all the " + phrase;
    }
    const auto at = phrase.find(" (");
    return at == std::string::npos ? phrase + "(s)" : phrase.substr(0, at) + "(s)" + phrase.substr(at);
  }

  std::vector<Proposal> reference() {
    std::vector<Proposal> out;
    // Area: every shape of the answer's type larger (smaller) than every shape of the anchor's.
    {
      const bool larger = block_draw(2) % 2 == 0;              // the same in the block's four items (as above)
      std::map<std::string, std::pair<double, double>> range;  // type → (least, greatest) area
      for (std::size_t i = 0; i < scene_.shapes.size(); ++i) {
        if (types_[i] == "line") continue;
        const double a = measures(scene_.shapes[i]).area;
        auto [it, added] = range.emplace(types_[i], std::make_pair(a, a));
        if (!added) it->second = {std::min(it->second.first, a), std::max(it->second.second, a)};
      }
      std::vector<std::pair<std::string, std::string>> pairs;
      for (const auto& [x, rx] : range)
        for (const auto& [y, ry] : range)
          if (x != y && (larger ? rx.first - ry.second : ry.first - rx.second) >= 0.02) pairs.emplace_back(x, y);
      if (!pairs.empty()) {
        const auto [answer, anchor] = pairs[rng_.below(pairs.size())];
        const auto& ra = range[anchor];
        std::vector<std::string> wrong;
        for (const auto& [t, rt] : range)
          if (t != answer && t != anchor && (larger ? ra.first - rt.second : rt.first - ra.second) >= 0.02)
            wrong.push_back(t);
        if (auto p = options_question("Which of the following is presented in the image and has a " +
                                          std::string(larger ? "larger" : "smaller") + " area than " +
                                          anchor_phrase(anchor, "s") + "?",
                                      answer, wrong, true))
          out.push_back(*p);
      }
    }
    // Frequency: more (fewer) shapes of the answer's type than of the anchor's.
    {
      const bool more = block_draw(3) % 2 == 0;
      std::vector<std::pair<std::string, std::string>> pairs;
      for (const auto& x : present_)
        for (const auto& y : present_)
          if (x != y && (more ? counts_[x] > counts_[y] : counts_[x] < counts_[y])) pairs.emplace_back(x, y);
      if (!pairs.empty()) {
        const auto [answer, anchor] = pairs[rng_.below(pairs.size())];
        std::vector<std::string> wrong;
        for (const auto& t : present_)
          if (t != answer && t != anchor && (more ? counts_[t] <= counts_[anchor] : counts_[t] >= counts_[anchor]))
            wrong.push_back(t);
        if (auto p = options_question("Which of the following is presented in the image and appears " +
                                          std::string(more ? "more" : "less") + " frequently than " +
                                          anchor_phrase(anchor, "(s)") + "?",
                                      answer, wrong, false))
          out.push_back(*p);
      }
    }
    // Direction from an anchor (types that occur once, no lines) and regions of the image, by the
    // engine's rules: tried in a random order until two are found.
    {
      std::vector<std::string> candidates;
      for (const auto& t : single_)
        if (t != "line") candidates.push_back(t);
      std::vector<std::pair<std::size_t, std::string>> tasks;  // (direction or 8 + region, anchor)
      if (candidates.size() >= 3)
        for (std::size_t k = 0; k < std::size(kDirections); ++k)
          for (const auto& anchor : candidates) tasks.emplace_back(k, anchor);
      for (std::size_t k = 0; k < std::size(kRegions); ++k) tasks.emplace_back(8 + k, "");
      rng_.shuffle(tasks);
      std::size_t found = 0, regions = 0;
      for (const auto& [k, anchor] : tasks) {
        if (found == 2) break;
        if (k >= 8 && ++regions > 3) continue;  // the box rule is costly: three regions at most
        std::optional<Proposal> p =
            k < 8 ? direction_question(kDirections[k], anchor, candidates) : region_question(kRegions[k - 8]);
        if (p) out.push_back(*p), ++found;
      }
    }
    rng_.shuffle(out);
    return out;
  }

  std::optional<Proposal> direction_question(const Phrase& direction, const std::string& anchor,
                                             const std::vector<std::string>& candidates) {
    const Vec2& a = engine_of(anchor).centre;
    std::vector<std::string> holds, fails;
    for (const auto& t : candidates) {
      if (t == anchor) continue;
      const auto r = questions::gepbench::relative_direction(direction.value, a, engine_of(t).centre);
      (r.cls == questions::gepbench::RuleClass::fails ? fails : holds).push_back(t);  // gray counts against
    }
    if (holds.size() != 1 || related(holds[0], anchor)) return std::nullopt;
    return options_question("Considering the centroid, which of the following is " + std::string(direction.words) +
                                " the " + clarify(anchor, present_) + "?",
                            holds[0], fails, true);
  }

  std::optional<Proposal> region_question(const Phrase& region) {
    std::map<std::string, questions::gepbench::RuleClass> by_type;
    for (std::size_t i = 0; i < scene_.shapes.size(); ++i) {
      const auto cls = questions::gepbench::region_by_box(region.value, engine(true)[i].box).cls;
      auto [it, added] = by_type.emplace(types_[i], cls);
      if (!added && it->second != cls) it->second = questions::gepbench::RuleClass::gray;
    }
    std::vector<std::string> holds, fails;
    for (const auto& [t, cls] : by_type)
      if (cls == questions::gepbench::RuleClass::holds)
        holds.push_back(t);
      else if (cls == questions::gepbench::RuleClass::fails)
        fails.push_back(t);
    if (holds.empty()) return std::nullopt;
    return options_question("Considering the centroid, which of the following is " + std::string(region.words) + "?",
                            pick(holds), fails, false);
  }

  // Whether the figure declares a relation between shapes of these two types.
  bool related(const std::string& a, const std::string& b) const {
    for (const auto& r : figure_.relations) {
      const std::string &x = types_[r.a], &y = types_[r.b];
      if ((x == a && y == b) || (x == b && y == a)) return true;
    }
    return false;
  }

  // --- relation -------------------------------------------------------------------------------
  Proposal relation_question(const std::string& a, const std::string& b, const std::string& answer) {
    Proposal p;
    p.text = "What is the relationship of the " + clarify(a, present_) + " to the " + clarify(b, present_) +
             " in the image?";
    std::vector<std::string> others;
    for (const std::string r : kRelations)
      if (r != answer) others.push_back(r);
    others = sample(others, answer == "none of the above" ? 3 : 2);
    p.values = others;
    if (answer != "none of the above") p.values.push_back(answer);
    p.values.push_back("none of the above");
    p.right = static_cast<std::size_t>(std::find(p.values.begin(), p.values.end(), answer) - p.values.begin());
    return p;
  }

  std::vector<Proposal> relation() {
    std::vector<Proposal> out;
    std::map<std::pair<std::string, std::string>, std::string> asked;
    for (const auto& r : figure_.relations) {
      const std::string &a = types_[r.a], &b = types_[r.b];
      if (counts_[a] != 1 || counts_[b] != 1) continue;
      const std::string name = asked_relation(r.name);
      if (name.empty()) continue;
      if (rng_.chance(0.5))
        asked[{b, a}] = reverse_relation(name);
      else
        asked[{a, b}] = name;
    }
    for (const auto& [pair, name] : asked) out.push_back(relation_question(pair.first, pair.second, name));
    rng_.shuffle(out);
    std::vector<std::pair<std::string, std::string>> free;
    for (const auto& a : single_)
      for (const auto& b : single_)
        if (a != b && !related(a, b)) free.emplace_back(a, b);
    if (!free.empty()) {
      const auto& [a, b] = free[rng_.below(free.size())];
      out.push_back(relation_question(a, b, "none of the above"));
    }
    return out;
  }

  const Scene& scene_;
  const EngineFigure& figure_;
  Bands bands_;
  FrameBands frame_bands_;
  SceneEvaluator evaluator_;
  Random& rng_;
  std::uint64_t seed_, index_;
  std::vector<std::string> types_;  // of each shape
  std::map<std::string, std::size_t> counts_;
  std::vector<std::string> present_, absent_, single_;
  std::map<std::string, std::size_t> occurrences_;
  std::vector<questions::gepbench::EngineShape> engine_;
  std::vector<std::optional<geometry::ShapeMeasures>> measures_;
  bool boxes_ = false;
};

}  // namespace

GeneratedItem gepbench_item(const GenerateOptions& options, std::uint64_t seed, std::uint64_t index,
                            const CandidateCheck& picture) {
  const bool hard = options.level == "hard";
  GeneratedItem item;
  for (std::size_t attempt = 0; attempt < options.max_attempts; ++attempt) {
    if (attempt > 0) ++item.rejected[item.error.value_or("unknown")];
    item.attempts = attempt + 1;
    item.engine_questions.clear();
    Random rng(seed, index, attempt);
    const EngineFigure figure =
        random_figure(rng, static_cast<std::size_t>(hard ? rng.between(5, 8) : rng.between(2, 4)));
    if (figure.shapes.empty()) {
      item.error = "no_figure";
      continue;
    }
    item.engine_rules = engine_json(figure);
    auto imported = import_gepbench({{"rules.json", "[" + item.engine_rules + "]"}});
    if (imported.size() != 1 || !std::holds_alternative<Scene>(imported.front().scene)) {
      item.error = "import_error";
      continue;
    }
    item.scene = std::get<Scene>(std::move(imported.front().scene));
    item.scene.id =
        "gepbench-" + std::string(hard ? "hard" : "easy") + "-" + std::to_string(seed) + "-" + std::to_string(index);
    item.scene.extra = R"({"dataset":"gepbench","generated":{"family":"gepbench","level":")" +
                       std::string(hard ? "hard" : "easy") + R"(","seed":)" + std::to_string(seed) + R"(,"item":)" +
                       std::to_string(index) + "}}";
    VisibilityRules rules;
    for (const auto& [a, b] : figure.touching)
      rules.touching.insert({item.scene.shapes[a].id, item.scene.shapes[b].id});
    if (const auto problem = visibility_problem(item.scene, options.bands, rules); !problem.empty()) {
      item.error = "visibility: " + problem;
      continue;
    }
    Questions questions(item.scene, figure, options.bands, rng, seed, index);
    const auto missing = questions.ask_all(item);
    for (const auto& [reason, n] : questions.dropped) item.dropped[reason] += n;
    if (!missing.empty()) {
      item.error = missing;
      continue;
    }
    if (const auto problem = certify(item.scene, options.bands, rules, &questions.evaluator()); !problem.empty()) {
      item.error = problem;
      continue;
    }
    if (const auto problem = picture_problem(picture, item.scene); !problem.empty()) {
      item.error = problem;
      continue;
    }
    item.error.reset();
    return item;
  }
  return without_candidate(std::move(item), options);
}

}  // namespace geotruth::generate
