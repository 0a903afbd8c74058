// The letter reader's measuring driver (scripts/measure_letters.py runs it): reads drawn glyphs or
// pictures and prints one JSON line per glyph or picture, with the CPU time taken. Built with
// -DGEOTRUTH_TESSERACT=ON it reads the same with Tesseract (libtesseract's C++ API, its English
// LSTM model, restricted to the diagram alphabet) for the comparison in docs/vision.md; geotruth
// itself never uses Tesseract.
//
//   letters_probe glyphs [--fonts training|held-out] [--per-class N] [--seed S] [--clean] [--alphabet points|text]
//   letters_probe pictures [--alphabet points|text] FILE...
//   letters_probe truth SCENES.jsonl WIDTH HEIGHT   (where render draws each scene's letters)
#include <opencv2/imgproc.hpp>

#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <geotruth/input.hpp>

#include "vision/figure.hpp"
#include "vision/glyph_render.hpp"
#include "vision/glyphs.hpp"
#include "vision/letters.hpp"
#include "vision/paper.hpp"

#ifdef GEOTRUTH_TESSERACT
#include <tesseract/baseapi.h>
#endif

using namespace geotruth;
using namespace geotruth::vision;
using nlohmann::json;

namespace {

double cpu_ms() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#ifdef GEOTRUTH_TESSERACT
// Tesseract restricted to what diagrams letter with; one engine per process.
class Tesseract {
 public:
  explicit Tesseract(Alphabet alphabet) {
    if (api_.Init(nullptr, "eng", tesseract::OEM_LSTM_ONLY) != 0) throw std::runtime_error("tesseract: no eng model");
    api_.SetVariable("tessedit_char_whitelist",
                     alphabet == Alphabet::point_labels
                         ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'"
                         : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'");
  }
  // Reads a dark-on-white 8-bit image in page segmentation `mode`: text and mean confidence (0–100).
  std::pair<std::string, int> read(const cv::Mat& gray, tesseract::PageSegMode mode) {
    api_.SetPageSegMode(mode);
    api_.SetImage(gray.data, gray.cols, gray.rows, 1, static_cast<int>(gray.step));
    api_.SetSourceResolution(300);
    char* text = api_.GetUTF8Text();
    std::string out = text ? text : "";
    delete[] text;
    while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
    return {out, api_.MeanTextConf()};
  }
  // Every word Tesseract finds on a whole picture (sparse text): text, box, confidence.
  json words(const cv::Mat& gray) {
    api_.SetPageSegMode(tesseract::PSM_SPARSE_TEXT);
    api_.SetImage(gray.data, gray.cols, gray.rows, 1, static_cast<int>(gray.step));
    api_.SetSourceResolution(300);
    api_.Recognize(nullptr);
    json out = json::array();
    std::unique_ptr<tesseract::ResultIterator> it(api_.GetIterator());
    if (!it) return out;
    do {
      std::unique_ptr<char[]> word(it->GetUTF8Text(tesseract::RIL_WORD));
      if (!word) continue;
      int x0, y0, x1, y1;
      it->BoundingBox(tesseract::RIL_WORD, &x0, &y0, &x1, &y1);
      out.push_back({{"label", std::string(word.get())},
                     {"box", {x0, y0, x1 - x0, y1 - y0}},
                     {"confidence", it->Confidence(tesseract::RIL_WORD) / 100.0}});
    } while (it->Next(tesseract::RIL_WORD));
    return out;
  }

 private:
  tesseract::TessBaseAPI api_;
};

// A patch as Tesseract likes it: dark on white, the glyph 32 px tall, a margin of paper.
cv::Mat for_tesseract(const cv::Mat& strength) {
  cv::Mat inverted = 255 - strength;
  const double scale = 32.0 / std::max(1, strength.rows);
  cv::Mat scaled;
  const cv::Size size(std::max(1, cvRound(strength.cols * scale)), std::max(1, cvRound(strength.rows * scale)));
  cv::resize(inverted, scaled, size, 0, 0, scale < 1 ? cv::INTER_AREA : cv::INTER_CUBIC);
  cv::Mat framed;
  cv::copyMakeBorder(scaled, framed, 16, 16, 16, 16, cv::BORDER_CONSTANT, 255);
  return framed;
}
#endif

Alphabet alphabet_of(const std::string& name) {
  return name == "points" ? Alphabet::point_labels : Alphabet::diagram_text;
}

int glyphs(const std::vector<std::string>& args) {
  SampleOptions options{training_fonts(), 50, 7};
  Alphabet alphabet = Alphabet::diagram_text;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--fonts" && i + 1 < args.size())
      options.fonts = args[++i] == "training" ? training_fonts() : held_out_fonts();
    else if (args[i] == "--per-class" && i + 1 < args.size())
      options.per_class = std::stoul(args[++i]);
    else if (args[i] == "--seed" && i + 1 < args.size())
      options.seed = std::stoull(args[++i]);
    else if (args[i] == "--clean")
      options.degrade = false;
    else if (args[i] == "--alphabet" && i + 1 < args.size())
      alphabet = alphabet_of(args[++i]);
  }
#ifdef GEOTRUTH_TESSERACT
  Tesseract tess(alphabet);
#endif
  for (const GlyphSample& g : glyph_samples(options)) {
    if (!allowed(g.label, alphabet)) continue;
    json line{{"truth", glyph_classes()[g.label]},
              {"drawn", g.text},
              {"font", g.font.name()},
              {"size", g.size_px},
              {"found", g.found}};
    if (g.found) {
      const double t0 = cpu_ms();
      const auto guesses = classify_normalized(g.patch, g.aspect, 2, alphabet);
      line["ms"] = cpu_ms() - t0;
      line["read"] = guesses[0].text, line["confidence"] = guesses[0].confidence;
      line["runner_up"] = guesses[1].text;
      line["doubtful"] = guesses[0].confidence < doubt_threshold();
#ifdef GEOTRUTH_TESSERACT
      const double t1 = cpu_ms();
      const auto [text, conf] = tess.read(for_tesseract(g.patch), tesseract::PSM_SINGLE_CHAR);
      line["tesseract"] = {{"read", text}, {"confidence", conf / 100.0}, {"ms", cpu_ms() - t1}};
#endif
    }
    std::cout << line.dump() << "\n";
  }
  return 0;
}

json read_json(const LetterRead& r) {
  return {{"label", r.label},
          {"box", {r.box.x, r.box.y, r.box.width, r.box.height}},
          {"centre", {r.centre.x, r.centre.y}},
          {"height", r.height_px},
          {"confidence", r.confidence},
          {"runner_up", r.runner_up.text},
          {"doubtful", r.doubtful},
          {"doubt", r.doubt},
          {"touches_stroke", r.touches_stroke}};
}

int pictures(const std::vector<std::string>& args) {
  LetterOptions options;
  std::vector<std::string> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--alphabet" && i + 1 < args.size())
      options.alphabet = alphabet_of(args[++i]);
    else
      files.push_back(args[i]);
  }
#ifdef GEOTRUTH_TESSERACT
  Tesseract tess(options.alphabet);
#endif
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string error;
    const Image image = decode(bytes, error);
    json line{{"file", file}};
    if (!error.empty()) {
      line["error"] = error;
      std::cout << line.dump() << "\n";
      continue;
    }
    const double t0 = cpu_ms();
    const Paper paper = measure_paper(image);
    const double t1 = cpu_ms();
    const auto reads = read_letters(paper, options);
    const double t2 = cpu_ms();
    line["width"] = image.width, line["height"] = image.height;
    line["ms_paper"] = t1 - t0, line["ms"] = t2 - t1;
    line["labels"] = json::array();
    for (const LetterRead& r : reads) line["labels"].push_back(read_json(r));
#ifdef GEOTRUTH_TESSERACT
    // Tesseract on the labels the reader found (its boxes, one word each), then on the whole picture.
    json crops = json::array();
    const double t3 = cpu_ms();
    for (const LetterRead& r : reads) {
      const cv::Rect box = (r.box + cv::Size(4, 4) - cv::Point(2, 2)) & cv::Rect(0, 0, image.width, image.height);
      cv::Mat strength;
      paper.darkness(box).convertTo(strength, CV_8U, 255.0 / std::max(1.0, 2 * paper.ink_level + 40));
      const auto [text, conf] = tess.read(for_tesseract(strength), tesseract::PSM_SINGLE_WORD);
      crops.push_back(
          {{"label", text}, {"confidence", conf / 100.0}, {"box", {r.box.x, r.box.y, r.box.width, r.box.height}}});
    }
    const double t4 = cpu_ms();
    cv::Mat gray;
    paper.darkness.convertTo(gray, CV_8U, -1, 255);
    json page = tess.words(gray);
    const double t5 = cpu_ms();
    line["tesseract"] = {{"on_boxes", crops}, {"ms_on_boxes", t4 - t3}, {"page", page}, {"ms_page", t5 - t4}};
#endif
    std::cout << line.dump() << "\n";
  }
  return 0;
}

