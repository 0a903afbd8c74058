// Where the tests find their files (tests/fixtures, data/, the fuzz corpus). The paths are in one
// generated source (test_paths.cpp.in), not in the compile flags: a copy of the project elsewhere
// compiles every other test source to the same object (and ccache finds it).
#pragma once

namespace geotruth::test_paths {
extern const char* const kFixtures;
extern const char* const kData;
extern const char* const kFuzzCorpus;
}  // namespace geotruth::test_paths

#define GEOTRUTH_FIXTURES ::geotruth::test_paths::kFixtures
#define GEOTRUTH_DATA ::geotruth::test_paths::kData
#define GEOTRUTH_FUZZ_CORPUS ::geotruth::test_paths::kFuzzCorpus
