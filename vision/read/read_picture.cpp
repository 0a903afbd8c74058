// read_picture: a diagram from its picture alone (docs/reader.md). The steps, each in its own
// source: the paper and the letters (read_glyphs.cpp), straight strokes (read_strokes.cpp),
// circles and arcs (read_rounds.cpp), dots (read_dots.cpp), points and letters' points
// (read_points.cpp), the shapes of pictures without letters (read_shapes.cpp); here they are run
// in order and written as a native scene with its evidence and its doubts.
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <geotruth/reader.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "vision/detectors.hpp"
#include "vision/pixels.hpp"
#include "vision/read/points.hpp"
#include "vision/read/read.hpp"
#include "vision/read/shapes.hpp"

namespace geotruth::vision {
namespace {

using read::Glyph;
using read::Piece;
using read::ReadPoint;
using read::Round;
using Json = nlohmann::ordered_json;

// A measured length in the picture's pixels, as an exact decimal of two places.
Rational px(double v) {
  return Rational(static_cast<long>(std::llround(v * 100))) / 100;
}
// A measure for the record: `unit` is 0.1, 0.01 or 0.001 (divided, not multiplied, so that the
// double is the one its decimal text reads as).
double rounded(double v, double unit = 0.01) {
  const double per = std::round(1 / unit);
  return std::round(v * per) / per;
}

Image resized(const Image& image, double scale) {
  const cv::Mat rgb(image.height, image.width, CV_8UC3, const_cast<std::uint8_t*>(image.rgb.data()));
  cv::Mat out;
  cv::resize(rgb, out, {}, scale, scale, scale < 1 ? cv::INTER_AREA : cv::INTER_CUBIC);
  Image result;
  result.width = out.cols, result.height = out.rows;
  result.rgb.assign(out.data, out.data + out.total() * 3);
  return result;
}

// The reader judges ink at a share of the strokes' own darkness at least (a third for strokes and
// dots; a quarter for letters, whose thin joins are lighter, and only when the picture has halos
// away from its strokes: the fringe of a clean letter holds its strokes together): compression halos and faint specks
// (JPEG blocks around every stroke, a few tens of gray levels) are below it, the strokes and
// letters far above it. The paper's measure (vision/paper.cpp) stays as it is; this is a stricter
// threshold on its darkness, for reading structure rather than judging a stroke's contrast.
// Whether faint ink lies away from the strokes' cores (more than 2 px from ink at half the strokes'
// darkness): compression halos and specks, not the anti-aliased fringe every stroke has.
bool has_halos(const Paper& paper, double contrast) {
  cv::Mat core = paper.darkness >= 0.5 * contrast;
  const int cores = cv::countNonZero(core);
  if (cores == 0) return false;
  cv::dilate(core, core, cv::getStructuringElement(cv::MORPH_RECT, {5, 5}));
  cv::Mat faint = (paper.darkness > paper.ink_level) & (paper.darkness < 0.25 * contrast);
  faint.setTo(0, core);
  return cv::countNonZero(faint) > 0.2 * cores;
}

// The 90th percentile of the darkness of the ink: the strokes' own darkness.
double stroke_contrast(const Paper& paper) {
  std::vector<float> dark;
  for (int y = 0; y < paper.darkness.rows; ++y) {
    const float* d = paper.darkness.ptr<float>(y);
    const std::uint8_t* ink = paper.ink.ptr<std::uint8_t>(y);
    for (int x = 0; x < paper.darkness.cols; ++x)
      if (ink[x]) dark.push_back(d[x]);
  }
  if (dark.size() < 20) return 0;
  auto at = dark.begin() + static_cast<std::ptrdiff_t>(0.9 * (dark.size() - 1));
  std::nth_element(dark.begin(), at, dark.end());
  return *at;
}

void raise_ink_level(Paper& paper, double share, double contrast) {
  const double level = std::max(paper.ink_level, share * contrast);
  if (level <= paper.ink_level) return;
  paper.ink_level = level;
  paper.ink = paper.darkness > level;
}

// Per-step CPU time on stderr when GEOTRUTH_READER_DEBUG is set (for profiling the reader).
class StepClock {
 public:
  StepClock() : on_(std::getenv("GEOTRUTH_READER_DEBUG") != nullptr), last_(std::clock()) {}
  void step(const char* name) {
    if (!on_) return;
    const std::clock_t now = std::clock();
    std::fprintf(stderr, "  %-12s %6.1f ms\n", name, 1000.0 * (now - last_) / CLOCKS_PER_SEC);
    last_ = now;
  }

 private:
  bool on_;
  std::clock_t last_;
};

struct Doubt {
  Finding finding;
  Json instead;  // null: no other reading to offer
};

class Reader {
 public:
  Reader(const Image& image, const std::string& id, const ReadOptions& options) : image_(image), options_(options) {
    out_.scene.id = id;
    out_.scene.frame.width = image.width, out_.scene.frame.height = image.height;
    out_.scene.frame.y = YAxis::down;
  }

