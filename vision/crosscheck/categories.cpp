// Per category (docs/vision.md, "Then per category"): the scene's lines clustered into supporting
// lines, circles and ellipses fitted to their ink, every side of closed shapes, letters and
// arrowheads. Raw detector counts are never compared: each element is matched or named.
#include "vision/crosscheck/checker.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "vision/detectors.hpp"
#include "vision/letter_templates.hpp"
#include "vision/letters.hpp"
#include "vision/pixels.hpp"

namespace geotruth::vision::check {
namespace {

constexpr double kMinDetectablePx = 12;  // the shortest straight piece any line detector sees

}  // namespace

bool Checker::hidden_straight(std::size_t s) const {
  for (std::size_t i = 0; i < fig_.curves.size(); ++i)
    if (evidence_[i].hidden && std::count(fig_.curves[i].straights.begin(), fig_.curves[i].straights.end(), s))
      return true;
  return false;
}

// Share of the straight piece ab with its ink within the tolerance.
double Checker::piece_coverage(P2 a, P2 b) const {
  return trace_stroke(paper_, {a, b}, false, out_.picture.tolerance_px, crowd_).coverage;
}

// On a stroke of the scene: a detection there belongs to the drawing (an arc's chord, the
// corner where two strokes join), not to something the scene does not draw.
bool Checker::on_scene_stroke(P2 p, double tol) const {
  for (const Curve& c : fig_.curves)
    if (distance_to_path(p, c.path, c.closed) <= tol) return true;
  return false;
}

bool Checker::in_text(P2 p) const {
  for (const auto& g : out_.detections.glyphs)
    if (in_box(p, g, 2)) return true;
  for (const Text& t : fig_.texts)
    if (dist(p, t.center) <= fig_.font_px * (0.6 + 0.35 * t.text.size())) return true;
  return false;
}

// --- lines: the scene's straight strokes, clustered into supporting lines -----------------
void Checker::match_lines() {
  std::vector<Detections::Segment> pieces;
  std::vector<std::string> names;
  std::vector<bool> dashed;
  for (std::size_t s = 0; s < fig_.straights.size(); ++s) {
    if (hidden_straight(s)) continue;
    const Straight& st = fig_.straights[s];
    pieces.push_back({st.a, st.b});
    names.push_back(st.element);
    dashed.push_back(std::any_of(fig_.curves.begin(), fig_.curves.end(), [&](const Curve& c) {
      return c.dashed && std::count(c.straights.begin(), c.straights.end(), s);
    }));
  }
  Count& count = out_.counts["lines"];
  for (const auto& line : cluster_segments(pieces)) {
    if (dist(line.a, line.b) < kMinDetectablePx) continue;  // too short for any line detector
    ++count.symbolic;
    std::set<std::string> elements;
    double covered = 0, length = 0, needed = 0;
    for (std::size_t k : line.segments) {
      elements.insert(names[k]);
      const double len = dist(pieces[k].a, pieces[k].b);
      if (len < kMinDetectablePx) continue;
      length += len;
      covered += len * piece_coverage(pieces[k].a, pieces[k].b);
      needed += len * (dashed[k] ? 0.35 : options_.min_coverage);
    }
    if (length == 0 || covered >= needed) {
      ++count.matched;
      out_.detections.lines.push_back(line);
    } else {
      add(FindingKind::not_detected, {elements.begin(), elements.end()},
          "line drawn along " + fixed(100 * covered / length, 0) + " % of its length within " +
              fixed(out_.picture.tolerance_px) + " px",
          std::nullopt, {midpoint(line.a, line.b)});
    }
  }
}

// --- circles, ellipses and circular layers: their ink fits the scene's curve --------------
void Checker::match_rounds() {
  for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
    const Curve& c = fig_.curves[i];
    if (c.model == Curve::Model::polyline || !c.full) continue;
    Count& count = out_.counts[c.category];
    if (evidence_[i].hidden) continue;
    ++count.symbolic;
    // The curve through the ink found along it, away from crossing strokes: a circle fitted as a
    // circle (stable on an arc), an ellipse as an ellipse; judged only where the ink goes most of
    // the way round.
    std::vector<cv::Point2f> ink;
    for (const auto& s : evidence_[i].trace.samples)
      if (s.found && !s.crowded)
        ink.emplace_back(static_cast<float>(s.at.x + s.offset * s.normal.x),
                         static_cast<float>(s.at.y + s.offset * s.normal.y));
    std::string mismatch;
    if (ink.size() >= 12) {
      const Detections::Ellipse d = c.model == Curve::Model::circle ? fit_circle(ink) : fit_ellipse(ink);
      out_.detections.ellipses.push_back(d);
      if (2 * ink.size() >= evidence_[i].trace.samples.size()) mismatch = round_mismatch(c, d);
    }
    if (mismatch.empty()) {
      ++count.matched;
    } else {
      add(FindingKind::not_detected, {c.element}, mismatch, std::nullopt, {c.center});
    }
  }
}

