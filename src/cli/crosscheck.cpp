// geotruth crosscheck: built into geotruth-vision.so (with vision/: cairo and OpenCV), which the
// executable loads only for this subcommand (cli/vision_loader.cpp).
#include <fstream>
#include <iostream>
#include <iterator>

#include "cli/common.hpp"
#include "cli/picture_files.hpp"

namespace geotruth::cli {
namespace {

std::vector<std::uint8_t> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The user's image for a scene: the file itself, or one of picture_candidates in a directory.
fs::path image_for(const std::string& image_option, const Scene& scene, const RawRecord& record) {
  const fs::path base(image_option);
  if (!fs::is_directory(base)) return base;
  const std::vector<fs::path> tried = picture_candidates(base, {scene.id, record.key});
  for (const auto& path : tried)
    if (fs::exists(path)) return path;
  std::string list;
  for (const auto& t : tried) list += (list.empty() ? "" : ", ") + t.string();
  throw InputError{"", "no image for scene \"" + scene.id + "\" (looked for " + list + ")"};
}

int crosscheck_images(CrosscheckCommand command, const BandOptions& band_options) {
  const RunBands run = resolve_bands(band_options, command.in, std::cerr);
  const vision::RenderOptions options = command.picture.options(run.bands);
  vision::CrossCheckOptions check_options;
  check_options.bands = run.bands;
  if (!command.overlay_dir.empty()) fs::create_directories(command.overlay_dir);
  std::vector<RunPictures> pictures;
  if (!command.overlay_dir.empty()) pictures.push_back({command.overlay_dir, 0, "overlay", "overlay"});
  RecordsOutput out({"crosscheck",
                     command.output,
                     "",
                     {{"image", command.image}, {"picture", command.picture.json()}, {"bands", bands_json(run.bands)}},
                     pictures},
                    command.in, command.batch);
  // Disagreements in records written before (a resumed run's exit code is the whole run's).
  auto disagrees = [](const std::string& line) {
    const ordered_json record = ordered_json::parse(line, nullptr, false);
    return record.is_object() && record.value("agree", true) == false;
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
  std::size_t disagree = 0, checked = 0;
  const BatchStats stats = run_batch(
      command.in.inputs, command.in.format(), command.in.limits,
      [&](const Scene& scene, const RawRecord& record) {
        vision::Image image;
        fs::path image_path;
        if (command.image.empty()) {
          try {
            image = vision::render(scene, options);
          } catch (const std::invalid_argument& e) {
            throw InputError{"/frame", e.what()};
          }
        } else {
          image_path = image_for(command.image, scene, record);
          std::string error;
          image = vision::decode(read_bytes(image_path), error);
          if (image.width == 0) throw InputError{"", image_path.string() + ": " + error};
        }
        const vision::CrossCheck check = vision::crosscheck(scene, image, check_options);
        ++checked;
        disagree += !check.agree;
        ordered_json result = record_head(scene, record);
        result["agree"] = check.agree;
        result["bands"] = bands_json(run.bands);
        ordered_json reasons = ordered_json::array();
        for (const auto& r : check.reasons) reasons.push_back(finding_json(r));
        result["reasons"] = std::move(reasons);
        ordered_json counts = ordered_json::object();
        for (const auto& [category, c] : check.counts)
          counts[category] = {{"symbolic", c.symbolic}, {"matched", c.matched}, {"extra", c.extra}};
        result["counts"] = std::move(counts);
        ordered_json gaps = ordered_json::array();
        for (const auto& g : check.gaps)
          gaps.push_back({{"elements", g.elements},
                          {"scene_px", rounded_px(g.symbolic_px)},
                          {"image_px", rounded_px(g.image_px)}});
        if (!gaps.empty()) result["gaps"] = std::move(gaps);
        if (!image_path.empty()) result["image"] = image_path.string();
        if (!command.overlay_dir.empty()) {
          const fs::path path = names.next(command.overlay_dir, file_stem(scene, record), record.line, ".png");
          write_image(path, vision::encode(vision::overlay(scene, image, check), vision::ImageFormat::png));
          result["overlay"] = path.string();
        }
        return result;
      },
      out.stream(), std::cerr, out.plan());
  if (!out.finish(stats)) return kUsage;
  std::cerr << "crosscheck: " << stats.records << " records, " << checked << " checked, " << checked - disagree
            << " agree, " << disagree << " disagree, " << stats.errors << " errors\n";
  if (out.totals(stats).errors) return kRecordErrors;
  return disagree + disagree_before ? kDisagree : kOk;
}

}  // namespace
}  // namespace geotruth::cli

extern "C" int geotruth_crosscheck(geotruth::cli::CrosscheckCommand command, const geotruth::cli::BandOptions& bands) {
  return geotruth::cli::crosscheck_images(std::move(command), bands);
}
