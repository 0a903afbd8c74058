#include "count_check/count_check.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <geotruth/bands.hpp>
#include <geotruth/counts.hpp>
#include <geotruth/incidence.hpp>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "core/exact_json.hpp"
#include "core/px_text.hpp"
#include "questions/picture_doubts.hpp"

namespace geotruth {
namespace {

using vision::PixelPoint;
using vision::Reason;

double distance(PixelPoint a, PixelPoint b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

std::string percent(double share) {
  return std::to_string(static_cast<int>(std::lround(100 * share))) + " %";
}

// One lettered point of either side, where it lies in the picture.
struct Letter {
  std::string id;    ///< the point's id in its own scene
  std::string text;  ///< the letter it names ("A" for the reader's "A?2")
  PixelPoint at;
  bool attached = true;       ///< read: the letter sits beside a point read (not placed where it is written)
  std::optional<int> box[4];  ///< read: the glyph's ink box
  double confidence = 0;      ///< read: the reader's confidence in its letter (by the figure's own font)
  std::string runner_up;      ///< read: the letter it would be next
};

// The reader's own evidence of a point (extra.evidence), or null.
ordered_json evidence_of(const Point& p) {
  if (p.extra.empty()) return nullptr;
  ordered_json extra = ordered_json::parse(p.extra, nullptr, false);
  if (!extra.is_object() || !extra.contains("evidence") || !extra["evidence"].is_object()) return nullptr;
  return std::move(extra["evidence"]);
}

std::vector<Letter> scene_letters(const Scene& scene, const vision::CrossCheck& check) {
  std::vector<Letter> out;
  const bool y_up = scene.frame.y == YAxis::up;
  const double height = to_double(scene.frame.height);
  for (const Point& p : scene.points) {
    if (!p.labelled || !p.at) continue;
    out.push_back(
        {p.id, p.id,
         vision::frame_to_picture(to_double(p.at->x), to_double(p.at->y), check.scale, check.offset, y_up, height)});
  }
  return out;
}

std::vector<Letter> read_letters(const Scene& read) {
  std::vector<Letter> out;
  for (const Point& p : read.points) {
    if (!p.labelled || !p.at) continue;
    Letter l{p.id, p.id.substr(0, p.id.find('?')), {to_double(p.at->x), to_double(p.at->y)}};
    const ordered_json evidence = evidence_of(p);
    if (evidence.is_object()) {
      l.attached = evidence.value("from", "") != "letter";
      if (evidence.contains("letter") && evidence["letter"].is_object()) {
        const ordered_json& letter = evidence["letter"];
        if (letter.contains("text") && letter["text"].is_string()) l.text = letter["text"].get<std::string>();
        if (letter.contains("confidence") && letter["confidence"].is_number())
          l.confidence = letter["confidence"].get<double>();
        if (letter.contains("runner_up") && letter["runner_up"].is_string())
          l.runner_up = letter["runner_up"].get<std::string>();
        if (letter.contains("box") && letter["box"].is_array() && letter["box"].size() == 4)
          for (int k = 0; k < 4; ++k)
            if (const auto& v = letter["box"][static_cast<std::size_t>(k)]; v.is_number())
              l.box[k] = static_cast<int>(std::lround(v.get<double>()));
      }
    }
    out.push_back(std::move(l));
  }
  return out;
}

// The median height of the letters the reader read (their glyph boxes), or `fallback`.
double letter_height(const std::vector<Letter>& letters, double fallback) {
  std::vector<int> heights;
  for (const Letter& l : letters)
    if (l.box[3]) heights.push_back(*l.box[3]);
  if (heights.empty()) return fallback;
  std::nth_element(heights.begin(), heights.begin() + static_cast<std::ptrdiff_t>(heights.size() / 2), heights.end());
  return heights[heights.size() / 2];
}

// A full circle of either side in picture pixels.
struct Round {
  std::string name;
  PixelPoint centre;
  double radius = 0;
};

std::vector<Round> full_circles(const Scene& scene, double scale, PixelPoint offset, bool y_up, double height) {
  std::vector<Round> out;
  for (std::size_t i = 0; i < scene.circles.size(); ++i) {
    const Circle& c = scene.circles[i];
    if (c.quadrants != "1111" || !c.center) continue;
    double radius = 0;
    if (c.radius)
      radius = to_double(*c.radius);
    else if (!c.through.empty() && scene.points[c.through.front()].at)
      radius = std::hypot(to_double(scene.points[c.through.front()].at->x) - to_double(c.center->x),
                          to_double(scene.points[c.through.front()].at->y) - to_double(c.center->y));
    else
      continue;
    out.push_back(
        {circle_name(scene, i),
         vision::frame_to_picture(to_double(c.center->x), to_double(c.center->y), scale, offset, y_up, height),
         radius * scale});
  }
  return out;
}

// The counted figures of a scene at its band: segments and triangles by their points' ids.
struct Counted {
  TangramCounts counts;
  std::set<std::vector<std::string>> segments, triangles;  // sorted ids
};

Counted count_scene(const Scene& scene, const Bands& bands) {
  Counted out;
  const Incidence incidence = build_incidence(scene, IncidenceMode::merged, bands);
  out.counts = count_figure(scene, incidence, {false, false, true});
  for (auto s : out.counts.listed->segments) std::sort(s.begin(), s.end()), out.segments.insert(s);
  for (auto t : out.counts.listed->triangles) std::sort(t.begin(), t.end()), out.triangles.insert(t);
  return out;
}

CountTally tally(const TangramCounts& c) {
  return {static_cast<int>(c.letters), static_cast<int>(c.circles), static_cast<int>(c.segments),
          static_cast<int>(c.triangles)};
}

std::string joined(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += id;
  return out;
}

class Comparison {
 public:
  Comparison(const Scene& scene, const Bands& bands, const Scene& read, const vision::InkProbe& probe,
             vision::CrossCheck& check)
      : scene_(scene), bands_(bands), read_(read), probe_(probe), check_(check) {}

  CountCheck run() {
    const Bands read_bands = picture_bands(read_, bands_).value_or(bands_);
    // The band a bend must clear to be seen: the picture's, or the scene's where its rounded
    // positions make it wider (the scene's band with its frame drawn at the picture's scale, so
    // that ε_vis stands as far above ε_num in the picture's pixels as the run's band says).
    Bands at_picture_scale = bands_;
    at_picture_scale.render_size_px = 0;
    Frame frame = scene_.frame;
    if (check_.scale > 0 && std::isfinite(check_.scale)) frame.px_per_unit = Rational(check_.scale);
    const double scene_eps_vis_px = FrameBands(at_picture_scale, frame).eps_vis_px();
    eps_vis_px_ = std::max(read_bands.eps_vis_px, scene_eps_vis_px);
    eps_vis_source_ = read_bands.eps_vis_px >= scene_eps_vis_px ? "picture's" : "scene's";
    const Counted scene_counted = count_scene(scene_, bands_);
    result_.scene = tally(scene_counted.counts);
    result_.picture = tally(count_scene(read_, read_bands).counts);
    for (const PictureDoubt& d : picture_doubts(read_)) {
      for (const std::string& e : d.finding.elements) doubted_.insert(e);
      if (d.finding.kind == FindingKind::stroke_uncertain && d.finding.elements.size() == 2)
        doubted_strokes_.insert(std::minmax(d.finding.elements[0], d.finding.elements[1]));
    }
    unshown_letters_ = unshown_reason(scene_, "letters");
    match_letters();
    compare_segments_and_triangles(scene_counted, count_scene(with_scene_letters(), read_bands));
    compare_circles();
    return std::move(result_);
  }

 private:
  // Letters by position, nearest first; a pair reading the same letter is preferred by a letter
  // height.
  void match_letters() {
    scene_letters_ = scene_letters(scene_, check_);
    read_letters_ = read_letters(read_);
    const double tolerance = check_.picture.tolerance_px;
    letter_px_ = letter_height(read_letters_, std::max(11.0, 3 * tolerance));
    struct Pair {
      double cost;
      std::size_t s, r;
    };
    std::vector<Pair> pairs;
    for (std::size_t s = 0; s < scene_letters_.size(); ++s)
      for (std::size_t r = 0; r < read_letters_.size(); ++r) {
        const double d = distance(scene_letters_[s].at, read_letters_[r].at);
        const double reach = read_letters_[r].attached ? std::max(2 * tolerance, 2 * letter_px_) : 2.5 * letter_px_;
        if (d > reach) continue;
        pairs.push_back({d - (scene_letters_[s].text == read_letters_[r].text ? letter_px_ : 0), s, r});
      }
    std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.cost < b.cost; });
    std::vector<bool> scene_taken(scene_letters_.size()), read_taken(read_letters_.size());
    for (const Pair& p : pairs) {
      if (scene_taken[p.s] || read_taken[p.r]) continue;
      scene_taken[p.s] = read_taken[p.r] = true;
      to_scene_[read_letters_[p.r].id] = scene_letters_[p.s].id;
      matched_scene_.insert(scene_letters_[p.s].id);
      if (scene_letters_[p.s].text != read_letters_[p.r].text) letter_differs(scene_letters_[p.s], read_letters_[p.r]);
    }
    for (std::size_t s = 0; s < scene_letters_.size(); ++s)
      if (!scene_taken[s]) letter_missing(scene_letters_[s]);
    for (std::size_t r = 0; r < read_letters_.size(); ++r)
      if (!read_taken[r]) letter_extra(read_letters_[r]);
  }

