// Pixel helpers shared by detection and cross-check (OpenCV types stay inside vision/).
#pragma once

#include <opencv2/core.hpp>

#include <geotruth/vision.hpp>
#include <vector>

namespace geotruth::vision {

/// The image as an 8-bit single-channel OpenCV matrix (a copy).
cv::Mat gray_of(const Image& image);

/// Groups segments lying on one supporting line: directions within 2° and both ends within
/// 3 px of the group's line (the longest segment's). Used for detections and for the scene's
/// own straight strokes alike, so both sides are counted by the same rule.
std::vector<Detections::Line> cluster_segments(const std::vector<Detections::Segment>& segments);

}  // namespace geotruth::vision
