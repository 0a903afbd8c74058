// The generators' random numbers: the same stream on every machine and standard library.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace geotruth::generate {

// std::mt19937_64 is specified bit for bit by the standard; only its raw output is used (no
// std::uniform_*_distribution, whose algorithms differ between libraries), so a (seed, index,
// attempt) gives the same numbers everywhere.
class Random {
 public:
  Random(std::uint64_t seed, std::uint64_t index, std::uint64_t attempt = 0)
      : engine_(seed * 0x9E3779B97F4A7C15ULL + index + attempt * 0xD1B54A32D192ED03ULL) {}
  /// A whole number in [0, n), n > 0.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(engine_() % n); }
  /// A whole number in [lo, hi].
  long between(long lo, long hi) { return lo + static_cast<long>(below(static_cast<std::size_t>(hi - lo + 1))); }
  /// A double in [0, 1) from the top 53 bits.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  bool chance(double p) { return unit() < p; }
  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
  }
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace geotruth::generate