  // The scene's letter against the glyph the picture shows at its point: the classifier's
  // confidence that the glyph is the scene's letter decides (a glyph that may well be it is the
  // reader's misread).
  void letter_differs(const Letter& s, const Letter& r) {
    const bool boxed = r.box[0] && r.box[1] && r.box[2] && r.box[3];
    // The glyph's box: the reader's, joined with the glyphs the cross-check found overlapping it
    // (the reader may have read a piece of a glyph that noise broke).
    int x0 = boxed ? *r.box[0] : 0, y0 = boxed ? *r.box[1] : 0;
    int x1 = boxed ? x0 + *r.box[2] : 0, y1 = boxed ? y0 + *r.box[3] : 0;
    for (const auto& g : check_.detections.glyphs)
      if (boxed && g.x <= x1 + 1 && g.x + g.width >= x0 - 1 && g.y <= y1 + 1 && g.y + g.height >= y0 - 1)
        x0 = std::min(x0, g.x), y0 = std::min(y0, g.y), x1 = std::max(x1, g.x + g.width),
        y1 = std::max(y1, g.y + g.height);
    auto reads_as = [&](const std::string& text) {
      return boxed ? probe_.reads_as(x0, y0, x1 - x0, y1 - y0, text) : -1.0;
    };
    const double as_scene = reads_as(s.text), as_read = reads_as(r.text);
    // The letter the picture shows: the reader's when the glyph reads so again, else the
    // classifier's own best reading when it is sure of it.
    std::string shown;
    if (as_read >= kGlyphIs)
      shown = r.text;
    else if (boxed && r.text.size() == 1)
      if (const auto [best, confidence] = probe_.best_reading(x0, y0, x1 - x0, y1 - y0); confidence >= kGlyphIs)
        shown = best;
    // Or the reader's own reading, when it is sure of it and the scene's letter is not what it would
    // read next: the reader matched the glyph against the figure's own font, where the classifier
    // here knows letters in general and may be unsure of one a noisy JPEG blurred (VisOnlyQA's A
    // read 0.27 as A). The classifier still has the last word on the scene's letter (as_scene).
    if (shown.empty() && r.text.size() == 1 && r.confidence >= kReaderSure && r.runner_up != s.text &&
        !doubted_.count(r.id))
      shown = r.text;
    std::string detail = "the scene names the point " + s.id + ", the picture shows the letter " +
                         (shown.empty() ? r.text : shown) + " there";
    if (as_scene >= 0)
      detail += " (the glyph reads as " + r.text + " with confidence " +
                std::to_string(std::max(0.0, as_read)).substr(0, 4) + ", as " + s.text + " with " +
                std::to_string(as_scene).substr(0, 4) + ")";
    Severity severity = Severity::doubtful;
    if (r.text.size() > 1 && r.text.find(s.text) != std::string::npos)
      severity = Severity::note;  // the scene's letter read with a mark beside it ("Oe")
    else if (!std::isalpha(static_cast<unsigned char>(r.text[0])))
      severity = Severity::note;  // a number written by the point (a length), not a name
    else if (r.text.size() > 1 && as_scene >= kGlyphMayBe)
      severity = Severity::note;  // several glyphs read where the box, read whole, may well be the scene's letter
    else if (r.text.size() > 1)
      // A label of several glyphs (B1, A', or a length such as 24 written by the point): the
      // classifier reads glyphs one by one, so nothing confirms it; a point's name is doubtful,
      // anything else (a length, a word) the reader's.
      severity = looks_like_point_name(r.text) ? Severity::doubtful : Severity::note;
    else if (as_scene >= kGlyphMayBe || (as_scene >= 0 && (shown.empty() || same_letter(shown, s.text))))
      severity = Severity::note;  // the glyph may well be the scene's letter, or reads as no letter surely: a misread
    else if (lowercase_in_capitals(r.text))
      // A figure lettered in capitals throughout (the scene's letters, and every other letter the
      // reader read): a lowercase reading is a capital the noise took part of (F read as r).
      severity = Severity::note;
    else if (as_scene >= 0 && as_scene <= kGlyphIsNot)
      // Read surely as another letter, and not as the scene's; a glyph a stroke of the scene runs
      // through or beside may be cut or lengthened by it: doubtful.
      severity = touches_scene_stroke(x0, y0, x1, y1) ? Severity::doubtful : Severity::conflict;
    else if (as_scene < 0 && !doubted_.count(r.id))
      severity = Severity::conflict;  // a label the classifier does not read alone (A', B1): the reader's word
    add("letter read otherwise", {s.id}, detail, severity, {s.at});
  }

