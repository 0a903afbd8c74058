// Trains the letter classifier when geotruth is built and writes it as a C++ source
// (generated/letter_model.cpp) that vision/letters.cpp compiles in: glyphs drawn by cairo in the
// training fonts (vision/glyph_render.hpp), a multilayer perceptron (cv::ml::ANN_MLP) on their
// features, then its margins calibrated on fresh glyphs of the same fonts. Deterministic: the same
// fonts and seeds give the same model.
//
//   geotruth_train_letters OUT.cpp [--per-class N] [--hidden H] [--iterations I]
#include <opencv2/core.hpp>
#include <opencv2/ml.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "vision/glyph_render.hpp"
#include "vision/glyphs.hpp"

using namespace geotruth::vision;

namespace {

struct Table {
  std::vector<double> margin, confidence;
};

cv::Mat features_of(const std::vector<GlyphSample>& samples, std::vector<std::size_t>& labels) {
  cv::Mat rows;
  for (const GlyphSample& g : samples) {
    if (!g.found) continue;
    rows.push_back(glyph_features(g.patch, g.aspect));
    labels.push_back(g.label);
  }
  return rows;
}

// Margins of the calibration glyphs sorted, in bins of equal count; each bin's share of right
// reads, made non-decreasing in the margin (pool adjacent violators): a read's confidence is its
// bin's share.
Table calibrate(const cv::Ptr<cv::ml::ANN_MLP>& mlp, const cv::Mat& features, const std::vector<std::size_t>& labels,
                Alphabet alphabet, std::size_t bins, double& accuracy) {
  std::vector<std::pair<double, bool>> reads;
  for (int i = 0; i < features.rows; ++i) {
    if (!allowed(labels[i], alphabet)) continue;
    cv::Mat out;
    mlp->predict(features.row(i), out);
    const auto r = ranked(out, alphabet);
    reads.emplace_back(r[0].second - r[1].second, r[0].first == labels[i]);
  }
  std::sort(reads.begin(), reads.end());
  std::size_t right = 0;
  for (const auto& r : reads) right += r.second;
  accuracy = static_cast<double>(right) / reads.size();
  // Blocks of (count, right) pooled while a block is less right than the one before it.
  struct Block {
    double margin;
    double count, right;
  };
  std::vector<Block> blocks;
  for (std::size_t b = 0; b < bins; ++b) {
    const std::size_t from = b * reads.size() / bins, to = (b + 1) * reads.size() / bins;
    if (from == to) continue;
    Block block{b == 0 ? -1e9 : reads[from].first, static_cast<double>(to - from), 0};
    for (std::size_t i = from; i < to; ++i) block.right += reads[i].second;
    blocks.push_back(block);
    while (blocks.size() > 1 && blocks.back().right / blocks.back().count <
                                    blocks[blocks.size() - 2].right / blocks[blocks.size() - 2].count) {
      Block last = blocks.back();
      blocks.pop_back();
      blocks.back().count += last.count, blocks.back().right += last.right;
    }
  }
  Table t;
  for (const Block& b : blocks) t.margin.push_back(b.margin), t.confidence.push_back(b.right / b.count);
  return t;
}

std::string array_of(const std::vector<double>& v) {
  std::ostringstream s;
  s.precision(17);
  s << "{";
  for (std::size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
  s << "}";
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: geotruth_train_letters OUT.cpp [--per-class N] [--hidden H] [--iterations I]\n";
    return 2;
  }
  const std::string out_path = argv[1];
  std::size_t per_class = 300, hidden = 96, iterations = 200, dimensions = 80;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::size_t value = std::stoul(argv[i + 1]);
    if (flag == "--per-class")
      per_class = value;
    else if (flag == "--hidden")
      hidden = value;
    else if (flag == "--iterations")
      iterations = value;
    else if (flag == "--dimensions")
      dimensions = value;
  }
  cv::setNumThreads(1);
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  std::vector<std::size_t> labels;
  const cv::Mat raw = features_of(glyph_samples({training_fonts(), per_class, 1}), labels);
  // The features' principal components: a fifth of the values, most of their variance, and a
  // network five times cheaper to train and to run.
  const cv::PCA pca(raw, cv::noArray(), cv::PCA::DATA_AS_ROW, static_cast<int>(dimensions));
  const cv::Mat features = pca.project(raw);
  const int classes = static_cast<int>(glyph_classes().size());
  cv::Mat targets = cv::Mat::zeros(features.rows, classes, CV_32F);
  for (int i = 0; i < features.rows; ++i) targets.at<float>(i, static_cast<int>(labels[i])) = 1;
  const double drawn = seconds();