// The least-squares circle through the points (Kåsa's algebraic fit), refitted once without
// the points farther than the tolerance from the first.
Detections::Ellipse Checker::fit_circle(std::vector<cv::Point2f> points) const {
  Detections::Ellipse d;
  d.circle = true;
  for (int round = 0; round < 2; ++round) {
    // x² + y² = 2ax + 2by + c, solved for (a, b, c) in the least-squares sense.
    cv::Mat A(static_cast<int>(points.size()), 3, CV_64F), rhs(static_cast<int>(points.size()), 1, CV_64F), sol;
    for (int k = 0; k < A.rows; ++k) {
      const double x = points[k].x, y = points[k].y;
      A.at<double>(k, 0) = 2 * x, A.at<double>(k, 1) = 2 * y, A.at<double>(k, 2) = 1;
      rhs.at<double>(k, 0) = x * x + y * y;
    }
    if (!cv::solve(A, rhs, sol, cv::DECOMP_SVD)) break;
    const double a = sol.at<double>(0), b = sol.at<double>(1), r2 = sol.at<double>(2) + a * a + b * b;
    d.center = {a, b}, d.a = d.b = r2 > 0 ? std::sqrt(r2) : 0;
    std::erase_if(points, [&](const cv::Point2f& p) {
      return std::abs(std::hypot(p.x - a, p.y - b) - d.a) > out_.picture.tolerance_px;
    });
    if (points.size() < 12) break;
  }
  return d;
}

Detections::Ellipse Checker::fit_ellipse(const std::vector<cv::Point2f>& points) {
  const cv::RotatedRect fit = cv::fitEllipseDirect(points);
  Detections::Ellipse d;
  d.center = {fit.center.x, fit.center.y};
  d.a = std::max(fit.size.width, fit.size.height) / 2, d.b = std::min(fit.size.width, fit.size.height) / 2;
  d.angle_deg = std::fmod(fit.size.width >= fit.size.height ? fit.angle : fit.angle + 90, 180);
  return d;
}

// Why a fitted ellipse is not the scene's curve ("" when it is): centre and semi-axes within
// the tolerance (plus 3 % of the size: a fit to a short arc is loose), the major axis within 5°
// when the curve is visibly elongated.
std::string Checker::round_mismatch(const Curve& c, const Detections::Ellipse& e) const {
  const double a = std::max(c.a, c.b), b = std::min(c.a, c.b), tol = out_.picture.tolerance_px + 0.03 * a;
  if (dist(c.center, e.center) > tol)
    return "its ink is centred " + fixed(dist(c.center, e.center)) + " px from the scene's centre";
  if (std::abs(e.a - a) > tol || std::abs(e.b - b) > tol)
    return "its ink has semi-axes " + fixed(e.a) + " and " + fixed(e.b) + " px, the scene " + fixed(a) + " and " +
           fixed(b) + " px";
  if (c.model == Curve::Model::ellipse && a / b >= 1.15) {
    const double major = c.a >= c.b ? c.angle_deg : c.angle_deg + 90;
    const double diff = std::fmod(std::abs(major - e.angle_deg), 180);
    if (std::min(diff, 180 - diff) > 5)
      return "its ink's major axis is at " + fixed(e.angle_deg) + "°, the scene's at " +
             fixed(std::fmod(major + 360, 180)) + "°";
  }
  return "";
}

