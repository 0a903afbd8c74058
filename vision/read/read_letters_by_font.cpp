// Letters read again by their font (docs/reader.md, "Letters by their font"), once the strokes and
// dots are known: the figure's font is found from the letters read surely, and every letter — the
// classifier's reads, and letter-sized ink the strokes and dots do not explain that it did not read
// — is read by drawing the candidates in that font over it, the strokes' and dots' pixels left out.
// A figure lettered A, B, C, … without a gap (one letter a point) names each letter once.
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <geotruth/work_limit.hpp>
#include <map>
#include <numbers>
#include <numeric>
#include <set>

#include "vision/letter_templates.hpp"
#include "vision/read/points.hpp"
#include "vision/read/read.hpp"

namespace geotruth::vision::read {
namespace {

// A drawing that matches its place this well is a letter; below, ink of another kind.
constexpr double kLetterScore = 0.55;
// A font that draws the letters read surely this well (their mean score) is the figure's; one
// whose best capitals fit the letters read unsurely, this well.
constexpr double kFontScore = 0.7, kBlindFontScore = 0.7;
// Two candidates closer than this are not told apart: the letter is doubtful.
constexpr double kMargin = 0.04;
// A letter looked for where nothing was read must match this well (strokes' crossings and bits of
// other letters match a drawing by chance up to about 0.6).
constexpr double kFoundScore = 0.7;
// A letter found so is sure of its place only this far ahead of the next best way to letter the
// dots: no classifier read backs it (VisOnlyQA 00661noise_1: an F its dot and strokes hide draws as
// A 0.84, F 0.75).
constexpr double kFoundMargin = 0.1;
// A letter found about a dot with less of its ink than this clear of the strokes and dots rests on
// the strokes' own ink (on VisOnlyQA val, 12 of 24 found so were right, and 11 of 13 with 10 to 20 %
// clear; of the 24, 4 of the 5 found where one letter and one dot were left were right, and 8 of
// the 19 found where more were).
constexpr double kFoundVisible = 0.1;
// A run of letters read too short goes on by at most this many letters, each drawn this well.
constexpr int kRunOn = 2;
constexpr double kRunOnScore = 0.8;
// A run-on letter found about a dot has this share of its ink clear of the strokes and dots at least
// (an I or a J drawn over a stroke that leaves a dot fits the stroke's fringe, its own ink hidden).
constexpr double kRunOnVisible = 0.5;
// Two letters written over each other are read as a pair when their drawings together fit this well.
constexpr double kPairScore = 0.8;
// Two candidates this near are told apart where their drawings differ; the one told is then this far
// ahead (twice kMargin: no longer doubtful).
constexpr double kNearTie = 0.06, kTold = 0.08;
// A letter read shorter than this share of the letters' median height is no letter of the figure's size.
constexpr double kShortLetter = 0.6;
// A classifier's read this confident keeps its letter from ink it read nothing in.
constexpr double kNearlySure = 0.9;
// A run whose letters up to a sure one are read this share of them at least goes on to it.
constexpr double kRunRead = 0.7;
// A letter read unsurely past a run's end takes a letter of the run no place has when the font draws
// that one at most this much worse there (close_run_gaps).
constexpr double kGapLoss = 0.05;

bool single_capital(const std::string& t) {
  return t.size() == 1 && std::isupper(static_cast<unsigned char>(t[0]));
}

bool primed_capital(const std::string& t) {
  return t.size() == 2 && t[1] == '\'' && single_capital(t.substr(0, 1));
}

// A capital the classifier read with a prime it was not sure of: the bare capital its runner-up (the
// glyph's piece took in a dot or a stroke's end at its side). The font reads it like a capital.
bool unsure_prime(const Glyph& g) {
  return primed_capital(g.text) && g.runner_up == g.text.substr(0, 1);
}

// A capital the classifier split into letters it was not sure of: a label of two or three letters
// starting with a capital, read at under 0.5, no larger than a capital and a half (an italic M read
// as IVI, an N as Iq: its strokes taken for letters). The font reads it like a capital.
bool split_capital(const Glyph& g, double cap) {
  if (g.text.size() < 2 || g.text.size() > 3 || g.confidence >= 0.5) return false;
  if (!std::isupper(static_cast<unsigned char>(g.text[0]))) return false;
  if (!std::all_of(g.text.begin(), g.text.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
    return false;
  return g.box.width <= 1.5 * cap && g.box.height <= 1.5 * cap;
}

// A glyph read unsurely as one character whose box is under kShortLetter of the capitals' height
// both ways: a speck, a circle's centre dot beside its O (read Q at 0.38, then H by the font at
// 0.555: Tangram's noisy renders), or a bit of a letter noise broke (VisOnlyQA 00355noise_0's H,
// read J at 0.46). The font must draw a letter there as clearly as in ink no glyph was read in.
bool unsure_speck(const Glyph& g, double cap) {
  return g.text.size() == 1 && g.confidence < 0.5 && g.box.width < kShortLetter * cap &&
         g.box.height < kShortLetter * cap;
}

// A small letter or a digit the classifier read unsurely (under 0.5) with a capital its runner-up: a
// bar read as l rather than I (VisOnlyQA 00901noise_1's I, 0.46 against 0.54), an F in noise read as
// 5 (0.24 against 0.76). The font reads it like a capital.
bool unsure_small_or_digit(const Glyph& g) {
  if (g.text.size() != 1 || g.confidence >= 0.5 || !single_capital(g.runner_up)) return false;
  const auto c = static_cast<unsigned char>(g.text[0]);
  return std::islower(c) || std::isdigit(c);
}

// Whether the classifier read glyph g as one of the run's letters (the first `run_size`
// candidates) and no other glyph reads that letter more surely: g is then that letter's place, not
// a letter past the run.
bool read_as_run_letter(const std::vector<Glyph>& glyphs, std::size_t g, const std::vector<std::string>& candidates,
                        std::size_t run_size) {
  const Glyph& glyph = glyphs[g];
  const auto run_end = candidates.begin() + static_cast<std::ptrdiff_t>(run_size);
  if (std::find(candidates.begin(), run_end, glyph.text) == run_end) return false;
  return std::none_of(glyphs.begin(), glyphs.end(), [&](const Glyph& other) {
    return &other != &glyph && other.text == glyph.text && other.confidence > glyph.confidence;
  });
}

// Where piece p's ink ends on one side (t1 when `at_t1`, else t0): at its end, or, when that end
// lies in a glyph's box and a dot on the piece lies within a letter and a half before it, a dot's
// radius and a stroke's width past that dot (its fringe is no letter's ink). The stroke ends at the
// dot and the letter written beyond it continues its line: an E's stem, which the piece runs on up
// (covering the E's foot and lower bar reads it F: VisOnlyQA 00282noise_1).
double ink_end(const Sheet& sheet, const Piece& p, const std::vector<Dot>& dots, double cap, bool at_t1) {
  const double end = at_t1 ? p.t1 : p.t0;
  const P2 tip = p.at(end);
  const bool in_glyph = std::any_of(sheet.glyphs.begin(), sheet.glyphs.end(), [&](const Glyph& g) {
    return tip.x >= g.box.x - 1 && tip.x <= g.box.x + g.box.width + 1 && tip.y >= g.box.y - 1 &&
           tip.y <= g.box.y + g.box.height + 1;
  });
  if (!in_glyph) return end;
  double past = -1, nearest = 1.5 * cap;  // how far past the nearest such dot the ink goes
  for (const Dot& d : dots) {
    if (std::abs(p.offset(d.at)) > d.radius) continue;
    const double before = at_t1 ? end - p.along(d.at) : p.along(d.at) - end;
    if (before > 0 && before < nearest) nearest = before, past = d.radius + sheet.stroke;
  }
  if (past < 0 || past >= nearest) return end;
  return at_t1 ? end - nearest + past : end + nearest - past;
}

// Letter-sized ink that no stroke, dot or glyph read explains: pieces within a third of a letter of
// each other, together no larger than a letter, with a letter's share of ink.
std::vector<cv::Rect> unread_ink(const Sheet& sheet, const cv::Mat& covered, double cap) {
  cv::Mat ink = sheet.letters_paper().ink & ~covered;
  if (!sheet.tinted.empty()) ink.setTo(0, sheet.tinted);
  for (const Glyph& g : sheet.glyphs) {
    const int pad = static_cast<int>(std::ceil(0.2 * cap));
    const cv::Rect grown(g.box.x - pad, g.box.y - pad, g.box.width + 2 * pad, g.box.height + 2 * pad);
    ink(grown & cv::Rect(0, 0, ink.cols, ink.rows)).setTo(0);
  }
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
  std::vector<cv::Rect> boxes;
  std::vector<int> area;
  for (int i = 1; i < n; ++i) {
    if (stats.at<int>(i, cv::CC_STAT_AREA) < 3) continue;
    boxes.emplace_back(stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP),
                       stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT));
    area.push_back(stats.at<int>(i, cv::CC_STAT_AREA));
  }
  const int gap = static_cast<int>(std::ceil(0.35 * cap));
  const double max_w = 1.5 * cap, max_h = 1.6 * cap;
  for (bool joined = true; joined;) {
    joined = false;
    for (std::size_t i = 0; i < boxes.size() && !joined; ++i) {
      charge_time(boxes.size() - i);
      for (std::size_t j = i + 1; j < boxes.size() && !joined; ++j) {
        const cv::Rect grown(boxes[i].x - gap, boxes[i].y - gap, boxes[i].width + 2 * gap, boxes[i].height + 2 * gap);
        const cv::Rect both = boxes[i] | boxes[j];
        if ((grown & boxes[j]).empty() || both.width > max_w || both.height > max_h) continue;
        boxes[i] = both, area[i] += area[j];
        boxes.erase(boxes.begin() + static_cast<std::ptrdiff_t>(j));
        area.erase(area.begin() + static_cast<std::ptrdiff_t>(j));
        joined = true;
      }
    }
  }
  std::vector<cv::Rect> out;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const cv::Rect& b = boxes[i];
    if (b.width > max_w || b.height > max_h || std::max(b.width, b.height) < 0.5 * cap || area[i] < 0.12 * cap * cap)
      continue;
    out.push_back(b);
  }
  return out;
}

// A glyph whose ink (strokes' and dots' pixels left out) is larger than any candidate letter, that
// two candidates written over each other draw clearly (kPairScore) and better than any one of them
// does (kMargin): the labels of two points close together, which the classifier reads as one glyph
// (E over F as C, K beside I as 5, M over G as W). None otherwise.
std::optional<PairRead> two_letters_over_each_other(const Sheet& sheet, const cv::Mat& covered, const TemplateSheet& ts,
                                                    const FontMatch& font, const std::vector<std::string>& candidates,
                                                    int search, const Glyph& glyph) {
  const cv::Rect box = glyph.box & cv::Rect(0, 0, sheet.width, sheet.height);
  if (box.empty()) return std::nullopt;
  std::vector<cv::Point> inked;
  cv::findNonZero(sheet.letters_paper().ink(box) & ~covered(box), inked);
  if (inked.empty()) return std::nullopt;
  const cv::Rect ink = cv::boundingRect(inked) + box.tl();
  int widest = 0, tallest = 0;
  for (const std::string& c : candidates) {
    const GlyphTemplate t = glyph_template(font.font, font.cap_height_px, c);
    widest = std::max(widest, t.ink.cols), tallest = std::max(tallest, t.ink.rows);
  }
  const int pad = std::max(2, static_cast<int>(std::lround(0.15 * font.cap_height_px)));
  if (ink.width <= widest + pad && ink.height <= tallest + pad) return std::nullopt;
  PairRead pair = read_pair_by_template(ts, ink, font.font, font.cap_height_px, candidates, 1);
  if (std::getenv("GEOTRUTH_READER_DEBUG") && pair.score >= 0)
    std::fprintf(stderr, "pair? '%s%s' at %d,%d %dx%d score %.3f, one letter at a corner %.3f\n",
                 candidates[pair.first].c_str(), candidates[pair.second].c_str(), ink.x, ink.y, ink.width, ink.height,
                 pair.score, pair.single_score);
  if (pair.score < kPairScore || pair.score < pair.single_score + kMargin) return std::nullopt;
  // One letter at the glyph's centre too.
  const std::vector<double> single = template_scores(ts, {ink.x + ink.width / 2.0, ink.y + ink.height / 2.0}, font.font,
                                                     font.cap_height_px, candidates, search);
  if (pair.score < *std::max_element(single.begin(), single.end()) + kMargin) return std::nullopt;
  return pair;
}

// The two best candidates at a place drawn clearly (kFoundScore) within kNearTie of each other (I
// and J, E and F, C and G: drawings that differ in a few pixels) are told apart on the pixels where
// they differ (tell_apart); the one those pixels agree with takes the better score, the other kTold
// less. Not against the glyph classifier's sure read (`sure`, -1 none): a dot's blur beside a C's
// opening looks like G's bar.
void settle_near_tie(const TemplateSheet& ts, cv::Point2d centre, const FontMatch& font,
                     const std::vector<std::string>& candidates, int search, int sure, std::vector<double>& scores) {
  if (scores.size() < 2) return;
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + 2, order.end(),
                    [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  const std::size_t a = order[0], b = order[1];
  if (scores[a] < kFoundScore || scores[a] - scores[b] >= kNearTie) return;
  const int told = tell_apart(ts, centre, font.font, font.cap_height_px, candidates[a], candidates[b], search);
  if (told == 0) return;
  const std::size_t winner = told == 1 ? a : b, loser = told == 1 ? b : a;
  if (sure == static_cast<int>(loser)) return;
  const double best = scores[a];
  scores[winner] = best, scores[loser] = best - kTold;
}

// Two places whose letters fit them within `margin` of the other way round: `g`'s runner-up is the
// other place's letter, `other`, and its confidence 0.5 + 5 × margin at most (exactly that when
// `reread`: its letter is the pair's new reading, its old confidence another letter's); under kMargin
// it is doubtful.
void rest_on_pair_margin(Glyph& g, const std::string& other, double margin, bool reread) {
  const double confidence = std::clamp(0.5 + 5 * margin, 0.0, 1.0);
  g.runner_up = other;
  g.confidence = reread ? confidence : std::min(g.confidence, confidence);
  g.runner_up_confidence = 1 - g.confidence;
  g.doubtful = (!reread && g.doubtful) || margin < kMargin;
}

bool lie_on_each_other(const cv::Rect& a, const cv::Rect& b) {
  return (a & b).area() > 0.3 * std::min(a.area(), b.area());
}

// Each letter once, taken best score first: that order gives a near tie to the place read first (an
// E a dot covers draws as F 0.98, E 0.97) and leaves the other (an F: F 0.90, E 0.78) the letter it
// fits worse. Two places swap their letters while that raises the sum of their scores, each score
// at least `min_score` (`score` < 0: not looked for) and the letters' boxes lying on no other's.
// Partners (`partner`, none when empty: two letters written over each other) never swap, and their
// boxes may lie on each other.
void swap_while_better(std::vector<int>& letter_of, const std::function<double(std::size_t, int)>& score,
                       const std::function<cv::Rect(std::size_t, int)>& box, double min_score,
                       const std::vector<int>& partner = {}) {
  auto partners = [&](std::size_t a, std::size_t b) { return !partner.empty() && partner[a] == static_cast<int>(b); };
  auto clear_of_others = [&](const cv::Rect& b, std::size_t p, std::size_t q) {
    for (std::size_t o = 0; o < letter_of.size(); ++o)
      if (o != p && o != q && !partners(p, o) && !partners(q, o) && letter_of[o] >= 0 &&
          lie_on_each_other(box(o, letter_of[o]), b))
        return false;
    return true;
  };
  for (bool swapped = true; swapped;) {
    swapped = false;
    for (std::size_t p = 0; p < letter_of.size(); ++p)
      for (std::size_t q = p + 1; q < letter_of.size(); ++q) {
        const int a = letter_of[p], b = letter_of[q];
        if (a < 0 || b < 0 || partners(p, q)) continue;
        if (score(p, b) < min_score || score(q, a) < min_score ||
            score(p, b) + score(q, a) <= score(p, a) + score(q, b) + 1e-9)
          continue;
        const cv::Rect bp = box(p, b), bq = box(q, a);
        if (lie_on_each_other(bp, bq) || !clear_of_others(bp, p, q) || !clear_of_others(bq, p, q)) continue;
        std::swap(letter_of[p], letter_of[q]);
        swapped = true;
      }
  }
}

// Capitals and digits are all about the cap height: a letter read far shorter than the others'
// median is a piece of one (a G a stroke cuts in two, its top read as H at 0.99) or a speck, and
// would pull the font's fit down below its bar (VisOnlyQA's 00326noise_1: 0.686 with it).
void drop_short_letters(std::vector<KnownLetter>& letters) {
  if (letters.size() < 3) return;
  std::vector<double> heights;
  for (const KnownLetter& k : letters) heights.push_back(k.box.height);
  const double typical = median_of(std::move(heights));
  std::erase_if(letters, [&](const KnownLetter& k) { return k.box.height < kShortLetter * typical; });
}

// Points close together share one dot and their labels are read as one glyph (C over A read as
// NA), so the dots and the capitals read may count fewer points than the figure letters. A run
// whose letters up to a sure one are nearly all read (kRunRead of them, primes and all) goes on to
// that letter: VisOnlyQA's 00300 reads N surely and ten letters of A to N among 11 dots.
std::size_t run_read_through(const std::vector<KnownLetter>& known, const std::vector<Glyph>& glyphs) {
  std::set<char> read;
  for (const Glyph& g : glyphs)
    if (single_capital(g.text) || primed_capital(g.text)) read.insert(g.text[0]);
  std::size_t through = 0;
  for (const KnownLetter& k : known) {
    const auto length = static_cast<std::size_t>(k.text[0] - 'A' + 1);
    const auto upto =
        static_cast<std::size_t>(std::count_if(read.begin(), read.end(), [&](char c) { return c <= k.text[0]; }));
    if (upto >= kRunRead * static_cast<double>(length)) through = std::max(through, length);
  }
  return through;
}

}  // namespace

cv::Mat covered_by_marks(const Sheet& sheet, const std::vector<Piece>& pieces, const std::vector<Round>& rounds,
                         const std::vector<Dot>& dots, double cap) {
  cv::Mat covered = cv::Mat::zeros(sheet.height, sheet.width, CV_8U);
  const int thickness = static_cast<int>(std::lround(2 * sheet.half)) + 3;
  for (const Piece& p : pieces) {
    if (p.length() < 1.5 * cap) continue;  // a letter's own bar read as a piece
    const P2 a = p.at(ink_end(sheet, p, dots, cap, false)), b = p.at(ink_end(sheet, p, dots, cap, true));
    cv::line(covered, cv::Point2d(a.x - 0.5, a.y - 0.5), cv::Point2d(b.x - 0.5, b.y - 0.5), 255, thickness);
  }
  for (const Round& r : rounds)
    cv::circle(covered, cv::Point2d(r.centre.x - 0.5, r.centre.y - 0.5), static_cast<int>(std::lround(r.radius)), 255,
               thickness);
  for (const Dot& d : dots)
    cv::circle(covered, cv::Point2d(d.at.x - 0.5, d.at.y - 0.5), static_cast<int>(std::ceil(d.radius + 1)), 255,
               cv::FILLED);
  return covered;
}

bool in_run(char c, std::size_t count) {
  return c == 'O' || static_cast<std::size_t>(c - 'A') < count + 1;
}

SureRun sure_run(const std::vector<KnownLetter>& known, const std::vector<Glyph>& glyphs, std::size_t count) {
  SureRun run;
  for (const KnownLetter& k : known) {
    // Strokes change letters (a J whose top a stroke crosses reads as T at 1.00): a letter cut from
    // a stroke it touches and read past the run says nothing of it.
    const bool cut = std::any_of(glyphs.begin(), glyphs.end(), [&](const Glyph& g) {
      return g.touches_stroke && g.text == k.text && g.box == k.box;
    });
    if (cut && !in_run(k.text[0], count)) continue;
    run.in_range &= in_run(k.text[0], count);
    if (k.text[0] == 'O' && count < 15) continue;  // a centre's name, not the last of the run
    run.last = std::max(run.last, k.text[0]), run.letters.insert(k.text[0]);
  }
  return run;
}

void drop_tinted_glyphs(Sheet& sheet, const cv::Mat& tinted) {
  sheet.tinted.release();
  if (tinted.empty() || cv::countNonZero(tinted) == 0) return;
  const Paper& paper = sheet.letters_paper();
  // Three quarters of its darker half of ink at least: a letter written over a coloured stroke keeps
  // its own black ink, and a letter drawn with subpixel fringes (orange on one side, blue on the
  // other: Geometry3K's thin italics) its black core.
  auto mostly_tinted = [&](const Glyph& g) {
    const cv::Rect box = g.box & cv::Rect(0, 0, paper.ink.cols, paper.ink.rows);
    if (box.empty()) return false;
    std::vector<std::pair<float, bool>> inked;
    for (int y = box.y; y < box.y + box.height; ++y)
      for (int x = box.x; x < box.x + box.width; ++x)
        if (paper.ink.at<std::uint8_t>(y, x))
          inked.emplace_back(paper.darkness.at<float>(y, x), tinted.at<std::uint8_t>(y, x) != 0);
    if (inked.empty()) return false;
    std::sort(inked.begin(), inked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    const std::size_t darker = (inked.size() + 1) / 2;
    const auto tinted_darker = std::count_if(inked.begin(), inked.begin() + static_cast<std::ptrdiff_t>(darker),
                                             [](const auto& p) { return p.second; });
    return 4 * static_cast<std::size_t>(tinted_darker) >= 3 * darker;
  };
  const auto neutral_letters = std::count_if(sheet.glyphs.begin(), sheet.glyphs.end(), [&](const Glyph& g) {
    return single_capital(g.text) && g.confidence >= kNearlySure && !mostly_tinted(g);
  });
  if (neutral_letters < 2) return;
  std::erase_if(sheet.glyphs, mostly_tinted);
  sheet.tinted = tinted;
}

double capital_height(const std::vector<Glyph>& glyphs) {
  std::vector<double> capitals, all;
  for (const Glyph& g : glyphs) {
    all.push_back(g.height);
    if (single_capital(g.text) && g.confidence >= kNearlySure) capitals.push_back(g.height);
  }
  return median_of(capitals.empty() ? std::move(all) : std::move(capitals));
}

bool sure_for_the_font(const Glyph& glyph, bool blind_font) {
  return blind_font ? glyph.confidence >= kNearlySure : !glyph.doubtful && glyph.confidence >= 0.99;
}

void keep_read_letters_from_unread_ink(std::vector<LetterPlace>& places) {
  for (const LetterPlace& reader : places) {
    if (reader.read < 0 || reader.scores[static_cast<std::size_t>(reader.read)] < reader.min_score) continue;
    for (LetterPlace& ink : places)
      if (ink.unread_ink) ink.scores[static_cast<std::size_t>(reader.read)] = -1;
  }
}

std::vector<int> assign_letters(const std::vector<LetterPlace>& places, bool each_once) {
  struct Choice {
    double score;
    std::size_t place, letter;
    bool agreed;  // the place's sure classifier read, and the font fits no letter clearly better there
  };
  std::vector<Choice> choices;
  std::size_t letters = 0;
  for (std::size_t p = 0; p < places.size(); ++p) {
    const std::vector<double>& scores = places[p].scores;
    letters = std::max(letters, scores.size());
    const double best = *std::max_element(scores.begin(), scores.end());
    for (std::size_t l = 0; l < scores.size(); ++l)
      if (scores[l] >= places[p].min_score)
        choices.push_back({scores[l], p, l, places[p].sure == static_cast<int>(l) && scores[l] > best - kMargin});
  }
  // Two independent reads agreeing come first: else a crossing of strokes about a dot, which the
  // font happens to draw as C a little better than the figure's own C, takes it and leaves the C
  // the letter it fits worse.
  std::stable_sort(choices.begin(), choices.end(), [&](const Choice& a, const Choice& b) {
    return a.agreed != b.agreed ? a.agreed : a.score > b.score;
  });
  std::vector<int> letter_of(places.size(), -1);
  std::vector<bool> used(letters, false);
  // Two places whose letters lie on each other are one letter (a glyph the classifier read as two).
  auto overlaps = [&](std::size_t place, const cv::Rect& b) {
    for (std::size_t o = 0; o < places.size(); ++o)
      if (o != place && letter_of[o] >= 0 && places[place].partner != static_cast<int>(o) &&
          lie_on_each_other(places[o].boxes[static_cast<std::size_t>(letter_of[o])], b))
        return true;
    return false;
  };
  for (const Choice& c : choices) {
    if (letter_of[c.place] >= 0 || (each_once && used[c.letter])) continue;
    if (overlaps(c.place, places[c.place].boxes[c.letter])) continue;
    letter_of[c.place] = static_cast<int>(c.letter);
    used[c.letter] = true;
  }
  std::vector<int> partner;
  for (const LetterPlace& p : places) partner.push_back(p.partner);
  if (each_once)
    swap_while_better(
        letter_of, [&](std::size_t p, int l) { return places[p].scores[static_cast<std::size_t>(l)]; },
        [&](std::size_t p, int l) { return places[p].boxes[static_cast<std::size_t>(l)]; }, kLetterScore, partner);
  return letter_of;
}

void doubt_near_swaps(const std::vector<LetterPlace>& places, const std::vector<int>& letter_of,
                      const std::vector<std::string>& candidates, const std::vector<Glyph*>& glyph_at) {
  auto score = [&](std::size_t p, int l) { return places[p].scores[static_cast<std::size_t>(l)]; };
  for (std::size_t p = 0; p < places.size(); ++p)
    for (std::size_t q = p + 1; q < places.size(); ++q) {
      const int a = letter_of[p], b = letter_of[q];
      if (a < 0 || b < 0 || !glyph_at[p] || !glyph_at[q] || places[p].partner == static_cast<int>(q)) continue;
      if (score(p, b) < places[p].min_score || score(q, a) < places[q].min_score) continue;
      const double swap = score(p, a) + score(q, b) - score(p, b) - score(q, a);
      if (swap >= kMargin) continue;
      rest_on_pair_margin(*glyph_at[p], candidates[static_cast<std::size_t>(b)], swap, false);
      rest_on_pair_margin(*glyph_at[q], candidates[static_cast<std::size_t>(a)], swap, false);
    }
}

namespace {

// read_letters_by_font on the glyphs that may name points (the variables set aside).
std::optional<LetterFont> read_names_by_font(Sheet& sheet, const std::vector<Piece>& pieces,
                                             const std::vector<Round>& rounds, const std::vector<Dot>& dots) {
  std::vector<KnownLetter> known;
  for (const Glyph& g : sheet.glyphs)
    if (!g.doubtful && single_capital(g.text) && g.confidence >= 0.99) known.push_back({g.text, g.box});
  drop_short_letters(known);
  std::vector<double> heights;
  for (const KnownLetter& k : known) heights.push_back(k.box.height);
  // The letters read, surely or not: when fewer than three read surely (a small canvas writes its
  // letters across the strokes and dots, where the classifier rarely is sure), the font is the one
  // whose best capital at each of them fits best.
  std::vector<KnownLetter> unsure;
  for (const Glyph& g : sheet.glyphs)
    if (g.text.size() == 1) unsure.push_back({g.text, g.box});
  // Capitals first: the first six are looked at.
  std::stable_partition(unsure.begin(), unsure.end(), [](const KnownLetter& k) { return single_capital(k.text); });
  const bool blind = known.size() < 3;
  if (blind && unsure.size() < 2) return std::nullopt;
  if (blind)
    for (const KnownLetter& k : unsure) heights.push_back(k.box.height);
  const double cap = median_of(std::move(heights));
  const cv::Mat covered = covered_by_marks(sheet, pieces, rounds, dots, cap);
  TemplateSheet ts = template_sheet(sheet.letters_paper().darkness, covered, cap);
  if (known.size() > 8) known.resize(8);
  if (unsure.size() > 6) unsure.resize(6);
  const auto font =
      blind ? identify_font_blind(ts, unsure, training_fonts()) : identify_font(ts, known, training_fonts());
  const bool debug = std::getenv("GEOTRUTH_READER_DEBUG") != nullptr;
  if (debug && font)
    std::fprintf(stderr, "font %s cap %.1f score %.3f%s\n", font->font.name().c_str(), font->cap_height_px, font->score,
                 blind ? " (blind)" : "");
  if (!font || font->score < (blind ? kBlindFontScore : kFontScore)) return std::nullopt;

  // The candidates: a figure lettered from A without a gap names its points A to the letter of its
  // last point (as many as its dots, or as its letters read, whichever are more), and maybe O for a
  // centre: every letter read surely lies in that range, most of those read at all, and the sure
  // ones are half of it at least; else every capital.
  std::size_t capitals = 0;
  for (const Glyph& g : sheet.glyphs) capitals += single_capital(g.text);
  const bool dotted = marks_points_with_dots(sheet, dots);
  const std::size_t count = std::max({dotted ? dots.size() : 0, capitals, run_read_through(known, sheet.glyphs)});
  // How far a drawing is moved about a place to find where it fits best.
  const int search = std::max(3, static_cast<int>(std::lround(0.3 * font->cap_height_px)));
  auto in_range = [&](char c) { return in_run(c, count); };
  // A letter read surely past the run that the font draws as a letter of the run better (an E whose
  // bars strokes took, read as L at 0.99: VisOnlyQA 00901noise_1, lettered A to I) says nothing of
  // the run's end.
  std::vector<KnownLetter> known_in_run = known;
  std::erase_if(known_in_run, [&](const KnownLetter& k) {
    if (in_range(k.text[0])) return false;
    std::vector<std::string> candidates{k.text};
    for (char c = 'A'; in_range(c) && c <= 'Z'; ++c) candidates.emplace_back(1, c);
    const cv::Point2d centre(k.box.x + k.box.width / 2.0, k.box.y + k.box.height / 2.0);
    const std::vector<double> scores = template_scores(ts, centre, font->font, font->cap_height_px, candidates, search);
    return *std::max_element(scores.begin() + 1, scores.end()) > scores[0];
  });
  const SureRun sure = sure_run(known_in_run, sheet.glyphs, count);
  std::size_t capitals_in_range = 0;
  for (const Glyph& g : sheet.glyphs) capitals_in_range += single_capital(g.text) && in_range(g.text[0]);
  const int span = std::min(26, std::max(static_cast<int>(count), sure.last - 'A' + 1));
  if (debug)
    std::fprintf(stderr,
                 "run: count %zu sure_in_range %d last %c capitals %zu in range %zu dotted %d dots %zu known %zu\n",
                 count, sure.in_range, sure.last, capitals, capitals_in_range, dotted, dots.size(), known.size());
  // A figure whose glyphs read surely as numbers are as many as its capitals writes measures (a
  // textbook's 1/4 x + 5, its arrowheads read as dots), not a run of letters the font should find
  // in its numbers.
  std::size_t numbers = 0;
  for (const Glyph& g : sheet.glyphs) numbers += g.confidence >= 0.9 && is_number(g.text);
  const bool capitals_name_points = capitals_in_range >= 1 && capitals > numbers;
  bool consecutive = count >= 3 && sure.in_range && capitals_name_points && capitals_in_range * 5 >= capitals * 3 &&
                     (blind || sure.letters.size() * 2 >= static_cast<std::size_t>(sure.last - 'A' + 1));
  const std::vector<cv::Rect> ink_boxes = unread_ink(sheet, covered, font->cap_height_px);
  // A figure whose glyphs the classifier read too few of surely (a JPEG's blocks over every letter:
  // m, e, r, Y for B, C, F, G; letters written across strokes; noise: F read as 5 at 0.87) is
  // judged by the font's own reading: the capitals it reads clearly at the glyphs and the ink left,
  // nearly all in the range, three at least.
  if (!consecutive && count >= 3 && sure.in_range && capitals > numbers) {
    std::vector<std::string> capitals_az;
    for (char c = 'A'; c <= 'Z'; ++c) capitals_az.emplace_back(1, c);
    std::vector<cv::Point2d> centres;
    for (const Glyph& g : sheet.glyphs) centres.emplace_back(g.centre.x, g.centre.y);
    for (const cv::Rect& b : ink_boxes) centres.emplace_back(b.x + b.width / 2.0, b.y + b.height / 2.0);
    int inside = 0, outside = 0;
    for (const cv::Point2d& c : centres) {
      const std::vector<double> scores = template_scores(ts, c, font->font, font->cap_height_px, capitals_az, search);
      std::vector<double> sorted = scores;
      std::sort(sorted.begin(), sorted.end(), std::greater<>());
      if (sorted[0] < kFoundScore + 0.05 || sorted[0] - sorted[1] < kMargin) continue;
      const auto best = std::max_element(scores.begin(), scores.end()) - scores.begin();
      ++(in_range(static_cast<char>('A' + best)) ? inside : outside);
    }
    consecutive = inside >= 3 && inside >= 4 * outside;
    if (debug) std::fprintf(stderr, "consecutive by the font: %d in range, %d past it\n", inside, outside);
  }
  std::vector<std::string> candidates;
  for (int i = 0; i < (consecutive ? span : 26); ++i) candidates.emplace_back(1, static_cast<char>('A' + i));
  // O names a circle's centre in figures lettered otherwise from A on: a candidate when the
  // classifier read one nearly surely (a broken letter matches the round O well by chance), or an
  // O with a prime it was not sure of (the centre's dot beside the O, read as the prime).
  const bool centre_o = std::any_of(sheet.glyphs.begin(), sheet.glyphs.end(), [](const Glyph& g) {
    return (g.text == "O" && g.confidence >= 0.9) || (unsure_prime(g) && g.runner_up == "O");
  });
  if (consecutive && span <= 'O' - 'A' && centre_o) candidates.emplace_back("O");
  // A run read too short: where the classifier misread the last letters (in noise, F as g and G as
  // o), the capitals it read end early. The next kRunOn letters are candidates too, each taken only
  // where the font draws it clearly (kRunOnScore, and kMargin above every letter of the run).
  const std::size_t run_size = candidates.size();  // the run's letters (and O); past them, the run-on
  if (consecutive)
    for (int i = span; i < std::min(26, span + kRunOn); ++i)
      if (i != 'O' - 'A' || !centre_o) candidates.emplace_back(1, static_cast<char>('A' + i));

  // The places to read: the classifier's capitals (in a figure lettered A, B, C, … its other reads
  // too: a letter and a mark beside it read as two glyphs, a broken letter read as a digit), and the
  // ink it left (which must match as well as a letter looked for where nothing was read).
  struct Place {
    int glyph = -1;  // index into sheet.glyphs, -1: unread ink
    cv::Point2d centre;
    // A glyph read as two letters written over each other: its pair (an index into `pairs`, -1
    // none), and which of its letters.
    int pair = -1;
    bool second = false;
  };
  std::vector<Place> places;
  std::vector<PairRead> pairs;
  // A small letter read unsurely is a capital's place only among capitals (three read at least):
  // a textbook's variables x and y stand alone (Geometry3K 15's y, read y 0.44 against Y 0.56).
  const bool among_capitals = capitals >= 3;
  for (std::size_t g = 0; g < sheet.glyphs.size(); ++g) {
    const Glyph& glyph = sheet.glyphs[g];
    if (!single_capital(glyph.text) && !unsure_prime(glyph) && !(among_capitals && unsure_small_or_digit(glyph)) &&
        !split_capital(glyph, font->cap_height_px) && !consecutive)
      continue;
    const cv::Point2d centre(glyph.centre.x, glyph.centre.y);
    auto pair = two_letters_over_each_other(sheet, covered, ts, *font, candidates, search, glyph);
    if (!pair) {
      places.push_back({static_cast<int>(g), centre});
      continue;
    }
    if (debug)
      std::fprintf(stderr, "pair '%s%s' at %d,%d score %.3f\n", candidates[pair->first].c_str(),
                   candidates[pair->second].c_str(), glyph.box.x, glyph.box.y, pair->score);
    pairs.push_back(std::move(*pair));
    const int index = static_cast<int>(pairs.size()) - 1;
    places.push_back({static_cast<int>(g), centre, index, false});
    places.push_back({static_cast<int>(g), centre, index, true});
  }
  for (const cv::Rect& b : ink_boxes) places.push_back({-1, {b.x + b.width / 2.0, b.y + b.height / 2.0}});
  // Each place's scores, and the classifier's sure read there.
  std::vector<LetterPlace> scored(places.size());
  for (std::size_t i = 0; i < places.size(); ++i) {
    const Place& p = places[i];
    LetterPlace& l = scored[i];
    if (p.pair >= 0) {
      const PairRead& pair = pairs[static_cast<std::size_t>(p.pair)];
      l.scores = p.second ? pair.second_scores : pair.first_scores;
      l.boxes = p.second ? pair.second_boxes : pair.first_boxes;
      l.partner = static_cast<int>(p.second ? i - 1 : i + 1);  // a pair's two places are pushed together
    } else {
      l.scores = template_scores(ts, p.centre, font->font, font->cap_height_px, candidates, search, &l.boxes);
    }
  }
  // Each letter of the run's best score among the places it fits best of all letters (-1: none).
  std::vector<double> best_as_own(run_size, -1);
  for (const LetterPlace& l : scored) {
    const auto k = static_cast<std::size_t>(std::max_element(l.scores.begin(), l.scores.end()) - l.scores.begin());
    if (k < run_size) best_as_own[k] = std::max(best_as_own[k], l.scores[k]);
  }
  for (std::size_t i = 0; i < places.size(); ++i) {
    const Place& p = places[i];
    LetterPlace& l = scored[i];
    // A letter past the run is read where the font draws it clearly, above every letter of the run
    // that fits here best, and not where the classifier read a letter of the run: a J past A to I
    // fits an I whose stem stands on its dot better than I does, its tail and hook on the dot's and
    // the strokes' blur (VisOnlyQA 00120noise_0). Not when another glyph reads that letter more
    // surely, nor against a letter the font draws better at a place whose best letter it is: a G
    // past A to F in noise, read C at 0.54 where the C is read at 0.81, or drawn C 0.922 where the C
    // is drawn 0.928 (Tangram's noisy renders).
    double best_in_run = 0;
    for (std::size_t k = 0; k < run_size; ++k)
      if (l.scores[k] >= best_as_own[k]) best_in_run = std::max(best_in_run, l.scores[k]);
    const bool read_in_run =
        p.glyph >= 0 && read_as_run_letter(sheet.glyphs, static_cast<std::size_t>(p.glyph), candidates, run_size);
    for (std::size_t k = run_size; k < candidates.size(); ++k)
      if (read_in_run || l.scores[k] < kRunOnScore || l.scores[k] < best_in_run + kMargin) l.scores[k] = -1;
    const bool speck =
        p.glyph >= 0 && unsure_speck(sheet.glyphs[static_cast<std::size_t>(p.glyph)], font->cap_height_px);
    l.min_score = (p.glyph >= 0 || consecutive) && !speck ? kLetterScore : kFoundScore;
    if (p.glyph >= 0 && p.pair < 0) {
      const Glyph& g = sheet.glyphs[static_cast<std::size_t>(p.glyph)];
      const auto it = std::find(candidates.begin(), candidates.end(), g.text);
      if (it != candidates.end()) {
        const int read = static_cast<int>(it - candidates.begin());
        if (sure_for_the_font(g, blind)) l.sure = read;
        if (g.confidence >= kNearlySure) l.read = read;
      }
    }
    if (p.pair < 0) settle_near_tie(ts, p.centre, *font, candidates, search, l.sure, l.scores);
    l.unread_ink = p.glyph < 0;
  }
  // Geometry3K 19 shrunk to 110 px: its right-angle mark draws as C 0.885, the C written below its
  // corner, read C 0.91, less.
  keep_read_letters_from_unread_ink(scored);
  const std::vector<int> letter_of = assign_letters(scored, consecutive);
  // The run goes on to the last letter taken past it.
  std::size_t run_end = run_size;
  for (const int l : letter_of)
    if (l >= static_cast<int>(run_size)) run_end = std::max(run_end, static_cast<std::size_t>(l) + 1);

  std::vector<Glyph> read;
  std::vector<int> read_at(places.size(), -1);  // each place's glyph in `read`
  std::vector<bool> replaced(sheet.glyphs.size(), false);
  for (std::size_t p = 0; p < places.size(); ++p) {
    const Place& place = places[p];
    const LetterPlace& fit = scored[p];
    if (letter_of[p] < 0) continue;
    const std::size_t l = static_cast<std::size_t>(letter_of[p]);
    // The best other reading: the runner-up candidate at this place.
    double other = -1;
    std::size_t other_letter = l;
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (k != l && fit.scores[k] > other) other = fit.scores[k], other_letter = k;
    Glyph g = place.glyph >= 0 ? sheet.glyphs[static_cast<std::size_t>(place.glyph)] : Glyph{};
    const double margin = fit.scores[l] - other;
    if (place.glyph >= 0 && !g.by_font) g.classifier_text = g.text, g.classifier_confidence = g.confidence;
    g.text = candidates[l];
    g.box = fit.boxes[l];
    g.centre = {g.box.x + g.box.width / 2.0, g.box.y + g.box.height / 2.0};
    g.height = g.box.height;
    g.confidence = std::clamp(0.5 + 5 * margin, 0.0, 1.0);
    g.runner_up = other_letter != l ? candidates[other_letter] : "";
    g.runner_up_confidence = 1 - g.confidence;
    g.doubtful = margin < kMargin;
    g.by_font = true;
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (fit.scores[k] >= kFoundScore || k == l) g.font_scores.emplace_back(candidates[k], fit.scores[k]);
    if (debug)
      std::fprintf(stderr, "by font '%s' at %d,%d %dx%d score %.3f runner '%s' %.3f%s\n", g.text.c_str(), g.box.x,
                   g.box.y, g.box.width, g.box.height, fit.scores[l], g.runner_up.c_str(), other,
                   place.glyph < 0 ? " (unread ink)" : "");
    if (place.glyph >= 0) replaced[static_cast<std::size_t>(place.glyph)] = true;
    read_at[p] = static_cast<int>(read.size());
    read.push_back(std::move(g));
  }
  std::vector<Glyph*> glyph_at(places.size(), nullptr);
  for (std::size_t p = 0; p < places.size(); ++p)
    if (read_at[p] >= 0) glyph_at[p] = &read[static_cast<std::size_t>(read_at[p])];
  doubt_near_swaps(scored, letter_of, candidates, glyph_at);
  // The classifier's reads the font does not take stay as they were when it was nearly sure of them
  // or they are labels of several glyphs; its unsure single letters are dropped (ink the font reads
  // as no letter of the figure), and so is a letter the font gave another place in a figure that
  // names each letter once (a bit of a letter's ink read as G beside the G), and in such a figure
  // an unsure name of several characters (strokes through a letter: VisOnlyQA 00262noise_1's Y' at
  // 0.49, 00282noise_0's IC at 0.23; its dot is left to the letters looked for about the dots).
  for (std::size_t g = 0; g < sheet.glyphs.size(); ++g) {
    const Glyph& glyph = sheet.glyphs[g];
    const bool needs_a_sure_read =
        glyph.text.size() <= 1 || (consecutive && std::isupper(static_cast<unsigned char>(glyph.text[0])));
    if (replaced[g] || (glyph.confidence < kNearlySure && needs_a_sure_read)) continue;
    if (std::any_of(read.begin(), read.end(), [&](const Glyph& r) { return lie_on_each_other(r.box, glyph.box); }))
      continue;
    if (consecutive && std::any_of(read.begin(), read.end(), [&](const Glyph& r) { return r.text == glyph.text; }))
      continue;
    read.push_back(glyph);
  }
  sheet.glyphs = std::move(read);
  for (const Glyph& g : sheet.glyphs) {
    const cv::Rect grown(g.box.x - 1, g.box.y - 1, g.box.width + 2, g.box.height + 2);
    sheet.unknown(grown & cv::Rect(0, 0, sheet.unknown.cols, sheet.unknown.rows)).setTo(255);
  }
  candidates.resize(run_end);
  return LetterFont{font->font, font->cap_height_px, font->score, consecutive, candidates, std::move(ts)};
}

// A letter found about a dot and a letter the font read unsurely at a glyph may be each other's
// (VisOnlyQA 00007: B written over its dot and crossed by strokes was read F, 0.906 against C 0.900,
// and B was then found at F's own glyph, 0.935). The pair is read the way the font draws better at
// both places together; each letter's runner-up is then the other, its confidence from that margin
// (under kMargin: a doubt that the two are the other way round). Scores are compared within one
// window (template_scores' window depends on the letters it draws).
void swap_with_unsure_reads(std::vector<Glyph>& glyphs, std::size_t read_before, const LetterFont& font) {
  constexpr double kUnsure = 0.75;
  const int search = std::max(3, static_cast<int>(std::lround(0.3 * font.cap_height)));
  for (std::size_t f = read_before; f < glyphs.size(); ++f) {
    double best_gain = -kMargin;
    std::size_t best = f;
    std::vector<cv::Rect> best_here, best_there;
    for (std::size_t h = 0; h < read_before; ++h) {
      const Glyph& unsure = glyphs[h];
      if (!unsure.by_font || unsure.text.size() != 1 || unsure.confidence >= kUnsure) continue;
      const std::vector<std::string> pair{glyphs[f].text, unsure.text};
      std::vector<cv::Rect> here_boxes, there_boxes;
      const auto here = template_scores(font.sheet, {glyphs[f].centre.x, glyphs[f].centre.y}, font.font,
                                        font.cap_height, pair, search, &here_boxes);
      const auto there = template_scores(font.sheet, {unsure.centre.x, unsure.centre.y}, font.font, font.cap_height,
                                         pair, search, &there_boxes);
      // Only where the font draws the found letter, and each letter at the other's place, clearly
      // (a letter found at a poor place makes any letter a better reading there).
      if (std::min({here[0], here[1], there[0]}) < kFoundScore) continue;
      const double gain = here[1] + there[0] - (here[0] + there[1]);
      if (gain > best_gain) best_gain = gain, best = h, best_here = here_boxes, best_there = there_boxes;
    }
    if (best == f) continue;
    Glyph &found = glyphs[f], &unsure = glyphs[best];
    if (std::getenv("GEOTRUTH_READER_DEBUG"))
      std::fprintf(stderr, "found '%s' and unsure '%s': %s by %.3f\n", found.text.c_str(), unsure.text.c_str(),
                   best_gain > 0 ? "swapped" : "kept", std::abs(best_gain));
    if (best_gain > 0) {
      std::swap(found.text, unsure.text);
      found.box = best_here[1], unsure.box = best_there[0];
      for (Glyph* g : {&found, &unsure})
        g->centre = {g->box.x + g->box.width / 2.0, g->box.y + g->box.height / 2.0}, g->height = g->box.height;
    }
    // Swapped, each letter's confidence is the pair's margin; kept, the margin lowers it.
    rest_on_pair_margin(found, unsure.text, std::abs(best_gain), best_gain > 0);
    rest_on_pair_margin(unsure, found.text, std::abs(best_gain), best_gain > 0);
  }
}

}  // namespace

std::optional<LetterFont> read_letters_by_font(Sheet& sheet, const std::vector<Piece>& pieces,
                                               const std::vector<Round>& rounds, const std::vector<Dot>& dots) {
  // Variables (a small x beside capitals) name no point: set aside while the font reads the names.
  std::vector<Glyph> variables;
  for (const Glyph& g : sheet.glyphs)
    if (g.variable) variables.push_back(g);
  std::erase_if(sheet.glyphs, [](const Glyph& g) { return g.variable; });
  auto font = read_names_by_font(sheet, pieces, rounds, dots);
  sheet.glyphs.insert(sheet.glyphs.end(), variables.begin(), variables.end());
  return font;
}

namespace {

// Whether `letter`, past the run, draws the ink at `box` better than every letter of the run by
// kMargin and kRunOnScore at least (a run-on letter found about a dot).
bool ahead_of_the_run(const LetterFont& font, const cv::Rect& box, const std::string& letter, int search) {
  std::vector<std::string> candidates = font.labels;
  candidates.push_back(letter);
  const std::vector<double> scores = template_scores(font.sheet, {box.x + box.width / 2.0, box.y + box.height / 2.0},
                                                     font.font, font.cap_height, candidates, search);
  const double best_in_run = *std::max_element(scores.begin(), scores.end() - 1);
  return scores.back() >= kRunOnScore && scores.back() >= best_in_run + kMargin;
}

}  // namespace

void complete_letters(std::vector<Glyph>& glyphs, std::vector<Attachment>& attached,
                      const std::vector<ReadPoint>& points, const LetterFont& font, const LetterPlacement& placement) {
  if (!font.consecutive) return;
  std::set<std::string> named;
  std::vector<bool> lettered(points.size(), false);
  for (std::size_t g = 0; g < glyphs.size(); ++g)
    if (attached[g].point >= 0)
      named.insert(glyphs[g].text), lettered[static_cast<std::size_t>(attached[g].point)] = true;
  // A letter a glyph reads that has no point yet is not missing either: it takes its nearest free
  // point later (VisOnlyQA 00565noise_1's E, read surely, was found again about another dot in
  // the strokes' ink alone: two points E).
  std::set<std::string> read_unattached;
  for (std::size_t g = 0; g < glyphs.size(); ++g)
    if (attached[g].point < 0) read_unattached.insert(glyphs[g].text);
  std::vector<std::string> missing;
  for (const std::string& l : font.labels)
    if (!named.count(l) && !read_unattached.count(l)) missing.push_back(l);
  // The run may end past its last letter read: a last letter its dot and strokes hide was never
  // read (VisOnlyQA 00087noise_1's L, its foot on its dot). The next kRunOn letters are looked
  // for too, each taken only about a dot no letter of the run is found about, where the font draws
  // it clearly, better than any letter of the run, and half of it at least clear of other marks.
  const std::size_t run_missing = missing.size();
  const auto run_length = std::count_if(font.labels.begin(), font.labels.end(),
                                        [](const std::string& l) { return l != "O"; });  // O: maybe a centre's
  for (char c = static_cast<char>('A' + run_length); c <= 'Z' && missing.size() < run_missing + kRunOn; ++c)
    if (std::find(font.labels.begin(), font.labels.end(), std::string(1, c)) == font.labels.end())
      missing.emplace_back(1, c);
  if (missing.empty()) return;
  const double cap = font.cap_height;
  const double step = std::max(2.0, 0.2 * cap);
  struct Found {
    double score;
    std::size_t point, label;
    cv::Rect box;
  };
  std::vector<Found> found;
  // Each dot's best score and box for each missing letter (-1: not looked for or not found).
  std::vector<std::vector<double>> score_of(points.size());
  std::vector<std::vector<cv::Rect>> box_of(points.size());
  for (std::size_t p = 0; p < points.size(); ++p) {
    if (points[p].dot < 0 || lettered[p]) continue;
    // Where this dot's letter may be: along the ring about it, or anywhere near it.
    std::vector<cv::Point2d> centres;
    if (placement.ring) {
      const double r = placement.radius;
      const int n = std::max(12, static_cast<int>(std::ceil(2 * std::numbers::pi * r / step)));
      for (int k = 0; k < n; ++k) {
        const double a = 2 * std::numbers::pi * k / n;
        cv::Point2d c(points[p].at.x + placement.shift.x + r * std::cos(a),
                      points[p].at.y + placement.shift.y + r * std::sin(a));
        if (placement.lower_left) c += cv::Point2d(0.35 * cap, -0.5 * cap);
        centres.push_back(c);
      }
    } else {
      const double reach = placement.reach + 0.5 * cap;
      for (double dy = -reach; dy <= reach; dy += step)
        for (double dx = -reach; dx <= reach; dx += step)
          centres.emplace_back(points[p].at.x + dx, points[p].at.y + dy);
    }
    std::vector<double> best(missing.size(), -1);
    std::vector<cv::Rect> best_box(missing.size());
    const int search = std::max(2, static_cast<int>(std::lround(step / 2)));
    // The run's letters compared as ever; the run-on's over the window of all the letters looked
    // for (a window as narrow as an I and a J alone fits a stroke's remains about a dot).
    const std::vector<std::string> run(missing.begin(), missing.begin() + static_cast<long>(run_missing));
    for (const cv::Point2d& c : centres) {
      std::vector<cv::Rect> boxes;
      std::vector<double> scores = template_scores(font.sheet, c, font.font, cap, run, search, &boxes);
      for (std::size_t l = run_missing; l < missing.size(); ++l) {
        cv::Rect box;
        scores.push_back(template_score(font.sheet, c, font.font, cap, missing[l], missing, search, &box));
        boxes.push_back(box);
      }
      for (std::size_t l = 0; l < missing.size(); ++l) {
        if (scores[l] <= best[l]) continue;
        // Not where a letter is read already.
        const bool taken = std::any_of(glyphs.begin(), glyphs.end(),
                                       [&](const Glyph& g) { return lie_on_each_other(g.box, boxes[l]); });
        if (!taken) best[l] = scores[l], best_box[l] = boxes[l];
      }
    }
    // Drawn clearly enough to be taken with no letter read beside it to say the run goes that far.
    auto clearly_drawn = [&](std::size_t l) {
      return best[l] >= kRunOnScore &&
             visible_share(font.sheet, best_box[l], font.font, cap, missing[l]) >= kRunOnVisible;
    };
    // A run-on letter only about a dot no letter of the run is found about (a thin I or J fits a
    // stroke's remains beside a C that is the dot's own: VisOnlyQA 00081noise_1).
    const bool run_letter_here = std::any_of(best.begin(), best.begin() + static_cast<long>(run_missing),
                                             [](double score) { return score >= kFoundScore; });
    for (std::size_t l = run_missing; l < missing.size(); ++l)
      if (run_letter_here || !clearly_drawn(l) || !ahead_of_the_run(font, best_box[l], missing[l], search))
        best[l] = -1;
    // A letter of the run past every letter named is held to the same bar: the dots' count that set
    // the run's length may hold blobs that are no points (VisOnlyQA 00615noise_0, lettered A to K,
    // found L at 0.70 about a JPEG's blob).
    for (std::size_t l = 0; l < run_missing; ++l)
      if (!named.empty() && missing[l] > *named.rbegin() && !clearly_drawn(l)) best[l] = -1;
    for (std::size_t l = 0; l < missing.size(); ++l)
      if (best[l] >= kFoundScore) found.push_back({best[l], p, l, best_box[l]});
    if (std::getenv("GEOTRUTH_READER_DEBUG"))
      for (std::size_t l = 0; l < missing.size(); ++l)
        std::fprintf(stderr, "look for '%s' about the dot at %.0f,%.0f: best %.3f visible %.2f\n", missing[l].c_str(),
                     points[p].at.x, points[p].at.y, best[l],
                     best[l] > -1 ? visible_share(font.sheet, best_box[l], font.font, cap, missing[l]) : -1.0);
    score_of[p] = std::move(best), box_of[p] = std::move(best_box);
  }
  std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.score > b.score; });
  std::vector<bool> label_used(missing.size(), false);
  std::vector<int> label_of(points.size(), -1);
  std::vector<cv::Rect> accepted;
  for (const Found& f : found) {
    if (label_used[f.label] || label_of[f.point] >= 0) continue;
    if (std::any_of(accepted.begin(), accepted.end(), [&](const cv::Rect& b) { return lie_on_each_other(b, f.box); }))
      continue;
    accepted.push_back(f.box);
    label_used[f.label] = true;
    label_of[f.point] = static_cast<int>(f.label);
  }
  auto score = [&](std::size_t p, int l) {
    return score_of[p].empty() ? -1.0 : score_of[p][static_cast<std::size_t>(l)];
  };
  swap_while_better(
      label_of, score, [&](std::size_t p, int l) { return box_of[p][static_cast<std::size_t>(l)]; }, kFoundScore);
  const bool debug = std::getenv("GEOTRUTH_READER_DEBUG") != nullptr;
  const std::size_t read_before = glyphs.size();
  for (std::size_t p = 0; p < points.size(); ++p) {
    if (label_of[p] < 0) continue;
    const auto l = static_cast<std::size_t>(label_of[p]);
    // The margin over the next best way to letter the dots: another missing letter here, or, for a
    // letter given another dot, the two letters the other way round (two letters each found at
    // both of two dots are told apart by the pair).
    double margin = 1;
    std::string other_letter;
    for (std::size_t k = 0; k < missing.size(); ++k) {
      if (k == l || score_of[p][k] < kFoundScore - kFoundMargin) continue;
      const auto at = std::find(label_of.begin(), label_of.end(), static_cast<int>(k));
      double m = score_of[p][l] - score_of[p][k];
      if (at != label_of.end()) {
        const auto q = static_cast<std::size_t>(at - label_of.begin());
        m += score(q, static_cast<int>(k)) - score(q, static_cast<int>(l));
      }
      if (m < margin) margin = m, other_letter = missing[k];
    }
    Glyph g;
    g.text = missing[l];
    g.box = box_of[p][l];
    g.centre = {g.box.x + g.box.width / 2.0, g.box.y + g.box.height / 2.0};
    g.height = g.box.height;
    g.confidence = std::clamp(0.5 + 5 * margin, 0.0, 1.0);
    g.runner_up = other_letter;
    g.runner_up_confidence = 1 - g.confidence;
    g.doubtful = margin < kFoundMargin;
    g.by_font = g.found_at_dot = true;
    if (debug)
      std::fprintf(stderr, "by font '%s' at %d,%d %dx%d score %.3f (found about a dot), %.0f %% visible\n",
                   g.text.c_str(), g.box.x, g.box.y, g.box.width, g.box.height, score_of[p][l],
                   100 * visible_share(font.sheet, g.box, font.font, cap, g.text));
    glyphs.push_back(std::move(g));
    Attachment a;
    a.point = static_cast<int>(p);
    attached.push_back(a);
  }
  // A letter found in the strokes' ink alone (kFoundVisible) is the one letter of the run left for
  // the one dot left; where more are left, which goes where rests on the strokes' ink, and each
  // such letter may be no letter.
  const auto free_dots = std::count_if(points.begin(), points.end(), [&](const ReadPoint& p) {
    return p.dot >= 0 && !lettered[static_cast<std::size_t>(&p - points.data())];
  });
  for (std::size_t g = read_before; g < glyphs.size(); ++g) {
    if (visible_share(font.sheet, glyphs[g].box, font.font, cap, glyphs[g].text) >= kFoundVisible) continue;
    glyphs[g].ink_hidden = true;
    if (debug)
      std::fprintf(stderr, "'%s' found in the strokes' ink alone: %zu of the run left, %ld dots\n",
                   glyphs[g].text.c_str(), run_missing, static_cast<long>(free_dots));
    if (run_missing == 1 && free_dots == 1) continue;
    glyphs[g].doubtful = true;
    glyphs[g].confidence = std::min(glyphs[g].confidence, 0.5);
    if (glyphs[g].runner_up.empty()) glyphs[g].runner_up_confidence = 1 - glyphs[g].confidence;
  }
  swap_with_unsure_reads(glyphs, read_before, font);
}

