#include "vision/noise.hpp"

#include <algorithm>
#include <array>
#include <numbers>
#include <numeric>

namespace geotruth::vision {
namespace {

std::uint8_t clamp_byte(double v) {
  return static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L));
}

void add_gray(Image& image, std::size_t pixel, double delta) {
  for (int c = 0; c < 3; ++c) image.rgb[3 * pixel + c] = clamp_byte(image.rgb[3 * pixel + c] + delta);
}

// Ken Perlin's improved gradient noise in 2-D, values in about [−1, 1].
class Perlin {
 public:
  explicit Perlin(Random& random) {
    std::array<int, 256> p;
    std::iota(p.begin(), p.end(), 0);
    for (int i = 255; i > 0; --i) std::swap(p[i], p[random.next() % (i + 1)]);
    for (int i = 0; i < 512; ++i) perm_[i] = p[i & 255];
  }
  double operator()(double x, double y) const {
    const int xi = static_cast<int>(std::floor(x)) & 255, yi = static_cast<int>(std::floor(y)) & 255;
    x -= std::floor(x), y -= std::floor(y);
    const double u = fade(x), v = fade(y);
    const int aa = perm_[perm_[xi] + yi], ab = perm_[perm_[xi] + yi + 1], ba = perm_[perm_[xi + 1] + yi],
              bb = perm_[perm_[xi + 1] + yi + 1];
    return lerp(v, lerp(u, grad(aa, x, y), grad(ba, x - 1, y)), lerp(u, grad(ab, x, y - 1), grad(bb, x - 1, y - 1)));
  }

 private:
  static double fade(double t) { return t * t * t * (t * (t * 6 - 15) + 10); }
  static double lerp(double t, double a, double b) { return a + t * (b - a); }
  static double grad(int hash, double x, double y) {
    switch (hash & 3) {
      case 0:
        return x + y;
      case 1:
        return -x + y;
      case 2:
        return x - y;
      default:
        return -x - y;
    }
  }
  std::array<int, 512> perm_;
};

// Pixels inside any closed stroke (even–odd per shape), by scanlines.
std::vector<bool> interiors(const Figure& fig) {
  std::vector<bool> inside(static_cast<std::size_t>(fig.width) * fig.height, false);
  for (const Curve& c : fig.curves) {
    if (!c.closed || c.path.size() < 3) continue;
    double y0 = 1e300, y1 = -1e300;
    for (const P2& p : c.path) y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
    for (int y = std::max(0, static_cast<int>(y0)); y < std::min(fig.height, static_cast<int>(y1) + 1); ++y) {
      const double sy = y + 0.5;
      std::vector<double> xs;
      for (std::size_t i = 0; i < c.path.size(); ++i) {
        const P2 a = c.path[i], b = c.path[(i + 1) % c.path.size()];
        if ((a.y <= sy) != (b.y <= sy)) xs.push_back(a.x + (sy - a.y) / (b.y - a.y) * (b.x - a.x));
      }
      std::sort(xs.begin(), xs.end());
      for (std::size_t k = 0; k + 1 < xs.size(); k += 2)
        for (int x = std::max(0, static_cast<int>(std::ceil(xs[k] - 0.5)));
             x < std::min(fig.width, static_cast<int>(std::ceil(xs[k + 1] - 0.5))); ++x)
          inside[static_cast<std::size_t>(y) * fig.width + x] = true;
    }
  }
  return inside;
}

// A white stroke of the given width from a to b, anti-aliased by coverage of the pixel centre.
void erase_stroke(Image& image, P2 a, P2 b, double width) {
  const int x0 = std::max(0, static_cast<int>(std::min(a.x, b.x) - width)),
            x1 = std::min(image.width - 1, static_cast<int>(std::max(a.x, b.x) + width)),
            y0 = std::max(0, static_cast<int>(std::min(a.y, b.y) - width)),
            y1 = std::min(image.height - 1, static_cast<int>(std::max(a.y, b.y) + width));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const double cover = std::clamp(width / 2 + 0.5 - distance_to_segment({x + 0.5, y + 0.5}, a, b), 0.0, 1.0);
      if (cover <= 0) continue;
      const std::size_t i = 3 * (static_cast<std::size_t>(y) * image.width + x);
      for (int c = 0; c < 3; ++c) image.rgb[i + c] = clamp_byte(image.rgb[i + c] + cover * (255 - image.rgb[i + c]));
    }
}

}  // namespace

void apply_noise(Image& image, const Figure& fig, const RenderOptions& options, Random& random) {
  const Noise& noise = options.noise;
  const std::size_t n = static_cast<std::size_t>(image.width) * image.height;
  for (int k = 0; k < noise.disturb_strokes; ++k) {
    const P2 a{random.uniform() * image.width, random.uniform() * image.height};
    const double t = random.uniform() * std::numbers::pi, len = (0.1 + 0.3 * random.uniform()) * image.width;
    erase_stroke(image, a, {a.x + len * std::cos(t), a.y + len * std::sin(t)}, 1.5 * options.stroke_width);
  }
  if (noise.perlin > 0) {
    const Perlin perlin(random);
    const std::vector<bool> inside = interiors(fig);
    const double scale = 1.0 / 24;  // features of about 24 px
    for (std::size_t i = 0; i < n; ++i)
      if (inside[i]) add_gray(image, i, noise.perlin * perlin((i % image.width) * scale, (i / image.width) * scale));
  }
  if (noise.salt_pepper > 0) {
    for (std::size_t i = 0; i < n; ++i) {
      if (image.rgb[3 * i] > 200 && image.rgb[3 * i + 1] > 200 && image.rgb[3 * i + 2] > 200) continue;  // not outline
      if (random.uniform() >= noise.salt_pepper) continue;
      const std::uint8_t v = random.uniform() < 0.5 ? 255 : 0;
      image.rgb[3 * i] = image.rgb[3 * i + 1] = image.rgb[3 * i + 2] = v;
    }
  }
  if (noise.gaussian_sigma > 0)
    for (std::size_t i = 0; i < n; ++i) add_gray(image, i, noise.gaussian_sigma * random.normal());
}

}  // namespace geotruth::vision
