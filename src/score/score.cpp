#include "score/score.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <geotruth/import.hpp>
#include <sstream>

#include "audit/html.hpp"
#include "score/extract.hpp"
#include "score/harness.hpp"

namespace geotruth::score {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kListed = 20;  // missing questions, unmatched and unreadable rows named per model

std::string text_of(const ordered_json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  return "";
}

std::string lowered_trimmed(std::string text) {
  const auto begin = text.find_first_not_of(" \t\r\n"), end = text.find_last_not_of(" \t\r\n");
  text = begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

// Two answer values are the same when they are equal numbers, else equal text in any case.
bool same_value(const std::string& a, const std::string& b) {
  const auto x = parse_rational_string(a).value, y = parse_rational_string(b).value;
  if (x && y) return *x == *y;
  return lowered_trimmed(a) == lowered_trimmed(b);
}

bool is_letter(const std::string& answer) {
  return answer.size() == 1 && answer[0] >= 'A' && answer[0] <= 'Z';
}

// Is the extracted answer the `right` one (an option letter, or the value itself)?
bool answers(const Question& q, const Extracted& e, const std::string& right) {
  if (right.empty() || e.method == Method::none) return false;
  // An answer given as text beside the response (VisOnlyQA's y_pred) is right when it is the
  // annotated answer's text (a multiple-answer "a,c" names no one option).
  if (e.method == Method::given && same_value(e.value, right)) return true;
  if (q.options.empty()) return same_value(e.value, right);
  if (!e.option) return false;
  if (is_letter(right)) return static_cast<std::size_t>(right[0] - 'A') == *e.option;
  Truth value;
  value.values = {right};
  const auto matching = matching_options(q, value);
  return std::find(matching.begin(), matching.end(), *e.option) != matching.end();
}

struct Tally {
  std::size_t n = 0, correct = 0;
  void add(bool right) { ++n, correct += right; }
  ordered_json json() const {
    ordered_json out{{"n", n}, {"correct", correct}};
    out["accuracy"] = n ? ordered_json(std::round(10000.0 * correct / n) / 10000) : ordered_json(nullptr);
    return out;
  }
};

// all, clean and corrected tallies of one group of questions.
struct Views {
  Tally all, clean, corrected;
  ordered_json json() const { return {{"all", all.json()}, {"clean", clean.json()}, {"corrected", corrected.json()}}; }
};

std::optional<double> accuracy(const ordered_json& model, const std::string& scope, const std::string& view) {
  const ordered_json* group = &model;
  if (scope != "all") {
    const auto space = scope.find(' ');
    const std::string by = "by_" + scope.substr(0, space), name = scope.substr(space + 1);
    if (!model.contains(by) || !model[by].contains(name)) return std::nullopt;
    group = &model[by][name];
  }
  const ordered_json& a = (*group)[view]["accuracy"];
  if (a.is_null()) return std::nullopt;
  return a.get<double>();
}

// Pairs of models whose order under a view is the reverse of their order on all items.
ordered_json rank_changes(const ordered_json& models) {
  ordered_json out = ordered_json::array();
  std::vector<std::string> scopes{"all"};
  std::set<std::string> aspects;
  for (const auto& m : models)
    for (const auto& [aspect, _] : m["by_aspect"].items()) aspects.insert(aspect);
  for (const auto& a : aspects) scopes.push_back("aspect " + a);
  std::set<std::string> tasks;
  for (const auto& m : models)
    if (m.contains("by_task"))
      for (const auto& [task, _] : m["by_task"].items()) tasks.insert(task);
  for (const auto& t : tasks) scopes.push_back("task " + t);
  for (const auto& scope : scopes)
    for (const char* view : {"clean", "corrected"})
      for (std::size_t i = 0; i < models.size(); ++i)
        for (std::size_t j = 0; j < models.size(); ++j) {
          const auto all_i = accuracy(models[i], scope, "all"), all_j = accuracy(models[j], scope, "all");
          const auto view_i = accuracy(models[i], scope, view), view_j = accuracy(models[j], scope, view);
          if (!all_i || !all_j || !view_i || !view_j || !(*all_i > *all_j) || !(*view_i < *view_j)) continue;
          out.push_back({{"scope", scope},
                         {"view", view},
                         {"models", {models[i]["name"], models[j]["name"]}},
                         {"all", {*all_i, *all_j}},
                         {view, {*view_i, *view_j}}});
        }
  return out;
}

}  // namespace

Model::Row parse_row(const std::string& text, std::size_t line) {
  Model::Row row{line, ordered_json::parse(text, nullptr, false), ""};
  if (auto sample = lmms_eval_row(row.value)) row.value = std::move(*sample);
  if (!row.value.is_object())
    row.error = "not a JSON object";
  else if (!row.value.contains("response") || !row.value["response"].is_string())
    row.error = "no \"response\" text";
  if (!row.error.empty()) {
    row.error = "line " + std::to_string(line) + ": " + row.error;
    row.value = nullptr;
  }
  return row;
}

Model read_model(const std::string& path, const Limits& limits, const XlsxLimits& xlsx) {
  Model model;
  model.file = path;
  if (is_prediction_table(path) && !fs::is_directory(path)) {  // VLMEvalKit's predictions
    model.name = fs::path(path).stem().string();
    read_prediction_table(path, limits, xlsx, model);
    return model;
  }
  std::vector<std::string> files{path};
  if (fs::is_directory(path)) {  // one file per aspect, as GePBench's evaluation writes them
    model.name = fs::path(path).lexically_normal().filename().string();
    if (model.name.empty() || model.name == ".")
      model.name = fs::path(path).lexically_normal().parent_path().filename();
    files.clear();
    for (const auto& entry : fs::directory_iterator(path))
      if (entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
  } else {
    model.name = fs::path(path).stem().string();
  }
  for (const auto& file : files) {
    RecordReader reader(file, limits.max_line_bytes);
    if (!reader.ok()) {
      model.rows.push_back({0, nullptr, file + ": cannot open: " + reader.open_error()});
      continue;
    }
    const std::string where = files.size() > 1 ? fs::path(file).filename().string() + ":" : "";
    RawRecord record;
    while (reader.next(record)) {
      Model::Row row = record.dropped_bytes ? Model::Row{record.line, nullptr,
                                                         "line " + std::to_string(record.line) + ": longer than " +
                                                             std::to_string(limits.max_line_bytes) + " bytes"}
                                            : parse_row(record.text, record.line);
      if (!row.error.empty()) row.error = where + row.error;
      model.rows.push_back(std::move(row));
    }
  }
  return model;
}

void Scorer::add(const Scene& scene, const SceneAudit& audit, const std::string& key) {
  std::set<char> point_letters;
  for (const auto& p : scene.points)
    if (p.id.size() == 1 && p.id[0] >= 'A' && p.id[0] <= 'Z') point_letters.insert(p.id[0]);
  for (std::size_t k = 0; k < scene.questions.size() && k < audit.verdicts.size(); ++k) {
    const Question& q = scene.questions[k];
    const QuestionVerdict& v = audit.verdicts[k];
    Item item{scene.id,         q.id, "",        v.kind,  v.kind.substr(0, v.kind.find('/')),
              audit.difficulty, q,    v.verdict, v.truth, point_letters};
    if (!q.extra.empty())
      if (const auto extra = ordered_json::parse(q.extra, nullptr, false); extra.is_object()) {
        item.text = text_of(extra.value("text", ordered_json()));
        item.task = text_of(extra.value("task", ordered_json()));  // VisOnlyQA: the item file's task
        item.set = text_of(extra.value("set", ordered_json()));
        item.annotated = text_of(extra.value("answer", ordered_json()));
      }
    const std::size_t index = items_.size();
    items_.push_back(std::move(item));
    if (auto [it, fresh] = by_question_.emplace(q.id, index); !fresh) it->second.reset();
    for (const std::string& name : {scene.id, key == scene.id ? std::string() : key}) {
      if (name.empty()) continue;
      by_key_.emplace(name + "/" + q.id, index);
      by_scene_[name].push_back(index);
    }
  }
}

std::optional<InputError> Scorer::add(const StreamItem& item, const Bands& bands, const Limits& limits) {
  const SceneOrError parsed = scene_of(item, limits);
  if (const auto* error = std::get_if<InputError>(&parsed)) return *error;
  const Scene& scene = std::get<Scene>(parsed);
  try {
    const WorkBudget budget(limits.work);
    add(scene, audit_scene(scene, bands), item.raw.key);
  } catch (const InputError& limit) {
    return limit;
  }
  return std::nullopt;
}

ordered_json add_records(Scorer& scorer, const std::function<bool(StreamItem&)>& next, const Bands& bands,
                         const Limits& limits) {
  std::size_t records = 0, errors = 0;
  ordered_json unreadable = ordered_json::array();
  StreamItem item;
  while (next(item)) {
    ++records;
    if (const auto error = scorer.add(item, bands, limits); error && ++errors <= kListed)
      unreadable.push_back(error_record(item.raw, *error));
  }
  return {{"records", records}, {"errors", errors}, {"unreadable", unreadable}};
}

std::vector<Scorer::TaskItem> Scorer::task_items(const std::string& set, const std::string& task) const {
  std::vector<TaskItem> out;
  for (const Item& item : items_)
    if (item.set == set && item.task == task)
      out.push_back({item.scene + "/" + item.question, item.asked.text, item.annotated});
  return out;
}

std::optional<std::size_t> Scorer::find(const ordered_json& row, std::string& key) const {
  std::string id = text_of(row.value("question_id", ordered_json()));
  if (id.empty()) id = text_of(row.value("questionId", ordered_json()));  // AI2D's key
  std::string scene = text_of(row.value("scene", ordered_json()));
  if (scene.empty() && row.contains("image_id")) scene = gepbench_scene_id(text_of(row["image_id"]));
  key = scene.empty() ? id : scene + "/" + id;
  if (id.empty()) {
    if (key.empty()) key = "(no question_id)";
    return std::nullopt;
  }
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  if (scene.empty()) {  // a question id unique in the whole dataset (AI2D's "<image>.png-<n>")
    const auto it = by_question_.find(id);
    return it != by_question_.end() ? it->second : std::nullopt;
  }
  // GePBench's own ids: question ids count within an aspect's file, so the importer prefixes the
  // aspect: the row's "aspect" names it, else its question text picks among the aspects.
  for (const char* aspect : {"aspect", "perspective"})
    if (const std::string a = text_of(row.value(aspect, ordered_json())); !a.empty())
      if (auto it = by_key_.find(scene + "/" + a + "-" + id); it != by_key_.end()) return it->second;
  const auto in_scene = by_scene_.find(scene);
  if (in_scene == by_scene_.end()) return std::nullopt;
  const std::string suffix = "-" + id, text = text_of(row.value("question", ordered_json()));
  std::vector<std::size_t> candidates;
  for (std::size_t index : in_scene->second) {
    const std::string& q = items_[index].question;
    if (q.size() > suffix.size() && q.compare(q.size() - suffix.size(), suffix.size(), suffix) == 0)
      candidates.push_back(index);
  }
  if (candidates.size() > 1 && !text.empty())
    std::erase_if(candidates, [&](std::size_t index) { return items_[index].text != text; });
  if (candidates.size() == 1) return candidates.front();
  return std::nullopt;
}

ordered_json Scorer::score(const std::vector<Model>& models) const {
  ordered_json out;
  out["questions"] = items_.size();
  ordered_json verdicts = ordered_json::object();
  for (const char* v : {"ok", "wrong", "ambiguous", "invalid", "unsupported"}) verdicts[v] = 0;
  for (const auto& item : items_)
    verdicts[verdict_name(item.verdict)] = verdicts[verdict_name(item.verdict)].get<int>() + 1;
  out["verdicts"] = verdicts;
  ordered_json scored = ordered_json::array();
  for (const Model& model : models) {
    std::vector<const std::string*> response(items_.size(), nullptr), given(items_.size(), nullptr);
    std::size_t matched = 0, duplicates = 0, unmatched = 0, unreadable = 0;
    ordered_json unmatched_keys = ordered_json::array(), unreadable_rows = ordered_json::array();
    for (const auto& row : model.rows) {
      if (!row.error.empty()) {
        if (++unreadable <= kListed) unreadable_rows.push_back(row.error);
        continue;
      }
      std::string key;
      const auto index = find(row.value, key);
      if (!index) {
        if (++unmatched <= kListed) unmatched_keys.push_back(key);
        continue;
      }
      if (response[*index]) {
        ++duplicates;  // the first response counts
        continue;
      }
      ++matched;
      response[*index] = row.value["response"].get_ptr<const std::string*>();
      if (const auto it = row.value.find("answer"); it != row.value.end() && it->is_string())
        given[*index] = it->get_ptr<const std::string*>();
    }
    Views overall;
    std::map<std::string, Views> by_aspect, by_kind, by_difficulty, by_task;
    std::map<std::string, std::size_t> by_method;
    std::size_t missing = 0, unanswered = 0, reread = 0;
    ordered_json missing_keys = ordered_json::array();
    for (std::size_t k = 0; k < items_.size(); ++k) {
      const Item& item = items_[k];
      Extracted e;
      if (!response[k]) {  // no response: wrong, and reported
        if (++missing <= kListed) missing_keys.push_back(item.scene + "/" + item.question);
      } else {
        e = extract_answer(*response[k], item.asked, item.point_letters);
        if (given[k]) {  // the dataset's own reading decides; ours is compared with it
          const Extracted own = e;
          e = given_answer(*given[k], item.asked);
          reread += own.option != e.option || (!e.option && own.value != e.value);
        }
        ++by_method[method_name(e.method)];
        unanswered += e.method == Method::none;
      }
      const bool right = answers(item.asked, e, item.asked.answer);
      const bool right_corrected = item.verdict == Verdict::wrong ? answers(item.asked, e, item.truth) : right;
      auto add = [&](Views& views) {
        views.all.add(right);
        if (item.verdict == Verdict::ok) views.clean.add(right);
        views.corrected.add(right_corrected);
      };
      add(overall);
      add(by_aspect[item.aspect]);
      add(by_kind[item.kind]);
      if (!item.task.empty()) add(by_task[item.task]);
      if (!item.difficulty.empty()) add(by_difficulty[item.difficulty]);
    }
    auto groups = [](const std::map<std::string, Views>& views) {
      ordered_json g = ordered_json::object();
      for (const auto& [name, v] : views) g[name] = v.json();
      return g;
    };
    ordered_json m{{"name", model.name}, {"file", model.file}};
    m["responses"] = {{"rows", model.rows.size()}, {"matched", matched},       {"duplicates", duplicates},
                      {"unmatched", unmatched},    {"unreadable", unreadable}, {"missing", missing},
                      {"unanswered", unanswered},  {"by_method", by_method}};
    if (by_method.count("given")) m["responses"]["reread_differently"] = reread;
    m.update(overall.json());
    m["by_aspect"] = groups(by_aspect);
    m["by_kind"] = groups(by_kind);
    m["by_difficulty"] = groups(by_difficulty);
    if (!by_task.empty()) m["by_task"] = groups(by_task);
    m["missing"] = missing_keys;
    m["unmatched"] = unmatched_keys;
    m["unreadable"] = unreadable_rows;
    scored.push_back(std::move(m));
  }
  out["models"] = scored;
  out["rank_changes"] = rank_changes(scored);
  return out;
}

namespace {

std::string cell(const ordered_json& tally) {
  char text[48];
  if (tally["accuracy"].is_null())
    std::snprintf(text, sizeof text, "%zu/%zu      -", tally["correct"].get<std::size_t>(),
                  tally["n"].get<std::size_t>());
  else
    std::snprintf(text, sizeof text, "%zu/%zu %6.1f%%", tally["correct"].get<std::size_t>(),
                  tally["n"].get<std::size_t>(), 100 * tally["accuracy"].get<double>());
  return text;
}

std::string percent(double accuracy) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * accuracy);
  return text;
}

// Every row of a model's table: (label, {all, clean, corrected}).
std::vector<std::pair<std::string, const ordered_json*>> rows_of(const ordered_json& model) {
  std::vector<std::pair<std::string, const ordered_json*>> rows{{"all", &model}};
  for (const char* by : {"aspect", "kind", "difficulty", "task"})
    if (model.contains(std::string("by_") + by))
      for (const auto& [name, views] : model[std::string("by_") + by].items())
        rows.emplace_back(std::string(by) + " " + name, &views);
  return rows;
}

std::string change_text(const ordered_json& change) {
  const std::string view = change["view"];
  return change["scope"].get<std::string>() + ", " + (view == "clean" ? "audited ok" : view) + ": " +
         change["models"][1].get<std::string>() + " " + percent(change[view][1]) + " above " +
         change["models"][0].get<std::string>() + " " + percent(change[view][0]) +
         " (all items: " + percent(change["all"][0]) + " vs " + percent(change["all"][1]) + ")";
}

std::string verdict_line(const ordered_json& scores) {
  std::string line = std::to_string(scores["questions"].get<std::size_t>()) + " questions (";
  bool first = true;
  for (const auto& [verdict, n] : scores["verdicts"].items()) {
    line += (first ? "" : ", ") + std::to_string(n.get<std::size_t>()) + " " + verdict;
    first = false;
  }
  return line + ")";
}

std::string responses_line(const ordered_json& model) {
  const ordered_json& r = model["responses"];
  auto n = [&](const char* key) { return std::to_string(r[key].get<std::size_t>()); };
  std::string line = n("rows") + " rows, " + n("matched") + " matched to questions; questions without a response " +
                     "(counted wrong): " + n("missing") + "; responses without an answer: " + n("unanswered");
  for (const char* what : {"unmatched", "duplicates", "unreadable"})
    if (r[what].get<std::size_t>()) line += "; " + std::string(what) + " rows: " + n(what);
  if (r.contains("reread_differently"))
    line += "; answers given with the responses, geotruth's reading differs on " + n("reread_differently");
  return line;
}

}  // namespace

