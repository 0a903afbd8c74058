// The blind detectors behind detect(), for the cross-check to run on what the scene leaves
// unexplained: they see only pixels, never the scene.
#pragma once

#include <opencv2/core.hpp>

#include <geotruth/vision.hpp>
#include <vector>

namespace geotruth::vision {

/// Runs every detector on a gray picture (ink dark on white paper) and its ink mask.
Detections detect_in(const cv::Mat& gray, const cv::Mat& ink);

/// Letter-sized ink components; `compact` tells, per glyph, whether it is not a bar (a dash of
/// a dashed line looks like an "I").
std::vector<Detections::Box> find_glyphs(const cv::Mat& ink, std::vector<bool>& compact);

/// Distance from p to the ellipse along the ray from its centre: exact for circles, close for
/// ellipses (to filter points near a curve).
double ellipse_distance(PixelPoint p, const Detections::Ellipse& e);

/// Centres of filled triangles that survive a 5 px opening (arrowheads).
std::vector<PixelPoint> find_arrowheads(const cv::Mat& ink);

}  // namespace geotruth::vision
