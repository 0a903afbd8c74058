// One sharding for every batch subcommand: `--shard i/n` keeps the records at positions
// i, i+n, i+2n, … (0-based i over 1-based ordinals), so n runs together cover every record once and
// `merge` can put their outputs back in input order.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace geotruth {

struct Shard {
  std::size_t index = 0, count = 1;
  /// Whether the record at 1-based `ordinal` belongs to this shard.
  bool keeps(std::size_t ordinal) const { return (ordinal - 1) % count == index; }
  bool whole() const { return count == 1; }
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

/// Reads "i/n" with 0 ≤ i < n (decimal digits only); nullopt when the text is anything else.
std::optional<Shard> parse_shard(std::string_view text);

}  // namespace geotruth