// --- polygons, stars, sectors, boxes: every side drawn; curves without sides by their ink ----
void Checker::match_closed_shapes() {
  std::map<std::string, std::vector<std::size_t>> by_element;  // an element may have several strokes (arcs)
  for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
    const Curve& c = fig_.curves[i];
    if (c.model != Curve::Model::polyline || c.category == "lines") continue;
    by_element[c.category + "\n" + c.element].push_back(i);
  }
  for (const auto& [key, strokes] : by_element) {
    const std::string category = key.substr(0, key.find('\n')), element = key.substr(key.find('\n') + 1);
    Count& count = out_.counts[category];
    if (std::any_of(strokes.begin(), strokes.end(), [&](std::size_t i) { return evidence_[i].hidden; })) continue;
    ++count.symbolic;
    std::vector<P2> missing;
    for (std::size_t i : strokes)
      for (std::size_t s : fig_.curves[i].straights) {
        const Straight& st = fig_.straights[s];
        if (dist(st.a, st.b) >= kMinDetectablePx && piece_coverage(st.a, st.b) < needed_coverage(fig_.curves[i]))
          missing.push_back(midpoint(st.a, st.b));
      }
    // Arcs, spirals and links have no sides: their ink along the stroke (judge_strokes) stands
    // for the match.
    if (missing.empty())
      ++count.matched;
    else
      add(FindingKind::not_detected, {element},
          std::to_string(missing.size()) + " side(s) not drawn within " + fixed(out_.picture.tolerance_px) +
              " px of their place",
          std::nullopt, missing);
  }
}

// A letter the scene names and the picture does not show, where the picture need not letter every
// point (unshown_reason: Geometry3K's annotators name them all): a note with that reason. Returns
// how many of the reasons from `from` on it made notes.
int Checker::note_unshown_letters(std::size_t from) {
  if (unshown_letters_.empty()) return 0;
  int notes = 0;
  for (std::size_t i = from; i < out_.reasons.size(); ++i) {
    Reason& r = out_.reasons[i];
    if (r.kind != FindingKind::not_detected && r.kind != FindingKind::not_visible) continue;
    r.severity = Severity::note;
    r.detail += "; " + unshown_letters_;
    ++notes;
  }
  return notes;
}

// --- letters: a glyph near each labelled point ------------------------------------------
void Checker::match_letters() {
  if (std::none_of(fig_.texts.begin(), fig_.texts.end(), [](const Text& t) { return t.letter; })) return;
  if (out_.mapping.fitted) {
    match_read_letters();
    return;
  }
  std::vector<bool> compact;
  out_.detections.glyphs = find_glyphs(letter_ink(), compact);
  std::vector<bool> used(out_.detections.glyphs.size(), false);
  Count& count = out_.counts["letters"];
  // Users' pictures letter at their own size: the median glyph height stands for it.
  std::vector<int> heights;
  for (const auto& g : out_.detections.glyphs) heights.push_back(g.height);
  std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
  const double letter_size = std::max(fig_.font_px, heights.empty() ? 0.0 : 0.8 * heights[heights.size() / 2]);
  const double reach = 2.5 * letter_size;
  // The nearest unused glyph of `glyphs` within reach of the letter's point.
  auto nearest = [&](const Text& t, const std::vector<Detections::Box>& glyphs, const std::vector<bool>& taken) {
    std::size_t best = glyphs.size();
    double best_d = reach;
    for (std::size_t g = 0; g < glyphs.size(); ++g) {
      const double d = dist(t.anchor, {glyphs[g].x + glyphs[g].width / 2.0, glyphs[g].y + glyphs[g].height / 2.0});
      if (!taken[g] && d < best_d) best_d = d, best = g;
    }
    return best;
  };
  std::vector<const Text*> unmatched;
  for (const Text& t : fig_.texts) {
    if (!t.letter || !inside(t.anchor)) continue;
    ++count.symbolic;
    if (const std::size_t g = nearest(t, out_.detections.glyphs, used); g < used.size())
      used[g] = true, ++count.matched;
    else
      unmatched.push_back(&t);
  }
  if (unmatched.empty()) return;
  // A thin glyph (an I, a J) in a noisy picture can fall under the letters' own threshold (half
  // the darkest stroke's contrast, on the denoised picture): it is looked for again in the ink of
  // the picture as decoded, where a glyph a letter already took or one on a stroke of the scene
  // does not count.
  std::vector<bool> faint_compact;
  const auto faint = find_glyphs(unsmoothed_ink(paper_), faint_compact);
  std::vector<bool> taken(faint.size(), false);
  for (std::size_t g = 0; g < faint.size(); ++g) {
    const P2 centre{faint[g].x + faint[g].width / 2.0, faint[g].y + faint[g].height / 2.0};
    taken[g] = on_scene_stroke(centre, out_.picture.tolerance_px) ||
               std::any_of(out_.detections.glyphs.begin(), out_.detections.glyphs.end(),
                           [&](const Detections::Box& b) { return in_box(centre, b, 0); });
  }
  for (const Text* t : unmatched) {
    if (const std::size_t g = nearest(*t, faint, taken); g < faint.size()) {
      taken[g] = true, ++count.matched;
      out_.detections.glyphs.push_back(faint[g]);
    } else {
      add(FindingKind::not_detected, {t->element},
          "no letter-sized mark within " + fixed(reach, 0) + " px of point " + t->text, std::nullopt, {t->anchor});
    }
  }
}