  PictureRead run() {
    if (image_.width <= 0 || image_.height <= 0) {
      doubt(FindingKind::picture_unavailable, {}, "the picture is empty", Json());
      return finish();
    }
    const int longer = std::max(image_.width, image_.height);
    double scale = 1;
    if (longer < options_.upscale_below_px)
      scale = std::min(4.0, static_cast<double>(options_.upscale_below_px) / longer);
    const int reduce_above = options_.reduce_above_px;
    if (reduce_above > 0 && longer > reduce_above) scale = static_cast<double>(reduce_above) / longer;
    // A strip a few pixels thin holds no diagram, and OpenCV's windows do not fit in it.
    constexpr int kMinWorkingSide = 8;
    if (std::min(image_.width, image_.height) * scale < kMinWorkingSide) {
      doubt(FindingKind::picture_unavailable, {},
            "the picture is " + std::to_string(image_.width) + " x " + std::to_string(image_.height) +
                " pixels: too thin to read (its shorter side is read at under " + std::to_string(kMinWorkingSide) +
                " pixels)",
            Json());
      return finish();
    }
    StepClock clock;
    Image work;
    std::optional<ColourLayers> layers;
    const auto measure_at = [&](double at) {
      work = at == 1 ? image_ : resized(image_, at);
      layers = split_coloured_labels(work);
      sheet_.paper = measure_paper(layers ? layers->strokes : work, Specks::spare_clean_hairlines);
    };
    measure_at(scale);
    // Hairlines (a pixel wide, often aliased) are read at twice the size: the line detector needs
    // two edges a pixel or more apart, and the fits gain the sub-pixel steps.
    if (scale == 1 && longer * 2 <= std::max(reduce_above, 2 * options_.upscale_below_px) &&
        ink_half_thickness(sheet_.paper.ink) <= 1.0) {
      scale = 2;
      measure_at(scale);
    }
    scale_ = scale;
    const double contrast = stroke_contrast(sheet_.paper);
    if (layers) sheet_.labels = measure_paper(layers->labels, Specks::spare_clean_hairlines);
    Paper for_letters = sheet_.letters_paper();
    const bool halos = has_halos(sheet_.paper, contrast);
    if (!layers && (halos || sheet_.paper.smoothing > 0)) raise_ink_level(for_letters, 0.25, contrast);
    if (std::getenv("GEOTRUTH_READER_DEBUG"))
      std::fprintf(stderr, "contrast %.1f halos %d letters' ink level %.1f%s\n", contrast, halos, for_letters.ink_level,
                   layers ? " (labels in a colour of their own)" : "");
    raise_ink_level(sheet_.paper, 0.33, contrast);
    sheet_.width = work.width, sheet_.height = work.height, sheet_.scale = scale;
    sheet_.ridge = ink_half_thickness(sheet_.paper.ink);
    sheet_.half = std::max(0.5, sheet_.ridge - 0.5);
    sheet_.stroke = stroke_width_of(sheet_.paper.ink);
    clock.step("paper");
    sheet_.unknown = cv::Mat::zeros(sheet_.paper.ink.rows, sheet_.paper.ink.cols, CV_8U);
    // The detectors see the denoised picture, paper white and ink black at its own contrast.
    cv::Mat gray;
    sheet_.paper.darkness.convertTo(gray, CV_8U, -1, 255);
    const Detections found = detect_in(gray, sheet_.paper.ink);
    clock.step("detectors");
    std::vector<cv::Vec4f> segments;
    for (const auto& s : found.segments)
      segments.push_back(
          {static_cast<float>(s.a.x), static_cast<float>(s.a.y), static_cast<float>(s.b.x), static_cast<float>(s.b.y)});
    if (std::getenv("GEOTRUTH_READER_DEBUG")) {
      std::fprintf(stderr, "ridge %.2f half %.2f stroke %.2f ink_level %.1f proposals %zu segments %zu\n", sheet_.ridge,
                   sheet_.half, sheet_.stroke, sheet_.paper.ink_level, found.ellipses.size(), found.segments.size());
    }
    std::vector<Detections::Ellipse> proposals = found.ellipses;
    for (auto& e : read::propose_circles(sheet_)) proposals.push_back(e);
    clock.step("hough");
    read::read_rounds(sheet_, proposals, rounds_, ovals_);
    clock.step("rounds");
    if (options_.letters) {
      // The letters, once the long strokes are known: the letter reader separates glyphs from them
      // (a line's bit beside a letter is not its prime); their boxes are then unknown to the strokes.
      // Labels in a colour of their own are read from their own layer, which no stroke crosses.
      const int thickness = static_cast<int>(std::lround(2 * sheet_.half)) + 1;  // the stroke, not its fringe
      cv::Mat lines_only = layers ? cv::Mat::zeros(sheet_.paper.ink.rows, sheet_.paper.ink.cols, CV_8U)
                                  : long_strokes(segments, thickness);
      cv::Mat strokes = lines_only.clone();
      if (!layers) draw_rounds(strokes, thickness);
      const cv::Mat tinted = layers ? cv::Mat() : tinted_pixels(work);
      read::read_glyphs(sheet_, for_letters, strokes);
      read::drop_tinted_glyphs(sheet_, tinted);
      // A letter's bowl read as a small circle: dropped, and the letters read again without it.
      if (read::drop_letter_bowls(rounds_, sheet_.glyphs)) {
        if (!layers) draw_rounds(lines_only, thickness);
        read::read_glyphs(sheet_, for_letters, lines_only);
        read::drop_tinted_glyphs(sheet_, tinted);
      }
      if (!lettered()) {
        sheet_.glyphs.clear();
        sheet_.unknown.setTo(0);
      }
      clock.step("letters");
    }
    if (sheet_.labels) hide_under_labels();
    pieces_ = read::read_pieces(sheet_, segments);
    clock.step("pieces");
    read::drop_rounds_of_strokes(sheet_, rounds_, pieces_);
    read::drop_pieces_on_rounds(sheet_, pieces_, rounds_);
    read::drop_letter_sized_pieces(sheet_, pieces_, rounds_);
    read::read_arcs(sheet_, proposals, pieces_, rounds_);
    clock.step("arcs");
    dots_ = read::read_dots(sheet_, pieces_, rounds_);
    read::drop_blocks_along_strokes(sheet_, dots_, pieces_, rounds_);
    read::extend_under_labels(sheet_, pieces_);
    // Ellipses are shapes of pictures without letters (a lettered figure's are circles, or curves
    // the ellipse fit only approximates).
    static const std::vector<read::Oval> kNoOvals;
    read::trim_at_junctions(sheet_, pieces_, rounds_, sheet_.glyphs.empty() ? ovals_ : kNoOvals, dots_);
    read::centre_dots_on_strokes(sheet_, dots_, pieces_);
    pieces_ = read::dot_to_dot_pieces(sheet_, dots_, rounds_, std::move(pieces_));
    read::mark_small_capitals(sheet_.glyphs);
    if (!sheet_.glyphs.empty()) font_ = read::read_letters_by_font(sheet_, pieces_, rounds_, dots_);
    read::drop_dots_in_letters(sheet_, dots_);
    drop_stroke_glyphs();
    drop_specks();
    clock.step("dots");
    // After the letters: the pieces taken on into the dots would cover their letters' ink.
    read::run_on_to_dots(sheet_, dots_, pieces_);
    points_ = read::read_points(sheet_, pieces_, rounds_, dots_);
    if (std::getenv("GEOTRUTH_READER_DEBUG")) print_pieces_and_points();
    name_points();
    write_points();
    write_lines();
    write_circles();
    doubt_unread_joins();
    clock.step("scene");
    check_against(work);
    clock.step("crosscheck");
    if (sheet_.glyphs.empty()) add_shapes();
    return finish();
  }

