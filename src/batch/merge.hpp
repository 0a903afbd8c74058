// merge: the outputs of the shards of one run, of any batch subcommand, joined into what one run
// over all records writes, byte for byte. Each shard's run manifest (batch/run_output.hpp) says
// what it is: the subcommand, the shard, the inputs' hash and options, its record streams (and how
// their lines are ordered), its picture folders and the files every shard has the same.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "batch/run_output.hpp"

namespace geotruth {

struct MergeTargets {
  std::string output;  ///< the merged home: a directory or a file, as the shards' homes are
  /// Where the outputs go that the shards' runs placed by an option of their own, by that
  /// option's name without dashes: "records" (render --records), "overlay" (crosscheck --overlay).
  std::map<std::string, std::string> options;
};

struct MergeResult {
  std::string subcommand;
  ordered_json options;  ///< the run's options, as its manifests have them
  std::size_t shards = 0, ordinals = 0, pictures = 0;
  RunTotals totals;
};

/// Joins the shards named by `shards` (their homes: directories or files, in any order; each
/// with its manifest) into `targets`. `finish` runs once the streams, pictures and common files
/// are in place, before the merged manifest is written (audit: the summary and reports). Throws
/// std::runtime_error naming the shard when they are not the complete shards of one finished run.
MergeResult merge_runs(const std::vector<std::string>& shards, const MergeTargets& targets,
                       const std::function<void(const MergeResult&)>& finish);

}  // namespace geotruth