// Where each letter of each scene is drawn in its picture of width × height: the truth of the
// Tangram measurements (build_figure lays letters out exactly as render draws them).
int truth(const std::vector<std::string>& args) {
  if (args.size() < 3) return 2;
  std::ifstream in(args[0]);
  const int width = std::stoi(args[1]), height = std::stoi(args[2]);
  std::string text;
  while (std::getline(in, text)) {
    const auto parsed = read_scene(text);
    if (!std::holds_alternative<Scene>(parsed)) continue;
    const Scene& scene = std::get<Scene>(parsed);
    bool fills = false;
    const double scale = scale_for_image(scene.frame, width, height, fills);
    const Figure fig = build_figure(scene, width, height, scale);
    json letters = json::array();
    for (const Text& t : fig.texts)
      if (t.letter)
        letters.push_back(
            {{"label", t.text}, {"centre", {t.center.x, t.center.y}}, {"anchor", {t.anchor.x, t.anchor.y}}});
    std::cout << json{{"id", scene.id}, {"font_px", fig.font_px}, {"letters", letters}}.dump() << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "truth") return truth({args.begin() + 1, args.end()});
  if (args.empty() || (args[0] != "glyphs" && args[0] != "pictures")) {
    std::cerr << "usage: letters_probe glyphs [--fonts training|held-out] [--per-class N] [--seed S] [--clean] "
                 "[--alphabet points|text]\n       letters_probe pictures [--alphabet points|text] FILE...\n";
    return 2;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  return args[0] == "glyphs" ? glyphs(rest) : pictures(rest);
}
