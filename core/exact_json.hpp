// Writing exact rationals into nlohmann JSON without losing a bit.
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/findings.hpp>
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

/// A finding as every output writes it: {kind, severity, elements, slack_px?, detail}.
ordered_json finding_json(const Finding& finding);

/// The band in force as every output writes it: {eps_num_px, eps_vis_px, source}; with
/// `reason`, also the sentence saying why.
ordered_json bands_json(const Bands& bands, bool reason = false);

/// An auto band's residual evidence: count, quantiles and the non-empty histogram bins.
ordered_json evidence_json(const BandEvidence& evidence);

/// The normalized scene (see write_scene) as a JSON tree, for embedding in output records.
ordered_json scene_json(const Scene& scene);

}  // namespace geotruth
