// AI2D (Kembhavi et al., ECCV 2016): one annotation file per diagram (<id>.png.json: blobs, text
// boxes, arrows, arrowheads, typed relationships), with its question file (questions/<id>.png.json)
// when there is one. A blob and the texts that label it become one entity named by the label; each
// interObjectLinkage becomes a link that keeps its relationship id and names its arrow outlines;
// arrowheads keep their box, orientation and arrow. Coordinates are kept exactly as written.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "import/importers.hpp"

namespace geotruth::import {
namespace {

using json::Value;
using Kind = Value::Kind;

}  // namespace

// "B10" after "B9": ids ordered by their letters, then their number.
bool id_before(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    const auto digits = s.find_first_of("0123456789");
    const std::string head = s.substr(0, digits);
    const std::string tail = digits == std::string::npos ? "" : s.substr(digits);
    const bool numeric = !tail.empty() && tail.size() < 10 && std::all_of(tail.begin(), tail.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    return std::tuple{head, numeric ? std::stol(tail) : -1L, tail};
  };
  return split(a) < split(b);
}

namespace {

std::vector<const std::pair<std::string, Value>*> members_in_id_order(const Value* object) {
  std::vector<const std::pair<std::string, Value>*> out;
  if (!object || object->kind != Kind::object) return out;
  for (const auto& m : object->members) out.push_back(&m);
  std::stable_sort(out.begin(), out.end(), [](auto* a, auto* b) { return id_before(a->first, b->first); });
  return out;
}

}  // namespace

std::string text_of(const Value* v) {
  return v && v->kind == Kind::string ? v->text : std::string();
}

namespace {

struct Malformed {
  std::string pointer, message;
};

Rational number_at(const Value& v, const std::string& ptr) {
  if (v.kind != Kind::number) throw Malformed{ptr, "expected a number"};
  auto parsed = parse_decimal(v.text);
  if (!parsed.value) throw Malformed{ptr, parsed.error};
  return *parsed.value;
}

std::vector<Vec2> points_at(const Value* v, const std::string& ptr) {
  if (!v || v->kind != Kind::array) throw Malformed{ptr, "expected a list of [x, y] points"};
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < v->items.size(); ++i) {
    const Value& p = v->items[i];
    const std::string pp = ptr + "/" + std::to_string(i);
    if (p.kind != Kind::array || p.items.size() != 2) throw Malformed{pp, "expected a point [x, y]"};
    out.push_back({number_at(p.items[0], pp + "/0"), number_at(p.items[1], pp + "/1")});
  }
  return out;
}

// AI2D writes a rectangle as two corners, [[x1, y1], [x2, y2]].
std::array<Rational, 4> rectangle_at(const Value* v, const std::string& ptr) {
  const auto corners = points_at(v, ptr);
  if (corners.size() != 2) throw Malformed{ptr, "expected a rectangle [[x1, y1], [x2, y2]]"};
  return bounding_box(corners);
}

bool degenerate(const std::array<Rational, 4>& box) {
  return box[0] >= box[2] || box[1] >= box[3];
}

std::string domain_of(const std::string& category) {
  if (category == "foodChainsWebs") return "food_web";
  if (category == "lifeCycles") return "life_cycle";
  if (category == "circuits") return "circuit";
  return category.empty() ? "" : "other";
}

// Circuit parts by the words of their label: the circuit evaluator's component tags.
std::vector<std::string> circuit_tags(const std::string& name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::regex battery(R"(\b(battery|batteries|cell)\b)"), bulb(R"(\b(bulbs?|lamps?|light)\b)"),
      switch_(R"(\bswitch)"), resistor(R"(\b(resistors?|r\d*)\b)");
  if (std::regex_search(lower, battery)) return {"battery"};
  if (std::regex_search(lower, bulb)) return {"bulb"};
  if (std::regex_search(lower, switch_)) return {"switch"};
  if (std::regex_search(lower, resistor)) return {"resistor"};
  return {};
}

// --- questions ----------------------------------------------------------------------------------

std::string lowered(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The anchor phrase without its article and without the diagram it points at.
std::string anchor_phrase(std::string phrase) {
  static const std::regex tail(
      R"((\s+(in|on|of|from|shown in)\s+(the|this)\s+(given\s+)?(diagram|picture|image|figure|cycle|life cycle|food web|food chain|web|chain)|\s+stage|\s+shown|\s+above)+\s*$)");
  static const std::regex article(R"(^(the|a|an)\s+)");
  phrase = std::regex_replace(phrase, tail, "");
  phrase = std::regex_replace(phrase, article, "");
  while (!phrase.empty() && (phrase.back() == ' ' || phrase.back() == '?' || phrase.back() == '.')) phrase.pop_back();
  return phrase;
}

// One template: its name, the pattern on one lower-case sentence (group 1 is the anchor when it
// has one), and the native question it asks.
struct Template {
  const char* name;
  std::regex pattern;
  const char* ask;
  const char* of;
  const char* relation;
};

const std::vector<Template>& templates() {
  static const std::string who = R"(^(?:what|which|who)(?: [a-z]+){0,3}? )";
  static const std::string thing = R"((?:the |a |an )?([a-z0-9][a-z0-9 \-']*?)\s*\??$)";
  static const std::vector<Template> all = {
      {"how_many_stages", std::regex(R"(\bhow many (?:different |distinct |main )?(?:stages|phases|steps)\b)"), "count",
       "stages", ""},
      {"how_many_eat",
       std::regex(
           R"(^how many (?:[a-z]+ )?(?:eat|eats|feed on|feeds on|consume|consumes|prey on|preys on|hunt|hunts) )" +
           thing),
       "count", "predators", ""},
      {"eaten_by",
       std::regex(R"(^what (?:does|do|did|will|would) )" + std::string(R"((?:the |a |an )?([a-z0-9][a-z0-9 \-']*?) )") +
                  R"((?:eat|feed on|consume|prey on|hunt|feed upon)\s*\??$)"),
       "which", "", "prey_of"},
      {"eaten_by", std::regex(who + R"((?:is|are) (?:eaten|consumed|hunted) by )" + thing), "which", "", "prey_of"},
      {"eaten_by", std::regex(who + R"((?:is|are) (?:the )?prey of )" + thing), "which", "", "prey_of"},
      {"what_eats",
       std::regex(
           R"(^(?:the |a |an )?([a-z0-9][a-z0-9 \-']*?) (?:is|are) (?:eaten|consumed|hunted) by (?:what|which|whom))"),
       "which", "", "predator_of"},
      {"what_eats", std::regex(who + R"((?:is|are) (?:a |the )?predators? of )" + thing), "which", "", "predator_of"},
      {"what_eats",
       std::regex(who + R"((?:eats?|feeds? on|feeds? upon|consumes?|preys? on|hunts?|would eat|will eat|can eat) )" +
                  thing),
       "which", "", "predator_of"},
      {"top_predator",
       std::regex(
           R"(\b(?:top|apex|highest)(?: level)? (?:predator|consumer|carnivore)\b|\b(?:top|highest|head|end) (?:of|in|on) (?:the |this )?food (?:chain|web)\b)"),
       "which", "", "top_predator"},
      {"producer",
       std::regex(
           R"(^(?:what|which)\b(?!.*\b(?:consumer|decomposer|herbivore|carnivore|omnivore|predator|prey|if)\b).*\bproducers?\b)"),
       "which", "", "producer"},
      {"next_stage",
       std::regex(
           who +
           R"((?:comes?|occurs?|happens?|follows?|is next|develops?|forms?|stage is next)(?: right| directly| immediately| just)? after )" +
           thing),
       "which", "", "next_stage"},
      {"next_stage", std::regex(R"(^what (?:is |comes )?(?:the )?next (?:stage )?after )" + thing), "which", "",
       "next_stage"},
      {"next_stage", std::regex(R"(^what (?:stage )?follows )" + thing), "which", "", "next_stage"},
      {"next_stage",
       std::regex(
           R"(^(?:the |a |an )?([a-z0-9][a-z0-9 \-']*?) (?:becomes|turns into|develops into|grows into) (?:what|which))"),
       "which", "", "next_stage"},
  };
  return all;
}

// The sentences and clauses of a question, each lower case and trimmed.
std::vector<std::string> sentences(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (char c : lowered(text)) {
    current += c;
    // Clauses too: "In the cycle shown above, what occurs right after ...?"
    if (c == '?' || c == '.' || c == '!' || c == ',') {
      out.push_back(current);
      current.clear();
    }
  }
  out.push_back(current);
  for (auto& s : out) {
    const auto first = s.find_first_not_of(" \t\r\n"), last = s.find_last_not_of(" \t\r\n");
    s = first == std::string::npos ? "" : s.substr(first, last - first + 1);
  }
  return out;
}

bool letters_only(const std::vector<std::string>& options) {
  return !options.empty() && std::all_of(options.begin(), options.end(), [](const std::string& o) {
    return o.size() == 1 && std::isupper(static_cast<unsigned char>(o[0]));
  });
}

// AI2D's question as a native question: the template its wording matches, or "unmatched".
Question map_question(const std::string& text, const std::vector<std::string>& options, bool letter_labels) {
  Question q;
  q.text = text;
  q.options = options;
  if (letter_labels && letters_only(options)) {
    // Answered with the letters that replace the diagram's texts: not a graph question.
    q.ask = "which";
    q.relation = "label_letter";
    q.template_name = "label_letter";
    return q;
  }
  for (const auto& sentence : sentences(text)) {
    std::smatch m;
    for (const auto& t : templates())
      if (std::regex_search(sentence, m, t.pattern)) {
        q.template_name = t.name;
        q.ask = t.ask;
        q.of = t.of;
        q.relation = t.relation;
        if (m.size() > 1 && m[1].matched) q.anchor = anchor_phrase(m[1]);
        return q;
      }
  }
  q.ask = "unmapped";
  q.template_name = "unmatched";
  return q;
}

}  // namespace

// --- the annotation -------------------------------------------------------------------------------

class Converter {
 public:
  Converter(const Value& root, std::string key, std::string category)
      : root_(root), key_(std::move(key)), category_(std::move(category)) {}