double font_score(const Glyph& glyph, const std::string& letter) {
  for (const auto& [l, score] : glyph.font_scores)
    if (l == letter) return score;
  return -1;
}

namespace {

// How much better the font draws letter a at glyph `here` and b at `there` than the two the other
// way round (b's score here and a's there kept at both: a score not kept there is under
// kFoundScore, at most that).
double pair_margin(const Glyph& here, const std::string& a, const Glyph& there, const std::string& b) {
  return font_score(here, a) - font_score(here, b) + font_score(there, b) - std::max(font_score(there, a), kFoundScore);
}

}  // namespace

bool told_from_runner_up(const std::vector<Glyph>& glyphs, std::size_t g) {
  const Glyph& glyph = glyphs[g];
  if (font_score(glyph, glyph.text) < 0 || font_score(glyph, glyph.runner_up) < 0) return false;
  for (std::size_t o = 0; o < glyphs.size(); ++o)
    if (o != g && glyphs[o].text == glyph.runner_up && !glyphs[o].font_scores.empty())
      return pair_margin(glyph, glyph.text, glyphs[o], glyph.runner_up) >= kFoundMargin;
  return false;
}

void close_run_gaps(std::vector<Glyph>& glyphs, const std::vector<Attachment>& attached, const LetterFont& font) {
  if (!font.consecutive) return;
  // O listed out of its place in the run names a centre.
  const auto o = std::find(font.labels.begin(), font.labels.end(), "O");
  const bool centre_o = o != font.labels.end() && o - font.labels.begin() != 'O' - 'A';
  // Glyph g names a point with a letter that has a place in the run.
  auto names_in_run = [&](std::size_t g) {
    return attached[g].point >= 0 && single_capital(glyphs[g].text) && !(centre_o && glyphs[g].text == "O");
  };
  std::set<char> named;
  for (std::size_t g = 0; g < glyphs.size(); ++g)
    if (names_in_run(g)) named.insert(glyphs[g].text[0]);
  if (named.empty()) return;
  const char last = static_cast<char>('A' + named.size() - 1);
  auto past_the_end = [&](std::size_t g) { return names_in_run(g) && glyphs[g].text[0] > last; };
  // A letter past that end read nearly surely: the figure skips letters, or names more points than
  // were read.
  for (std::size_t g = 0; g < glyphs.size(); ++g)
    if (past_the_end(g) && glyphs[g].confidence >= kNearlySure) return;
  struct Move {
    double loss;
    std::size_t glyph;
    std::string gap;
  };
  std::vector<Move> moves;
  for (std::size_t g = 0; g < glyphs.size(); ++g) {
    if (!past_the_end(g)) continue;
    const Glyph& glyph = glyphs[g];
    std::string gap;
    for (const auto& [l, score] : glyph.font_scores)
      if (l.size() == 1 && l[0] <= last && !named.count(l[0]) && (gap.empty() || score > font_score(glyph, gap)))
        gap = l;
    if (gap.empty()) continue;
    const double loss = font_score(glyph, glyph.text) - font_score(glyph, gap);
    if (loss <= kGapLoss) moves.push_back({loss, g, gap});
  }
  // The glyph naming a point with each letter of the run.
  std::map<std::string, std::size_t> glyph_named;
  for (std::size_t g = 0; g < glyphs.size(); ++g)
    if (attached[g].point >= 0) glyph_named.emplace(glyphs[g].text, g);
  std::stable_sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.loss < b.loss; });
  for (const Move& m : moves) {
    if (named.count(m.gap[0])) continue;
    Glyph& glyph = glyphs[m.glyph];
    // The letters past the run's end are no reading of it: the margin is over another letter of
    // the run no point has, or over a letter another glyph names, the two the other way round (with
    // the font's scores at both places; a letter found about a dot and read unsurely has only this
    // place's, and may be the gap's as well; one read surely by the classifier alone is not).
    double margin = 1;
    std::string other_letter;
    for (const auto& [l, score] : glyph.font_scores) {
      if (l == m.gap || l.size() != 1 || l[0] > last) continue;
      double other = font_score(glyph, m.gap) - score;
      if (const auto there = glyph_named.find(l); there != glyph_named.end()) {
        const Glyph& named_glyph = glyphs[there->second];
        if (!named_glyph.font_scores.empty())
          other = pair_margin(glyph, m.gap, named_glyph, l);
        else if (named_glyph.confidence >= kNearlySure)
          continue;
      }
      if (other < margin) margin = other, other_letter = l;
    }
    if (std::getenv("GEOTRUTH_READER_DEBUG"))
      std::fprintf(stderr, "'%s' past the run's end %c: '%s', %.3f over '%s'%s\n", glyph.text.c_str(), last,
                   m.gap.c_str(), margin, other_letter.c_str(), margin < kMargin ? ", kept" : "");
    // Not told from another letter of the run, the place keeps its reading (a letter no question
    // of the run can name) rather than take one it may not be.
    if (margin < kMargin) continue;
    named.insert(m.gap[0]);
    const std::string past = glyph.text;
    glyph.text = m.gap;
    rest_on_pair_margin(glyph, other_letter.empty() ? past : other_letter, margin, true);
  }
}

}  // namespace geotruth::vision::read
