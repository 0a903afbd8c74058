// The band options of the command line (the band itself: src/batch/run_bands.cpp).
#include "cli/common.hpp"

namespace geotruth::cli {

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

RunBands resolve_bands(const BandOptions& options, InputOptions& in, std::ostream& log) {
  return geotruth::resolve_bands(options, in.inputs, in.from, in.limits, log, in.categories);
}

}  // namespace geotruth::cli