  ImportedScene convert(const Value* questions) {
    scene_.id = key_;  // AI2D's own id: pictures are <id>.png
    scene_.domain = domain_of(category_);
    try {
      read_labels();
      read_entities();
      read_arrows();
      read_links();
      if (questions) read_questions(*questions);
    } catch (const Malformed& m) {
      return {key_, InputError{m.pointer, m.message}, {}, {}};
    }
    set_frame();
    if (!category_.empty()) scene_.extra = R"({"ai2d":{"category":")" + category_ + R"("}})";
    return {key_, std::move(scene_), std::move(notes_), std::move(origins_)};
  }

 private:
  const Value* section(std::string_view name) const {
    const Value* v = root_.find(name);
    return v && v->kind == Kind::object ? v : nullptr;
  }

  // Text → the blob it labels (intraObjectLabel, either way round), the first when several.
  void read_labels() {
    const Value* blobs = section("blobs");
    const Value* texts = section("text");
    for (const auto* r : members_in_id_order(section("relationships"))) {
      if (text_of(r->second.find("category")) != "intraObjectLabel") continue;
      std::string text = text_of(r->second.find("origin")), blob = text_of(r->second.find("destination"));
      if (blobs && blobs->find(text)) std::swap(text, blob);
      if (!texts || !texts->find(text) || !blobs || !blobs->find(blob)) continue;
      if (auto [it, fresh] = label_of_.emplace(text, blob); !fresh && it->second != blob)
        notes_.push_back(
            {"label_of_two_blobs", text + " labels " + it->second + " and " + blob + ": kept on " + it->second});
    }
  }

