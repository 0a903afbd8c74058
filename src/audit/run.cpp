#include "audit/run.hpp"

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_pipeline.h>

#include <algorithm>
#include <boost/math/special_functions/gamma.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <geotruth/audit.hpp>
#include <iomanip>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "audit/error_report.hpp"
#include "audit/jsonl.hpp"
#include "audit/report.hpp"
#include "batch/files.hpp"
#include "batch/pictures.hpp"
#include "batch/run_output.hpp"
#include "batch/work_pool.hpp"
#include "core/build_json.hpp"
#include "questions/picture_doubts.hpp"

namespace geotruth {
namespace fs = std::filesystem;

namespace {

constexpr const char* kFiles[] = {"verdicts.jsonl", "scenes.jsonl", "flagged.jsonl"};
constexpr const char* kBands = "bands.json";   // the band in force, for the summary and the report
constexpr const char* kOverlays = "overlays";  // audit --image: the pictures with findings, marked
constexpr std::size_t kTokens = 16;            // work items in flight (each a few records)

ordered_json reasons_json(const std::vector<Reason>& reasons) {
  ordered_json out = ordered_json::array();
  for (const auto& r : reasons) {
    ordered_json item{{"kind", r.kind}, {"detail", r.detail}};
    if (r.slack_px) item["slack_px"] = rounded_px(*r.slack_px);
    out.push_back(std::move(item));
  }
  return out;
}

// An unreadable record, or one past its work limit, as scenes.jsonl has it.
AuditedRecord error_audit(const StreamItem& item, const InputError& error) {
  AuditedRecord out;
  out.scene = {{"record", item.ordinal}};
  out.scene.update(error_record(item.raw, error));
  out.error = true;
  return out;
}

}  // namespace

SceneOrError scene_for_truth(const Scene& scene, const std::string& source_key, const PictureReader* read_pictures,
                             bool truth_from_picture) {
  if (!read_pictures || !*read_pictures || (!truth_from_picture && has_description(scene))) return scene;
  return (*read_pictures)(scene, source_key);
}

AuditedRecord audit_record(const StreamItem& item, const Bands& run_bands, const Limits& limits,
                           const PictureCheck* pictures, const PictureReader* read_pictures, bool truth_from_picture,
                           const ReadingOverlay* reading_overlays) {
  const SceneOrError described = scene_of(item, limits);
  if (const auto* error = std::get_if<InputError>(&described)) return error_audit(item, *error);
  const SceneOrError parsed =
      scene_for_truth(std::get<Scene>(described), item.raw.key, read_pictures, truth_from_picture);
  if (const auto* error = std::get_if<InputError>(&parsed)) return error_audit(item, *error);
  const Scene& parsed_scene = std::get<Scene>(parsed);
  const bool from_picture = read_from_picture(parsed_scene);
  // A scene read from its picture is not cross-checked against that picture again; it sets its own band.
  std::optional<PictureEvidence> picture;
  if (pictures && *pictures && !from_picture) picture = (*pictures)(parsed_scene, item.raw.key);
  // A frame drawn at a scale of its own is judged at the scale fitted on its picture.
  std::optional<Scene> at_picture_scale;
  if (picture && picture->px_per_unit && parsed_scene.frame.px_per_unit) {
    at_picture_scale = parsed_scene;
    at_picture_scale->frame.px_per_unit = Rational(*picture->px_per_unit);
  }
  const Scene& scene = at_picture_scale ? *at_picture_scale : parsed_scene;
  const std::optional<Bands> own = picture_bands(scene, run_bands);  // audit_scene's band, said with the scene
  SceneAudit audit;
  try {
    const WorkBudget budget(limits.work);
    audit = audit_scene(scene, run_bands, {.picture = picture ? &*picture : nullptr});
  } catch (const InputError& limit) {  // the scene's work limit: an error record like a bad one
    return error_audit(item, limit);
  }
  AuditedRecord out;
  bool answer_flagged = false;
  for (const auto& v : audit.verdicts) {
    answer_flagged = answer_flagged || v.verdict != Verdict::ok;
    ordered_json line{{"record", item.ordinal}, {"scene", scene.id}, {"question", v.question}, {"kind", v.kind}};
    if (!v.text.empty()) line["text"] = v.text;
    if (!v.template_name.empty()) line["template"] = v.template_name;
    if (!v.options.empty()) line["options"] = v.options;
    line["verdict"] = verdict_name(v.verdict);
    line["truth"] = v.truth;
    line["truth_source"] = from_picture ? "picture" : "description";
    line["annotated"] = v.annotated;
    line["reasons"] = reasons_json(v.reasons);
    out.verdicts.push_back(std::move(line));
  }
  bool flagged = answer_flagged;
  ordered_json findings = ordered_json::array();
  for (const auto& f : audit.findings) {
    flagged = flagged || f.severity != Severity::note;
    findings.push_back(finding_json(f));
  }
  out.scene = {{"record", item.ordinal}, {"line", item.raw.line}, {"id", scene.id}};
  if (!item.raw.key.empty() && item.raw.key != scene.id) out.scene["key"] = item.raw.key;
  if (!audit.difficulty.empty()) out.scene["difficulty"] = audit.difficulty;
  out.scene["hash"] = audit.content_hash;
  if (from_picture) out.scene["truth_source"] = "picture";
  if (own) out.scene["bands"] = bands_json(*own, true);  // the picture's own, not the run's
  if (picture && !picture->image.empty()) out.scene["image"] = picture->image;
  if (picture && !picture->mapping.empty()) out.scene["mapping"] = picture->mapping;
  if (picture) out.overlay = std::move(picture->overlay_png);
  out.scene["findings"] = std::move(findings);
  if (!item.raw.notes.empty()) {
    ordered_json notes = ordered_json::array();
    for (const auto& note : item.raw.notes) notes.push_back({{"kind", note.kind}, {"detail", note.detail}});
    out.scene["import_notes"] = std::move(notes);
  }
  if (flagged) out.flagged = ordered_json{{"record", item.ordinal}, {"scene", scene_json(scene)}};
  // What was read, drawn over the picture, where a reading gave an answer that is not ok (not for
  // its doubts alone: most pictures have some, and the overlays of a large dataset would fill a disk).
  if (answer_flagged && from_picture && reading_overlays && *reading_overlays)
    out.overlay = (*reading_overlays)(std::get<Scene>(described), parsed_scene, item.raw.key);
  return out;
}

namespace {

// The three output lines of one input record, and the overlay of its picture when it has findings.
struct Lines {
  std::string verdicts, scene, flagged;
  std::vector<std::uint8_t> overlay;
  std::string stem;  // the overlay's file name, before the run makes it unique
  bool error = false;
};

// Chi-square test of uniform answer letters: p = Q(k/2, x/2) with k = options − 1.
double uniform_p_value(const std::map<std::string, std::size_t>& counts, std::size_t options) {
  std::size_t total = 0;
  for (const auto& [_, n] : counts) total += n;
  if (total == 0 || options < 2) return 1;
  const double expected = static_cast<double>(total) / options;
  double x = 0;
  for (std::size_t i = 0; i < options; ++i) {
    const auto it = counts.find(option_letter(i));
    const double n = it == counts.end() ? 0 : static_cast<double>(it->second);
    x += (n - expected) * (n - expected) / expected;
  }
  return boost::math::gamma_q((options - 1) / 2.0, x / 2);
}

// Scenes that share a content hash, by hash, each group's ids in file order. `keys` (a key of each
// scene's hash) finds the few candidates; a second reading collects their ids.
std::map<std::string, std::vector<std::string>> duplicate_scenes(const fs::path& scenes,
                                                                 std::vector<std::size_t> keys) {
  std::sort(keys.begin(), keys.end());
  std::vector<std::size_t> repeated;
  for (std::size_t k = 1; k < keys.size(); ++k)
    if (keys[k] == keys[k - 1] && (repeated.empty() || repeated.back() != keys[k])) repeated.push_back(keys[k]);
  std::map<std::string, std::vector<std::string>> groups;
  if (repeated.empty()) return groups;
  each_record(scenes, [&](const ordered_json& r) {
    if (r.contains("error")) return;
    const std::string hash = r["hash"];
    if (std::binary_search(repeated.begin(), repeated.end(), std::hash<std::string>{}(hash)))
      groups[hash].push_back(r["id"]);
  });
  std::erase_if(groups, [](const auto& group) { return group.second.size() < 2; });
  return groups;
}

// Adds counts (or maps of counts) key by key.
template <typename Map>
void add_counts(Map& into, const Map& from) {
  for (const auto& [key, value] : from) {
    if constexpr (std::is_arithmetic_v<typename Map::mapped_type>)
      into[key] += value;
    else
      add_counts(into[key], value);
  }
}

// What summary.json counts, record by record: a run counts its records as it writes them; merge
// and a resumed run count the audit's files read back (tally_files). One set of rules for both.
class AuditTally {
 public:
  // A scenes.jsonl record; `overlay`: its line names an overlay (its picture has findings).
  // Returns the scene's difficulty ("" when none), which its verdicts are counted under.
  std::string add_scene(const ordered_json& r, bool overlay) {
    ++records_;
    if (r.contains("error")) {
      ++errors_;
      return "";
    }
    hash_keys_.push_back(std::hash<std::string>{}(r["hash"].get<std::string>()));
    // A scene read from its picture is not checked against it (its overlay shows the reading).
    const bool checked = r.value("truth_source", "") != "picture";
    pictures_ += checked && (r.contains("image") || overlay);
    pictures_with_findings_ += checked && overlay;
    for (const auto& f : r["findings"]) ++findings_by_kind_[f["kind"]];
    std::string difficulty = r.value("difficulty", "");
    if (!difficulty.empty()) ++by_difficulty_[difficulty]["scenes"];
    if (r.contains("bands") && r["bands"].value("source", "") == "picture")
      picture_bands_.emplace_back(r["bands"]["eps_num_px"].get<double>(), r["bands"]["eps_vis_px"].get<double>());
    return difficulty;
  }
  // A verdicts.jsonl record, of a scene of `difficulty`.
  void add_verdict(const ordered_json& v, const std::string& difficulty) {
    ++questions_;
    const std::string verdict = v["verdict"], kind = v["kind"], annotated = v["annotated"];
    ++by_verdict_[verdict];
    ++by_kind_[kind][verdict];
    // Unsupported questions by the dataset's template (or by kind for native items): what to map next.
    if (verdict == "unsupported") ++unsupported_by_template_[v.value("template", kind)];
    for (const auto& r : v["reasons"]) ++by_reason_[r["kind"]];
    decided_by_picture_ += std::any_of(v["reasons"].begin(), v["reasons"].end(), [](const ordered_json& r) {
      return r["detail"].get<std::string>().rfind("the picture", 0) == 0;
    });
    if (!difficulty.empty()) ++by_difficulty_[difficulty][verdict];
    if (annotated.size() == 1 && annotated[0] >= 'A' && annotated[0] <= 'Z') {
      ++letters_by_kind_[kind][annotated];
      ++letters_by_ask_[kind.substr(0, kind.find('/'))][annotated];  // per aspect: count, size, relation, ...
    }
  }
  // Adds the counts of records counted apart (the records after this tally's).
  void merge(AuditTally&& other) {
    add_counts(by_verdict_, other.by_verdict_);
    add_counts(by_reason_, other.by_reason_);
    add_counts(findings_by_kind_, other.findings_by_kind_);
    add_counts(unsupported_by_template_, other.unsupported_by_template_);
    add_counts(by_kind_, other.by_kind_);
    add_counts(letters_by_kind_, other.letters_by_kind_);
    add_counts(letters_by_ask_, other.letters_by_ask_);
    add_counts(by_difficulty_, other.by_difficulty_);
    hash_keys_.insert(hash_keys_.end(), other.hash_keys_.begin(), other.hash_keys_.end());
    records_ += other.records_, errors_ += other.errors_, questions_ += other.questions_;
    pictures_ += other.pictures_, pictures_with_findings_ += other.pictures_with_findings_;
    decided_by_picture_ += other.decided_by_picture_;
    picture_bands_.insert(picture_bands_.end(), other.picture_bands_.begin(), other.picture_bands_.end());
  }
  // summary.json of the audit in `dir` (whose scenes.jsonl names the duplicates).
  ordered_json summary(const fs::path& dir) && {
    auto bias_of = [](const std::map<std::string, std::map<std::string, std::size_t>>& groups) {
      ordered_json bias = ordered_json::object();
      for (const auto& [group, letters] : groups) {
        // Options per question are not in the verdict line; the highest letter seen bounds them, and
        // at least four options (A–D) are assumed, as in every benchmark geotruth serves.
        std::size_t options = 4;
        for (const auto& [letter, _] : letters) options = std::max<std::size_t>(options, letter[0] - 'A' + 1);
        ordered_json counts = ordered_json::object();
        for (std::size_t i = 0; i < options; ++i) {
          auto it = letters.find(option_letter(i));
          counts[option_letter(i)] = it == letters.end() ? 0 : it->second;
        }
        bias[group] = {{"letters", counts},
                       {"p_value_uniform", rounded_px(uniform_p_value(letters, options) * 1000) / 1000}};
      }
      return bias;
    };
    ordered_json duplicates = ordered_json::array();
    for (const auto& [_, ids] : duplicate_scenes(dir / "scenes.jsonl", std::move(hash_keys_)))
      duplicates.push_back(ids);
    ordered_json summary{{"records", records_},
                         {"errors", errors_},
                         {"scenes", records_ - errors_},
                         {"questions", questions_},
                         {"by_verdict", by_verdict_},
                         {"by_reason", by_reason_},
                         {"by_kind", by_kind_},
                         {"unsupported_by_template", unsupported_by_template_},
                         {"by_difficulty", by_difficulty_},
                         {"findings", findings_by_kind_},
                         {"answer_position_bias", bias_of(letters_by_kind_)},
                         {"answer_position_bias_by_ask", bias_of(letters_by_ask_)},
                         {"duplicate_scenes", duplicates}};
    if (pictures_ || decided_by_picture_)
      summary["pictures"] = {{"scenes", pictures_},
                             {"with_findings", pictures_with_findings_},
                             {"questions_decided", decided_by_picture_}};
    if (fs::exists(dir / kBands)) summary["bands"] = ordered_json::parse(std::ifstream(dir / kBands));
    if (!picture_bands_.empty()) summary["picture_bands"] = picture_bands_summary();
    return summary;
  }

