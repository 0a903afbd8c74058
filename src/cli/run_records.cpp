// run_records: a light subcommand's batch (analyze, count, import). Compiled into both executables:
// in geotruth-parallel (GEOTRUTH_PARALLEL) pictures are read on every core, as the other batch
// subcommands spread their work; geotruth reads no pictures (it runs geotruth-parallel for them).
#include "cli/common.hpp"

namespace geotruth::cli {

BatchStats run_records(const InputOptions& in, const SceneHandler& handler, std::ostream& out,
                       std::ostream& diagnostics, const BatchPlan& plan) {
#ifdef GEOTRUTH_PARALLEL
  if (in.format().format == SourceFormat::picture)
    // The reading (take_scene, on the workers) is the heavy part; the handler keeps the input order.
    return run_batch_parallel(
        in.inputs, in.format(), in.limits, in.threads,
        [&](const Scene& scene, const RawRecord& record) -> RecordStep {
          return [&handler, scene, record] { return handler(scene, record); };
        },
        out, diagnostics, plan);
#endif
  return run_batch(in.inputs, in.format(), in.limits, handler, out, diagnostics, plan);
}

}  // namespace geotruth::cli