  // A single lowercase letter read (by the reader, or in a glyph the reader left) where the scene
  // names three points or more, all in capitals, and the reader read at most one lowercase letter.
  bool lowercase_in_capitals(const std::string& text) const {
    auto capital = [](const std::string& t) { return !t.empty() && std::isupper(static_cast<unsigned char>(t[0])); };
    if (text.size() != 1 || !std::islower(static_cast<unsigned char>(text[0]))) return false;
    const bool scene_capitals =
        std::all_of(scene_letters_.begin(), scene_letters_.end(), [&](const Letter& l) { return capital(l.text); });
    const auto lowercase_read = std::count_if(read_letters_.begin(), read_letters_.end(), [&](const Letter& l) {
      return !l.text.empty() && std::islower(static_cast<unsigned char>(l.text[0]));
    });
    return scene_capitals && scene_letters_.size() >= 3 && lowercase_read <= 1;
  }

  // A capital, then digits, then primes: how diagrams name points (A, B1, C').
  static bool looks_like_point_name(const std::string& text) {
    if (text.empty() || !std::isupper(static_cast<unsigned char>(text[0]))) return false;
    std::size_t i = 1;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    while (i < text.size() && text[i] == '\'') ++i;
    return i == text.size();
  }

  // Letters whose glyphs the classifier cannot tell apart (c and C, one class).
  static bool same_letter(const std::string& a, const std::string& b) {
    if (a.size() != 1 || b.size() != 1) return a == b;
    return std::toupper(static_cast<unsigned char>(a[0])) == std::toupper(static_cast<unsigned char>(b[0])) &&
           (a == b || std::string("cosuvwxzCOSUVWXZ").find(a[0]) != std::string::npos);
  }

