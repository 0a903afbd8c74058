// Letters read against their own font (vision/letter_templates.hpp).
#include "vision/letter_templates.hpp"

#include "vision/figure.hpp"

#include <cairo.h>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <geotruth/work_limit.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <tuple>

namespace geotruth::vision {
namespace {

using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using ContextPtr = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

// The ink height of a capital H at font size 100: cap heights to font sizes.
double cap_height_at_100(cairo_t* cr, const FontFace& font) {
  select_font(cr, font);
  cairo_set_font_size(cr, 100);
  cairo_text_extents_t ext;
  cairo_text_extents(cr, "H", &ext);
  return ext.height > 0 ? ext.height : 72;
}

GlyphTemplate draw(const FontFace& font, double cap_height_px, const std::string& text) {
  const SurfacePtr probe(cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1), &cairo_surface_destroy);
  const ContextPtr probe_cr(cairo_create(probe.get()), &cairo_destroy);
  const double size = cap_height_px * 100 / cap_height_at_100(probe_cr.get(), font);
  const int side = static_cast<int>(std::ceil(2.5 * size)) + 8;
  const SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_A8, side, side), &cairo_surface_destroy);
  const ContextPtr cr(cairo_create(surface.get()), &cairo_destroy);
  select_font(cr.get(), font);
  cairo_set_font_size(cr.get(), size);
  cairo_text_extents_t ext;
  cairo_text_extents(cr.get(), text.c_str(), &ext);
  cairo_move_to(cr.get(), 4 - ext.x_bearing, 4 - ext.y_bearing);
  cairo_text_path(cr.get(), text.c_str());
  cairo_fill(cr.get());
  cairo_surface_flush(surface.get());
  const cv::Mat alpha(side, side, CV_8U, cairo_image_surface_get_data(surface.get()),
                      static_cast<std::size_t>(cairo_image_surface_get_stride(surface.get())));
  std::vector<cv::Point> points;
  cv::findNonZero(alpha, points);
  GlyphTemplate out;
  if (points.empty()) return out;
  alpha(cv::boundingRect(points)).convertTo(out.ink, CV_32F, 1.0 / 255);
  return out;
}

// Sums over the comparison window's pixels that no other mark covers.
struct Window {
  cv::Rect area;  // in the picture
  cv::Mat x;      // darkness, CV_32F, covered pixels 0
  cv::Mat keep;   // CV_8U, 1 where compared
  double n = 0, sx = 0, sxx = 0;
};

Window window_at(const TemplateSheet& sheet, cv::Rect area) {
  Window w;
  w.area = area & cv::Rect(0, 0, sheet.darkness.cols, sheet.darkness.rows);
  if (w.area.empty()) return w;
  w.x = cv::max(sheet.darkness(w.area), 0.0);
  w.keep = cv::Mat::ones(w.area.size(), CV_8U);
  if (!sheet.covered.empty()) w.keep.setTo(0, sheet.covered(w.area));
  w.x.setTo(0, w.keep == 0);
  for (int y = 0; y < w.x.rows; ++y)
    for (int x = 0; x < w.x.cols; ++x)
      if (w.keep.at<std::uint8_t>(y, x)) {
        const double v = w.x.at<float>(y, x);
        w.n += 1, w.sx += v, w.sxx += v * v;
      }
  return w;
}

// What a drawing placed in the window adds up to over the pixels compared: its ink, its ink
// squared, and its ink times the window's darkness.
struct Sums {
  double t = 0, tt = 0, xt = 0;
};

Sums placed_sums(const Window& w, const cv::Mat& t, int ox, int oy) {
  charge_time();  // every template placed: the reading's inner step (two letters over each other try thousands)
  Sums s;
  for (int y = 0; y < t.rows; ++y) {
    const int wy = oy + y;
    if (wy < 0 || wy >= w.x.rows) continue;
    const float* tr = t.ptr<float>(y);
    const float* xr = w.x.ptr<float>(wy);
    const std::uint8_t* kr = w.keep.ptr<std::uint8_t>(wy);
    for (int x = 0; x < t.cols; ++x) {
      const int wx = ox + x;
      if (wx < 0 || wx >= w.x.cols || !kr[wx]) continue;
      const double v = tr[x];
      s.t += v, s.tt += v * v, s.xt += v * xr[wx];
    }
  }
  return s;
}

