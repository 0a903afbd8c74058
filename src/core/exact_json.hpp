// Writing exact rationals into nlohmann JSON without losing a bit.
#pragma once

#include <geotruth/scene.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

namespace geotruth {

using ordered_json = nlohmann::ordered_json;

/// A JSON number when reading its printed text gives back exactly `value`, else the exact
/// string form ("1/3", or a long decimal) that read_scene accepts.
ordered_json exact_number(const Rational& value);
ordered_json exact_pair(const Vec2& v);

/// One compact output line. Invalid UTF-8 (quoted from bad input) becomes U+FFFD instead of throwing.
inline std::string to_line(const ordered_json& record) {
  return record.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

/// A slack in pixels as output records print it: three decimals.
inline double rounded_px(double px) {
  return std::round(px * 1000) / 1000;
}

/// The normalized scene (see write_scene) as a JSON tree, for embedding in output records.
ordered_json scene_json(const Scene& scene);

}  // namespace geotruth