 private:
  P2 original(P2 p) const { return {p.x / scale_, p.y / scale_}; }
  double original(double length) const { return length / scale_; }

  void doubt(FindingKind kind, std::vector<std::string> elements, std::string detail, Json instead,
             std::optional<double> slack = std::nullopt) {
    Finding f = make_finding(kind, std::move(elements), std::move(detail), slack);
    f.severity = Severity::doubtful;
    doubts_.push_back({std::move(f), std::move(instead)});
  }

  // The strokes and points read, in the picture's pixels (GEOTRUTH_READER_DEBUG): each point with
  // its dot and the pieces through it, with its offset from each.
  void print_pieces_and_points() const {
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
      const P2 a = original(pieces_[i].a()), b = original(pieces_[i].b());
      std::fprintf(stderr, "piece %zu %.1f,%.1f - %.1f,%.1f coverage %.2f%s\n", i, a.x, a.y, b.x, b.y,
                   pieces_[i].coverage, pieces_[i].between_dots ? " dot to dot" : "");
    }
    for (const read::ReadPoint& p : points_) {
      const P2 at = original(p.at);
      std::fprintf(stderr, "point %.1f,%.1f dot %d pieces", at.x, at.y, p.dot);
      for (const int i : p.pieces) std::fprintf(stderr, " %d (%.1f)", i, original(pieces_[i].offset(p.at)));
      std::fprintf(stderr, "\n");
    }
  }

  // Letters to points; unlabelled points get ids "_1", "_2", … in reading order.
  void name_points() {
    read::mark_variables(sheet_.glyphs);
    const bool dotted = read::marks_points_with_dots(sheet_, dots_);
    read::LetterPlacement placement;
    std::vector<read::Attachment> attached = read::attach_letters(sheet_.glyphs, points_, dotted, &placement);
    if (font_ && dotted) {
      read::complete_letters(sheet_.glyphs, attached, points_, *font_, placement);
      read::close_run_gaps(sheet_.glyphs, attached, *font_);
    }
    read::settle_on_ring(sheet_.glyphs, attached, points_, placement, dotted);
    if (dotted) read::take_nearest_free_points(sheet_.glyphs, attached, points_);
    read::prefer_junctions_to_ends_at_letters(sheet_.glyphs, attached, points_, sheet_.half + 1.5, dotted);
    names_.assign(points_.size(), "");
    letter_of_.assign(points_.size(), -1);
    std::map<std::string, int> used;
    for (std::size_t g = 0; g < sheet_.glyphs.size(); ++g) {
      const Glyph& glyph = sheet_.glyphs[g];
      if (glyph.text.empty()) continue;
      const read::Attachment& a = attached[g];
      if (!read::glyph_names_a_point(glyph)) {
        measures_.push_back(static_cast<int>(g));  // a length's or an angle's measure, no point's name
        continue;
      }
      if (a.point < 0) {
        unattached_.push_back(static_cast<int>(g));
        continue;
      }
      std::string id = glyph.text;
      if (used.count(id))
        id += "?" + std::to_string(++used[id]);  // the same letter twice
      else
        used[id] = 1;
      names_[a.point] = id;
      letter_of_[a.point] = static_cast<int>(g);
    }
    if (dotted) name_unseen_letter(placement, attached);
    int next = 0;
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (names_[p].empty() && !points_[p].centre_only) names_[p] = std::string(1, '_').append(std::to_string(++next));
    // Doubts about letters: read as another, attached to another point, or not attached at all.
    for (std::size_t g = 0; g < sheet_.glyphs.size(); ++g) {
      const Glyph& glyph = sheet_.glyphs[g];
      const read::Attachment& a = attached[g];
      if (a.point < 0 || names_[a.point].empty()) continue;
      const std::string& id = names_[a.point];
      if (id != glyph.text)
        // Either point may be the letter's: the other reading gives this point the letter.
        doubt(FindingKind::letter_uncertain, {id}, "the letter " + glyph.text + " is written twice",
              Json{{"rename", id}, {"to", glyph.text}});
      // A letter the font draws at least 0.1 worse here than its runner-up, a letter read at another
      // point: it was only left for this glyph (each letter once), so the range or the other place
      // may be wrong, and either point may be the runner-up's.
      if (reading_in_doubt(g)) {
        const std::string other = read::may_be_no_letter(glyph) ? std::string("no letter") : glyph.runner_up;
        doubt(FindingKind::letter_uncertain, {id},
              "the glyph read as " + glyph.text + " may be " + other + " (confidence " +
                  std::to_string(rounded(glyph.confidence)).substr(0, 4) + " against " +
                  std::to_string(rounded(glyph.runner_up_confidence)).substr(0, 4) + ")",
              glyph.runner_up.empty() ? Json{{"unlabel", id}} : Json{{"rename", id}, {"to", glyph.runner_up}});
      }
      // Two letters each the other's runner-up, neither read surely (a bar read as I beside an L
      // whose foot a stroke took): the two points may have their letters the other way round. Not
      // when the classifier read each glyph's ink as its letter nearly surely: two independent reads
      // agree at both places (VisOnlyQA 00127's E and F, each drawn by the font within 0.04 of the
      // other letter, each read by the classifier at 1.00).
      constexpr double kNeitherSure = 0.75, kClassifierSure = 0.9;
      const auto read_twice = [&](const Glyph& x) {
        return x.classifier_text == x.text && x.classifier_confidence >= kClassifierSure;
      };
      for (std::size_t o = g + 1; o < sheet_.glyphs.size(); ++o) {
        const Glyph& other = sheet_.glyphs[o];
        if (attached[o].point < 0 || names_[attached[o].point].empty() || other.text.size() != 1) continue;
        if (glyph.text.size() != 1 || glyph.runner_up != other.text || other.runner_up != glyph.text) continue;
        if (std::max(glyph.confidence, other.confidence) >= kNeitherSure) continue;
        if (read_twice(glyph) && read_twice(other)) continue;
        const std::string& other_id = names_[attached[o].point];
        doubt(FindingKind::letter_uncertain, {id, other_id},
              "the glyphs read as " + glyph.text + " and " + other.text + " may be the other way round (" + glyph.text +
                  " with confidence " + std::to_string(rounded(glyph.confidence)).substr(0, 4) + ", " + other.text +
                  " with " + std::to_string(rounded(other.confidence)).substr(0, 4) + ")",
              Json{{"swap", Json::array({id, other_id})}});
      }
      if (a.runner_up_about_as_near() && !names_[a.runner_up].empty())
        doubt(FindingKind::letter_unattached, {id, names_[a.runner_up]},
              "the letter " + id + " is about as near the point " + names_[a.runner_up] + " as its own",
              Json{{"swap", Json::array({id, names_[a.runner_up]})}}, original(a.runner_up_cost * glyph.height));
    }
  }