// The normalized cross-correlation of the window with a drawing whose sums are `s` (zero elsewhere).
double correlation_of(const Window& w, const Sums& s) {
  const double vx = w.sxx - w.sx * w.sx / w.n, vt = s.tt - s.t * s.t / w.n;
  if (w.n < 4 || vx <= 1e-9 || vt <= 1e-9) return -1;
  return (s.xt - w.sx * s.t / w.n) / std::sqrt(vx * vt);
}

// The normalized cross-correlation of the window with `t` placed at (ox, oy) in it (zero elsewhere).
double correlation(const Window& w, const cv::Mat& t, int ox, int oy) {
  return correlation_of(w, placed_sums(w, t, ox, oy));
}

// The comparison window about `centre` for these candidates: the largest of their drawings, a
// margin and the search each way.
cv::Rect window_for(cv::Point2d centre, const FontFace& font, double cap, const std::vector<std::string>& candidates,
                    int search) {
  int width = 0, height = 0;
  for (const std::string& c : candidates) {
    const GlyphTemplate t = glyph_template(font, cap, c);
    width = std::max(width, t.ink.cols), height = std::max(height, t.ink.rows);
  }
  const int margin = std::max(2, static_cast<int>(std::lround(0.15 * cap))) + search;
  width += 2 * margin, height += 2 * margin;
  return {static_cast<int>(std::lround(centre.x - width / 2.0)), static_cast<int>(std::lround(centre.y - height / 2.0)),
          width, height};
}

// The best placement of `t` about `centre` within the window: its score and its box.
double best_placement(const Window& w, const cv::Mat& t, cv::Point2d centre, int search, cv::Rect* box) {
  const int cx = static_cast<int>(std::lround(centre.x - t.cols / 2.0)) - w.area.x,
            cy = static_cast<int>(std::lround(centre.y - t.rows / 2.0)) - w.area.y;
  double best = -1;
  for (int dy = -search; dy <= search; ++dy)
    for (int dx = -search; dx <= search; ++dx) {
      const double s = correlation(w, t, cx + dx, cy + dy);
      if (s > best) {
        best = s;
        if (box) *box = cv::Rect(w.area.x + cx + dx, w.area.y + cy + dy, t.cols, t.rows);
      }
    }
  return best;
}

// A position, a cap height and a search reach on the sheet's (reduced) pixels, and back.
struct Scaled {
  Scaled(const TemplateSheet& sheet, cv::Point2d c, double cap_px, int search_px)
      : scale(sheet.scale),
        centre(c * sheet.scale),
        cap(cap_px * sheet.scale),
        search(std::max(1, static_cast<int>(std::lround(search_px * sheet.scale)))) {}
  cv::Rect back(const cv::Rect& r) const {
    if (scale == 1) return r;
    return {static_cast<int>(std::lround(r.x / scale)), static_cast<int>(std::lround(r.y / scale)),
            static_cast<int>(std::lround(r.width / scale)), static_cast<int>(std::lround(r.height / scale))};
  }
  double scale;
  cv::Point2d centre;
  double cap;
  int search;
};

// The first font (the list's most common: matplotlib's and most renderers' default) unless another
// draws the letters clearly better: sans fonts of one design (DejaVu, Nimbus, Liberation Sans) score
// within a few hundredths of each other on a handful of noisy letters, and a near tie must not
// read the figure in a font whose J, I and L differ from its own.
constexpr double kOtherFontBetterBy = 0.03;
std::optional<FontMatch> preferring_first(const std::optional<FontMatch>& first, const std::optional<FontMatch>& best) {
  if (first && best && first->score >= best->score - kOtherFontBetterBy) return first;
  return best;
}

}  // namespace

TemplateSheet template_sheet(const cv::Mat& darkness, const cv::Mat& covered, double cap_height_px) {
  TemplateSheet out;
  out.scale = cap_height_px > 14 ? 14 / cap_height_px : 1;
  if (out.scale == 1) {
    out.darkness = darkness, out.covered = covered;
    return out;
  }
  cv::resize(darkness, out.darkness, {}, out.scale, out.scale, cv::INTER_AREA);
  // A reduced pixel is covered when any of the pixels it holds is.
  cv::Mat covered_share;
  cv::resize(covered, covered_share, out.darkness.size(), 0, 0, cv::INTER_AREA);
  out.covered = covered_share > 0;
  return out;
}