// Letters and heads are solid marks: ink at half the contrast of the picture's darkest strokes,
// so that anti-aliased halos do not join a letter to the stroke beside it.
cv::Mat Checker::letter_ink() const {
  double darkest = 0;
  for (const CurveEvidence& e : evidence_) darkest = std::max(darkest, e.trace.contrast);
  if (darkest <= 0) return paper_.ink;
  return paper_.darkness > std::max(paper_.ink_level, 0.5 * darkest);
}

void Checker::match_arrowheads() {
  if (fig_.heads.empty()) return;
  out_.detections.arrowheads = find_arrowheads(letter_ink());
  Count& count = out_.counts["arrowheads"];
  for (const Head& h : fig_.heads) {
    ++count.symbolic;
    const P2 c{(h.tip.x + h.left.x + h.right.x) / 3, (h.tip.y + h.left.y + h.right.y) / 3};
    const double reach = std::max(4.0, dist(h.tip, h.left) * 0.6);
    if (std::any_of(out_.detections.arrowheads.begin(), out_.detections.arrowheads.end(),
                    [&](P2 d) { return dist(c, d) <= reach; }))
      ++count.matched;
    else
      add(FindingKind::not_detected, {h.element}, "no arrowhead detected at the link's end", std::nullopt, {c});
  }
}

