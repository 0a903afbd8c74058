// run_batch_parallel: the batch runner on every core (TBB). Compiled into geotruth-parallel, apart
// from run_batch, so that geotruth itself links no TBB.
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_pipeline.h>

#include <optional>

#include "batch/batch.hpp"
#include "batch/batch_writer.hpp"
#include "batch/work_pool.hpp"

namespace geotruth {

BatchStats run_batch_parallel(const std::vector<std::string>& inputs, const ImportSource& source, const Limits& limits,
                              int threads, const ParallelSceneHandler& handler, std::ostream& out,
                              std::ostream& diagnostics, const BatchPlan& plan) {
  struct Work {
    StreamItem item;
    std::optional<InputError> error;
    RecordStep step;
  };
  std::optional<tbb::global_control> parallelism;
  if (threads > 0) parallelism.emplace(tbb::global_control::max_allowed_parallelism, threads);
  BatchWriter writer(limits, out, diagnostics);
  RecordStream stream(inputs, source, limits);
  WorkPool<Work> pool;
  std::size_t records = 0;
  tbb::parallel_pipeline(
      16, tbb::make_filter<void, Work*>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control& control) -> Work* {
            Work* work = pool.acquire();
            while (stream.next(work->item))
              if (plan.takes(work->item.ordinal)) return ++records, work;
            pool.release(work);
            control.stop();
            return nullptr;
          }) & tbb::make_filter<Work*, Work*>(tbb::filter_mode::parallel, [&](Work* work) {
            try {
              const SceneOrError scene = take_scene(work->item, limits);
              if (auto* error = std::get_if<InputError>(&scene)) {
                work->error = *error;
              } else {
                const WorkBudget budget(limits.work);
                work->step = handler(std::get<Scene>(scene), work->item.raw);
              }
            } catch (const InputError& e) {
              work->error = e;
            }
            return work;
          }) & tbb::make_filter<Work*, void>(tbb::filter_mode::serial_in_order, [&](Work* work) {
            const bool written =
                work->error ? writer.error(work->item.raw, *work->error) : writer.write(work->item.raw, work->step);
            if (plan.written) plan.written(work->item.ordinal, !written);
            pool.release(work);
          }));
  return writer.finish(records, stream.ordinals());
}

}  // namespace geotruth
