// geotruth render and geotruth crosscheck: the picture side of the command line. Built into the
// vision module (with vision/, cairo and OpenCV), which the executable loads only for these two
// subcommands (cli/vision_loader.cpp); the commands are reached through `geotruth_vision_commands`.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <set>

#include "audit/run.hpp"
#include "cli/common.hpp"
#include "cli/records.hpp"

namespace geotruth::cli {
namespace {

namespace fs = std::filesystem;

// A file name from a scene id: letters, digits, '.', '-', '_' kept, the rest '_'.
std::string file_stem(const Scene& scene, const RawRecord& record) {
  std::string stem = scene.id.empty() ? "line" + std::to_string(record.line) : scene.id;
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  if (stem.front() == '.') stem.insert(stem.begin(), '_');
  return stem;
}

void write_image(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  write_atomically(path.string(), {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
}

// Unique names within one run: a second scene with the same id gets its line number appended.
class Names {
 public:
  fs::path next(const fs::path& dir, std::string stem, std::size_t line, const std::string& extension) {
    if (!taken_.insert(stem).second) {
      stem += "-line" + std::to_string(line);
      taken_.insert(stem);
    }
    return dir / (stem + extension);
  }

 private:
  std::set<std::string> taken_;
};

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

int render_images(const RenderCommand& command, const BandOptions& band_options) {
  Bands bands;  // only the render size matters for drawing
  bands.render_size_px = band_options.render_size;
  const vision::RenderOptions options = command.picture.options(bands);
  const bool jpeg = command.format == "jpeg";
  const fs::path dir(command.directory);
  fs::create_directories(dir);
  Names names;
  Output out(command.output);
  std::size_t images = 0;
  // Drawing and encoding run on every core; naming and writing the files, in input order.
  const BatchStats stats = run_batch_parallel(
      command.in.inputs, command.in.format(), command.in.limits, command.threads,
      [&](const Scene& scene, const RawRecord& record) -> RecordStep {
        vision::Image image;
        try {
          image = vision::render(scene, options);
        } catch (const std::invalid_argument& e) {
          throw InputError{"/frame", e.what()};
        }
        auto bytes = std::make_shared<const std::vector<std::uint8_t>>(
            vision::encode(image, jpeg ? vision::ImageFormat::jpeg : vision::ImageFormat::png, command.quality));
        ordered_json result = record_head(scene, record);
        result["width"] = image.width, result["height"] = image.height;
        return [&, bytes, result, stem = file_stem(scene, record), line = record.line]() mutable {
          const fs::path path = names.next(dir, stem, line, jpeg ? ".jpg" : ".png");
          write_image(path, *bytes);
          ++images;
          result["image"] = path.string();
          return result;
        };
      },
      out.stream(), std::cerr);
  if (!out.commit()) return kUsage;
  std::cerr << "render: " << stats.records << " records, " << images << " images in " << dir.string() << ", "
            << stats.errors << " errors\n";
  return stats.errors ? kRecordErrors : kOk;
}

int crosscheck_images(CrosscheckCommand command, const BandOptions& band_options) {
  const RunBands run = resolve_bands(band_options, command.in, std::cerr);
  const vision::RenderOptions options = command.picture.options(run.bands);
  vision::CrossCheckOptions check_options;
  check_options.bands = run.bands;
  if (!command.overlay_dir.empty()) fs::create_directories(command.overlay_dir);
  Names names;
  Output out(command.output);
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
      out.stream(), std::cerr);
  if (!out.commit()) return kUsage;
  std::cerr << "crosscheck: " << stats.records << " records, " << checked << " checked, " << checked - disagree
            << " agree, " << disagree << " disagree, " << stats.errors << " errors\n";
  if (stats.errors) return kRecordErrors;
  return disagree ? kDisagree : kOk;
}

}  // namespace
}  // namespace geotruth::cli

extern "C" const geotruth::cli::VisionCommands geotruth_vision_commands{geotruth::cli::render_images,
                                                                        geotruth::cli::crosscheck_images};