  // A scene letter the reader did not read: the glyph the cross-check found by its point (nearer
  // it than any other letter of the scene, and not a glyph the reader read) read again; true when
  // it is surely another letter (a "letter read otherwise" difference is added).
  bool glyph_reads_otherwise(const Letter& s) {
    const vision::Detections::Box* nearest = nullptr;
    double nearest_d = 2.5 * letter_px_;
    for (const auto& g : check_.detections.glyphs) {
      const PixelPoint c{g.x + g.width / 2.0, g.y + g.height / 2.0};
      const double d = distance(c, s.at);
      if (d > nearest_d) continue;
      const bool others = std::any_of(scene_letters_.begin(), scene_letters_.end(),
                                      [&](const Letter& l) { return l.id != s.id && distance(l.at, c) < d; });
      const bool read = std::any_of(read_letters_.begin(), read_letters_.end(), [&](const Letter& l) {
        return l.box[0] && l.box[1] && l.box[2] && l.box[3] && g.x < *l.box[0] + *l.box[2] &&
               g.x + g.width > *l.box[0] && g.y < *l.box[1] + *l.box[3] && g.y + g.height > *l.box[1];
      });
      if (!others && !read) nearest = &g, nearest_d = d;
    }
    if (!nearest) return false;
    const auto& g = *nearest;
    const auto [shown, confidence] = probe_.best_reading(g.x, g.y, g.width, g.height);
    const double as_scene = probe_.reads_as(g.x, g.y, g.width, g.height, s.text);
    // (A digit is a length written by the point, not a name; a lowercase letter in a capitals
    // figure, noise's: as in letter_differs.)
    if (confidence < kGlyphIs || shown.empty() || !std::isalpha(static_cast<unsigned char>(shown[0])) ||
        same_letter(shown, s.text) || as_scene < 0 || as_scene > kGlyphIsNot || lowercase_in_capitals(shown))
      return false;
    add("letter read otherwise", {s.id},
        "the scene names the point " + s.id + ", the picture shows the letter " + shown +
            " there (the glyph reads as " + shown + " with confidence " + std::to_string(confidence).substr(0, 4) +
            ", as " + s.text + " with " + std::to_string(as_scene).substr(0, 4) + ")",
        touches_scene_stroke(g.x, g.y, g.x + g.width, g.y + g.height) ? Severity::doubtful : Severity::conflict,
        {s.at});
    return true;
  }

  void letter_missing(const Letter& s) {
    if (glyph_reads_otherwise(s)) return;
    // Confirmed when the cross-check's own search for a glyph at the point found none either.
    const bool unseen = std::any_of(check_.reasons.begin(), check_.reasons.end(), [&](const Reason& r) {
      return (r.kind == FindingKind::not_detected || r.kind == FindingKind::not_visible) &&
             std::find(r.elements.begin(), r.elements.end(), s.id) != r.elements.end() &&
             r.detail.find("letter") != std::string::npos;
    });
    // A picture that need not letter every point the scene names (Geometry3K's) misses none.
    add("letter missing", {s.id},
        "the scene names the point " + s.id + ", the picture shows no letter there" +
            (unshown_letters_.empty() ? "" : "; " + unshown_letters_),
        unseen && unshown_letters_.empty() ? Severity::conflict : Severity::note, {s.at});
  }

  void letter_extra(const Letter& r) {
    // Confirmed when the reader is sure of the glyph and found it beside a point of the figure.
    // ... and the cross-check sees a glyph there too (not a crossing of strokes), away from every
    // letter of the scene (not a piece of one).
    const bool seen = r.box[0] && r.box[1] && r.box[2] && r.box[3] &&
                      std::any_of(check_.detections.glyphs.begin(), check_.detections.glyphs.end(), [&](const auto& g) {
                        return g.x <= *r.box[0] + *r.box[2] && g.x + g.width >= *r.box[0] &&
                               g.y <= *r.box[1] + *r.box[3] && g.y + g.height >= *r.box[1];
                      });
    const PixelPoint centre = r.box[0] && r.box[1] && r.box[2] && r.box[3]
                                  ? PixelPoint{*r.box[0] + *r.box[2] / 2.0, *r.box[1] + *r.box[3] / 2.0}
                                  : r.at;
    const bool apart = std::none_of(scene_letters_.begin(), scene_letters_.end(),
                                    [&](const Letter& l) { return distance(l.at, centre) <= 2.5 * letter_px_; });
    const bool sure = r.attached && !doubted_.count(r.id) && seen && apart;
    add("letter extra", {r.text},
        "the picture shows the letter " + r.text + " at (" + std::to_string(std::lround(r.at.x)) + ", " +
            std::to_string(std::lround(r.at.y)) + ") px, where the scene names no point",
        sure ? Severity::conflict : Severity::note, {r.at});
  }

  // Whether the reader's own doubts name a stroke between the read points of scene letters p and q.
  bool reader_doubts_stroke(const std::string& p, const std::string& q) const {
    for (const auto& [read_p, read_q] : doubted_strokes_) {
      const auto at_p = to_scene_.find(read_p), at_q = to_scene_.find(read_q);
      if (at_p == to_scene_.end() || at_q == to_scene_.end()) continue;
      if (std::minmax(at_p->second, at_q->second) == std::minmax(p, q)) return true;
    }
    return false;
  }

  PixelPoint scene_at(const std::string& id) const {
    for (const Letter& l : scene_letters_)
      if (l.id == id) return l.at;
    return {};
  }

