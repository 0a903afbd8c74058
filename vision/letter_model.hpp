// The letter classifier's trained data, compiled in: written at build time by
// vision/train_letters.cpp into the build's generated/letter_model.cpp.
#pragma once

#include <cstddef>

namespace geotruth::vision {

/// How a classifier's margin (best output minus the next allowed one) maps to the share of reads
/// that were right, measured on calibration glyphs: confidence[i] from margin[i] up.
struct Calibration {
  const double* margin;
  const double* confidence;
  std::size_t bins;
};

struct LetterModelData {
  const char* network;  ///< OpenCV's YAML (base64 data): "pca" (cv::PCA of the features), "letters" (cv::ml::ANN_MLP)
  Calibration calibration[2];  ///< per Alphabet (point_labels, diagram_text)
  const char* provenance;      ///< how it was trained and what it scored, for docs and --version
};

const LetterModelData& letter_model_data();

}  // namespace geotruth::vision