  void read_entities() {
    std::map<std::string, std::vector<const std::pair<std::string, Value>*>> labels;
    const auto texts = members_in_id_order(section("text"));
    for (const auto* t : texts)
      if (auto it = label_of_.find(t->first); it != label_of_.end()) labels[it->second].push_back(t);
    for (const auto* b : members_in_id_order(section("blobs"))) {
      const std::string ptr = "/blobs/" + json::pointer_token(b->first);
      Entity e;
      e.id = b->first;
      e.kind = EntityKind::icon;
      e.polygon = points_at(b->second.find("polygon"), ptr + "/polygon");
      if (e.polygon.size() < 3 || degenerate(bounding_box(e.polygon))) {
        notes_.push_back({"degenerate_blob", b->first + " has no area: left out"});
        continue;
      }
      e.box = bounding_box(e.polygon);
      for (const auto* t : labels[b->first]) {
        const std::string tp = "/text/" + json::pointer_token(t->first);
        e.labels.push_back(
            {t->first, text_of(t->second.find("value")), rectangle_at(t->second.find("rectangle"), tp + "/rectangle")});
        entity_of_[t->first] = e.id;
      }
      if (!e.labels.empty()) e.text = e.labels.front().text;
      add_entity(std::move(e), ptr);
    }
    for (const auto* t : texts) {
      if (label_of_.count(t->first)) continue;
      const std::string ptr = "/text/" + json::pointer_token(t->first);
      Entity e;
      e.id = t->first;
      e.text = text_of(t->second.find("value"));
      e.box = rectangle_at(t->second.find("rectangle"), ptr + "/rectangle");
      if (degenerate(e.box)) {
        notes_.push_back({"degenerate_text", t->first + " has an empty rectangle: left out"});
        continue;
      }
      add_entity(std::move(e), ptr);
    }
    tag_entities();
  }

