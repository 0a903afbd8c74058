// The letter reader (vision/letters.hpp), in five steps:
//  1. the picture's ink less its thick blobs (the dots that mark points) and, inside components too
//     large to be letters, less their long straight strokes: what remains of such a component
//     near a stroke is a letter that touched it;
//  2. every letter-sized piece of ink read by the classifier (glyph_classes());
//  3. small pieces joined to the glyph they belong to: the dot of an i or j, a prime at a letter's
//     top right; other specks dropped;
//  4. glyphs on one line, close together, joined into labels (a digit suffix, a subscript);
//  5. letters whose lower case is their capital drawn smaller (C/c, O/o, …) told apart by their
//     height against the capitals of the picture.
// Confidences are the classifier's margins mapped through the calibration measured at build time.
#include "vision/letters.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/ml.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

#include "vision/letter_model.hpp"

namespace geotruth::vision {
namespace {

// Reads at or above this calibrated confidence are confident; below it, doubtful.
constexpr double kConfidentBar = 0.99;
// Case twins: a capital is at least this share of the picture's capital height, a lower-case
// letter at most the second (x-height over cap height is 0.68–0.77 in the fonts diagrams use).
constexpr double kCapitalShare = 0.9, kLowerShare = 0.82;
const std::string kPrime = "'";

class Model {
 public:
  Model() {
    const cv::FileStorage fs(letter_model_data().network, cv::FileStorage::READ | cv::FileStorage::MEMORY);
    pca_.read(fs["pca"]);
    mlp_ = cv::ml::ANN_MLP::create();
    mlp_->read(fs["letters"]);
  }
  cv::Mat outputs(const cv::Mat& features) const {
    cv::Mat out;
    mlp_->predict(pca_.project(features), out);
    return out;
  }

