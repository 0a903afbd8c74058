// Synthetic items with known answers.
#pragma once

#include <cstdint>
#include <geotruth/scene.hpp>
#include <string>
#include <vector>

namespace geotruth {

struct DiagramOptions {
  bool grid = false;  ///< place entities in the cells of a 3×3 grid (and ask row/column questions)
};

/// The word list shipped in data/words.txt (compiled in).
const std::vector<std::string>& diagram_words();

/// Item `index` of the stream for `seed`: 2–9 entities named from `words`, 1..max arrows, no arrow
/// through or close to another entity and no two arrows crossing, and questions of every diagram
/// kind that has a unique answer here, each with four options. Every answer is worked out from the
/// construction itself. Deterministic: the same (seed, index) gives the same scene on any machine.
Scene generate_diagram(std::uint64_t seed, std::uint64_t index, const std::vector<std::string>& words,
                       const DiagramOptions& options = {});

}  // namespace geotruth