  void add_entity(Entity e, const std::string& ptr) {
    origins_.emplace_back("/entities/" + std::to_string(scene_.entities.size()), ptr);
    entity_of_[e.id] = e.id;
    scene_.entities.push_back(std::move(e));
  }

  // Titles and captions say what they are; circuit parts say which component they are.
  void tag_entities() {
    static const std::map<std::string, std::string> kTags = {{"imageTitle", "title"},
                                                             {"imageCaption", "caption"},
                                                             {"sectionTitle", "section_title"},
                                                             {"misc", "misc"},
                                                             {"arrowDescriptor", "arrow_label"}};
    for (const auto* r : members_in_id_order(section("relationships"))) {
      auto tag = kTags.find(text_of(r->second.find("category")));
      if (tag == kTags.end()) continue;
      for (auto& e : scene_.entities)
        if (e.id == text_of(r->second.find("origin")) &&
            std::find(e.tags.begin(), e.tags.end(), tag->second) == e.tags.end())
          e.tags.push_back(tag->second);
    }
    if (scene_.domain == "circuit")
      for (auto& e : scene_.entities)
        for (const auto& t : circuit_tags(e.text)) e.tags.push_back(t);
  }

  void read_arrows() {
    for (const auto* a : members_in_id_order(section("arrows"))) {
      const std::string ptr = "/arrows/" + json::pointer_token(a->first);
      Arrow arrow{a->first, points_at(a->second.find("polygon"), ptr + "/polygon"), ""};
      if (arrow.polygon.size() < 2) {
        notes_.push_back({"degenerate_arrow", a->first + " has fewer than 2 points: left out"});
        continue;
      }
      origins_.emplace_back("/arrows/" + std::to_string(scene_.arrows.size()), ptr);
      arrows_.insert(arrow.id);
      scene_.arrows.push_back(std::move(arrow));
    }
    std::map<std::string, std::string> arrow_of;  // head → its arrow (arrowHeadTail)
    for (const auto* r : members_in_id_order(section("relationships"))) {
      if (text_of(r->second.find("category")) != "arrowHeadTail") continue;
      std::string arrow = text_of(r->second.find("origin")), head = text_of(r->second.find("destination"));
      if (!arrows_.count(arrow)) std::swap(arrow, head);
      if (arrows_.count(arrow)) arrow_of.emplace(head, arrow);
    }
    for (const auto* h : members_in_id_order(section("arrowHeads"))) {
      const std::string ptr = "/arrowHeads/" + json::pointer_token(h->first);
      ArrowHead head;
      head.id = h->first;
      head.box = rectangle_at(h->second.find("rectangle"), ptr + "/rectangle");
      if (degenerate(head.box)) {
        notes_.push_back({"degenerate_head", h->first + " has an empty box: left out"});
        continue;
      }
      if (const Value* o = h->second.find("orientation"); o && o->kind == Kind::number)
        if (Rational angle = number_at(*o, ptr + "/orientation"); angle >= 0) head.orientation = angle;
      if (auto it = arrow_of.find(h->first); it != arrow_of.end()) head.arrow = it->second;
      origins_.emplace_back("/arrow_heads/" + std::to_string(scene_.arrow_heads.size()), ptr);
      scene_.arrow_heads.push_back(std::move(head));
    }
  }