  // The stretch (the scene's places of its outermost letters) of the line read through both letters
  // of the segment `ids` (scene ids); the segment itself when no read line holds both.
  std::pair<PixelPoint, PixelPoint> read_line_span(const std::vector<std::string>& ids) const {
    std::pair<PixelPoint, PixelPoint> span{scene_at(ids[0]), scene_at(ids[1])};
    for (const Line& line : read_.lines) {
      std::vector<std::string> letters;
      for (std::size_t i : line.through)
        if (auto it = to_scene_.find(read_.points[i].id); it != to_scene_.end()) letters.push_back(it->second);
      if (std::find(letters.begin(), letters.end(), ids[0]) == letters.end() ||
          std::find(letters.begin(), letters.end(), ids[1]) == letters.end())
        continue;
      double longest = distance(span.first, span.second);
      for (std::size_t i = 0; i < letters.size(); ++i)
        for (std::size_t j = i + 1; j < letters.size(); ++j)
          if (const double d = distance(scene_at(letters[i]), scene_at(letters[j])); d > longest)
            longest = d, span = {scene_at(letters[i]), scene_at(letters[j])};
    }
    return span;
  }

  // The read scene with each scene letter the reader did not match given to the unlettered point
  // it read at the letter's place (within twice the tolerance, nearest first): the reader found the
  // point but not its letter, which is that letter's own difference; its segments and triangles
  // are compared with the scene's all the same.
  Scene with_scene_letters() {
    Scene read = read_;
    const double reach = 2 * check_.picture.tolerance_px;
    for (const Letter& s : scene_letters_) {
      if (matched_scene_.count(s.id)) continue;
      Point* nearest = nullptr;
      double nearest_d = reach;
      for (Point& p : read.points)
        if (!p.labelled && p.at)
          if (const double d = distance(s.at, {to_double(p.at->x), to_double(p.at->y)}); d <= nearest_d)
            nearest = &p, nearest_d = d;
      if (!nearest) continue;
      std::string id = "scene:" + s.id;
      nearest->id = id;
      nearest->labelled = true;
      to_scene_[id] = s.id;
      matched_scene_.insert(s.id);
    }
    return read;
  }

  // The read scene's figures in the scene's ids, for those whose letters all matched.
  std::set<std::vector<std::string>> mapped(const std::set<std::vector<std::string>>& figures) const {
    std::set<std::vector<std::string>> out;
    for (const auto& f : figures) {
      std::vector<std::string> ids;
      for (const auto& id : f)
        if (auto it = to_scene_.find(id); it != to_scene_.end()) ids.push_back(it->second);
      if (ids.size() != f.size()) continue;
      std::sort(ids.begin(), ids.end());
      out.insert(ids);
    }
    return out;
  }

  bool all_matched_scene(const std::vector<std::string>& ids) const {
    return std::all_of(ids.begin(), ids.end(), [&](const std::string& id) { return matched_scene_.count(id) > 0; });
  }

