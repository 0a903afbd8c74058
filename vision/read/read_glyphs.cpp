// The letters of a picture, from the letter reader (vision/letters.hpp), and the pixels under them
// marked unknown for the strokes: a letter written over a line neither breaks nor extends it.
#include <opencv2/imgproc.hpp>

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "vision/read/read.hpp"

#include "vision/letters.hpp"

namespace geotruth::vision::read {

bool lettered_in_capitals(const std::vector<LetterRead>& letters) {
  int capitals = 0;
  for (const LetterRead& l : letters) {
    if (l.label.empty() || l.doubtful) continue;
    const unsigned char first = static_cast<unsigned char>(l.label[0]);
    if (!std::isupper(first)) return false;
    for (char c : l.label.substr(1))
      if (std::islower(static_cast<unsigned char>(c))) return false;
    ++capitals;
  }
  return capitals >= 2;
}

void read_glyphs(Sheet& sheet, const Paper& paper, const cv::Mat& strokes) {
  sheet.unknown = cv::Mat::zeros(sheet.paper.ink.rows, sheet.paper.ink.cols, CV_8U);
  sheet.glyphs.clear();
  LetterOptions options;
  options.stroke_ink = strokes;
  const bool debug = std::getenv("GEOTRUTH_READER_DEBUG") != nullptr;
  options.keep_marks = debug;
  std::vector<LetterRead> letters = read_letters(paper, options);
  if (lettered_in_capitals(letters)) {
    options.alphabet = Alphabet::point_labels;
    letters = read_letters(paper, options);
  }
  for (const LetterRead& letter : letters) {
    if (debug)
      std::fprintf(stderr, "glyph '%s' at %d,%d %dx%d conf %.2f runner '%s' %.2f%s\n", letter.label.c_str(),
                   letter.box.x, letter.box.y, letter.box.width, letter.box.height, letter.confidence,
                   letter.runner_up.text.c_str(), letter.runner_up.confidence, letter.touches_stroke ? " touches" : "");
    if (letter.label.empty()) continue;
    Glyph g;
    g.text = letter.label;
    g.box = letter.box;
    g.centre = {letter.centre.x, letter.centre.y};
    g.height = letter.height_px;
    g.confidence = letter.confidence;
    g.runner_up = letter.runner_up.text;
    g.runner_up_confidence = letter.runner_up.confidence;
    g.doubtful = letter.doubtful, g.touches_stroke = letter.touches_stroke;
    sheet.glyphs.push_back(std::move(g));
  }
  for (const Glyph& g : sheet.glyphs) {
    const cv::Rect grown(g.box.x - 1, g.box.y - 1, g.box.width + 2, g.box.height + 2);
    sheet.unknown(grown & cv::Rect(0, 0, sheet.unknown.cols, sheet.unknown.rows)).setTo(255);
  }
}

}  // namespace geotruth::vision::read
