// The per-scene work budget: pairs examined and the thread's CPU time, never the wall clock, so a
// scene's verdict does not depend on how loaded the machine is.
#include <geotruth/input.hpp>
#include <geotruth/work_limit.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

namespace geotruth {
namespace {

// Charges units until the budget throws, or gives up after `most` units.
std::string charge_until_refused(std::uint64_t most) {
  for (std::uint64_t k = 0; k < most; ++k) {
    try {
      charge_work();
    } catch (const InputError& e) {
      return e.message;
    }
  }
  return "";
}

TEST(WorkLimit, PairsPastTheLimitAreRefusedAtTheFirstUnitOver) {
  WorkLimits limits;
  limits.max_pairs = 1000;
  const WorkBudget budget(limits);
  charge_work(1000);  // exactly the limit: allowed
  EXPECT_THROW(charge_work(), InputError);
}

TEST(WorkLimit, BusyWorkPastTheCpuTimeIsRefusedNamingTheOption) {
  WorkLimits limits;
  limits.max_seconds = 0.05;
  limits.max_pairs = std::uint64_t{1} << 50;  // only the time can end it
  const WorkBudget budget(limits);
  const std::string message = charge_until_refused(std::uint64_t{1} << 40);
  EXPECT_EQ(message, "work limit: this scene took more than 0.05 CPU-s (--max-seconds)");
}

// Work that examines no pairs (a picture read) spends time, never --max-pairs.
TEST(WorkLimit, TimeChargedIsNoPairs) {
  WorkLimits limits;
  limits.max_pairs = 10;
  const WorkBudget budget(limits);
  EXPECT_NO_THROW(charge_time(1'000'000));
  EXPECT_NO_THROW(charge_work(10));
  EXPECT_THROW(charge_work(), InputError);
}

TEST(WorkLimit, BusyTimeChargedPastTheCpuTimeIsRefusedNamingTheOption) {
  WorkLimits limits;
  limits.max_seconds = 0.05;
  const WorkBudget budget(limits);
  std::string message;
  for (std::uint64_t k = 0; k < (std::uint64_t{1} << 40) && message.empty(); ++k) {
    try {
      charge_time();
    } catch (const InputError& e) {
      message = e.message;
    }
  }
  EXPECT_EQ(message, "work limit: this scene took more than 0.05 CPU-s (--max-seconds)");
}

// A thread that waits (a loaded machine, a slow disk) spends no CPU: the same scene stays within.
TEST(WorkLimit, WaitingDoesNotSpendTheBudget) {
  WorkLimits limits;
  limits.max_seconds = 0.05;
  const WorkBudget budget(limits);
  charge_work(1 << 12);  // the first check: the clocks start
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_NO_THROW(charge_work(1 << 12));  // 0.2 s later on the wall clock, not in CPU time
}

TEST(WorkLimit, AnInnerBudgetGivesBackTheOuterOne) {
  WorkLimits outer_limits;
  outer_limits.max_pairs = 10;
  const WorkBudget outer(outer_limits);
  {
    WorkLimits inner_limits;
    inner_limits.max_pairs = 1'000'000;
    const WorkBudget inner(inner_limits);
    EXPECT_NO_THROW(charge_work(100));
  }
  EXPECT_THROW(charge_work(11), InputError);
}

TEST(WorkLimit, WorkOutsideAnyBudgetIsUnlimited) {
  EXPECT_NO_THROW(charge_work(std::uint64_t{1} << 62));
}

}  // namespace
}  // namespace geotruth