std::string table(const ordered_json& scores) {
  std::ostringstream out;
  out << "score: " << verdict_line(scores) << "\n";
  char line[256];
  for (const auto& model : scores["models"]) {
    out << "\n== " << model["name"].get<std::string>() << " (" << model["file"].get<std::string>()
        << "): " << responses_line(model) << "\n";
    std::snprintf(line, sizeof line, "%-32s %18s %18s %18s\n", "", "all items", "audited ok", "corrected");
    out << line;
    for (const auto& [label, views] : rows_of(model)) {
      std::snprintf(line, sizeof line, "%-32s %18s %18s %18s\n", label.substr(0, 32).c_str(),
                    cell((*views)["all"]).c_str(), cell((*views)["clean"]).c_str(),
                    cell((*views)["corrected"]).c_str());
      out << line;
    }
    for (const char* what : {"missing", "unmatched", "unreadable"})
      if (!model[what].empty()) {
        out << what << ":";
        for (const auto& k : model[what]) out << " " << k.get<std::string>();
        out << (model["responses"][what].get<std::size_t>() > model[what].size() ? " …" : "") << "\n";
      }
  }
  out << "\nrank changes:" << (scores["rank_changes"].empty() ? " none" : "") << "\n";
  for (const auto& change : scores["rank_changes"]) out << "  " << change_text(change) << "\n";
  return out.str();
}

