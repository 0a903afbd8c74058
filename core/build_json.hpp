// Which build made an output, as JSON (geotruth/version.hpp).
#pragma once

#include "core/exact_json.hpp"

namespace geotruth {

/// As summary.json, bands.json and every run signature record it: {"version", "commit"} (commit
/// null when unknown).
ordered_json build_json();

}  // namespace geotruth
