#include <geotruth/version.hpp>

#include "core/build_json.hpp"

namespace geotruth {
namespace detail {
extern const char* const kBuildCommit;  // generated/commit.cpp, rewritten when the commit changes
}

const char* version() {
  return GEOTRUTH_VERSION;
}

const char* build_commit() {
  return detail::kBuildCommit;
}

std::string version_text() {
  const std::string commit = build_commit();
  return std::string(version()) +
         (commit.empty() ? " (commit unknown: not built from a git checkout)" : " (commit " + commit + ")");
}

ordered_json build_json() {
  const std::string commit = build_commit();
  return {{"version", version()}, {"commit", commit.empty() ? ordered_json() : ordered_json(commit)}};
}

}  // namespace geotruth
