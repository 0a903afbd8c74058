// The picture of a generated item: drawn, encoded and cross-checked. Built into geotruth-vision.so
// with crosscheck (cairo and OpenCV live there); generate loads it when it writes pictures
// (cli/vision_loader.cpp).
#include "cli/common.hpp"

namespace geotruth::cli {
namespace {

void draw_and_check_item(const Scene& scene, const PictureRequest& request, PictureVerdict& out) {
  vision::Image image = vision::render(scene, request.render);
  out.width = image.width, out.height = image.height;
  out.bytes = vision::encode(image, request.format, request.quality);
  // A JPEG is checked as a reader will see it: decoded from its bytes.
  if (request.format == vision::ImageFormat::jpeg) {
    std::string error;
    image = vision::decode(out.bytes, error);
  }
  // On every thread: the detectors keep their state in instances made per call (vision/crosscheck.cpp).
  const vision::CrossCheck check = vision::crosscheck(scene, image, request.check);
  out.agree = check.agree;
  out.reasons.clear();
  for (const auto& reason : check.reasons) out.reasons.push_back(finding_kind_name(reason.kind));
}

}  // namespace
}  // namespace geotruth::cli

extern "C" void geotruth_draw_and_check(const geotruth::Scene& scene, const geotruth::cli::PictureRequest& request,
                                        geotruth::cli::PictureVerdict& out) {
  geotruth::cli::draw_and_check_item(scene, request, out);
}
