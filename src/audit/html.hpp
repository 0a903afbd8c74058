// Text for HTML and SVG pages written by hand (the error report, the score page).
#pragma once

#include <string>
#include <string_view>

namespace geotruth {

/// `text` with &, <, > and " replaced by their entities: safe inside elements and quoted attributes.
std::string xml_escape(std::string_view text);

}  // namespace geotruth