  // Whether the picture names its points with letters. A lettered figure names two points or more;
  // a picture without letters (GePBench's engine writes none) may still show a glyph-like mark or
  // two (a spiral's inner turn, a short arc or a corner read as C, J, l), mostly unsure, and specks
  // no taller than two strokes' width (beside a spiral's curl: read as F or 3), which no letter is.
  // So one glyph alone, or two of which none reads surely, specks left out, are marks of the
  // figure, not letters.
  bool lettered() const {
    std::size_t glyphs = 0, sure = 0;
    for (const Glyph& g : sheet_.glyphs)
      // A glyph cut from a stroke it touches that reads better as its runner-up is as likely a bit of
      // a shape (a corner on an ellipse, a spiral's curl) as a letter: it does not make a picture
      // lettered.
      if (g.height > 2 * sheet_.stroke && !(g.touches_stroke && g.confidence < 0.5)) ++glyphs, sure += !g.doubtful;
    return glyphs > 2 || (glyphs == 2 && sure >= 1);
  }

  // The band the picture sets (docs/reader.md, "The band"), once the wobble is measured.
  void set_band() {
    ReadEvidence& e = out_.evidence;
    e.eps_num_px = std::max(1.0, e.reading.stroke_px / 2 + 1.5 * e.reading.wobble_px);
    e.eps_vis_px = std::max(3.0, 2 * e.eps_num_px);
  }

  // The shapes of a picture without letters, each polygon's kind on the picture's band; a kind too
  // close to call is a doubt whose other reading is that kind.
  void add_shapes() {
    set_band();
    const ReadEvidence& e = out_.evidence;
    for (const read::ShapeDoubt& d :
         read::add_shapes(sheet_, pieces_, rounds_, ovals_, 1 / scale_, e.eps_num_px, e.eps_vis_px, out_.scene)) {
      char detail[200];
      std::snprintf(detail, sizeof detail, "the polygon read as %s may be a %s (its corners %.2f px from one)",
                    d.kind.empty() ? "a plain polygon" : ("a " + d.kind).c_str(), d.instead.c_str(), d.gap);
      doubt(FindingKind::pixel_ambiguous, {d.shape}, detail, Json{{"retype", d.shape}, {"to", d.instead}}, d.gap);
    }
  }

  // The long straight strokes read so far, `thickness` wide, for the letter reader to separate the
  // letters from.
  cv::Mat long_strokes(const std::vector<cv::Vec4f>& segments, int thickness) {
    pieces_ = read::read_pieces(sheet_, segments);
    read::drop_pieces_on_rounds(sheet_, pieces_, rounds_);
    cv::Mat strokes = cv::Mat::zeros(sheet_.paper.ink.rows, sheet_.paper.ink.cols, CV_8U);
    const double long_stroke = std::max(30.0, 0.04 * std::max(sheet_.width, sheet_.height));
    // The stretch the detector saw, a stroke's width beyond: the walk's run may go on through a
    // point's dot into the letter written just beyond it (a stem continuing the line).
    const double pad = sheet_.stroke + 2;
    // A stroke that runs through a point's dot and on for less than a letter's length is a line
    // ending at the dot with the letter's stem beyond it (the detector follows both): it is drawn
    // to the dot only. Dots here are the clearly thicker blobs (a letter's stem can be as thick as
    // a thin dot).
    std::vector<read::Dot> dots = read::read_dots(sheet_, pieces_, rounds_);
    std::erase_if(dots, [&](const read::Dot& d) { return d.radius < std::max(2.5, sheet_.ridge + 1.5); });
    const double stem = 0.6 * long_stroke;
    for (const Piece& p : pieces_)
      if (p.length() >= long_stroke) {
        double from = std::max(p.t0, p.seen0 - pad), to = std::min(p.t1, p.seen1 + pad);
        for (const read::Dot& d : dots) {
          if (std::abs(p.offset(d.at)) > d.radius) continue;
          const double t = p.along(d.at);
          if (t > from && t - from < stem && to - t > long_stroke) from = t;
          if (t < to && to - t < stem && t - from > long_stroke) to = t;
        }
        const P2 a = p.at(from), b = p.at(to);
        cv::line(strokes, cv::Point(cvRound(a.x), cvRound(a.y)), cv::Point(cvRound(b.x), cvRound(b.y)), 255, thickness);
      }
    return strokes;
  }

