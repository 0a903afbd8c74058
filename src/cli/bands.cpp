// The band in force for a run: options, the dataset's documented default, or `auto` estimated
// from the residuals of the dataset's own declared facts.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <geotruth/incidence.hpp>
#include <iostream>

#include "cli/common.hpp"

namespace geotruth::cli {

namespace fs = std::filesystem;

void BandOptions::add_to(CLI::App& app) {
  app.add_option("--bands", mode,
                 "decision band: auto (estimated from the residuals of the dataset's declared facts; the default "
                 "for hand-annotated datasets) or default (the dataset's documented band)")
      ->check(CLI::IsMember({"auto", "default"}));
  app.add_option("--eps-num", eps_num, "a fact holds at slack ≤ this many pixels (fixes the band)")
      ->check(CLI::Range(0.0, 1e4));
  app.add_option("--eps-vis", eps_vis, "slack below this many pixels is too close to call (fixes the band)")
      ->check(CLI::Range(0.0, 1e4));
  app.add_option("--render-size", render_size,
                 "pixels of the frame's longer side in the rendered image; 0: frame units are pixels "
                 "(frames under 64 units are drawn at 640)")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
}

namespace {

// The dataset the inputs come from: the import format, or for native scenes the "dataset" their
// importer wrote under "extra" (read from the first scene of the first file; standard input is
// not peeked at, so that it still streams: give --bands there).
std::string dataset_of(const InputOptions& in) {
  if (in.from != "native") return in.from;
  if (in.inputs.empty() || in.inputs.front() == "-") return "";
  RecordStream stream({in.inputs.front()}, SourceFormat::native, in.limits);
  StreamItem item;
  if (!stream.next(item)) return "";
  const SceneOrError scene = scene_of(item, in.limits);
  if (const Scene* s = std::get_if<Scene>(&scene); s && !s->extra.empty()) {
    const auto extra = ordered_json::parse(s->extra, nullptr, false);
    if (extra.is_object() && extra.contains("dataset") && extra["dataset"].is_string()) return extra["dataset"];
  }
  return "";
}

// Standard input can be read once; `auto` reads the data twice, so stdin is copied to a
// temporary file first (removed at exit).
void spool_stdin(InputOptions& in) {
  for (auto& input : in.inputs) {
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

RunBands resolve_bands(const BandOptions& options, InputOptions& in, std::ostream& log) {
  RunBands run;
  const std::string dataset = dataset_of(in);
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
    spool_stdin(in);
    BandEvidence evidence, arrow_gaps;
    RecordStream stream(in.inputs, in.format(), in.limits);
    StreamItem item;
    while (stream.next(item)) {
      const SceneOrError scene = scene_of(item, in.limits);
      if (const Scene* s = std::get_if<Scene>(&scene)) add_declared_residuals(*s, floor, evidence, &arrow_gaps);
    }
    run.bands = estimate_bands(evidence, floor);
    estimate_gap_band(arrow_gaps, run.bands);
    run.evidence = std::move(evidence);
  } else {
    run.bands = floor;
  }
  char line[160];
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

}  // namespace geotruth::cli