 private:
  cv::PCA pca_;
  cv::Ptr<cv::ml::ANN_MLP> mlp_;
};

const Model& model() {
  static const Model m;
  return m;
}

double calibrated(double margin, Alphabet alphabet) {
  const Calibration& c = letter_model_data().calibration[alphabet == Alphabet::point_labels ? 0 : 1];
  double confidence = c.confidence[0];
  for (std::size_t i = 0; i < c.bins && c.margin[i] <= margin; ++i) confidence = c.confidence[i];
  return confidence;
}

// One glyph's reading: the allowed classes ranked, and the calibrated confidence of the best.
struct Reading {
  std::vector<std::pair<std::size_t, float>> ranked;
  double confidence = 0;
  std::size_t best() const { return ranked[0].first; }
  std::size_t second() const { return ranked[1].first; }
  bool mark() const { return best() == no_glyph_class(); }
};

Reading read_patch(const cv::Mat& patch, double aspect, Alphabet alphabet) {
  Reading r;
  r.ranked = ranked(model().outputs(glyph_features(patch, aspect)), alphabet);
  r.confidence = calibrated(r.ranked[0].second - r.ranked[1].second, alphabet);
  return r;
}

std::string either(const std::string& a, const std::string& b) {
  std::string out = a;
  out.append(" or ").append(b);
  return out;
}

const std::string& text_of(std::size_t label) {
  return glyph_classes()[label];
}

// A piece of ink: one connected component (or several joined), its box and its pixels.
struct Piece {
  cv::Rect box;
  cv::Mat mask;  // box-sized, 255 = its pixels
  bool touches_stroke = false;
};

// A glyph: a piece and how it reads.
struct Glyph {
  Piece piece;
  Reading reading;
  std::string prime;            // "'" when a prime was attached
  double prime_confidence = 1;  // how sure the prime is a prime
  bool used = false;
};

Piece join(const Piece& a, const Piece& b) {
  Piece out;
  out.box = a.box | b.box;
  out.mask = cv::Mat::zeros(out.box.size(), CV_8U);
  a.mask.copyTo(out.mask(a.box - out.box.tl()), a.mask);
  b.mask.copyTo(out.mask(b.box - out.box.tl()), b.mask);
  out.touches_stroke = a.touches_stroke || b.touches_stroke;
  return out;
}

// Twice the typical half-width of ink (the distance transform's ridges): the stroke width.
double stroke_width_of(const cv::Mat& ink) {
  cv::Mat dt;
  cv::distanceTransform(ink, dt, cv::DIST_L2, 3);
  std::vector<float> ridge;
  for (int y = 1; y + 1 < dt.rows; ++y) {
    const float* row = dt.ptr<float>(y);
    for (int x = 1; x + 1 < dt.cols; ++x) {
      const float v = row[x];
      if (v > 0 && v >= row[x - 1] && v >= row[x + 1] && v >= dt.at<float>(y - 1, x) && v >= dt.at<float>(y + 1, x))
        ridge.push_back(v);
    }
  }
  if (ridge.empty()) return 2;
  std::nth_element(ridge.begin(), ridge.begin() + ridge.size() / 2, ridge.end());
  return std::clamp(2.0 * ridge[ridge.size() / 2], 1.0, 8.0);
}

std::vector<Piece> pieces_of(const cv::Mat& ink) {
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
  std::vector<Piece> out;
  for (int i = 1; i < n; ++i) {
    Piece p;
    p.box = {stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP), stats.at<int>(i, cv::CC_STAT_WIDTH),
             stats.at<int>(i, cv::CC_STAT_HEIGHT)};
    p.mask = labels(p.box) == i;
    out.push_back(std::move(p));
  }
  return out;
}

// The letters' ink: solid_ink, and in a smoothed (noisy) picture the pixels darker than a third of
// the strokes' darkness too (the smoothing takes more from a letter's one-pixel bars than from the
// thicker strokes that set the darkness, and cuts them below solid_ink's half).
cv::Mat letter_ink(const Paper& paper) {
  cv::Mat ink = solid_ink(paper);
  if (paper.smoothing <= 0) return ink;
  std::vector<float> dark;
  for (int y = 0; y < paper.ink.rows; ++y) {
    const std::uint8_t* in = paper.ink.ptr<std::uint8_t>(y);
    const float* d = paper.darkness.ptr<float>(y);
    for (int x = 0; x < paper.ink.cols; ++x)
      if (in[x]) dark.push_back(d[x]);
  }
  if (dark.empty()) return ink;
  auto at = dark.begin() + static_cast<std::ptrdiff_t>(0.9 * (dark.size() - 1));
  std::nth_element(dark.begin(), at, dark.end());
  return ink | (paper.darkness > std::max<double>(paper.ink_level, 0.3 * *at));
}

class Reader {
 public:
  Reader(const Paper& paper, const LetterOptions& options) : paper_(paper), options_(options) {
    const int shorter = std::min(paper.ink.cols, paper.ink.rows);
    min_h_ = options.min_height_px > 0 ? options.min_height_px : 5;
    max_h_ = options.max_height_px > 0 ? options.max_height_px : std::max(40.0, 0.12 * shorter);
    max_w_ = 2 * max_h_;
  }

