#include <geotruth/input.hpp>
#include <geotruth/work_limit.hpp>

#include <time.h>

#include <cstdio>
#include <string>

namespace geotruth {
namespace {
thread_local WorkBudget* current = nullptr;
constexpr std::uint64_t kClockEvery = 1 << 12;

double thread_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}
}  // namespace

WorkBudget::WorkBudget(const WorkLimits& limits)
    : limits_(limits), cpu_deadline_(thread_cpu_seconds() + limits.max_seconds), outer_(current) {
  current = this;
}

WorkBudget::~WorkBudget() {
  current = outer_;
}

void charge_work(std::uint64_t units) {
  WorkBudget* budget = current;
  if (!budget) return;
  budget->spent_ += units;
  if (budget->spent_ > budget->limits_.max_pairs)
    throw InputError{"", "work limit: more than " + std::to_string(budget->limits_.max_pairs) +
                             " pairs of elements examined for this scene (--max-pairs)"};
  if (budget->spent_ >= budget->next_clock_check_) {
    budget->next_clock_check_ = budget->spent_ + kClockEvery;
    if (thread_cpu_seconds() > budget->cpu_deadline_) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", budget->limits_.max_seconds);
      throw InputError{"", std::string("work limit: this scene took more than ") + seconds + " CPU-s (--max-seconds)"};
    }
  }
}

}  // namespace geotruth