  void compare_segments_and_triangles(const Counted& scene, const Counted& read) {
    const auto read_segments = mapped(read.segments), read_triangles = mapped(read.triangles);
    std::vector<std::vector<std::string>> missing_triangles, extra_triangles;
    for (const auto& t : scene.triangles)
      if (!read_triangles.count(t) && all_matched_scene(t)) missing_triangles.push_back(t);
    for (const auto& t : read_triangles)
      if (!scene.triangles.count(t)) extra_triangles.push_back(t);
    std::set<std::vector<std::string>> explained;
    // The triangles with side AB among `triangles`, marked explained.
    auto with_side = [&](const std::vector<std::string>& side, const std::vector<std::vector<std::string>>& triangles) {
      std::string names;
      for (const auto& t : triangles)
        if (std::includes(t.begin(), t.end(), side.begin(), side.end())) {
          names += (names.empty() ? "" : ", ") + joined(t);
          explained.insert(t);
        }
      return names;
    };
    for (const auto& s : scene.segments) {
      if (read_segments.count(s) || !all_matched_scene(s)) continue;
      const PixelPoint a = scene_at(s[0]), b = scene_at(s[1]);
      const double ink = probe_.straight(a, b);
      std::string detail = "the scene has the segment " + joined(s) + ", the picture does not draw it (ink along " +
                           percent(ink) + " of it)";
      if (const std::string t = with_side(s, missing_triangles); !t.empty())
        detail += "; so neither the triangles " + t;
      // A stroke the reader itself doubts it missed (stroke_uncertain: inked along most of the
      // stretch, yet no line read joins its points), half inked at least here too: its misread.
      const bool reader_doubts = ink >= kUndrawn && reader_doubts_stroke(s[0], s[1]);
      if (reader_doubts) detail += "; the reader doubts it missed that stroke (stroke_uncertain)";
      add("segment missing", s, detail,
          ink < kUndrawn                   ? Severity::conflict
          : ink < kDrawn && !reader_doubts ? Severity::doubtful
                                           : Severity::note,
          {a, b});
    }
    for (const auto& s : read_segments) {
      if (scene.segments.count(s)) continue;
      const PixelPoint a = scene_at(s[0]), b = scene_at(s[1]);
      const double ink = probe_.straight(a, b);
      std::string detail = "the picture draws the segment " + joined(s) + " (ink along " + percent(ink) +
                           " of it), the scene has no line through " + s[0] + " and " + s[1];
      // Ink the scene's own strokes lay along the stretch, within the tolerance (two lines nearly in
      // line, a chord near its arc): the straight stroke read there may be the scene's strokes.
      const auto [along, farthest] = along_scene_strokes(a, b);
      if (ink >= kUndrawn && along >= kDrawn) {
        detail += "; the scene's own strokes run along " + percent(along) + " of it";
        // Ink that bends with the scene's strokes where the reader merged them into one: its misread.
        // Judged along all the line it read, where a bend shows best.
        const auto [from, to] = read_line_span(s);
        if (ink_shows_scene_strokes(from, to)) {
          add("segment extra", s, detail + ", and its ink follows them rather than one straight stroke", Severity::note,
              {a, b});
          continue;
        }
      }
      // Strokes that never leave the straight stretch by the visibility band (ε_vis: the picture's,
      // from its own stroke and wobble, or the scene's where its rounded positions make it wider)
      // bend where no one can see it: the scene and the picture agree at that precision, and the
      // near-collinearity is the scene's own ambiguous fact (audit judges the questions on it).
      if (ink >= kUndrawn && farthest < eps_vis_px_) {
        add("segment extra", s,
            detail + "; the scene's strokes never leave it by more than " + px_text(farthest, 1) + ", under the " +
                eps_vis_source_ + " ε_vis of " + px_text(eps_vis_px_, 1) + ": ambiguous at that band",
            Severity::note, {a, b});
        continue;
      }
      if (ink >= kUndrawn && along >= kDrawn) {
        add("segment extra", s,
            detail + ", up to " + px_text(farthest, 1) +
                " from it, yet its ink does not show the bend: the picture cannot tell",
            Severity::doubtful, {a, b});
        continue;
      }
      if (const std::string t = with_side(s, extra_triangles); !t.empty()) detail += "; so also the triangles " + t;
      add("segment extra", s, detail,
          ink >= kDrawn     ? Severity::conflict
          : ink >= kUndrawn ? Severity::doubtful
                            : Severity::note,
          {a, b});
    }
    // A triangle difference no segment explains: the two sides' bands decided a collinearity
    // differently; the reader's positions are not exact enough to say which is right.
    for (const auto& t : missing_triangles)
      if (!explained.count(t))
        add("triangle missing", t,
            "the scene's triangle " + joined(t) + " is not a triangle of the picture read (its letters on one line)",
            Severity::note, {scene_at(t[0]), scene_at(t[1]), scene_at(t[2])});
    for (const auto& t : extra_triangles)
      if (!explained.count(t))
        add("triangle extra", t,
            "the picture read has the triangle " + joined(t) + ", the scene does not (its letters on one line)",
            Severity::note, {scene_at(t[0]), scene_at(t[1]), scene_at(t[2])});
  }

  // Whether one of the scene's drawn lines or full circles touches the box (picture pixels): its
  // stroke's half-width from it.
  bool touches_scene_stroke(int x0, int y0, int x1, int y1) const {
    const double tolerance = check_.picture.stroke_px / 2 + 0.5;
    const PixelPoint centre{(x0 + x1) / 2.0, (y0 + y1) / 2.0};
    const double half_w = (x1 - x0) / 2.0 + tolerance, half_h = (y1 - y0) / 2.0 + tolerance;
    // Distance from a point to the box grown by the tolerance: 0 inside.
    auto outside = [&](PixelPoint p) {
      return std::hypot(std::max(0.0, std::abs(p.x - centre.x) - half_w),
                        std::max(0.0, std::abs(p.y - centre.y) - half_h));
    };
    for (const auto& [a, b] : scene_strokes()) {
      const int n = std::max(2, static_cast<int>(distance(a, b) / 1.0));
      for (int k = 0; k <= n; ++k)
        if (outside({a.x + (b.x - a.x) * k / n, a.y + (b.y - a.y) * k / n}) == 0) return true;
    }
    for (const Round& c : scene_circles()) {
      const int n = std::max(24, static_cast<int>(2 * 3.14159 * c.radius));
      for (int k = 0; k < n; ++k) {
        const double t = 2 * 3.14159265358979 * k / n;
        if (outside({c.centre.x + c.radius * std::cos(t), c.centre.y + c.radius * std::sin(t)}) == 0) return true;
      }
    }
    return false;
  }

  // The scene's drawn lines in picture pixels, each between its outermost points.
  std::vector<std::pair<PixelPoint, PixelPoint>> scene_strokes() const {
    const bool y_up = scene_.frame.y == YAxis::up;
    const double height = to_double(scene_.frame.height);
    auto px = [&](const Point& p) {
      return vision::frame_to_picture(to_double(p.at->x), to_double(p.at->y), check_.scale, check_.offset, y_up,
                                      height);
    };
    std::vector<std::pair<PixelPoint, PixelPoint>> strokes;
    for (const Line& line : scene_.lines) {
      std::vector<PixelPoint> at;
      for (std::size_t i : line.through)
        if (scene_.points[i].at) at.push_back(px(scene_.points[i]));
      double longest = -1;
      std::pair<PixelPoint, PixelPoint> ends;
      for (std::size_t i = 0; i < at.size(); ++i)
        for (std::size_t j = i + 1; j < at.size(); ++j)
          if (const double d = distance(at[i], at[j]); d > longest) longest = d, ends = {at[i], at[j]};
      if (longest > 0) strokes.push_back(ends);
    }
    return strokes;
  }

