// geotruth render: built into geotruth-render.so (with vision/'s drawing: cairo, libpng, libjpeg),
// which the executable loads only for this subcommand (cli/vision_loader.cpp).
#include <iostream>
#include <memory>

#include "cli/common.hpp"
#include "cli/picture_files.hpp"

namespace geotruth::cli {
namespace {

int render_images(const RenderCommand& command, const BandOptions& band_options) {
  Bands bands;  // only the render size matters for drawing
  bands.render_size_px = band_options.render_size;
  const vision::RenderOptions options = command.picture.options(bands);
  const bool jpeg = command.format == "jpeg";
  const fs::path dir(command.directory);
  fs::create_directories(dir);
  // A shard or a resumable run keeps its records beside its images unless told otherwise.
  const std::string records =
      command.output.empty() && command.batch.resumable() ? (dir / "records.jsonl").string() : command.output;
  RecordsOutput out({"render",
                     records,
                     command.directory,
                     {{"format", command.format},
                      {"quality", command.quality},
                      {"picture", command.picture.json()},
                      {"render_size", band_options.render_size}},
                     {{dir, 0, "image", ""}}},
                    command.in, command.batch);
  if (out.complete()) return out.totals({}).errors ? kRecordErrors : kOk;
  Names names;
  names_written(out, "image", names);
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
      out.stream(), std::cerr, out.plan());
  if (!out.finish(stats)) return kUsage;
  std::cerr << "render: " << stats.records << " records, " << images << " images in " << dir.string() << ", "
            << stats.errors << " errors\n";
  return out.totals(stats).errors ? kRecordErrors : kOk;
}

}  // namespace
}  // namespace geotruth::cli

extern "C" int geotruth_render(const geotruth::cli::RenderCommand& command, const geotruth::cli::BandOptions& bands) {
  return geotruth::cli::render_images(command, bands);
}