  // One link per interObjectLinkage; relations joining the same two entities the same way (a
  // connector drawn as several arrows) become one link that keeps every relationship id.
  void read_links() {
    std::map<std::tuple<std::string, std::string, bool>, std::size_t> link_of;
    for (const auto* r : members_in_id_order(section("relationships"))) {
      const Value& rel = r->second;
      if (text_of(rel.find("category")) != "interObjectLinkage") continue;
      const std::string origin = text_of(rel.find("origin")), destination = text_of(rel.find("destination"));
      const auto from = entity_of_.find(origin), to = entity_of_.find(destination);
      if (from == entity_of_.end() || to == entity_of_.end()) {
        notes_.push_back({"link_to_non_entity", r->first + " joins " + origin + " and " + destination +
                                                    ", which are not both blobs or texts: left out"});
        continue;
      }
      const Value* directed_value = rel.find("hasDirectionality");
      const bool directed = directed_value && directed_value->kind == Kind::boolean && directed_value->flag;
      const std::string connector = text_of(rel.find("connector"));
      std::string a = from->second, b = to->second;
      if (!directed && b < a) std::swap(a, b);
      const auto key = std::tuple{a, b, directed};
      if (auto it = link_of.find(key); it != link_of.end()) {
        Link& link = scene_.links[it->second];
        link.merged.push_back(r->first);
        if (arrows_.count(connector) &&
            std::find(link.arrows.begin(), link.arrows.end(), connector) == link.arrows.end())
          link.arrows.push_back(connector);
        continue;
      }
      Link link;
      link.id = r->first;
      link.from = from->second;
      link.to = to->second;
      link.directed = directed;
      link.kind = directed ? LinkKind::arrow : scene_.domain == "circuit" ? LinkKind::wire : LinkKind::line;
      if (arrows_.count(connector)) link.arrows.push_back(connector);
      link_of.emplace(key, scene_.links.size());
      origins_.emplace_back("/links/" + std::to_string(scene_.links.size()),
                            "/relationships/" + json::pointer_token(r->first));
      scene_.links.push_back(std::move(link));
    }
  }

  void read_questions(const Value& file) {
    const Value* questions = file.find("questions");
    if (!questions || questions->kind != Kind::object)
      throw Malformed{"", "the question file has no \"questions\" object"};
    std::size_t n = 0;
    for (const auto& [text, v] : questions->members) {
      ++n;
      std::vector<std::string> options;
      if (const Value* answers = v.find("answerTexts"); answers && answers->kind == Kind::array)
        for (const auto& a : answers->items) options.push_back(a.kind == Kind::string ? a.text : json::to_text(a));
      const Value* abc = v.find("abcLabel");
      Question q = map_question(text, options, abc && abc->kind == Kind::boolean && abc->flag);
      q.id = text_of(v.find("questionId"));
      if (q.id.empty()) q.id = key_ + "-q" + std::to_string(n);
      if (const Value* correct = v.find("correctAnswer"); correct && correct->kind == Kind::number) {
        const auto index = parse_decimal(correct->text).value;
        if (index && index->get_den() == 1 && *index >= 0 && *index < 26)
          q.answer = std::string(1, static_cast<char>('A' + index->get_num().get_si()));
      }
      scene_.questions.push_back(std::move(q));
    }
  }

  // AI2D gives no image size: the frame is the extent of the drawing (at least 64 px, so that one
  // unit stays one pixel).
  void set_frame() {
    Rational width = 64, height = 64;
    auto cover = [&](const Vec2& p) {
      width = std::max(width, p.x);
      height = std::max(height, p.y);
    };
    for (const auto& e : scene_.entities) {
      cover({e.box[2], e.box[3]});
      for (const auto& l : e.labels) cover({l.box[2], l.box[3]});
    }
    for (const auto& a : scene_.arrows)
      for (const auto& p : a.polygon) cover(p);
    for (const auto& h : scene_.arrow_heads) cover({h.box[2], h.box[3]});
    auto ceiling = [](const Rational& r) {
      mpz_class whole;
      mpz_cdiv_q(whole.get_mpz_t(), r.get_num_mpz_t(), r.get_den_mpz_t());
      return Rational(whole);
    };
    scene_.frame = Frame{ceiling(width), ceiling(height), YAxis::down};
  }

  const Value& root_;
  std::string key_, category_;
  Scene scene_;
  std::vector<ImportNote> notes_;
  std::vector<std::pair<std::string, std::string>> origins_;
  std::map<std::string, std::string> label_of_;   // text → blob
  std::map<std::string, std::string> entity_of_;  // blob or text id → entity id
  std::set<std::string> arrows_;
};

std::optional<Value> parse(std::string_view text, std::string& error, std::string& pointer) {
  Limits limits;
  limits.max_line_bytes = kMaxSourceBytes;
  limits.max_elements = 10'000'000;
  auto tree = json::read(text, limits);
  if (auto* e = std::get_if<InputError>(&tree)) {
    error = e->message;
    pointer = e->pointer;
    return std::nullopt;
  }
  return std::move(std::get<Value>(tree));
}

std::string category_of(const Ai2dCategories& categories, const std::string& key) {
  auto it = categories.find(key + ".png");
  return it == categories.end() ? std::string() : it->second;
}

}  // namespace geotruth::import