  void draw_rounds(cv::Mat& mask, int thickness) const {
    for (const Round& r : rounds_)
      cv::circle(mask, cv::Point(cvRound(r.centre.x), cvRound(r.centre.y)), cvRound(r.radius), 255, thickness);
  }

  // Labels in a colour of their own hide the strokes they are written over (an opaque box, or the
  // label's own ink): every label's box, a stroke's width about it, is unknown to the strokes, read
  // or not as a letter.
  void hide_under_labels() {
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(sheet_.labels->ink, labels, stats, centroids, 8, CV_32S);
    const int pad = static_cast<int>(std::ceil(sheet_.stroke)) + 1;
    for (int c = 1; c < n; ++c) {
      const cv::Rect box(stats.at<int>(c, cv::CC_STAT_LEFT) - pad, stats.at<int>(c, cv::CC_STAT_TOP) - pad,
                         stats.at<int>(c, cv::CC_STAT_WIDTH) + 2 * pad, stats.at<int>(c, cv::CC_STAT_HEIGHT) + 2 * pad);
      sheet_.unknown(box & cv::Rect(0, 0, sheet_.width, sheet_.height)).setTo(255);
    }
  }

  // A "letter" whose ink lies along a stroke read (a line's end or a bit of a circle read as l or I)
  // is that stroke.
  void drop_stroke_glyphs() {
    if (sheet_.labels) return;  // the labels' colour tells them from the strokes
    const double tolerance = sheet_.on_stroke();
    std::erase_if(sheet_.glyphs, [&](const Glyph& g) {
      // A letter the font drew matched the ink the strokes leave (their pixels left out of its
      // score): a letter written across a junction of strokes, not a stroke's end.
      if (g.by_font) return false;
      int ink = 0, along = 0;
      const cv::Rect box = g.box & cv::Rect(0, 0, sheet_.width, sheet_.height);
      for (int y = box.y; y < box.y + box.height; ++y)
        for (int x = box.x; x < box.x + box.width; ++x) {
          if (!sheet_.paper.ink.at<std::uint8_t>(y, x)) continue;
          ++ink;
          const P2 p{x + 0.5, y + 0.5};
          along += std::any_of(pieces_.begin(), pieces_.end(),
                               [&](const Piece& piece) { return read::piece_distance(piece, p) <= tolerance; }) ||
                   std::any_of(rounds_.begin(), rounds_.end(),
                               [&](const Round& r) { return read::on_round(r, p, tolerance); });
        }
      return ink > 0 && along >= 0.6 * ink;
    });
  }

  // A single letter the classifier read, and the font did not read again, under half the median
  // height of the picture's glyphs (three at least) is a speck of a mark, no letter (Geometry3K 20
  // shrunk to 151 px: a degree sign's bit read as D, 7 px among glyphs of 20).
  void drop_specks() {
    if (sheet_.glyphs.size() < 3) return;
    std::vector<double> heights;
    for (const Glyph& g : sheet_.glyphs) heights.push_back(g.height);
    const double median = median_of(std::move(heights));
    std::erase_if(sheet_.glyphs,
                  [&](const Glyph& g) { return !g.by_font && g.text.size() == 1 && g.height < 0.5 * median; });
  }

  // Whether glyph g's letter is in doubt: read unsurely, and its runner-up forced on it (a letter
  // the font draws worse here, left for this glyph, unless the glyph naming the runner-up is told
  // from it), possibly no letter, or plausible.
  bool reading_in_doubt(std::size_t g) const {
    const Glyph& glyph = sheet_.glyphs[g];
    const bool forced = glyph.by_font && glyph.confidence <= 0 && !glyph.runner_up.empty() &&
                        !read::told_from_runner_up(sheet_.glyphs, g);
    return glyph.doubtful && (forced || read::may_be_no_letter(glyph) || read::runner_up_plausible(sheet_.glyphs, g));
  }

  // A letter written past the picture's edge is not drawn (the renderer clips it), and one written
  // over strokes may not be seen. In a figure marking its points with dots and lettering them A,
  // B, C, … once each, when one letter of the range read is missing or the range lacks its last,
  // one dot has no letter and every letter read has its point, the dot is that letter: named, not
  // labelled (no glyph shows it), the evidence saying so, when the dot lies so near the edge that
  // its letter, where the figure writes letters, may fall outside the picture, or when the letter
  // lies inside the range, the dot is a marker on a stroke or circle and no letter read is in doubt
  // or found in the strokes' ink alone (VisOnlyQA 00107noise_0's J, written across two strokes: no
  // glyph read; 00539noise_1's H, read as I at its dot with N about as near, is not).
  void name_unseen_letter(const read::LetterPlacement& placement, const std::vector<read::Attachment>& attached) {
    if (!unattached_.empty()) return;
    bool letters_sure = true;
    for (std::size_t g = 0; g < sheet_.glyphs.size(); ++g)
      if (attached[g].point >= 0 && read::glyph_names_a_point(sheet_.glyphs[g]))
        letters_sure = letters_sure && !reading_in_doubt(g) && !attached[g].runner_up_about_as_near() &&
                       !sheet_.glyphs[g].ink_hidden;  // one letter only may be told by elimination
    std::vector<double> heights;
    std::set<char> letters;
    for (std::size_t p = 0; p < points_.size(); ++p) {
      if (names_[p].empty()) continue;
      if (names_[p].size() != 1 || !std::isupper(static_cast<unsigned char>(names_[p][0]))) return;
      letters.insert(names_[p][0]);
      heights.push_back(sheet_.glyphs[static_cast<std::size_t>(letter_of_[p])].height);
    }
    if (letters.size() < 3 || *letters.begin() != 'A') return;
    // The letter missing lies inside the range read, or just past it (the last letter clipped:
    // VisOnlyQA 00281noise_0's D, its dot 16 px above the bottom edge).
    const int range = *letters.rbegin() - 'A' + 1, count = static_cast<int>(letters.size());
    const bool one_inside = count == range - 1, last_clipped = count == range && range < 26;
    if (!one_inside && !last_clipped) return;
    char missing = 'A';
    while (letters.count(missing)) ++missing;
    int free = -1;
    for (std::size_t p = 0; p < points_.size(); ++p) {
      if (!names_[p].empty() || points_[p].dot < 0) continue;
      if (free >= 0) return;  // two dots without a letter
      free = static_cast<int>(p);
    }
    if (free < 0) return;
    const double height = median_of(std::move(heights));
    const double reach = placement.ring ? std::hypot(placement.shift.x, placement.shift.y) + placement.radius + height
                                        : placement.reach + height;
    const P2 at = points_[static_cast<std::size_t>(free)].at;
    const double edge = std::min({at.x, at.y, sheet_.width - at.x, sheet_.height - at.y});
    const ReadPoint& dot = points_[static_cast<std::size_t>(free)];
    const bool hidden = one_inside && letters_sure && read::is_marker(sheet_, dot.dot_radius) &&
                        (!dot.pieces.empty() || !dot.rounds.empty());
    if (edge >= reach && !hidden) return;
    names_[static_cast<std::size_t>(free)] = std::string(1, missing);
    unseen_letter_ = free;
    unseen_past_edge_ = edge < reach;
  }