GlyphTemplate glyph_template(const FontFace& font, double cap_height_px, const std::string& text) {
  // Drawn under the lock: cairo's text through FreeType is not safe from two threads at once (a
  // face's glyph lookup crashed with two readers).
  static std::mutex mutex;
  static std::map<std::tuple<std::string, long, std::string>, GlyphTemplate> cache;
  const auto key = std::make_tuple(font.name(), std::lround(cap_height_px * 4), text);
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  return cache.emplace(key, draw(font, std::lround(cap_height_px * 4) / 4.0, text)).first->second;
}

double template_score(const TemplateSheet& sheet, cv::Point2d centre, const FontFace& font, double cap_height_px,
                      const std::string& text, const std::vector<std::string>& window_of, int search_px,
                      cv::Rect* box) {
  const Scaled at(sheet, centre, cap_height_px, search_px);
  const Window w = window_at(sheet, window_for(at.centre, font, at.cap, window_of, at.search));
  const GlyphTemplate t = glyph_template(font, at.cap, text);
  if (w.area.empty() || t.empty()) return -1;
  const double score = best_placement(w, t.ink, at.centre, at.search, box);
  if (box) *box = at.back(*box);
  return score;
}

std::vector<double> template_scores(const TemplateSheet& sheet, cv::Point2d centre, const FontFace& font,
                                    double cap_height_px, const std::vector<std::string>& candidates, int search_px,
                                    std::vector<cv::Rect>* boxes) {
  std::vector<double> scores(candidates.size(), -1);
  if (boxes) boxes->assign(candidates.size(), cv::Rect());
  const Scaled at(sheet, centre, cap_height_px, search_px);
  const Window w = window_at(sheet, window_for(at.centre, font, at.cap, candidates, at.search));
  if (w.area.empty()) return scores;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const GlyphTemplate t = glyph_template(font, at.cap, candidates[i]);
    if (t.empty()) continue;
    cv::Rect box;
    scores[i] = best_placement(w, t.ink, at.centre, at.search, &box);
    if (boxes) (*boxes)[i] = at.back(box);
  }
  return scores;
}

double visible_share(const TemplateSheet& sheet, const cv::Rect& box, const FontFace& font, double cap_height_px,
                     const std::string& text) {
  const Scaled at(sheet, {box.x + box.width / 2.0, box.y + box.height / 2.0}, cap_height_px, 1);
  const GlyphTemplate t = glyph_template(font, at.cap, text);
  if (t.empty()) return 0;
  const int x0 = static_cast<int>(std::lround(at.centre.x - t.ink.cols / 2.0)),
            y0 = static_cast<int>(std::lround(at.centre.y - t.ink.rows / 2.0));
  double all = 0, visible = 0;
  for (int y = 0; y < t.ink.rows; ++y)
    for (int x = 0; x < t.ink.cols; ++x) {
      const double v = t.ink.at<float>(y, x);
      all += v;
      const int px = x0 + x, py = y0 + y;
      if (px < 0 || py < 0 || px >= sheet.darkness.cols || py >= sheet.darkness.rows) continue;
      if (sheet.covered.empty() || !sheet.covered.at<std::uint8_t>(py, px)) visible += v;
    }
  return all > 0 ? visible / all : 0;
}

TemplateRead read_by_template(const TemplateSheet& sheet, cv::Point2d centre, const FontFace& font,
                              double cap_height_px, const std::vector<std::string>& candidates, int search_px) {
  TemplateRead out;
  std::vector<cv::Rect> boxes;
  const std::vector<double> scores = template_scores(sheet, centre, font, cap_height_px, candidates, search_px, &boxes);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::string& c = candidates[i];
    const double s = scores[i];
    const cv::Rect box = boxes[i];
    if (s > out.score) {
      out.runner_up = out.text, out.runner_up_score = out.score;
      out.text = c, out.score = s, out.box = box;
    } else if (s > out.runner_up_score) {
      out.runner_up = c, out.runner_up_score = s;
    }
  }
  return out;
}