namespace geotruth {

using import::Converter;
using import::parse;
using import::text_of;
using json::Value;
using Kind = Value::Kind;

std::string ai2d_key(const std::string& file_name) {
  std::string name = std::filesystem::path(file_name).filename().string();
  for (const char* suffix : {".json", ".png"})
    if (name.size() > std::string_view(suffix).size() && name.ends_with(suffix))
      name.resize(name.size() - std::string_view(suffix).size());
  return name;
}

ImportedScene import_ai2d(std::string_view annotation, std::string_view questions, const std::string& key,
                          const Ai2dCategories& categories) {
  std::string error, pointer;
  auto root = parse(annotation, error, pointer);
  if (!root) return {key, InputError{pointer, error}, {}, {}};
  if (root->kind != Kind::object || !root->find("relationships"))
    return {key,
            InputError{"",
                       "expected an AI2D annotation: an object with \"blobs\", \"text\", \"arrows\", "
                       "\"arrowHeads\" and \"relationships\""},
            {},
            {}};
  std::optional<Value> question_file;
  if (!questions.empty()) {
    question_file = parse(questions, error, pointer);
    if (!question_file) return {key, InputError{pointer, "in the question file: " + error}, {}, {}};
  }
  ImportedScene out =
      Converter(*root, key, import::category_of(categories, key)).convert(question_file ? &*question_file : nullptr);
  validate_imported(out);
  return out;
}

std::vector<ImportedScene> import_ai2d_lines(std::string_view text, const std::string& file_name,
                                             const Ai2dCategories& categories) {
  std::vector<ImportedScene> out;
  std::size_t line = 0, from = 0;
  while (from < text.size()) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    const std::string_view record = text.substr(from, end - from);
    from = end + 1;
    ++line;
    if (record.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string fallback = ai2d_key(file_name) + "-" + std::to_string(line);
    std::string error, pointer;
    auto root = parse(record, error, pointer);
    if (!root || root->kind != Kind::object) {
      out.push_back({fallback, InputError{pointer, root ? "expected an AI2D annotation object" : error}, {}, {}});
      out.back().line = line;
      continue;
    }
    // A line is an annotation, named by "id" or "imageName" and carrying its "questions" when it
    // has them; or {"id", "annotation", "questions"}.
    std::string key = text_of(root->find("id"));
    if (key.empty()) key = ai2d_key(text_of(root->find("imageName")));
    if (key.empty()) key = fallback;
    const Value* annotation = root->find("annotation");
    if (!annotation) annotation = &*root;
    const Value* questions = root->find("questions");
    Value question_file(Kind::object);
    if (questions) question_file.members.emplace_back("questions", *questions);
    if (annotation->kind != Kind::object || !annotation->find("relationships")) {
      out.push_back({key, InputError{"", "expected an AI2D annotation with \"relationships\""}, {}, {}});
      out.back().line = line;
      continue;
    }
    out.push_back(Converter(*annotation, key, import::category_of(categories, key))
                      .convert(questions ? &question_file : nullptr));
    validate_imported(out.back());
    out.back().line = line;  // its own line: blank lines are not records, so it may not be the ordinal
  }
  return out;
}

std::variant<Ai2dCategories, InputError> read_ai2d_categories(std::string_view text) {
  std::string error, pointer;
  auto root = parse(text, error, pointer);
  if (!root) return InputError{pointer, error};
  if (root->kind != Kind::object) return InputError{"", "expected an object of image name → category"};
  Ai2dCategories out;
  for (const auto& [name, category] : root->members) {
    if (category.kind != Kind::string)
      return InputError{json::member_pointer(name), "expected a category name (a string)"};
    out.emplace(name, category.text);
  }
  return out;
}

std::vector<std::string> ai2d_inputs(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return {path};
  std::filesystem::path dir = path;
  if (std::filesystem::is_directory(dir / "annotations", ec)) dir /= "annotations";
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end(),
            [](const std::string& a, const std::string& b) { return import::id_before(ai2d_key(a), ai2d_key(b)); });
  return files;
}

std::string ai2d_questions_path(const std::string& annotation_path) {
  const std::filesystem::path p = annotation_path;
  if (p.parent_path().filename() != "annotations") return "";
  const auto questions = p.parent_path().parent_path() / "questions" / p.filename();
  std::error_code ec;
  return std::filesystem::is_regular_file(questions, ec) ? questions.string() : "";
}

}  // namespace geotruth