  // The distance (pixels) from p to the nearest of the scene's drawn lines (between its outermost
  // points) and full circles.
  double to_scene_strokes(PixelPoint p, const std::vector<std::pair<PixelPoint, PixelPoint>>& strokes,
                          const std::vector<Round>& circles) const {
    double nearest = std::numeric_limits<double>::infinity();
    for (const auto& [a, b] : strokes) {
      const double dx = b.x - a.x, dy = b.y - a.y;
      const double t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
      nearest = std::min(nearest, distance(p, {a.x + t * dx, a.y + t * dy}));
    }
    for (const Round& c : circles) nearest = std::min(nearest, std::abs(distance(p, c.centre) - c.radius));
    return nearest;
  }

  std::vector<Round> scene_circles() const {
    return full_circles(scene_, check_.scale, check_.offset, scene_.frame.y == YAxis::up,
                        to_double(scene_.frame.height));
  }

  // How the scene's drawn lines and full circles lie along the straight stretch a–b (pixels),
  // sampled every 1.5 px: the share of it within the tolerance of one of them, and its greatest
  // distance from them (how far the scene's strokes bend away from it).
  struct AlongScene {
    double share = 0, farthest = 0;
  };
  AlongScene along_scene_strokes(PixelPoint a, PixelPoint b) const {
    const auto strokes = scene_strokes();
    const auto circles = scene_circles();
    const double tolerance = check_.picture.tolerance_px;
    const int n = std::max(2, static_cast<int>(distance(a, b) / 1.5));
    AlongScene out;
    int near = 0;
    for (int k = 0; k <= n; ++k) {
      const double d = to_scene_strokes({a.x + (b.x - a.x) * k / n, a.y + (b.y - a.y) * k / n}, strokes, circles);
      near += d <= tolerance;
      out.farthest = std::max(out.farthest, d);
    }
    out.share = static_cast<double>(near) / (n + 1);
    return out;
  }

  // Whether the ink along the straight stretch a–b, which the scene's own strokes run along within
  // the tolerance, shows the scene's strokes (their bend where two lines meet nearly in line, a
  // circle's arc) rather than one straight stroke: its typical distance from the scene's strokes at
  // most half its distance from the straight line that fits it best, and kShownBend less at least.
  // Typical: the mean of the nine tenths nearest, so that strokes crossing the stretch do not weigh.
  bool ink_shows_scene_strokes(PixelPoint a, PixelPoint b) const {
    const std::vector<PixelPoint> ink = probe_.ink_along(a, b);
    if (ink.size() < 10) return false;
    auto typical = [](std::vector<double> d) {
      std::sort(d.begin(), d.end());
      d.resize(std::max<std::size_t>(1, d.size() * 9 / 10));
      return std::accumulate(d.begin(), d.end(), 0.0) / static_cast<double>(d.size());
    };
    const auto strokes = scene_strokes();
    const auto circles = scene_circles();
    std::vector<double> off_scene;
    for (const PixelPoint& p : ink) off_scene.push_back(to_scene_strokes(p, strokes, circles));
    const double straight = typical(distances_to_fitted_line(ink)), scene = typical(std::move(off_scene));
    return scene <= 0.5 * straight && straight - scene >= kShownBend;
  }

  // The distances of the points from the straight line that fits them best (least squares across,
  // fitted again without the tenth farthest from the first fit).
  static std::vector<double> distances_to_fitted_line(const std::vector<PixelPoint>& points) {
    std::vector<double> out(points.size());
    std::vector<bool> used(points.size(), true);
    for (int pass = 0; pass < 2; ++pass) {
      double n = 0, mx = 0, my = 0;
      for (std::size_t i = 0; i < points.size(); ++i)
        if (used[i]) n += 1, mx += points[i].x, my += points[i].y;
      mx /= n, my /= n;
      double sxx = 0, sxy = 0, syy = 0;
      for (std::size_t i = 0; i < points.size(); ++i) {
        if (!used[i]) continue;
        const double dx = points[i].x - mx, dy = points[i].y - my;
        sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
      }
      const double angle = 0.5 * std::atan2(2 * sxy, sxx - syy);  // the direction of greatest spread
      const double ux = std::cos(angle), uy = std::sin(angle);
      for (std::size_t i = 0; i < points.size(); ++i)
        out[i] = std::abs((points[i].x - mx) * uy - (points[i].y - my) * ux);
      std::vector<double> sorted = out;
      std::sort(sorted.begin(), sorted.end());
      const double cut = sorted[sorted.size() * 9 / 10];
      for (std::size_t i = 0; i < points.size(); ++i) used[i] = out[i] <= cut;
    }
    return out;
  }