int tell_apart(const TemplateSheet& sheet, cv::Point2d centre, const FontFace& font, double cap_height_px,
               const std::string& first, const std::string& second, int search_px) {
  const Scaled at(sheet, centre, cap_height_px, search_px);
  const Window w = window_at(sheet, window_for(at.centre, font, at.cap, {first, second}, at.search));
  const GlyphTemplate a = glyph_template(font, at.cap, first), b = glyph_template(font, at.cap, second);
  if (w.area.empty() || a.empty() || b.empty()) return 0;
  // Each drawing at its best place, on the window's pixels.
  auto placed = [&](const GlyphTemplate& t) {
    cv::Rect box;
    best_placement(w, t.ink, at.centre, at.search, &box);
    cv::Mat out = cv::Mat::zeros(w.x.size(), CV_32F);
    const cv::Rect local = cv::Rect(box.tl() - w.area.tl(), box.size()) & cv::Rect(0, 0, out.cols, out.rows);
    if (!local.empty()) t.ink(cv::Rect(local.tl() - (box.tl() - w.area.tl()), local.size())).copyTo(out(local));
    return out;
  };
  const cv::Mat ta = placed(a), tb = placed(b);
  // The picture's ink level: the darkness the drawings' shared ink has (its median).
  std::vector<double> shared;
  for (int y = 0; y < w.x.rows; ++y)
    for (int x = 0; x < w.x.cols; ++x)
      if (w.keep.at<std::uint8_t>(y, x) && ta.at<float>(y, x) > 0.5f && tb.at<float>(y, x) > 0.5f)
        shared.push_back(w.x.at<float>(y, x));
  if (shared.size() < 4) return 0;
  const double ink = median_of(std::move(shared));
  if (ink <= 0) return 0;
  // Only the pixels a pixel or more clear of the other drawing's ink: at a letter's edge, where the
  // two drawings' best places differ by a fraction of a pixel, JPEG's blur outweighs the few pixels
  // that tell I from J (J's hook).
  cv::Mat near_a, near_b;
  cv::dilate(ta > 0.5f, near_a, cv::getStructuringElement(cv::MORPH_CROSS, {3, 3}));
  cv::dilate(tb > 0.5f, near_b, cv::getStructuringElement(cv::MORPH_CROSS, {3, 3}));
  double error_a = 0, error_b = 0;
  for (int y = 0; y < w.x.rows; ++y)
    for (int x = 0; x < w.x.cols; ++x) {
      const double va = ta.at<float>(y, x), vb = tb.at<float>(y, x);
      if (!w.keep.at<std::uint8_t>(y, x) || std::abs(va - vb) < 0.5) continue;
      if ((va > vb ? near_b : near_a).at<std::uint8_t>(y, x)) continue;
      const double v = std::clamp(w.x.at<float>(y, x) / ink, 0.0, 1.0);
      error_a += (v - va) * (v - va), error_b += (v - vb) * (v - vb);
    }
  // Told apart when one drawing's error is under 0.6 of the other's, by a pixel and a half in all.
  if (std::abs(error_a - error_b) < 1.5) return 0;
  if (error_a < 0.6 * error_b) return 1;
  if (error_b < 0.6 * error_a) return 2;
  return 0;
}

namespace {

// Where a drawing of `size` lies at corner `corner` (0 top left, 1 top right, 2 bottom left, 3
// bottom right) of `box`.
cv::Point at_corner(const cv::Rect& box, cv::Size size, int corner) {
  return {corner % 2 ? box.x + box.width - size.width : box.x, corner / 2 ? box.y + box.height - size.height : box.y};
}

// Two drawings together over the window, each at its top-left corner (window pixels), are the
// darker of the two wherever they overlap: max(a, b) = a + b - min(a, b), and so are their sums.
// `a` and `b` are each drawing's own sums where it lies (placed_sums); the overlap's are taken here.
double pair_correlation(const Window& w, const cv::Mat& a, cv::Point at_a, const Sums& a_sums, const cv::Mat& b,
                        cv::Point at_b, const Sums& b_sums) {
  Sums both{a_sums.t + b_sums.t, a_sums.tt + b_sums.tt, a_sums.xt + b_sums.xt};
  const cv::Rect overlap = cv::Rect(at_a, a.size()) & cv::Rect(at_b, b.size()) & cv::Rect(0, 0, w.x.cols, w.x.rows);
  charge_time();
  for (int y = overlap.y; y < overlap.y + overlap.height; ++y) {
    const float* ar = a.ptr<float>(y - at_a.y);
    const float* br = b.ptr<float>(y - at_b.y);
    const float* xr = w.x.ptr<float>(y);
    const std::uint8_t* kr = w.keep.ptr<std::uint8_t>(y);
    for (int x = overlap.x; x < overlap.x + overlap.width; ++x) {
      if (!kr[x]) continue;
      const double v = std::min(ar[x - at_a.x], br[x - at_b.x]);
      both.t -= v, both.tt -= v * v, both.xt -= v * xr[x];
    }
  }
  return correlation_of(w, both);
}

}  // namespace

