// FNV-1a: a stable 64-bit hash, the same on every machine and build (merged shards must match one
// run; a resumed run must recognise its inputs). Not for security.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace geotruth {

class Fnv1a {
 public:
  void add(std::string_view bytes) {
    for (const unsigned char c : bytes) {
      hash_ ^= c;
      hash_ *= 1099511628211ULL;
    }
  }
  std::uint64_t value() const { return hash_; }
  std::string hex() const {
    char buffer[17];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash_));
    return buffer;
  }

 private:
  std::uint64_t hash_ = 1469598103934665603ULL;
};

inline std::string fnv1a(std::string_view text) {
  Fnv1a h;
  h.add(text);
  return h.hex();
}

}  // namespace geotruth