std::string page(const ordered_json& scores) {
  std::ostringstream out;
  out << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>geotruth score</title><style>"
         "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}"
         "td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}td:first-child{text-align:left}"
         ".change{color:#a40000}</style></head><body>\n<h1>Model scores</h1>\n<p>"
      << xml_escape(verdict_line(scores))
      << ". <b>All items</b>: against the annotated answers; <b>audited ok</b>: only the items geotruth "
         "audits as ok; <b>corrected</b>: geotruth's truth in place of the annotated answers it finds "
         "wrong. Each cell: correct / items it rests on, accuracy.</p>\n";
  for (const auto& model : scores["models"]) {
    out << "<h2>" << xml_escape(model["name"].get<std::string>()) << "</h2>\n<p>"
        << xml_escape(model["file"].get<std::string>()) << ": " << xml_escape(responses_line(model))
        << "</p>\n<table><tr><th></th><th>all items</th><th>audited ok</th>"
        << "<th>corrected</th></tr>\n";
    for (const auto& [label, views] : rows_of(model))
      out << "<tr><td>" << xml_escape(label) << "</td><td>" << xml_escape(cell((*views)["all"])) << "</td><td>"
          << xml_escape(cell((*views)["clean"])) << "</td><td>" << xml_escape(cell((*views)["corrected"]))
          << "</td></tr>\n";
    out << "</table>\n";
  }
  out << "<h2>Rank changes</h2>\n<ul>";
  if (scores["rank_changes"].empty()) out << "<li>none</li>";
  for (const auto& change : scores["rank_changes"])
    out << "<li class=\"change\">" << xml_escape(change_text(change)) << "</li>";
  out << "</ul>\n</body></html>\n";
  return out.str();
}

}  // namespace geotruth::score