  void write_points() {
    index_.assign(points_.size(), -1);
    for (std::size_t p = 0; p < points_.size(); ++p) {
      if (names_[p].empty()) continue;  // a circle's centre no letter names
      const ReadPoint& rp = points_[p];
      Point point;
      point.id = names_[p];
      const P2 at = original(rp.at);
      point.at = Vec2{px(at.x), px(at.y)};
      point.labelled = letter_of_[p] >= 0;
      Json evidence{{"at", {rounded(at.x), rounded(at.y)}},
                    {"from", rp.dot >= 0                                ? "dot"
                             : rp.pieces.size() + rp.rounds.size() >= 2 ? "crossing"
                             : rp.pieces.size() + rp.rounds.size() == 1 ? "stroke end"
                                                                        : "letter"}};
      if (rp.dot >= 0) evidence["dot_radius_px"] = rounded(original(dots_[rp.dot].radius), 0.1);
      if (letter_of_[p] >= 0) {
        const Glyph& g = sheet_.glyphs[letter_of_[p]];
        Json letter{{"text", g.text},
                    {"confidence", rounded(g.confidence, 0.001)},
                    {"box",
                     {rounded(original(g.box.x), 0.1), rounded(original(g.box.y), 0.1),
                      rounded(original(g.box.width), 0.1), rounded(original(g.box.height), 0.1)}}};
        if (!g.runner_up.empty())
          letter["runner_up"] = g.runner_up, letter["runner_up_confidence"] = rounded(g.runner_up_confidence, 0.001);
        evidence["letter"] = std::move(letter);
      } else if (static_cast<int>(p) == unseen_letter_) {
        evidence["letter"] =
            Json{{"text", names_[p]},
                 {"from", unseen_past_edge_ ? "the figure's range: its letter lies past the edge"
                                            : "the figure's range: the one letter not seen, the one dot without one"}};
      }
      point.extra = Json{{"evidence", std::move(evidence)}}.dump();
      index_[p] = static_cast<int>(out_.scene.points.size());
      out_.scene.points.push_back(std::move(point));
    }
    // A letter no point could take: a point of its own where it is written, doubtful.
    for (int g : unattached_) {
      const Glyph& glyph = sheet_.glyphs[g];
      Point point;
      point.id = glyph.text;
      for (int k = 2; std::any_of(out_.scene.points.begin(), out_.scene.points.end(),
                                  [&](const Point& q) { return q.id == point.id; });
           ++k)
        point.id = glyph.text + "?" + std::to_string(k);
      const P2 at = original(glyph.centre);
      point.at = Vec2{px(at.x), px(at.y)};
      point.extra = Json{{"evidence", {{"from", "letter"}, {"letter", {{"text", glyph.text}}}}}}.dump();
      doubt(FindingKind::letter_unattached, {point.id},
            "the letter " + glyph.text + " is not beside any point read (placed where it is written)",
            Json{{"unlabel", point.id}});
      out_.scene.points.push_back(std::move(point));
    }
  }

  void write_lines() {
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
      const Piece& piece = pieces_[i];
      std::vector<std::pair<double, std::size_t>> on;
      for (std::size_t p = 0; p < points_.size(); ++p)
        if (index_[p] >= 0 && std::count(points_[p].pieces.begin(), points_[p].pieces.end(), static_cast<int>(i)))
          on.push_back({piece.along(points_[p].at), static_cast<std::size_t>(index_[p])});
      std::sort(on.begin(), on.end());
      on.erase(std::unique(on.begin(), on.end(), [](const auto& a, const auto& b) { return a.second == b.second; }),
               on.end());
      if (on.size() < 2) continue;
      Line line;
      for (const auto& [t, index] : on) line.through.push_back(index);
      const Vec2 &a = *out_.scene.points[line.through.front()].at, &b = *out_.scene.points[line.through.back()].at;
      if (a == b) continue;
      if (std::any_of(out_.scene.lines.begin(), out_.scene.lines.end(),
                      [&](const Line& l) { return l.through == line.through; }))
        continue;
      line.style = piece.dashed ? Stroke::dashed : Stroke::solid;
      line.extra = Json{{"evidence",
                         {{"coverage", rounded(piece.coverage, 0.001)},
                          {"contrast", rounded(piece.contrast, 0.1)},
                          {"length_px", rounded(original(piece.length()), 0.1)}}}}
                       .dump();
      out_.scene.lines.push_back(std::move(line));
    }
  }