PairRead read_pair_by_template(const TemplateSheet& sheet, cv::Rect box, const FontFace& font, double cap_height_px,
                               const std::vector<std::string>& candidates, int search_px) {
  PairRead out;
  const Scaled at(sheet, {box.x + box.width / 2.0, box.y + box.height / 2.0}, cap_height_px, search_px);
  const cv::Rect scaled(static_cast<int>(std::lround(box.x * at.scale)),
                        static_cast<int>(std::lround(box.y * at.scale)),
                        std::max(1, static_cast<int>(std::lround(box.width * at.scale))),
                        std::max(1, static_cast<int>(std::lround(box.height * at.scale))));
  const int margin = std::max(2, static_cast<int>(std::lround(0.15 * at.cap))) + at.search;
  const Window w =
      window_at(sheet, {scaled.x - margin, scaled.y - margin, scaled.width + 2 * margin, scaled.height + 2 * margin});
  if (w.area.empty() || candidates.size() < 2) return out;
  const cv::Rect local(scaled.tl() - w.area.tl(), scaled.size());
  std::vector<GlyphTemplate> drawn;
  for (const std::string& c : candidates) drawn.push_back(glyph_template(font, at.cap, c));
  struct Placing {
    int first_corner = 0, second_corner = 0;
    cv::Point shift;
  } best;
  // Each drawing's sums at each corner and shift, taken once: the pairs only add their overlaps.
  const int side = 2 * at.search + 1;
  std::vector<std::optional<Sums>> sums(candidates.size() * 4 * side * side);
  auto sums_at = [&](std::size_t k, int corner, cv::Point shift, cv::Point place) -> const Sums& {
    std::optional<Sums>& s = sums[((k * 4 + corner) * side + shift.y + at.search) * side + shift.x + at.search];
    if (!s) s = placed_sums(w, drawn[k].ink, place.x, place.y);
    return *s;
  };
  auto score_of = [&](std::size_t i, std::size_t j, const Placing& p) {
    if (drawn[i].empty() || drawn[j].empty()) return -1.0;
    const cv::Point at_i = at_corner(local, drawn[i].ink.size(), p.first_corner);
    const cv::Point at_j = at_corner(local, drawn[j].ink.size(), p.second_corner) + p.shift;
    return pair_correlation(w, drawn[i].ink, at_i, sums_at(i, p.first_corner, {0, 0}, at_i), drawn[j].ink, at_j,
                            sums_at(j, p.second_corner, p.shift, at_j));
  };
  for (std::size_t i = 0; i < candidates.size(); ++i)
    for (std::size_t j = 0; j < candidates.size(); ++j) {
      if (i == j) continue;
      for (int ci = 0; ci < 4; ++ci)
        for (int cj = 0; cj < 4; ++cj) {
          if (ci == cj) continue;
          for (int dy = -at.search; dy <= at.search; ++dy)
            for (int dx = -at.search; dx <= at.search; ++dx) {
              const Placing p{ci, cj, {dx, dy}};
              const double s = score_of(i, j, p);
              if (s > out.score) out.score = s, out.first = i, out.second = j, best = p;
            }
        }
    }
  // One letter alone, at any corner: a letter with ink beside it (a stroke's bit, JPEG blocks) must
  // not read as two.
  for (std::size_t i = 0; i < candidates.size(); ++i)
    for (int ci = 0; ci < 4 && !drawn[i].empty(); ++ci)
      for (int dy = -at.search; dy <= at.search; ++dy)
        for (int dx = -at.search; dx <= at.search; ++dx) {
          const cv::Point c = at_corner(local, drawn[i].ink.size(), ci) + cv::Point(dx, dy);
          out.single_score = std::max(out.single_score, correlation(w, drawn[i].ink, c.x, c.y));
        }
  if (out.score < 0) return out;
  // Each place's candidates, the other letter kept where it lies best.
  auto box_at = [&](std::size_t k, int corner, cv::Point shift) {
    return at.back(cv::Rect(at_corner(local, drawn[k].ink.size(), corner) + shift + w.area.tl(), drawn[k].ink.size()));
  };
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    out.first_scores.push_back(k == out.second ? -1 : score_of(k, out.second, best));
    out.first_boxes.push_back(drawn[k].empty() ? cv::Rect() : box_at(k, best.first_corner, {}));
    out.second_scores.push_back(k == out.first ? -1 : score_of(out.first, k, best));
    out.second_boxes.push_back(drawn[k].empty() ? cv::Rect() : box_at(k, best.second_corner, best.shift));
  }
  return out;
}

