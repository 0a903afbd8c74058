// VisOnlyQA's published model responses (results/model_responses/eval_<set>/<task>/prompt=<p>/
// <model>.jsonl): rows carry no id, one per item of the task's file in its order.
#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

#include "score/score.hpp"

namespace geotruth::score {

namespace fs = std::filesystem;

namespace {

// "InternVL2-4B_syntheticgeometry__triangle_20241106_213204" → "InternVL2-4B (fine-tuned)":
// VisOnlyQA fine-tunes one model per training task and names the file after it.
std::string model_name(const std::string& stem) {
  static const std::regex kFinetuned(
      R"(^(.*?)(_finetuned)?_(text_)?(syntheticgeometry|3d)__[a-z]+(_[0-9]{8}_[0-9]{6}|_[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}-[0-9]{2}-[0-9]{2})?$)");
  std::smatch m;
  if (!std::regex_match(stem, m, kFinetuned)) return stem;
  return m[1].str() + (m[3].matched ? " (fine-tuned with text)" : " (fine-tuned)");
}

// The dataset's set for a responses folder: eval_synthetic_with_text → synthetic_with_text.
std::string set_of(const std::string& folder) {
  return folder.rfind("eval_", 0) == 0 ? folder.substr(5) : folder;
}

std::string response_text(const ordered_json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array() && !v.empty() && v.front().is_string()) return v.front().get<std::string>();  // [one string]
  return "";
}

}  // namespace

std::vector<Model> read_visonlyqa_models(const std::vector<std::string>& paths, const Scorer& scorer,
                                         const std::string& prompt, const Limits& limits) {
  std::vector<fs::path> files;
  for (const auto& path : paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      for (auto it = fs::recursive_directory_iterator(path, error); it != fs::recursive_directory_iterator();
           it.increment(error))
        if (it->path().extension() == ".jsonl") files.push_back(it->path());
    } else {
      files.emplace_back(path);
    }
  }
  std::sort(files.begin(), files.end());
  std::map<std::string, Model> models;
  std::vector<std::string> order;
  for (const fs::path& file : files) {
    // …/eval_<set>/<task>/prompt=<prompt>/<model>.jsonl
    const fs::path prompt_dir = file.parent_path(), task_dir = prompt_dir.parent_path(),
                   set_dir = task_dir.parent_path();
    if (prompt_dir.filename().string() != "prompt=" + prompt) continue;
    const std::string set = set_of(set_dir.filename().string()), task = task_dir.filename().string();
    const std::string name = model_name(file.stem().string());
    if (!models.count(name)) order.push_back(name);
    Model& model = models[name];
    model.name = name;
    model.file = model.file.empty() ? file.string() : set_dir.parent_path().string();
    const auto items = scorer.task_items(set, task);
    const std::string where = set + "/" + task + "/" + file.filename().string() + ":";
    RecordReader reader(file.string(), limits.max_line_bytes);
    if (!reader.ok()) {
      model.rows.push_back({0, nullptr, where + " cannot open: " + reader.open_error()});
      continue;
    }
    RawRecord record;
    std::size_t k = 0;
    while (reader.next(record)) {
      const std::size_t index = k++;
      Model::Row row{record.line, nullptr, ""};
      const ordered_json v = ordered_json::parse(record.text, nullptr, false);
      if (!v.is_object() || !v.contains("response")) {
        row.error = where + "line " + std::to_string(record.line) + ": not an object with a \"response\"";
      } else if (index >= items.size()) {
        row.value = {{"question_id", set + "/" + task + "#" + std::to_string(index + 1)}, {"response", ""}};
      } else {
        const std::string asked = v.value("prompt", std::string());
        if (!items[index].text.empty() && asked.find(items[index].text) == std::string::npos)
          row.error = where + "line " + std::to_string(record.line) + ": its prompt does not ask item " +
                      std::to_string(index + 1) + "'s question (rows are matched by order)";
        else if (v.contains("y_true") && v["y_true"].is_string() && !items[index].annotated.empty() &&
                 v["y_true"].get<std::string>() != items[index].annotated)
          row.error = where + "line " + std::to_string(record.line) + ": its y_true is not item " +
                      std::to_string(index + 1) + "'s answer";
        else {
          row.value = {{"question_id", items[index].key}, {"response", response_text(v["response"])}};
          if (v.contains("y_pred") && v["y_pred"].is_string()) row.value["answer"] = v["y_pred"];
        }
      }
      model.rows.push_back(std::move(row));
    }
  }
  std::vector<Model> out;
  for (const auto& name : order) out.push_back(std::move(models[name]));
  return out;
}

}  // namespace geotruth::score