  // A stroke the reader may have missed: two lettered points that no line read joins, whose
  // straight stretch is inked along most of it (a stroke cut at a point not seen, or merged into
  // another) — the reading with a line between them is the picture's as well.
  void doubt_unread_joins() {
    constexpr double kMayBeDrawn = 0.6;
    const double marker = read::marks_points_with_dots(sheet_, dots_) ? read::marker_radius(sheet_, dots_) : 0;
    const double skip = marker + sheet_.half + 1, across = sheet_.half + 1;
    const auto& scene = out_.scene;
    auto joined = [&](std::size_t a, std::size_t b) {
      return std::any_of(scene.lines.begin(), scene.lines.end(), [&](const Line& l) {
        return std::count(l.through.begin(), l.through.end(), a) && std::count(l.through.begin(), l.through.end(), b);
      });
    };
    for (std::size_t p = 0; p < points_.size(); ++p)
      for (std::size_t q = p + 1; q < points_.size(); ++q) {
        if (index_[p] < 0 || index_[q] < 0) continue;
        const auto a = static_cast<std::size_t>(index_[p]), b = static_cast<std::size_t>(index_[q]);
        if (!scene.points[a].labelled || !scene.points[b].labelled || joined(a, b)) continue;
        // Short joins too (VisOnlyQA 00332noise_1's CD, 17 px): five samples clear of both dots.
        if (dist(points_[p].at, points_[q].at) < 2 * skip + 5) continue;
        const read::Inking ink = read::inking(sheet_, points_[p].at, points_[q].at, skip, skip, across);
        if (ink.samples < 5 || ink.coverage < kMayBeDrawn) continue;
        if (read::arc_between(sheet_, rounds_, points_[p].at, skip, points_[q].at, skip, ink.contrast)) continue;
        if (broken_between_points(p, q, skip, across, kMayBeDrawn, joined)) continue;
        doubt(FindingKind::stroke_uncertain, {scene.points[a].id, scene.points[b].id},
              "no stroke was read from " + scene.points[a].id + " to " + scene.points[b].id +
                  ", yet the straight stretch between them is inked along " +
                  std::to_string(std::lround(100 * ink.coverage)) + " % of it",
              Json{{"add_line", {scene.points[a].id, scene.points[b].id}}});
      }
  }

  // Whether the stretch from point p to point q runs through a point read on it and, between two of
  // its points, a part no line read joins is inked along less than `may_be` of it: a stroke from p
  // to q would ink every part, and the ink along the whole is another stroke's, ending at a point
  // between (VisOnlyQA 00822: F–G drawn, G 0.8 px off F–A, G–A not drawn).
  template <class Joined>
  bool broken_between_points(std::size_t p, std::size_t q, double skip, double across, double may_be,
                             const Joined& joined) const {
    const P2 a = points_[p].at, b = points_[q].at;
    const double length = dist(a, b);
    const read::Piece stretch = read::Piece::from_to(a, b);
    std::vector<std::pair<double, std::size_t>> on{{0.0, p}, {length, q}};
    for (std::size_t k = 0; k < points_.size(); ++k) {
      if (k == p || k == q || index_[k] < 0) continue;
      const double t = stretch.along(points_[k].at);  // from p
      if (std::abs(stretch.offset(points_[k].at)) <= sheet_.on_stroke() && t > skip && t < length - skip)
        on.push_back({t, k});
    }
    if (on.size() == 2) return false;
    std::sort(on.begin(), on.end());
    for (std::size_t i = 0; i + 1 < on.size(); ++i) {
      const std::size_t u = on[i].second, v = on[i + 1].second;
      if (joined(static_cast<std::size_t>(index_[u]), static_cast<std::size_t>(index_[v]))) continue;
      const read::Inking part = read::inking(sheet_, points_[u].at, points_[v].at, skip, skip, across);
      if (part.samples >= 5 && part.coverage < may_be) return true;
    }
    return false;
  }

  void write_circles() {
    int next = 0;
    for (std::size_t c = 0; c < rounds_.size(); ++c) {
      const Round& r = rounds_[c];
      Circle circle;
      circle.id = std::string("circle").append(std::to_string(++next));
      // The centre: a point there (a dot or a letter), else its coordinates.
      const double reach = sheet_.merge_distance();
      for (std::size_t p = 0; p < points_.size(); ++p)
        if (index_[p] >= 0 && std::hypot(points_[p].at.x - r.centre.x, points_[p].at.y - r.centre.y) <= reach &&
            std::find(points_[p].rounds.begin(), points_[p].rounds.end(), static_cast<int>(c)) ==
                points_[p].rounds.end()) {
          circle.center_point = static_cast<std::size_t>(index_[p]);
          circle.center = out_.scene.points[index_[p]].at;
          break;
        }
      const P2 centre = original(r.centre);
      if (!circle.center) circle.center = Vec2{px(centre.x), px(centre.y)};
      circle.radius = px(original(r.radius));
      for (std::size_t p = 0; p < points_.size(); ++p)
        if (index_[p] >= 0 && static_cast<std::size_t>(index_[p]) != circle.center_point.value_or(SIZE_MAX) &&
            std::count(points_[p].rounds.begin(), points_[p].rounds.end(), static_cast<int>(c)))
          circle.through.push_back(static_cast<std::size_t>(index_[p]));
      Json evidence{{"coverage", rounded(r.coverage, 0.001)}, {"contrast", rounded(r.contrast, 0.1)}};
      if (!r.full) {
        // An arc: the quadrants it covers half of at least, and its own angles.
        std::string mask = "0000";
        for (int q = 0; q < 4; ++q) {
          double covered = 0;
          for (double a = q * 90 + 0.5; a < (q + 1) * 90; a += 1) {
            const double rel = std::fmod(std::fmod(a - r.start_deg, 360) + 360, 360);
            covered += rel <= r.sweep_deg;
          }
          if (covered >= 45) mask[q] = '1';
        }
        if (mask == "1111") mask = "1110";  // not drawn all round: never counted as a full circle
        if (mask == "0000") continue;
        circle.quadrants = mask;
        evidence["arc"] = {{"start_deg", rounded(r.start_deg, 0.1)}, {"sweep_deg", rounded(r.sweep_deg, 0.1)}};
      }
      circle.extra = Json{{"evidence", std::move(evidence)}}.dump();
      out_.scene.circles.push_back(std::move(circle));
    }
  }