std::optional<FontMatch> identify_font(const TemplateSheet& sheet, const std::vector<KnownLetter>& known,
                                       const std::vector<FontFace>& fonts) {
  if (known.size() < 3) return std::nullopt;
  std::vector<double> heights;
  for (const KnownLetter& k : known) heights.push_back(k.box.height);
  const double typical = median_of(std::move(heights));
  std::optional<FontMatch> best, first;
  for (const FontFace& font : fonts)
    for (const double cap : {typical - 1, typical - 0.5, typical, typical + 0.5, typical + 1}) {
      if (cap < 5) continue;
      double sum = 0;
      for (const KnownLetter& k : known) {
        const cv::Point2d centre(k.box.x + k.box.width / 2.0, k.box.y + k.box.height / 2.0);
        sum += template_score(sheet, centre, font, cap, k.text, {k.text}, 2);
      }
      const double score = sum / known.size();
      if (!best || score > best->score) best = FontMatch{font, cap, score};
      if (&font == &fonts.front() && (!first || score > first->score)) first = FontMatch{font, cap, score};
    }
  return preferring_first(first, best);
}

std::optional<FontMatch> identify_font_blind(const TemplateSheet& sheet, const std::vector<KnownLetter>& letters,
                                             const std::vector<FontFace>& fonts) {
  if (letters.size() < 2 || fonts.empty()) return std::nullopt;
  double lowest = 1e9, highest = 0;
  for (const KnownLetter& k : letters)
    lowest = std::min<double>(lowest, k.box.height), highest = std::max<double>(highest, k.box.height);
  std::vector<std::string> capitals;
  for (char c = 'A'; c <= 'Z'; ++c) capitals.emplace_back(1, c);
  // The mean over the places that fit best, two thirds of them (two at least): a place the reader
  // took for a glyph may be a speck or a bit of a stroke, which no font draws, and would pull every
  // font down alike.
  const std::size_t counted = std::max<std::size_t>(2, (2 * letters.size() + 2) / 3);
  auto score = [&](const FontFace& font, double cap) {
    std::vector<double> best;
    for (const KnownLetter& k : letters) {
      const cv::Point2d centre(k.box.x + k.box.width / 2.0, k.box.y + k.box.height / 2.0);
      const std::vector<double> scores = template_scores(sheet, centre, font, cap, capitals, 3);
      best.push_back(*std::max_element(scores.begin(), scores.end()));
    }
    std::sort(best.begin(), best.end(), std::greater<>());
    return std::accumulate(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(counted), 0.0) /
           static_cast<double>(counted);
  };
  // The size first, in the first font (sizes tell apart more than fonts do), then every font about it.
  double best_cap = 0, best_score = -2;
  for (double cap = std::max(5.0, lowest - 1); cap <= std::max(highest + 2, lowest + 10); cap += 1)
    if (const double s = score(fonts[0], cap); s > best_score) best_score = s, best_cap = cap;
  std::optional<FontMatch> best, first;
  for (const FontFace& font : fonts) {
    const bool is_first = &font == &fonts.front();
    for (const double cap : {best_cap - 1, best_cap, best_cap + 1}) {
      if (cap < 5) continue;
      const double s = is_first && cap == best_cap ? best_score : score(font, cap);
      if (!best || s > best->score) best = FontMatch{font, cap, s};
      if (is_first && (!first || s > first->score)) first = FontMatch{font, cap, s};
    }
  }
  return preferring_first(first, best);
}

}  // namespace geotruth::vision
