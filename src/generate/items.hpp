// The pieces of generate_item shared by the families: where the right answer goes, and the item
// loop's bookkeeping.
#pragma once

#include <geotruth/generate.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace geotruth::generate {

/// The position (0–3) of the right option of the `occurrence`-th question of `kind` in item
/// `index` (1-based). Items come in blocks of four consecutive ordinals; within a block each kind's
/// right answers take the four positions once each, in an order drawn from (seed, block, kind,
/// occurrence): letters are balanced per kind and not predictable from the ordinal.
std::size_t answer_position(std::uint64_t seed, std::uint64_t index, const std::string& kind, std::size_t occurrence);

/// `values` with values[right] moved to `position`, the others in their order.
std::vector<std::string> place_answer(const std::vector<std::string>& values, std::size_t right, std::size_t position);

/// A candidate's last test, once it is certified: "" when `picture` (if any) passes its picture.
std::string picture_problem(const CandidateCheck& picture, const Scene& scene);

/// The item when no candidate passed in options.max_attempts: the last one's reason counted, and
/// the item an error.
GeneratedItem without_candidate(GeneratedItem item, const GenerateOptions& options);

GeneratedItem gepbench_item(const GenerateOptions& options, std::uint64_t seed, std::uint64_t index,
                            const CandidateCheck& picture);
GeneratedItem tangram_item(const GenerateOptions& options, std::uint64_t seed, std::uint64_t index,
                           const CandidateCheck& picture);

}  // namespace geotruth::generate