  // The scene read, cross-checked against its own picture as any scene is: the picture's wobble and
  // matching tolerance as the cross-check measures them (they set the band), and whatever the
  // cross-check does not find where the reader put it, or finds that the reader did not read.
  void check_against(const Image& work) {
    PictureReading& reading = out_.evidence.reading;
    reading = read::measure_wobble(sheet_, pieces_, rounds_);
    reading.stroke_px = original(reading.stroke_px);
    reading.wobble_px = original(reading.wobble_px);
    reading.tolerance_px = original(reading.tolerance_px);
    if (!options_.check) return;
    CrossCheckOptions options;
    const CrossCheck check = crosscheck(out_.scene, work, options);
    for (const Reason& r : check.reasons) {
      if (r.kind == FindingKind::extra_detection) {
        doubt(FindingKind::stroke_uncertain, {}, "the cross-check finds a stroke the reader did not read: " + r.detail,
              Json(), r.slack_px);
        continue;
      }
      if (r.elements.size() != 1 || (r.kind != FindingKind::not_visible && r.kind != FindingKind::not_detected &&
                                     r.kind != FindingKind::low_contrast))
        continue;
      const std::string& name = r.elements.front();
      Json instead;
      for (const Line& l : out_.scene.lines)
        if (stroke_name(out_.scene, l) == name) instead = Json{{"drop_line", name}};
      for (const Circle& c : out_.scene.circles)
        if (c.id == name) instead = Json{{"drop_circle", name}};
      if (instead.is_null()) continue;  // a letter: the letter reader's own evidence stands
      doubt(FindingKind::stroke_uncertain, {name}, "the cross-check does not confirm it: " + r.detail, instead,
            r.slack_px);
    }
  }

  PictureRead finish() {
    ReadEvidence& e = out_.evidence;
    e.scale = scale_;
    e.letters = static_cast<int>(sheet_.glyphs.size());
    e.dots = static_cast<int>(dots_.size());
    e.strokes = static_cast<int>(pieces_.size());
    e.rounds = static_cast<int>(rounds_.size());
    set_band();
    Json doubts = Json::array();
    for (const Doubt& d : doubts_) {
      Json item{
          {"kind", finding_kind_name(d.finding.kind)}, {"elements", d.finding.elements}, {"detail", d.finding.detail}};
      if (d.finding.slack_px) item["slack_px"] = rounded(*d.finding.slack_px);
      if (!d.instead.is_null()) item["instead"] = d.instead;
      doubts.push_back(std::move(item));
      out_.doubts.push_back(d.finding);
    }
    char reason[160];
    std::snprintf(reason, sizeof reason, "read from the picture: strokes %.1f px wide, wobble %.1f px",
                  e.reading.stroke_px, e.reading.wobble_px);
    Json picture{
        {"read_by", "geotruth import --from picture"},
        {"size", {image_.width, image_.height}},
        {"scale", rounded(scale_, 0.001)},
        {"background", rounded(e.reading.background, 0.1)},
        {"noise_sigma", rounded(e.reading.noise_sigma, 0.01)},
        {"ink_level", rounded(e.reading.ink_level, 0.1)},
        {"stroke_px", rounded(e.reading.stroke_px, 0.01)},
        {"wobble_px", rounded(e.reading.wobble_px, 0.01)},
        {"wobble_source", e.reading.wobble_source},
        {"tolerance_px", rounded(e.reading.tolerance_px, 0.01)},
        {"band", {{"eps_num_px", rounded(e.eps_num_px)}, {"eps_vis_px", rounded(e.eps_vis_px)}, {"reason", reason}}},
        {"found", {{"letters", e.letters}, {"dots", e.dots}, {"strokes", e.strokes}, {"circles", e.rounds}}},
        {"doubts", std::move(doubts)}};
    // Numbers and expressions written in the figure (a length's or an angle's measure: 5, 2x, 8y):
    // where they are written, none a point's name.
    if (!measures_.empty()) {
      Json texts = Json::array();
      for (int g : measures_) {
        const P2 at = original(sheet_.glyphs[static_cast<std::size_t>(g)].centre);
        texts.push_back(
            Json{{"text", sheet_.glyphs[static_cast<std::size_t>(g)].text}, {"at", {rounded(at.x), rounded(at.y)}}});
      }
      picture["measures"] = std::move(texts);
    }
    out_.scene.extra = Json{{"dataset", "picture"}, {"picture", std::move(picture)}}.dump();
    return std::move(out_);
  }

  const Image& image_;
  const ReadOptions& options_;
  double scale_ = 1;
  std::optional<read::LetterFont> font_;  // the letters' font, when the sure letters find one
  read::Sheet sheet_;
  std::vector<Piece> pieces_;
  std::vector<Round> rounds_;
  std::vector<read::Oval> ovals_;
  std::vector<read::Dot> dots_;
  std::vector<ReadPoint> points_;
  std::vector<std::string> names_;
  std::vector<int> letter_of_, index_, unattached_, measures_;
  int unseen_letter_ = -1;  // the point named by name_unseen_letter, if any
  bool unseen_past_edge_ = false;
  std::vector<Doubt> doubts_;
  PictureRead out_;
};

}  // namespace

PictureRead read_picture(const Image& image, const std::string& id, const ReadOptions& options) {
  return Reader(image, id, options).run();
}

}  // namespace geotruth::vision
