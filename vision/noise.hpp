// Deterministic randomness and the degradations the renderer can apply.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>

#include "vision/figure.hpp"

namespace geotruth::vision {

/// SplitMix64: the same stream on every platform (std's distributions are not specified bit for bit).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  ///< [0, 1)
  double normal() {                                                           ///< Box–Muller
    const double u = 1 - uniform(), v = uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * v);
  }

 private:
  std::uint64_t state_;
};

/// FNV-1a: a seed from a scene id that does not depend on the standard library.
inline std::uint64_t stable_hash(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

/// Applies options.noise to a freshly drawn image, in this order: white disturbance strokes,
/// Perlin noise inside closed shapes, salt-and-pepper on outline pixels, Gaussian noise.
void apply_noise(Image& image, const Figure& figure, const RenderOptions& options, Random& random);

}  // namespace geotruth::vision
