// A per-scene work budget: a runaway scene (thousands of nearly concurrent lines, say) becomes an
// error record naming the limit, not minutes of CPU and gigabytes of memory.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace geotruth {

// The thread's CPU time, not the wall clock: a scene's verdict must not depend on how loaded the
// machine is (shards merged must equal one process). A sanitizer build runs 10-20 times slower,
// so its default is scaled to keep the same scenes within it.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr double kDefaultMaxSeconds = 100;
#else
inline constexpr double kDefaultMaxSeconds = 10;
#endif

struct WorkLimits {
  std::uint64_t max_pairs = 20'000'000;      ///< pairs (or triples) of elements examined for one scene
  double max_seconds = kDefaultMaxSeconds;   ///< CPU seconds of the thread working on one scene
  std::size_t max_output_bytes = 64u << 20;  ///< one output record
};

/// Sets the budget of the scene this thread works on, for the object's lifetime. Work outside
/// any budget (library callers) is unlimited.
class WorkBudget {
 public:
  explicit WorkBudget(const WorkLimits& limits);
  ~WorkBudget();
  WorkBudget(const WorkBudget&) = delete;
  WorkBudget& operator=(const WorkBudget&) = delete;

 private:
  friend void charge_work(std::uint64_t);
  friend void charge_time(std::uint64_t);
  void check_clock(std::uint64_t units);
  WorkLimits limits_;
  std::uint64_t spent_ = 0;                     ///< pairs examined
  std::uint64_t steps_ = 0, next_clock_check_;  ///< every unit charged, pairs or not: when to read the clocks
  // The clocks start at the first check: a scene that never reaches it costs no clock reading.
  bool clock_started_ = false;
  double cpu_start_ = 0;  ///< the thread's CPU clock, in seconds, at the first check
  /// Before this wall-clock time the thread cannot have spent its CPU seconds (CPU time never
  /// runs faster than the wall clock), so the costly CPU clock is not read.
  std::chrono::steady_clock::time_point cpu_check_at_;
  WorkBudget* outer_;
};

/// Charges `units` pairs of elements examined to this thread's budget. Throws InputError
/// (pointer "", a message naming the limit and its option) when the budget is spent or the
/// scene's CPU time (this thread's) is up. Called in the loops that examine pairs: cheap (a
/// counter; every 4,096 units the wall clock, and the thread's CPU clock, a system call, only
/// once the wall clock says the limit could have been reached).
void charge_work(std::uint64_t units = 1);

/// Charges `units` steps of work that examine no pairs of elements (reading a picture: a letter's
/// drawing placed, two strokes compared, a chord between two dots followed) to this thread's
/// budget: only the scene's CPU time is checked, as charge_work checks it, and --max-pairs is left
/// to the pairs. Throws InputError like charge_work when the time is up. A step should cost well
/// under a millisecond (the clocks are read every 4,096 units at most).
void charge_time(std::uint64_t units = 1);

}  // namespace geotruth
