// Owner of the items a TBB pipeline passes between its stages.
#pragma once

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

}  // namespace geotruth
