// The band in force for a run over some inputs: fixed by the caller, the dataset's documented
// default, or `auto`, estimated from the residuals of the dataset's own declared facts.
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/input.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace geotruth {

/// What the caller asks for (the command line's --bands, --eps-num, --eps-vis, --render-size).
struct BandRequest {
  std::string mode;                        ///< "" (the dataset's choice), "auto" or "default"
  std::optional<double> eps_num, eps_vis;  ///< a fixed band (source "option")
  double render_size = 0;
  /// Whether the run judges a scene read from a picture at the picture's own band (count, analyze,
  /// audit: picture_bands) rather than the run's (crosscheck): the run's band line says which.
  bool pictures_own_band = true;
};

/// The band of a run, with the residual evidence of an `auto` band.
struct RunBands {
  Bands bands;
  std::optional<BandEvidence> evidence;
};

/// The dataset a native scene was imported from: the "dataset" its importer wrote under "extra",
/// else "".
std::string dataset_of(const Scene& scene);

/// The band in force for a run over `inputs` in the source format named `from` (AI2D: with its
/// `categories` file): eps_num/eps_vis
/// when given; else `auto` (the default for hand-annotated datasets) reads the inputs once for
/// the residuals of their declared facts; else the dataset's documented default. Says which on
/// `log`. For `auto`, a "-" input is replaced by a temporary copy of stdin (the data is read
/// twice). Throws std::invalid_argument for an inconsistent band.
RunBands resolve_bands(const BandRequest& request, std::vector<std::string>& inputs, const std::string& from,
                       const Limits& limits, std::ostream& log, const std::string& categories = "");

}  // namespace geotruth