  cv::Ptr<cv::ml::ANN_MLP> mlp = cv::ml::ANN_MLP::create();
  mlp->setLayerSizes(std::vector<int>{features.cols, static_cast<int>(hidden), classes});
  mlp->setActivationFunction(cv::ml::ANN_MLP::SIGMOID_SYM, 1, 1);
  mlp->setTrainMethod(cv::ml::ANN_MLP::RPROP, 0.1);
  // A fixed number of passes: RPROP's error falls by small steps for long, and an epsilon stops it early.
  mlp->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER, static_cast<int>(iterations), 0));
  mlp->train(cv::ml::TrainData::create(features, cv::ml::ROW_SAMPLE, targets));
  const double trained = seconds();

  std::vector<std::size_t> check_labels;
  const cv::Mat check = pca.project(
      features_of(glyph_samples({training_fonts(), std::max<std::size_t>(per_class / 2, 20), 2}), check_labels));
  double points_accuracy = 0, text_accuracy = 0;
  const Table points = calibrate(mlp, check, check_labels, Alphabet::point_labels, 40, points_accuracy);
  const Table text = calibrate(mlp, check, check_labels, Alphabet::diagram_text, 40, text_accuracy);

  cv::FileStorage fs(".yml", cv::FileStorage::WRITE | cv::FileStorage::MEMORY | cv::FileStorage::BASE64);
  fs << "pca"
     << "{";
  pca.write(fs);
  fs << "}";
  fs << "letters"
     << "{";
  mlp->write(fs);
  fs << "}";
  const std::string network = fs.releaseAndGetString();

  std::ostringstream provenance;
  provenance.precision(4);
  provenance << "PCA " << raw.cols << " to " << features.cols << ", ANN_MLP " << features.cols << "-" << hidden << "-"
             << classes << ", RPROP " << iterations << " iterations; " << features.rows << " training glyphs ("
             << per_class << " per class, " << training_fonts().size() << " fonts), drawn in " << drawn
             << " s, trained in " << trained - drawn << " s; calibration glyphs " << check.rows << ": "
             << 100 * points_accuracy << " % right (point labels), " << 100 * text_accuracy << " % (diagram text)";
  std::cerr << "train_letters: " << provenance.str() << "\n";

  std::ofstream out(out_path);
  out << "// Generated by geotruth_train_letters (vision/train_letters.cpp) at build time: do not edit.\n"
      << "#include \"vision/letter_model.hpp\"\n\nnamespace geotruth::vision {\nnamespace {\n"
      << "const char kNetwork[] = R\"NETWORK(" << network << ")NETWORK\";\n"
      << "const double kPointMargins[] = " << array_of(points.margin) << ";\n"
      << "const double kPointConfidence[] = " << array_of(points.confidence) << ";\n"
      << "const double kTextMargins[] = " << array_of(text.margin) << ";\n"
      << "const double kTextConfidence[] = " << array_of(text.confidence) << ";\n"
      << "}  // namespace\n\nconst LetterModelData& letter_model_data() {\n"
      << "  static const LetterModelData data{kNetwork,\n"
      << "    {{kPointMargins, kPointConfidence, " << points.margin.size() << "}, {kTextMargins, kTextConfidence, "
      << text.margin.size() << "}},\n"
      << "    \"" << provenance.str() << "\"};\n  return data;\n}\n\n}  // namespace geotruth::vision\n";
  return out ? 0 : 1;
}
