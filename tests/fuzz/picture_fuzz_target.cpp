// The picture fuzz target: one input is a picture file's bytes (first byte 0: PNG, JPEG or anything
// else the decoder takes) or raw pixels (first byte 1: two bytes of width, then RGB rows), read
// into a scene under a small work limit as `import --from picture` reads it. A picture must give
// a decoder error, a work-limit error or a valid scene that writes and reads back, and its counts;
// anything else escaping (an exception, a signal, a sanitizer report) is a bug.
#include <geotruth/counts.hpp>
#include <geotruth/incidence.hpp>
#include <geotruth/input.hpp>
#include <geotruth/reader.hpp>
#include <geotruth/vision.hpp>
#include <geotruth/work_limit.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "round_trip.hpp"

namespace {

using namespace geotruth;

constexpr int kMaxSide = 256;  // small pictures: a run reads hundreds a minute

vision::Image picture_of(const std::uint8_t* data, std::size_t size) {
  if (data[0] % 2 == 0) {
    const std::vector<std::uint8_t> bytes(data + 1, data + size);
    vision::DecodeLimits limits;
    limits.max_pixels = kMaxSide * kMaxSide, limits.max_side = kMaxSide;
    std::string error;
    return vision::decode(bytes, error, limits);
  }
  vision::Image image;
  if (size < 4) return image;
  image.width = 1 + (data[1] | data[2] << 8) % kMaxSide;
  image.height = std::min<int>(kMaxSide, static_cast<int>((size - 3) / (3 * image.width)));
  if (image.height == 0) return vision::Image{};
  image.rgb.assign(data + 3, data + 3 + 3 * image.width * image.height);
  return image;
}

void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "picture fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > (1u << 18)) return 0;
  const vision::Image image = picture_of(data, size);
  if (image.width == 0) return 0;  // the decoder's error: an error record
  WorkLimits limits;
  limits.max_pairs = 200'000, limits.max_seconds = 5;
  Scene scene;
  try {
    const WorkBudget budget(limits);
    scene = vision::read_picture(image, "fuzz").scene;
  } catch (const InputError&) {  // the work limit: an error record
    return 0;
  }
  if (const auto invalid = validate(scene))
    fail("the scene read is not valid", invalid->pointer + ": " + invalid->message);
  fuzz::check_round_trip(scene);
  try {
    const WorkBudget budget(limits);
    count_figure(scene, build_incidence(scene, IncidenceMode::merged));
  } catch (const InputError&) {  // the work limit
  }
  return 0;
}
