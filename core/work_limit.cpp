#include <geotruth/input.hpp>
#include <geotruth/work_limit.hpp>

#include <time.h>

#include <chrono>
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

WorkBudget::WorkBudget(const WorkLimits& limits) : limits_(limits), next_clock_check_(kClockEvery), outer_(current) {
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
  budget->check_clock(units);
}

void charge_time(std::uint64_t units) {
  if (WorkBudget* budget = current) budget->check_clock(units);
}

void WorkBudget::check_clock(std::uint64_t units) {
  steps_ += units;
  if (steps_ < next_clock_check_) return;
  next_clock_check_ = steps_ + kClockEvery;
  const auto now = std::chrono::steady_clock::now();
  const auto seconds = [](double s) {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
  };
  if (!clock_started_) {
    clock_started_ = true;
    cpu_start_ = thread_cpu_seconds();
    cpu_check_at_ = now + seconds(limits_.max_seconds);
    return;
  }
  if (now < cpu_check_at_) return;
  const double spent = thread_cpu_seconds() - cpu_start_;
  if (spent > limits_.max_seconds) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", limits_.max_seconds);
    throw InputError{"", std::string("work limit: this scene took more than ") + limit + " CPU-s (--max-seconds)"};
  }
  cpu_check_at_ = now + seconds(limits_.max_seconds - spent);
}

}  // namespace geotruth
