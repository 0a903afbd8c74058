// A length in pixels as reported in findings' details ("2.15 px").
#pragma once

#include <cstdio>
#include <string>

namespace geotruth {

/// `px` with `decimals` digits after the point and the unit: "2.15 px".
inline std::string px_text(double px, int decimals = 2) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f px", decimals, px);
  return buffer;
}

}  // namespace geotruth