// A frame mapped by its dots (VisOnlyQA's matplotlib figures, lettered beside each dot, often
// touching a stroke): the letters are read by the letter reader (read_letters, separating glyphs
// from the scene's strokes), and each point's letter is looked for where the figure's generator put
// it (label_spots_, dots.cpp: AlphaGeometry's naming rule, a fixed offset in the figure's units
// along the widest gap between the strokes at the point), or within reach of the point (three
// letter heights, or a twentieth of the picture's longer side) for a point the rule does not place.
//  - A label of the point's name there: the letter is found.
//  - Else a label of another name there is a note (letter_uncertain): the reader's reads of glyphs
//    touching strokes are not sure enough to doubt a question by, let alone call the picture wrong.
//  - Else ink of a letter's size at the spot, apart from the scene's strokes, its dots and the other
//    points' letters (letter_ink_at): a letter the reader could not read (touching a stroke) is
//    found there, and nothing else is.
//  - Else not_detected: the picture does not letter the point where its generator would have.
void Checker::match_read_letters() {
  cv::Mat strokes = cv::Mat::zeros(paper_.ink.rows, paper_.ink.cols, CV_8U);
  const int thickness = static_cast<int>(std::ceil(stroke_ + 2));
  for (const Curve& c : fig_.curves) cv::polylines(strokes, pixel_path(c.path), c.closed, 255, thickness);
  LetterOptions options;
  options.alphabet = Alphabet::point_labels;
  options.stroke_ink = strokes;
  const std::vector<LetterRead> read = read_letters(paper_, options);
  std::vector<double> heights;
  for (const LetterRead& l : read) heights.push_back(l.height_px);
  std::nth_element(heights.begin(), heights.begin() + static_cast<std::ptrdiff_t>(heights.size() / 2), heights.end());
  // The letters' capital height: the median read, or matplotlib's 15 pt at 100 dpi (DejaVu Sans'
  // capitals are 0.73 em: 15.2 px) when nothing was read.
  const double height = heights.empty() ? 15.2 : std::max(8.0, heights[heights.size() / 2]);
  const double reach = std::max(3 * std::max(10.0, height), 0.05 * std::max(image_.width, image_.height));
  // Where a spot's letter should be: its ink box starts at the anchor and rises a capital's height
  // above it (a capital is about 0.7 of its height wide). A read centred within a letter's height
  // of that is at the spot (the anchor follows the dot measured in the picture; the rule's angle
  // moves with the 0.01 rounding of the points).
  auto spot_of = [&](const Text& t) -> const LabelSpot* {
    for (const LabelSpot& s : label_spots_)
      if (s.point == t.element) return &s;
    return nullptr;
  };
  auto expected = [&](P2 corner) { return P2{corner.x + 0.35 * height, corner.y - 0.5 * height}; };
  const double near = height;
  for (const LetterRead& l : read) out_.detections.glyphs.push_back({l.box.x, l.box.y, l.box.width, l.box.height});
  std::vector<bool> used(read.size(), false);
  // What of each read no point has taken yet: two letters set side by side read as one label ("IC"
  // for the I and the C of two close points) serve both, each its own character.
  std::vector<std::string> unclaimed;
  for (const LetterRead& l : read) unclaimed.push_back(l.label);
  std::vector<int> owner(fig_.texts.size(), -1);  // the read each text's letter took
  Count& count = out_.counts["letters"];
  // The read of `t` among `read` at its spot (or within reach of its point, for a point with no
  // spot), nearest first; read.size() when none. `named`: only reads holding t's own name (a read
  // of two letters side by side is as near as its box). `fallback`: a read of t's name within reach
  // of its point, wherever the rule put the letter.
  auto box_distance = [](P2 p, const cv::Rect& b) {
    return std::hypot(std::max({b.x - p.x, 0.0, p.x - (b.x + b.width)}),
                      std::max({b.y - p.y, 0.0, p.y - (b.y + b.height)}));
  };
  auto find = [&](const Text& t, bool named, bool fallback) {
    const LabelSpot* spot = spot_of(t);
    std::size_t best = read.size();
    if (fallback || !spot) {
      double best_d = reach;
      for (std::size_t k = 0; k < read.size(); ++k)
        if (!used[k] && (!named || unclaimed[k] == t.text))
          if (const double d = dist(t.anchor, {read[k].centre.x, read[k].centre.y}); d < best_d) best_d = d, best = k;
      return best;
    }
    double best_d = near;
    for (std::size_t k = 0; k < read.size(); ++k) {
      if (used[k] || (named && unclaimed[k].find(t.text) == std::string::npos)) continue;
      for (const P2& c : spot->corners) {
        const P2 e = expected(c);
        const double d = named ? std::min(dist(e, {read[k].centre.x, read[k].centre.y}), box_distance(e, read[k].box))
                               : dist(e, {read[k].centre.x, read[k].centre.y});
        if (d < best_d) best_d = d, best = k;
      }
    }
    return best;
  };
  // Named right first, at the spots, then near the points, so that a neighbour's label is not
  // taken for a point's own.
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < fig_.texts.size(); ++i)
    if (fig_.texts[i].letter && inside(fig_.texts[i].anchor)) ++count.symbolic, pending.push_back(i);
  for (const bool fallback : {false, true}) {
    std::vector<std::size_t> left;
    for (const std::size_t i : pending) {
      const Text& t = fig_.texts[i];
      if (const std::size_t k = find(t, true, fallback); k < read.size()) {
        unclaimed[k].erase(unclaimed[k].find(t.text), t.text.size());
        used[k] = unclaimed[k].empty(), owner[i] = static_cast<int>(k), ++count.matched;
      } else {
        left.push_back(i);
      }
    }
    pending = std::move(left);
  }
  const std::vector<std::size_t> others = std::move(pending);
  std::vector<std::size_t> unread;
  for (const std::size_t i : others) {
    const Text& t = fig_.texts[i];
    if (const std::size_t k = find(t, false, false); k < read.size()) {
      used[k] = true, owner[i] = static_cast<int>(k), ++count.matched;
      const LetterRead& l = read[k];
      add(FindingKind::letter_uncertain, {t.element},
          "the label where point " + t.text + "'s letter should be reads \"" + l.label + "\" (confidence " +
              fixed(l.confidence, 2) + (l.runner_up.text.empty() ? "" : ", else \"" + l.runner_up.text + "\"") + ")",
          std::nullopt, {t.anchor});
      out_.reasons.back().severity = Severity::note;  // evidence too weak to doubt a question by
    } else {
      unread.push_back(i);
    }
  }
  if (unread.empty()) return;
  // The letters already placed: their ink is not another point's letter.
  std::vector<cv::Rect> taken;
  // (only a read of a letter's size: a taller one joined a letter to something else, which may be
  // the letter looked for).
  for (std::size_t i = 0; i < fig_.texts.size(); ++i)
    if (owner[i] >= 0 && read[static_cast<std::size_t>(owner[i])].box.height <= 1.3 * height)
      taken.push_back(read[static_cast<std::size_t>(owner[i])].box);
  // The letters read by their point's name, surely, give the figure's font: a letter the reader
  // could not read (across a stroke, against its dot) is found where the rule puts it when it is
  // drawn there in that font better than every other letter of the figure (the strokes' and dots'
  // pixels left out of the comparison).
  std::optional<FontMatch> font;
  TemplateSheet sheet;
  std::vector<std::string> names;
  for (const Text& t : fig_.texts)
    if (t.letter) names.push_back(t.text);
  {
    std::vector<KnownLetter> known;
    for (std::size_t i = 0; i < fig_.texts.size(); ++i) {
      if (owner[i] < 0) continue;
      const LetterRead& l = read[static_cast<std::size_t>(owner[i])];
      if (l.label == fig_.texts[i].text && l.label.size() == 1 && !l.doubtful) known.push_back({l.label, l.box});
    }
    if (known.size() > 8) known.resize(8);
    cv::Mat covered = strokes.clone();
    for (const LabelSpot& s : label_spots_)
      cv::circle(covered, cv::Point(cvRound(s.dot.x), cvRound(s.dot.y)),
                 static_cast<int>(std::ceil((s.dot_radius > 0 ? s.dot_radius : stroke_) + 1)), 255, cv::FILLED);
    sheet = template_sheet(paper_.darkness, covered, height);
    font = identify_font(sheet, known, training_fonts());
    if (font && font->score < 0.7) font.reset();
  }
  auto drawn_at = [&](const Text& t, const LabelSpot& spot, cv::Rect& box) {
    if (!font) return false;
    const int search = std::max(3, static_cast<int>(std::lround(0.35 * font->cap_height_px)));
    for (const P2& c : spot.corners) {
      std::vector<cv::Rect> boxes;
      const std::vector<double> scores =
          template_scores(sheet, {c.x + 0.35 * font->cap_height_px, c.y - 0.5 * font->cap_height_px}, font->font,
                          font->cap_height_px, names, search, &boxes);
      const auto own = static_cast<std::size_t>(std::find(names.begin(), names.end(), t.text) - names.begin());
      if (own >= names.size() || scores[own] < 0.7) continue;
      bool best = true;
      for (std::size_t k = 0; k < names.size(); ++k) best &= k == own || names[k] == t.text || scores[k] < scores[own];
      if (best) {
        box = boxes[own];
        return true;
      }
    }
    return false;
  };
  for (const std::size_t i : unread) {
    const Text& t = fig_.texts[i];
    const LabelSpot* spot = spot_of(t);
    cv::Rect box;
    if (spot && (std::any_of(spot->corners.begin(), spot->corners.end(),
                             [&](P2 c) { return letter_ink_at(c, height, taken, box); }) ||
                 drawn_at(t, *spot, box))) {
      ++count.matched;
      taken.push_back(box);
      out_.detections.glyphs.push_back({box.x, box.y, box.width, box.height});
      continue;
    }
    if (!spot) {
      add(FindingKind::not_detected, {t.element}, "no letter within " + fixed(reach, 0) + " px of point " + t.text,
          std::nullopt, {t.anchor});
      continue;
    }
    // The generator set the letter where the picture, cropped about the figure, does not reach:
    // the picture does not letter the point (a true difference, said as such).
    const P2 corner = spot->corners.front();
    const cv::Rect letter(static_cast<int>(std::floor(corner.x)), static_cast<int>(std::floor(corner.y - height)),
                          static_cast<int>(std::ceil(0.7 * height)), static_cast<int>(std::ceil(height)));
    std::string at = "(";  // built piecewise: GCC 12 misreads "(" + std::string (-Wrestrict)
    at += fixed(corner.x, 0), at += ", ", at += fixed(corner.y, 0), at += ") px";
    if ((letter & cv::Rect(0, 0, image_.width, image_.height)) != letter)
      add(FindingKind::not_visible, {t.element},
          "point " + t.text + "'s letter is cut off by the picture's edge: the figure's generator anchors it at " + at +
              ", the picture is " + std::to_string(image_.width) + " × " + std::to_string(image_.height) + " px",
          std::nullopt, {t.anchor});
    else
      add(FindingKind::not_detected, {t.element},
          "no letter where the figure's generator puts point " + t.text + "'s (its text anchored at " + at +
              (spot->corners.size() > 1 ? " or " + std::to_string(spot->corners.size() - 1) + " other place(s)" : "") +
              "), read or as ink of a letter's size",
          std::nullopt, {t.anchor});
  }
}