  std::vector<LetterRead> run() {
    if (paper_.ink.empty()) return {};
    cv::Mat ink = letter_ink(paper_);
    stroke_ = stroke_width_of(ink);
    remove_blobs(ink);
    if (!options_.stroke_ink.empty()) {
      cv::Mat strokes;
      cv::dilate(options_.stroke_ink, strokes, cv::Mat());
      erased_ = ink & strokes;
      ink.setTo(0, strokes);
    } else {
      // The letters' height from the pieces that stand alone, then the strokes longer than any
      // letter's erased from the whole ink: letters touching them come apart, and so do the bits
      // of a thin stroke that its anti-aliasing or JPEG broke.
      std::vector<Piece> alone, small, large;
      sort_pieces(pieces_of(ink), alone, small, large);
      for (Piece& p : alone) classify(std::move(p));
      letter_h_ = typical_height();
      glyphs_.clear();
      // Glyphs are no larger than the letters measured (a capital with an accent or a J's tail
      // reaches 1.5 times their height); larger pieces are strokes.
      if (measured_) max_h_ = std::min(max_h_, 1.6 * letter_h_), max_w_ = std::min(max_w_, 1.6 * letter_h_);
      large.clear(), alone.clear(), small.clear();
      sort_pieces(pieces_of(ink), alone, small, large);
      cv::Mat strokes = cv::Mat::zeros(ink.size(), CV_8U);
      for (const Piece& p : large) strokes(p.box).setTo(255, p.mask);
      erase_long_strokes(strokes);
      // What is left of the large pieces goes back with the rest.
      for (const Piece& p : large) ink(p.box).setTo(0, p.mask);
      ink |= strokes;
    }
    std::vector<Piece> letter_sized, small, large;
    sort_pieces(pieces_of(ink), letter_sized, small, large);
    for (Piece& p : letter_sized) {
      p.touches_stroke = touches_erased(p);
      classify(std::move(p));
      if (glyphs_.back().piece.touches_stroke)
        with_stroke_under(glyphs_.back());
      else if (!erased_.empty())
        with_stroke_beside(glyphs_.back());
    }
    drop_stroke_bits();
    primes_to_small(small);
    attach_small(small);
    return labels();
  }

 private:
  // Dots marking points and other filled marks (thicker than 2.5 strokes): not letters, and
  // often touching one.
  void remove_blobs(cv::Mat& ink) const {
    const int d = static_cast<int>(std::ceil(2.5 * stroke_)) | 1;
    if (d < 3) return;
    cv::Mat blobs;
    cv::morphologyEx(ink, blobs, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, {d, d}));
    if (cv::countNonZero(blobs) == 0) return;
    cv::dilate(blobs, blobs, cv::getStructuringElement(cv::MORPH_ELLIPSE, {3, 3}));
    ink.setTo(0, blobs);
  }

  void sort_pieces(std::vector<Piece> pieces, std::vector<Piece>& letter_sized, std::vector<Piece>& small,
                   std::vector<Piece>& large) const {
    for (Piece& p : pieces) {
      const int h = p.box.height, w = p.box.width;
      if (h > max_h_ || w > max_w_)
        large.push_back(std::move(p));
      else if (h >= min_h_)
        letter_sized.push_back(std::move(p));
      else if (std::max(h, w) >= 2)
        small.push_back(std::move(p));
    }
  }

  void classify(Piece p) {
    Glyph g;
    g.reading = read(p);
    g.piece = std::move(p);
    glyphs_.push_back(std::move(g));
  }

  // A letter-sized piece is no prime: the prime class is left out of its ranking.
  Reading read(const Piece& p, bool may_be_prime = false) const {
    const cv::Mat patch = normalized_glyph(glyph_strength(paper_, p.mask, p.box), p.mask);
    Reading r = read_patch(patch, static_cast<double>(p.box.height) / p.box.width, options_.alphabet);
    if (!may_be_prime) std::erase_if(r.ranked, [](const auto& entry) { return text_of(entry.first) == kPrime; });
    return r;
  }

  static bool bar(const std::string& t) { return t == "I" || t == "l" || t == "1" || t == "i" || t == "j"; }

  double typical_height() {
    std::vector<int> heights;
    for (const Glyph& g : glyphs_)
      if (!g.reading.mark() && !bar(text_of(g.reading.best())) && g.reading.confidence >= 0.9)
        heights.push_back(g.piece.box.height);
    measured_ = !heights.empty();
    if (heights.empty()) return std::clamp(0.03 * std::max(paper_.ink.cols, paper_.ink.rows), min_h_, max_h_);
    std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
    return heights[heights.size() / 2];
  }

