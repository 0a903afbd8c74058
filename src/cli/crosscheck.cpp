// geotruth crosscheck: built into geotruth-vision.so (with vision/: cairo and OpenCV), which the
// executable loads only for this subcommand (cli/vision_loader.cpp).
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>

#include <atomic>
#include <ctime>
#include <geotruth/reader.hpp>

#include "cli/common.hpp"
#include "cli/picture_files.hpp"
#include "count_check/count_check.hpp"

namespace geotruth::cli {
namespace {

std::vector<std::uint8_t> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// How the picture was read: "style: wobble 2.1 px (auto)" and the measures behind it.
ordered_json picture_json(const vision::PictureReading& p) {
  char style[64];
  std::snprintf(style, sizeof style, "wobble %.1f px (%s)", p.wobble_px, p.wobble_source.c_str());
  ordered_json out{{"style", style},
                   {"wobble_px", rounded_px(p.wobble_px)},
                   {"wobble_source", p.wobble_source},
                   {"tolerance_px", rounded_px(p.tolerance_px)},
                   {"background", rounded_px(p.background)},
                   {"noise_sigma", rounded_px(p.noise_sigma)},
                   {"ink_level", rounded_px(p.ink_level)},
                   {"stroke_px", rounded_px(p.stroke_px)}};
  if (p.wobble_source.rfind("auto", 0) == 0) out["wobble_strokes"] = p.wobble_strokes;
  return out;
}

// A frame drawn at a scale of its own: the mapping fitted on the picture's dots, or why none was.
ordered_json mapping_json(const vision::PictureMapping& m) {
  if (!m.fitted) return {{"fitted", false}, {"reason", m.reason}};
  return {{"fitted", true},
          {"px_per_unit", std::round(m.scale * 1e4) / 1e4},
          {"rotation_deg", std::round(m.rotation_deg * 1e4) / 1e4},
          {"y_flipped", m.flipped},
          {"translation", {rounded_px(m.translation.x), rounded_px(m.translation.y)}},
          {"dots", m.dots},
          {"points", m.points},
          {"residual_px", rounded_px(m.residual_px)},
          {"worst_px", rounded_px(m.worst_px)}};
}

// One line for an audit's scene record.
std::string mapping_text(const vision::PictureMapping& m) {
  if (!m.fitted) return "no mapping fitted: " + m.reason;
  char text[200];
  std::snprintf(text, sizeof text,
                "%.2f px per unit, rotation %.3f deg%s, %d of %d points on their dots, residual %.2f px (worst %.2f)",
                m.scale, m.rotation_deg, m.flipped ? ", y flipped" : "", m.dots, m.points, m.residual_px, m.worst_px);
  return text;
}

// CPU time the count checks took, all threads (said at the end of the run).
std::atomic<double> counts_cpu_seconds{0};

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The cross-check's counts (docs/vision.md, "Counts"): the picture read on its own and its counts
// compared with the scene's. A picture the reader cannot read leaves the counts undone (said in
// count_check.error), never the record.
std::string check_counts(const Scene& scene, const vision::Image& image, const Bands& bands, vision::CrossCheck& check,
                         std::optional<CountCheck>& counts) {
  const double start = thread_cpu_seconds();
  try {
    const vision::PictureRead read = vision::read_picture(image, scene.id);
    if (auto invalid = validate(read.scene)) return "the scene read from the picture is not valid: " + invalid->message;
    const vision::InkProbe probe(image, check.picture.tolerance_px);
    counts = compare_counts(scene, bands, read.scene, probe, check);
  } catch (const InputError& e) {  // the scene's work limit, spent reading its picture
    return e.message;
  } catch (const std::exception& e) {  // OpenCV's own checks
    return std::string("the picture could not be read: ") + e.what();
  }
  counts_cpu_seconds.fetch_add(thread_cpu_seconds() - start);
  return "";
}

ordered_json tally_json(const CountTally& t) {
  return {{"letters", t.letters}, {"circles", t.circles}, {"segments", t.segments}, {"triangles", t.triangles}};
}

// The cross-check's part of a record, after its head.
void put_check(ordered_json& result, const vision::CrossCheck& check, const Bands& bands) {
  result["agree"] = check.agree;
  result["status"] = !check.agree ? "disagree" : check.doubtful ? "doubtful" : "agree";
  result["bands"] = bands_json(bands);
  if (check.mapping.fitted || !check.mapping.reason.empty()) result["mapping"] = mapping_json(check.mapping);
  result["picture"] = picture_json(check.picture);
  ordered_json reasons = ordered_json::array();
  for (const auto& r : check.reasons) reasons.push_back(finding_json(r));
  result["reasons"] = std::move(reasons);
  ordered_json counts = ordered_json::object();
  for (const auto& [category, c] : check.counts)
    counts[category] = {{"symbolic", c.symbolic}, {"matched", c.matched}, {"extra", c.extra}};
  result["counts"] = std::move(counts);
  ordered_json gaps = ordered_json::array();
  for (const auto& g : check.gaps)
    gaps.push_back(
        {{"elements", g.elements}, {"scene_px", rounded_px(g.symbolic_px)}, {"image_px", rounded_px(g.image_px)}});
  if (!gaps.empty()) result["gaps"] = std::move(gaps);
  ordered_json elements = ordered_json::array();
  for (const auto& e : check.elements)
    elements.push_back({{"element", e.element},
                        {"category", e.category},
                        {"coverage", rounded_px(e.coverage)},
                        {"contrast", rounded_px(e.contrast)},
                        {"visible", e.visible},
                        {"matched", e.matched}});
  result["elements"] = std::move(elements);
}

// The counts of both sides and the reader's differences the pixels contradict.
ordered_json count_check_json(const CountCheck& counts) {
  ordered_json unconfirmed = ordered_json::array();
  for (const auto& r : counts.unconfirmed) unconfirmed.push_back(finding_json(r));
  return {{"scene", tally_json(counts.scene)},
          {"picture", tally_json(counts.picture)},
          {"unconfirmed", std::move(unconfirmed)}};
}

// A scene that draws nothing (VisOnlyQA's 3D and real items: the dataset gives no figure) has
// nothing to check its picture against: its record says so instead of agreeing.
bool draws_nothing(const Scene& s) {
  return s.points.empty() && s.lines.empty() && s.circles.empty() && s.shapes.empty() && s.entities.empty() &&
         s.links.empty() && s.arrows.empty() && s.arrow_heads.empty() && s.layers.empty() && !s.grid;
}

// Why a scene that draws nothing was not checked: its importer's word (extra "unsupported" of the
// scene or of a question, or the note "no_description") when it has one.
std::string unchecked_reason(const Scene& scene, const RawRecord& record) {
  std::string why;
  auto unsupported = [&](const std::string& text) {
    if (!why.empty() || text.empty()) return;
    if (const auto extra = ordered_json::parse(text, nullptr, false);
        extra.is_object() && extra.contains("unsupported") && extra["unsupported"].is_string())
      why = extra["unsupported"].get<std::string>();
  };
  unsupported(scene.extra);
  for (const auto& question : scene.questions) unsupported(question.extra);
  for (const auto& note : record.notes)
    if (why.empty() && note.kind == "no_description") why = note.detail;
  return "the scene draws nothing: there is nothing to check the picture against" +
         (why.empty() ? "" : " (" + why + ")");
}

// The record of a scene not checked (docs/vision.md, "Verdict of a picture"): agree null, status
// "unchecked" and the reason; neither an agreement nor a disagreement.
ordered_json unchecked_json(const Scene& scene, const RawRecord& record, const Bands& bands) {
  ordered_json result = record_head(scene, record);
  result["agree"] = nullptr;
  result["status"] = "unchecked";
  result["reason"] = unchecked_reason(scene, record);
  result["bands"] = bands_json(bands);
  return result;
}

int crosscheck_images(CrosscheckCommand command, BandOptions band_options) {
  band_options.pictures_own_band = false;  // a scene is checked at the run's band, read from a picture or not
  const RunBands run = resolve_bands(band_options, command.in, std::cerr);
  const vision::RenderOptions options = command.picture.options(run.bands);
  vision::CrossCheckOptions check_options;
  check_options.bands = run.bands;
  check_options.wobble_px = command.wobble_px;
  check_options.dataset_picture = !command.image.empty();
  vision::DecodeLimits limits;
  limits.max_pixels = command.max_image_pixels;
  std::optional<PictureFolder> folder;
  if (!command.image.empty() && fs::is_directory(command.image)) folder.emplace(command.image);
  if (!command.overlay_dir.empty()) fs::create_directories(command.overlay_dir);
  std::vector<RunPictures> pictures;
  if (!command.overlay_dir.empty()) pictures.push_back({command.overlay_dir, 0, "overlay", "overlay"});
  RecordsOutput out({"crosscheck",
                     command.output,
                     "",
                     {{"image", command.image},
                      {"picture", command.picture.json()},
                      {"bands", bands_json(run.bands)},
                      {"wobble", command.wobble_px},
                      {"max_image_pixels", command.max_image_pixels},
                      {"count_check", command.count_check == CountCheckMode::on    ? "on"
                                      : command.count_check == CountCheckMode::off ? "off"
                                                                                   : "auto"}},
                     pictures},
                    command.in, command.batch);
  // Disagreements in records written before (a resumed run's exit code is the whole run's).
  auto disagrees = [](const std::string& line) {
    const ordered_json record = ordered_json::parse(line, nullptr, false);
    if (!record.is_object() || !record.contains("agree")) return false;
    const ordered_json& agree = record["agree"];  // null: not checked (nothing to check)
    return agree.is_boolean() && !agree.get<bool>();
  };
  std::size_t disagree_before = 0;
  if (out.complete()) {
    std::ifstream records(command.output);
    for (std::string line; std::getline(records, line);) disagree_before += disagrees(line);
    if (out.totals({}).errors) return kRecordErrors;
    return disagree_before ? kDisagree : kOk;
  }
  Names names;
  names_written(out, "overlay", names);
  out.each_written_line([&](const std::string& line) { disagree_before += disagrees(line); });
  std::size_t disagree = 0, checked = 0, unchecked = 0;
  // Reading, detecting and matching run on every core; overlays are named and written in input order.
  const BatchStats stats = run_batch_parallel(
      command.in.inputs, command.in.format(), command.in.limits, command.threads,
      [&](const Scene& scene, const RawRecord& record) -> RecordStep {
        if (draws_nothing(scene))  // no picture looked for: there is nothing to compare it with
          return [&, result = unchecked_json(scene, record, run.bands)]() mutable {
            ++unchecked;
            return std::move(result);
          };
        vision::Image image;
        fs::path image_path;
        if (command.image.empty()) {
          try {
            image = vision::render(scene, options);
          } catch (const std::invalid_argument& e) {
            throw InputError{"/frame", e.what()};
          }
        } else {
          if (folder) {
            const std::vector<std::string> names = picture_names(scene, record.key);
            const auto found = folder->find(names);
            if (!found)
              throw InputError{
                  "", "no picture for scene \"" + scene.id + "\" (looked for " + folder->looked_for(names) + ")"};
            image_path = *found;
          } else {
            image_path = command.image;
          }
          std::string error;
          image = vision::decode(read_bytes(image_path), error, limits);
          if (image.width == 0) throw InputError{"", image_path.string() + ": " + error};
        }
        vision::CrossCheck check = vision::crosscheck(scene, image, check_options);
        std::string count_error;
        std::optional<CountCheck> counts;
        // auto: lettered scenes drawn in their own pixels. A figure mapped onto its picture by
        // its dots (VisOnlyQA) is left out: the reader takes its point dots for small circles.
        if (command.count_check == CountCheckMode::on ||
            (command.count_check == CountCheckMode::automatic && counts_worth_reading(scene) && !check.mapping.fitted))
          count_error = check_counts(scene, image, run.bands, check, counts);
        ordered_json result = record_head(scene, record);
        put_check(result, check, run.bands);
        if (counts) result["count_check"] = count_check_json(*counts);
        if (!count_error.empty()) result["count_check"] = {{"error", count_error}};
        if (!image_path.empty()) result["image"] = image_path.string();
        std::shared_ptr<const std::vector<std::uint8_t>> overlay;
        if (!command.overlay_dir.empty())
          overlay = std::make_shared<const std::vector<std::uint8_t>>(
              vision::encode(vision::overlay(scene, image, check), vision::ImageFormat::png));
        return [&, result = std::move(result), overlay, agree = check.agree, stem = file_stem(scene, record),
                line = record.line]() mutable {
          ++checked;
          disagree += !agree;
          if (overlay) {
            const fs::path path = names.next(command.overlay_dir, stem, line, ".png");
            write_image(path, *overlay);
            result["overlay"] = path.string();
          }
          return result;
        };
      },
      out.stream(), std::cerr, out.plan());
  if (!out.finish(stats)) return kUsage;
  std::cerr << "crosscheck: " << stats.records << " records, " << checked << " checked, " << checked - disagree
            << " agree, " << disagree << " disagree, " << unchecked << " unchecked (the scene draws nothing), "
            << stats.errors << " errors";
  if (const double counted = counts_cpu_seconds.load(); counted > 0)
    std::cerr << " (counts read from the pictures: " << std::fixed << std::setprecision(1) << counted << " CPU-s)";
  std::cerr << "\n";
  if (out.totals(stats).errors) return kRecordErrors;
  return disagree + disagree_before ? kDisagree : kOk;
}

// audit --image, filter --image: a scene against its picture, as crosscheck --image judges it.
PictureCheck make_picture_check(const std::string& image, const Bands& bands, std::uint64_t max_image_pixels) {
  auto folder = fs::is_directory(image) ? std::make_shared<const PictureFolder>(image) : nullptr;
  vision::CrossCheckOptions options;
  options.bands = bands;
  options.dataset_picture = true;
  vision::DecodeLimits limits;
  limits.max_pixels = max_image_pixels;
  return [=](const Scene& scene, const std::string& source_key) {
    PictureEvidence out;
    fs::path path = image;
    if (folder) {
      const std::vector<std::string> names = picture_names(scene, source_key);
      const auto found = folder->find(names);
      if (!found) {
        out.findings.push_back(
            make_finding(FindingKind::picture_unavailable, {},
                         "no picture for scene \"" + scene.id + "\" (looked for " + folder->looked_for(names) + ")"));
        return out;
      }
      path = *found;
    }
    std::string error;
    const vision::Image picture = vision::decode(read_bytes(path), error, limits);
    if (picture.width == 0) {
      out.findings.push_back(make_finding(FindingKind::picture_unavailable, {}, path.string() + ": " + error));
      return out;
    }
    out.image = path.string();
    const vision::CrossCheck check = vision::crosscheck(scene, picture, options);
    if (check.mapping.fitted || !check.mapping.reason.empty()) out.mapping = mapping_text(check.mapping);
    if (check.mapping.fitted) out.px_per_unit = check.mapping.scale;
    for (const vision::Reason& r : check.reasons) out.findings.push_back(r);
    if (!check.reasons.empty())
      out.overlay_png = vision::encode(vision::overlay(scene, picture, check), vision::ImageFormat::png);
    return out;
  };
}

}  // namespace
}  // namespace geotruth::cli

extern "C" void geotruth_picture_check(const std::string& image, const geotruth::Bands& bands,
                                       std::uint64_t max_image_pixels, geotruth::PictureCheck& out) {
  out = geotruth::cli::make_picture_check(image, bands, max_image_pixels);
}

extern "C" int geotruth_crosscheck(geotruth::cli::CrosscheckCommand command, const geotruth::cli::BandOptions& bands) {
  return geotruth::cli::crosscheck_images(std::move(command), bands);
}
