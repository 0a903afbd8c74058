// Whole-dataset audits: streaming, parallel, resumable, shardable (batch/run_output.hpp: one resume
// and one sharding for every batch subcommand; batch/merge.hpp joins the shards).
#pragma once

#include <geotruth/audit.hpp>
#include <geotruth/bands.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "batch/batch.hpp"
#include "batch/shard.hpp"

namespace geotruth {

struct AuditOptions {
  std::vector<std::string> inputs;
  ImportSource format = SourceFormat::native;
  Limits limits;
  Bands bands;                           ///< the band in force (written to bands.json and the summary)
  std::optional<BandEvidence> evidence;  ///< what an `auto` band was estimated from
  std::string out_dir;
  std::string image_dir;  ///< the dataset's pictures, drawn under the error report's marks
  PictureCheck pictures;  ///< when set, every scene is judged against its picture too
  /// When set, scenes without a description are answered from their picture read; with
  /// `truth_from_picture` every scene is (its description ignored, its questions kept).
  PictureReader read_pictures;
  ReadingOverlay reading_overlays;  ///< drawn for each scene read from its picture that is flagged
  bool truth_from_picture = false;
  bool resume = false;
  Shard shard;                         ///< the records this run audits (all by default)
  int threads = 0;                     ///< 0: all cores
  std::size_t checkpoint_every = 500;  ///< records between checkpoints
  double checkpoint_seconds = 1;       ///< and at least this many seconds (0: by records alone)
  bool progress = false;               ///< a progress bar on stderr
};

struct AuditTotals {
  std::size_t records = 0, errors = 0;
};

/// One input record's audit as the output files have it: its verdicts.jsonl lines (one per
/// question), its scenes.jsonl line (the scene's findings, or the error record of an unreadable
/// record or one past its work limit) and, when a verdict is not ok or a finding is not a note,
/// its flagged.jsonl line.
struct AuditedRecord {
  std::vector<ordered_json> verdicts;
  ordered_json scene;
  std::optional<ordered_json> flagged;
  /// The picture's overlay (PNG): the picture check's when it found something; for a scene read from
  /// its picture with an answer that is not ok, the reading drawn over it.
  std::vector<std::uint8_t> overlay;
  bool error = false;
};
AuditedRecord audit_record(const StreamItem& item, const Bands& bands, const Limits& limits,
                           const PictureCheck* pictures = nullptr, const PictureReader* read_pictures = nullptr,
                           bool truth_from_picture = false, const ReadingOverlay* reading_overlays = nullptr);

/// The scene whose truths are computed: `scene` itself, or (with a reader, when `truth_from_picture`
/// or the scene has no description) the scene read from its picture with its id and questions.
SceneOrError scene_for_truth(const Scene& scene, const std::string& source_key, const PictureReader* read_pictures,
                             bool truth_from_picture);

/// Audits every record into out_dir: verdicts.jsonl, scenes.jsonl and flagged.jsonl (written in
/// input order through temporary files and checkpoints), then summary.json and report.html.
/// With `resume`, continues from the last checkpoint of an interrupted run with the same inputs.
/// The totals count every record of the run, also those written before an interruption.
AuditTotals run_audit(const AuditOptions& options, std::ostream& log);

/// Writes summary.json, report.html and the error report (conflicts.jsonl, conflicts.html,
/// diagrams/*.svg; over the pictures in `image_dir` when given) from the jsonl files of `dir`
/// (deterministic).
void finalize_audit(const std::string& dir, const std::string& image_dir = "");

/// A human-readable summary table of `dir`'s summary.json.
void print_summary(const std::string& dir, std::ostream& out);

}  // namespace geotruth