  // Straight strokes longer than twice a letter (OpenCV's probabilistic Hough transform, bridging
  // gaps of a stroke's width), erased from `ink` with a pixel to spare.
  void erase_long_strokes(cv::Mat& ink) {
    const double longest_letter_stroke = std::max(16.0, 2.0 * letter_h_);
    std::vector<cv::Vec4i> found;
    cv::HoughLinesP(ink, found, 1, CV_PI / 360, static_cast<int>(letter_h_), longest_letter_stroke,
                    std::max(3.0, 1.5 * stroke_));
    std::vector<cv::Vec4f> lines(found.begin(), found.end());
    const int thickness = static_cast<int>(std::ceil(stroke_)) + 2;
    cv::Mat strokes = cv::Mat::zeros(ink.size(), CV_8U);
    for (const cv::Vec4f& l : lines) {
      cv::line(strokes, {cvRound(l[0]), cvRound(l[1])}, {cvRound(l[2]), cvRound(l[3])}, 255, thickness, cv::LINE_8);
      segments_.push_back(l);
    }
    erased_ = ink & strokes;
    ink.setTo(0, strokes);
    // Crumbs of the strokes' edges that the erasure leaves are thinner than a stroke.
    cv::Mat opened;
    cv::morphologyEx(ink, opened, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, {2, 2}));
    cv::Mat crumbs = ink & ~opened;
    cv::dilate(strokes, strokes, cv::Mat());
    ink.setTo(0, crumbs & strokes);
  }

  bool touches_erased(const Piece& p) const {
    if (erased_.empty()) return false;
    const cv::Rect around = (p.box + cv::Size(4, 4) - cv::Point(2, 2)) & cv::Rect(0, 0, erased_.cols, erased_.rows);
    return cv::countNonZero(erased_(around)) > 0;
  }

  // A letter whose own stroke lay on the erased stroke (a B standing on a line) lost it: read again
  // with the stroke's ink inside its box given back, and kept so when that reads more surely.
  void with_stroke_under(Glyph& g) const {
    Piece whole = g.piece;
    whole.mask = whole.mask | erased_(whole.box);
    if (cv::countNonZero(whole.mask) != cv::countNonZero(g.piece.mask)) {
      Reading r = read(whole);
      if (!r.mark() && r.confidence > g.reading.confidence) g.reading = std::move(r), g.piece.mask = whole.mask;
    }
    with_stroke_beside(g);
  }

  // A stroke that runs on into a letter (a line ending at a point just below a D runs on into its
  // stem, a line from the right into an E's lower bar) took a whole side of it, so the piece left
  // is narrower than the letter: the erased ink within a third of the letter's height around the
  // piece (a fifth above and below), joined to it, is given back, and kept when it reads more surely.
  void with_stroke_beside(Glyph& g) const {
    const cv::Rect& b = g.piece.box;
    const int dx = static_cast<int>(std::ceil(0.35 * b.height)), dy = static_cast<int>(std::ceil(0.2 * b.height));
    const cv::Rect grown =
        cv::Rect(b.x - dx, b.y - dy, b.width + 2 * dx, b.height + 2 * dy) & cv::Rect(0, 0, erased_.cols, erased_.rows);
    cv::Mat joined = erased_(grown).clone();
    g.piece.mask.copyTo(joined(b - grown.tl()), g.piece.mask);
    cv::Mat labels;
    cv::connectedComponents(joined, labels, 8, CV_32S);
    cv::Mat own = cv::Mat::zeros(joined.size(), CV_8U);
    std::vector<bool> kept(static_cast<std::size_t>(joined.rows * joined.cols + 1), false);
    for (int y = 0; y < b.height; ++y)
      for (int x = 0; x < b.width; ++x)
        if (g.piece.mask.at<std::uint8_t>(y, x))
          kept[static_cast<std::size_t>(labels.at<int>(y + b.y - grown.y, x + b.x - grown.x))] = true;
    for (int y = 0; y < joined.rows; ++y)
      for (int x = 0; x < joined.cols; ++x)
        if (joined.at<std::uint8_t>(y, x) && kept[static_cast<std::size_t>(labels.at<int>(y, x))])
          own.at<std::uint8_t>(y, x) = 255;
    std::vector<cv::Point> points;
    cv::findNonZero(own, points);
    const cv::Rect box = cv::boundingRect(points) + grown.tl();
    if (box == b || box.height > max_h_ || box.width > max_w_) return;
    Piece whole;
    whole.box = box;
    whole.mask = own(box - grown.tl()).clone();
    whole.touches_stroke = true;
    Reading r = read(whole);
    if (!r.mark() && r.confidence >= g.reading.confidence && r.confidence >= kConfidentBar)
      g.reading = std::move(r), g.piece = std::move(whole);
  }

  // A bar (read as I, l or 1) lying along an erased stroke is a piece of that stroke.
  void drop_stroke_bits() {
    std::erase_if(glyphs_, [&](const Glyph& g) {
      if (!g.piece.touches_stroke) return false;
      std::vector<cv::Point> points;
      cv::findNonZero(g.piece.mask, points);
      const cv::RotatedRect r = cv::minAreaRect(points);
      const double length = std::max(r.size.width, r.size.height), thin = std::min(r.size.width, r.size.height);
      if (length < 2.5 * thin && !bar(text_of(g.reading.best())) && !g.reading.mark()) return false;
      const double angle = (r.size.width >= r.size.height ? r.angle : r.angle + 90) * CV_PI / 180;
      const cv::Point2d centre(g.piece.box.x + r.center.x, g.piece.box.y + r.center.y);
      for (const cv::Vec4f& s : segments_) {
        const cv::Point2d a(s[0], s[1]), b(s[2], s[3]), d = b - a;
        const double len = std::hypot(d.x, d.y);
        const double across = std::abs((centre - a).cross(d)) / len;
        const double along = (centre - a).dot(d) / len;
        const double turn = std::abs(std::sin(std::atan2(d.y, d.x) - angle));
        if (across <= stroke_ + 2 && along >= -length && along <= len + length && turn < 0.26) return true;
      }
      return false;
    });
  }

  // A prime drawn large enough to be read as a glyph: a piece at most 0.6 of the height of a glyph
  // just left of it, ending above that glyph's middle, is looked at as a small piece.
  void primes_to_small(std::vector<Piece>& small) {
    std::vector<bool> move(glyphs_.size(), false);
    for (std::size_t i = 0; i < glyphs_.size(); ++i) {
      const cv::Rect& p = glyphs_[i].piece.box;
      for (const Glyph& g : glyphs_) {
        const cv::Rect& b = g.piece.box;
        if (g.reading.mark() || &g == &glyphs_[i] || p.height > 0.6 * b.height) continue;
        const double right = p.x - (b.x + b.width);
        if (right >= -0.3 * b.width && right <= 0.5 * b.height && p.y <= b.y + 0.25 * b.height &&
            p.y + p.height <= b.y + 0.65 * b.height)
          move[i] = true;
      }
    }
    for (std::size_t i = glyphs_.size(); i-- > 0;)
      if (move[i])
        small.push_back(std::move(glyphs_[i].piece)), glyphs_.erase(glyphs_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  // Small pieces: the dot of an i or a j above a stem, a prime at a glyph's top right; the rest
  // are specks.
  void attach_small(const std::vector<Piece>& small) {
    for (const Piece& s : small) {
      const double sx = s.box.x + s.box.width / 2.0;
      Glyph* best = nullptr;
      double best_gap = 1e9;
      bool as_dot = false;
      for (Glyph& g : glyphs_) {
        if (g.reading.mark()) continue;
        const cv::Rect& b = g.piece.box;
        const double h = b.height;
        if (s.box.height > 0.6 * h) continue;
        // A dot: above the glyph, over it.
        const double above = b.y - (s.box.y + s.box.height);
        if (above >= -1 && above <= 0.5 * h && sx >= b.x - 1 && sx <= b.x + b.width + 1 && above < best_gap)
          best = &g, best_gap = above, as_dot = true;
        // A prime: right of the glyph, level with its top.
        const double right = s.box.x - (b.x + b.width);
        if (right >= -0.3 * b.width && right <= 0.5 * h && s.box.y <= b.y + 0.25 * h &&
            s.box.y + s.box.height <= b.y + 0.65 * h && right + 1 < best_gap)
          best = &g, best_gap = right + 1, as_dot = false;
      }
      if (!best) continue;
      if (as_dot) {
        const Piece joined = join(best->piece, s);
        Reading r = read(joined);
        const std::string& t = text_of(r.best());
        if (t == "i" || t == "j") best->piece = joined, best->reading = std::move(r);
        continue;
      }
      // A prime is a short stroke, taller than wide, a quarter of the letter's height or more; a
      // shorter or rounder mark there is a speck. One the classifier does not read as a prime is
      // doubtful.
      const double h = best->piece.box.height;
      if (s.box.height < 1.3 * s.box.width || s.box.height < 0.25 * h) continue;
      const Reading r = read(s, true);
      best->prime = kPrime;
      best->prime_confidence = text_of(r.best()) == kPrime ? r.confidence : 0.5;
    }
  }

  // Glyphs on one line close together, joined left to right.
  std::vector<LetterRead> labels() {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < glyphs_.size(); ++i)
      if (!glyphs_[i].reading.mark() || options_.keep_marks) order.push_back(i);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return glyphs_[a].piece.box.x < glyphs_[b].piece.box.x; });
    const double cap = capital_height();
    std::vector<LetterRead> out;
    for (std::size_t k = 0; k < order.size(); ++k) {
      Glyph& first = glyphs_[order[k]];
      if (first.used) continue;
      first.used = true;
      std::vector<Glyph*> run{&first};
      if (!first.reading.mark())
        for (std::size_t j = k + 1; j < order.size(); ++j) {
          Glyph& next = glyphs_[order[j]];
          if (next.used || next.reading.mark()) continue;
          const cv::Rect& a = run.back()->piece.box;
          const cv::Rect& b = next.piece.box;
          const double h = std::max(a.height, b.height);
          const double gap = b.x - (a.x + a.width);
          if (gap > 0.35 * h) break;
          if (gap < -0.25 * h) continue;
          const double overlap = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
          const bool level = overlap >= 0.5 * std::min(a.height, b.height);
          // A subscript: smaller, its bottom at or below the letter's, and beside the letter (its top
          // above the letter's bottom, its bottom at most half a letter below it).
          const bool subscript = b.height < 0.85 * a.height && b.y + b.height >= a.y + a.height - 0.15 * a.height &&
                                 b.y >= a.y + 0.2 * a.height && b.y < a.y + a.height &&
                                 b.y + b.height <= a.y + 1.5 * a.height;
          if (!level && !subscript) continue;
          if (!run.back()->prime.empty()) break;  // a prime ends a label
          next.used = true;
          run.push_back(&next);
        }
      out.push_back(label_of(run, cap));
    }
    std::sort(out.begin(), out.end(), [](const LetterRead& a, const LetterRead& b) {
      return a.box.y + a.box.height <= b.box.y ? true : b.box.y + b.box.height <= a.box.y ? false : a.box.x < b.box.x;
    });
    return out;
  }

  // The height of the picture's capitals: the median of glyphs read confidently as capitals or
  // digits that are no case twin (0 when there are none).
  double capital_height() const {
    std::vector<int> heights;
    for (const Glyph& g : glyphs_) {
      if (g.reading.mark() || g.reading.confidence < kConfidentBar) continue;
      const std::string t = text_of(g.reading.best());
      if (t.size() == 1 &&
          (std::isupper(static_cast<unsigned char>(t[0])) || std::isdigit(static_cast<unsigned char>(t[0]))) &&
          !case_twin(t[0]))
        heights.push_back(g.piece.box.height);
    }
    if (heights.empty()) return 0;
    std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
    return heights[heights.size() / 2];
  }

  LetterRead label_of(const std::vector<Glyph*>& run, double cap) const {
    LetterRead out;
    out.box = run.front()->piece.box;
    std::vector<std::string> texts, seconds;
    std::vector<double> confidences;
    std::vector<std::string> doubts;
    for (const Glyph* g : run) {
      out.box |= g->piece.box;
      out.height_px = std::max<double>(out.height_px, g->piece.box.height);
      out.touches_stroke = out.touches_stroke || g->piece.touches_stroke;
      std::string t = text_of(g->reading.best()), second = text_of(g->reading.second());
      double confidence = g->reading.confidence;
      if (t.size() == 1 && case_twin(t[0])) {
        const std::string lower(1, static_cast<char>(std::tolower(static_cast<unsigned char>(t[0]))));
        const double share = cap > 0 ? g->piece.box.height / cap : 1;
        if (options_.alphabet == Alphabet::point_labels || share >= kCapitalShare) {
          // a capital
        } else if (share <= kLowerShare) {
          t = lower;
        } else {
          second = lower;
          confidence = std::min(confidence, 0.5);
          doubts.push_back(either(t, lower) + " (case by height)");
        }
      }
      if (second.size() == 1 && case_twin(second[0]) && cap > 0 && options_.alphabet == Alphabet::diagram_text &&
          g->piece.box.height / cap <= kLowerShare)
        second = std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(second[0]))));
      if (confidence < kConfidentBar && doubts.empty())
        doubts.push_back(either(t, second.empty() ? "no letter" : second));
      texts.push_back(t), seconds.push_back(second), confidences.push_back(confidence);
      if (!g->prime.empty()) {
        texts.push_back(g->prime), seconds.push_back(""), confidences.push_back(g->prime_confidence);
        if (g->prime_confidence < kConfidentBar) doubts.push_back("prime or speck");
      }
    }
    out.confidence = 1;
    std::size_t weakest = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      out.label += texts[i];
      out.confidence *= confidences[i];
      if (confidences[i] < confidences[weakest]) weakest = i;
    }
    for (std::size_t i = 0; i < texts.size(); ++i) out.runner_up.text += i == weakest ? seconds[i] : texts[i];
    out.runner_up.confidence = (1 - confidences[weakest]) * out.confidence / std::max(confidences[weakest], 1e-9);
    out.doubtful = out.confidence < kConfidentBar;
    if (out.doubtful) {
      for (std::size_t i = 0; i < doubts.size(); ++i) {
        if (i) out.doubt += "; ";
        out.doubt += doubts[i];
      }
      if (out.doubt.empty()) out.doubt = "several glyphs each a little unsure";
    }
    out.centre = {out.box.x + out.box.width / 2.0, out.box.y + out.box.height / 2.0};
    return out;
  }

  const Paper& paper_;
  const LetterOptions& options_;
  double min_h_ = 5, max_h_ = 16, max_w_ = 32, stroke_ = 2, letter_h_ = 12;
  bool measured_ = false;  // letter_h_ measured on the picture's letters
  std::vector<Glyph> glyphs_;
  cv::Mat erased_;                   // ink taken away as strokes
  std::vector<cv::Vec4f> segments_;  // the strokes erased (the detector's segments)
};

}  // namespace

