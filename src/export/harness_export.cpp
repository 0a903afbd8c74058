#include "export/harness_export.hpp"

#include <geotruth/input.hpp>
#include <geotruth/questions.hpp>
#include <geotruth/version.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "export/lmms_eval_utils.hpp"  // generated from lmms_eval_utils.py

namespace geotruth {
namespace {

namespace fs = std::filesystem;

const std::map<std::string, std::string>& count_words() {
  static const std::map<std::string, std::string> words = {
      {"segments", "line segments formed by letters"},
      {"triangles", "triangles formed by letters"},
      {"quadrilaterals", "quadrilaterals formed by letters"},
      {"text_labels", "text labels"},
      {"food_chains", "food chains"},
      {"stages_after", "stages after"},
      {"glowing_bulbs", "glowing bulbs"},
      {"layers_outside", "layers outside"},
  };
  return words;
}

std::string spaced(std::string text) {
  std::replace(text.begin(), text.end(), '_', ' ');
  return text;
}

// RFC 4180 quoting where pandas needs it: a field with the delimiter, a quote or a line break.
std::string tsv_field(const std::string& text) {
  if (text.find_first_of("\t\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string base64(const std::string& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(bytes[i + k]); };
    const unsigned v = (b(0) << 16) | (b(1) << 8) | b(2);
    for (int shift : {18, 12, 6, 0}) out += kAlphabet[(v >> shift) & 63];
  }
  if (const std::size_t rest = bytes.size() - i) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string read_picture(const fs::path& path, std::uint64_t max_bytes) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) throw InputError{"", path.string() + ": cannot read the picture: " + ec.message()};
  if (size > max_bytes)
    throw InputError{"", path.string() + ": the picture is " + std::to_string(size) + " bytes, more than " +
                             std::to_string(max_bytes)};
  std::ifstream in(path, std::ios::binary);
  std::string bytes(size, '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size)))
    throw InputError{"", path.string() + ": cannot read the picture"};
  return bytes;
}

// A name that VLMEvalKit (a file name) and lmms-eval (a task name) both take.
std::string dataset_name(const HarnessOptions& options) {
  std::string name =
      options.name.empty() ? fs::absolute(options.out).lexically_normal().filename().string() : options.name;
  if (name.empty() || name == "." || name == "..") name = "geotruth";
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return name;
}

// A YAML scalar: JSON's double-quoted strings are YAML's too.
std::string yaml_text(const std::string& text) {
  return ordered_json(text).dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

}  // namespace

std::optional<HarnessFormat> harness_format_named(std::string_view name) {
  if (name == "hf") return HarnessFormat::hf;
  if (name == "vlmevalkit") return HarnessFormat::vlmevalkit;
  if (name == "lmms-eval") return HarnessFormat::lmms_eval;
  return std::nullopt;
}

std::string question_text(const Question& q) {
  if (!q.text.empty()) return q.text;
  const auto& words = count_words();
  if (q.ask == "count") {
    const auto it = words.find(q.of);
    std::string what = it != words.end() ? it->second : spaced(q.of);
    if (!q.anchor.empty()) what += " " + q.anchor;
    if (!q.touching.empty()) what += " touching " + q.touching;
    if (!q.connected_to.empty()) what += " connected to " + q.connected_to;
    if (!q.relation.empty() && !q.anchor.empty() && q.of != "stages_after" && q.of != "layers_outside")
      what = spaced(q.of) + " " + spaced(q.relation) + " " + q.anchor;
    return "How many " + what + " are there in the figure?";
  }
  if (q.ask == "exists") return q.absent ? "Which of these is not in the figure?" : "Which of these is in the figure?";
  if (q.ask == "location")
    return "Where is " + q.of + (q.relative_to.empty() ? "" : " relative to " + q.relative_to) + "?";
  if (q.ask == "size") return "What is the " + spaced(q.measure) + " of " + q.of + " on a unit canvas?";
  if (q.ask == "relation" && q.between.size() == 2)
    return "What is the relation between " + q.between[0] + " and " + q.between[1] + "?";
  if (q.ask == "reference")
    return "Which shape is " + spaced(q.criterion) + (q.anchor.empty() ? "" : " than " + q.anchor) +
           (q.value.empty() ? "" : " (" + q.value + ")") + "?";
  if (q.ask == "which") {
    if (q.connected_pair) return "Which pair is connected?";
    return "Which is " + spaced(q.relation) + " " + (q.anchor.empty() ? q.value : q.anchor) + "?";
  }
  return "Answer the question about the figure (" + q.ask + (q.of.empty() ? "" : " " + q.of) + ").";
}

ordered_json question_row(std::size_t index, const Scene& scene, const Question& q, const QuestionVerdict& verdict,
                          const std::string& difficulty) {
  ordered_json reasons = ordered_json::array();
  for (const Reason& r : verdict.reasons) reasons.push_back(r.kind + ": " + r.detail);
  return {{"index", index},           {"scene_id", scene.id},
          {"question_id", q.id},      {"question", question_text(q)},
          {"options", q.options},     {"answer", q.answer},
          {"category", verdict.kind}, {"aspect", verdict.kind.substr(0, verdict.kind.find('/'))},
          {"difficulty", difficulty}, {"verdict", verdict_name(verdict.verdict)},
          {"truth", verdict.truth},   {"reasons", reasons}};
}

const char* lmms_eval_utils() {
  return kLmmsEvalUtils;
}

HarnessWriter::HarnessWriter(HarnessOptions options) : options_(std::move(options)) {
  options_.name = dataset_name(options_);
  fs::create_directories(options_.out);
  if (options_.format == HarnessFormat::vlmevalkit) {
    rows_path_ = options_.out / ("." + options_.name + ".tsv.rows");
    tsv_rows_.open(rows_path_, std::ios::binary | std::ios::trunc);
    if (!tsv_rows_) throw std::runtime_error(rows_path_.string() + ": cannot be written");
    return;
  }
  data_ = options_.format == HarnessFormat::lmms_eval ? options_.out / "data" : options_.out;
  fs::create_directories(data_ / "images");
  metadata_ = std::make_unique<AtomicFile>(data_ / "metadata.jsonl");
}

HarnessWriter::~HarnessWriter() {
  if (!rows_path_.empty()) {
    std::error_code ec;
    tsv_rows_.close();
    fs::remove(rows_path_, ec);
  }
}

void HarnessWriter::add(const Scene& scene, const SceneAudit& audit, const fs::path& picture) {
  std::string extension = picture.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (options_.format == HarnessFormat::vlmevalkit) {
    const std::string image = base64(read_picture(picture, options_.max_picture_bytes));
    const std::size_t first = rows_;
    for (std::size_t k = 0; k < scene.questions.size() && k < audit.verdicts.size(); ++k) {
      const ordered_json row = question_row(rows_, scene, scene.questions[k], audit.verdicts[k], audit.difficulty);
      std::string line = std::to_string(rows_) + '\t' + (k == 0 ? image : std::to_string(first));
      for (const char* column :
           {"question", "answer", "category", "aspect", "scene_id", "question_id", "verdict", "truth", "difficulty"})
        line += '\t' + tsv_field(row[column].get<std::string>());
      for (const auto& option : scene.questions[k].options) line += '\t' + tsv_field(option);
      max_options_ = std::max(max_options_, scene.questions[k].options.size());
      rows_written_.push_back({line.size(), scene.questions[k].options.size()});
      tsv_rows_ << line << '\n';
      ++rows_;
    }
    ++scenes_;
    return;
  }
  if (!fs::is_regular_file(picture)) throw InputError{"", picture.string() + ": the picture is not a file"};
  for (std::size_t k = 0; k < scene.questions.size() && k < audit.verdicts.size(); ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "%06zu", rows_);
    const std::string file_name = "images/" + std::string(name) + extension;
    link_or_copy(picture, data_ / file_name);
    ordered_json row{{"file_name", file_name}};
    row.update(question_row(rows_, scene, scene.questions[k], audit.verdicts[k], audit.difficulty));
    metadata_->stream() << to_line(row) << '\n';
    ++rows_;
  }
  ++scenes_;
}

void HarnessWriter::finish() {
  if (options_.format == HarnessFormat::vlmevalkit) {
    tsv_rows_.close();
    if (!tsv_rows_) throw std::runtime_error(rows_path_.string() + ": cannot be written");
    AtomicFile tsv(options_.out / (options_.name + ".tsv"));
    std::string header =
        "index\timage\tquestion\tanswer\tcategory\tl2-category\tscene_id\tquestion_id\tverdict\ttruth"
        "\tdifficulty";
    for (std::size_t k = 0; k < max_options_; ++k) header += '\t' + option_letter(k);
    tsv.stream() << header << '\n';
    // Each row as written (a quoted field may hold a line break), with an empty cell for each option
    // it has fewer than the widest question.
    std::ifstream rows(rows_path_, std::ios::binary);
    std::string line;
    for (const auto& [bytes, options] : rows_written_) {
      line.resize(bytes + 1);
      if (!rows.read(line.data(), static_cast<std::streamsize>(line.size())))
        throw std::runtime_error(rows_path_.string() + ": cannot be read back");
      line.pop_back();
      tsv.stream() << line << std::string(max_options_ - options, '\t') << '\n';
    }
    tsv.commit();
    return;
  }
  metadata_->commit();
  if (options_.format != HarnessFormat::lmms_eval) return;
  write_atomically(options_.out / "utils.py", lmms_eval_utils());
  const std::string data_dir = fs::absolute(data_).lexically_normal().string();
  std::string yaml;
  yaml += "# An lmms-eval task written by geotruth " + version_text() + " (geotruth export --format lmms-eval).\n";
  yaml += "# Run: lmms-eval --include_path " + yaml_text(fs::absolute(options_.out).lexically_normal().string()) +
          " --tasks " + options_.name + " --log_samples …\n";
  yaml += "# Score: geotruth score DATASET --responses <the samples JSONL>.\n";
  yaml += "# The documents are data/ (metadata.jsonl and images/), loaded by their absolute path: move the folder\n";
  yaml += "# and the path below must follow.\n";
  yaml += "task: " + yaml_text(options_.name) + "\n";
  yaml += "dataset_path: imagefolder\n";
  yaml += "dataset_kwargs:\n  data_dir: " + yaml_text(data_dir) + "\n";
  yaml += "test_split: train\n";
  yaml += "output_type: generate_until\n";
  yaml += "doc_to_visual: !function utils.doc_to_visual\n";
  yaml += "doc_to_text: !function utils.doc_to_text\n";
  yaml += "doc_to_target: answer\n";
  yaml += "generation_kwargs:\n  max_new_tokens: 64\n  temperature: 0\n  do_sample: false\n";
  yaml += "process_results: !function utils.process_results\n";
  yaml +=
      "metric_list:\n  - metric: geotruth\n    aggregation: !function utils.aggregate\n"
      "    higher_is_better: true\n";
  yaml +=
      "lmms_eval_specific_kwargs:\n  default:\n    pre_prompt: \"\"\n"
      "    post_prompt: \"\\nAnswer with the option's letter from the given choices directly.\"\n"
      "    open_post_prompt: \"\\nAnswer the question using a single word or phrase.\"\n";
  yaml += "metadata:\n  version: 0.0\n  geotruth: " + yaml_text(version_text()) + "\n";
  write_atomically(options_.out / (options_.name + ".yaml"), yaml);
}

}  // namespace geotruth
