// Owner of the items a TBB pipeline passes between its stages, and how many records each carries.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace geotruth {

/// Items in flight between the stages of a tbb::parallel_pipeline, passed as raw pointers. TBB
/// drops the items in flight when a stage throws (a full disk, an unreadable input), so the pool,
/// not the pipeline's tokens, owns them: whatever is not released is freed with the pool.
template <typename Item>
class WorkPool {
 public:
  Item* acquire() {
    auto item = std::make_unique<Item>();
    Item* raw = item.get();
    const std::lock_guard lock(mutex_);
    live_.emplace(raw, std::move(item));
    return raw;
  }
  void release(Item* item) {
    const std::lock_guard lock(mutex_);
    live_.erase(item);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<Item*, std::unique_ptr<Item>> live_;
};

/// How many records a pipeline's work item carries: about `target` of work, so that handing an
/// item between threads (a TBB token through the serial stages, its memory read and freed by the
/// writer's thread) costs a small share of it, while the last items still spread over the threads.
/// Measured on a 2-core VM (docs/speed.md, 2026-12-03): with 2 ms items a two-thread audit spent
/// 7-9 % more CPU than one thread, with 16 ms items 4-5 %; the last item costs at most 16 ms of
/// one idle thread.
/// The first item carries one record; the parallel stage reports what each took (took()), and
/// the estimate of a record's time follows them. Thread-safe; which records share an item changes
/// nothing in the outputs, which the writer takes in input order.
class BatchSizer {
 public:
  explicit BatchSizer(std::chrono::microseconds target = std::chrono::microseconds(16000), std::size_t most = 1024)
      : target_ns_(std::chrono::duration<double, std::nano>(target).count()), most_(most) {}
  std::size_t next() const {
    const double per_record = ns_per_record_.load(std::memory_order_relaxed);
    if (per_record <= 0) return 1;
    return std::clamp<std::size_t>(static_cast<std::size_t>(target_ns_ / per_record), 1, most_);
  }
  void took(std::size_t records, std::chrono::steady_clock::duration time) {
    if (records == 0) return;
    const double per_record = std::chrono::duration<double, std::nano>(time).count() / records;
    const double before = ns_per_record_.load(std::memory_order_relaxed);
    ns_per_record_.store(before <= 0 ? per_record : 0.75 * before + 0.25 * per_record, std::memory_order_relaxed);
  }

 private:
  double target_ns_;
  std::size_t most_;
  std::atomic<double> ns_per_record_{0};
};

}  // namespace geotruth