std::vector<LetterRead> read_letters(const Paper& paper, const LetterOptions& options) {
  return Reader(paper, options).run();
}

std::vector<GlyphGuess> classify_glyph(const cv::Mat& ink_patch, std::size_t how_many, Alphabet alphabet) {
  CV_Assert(ink_patch.type() == CV_8U);
  std::vector<cv::Point> points;
  cv::findNonZero(ink_patch, points);
  if (points.empty()) return {{"", 1.0}};
  const cv::Rect box = cv::boundingRect(points);
  return classify_normalized(normalized_glyph(ink_patch(box), ink_patch(box)),
                             static_cast<double>(box.height) / box.width, how_many, alphabet);
}

std::vector<GlyphGuess> classify_normalized(const cv::Mat& patch, double aspect, std::size_t how_many,
                                            Alphabet alphabet) {
  const Reading r = read_patch(patch, aspect, alphabet);
  std::vector<GlyphGuess> out;
  for (std::size_t i = 0; i < std::min(how_many, r.ranked.size()); ++i)
    out.push_back({text_of(r.ranked[i].first), i == 0 ? r.confidence : (1 - r.confidence) / std::pow(2.0, i - 1)});
  return out;
}

double doubt_threshold() {
  return kConfidentBar;
}

}  // namespace geotruth::vision
