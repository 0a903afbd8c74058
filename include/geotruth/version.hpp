// Which geotruth made an output: its version and the commit it was built from.
#pragma once

#include <string>

namespace geotruth {

/// The project's version (CMakeLists.txt), e.g. "0.1.0".
const char* version();

/// The commit the build was made from (cmake/commit.cmake): 40 hex digits, with "+modified" when
/// tracked files differed from it; "" when the sources were not a git checkout (a tarball not made
/// by `git archive`, say) and GEOTRUTH_COMMIT was not set.
const char* build_commit();

/// One line for --version and logs: "0.1.0 (commit 590fd2c…)", or "0.1.0 (commit unknown: not built
/// from a git checkout)".
std::string version_text();

}  // namespace geotruth