  void compare_circles() {
    const std::vector<Round> scene_rounds = scene_circles();
    const std::vector<Round> read_rounds = full_circles(read_, 1, {0, 0}, false, 0);
    const double tolerance = check_.picture.tolerance_px;
    std::vector<bool> read_taken(read_rounds.size());
    for (const Round& s : scene_rounds) {
      std::size_t best = read_rounds.size();
      double best_d = 0;
      for (std::size_t r = 0; r < read_rounds.size(); ++r) {
        const double reach = std::max(2 * tolerance, 0.1 * s.radius);
        const double d =
            std::max(distance(s.centre, read_rounds[r].centre), std::abs(s.radius - read_rounds[r].radius));
        if (!read_taken[r] && d <= reach && (best == read_rounds.size() || d < best_d)) best = r, best_d = d;
      }
      if (best < read_rounds.size()) {
        read_taken[best] = true;
        continue;
      }
      const double ink = probe_.round(s.centre, s.radius);
      add("circle missing", {s.name},
          "the scene has the circle " + s.name + ", the picture does not draw it (ink along " + percent(ink) +
              " of it)",
          ink < kUndrawn ? Severity::conflict
          : ink < kDrawn ? Severity::doubtful
                         : Severity::note,
          {s.centre});
    }
    // A description that may leave circles out (VisOnlyQA's texts) is silent, not contradicted, on
    // a circle drawn on its points.
    const std::string unlisted = unlisted_reason(scene_, "circles");
    std::vector<PixelPoint> lettered;
    for (const Letter& l : scene_letters_) lettered.push_back(l.at);
    for (std::size_t r = 0; r < read_rounds.size(); ++r) {
      if (read_taken[r]) continue;
      const Round& c = read_rounds[r];
      const double ink = probe_.round(c.centre, c.radius);
      std::string detail = "the picture draws a circle about (" + std::to_string(std::lround(c.centre.x)) + ", " +
                           std::to_string(std::lround(c.centre.y)) + ") px of radius " +
                           std::to_string(std::lround(c.radius)) + " px (ink along " + percent(ink) +
                           " of it), the scene has none there";
      const bool silent = !unlisted.empty() && vision::circle_on_points(c.centre, c.radius, lettered, tolerance);
      if (silent) detail += "; it is drawn on the scene's points, and " + unlisted;
      // As the cross-check's own search for what the scene lacks: a smaller circle is a letter's
      // bowl (O, D) or a knot of strokes the reader took for one.
      const bool small = c.radius < check_.picture.min_extra_radius_px;
      if (small)
        detail += "; smaller than a circle the cross-check counts (radius under " +
                  std::to_string(std::lround(check_.picture.min_extra_radius_px)) + " px)";
      add("circle extra", {}, detail, ink >= kDrawn && !silent && !small ? Severity::conflict : Severity::note,
          {c.centre});
    }
  }

  // A difference (count_mismatch, its detail opening with which one): a finding of the
  // cross-check (conflict or doubtful), or, as a note, one the pixels contradict (the reader's
  // misread), kept in CountCheck::unconfirmed.
  void add(const char* difference, std::vector<std::string> elements, std::string detail, Severity severity,
           std::vector<PixelPoint> where) {
    Reason r;
    static_cast<Finding&>(r) =
        make_finding(FindingKind::count_mismatch, std::move(elements), std::string(difference) + ": " + detail);
    r.where = std::move(where);
    if (severity == Severity::note) {
      r.severity = Severity::doubtful;
      result_.unconfirmed.push_back(std::move(r));
      return;
    }
    r.severity = severity;
    if (severity == Severity::conflict) check_.agree = false;
    if (severity == Severity::doubtful) check_.doubtful = true;
    check_.reasons.push_back(std::move(r));
  }

  // A straight stretch inked along this share is drawn; below kUndrawn it is not.
  static constexpr double kDrawn = 0.85, kUndrawn = 0.5;
  // Ink this much nearer (pixels, typically) to the scene's strokes than to one straight stroke
  // shows the scene's strokes (ink_shows_scene_strokes): two fifths of the half-pixel step the ink's
  // place is found to; over ten samples or more, many times the error of their mean.
  static constexpr double kShownBend = 0.2;
  // The classifier's confidence that a glyph is the scene's letter: at or above kGlyphMayBe the
  // glyph may be it (the reader's misread); at or below kGlyphIsNot it is not — when the glyph
  // reads as the reader's letter with at least kGlyphIs (its box holds that glyph alone).
  static constexpr double kGlyphMayBe = 0.2, kGlyphIsNot = 0.02, kGlyphIs = 0.5;
  // The reader's own confidence (its font's templates) at which its letter is the glyph's.
  static constexpr double kReaderSure = 0.9;

  const Scene& scene_;
  const Bands& bands_;
  const Scene& read_;
  const vision::InkProbe& probe_;
  vision::CrossCheck& check_;
  CountCheck result_;
  std::vector<Letter> scene_letters_, read_letters_;
  double letter_px_ = 12;
  double eps_vis_px_ = 3;                        // the visibility band (picture pixels) a bend must clear to be seen
  std::string eps_vis_source_;                   // whose band that is: the picture's or the scene's
  std::map<std::string, std::string> to_scene_;  // read id → scene id
  std::set<std::string> matched_scene_;          // scene letters with a read point
  std::set<std::string> doubted_;                // read ids the reader's own doubts name
  std::set<std::pair<std::string, std::string>> doubted_strokes_;  // read id pairs of its stroke_uncertain doubts
  std::string unshown_letters_;  // why the picture may not letter every point the scene names (unshown_reason)
};

}  // namespace

CountCheck compare_counts(const Scene& scene, const Bands& bands, const Scene& read, const vision::InkProbe& probe,
                          vision::CrossCheck& check) {
  return Comparison(scene, bands, read, probe, check).run();
}

bool counts_worth_reading(const Scene& scene) {
  return std::any_of(scene.points.begin(), scene.points.end(), [](const Point& p) { return p.labelled && p.at; });
}

}  // namespace geotruth