 private:
  std::map<std::string, std::size_t> by_verdict_{
      {"ok", 0}, {"wrong", 0}, {"ambiguous", 0}, {"invalid", 0}, {"unsupported", 0}};
  std::map<std::string, std::size_t> by_reason_, findings_by_kind_, unsupported_by_template_;
  std::map<std::string, std::map<std::string, std::size_t>> by_kind_, letters_by_kind_, letters_by_ask_, by_difficulty_;
  std::vector<std::size_t> hash_keys_;  // of every scene's content hash: 8 bytes a scene, not its id
  std::size_t records_ = 0, errors_ = 0, questions_ = 0;
  // audit --image: scenes judged against their pictures, those with findings, questions they decided.
  std::size_t pictures_ = 0, pictures_with_findings_ = 0, decided_by_picture_ = 0;
  // The bands (eps_num, eps_vis) of the scenes read from their pictures, each judged at its own.
  std::vector<std::pair<double, double>> picture_bands_;

  // The range of the pictures' own bands, and what they are.
  ordered_json picture_bands_summary() const {
    auto range = [&](auto member) {
      std::vector<double> values;
      for (const auto& band : picture_bands_) values.push_back(band.*member);
      std::sort(values.begin(), values.end());
      return ordered_json{{"min", values.front()}, {"median", values[values.size() / 2]}, {"max", values.back()}};
    };
    return {{"scenes", picture_bands_.size()},
            {"eps_num_px", range(&std::pair<double, double>::first)},
            {"eps_vis_px", range(&std::pair<double, double>::second)},
            {"reason",
             "each scene read from its picture is judged at the picture's own band, from its strokes' width and "
             "wobble (its line in scenes.jsonl gives it and why); \"bands\" is the band of the others"}};
  }
};

// Audits one record into its lines, and counts it in `tally`.
Lines audit_item(const StreamItem& item, const AuditOptions& options, AuditTally& tally) {
  AuditedRecord audited = audit_record(item, options.bands, options.limits, &options.pictures, &options.read_pictures,
                                       options.truth_from_picture, &options.reading_overlays);
  Lines out;
  for (const auto& v : audited.verdicts) out.verdicts += to_line(v) + "\n";
  out.scene = to_line(audited.scene) + "\n";
  if (audited.flagged) out.flagged = to_line(*audited.flagged) + "\n";
  out.error = audited.error;
  out.overlay = std::move(audited.overlay);
  if (!out.overlay.empty()) out.stem = picture_stem(audited.scene.value("id", std::string()), item.raw.line);
  const std::string difficulty = tally.add_scene(audited.scene, !out.overlay.empty());
  for (const auto& v : audited.verdicts) tally.add_verdict(v, difficulty);
  return out;
}

// The counts of an audit's files read back. Both are in record order: each scene's verdicts follow
// it in verdicts.jsonl, so they are read side by side and nothing is kept per record.
AuditTally tally_files(const fs::path& dir) {
  AuditTally tally;
  JsonlCursor verdicts(dir / "verdicts.jsonl");
  each_record(dir / "scenes.jsonl", [&](const ordered_json& r) {
    const std::string difficulty = tally.add_scene(r, r.contains("overlay"));
    if (r.contains("error")) return;
    const std::size_t record = r["record"];
    for (; verdicts.current() && (*verdicts.current())["record"].get<std::size_t>() <= record; verdicts.advance())
      tally.add_verdict(*verdicts.current(), (*verdicts.current())["record"] == record ? difficulty : "");
  });
  for (; verdicts.current(); verdicts.advance()) tally.add_verdict(*verdicts.current(), "");
  return tally;
}

// summary.json, report.html and the error report of the audit in `dir`, from its counts.
void write_summary(const std::string& dir_text, const std::string& image_dir, AuditTally&& tally) {
  const fs::path dir(dir_text);
  ordered_json summary = std::move(tally).summary(dir);
  summary["geotruth"] = build_json();
  write_atomically(dir / "summary.json", summary.dump(2) + "\n");
  write_atomically_with(dir / "report.html", [&](std::ostream& out) { write_report(dir_text, summary, out); });
  write_error_report(dir_text, image_dir);
}

// What shapes an audit's outputs besides its inputs: a resumed run and the shards of one run
// must agree on it.
ordered_json run_options(const AuditOptions& o) {
  ordered_json options = input_signature(o.format, o.limits);
  options["eps_num_px"] = o.bands.eps_num_px;
  options["eps_vis_px"] = o.bands.eps_vis_px;
  options["render_size_px"] = o.bands.render_size_px;
  if (o.pictures) options["pictures"] = o.image_dir;  // judged against the dataset's pictures
  if (o.truth_from_picture) options["truth_from"] = "picture";
  return options;
}

class Progress {
 public:
  explicit Progress(bool on) : on_(on), start_(std::chrono::steady_clock::now()), last_(start_) {}
  void update(std::size_t records, std::size_t bytes, std::size_t total_bytes, bool final = false) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!final && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double rate = seconds > 0 ? records / seconds : 0;
    std::fprintf(stderr, "\r\033[Kaudit: %zu records  %.0f/s", records, rate);
    if (total_bytes > 0 && bytes > 0) {
      const double fraction = std::min(1.0, static_cast<double>(bytes) / total_bytes);
      const int width = 30, filled = static_cast<int>(fraction * width);
      const double eta = fraction > 0 ? seconds * (1 - fraction) / fraction : 0;
      std::fprintf(stderr, "  [%s%s] %3.0f%%  ETA %d:%02d", std::string(filled, '#').c_str(),
                   std::string(width - filled, '.').c_str(), fraction * 100, static_cast<int>(eta) / 60,
                   static_cast<int>(eta) % 60);
    }
    if (final) std::fprintf(stderr, "\n");
    std::fflush(stderr);
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace

AuditTotals run_audit(const AuditOptions& options, std::ostream& log) {
  const fs::path dir(options.out_dir);
  RunSpec spec;
  spec.subcommand = "audit";
  spec.home = dir;
  spec.home_is_directory = true;
  for (const char* name : kFiles) spec.streams.push_back({dir / name, StreamOrder::record, ""});
  spec.same_files = {kBands};
  // Overlays of the pictures with findings, named in their scenes.jsonl lines (merge renames them).
  const fs::path overlays = dir / kOverlays;
  if (options.pictures) spec.pictures.push_back({overlays, 1, "overlay", ""});
  spec.inputs = options.inputs;
  spec.options = run_options(options);
  spec.shard = options.shard;
  spec.resume = options.resume;
  spec.checkpoint_every = options.checkpoint_every;
  spec.checkpoint_seconds = options.checkpoint_seconds;
  RunOutput run(std::move(spec), log);
  if (run.complete()) {
    finalize_audit(dir.string(), options.image_dir);
    return {run.totals().records, run.totals().errors};
  }
  if (run.resume_after() == 0) {
    ordered_json bands = bands_json(options.bands, true);
    bands["geotruth"] = build_json();
    if (options.evidence) bands["evidence"] = evidence_json(*options.evidence);
    write_atomically(dir / kBands, bands.dump(2) + "\n");
  }

  std::optional<tbb::global_control> threads;
  if (options.threads > 0) threads.emplace(tbb::global_control::max_allowed_parallelism, options.threads);
  RecordStream stream(options.inputs, options.format, options.limits);
  Progress progress(options.progress);
  std::size_t audited = 0;
  const std::size_t done = run.resume_after();
  // A work item carries a few records (BatchSizer: about 16 ms of work), so that handing items
  // between threads costs little next to auditing them.
  struct Work {
    std::vector<StreamItem> items;
    std::vector<Lines> lines;
    AuditTally tally;  // of its records, counted where they were audited
  };
  WorkPool<Work> pool;
  BatchSizer sizer;
  std::ostream &verdicts = run.stream(0), &scenes = run.stream(1), &flagged = run.stream(2);
  PictureNames overlay_names;
  run.each_written_line(1, [&](const std::string& line) {
    const ordered_json record = ordered_json::parse(line, nullptr, false);
    if (record.is_object() && record.contains("overlay"))
      overlay_names.taken(fs::path(record["overlay"].get<std::string>()).stem().string());
  });
  // The summary counts the records as they are audited; a resumed run reads its files back instead.
  AuditTally tally;
  auto write = [&](const StreamItem& item, Lines& lines) {
    verdicts << lines.verdicts;
    if (!lines.overlay.empty()) {
      // The overlay is named here, in input order, and goes in as the line's last member.
      const fs::path path = overlay_names.next(overlays, lines.stem, item.raw.line, ".png");
      fs::create_directories(overlays);
      write_atomically(path, {reinterpret_cast<const char*>(lines.overlay.data()), lines.overlay.size()});
      std::string& line = lines.scene;  // "{…}\n"
      line.insert(line.size() - 2, ",\"overlay\":" + to_line(ordered_json(path.string())));
    }
    scenes << lines.scene;
    flagged << lines.flagged;
    run.written(item.ordinal, lines.error);
    progress.update(++audited, stream.bytes_read(), stream.bytes_total());
  };
  tbb::parallel_pipeline(
      kTokens,
      tbb::make_filter<void, Work*>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control& control) -> Work* {
        Work* work = pool.acquire();
        for (const std::size_t want = sizer.next(); work->items.size() < want;) {
          StreamItem item;
          if (!stream.next(item)) break;
          if (item.ordinal > done && options.shard.keeps(item.ordinal)) work->items.push_back(std::move(item));
        }
        if (!work->items.empty()) return work;
        pool.release(work);
        control.stop();
        return nullptr;
      }) & tbb::make_filter<Work*, Work*>(tbb::filter_mode::parallel, [&](Work* work) {
        const auto start = std::chrono::steady_clock::now();
        for (const StreamItem& item : work->items) work->lines.push_back(audit_item(item, options, work->tally));
        sizer.took(work->items.size(), std::chrono::steady_clock::now() - start);
        return work;
      }) & tbb::make_filter<Work*, void>(tbb::filter_mode::serial_in_order, [&](Work* work) {
        for (std::size_t i = 0; i < work->items.size(); ++i) write(work->items[i], work->lines[i]);
        tally.merge(std::move(work->tally));
        pool.release(work);
      }));
  progress.update(audited, stream.bytes_total(), stream.bytes_total(), true);
  run.finish(stream.ordinals());
  if (done == 0)
    write_summary(dir.string(), options.image_dir, std::move(tally));
  else
    finalize_audit(dir.string(), options.image_dir);
  return {run.totals().records, run.totals().errors};
}

void finalize_audit(const std::string& dir, const std::string& image_dir) {
  write_summary(dir, image_dir, tally_files(dir));
}

void print_summary(const std::string& dir, std::ostream& out) {
  const ordered_json s = ordered_json::parse(std::ifstream(fs::path(dir) / "summary.json"));
  out << "\n"
      << s["scenes"] << " scenes, " << s["questions"] << " questions, " << s["errors"] << " unreadable records\n";
  if (s.contains("bands")) {
    const auto& b = s["bands"];
    out << "bands: eps_num " << b["eps_num_px"].get<double>() << " px, eps_vis " << b["eps_vis_px"].get<double>()
        << " px (" << b["source"].get<std::string>() << ")";
    if (b.contains("reason")) out << ": " << b["reason"].get<std::string>();
    out << "\n";
  }
  if (s.contains("picture_bands")) {
    const auto& p = s["picture_bands"];
    out << p["scenes"] << " scenes read from their pictures, each at its own band: eps_num "
        << p["eps_num_px"]["min"].get<double>() << "-" << p["eps_num_px"]["max"].get<double>() << " px (median "
        << p["eps_num_px"]["median"].get<double>() << "), eps_vis " << p["eps_vis_px"]["min"].get<double>() << "-"
        << p["eps_vis_px"]["max"].get<double>() << " px (scenes.jsonl gives each and why)\n";
  }
  out << "\n";
  out << std::left << std::setw(22) << "question kind";
  for (const char* v : {"ok", "wrong", "ambiguous", "invalid", "unsupported"}) out << std::right << std::setw(12) << v;
  out << "\n";
  auto row = [&](const std::string& name, const ordered_json& counts) {
    out << std::left << std::setw(22) << name.substr(0, 21);
    for (const char* v : {"ok", "wrong", "ambiguous", "invalid", "unsupported"})
      out << std::right << std::setw(12) << counts.value(v, 0);
    out << "\n";
  };
  for (const auto& [kind, counts] : s["by_kind"].items()) row(kind, counts);
  row("all", s["by_verdict"]);
  if (!s["by_reason"].empty()) {
    out << "\nreasons:";
    for (const auto& [kind, n] : s["by_reason"].items()) out << "  " << kind << " " << n;
    out << "\n";
  }
  if (!s["findings"].empty()) {
    out << "scene findings:";
    for (const auto& [kind, n] : s["findings"].items()) out << "  " << kind << " " << n;
    out << "\n";
  }
  if (s.contains("pictures"))
    out << "pictures: " << s["pictures"]["scenes"] << " checked, " << s["pictures"]["with_findings"]
        << " with findings (overlays/), " << s["pictures"]["questions_decided"] << " questions decided by them\n";
  if (!s["duplicate_scenes"].empty()) out << "duplicate scenes: " << s["duplicate_scenes"].size() << " groups\n";
  out << "\noutputs: " << dir << "/{verdicts.jsonl, scenes.jsonl, summary.json, report.html}\n";
}

}  // namespace geotruth
