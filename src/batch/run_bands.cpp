// The band in force for a run: the caller's, the dataset's documented default, or `auto`
// estimated from the residuals of the dataset's own declared facts.
#include "batch/run_bands.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <geotruth/incidence.hpp>
#include <iostream>
#include <stdexcept>

#include "batch/batch.hpp"

namespace geotruth {

namespace fs = std::filesystem;

std::string dataset_of(const Scene& scene) {
  if (scene.extra.empty()) return "";
  const auto extra = ordered_json::parse(scene.extra, nullptr, false);
  if (extra.is_object() && extra.contains("dataset") && extra["dataset"].is_string()) return extra["dataset"];
  return "";
}

namespace {

// The dataset the inputs come from: the import format, or for native scenes the "dataset" their
// importer wrote under "extra" (read from the first scene of the first file; standard input is
// not peeked at, so that it still streams: give --bands there).
std::string dataset_of(const std::vector<std::string>& inputs, const std::string& from, const Limits& limits) {
  if (from != "native") return from;
  if (inputs.empty() || inputs.front() == "-") return "";
  RecordStream stream({inputs.front()}, SourceFormat::native, limits);
  StreamItem item;
  if (!stream.next(item)) return "";
  const SceneOrError scene = scene_of(item, limits);
  const Scene* first = std::get_if<Scene>(&scene);
  return first ? dataset_of(*first) : "";
}

// Standard input can be read once; `auto` reads the data twice, so stdin is copied to a
// temporary file first (removed at exit).
void spool_stdin(std::vector<std::string>& inputs) {
  for (auto& input : inputs) {
    if (input != "-") continue;
    static std::string spooled;
    if (spooled.empty()) {
      spooled = (fs::temp_directory_path() / ("geotruth-stdin-" + std::to_string(::getpid()))).string();
      std::ofstream out(spooled, std::ios::binary);
      out << std::cin.rdbuf();
      std::atexit([] { std::remove(spooled.c_str()); });
    }
    input = spooled;
  }
}

}  // namespace

RunBands resolve_bands(const BandRequest& options, std::vector<std::string>& inputs, const std::string& from,
                       const Limits& limits, std::ostream& log, const std::string& categories) {
  const std::optional<SourceFormat> format = source_format_named(from);
  if (!format) throw std::invalid_argument("unknown source format \"" + from + "\"");
  RunBands run;
  const std::string dataset = dataset_of(inputs, from, limits);
  Bands floor = dataset_bands(dataset);
  floor.render_size_px = options.render_size;
  const bool fixed = options.eps_num || options.eps_vis;
  const std::string mode = !options.mode.empty() ? options.mode : hand_annotated(dataset) ? "auto" : "default";
  if (fixed) {
    run.bands = floor;
    run.bands.eps_num_px = options.eps_num.value_or(floor.eps_num_px);
    run.bands.eps_vis_px = options.eps_vis.value_or(floor.eps_vis_px);
    run.bands.source = "option";
    run.bands.reason = "--eps-num/--eps-vis";
    if (run.bands.eps_num_px > run.bands.eps_vis_px)
      throw std::invalid_argument("--eps-num (" + std::to_string(run.bands.eps_num_px) +
                                  ") must not exceed --eps-vis (" + std::to_string(run.bands.eps_vis_px) + ")");
  } else if (mode == "auto") {
    spool_stdin(inputs);
    BandEstimator estimator(floor);
    RecordStream stream(inputs, ImportSource(*format, categories), limits);
    StreamItem item;
    while (stream.next(item)) {
      const SceneOrError scene = take_scene(item, limits);
      if (const Scene* s = std::get_if<Scene>(&scene)) estimator.add(*s);
    }
    run.bands = estimator.estimate();
    run.evidence = estimator.evidence();
  } else {
    run.bands = floor;
  }
  char line[160];
  if (*format == SourceFormat::picture && !fixed && options.pictures_own_band) {
    // picture_bands: each scene read from a picture is judged at the band its strokes set.
    log << "bands: each picture's own, from its strokes' width and wobble (every record's \"bands\" gives it)\n";
    return run;
  }
  std::snprintf(line, sizeof line, "bands: eps_num %.2f px, eps_vis %.2f px (%s)", run.bands.eps_num_px,
                run.bands.eps_vis_px, run.bands.source.c_str());
  log << line << ": " << run.bands.reason << '\n';
  if (run.bands.gap_num_px > 0) {
    std::snprintf(line, sizeof line, "arrow gaps: detached beyond %.2f px, clearly from %.2f px", run.bands.gap_num_px,
                  run.bands.gap_vis_px);
    log << line << ": " << run.bands.gap_reason << '\n';
  }
  return run;
}

}  // namespace geotruth