// Ink of a letter at a spot: within the letter's box (from the anchor, a capital's height up and
// 0.9 of it across), widened by a third of a letter's height (the rule's angle moves with the 0.01
// rounding), the picture's letter ink apart from the scene's strokes (drawn as wide as the stroke
// plus a pixel each side), every point's dot (its measured radius plus a pixel) and the other
// letters' boxes. Its connected pieces centred in the box (pieces a stroke cut a letter into; not
// a neighbour's letter reaching in) count when together they stand at least half a letter's
// height and hold at least a letter's height of pixels (a one-pixel-wide I). A dot, a stroke's
// JPEG fringe or a crossing does not.
bool Checker::letter_ink_at(P2 corner, double height, const std::vector<cv::Rect>& others, cv::Rect& found) const {
  const double slack = height / 3;
  const cv::Rect canvas(0, 0, paper_.ink.cols, paper_.ink.rows);
  const cv::Rect box = cv::Rect(cv::Point(static_cast<int>(std::floor(corner.x - slack)),
                                          static_cast<int>(std::floor(corner.y - height - slack))),
                                cv::Point(static_cast<int>(std::ceil(corner.x + 0.9 * height + slack)),
                                          static_cast<int>(std::ceil(corner.y + slack)))) &
                       canvas;
  if (box.area() == 0) return false;
  // Pieces reaching into the box are followed a letter's height beyond it.
  const int pad = static_cast<int>(std::ceil(height));
  const cv::Rect window = cv::Rect(box.x - pad, box.y - pad, box.width + 2 * pad, box.height + 2 * pad) & canvas;
  cv::Mat ink = letter_ink()(window).clone();
  const cv::Point shift(-window.x, -window.y);
  const int thickness = static_cast<int>(std::ceil(stroke_ + 2));
  for (const Curve& c : fig_.curves) {
    std::vector<cv::Point> path = pixel_path(c.path);
    for (cv::Point& q : path) q += shift;
    cv::polylines(ink, path, c.closed, 0, thickness);
  }
  for (const LabelSpot& s : label_spots_)
    cv::circle(ink, cv::Point(static_cast<int>(std::lround(s.dot.x)), static_cast<int>(std::lround(s.dot.y))) + shift,
               static_cast<int>(std::ceil((s.dot_radius > 0 ? s.dot_radius : stroke_) + 1)), 0, cv::FILLED);
  for (const cv::Rect& r : others) cv::rectangle(ink, r + shift, 0, cv::FILLED);
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(ink > 0, labels, stats, centroids, 8, CV_32S);
  const cv::Rect inner = box + shift;
  std::vector<bool> reaches(static_cast<std::size_t>(n), false);
  for (int y = inner.y; y < inner.y + inner.height; ++y)
    for (int x = inner.x; x < inner.x + inner.width; ++x)
      if (const int l = labels.at<int>(y, x); l > 0) reaches[static_cast<std::size_t>(l)] = true;
  cv::Rect united;
  int pixels = 0;
  for (int l = 1; l < n; ++l) {
    if (!reaches[static_cast<std::size_t>(l)]) continue;
    const cv::Rect piece(stats.at<int>(l, cv::CC_STAT_LEFT), stats.at<int>(l, cv::CC_STAT_TOP),
                         stats.at<int>(l, cv::CC_STAT_WIDTH), stats.at<int>(l, cv::CC_STAT_HEIGHT));
    // A piece as tall as two letters is a stroke of the figure the scene does not draw, not a
    // letter; a piece centred outside the box is a neighbour's letter reaching into it.
    if (piece.height > 2 * height || piece.width > 2 * height) continue;
    if (!inner.contains(cv::Point(piece.x + piece.width / 2, piece.y + piece.height / 2))) continue;
    united = united.area() ? (united | piece) : piece;
    pixels += stats.at<int>(l, cv::CC_STAT_AREA);
  }
  if (united.height < 0.5 * height || pixels < height) return false;
  found = united - shift;
  return true;
}

}  // namespace geotruth::vision::check
