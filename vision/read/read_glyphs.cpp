// The letters of a picture, from the letter reader (vision/letters.hpp), and the pixels under them
// marked unknown for the strokes: a letter written over a line neither breaks nor extends it.
#include <opencv2/imgproc.hpp>

#include "vision/read/read.hpp"

#include "vision/letters.hpp"

namespace geotruth::vision::read {

void read_glyphs(Sheet& sheet, const Paper& paper, const cv::Mat& strokes) {
  sheet.unknown = cv::Mat::zeros(sheet.paper.ink.rows, sheet.paper.ink.cols, CV_8U);
  LetterOptions options;
  options.stroke_ink = strokes;
  for (const LetterRead& letter : read_letters(paper, options)) {
    if (letter.label.empty()) continue;
    Glyph g;
    g.text = letter.label;
    g.box = letter.box;
    g.centre = {letter.centre.x, letter.centre.y};
    g.height = letter.height_px;
    g.confidence = letter.confidence;
    g.runner_up = letter.runner_up.text;
    g.runner_up_confidence = letter.runner_up.confidence;
    g.doubtful = letter.doubtful;
    sheet.glyphs.push_back(std::move(g));
  }
  for (const Glyph& g : sheet.glyphs) {
    const cv::Rect grown(g.box.x - 1, g.box.y - 1, g.box.width + 2, g.box.height + 2);
    sheet.unknown(grown & cv::Rect(0, 0, sheet.unknown.cols, sheet.unknown.rows)).setTo(255);
  }
}

}  // namespace geotruth::vision::read
