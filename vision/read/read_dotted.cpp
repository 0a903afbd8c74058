// Figures that mark their points with dots and draw their lines from dot to dot (docs/reader.md,
// "Dotted figures"): AlphaGeometry's drawings (VisOnlyQA) and most generated geometry. Between two
// dots the stroke is looked for along the whole segment, dot centre to dot centre: a line is a
// segment inked all along, which JPEG's blocks, a crossing or a letter across it do not break, and
// whose place the dots fix to a fraction of a pixel, where a fitted stroke is off by its wobble.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <geotruth/work_limit.hpp>
#include <numeric>
#include <optional>

#include "vision/pixels.hpp"
#include "vision/read/read.hpp"

namespace geotruth::vision::read {
namespace {

Piece piece_between(P2 a, P2 b, const Inking& ink) {
  Piece p = Piece::from_to(a, b);
  p.coverage = ink.coverage;
  p.contrast = ink.contrast;
  p.between_dots = true;
  return p;
}

// How much darker the picture is along another path than along the segment a–b beside it, in gray
// levels per sample: each sample of a–b (1.5 px clear of either point's radius) against its image on
// the path (`onto_path`), where the two are a pixel or more apart. Positive: the ink between a and b
// is the path's, and a–b is not drawn.
template <class OntoPath>
double darker_beside(const Sheet& sheet, P2 a, double radius_a, P2 b, double radius_b, OntoPath onto_path) {
  const double length = dist(a, b);
  const P2 dir{(b.x - a.x) / length, (b.y - a.y) / length};
  double own = 0, path = 0;
  int n = 0;
  for (double t = radius_a + 1.5; t <= length - radius_b - 1.5; t += 0.5) {
    const P2 p{a.x + t * dir.x, a.y + t * dir.y};
    const P2 q = onto_path(p);
    if (dist(p, q) < 1 || sheet.is_unknown(p) || sheet.is_unknown(q)) continue;
    own += darkness_at(sheet.paper, p);
    path += darkness_at(sheet.paper, q);
    ++n;
  }
  return n >= 4 ? (path - own) / n : 0;
}

// The same along `line` (a dot a few pixels off a drawn line sees the line's ink between it and
// another dot).
double darker_along_line(const Sheet& sheet, const Piece& line, const Dot& a, const Dot& b) {
  return darker_beside(sheet, a.at, a.radius, b.at, b.radius, [&](P2 p) { return line.at(line.along(p)); });
}

// Whether `piece` runs along `lines` all its length: each of its samples within `tolerance` of one
// of them, or in a dot (a stroke's run goes on into its end dot), and most along lines. The line
// detector joins strokes that meet at a slight bend into one segment (VisOnlyQA 00867noise_0: G–I
// and I–B, bent 0.7° at I, read as one stroke G–B 2 px off I); the dot-to-dot lines are those
// strokes.
bool along_lines(const Piece& piece, const std::vector<Piece>& lines, const std::vector<Dot>& dots, double tolerance) {
  int samples = 0, on_lines = 0, in_dots = 0;
  for (double t = piece.t0; t <= piece.t1; t += 2, ++samples) {
    const P2 p = piece.at(t);
    if (std::any_of(dots.begin(), dots.end(), [&](const Dot& d) { return dist(d.at, p) <= d.radius + tolerance; }))
      ++in_dots;
    else if (std::any_of(lines.begin(), lines.end(), [&](const Piece& l) {
               const double u = l.along(p);
               return std::abs(l.offset(p)) <= tolerance && u >= l.t0 - tolerance && u <= l.t1 + tolerance;
             }))
      ++on_lines;
  }
  // A short stroke between two near dots lies in them: it is a stroke of its own.
  return on_lines + in_dots == samples && 2 * on_lines >= samples;
}

// The median ink across `line` from `from` to `to` along it, over its reach each side (half-pixel
// samples; a sample on a pixel the reader cannot see is left out).
double median_ink_across(const Sheet& sheet, const Piece& line, double from, double to, double reach) {
  const P2 normal{-line.dir.y, line.dir.x};
  std::vector<double> sums;
  for (double t = std::min(from, to); t <= std::max(from, to); t += 0.5) {
    const P2 foot = line.at(t);
    double sum = 0;
    bool seen = true;
    for (double s = -reach; s <= reach + 1e-9 && seen; s += 0.5) {
      const P2 q{foot.x + s * normal.x, foot.y + s * normal.y};
      seen = !sheet.is_unknown(q);
      sum += darkness_at(sheet.paper, q);
    }
    if (seen) sums.push_back(sum);
  }
  return sums.size() >= 4 ? median_of(std::move(sums)) : -1;
}

// Whether a second stroke runs along `line` from dot `from` (on it) to dot `to` (a pixel or so
// beside it, within its reach): the line's ink is 1.4 times as heavy or more just before `to` as
// just past it (VisOnlyQA 00096: A–I along A–C, I 1.8 px off it; two strokes that far apart ink
// twice one's width). One stroke through `to` inks both sides alike.
// The stretch doubled_toward looks at before `to`: from `clear` px to `clear + span` px off its
// centre toward `from`.
struct Stretch {
  double clear, span;
};
Stretch stretch_before(const Piece& line, const Dot& from, const Dot& to) {
  return {to.radius + 1.5, std::min(20.0, 0.4 * std::abs(line.along(to.at) - line.along(from.at)))};
}

bool doubled_toward(const Sheet& sheet, const Piece& line, const Dot& from, const Dot& to) {
  constexpr double kDoubled = 1.4;
  const double u = line.along(to.at), u_from = line.along(from.at);
  const auto [clear, span] = stretch_before(line, from, to);
  const double back = u_from < u ? -1 : 1;  // toward `from`
  const double past = u - back * (clear + span);
  if (span < 4 || past < line.t0 + 2 || past > line.t1 - 2) return false;
  const double reach = sheet.half + std::abs(line.offset(to.at)) + 1.5;
  const double before = median_ink_across(sheet, line, u + back * clear, u + back * (clear + span), reach);
  const double after = median_ink_across(sheet, line, u - back * clear, past, reach);
  return before > 0 && after > 0 && before >= kDoubled * after;
}

// Whether a second stroke leaves `line`'s end dot `from` along it to dot `to`, beside the line
// (doubled_toward), the line going on past `to` in its own place: its ink past `to` lies on the
// line rather than on the way from `to` to the line's far end (not two strokes meeting at `to` at a
// slight bend, nor a dot a pixel off a straight stroke through it), and the line's way on past
// `from` is not inked (a stroke from beyond `from` doubles the line too).
bool fans_out(const Sheet& sheet, const Piece& line, const Dot& from, const Dot& to) {
  if (!doubled_toward(sheet, line, from, to)) return false;
  const P2 far = dist(line.a(), from.at) <= dist(line.b(), from.at) ? line.b() : line.a();
  if (darker_beside(sheet, to.at, to.radius, far, 0, [&](P2 p) { return line.at(line.along(p)); }) < 0) return false;
  const double length = dist(from.at, to.at);
  const P2 away{from.at.x + (from.at.x - to.at.x) / length * 20, from.at.y + (from.at.y - to.at.y) / length * 20};
  return inking(sheet, from.at, away, from.radius + 1, 0, sheet.half + 1).coverage < 0.5;
}

// The slope, against `line`, of the ink's centre line along it from u0 to u1, and the slope's
// standard error: the ink's centre across the line (its darkness-weighted offset) at each half
// pixel, fitted by least squares, then again without the samples more than 1.5 px off the first
// fit (a stroke crossing it). Samples about a dot, under a letter, or holding more ink than one
// stroke's (another stroke beside or across it: more than 1.4 times the median) are left out. None
// with fewer than 8 samples.
struct InkFit {
  double slope = 0, error = 0, at0 = 0;  // offset = at0 + slope·u
  double at(double u) const { return at0 + slope * u; }
};
std::optional<InkFit> ink_slope(const Sheet& sheet, const Piece& line, double u0, double u1,
                                const std::vector<Dot>& dots, double band) {
  const std::vector<InkCentre> centres = ink_centres(
      sheet, line.origin, line.dir, std::min(u0, u1), std::max(u0, u1), 0.5, band, 0.5 * sheet.paper.ink_level,
      [&](P2 foot) {
        return std::any_of(dots.begin(), dots.end(), [&](const Dot& d) { return dist(d.at, foot) <= d.radius + 2; });
      });
  std::vector<double> weights;
  for (const InkCentre& c : centres) weights.push_back(c.weight);
  const double single = weights.empty() ? 0 : median_of(weights);
  std::vector<P2> samples;  // (along, across)
  for (const InkCentre& c : centres)
    if (c.weight <= 1.4 * single) samples.push_back({c.t, c.offset});
  std::optional<InkFit> fit;
  for (int round = 0; round < 2; ++round) {
    if (samples.size() < 8) return std::nullopt;
    double st = 0, so = 0;
    for (const P2& s : samples) st += s.x, so += s.y;
    const double n = static_cast<double>(samples.size()), mt = st / n, mo = so / n;
    double stt = 0, sto = 0;
    for (const P2& s : samples) stt += (s.x - mt) * (s.x - mt), sto += (s.x - mt) * (s.y - mo);
    if (stt <= 0) return std::nullopt;
    const double slope = sto / stt, at0 = mo - slope * mt;
    double residual = 0;
    for (const P2& s : samples) residual += std::pow(s.y - at0 - slope * s.x, 2);
    fit = InkFit{slope, std::sqrt(residual / std::max(1.0, n - 2) / stt), at0};
    std::erase_if(samples, [&](const P2& s) { return std::abs(s.y - at0 - slope * s.x) > 1.5; });
  }
  return fit;
}

// Whether the strokes along `line` bend at dot x between its ends: two strokes meeting there at a
// slight angle, read as one line from end to end (VisOnlyQA 00017noise_0's H–A–F, A–H and A–F 4.8°
// apart, A 1.9 px off H–F). The ink on each side of x, fitted on its own (ink_slope), must run
// into x's dot (within 0.75 px of its offset off the line at x, which is a pixel at least), each
// side leaning toward x, and the two sides' slopes must differ by more than 0.7° and four standard
// errors. A straight stroke beside x keeps its own offset there; a straight stroke through x, read
// as a chord between two dots read off their places, leans one way on both sides. With
// `parts_read` (both strokes read as lines of their own, x beyond the line's stroke), the two sides
// need only meet each other within x's dot (within 0.75 px of each other at x): a dot's centre may
// lie a pixel off where its strokes meet (VisOnlyQA 00170's B, its strokes meeting 0.9 px from it).
bool bends_at(const Sheet& sheet, const Piece& line, const Dot& x, const std::vector<Dot>& dots,
              bool parts_read = false) {
  constexpr double kBend = 0.012, kIntoDot = 0.75;
  const double u = line.along(x.at), clear = x.radius + 2, off = line.offset(x.at);
  // Each side from x to the next dot on the line (the strokes may bend there too).
  double from = line.t0, to = line.t1;
  for (const Dot& d : dots) {
    const double t = line.along(d.at);
    if (&d == &x || std::abs(line.offset(d.at)) > sheet.on_stroke() + std::abs(off)) continue;
    if (t < u && t > from) from = t;
    if (t > u && t < to) to = t;
  }
  if (u - clear - from < 8 || to - u - clear < 8) return false;
  // Across the line far enough to take in the strokes' whole width where they reach x.
  const double band = std::max(sheet.half + 2.5, std::abs(off) + sheet.half + 1.5);
  const auto before = ink_slope(sheet, line, from, u - clear, dots, band);
  const auto after = ink_slope(sheet, line, u + clear, to, dots, band);
  if (!before || !after) return false;
  const double difference = std::abs(before->slope - after->slope);
  const double meet = (before->at(u) + after->at(u)) / 2;
  const bool into_dot = parts_read
                            ? std::abs(before->at(u) - after->at(u)) <= kIntoDot && std::abs(meet - off) <= x.radius
                            : std::abs(before->at(u) - off) <= kIntoDot && std::abs(after->at(u) - off) <= kIntoDot;
  const bool toward_x = before->slope * off > 0 && after->slope * off < 0;
  const bool bends =
      into_dot && toward_x && difference > kBend && difference > 4 * std::hypot(before->error, after->error);
  if (bends && std::getenv("GEOTRUTH_READER_DEBUG"))
    std::fprintf(stderr, "bend at %.1f,%.1f, %.1f px off the line %.1f,%.1f - %.1f,%.1f: slopes %.4f and %.4f\n",
                 x.at.x, x.at.y, off, line.a().x, line.a().y, line.b().x, line.b().y, before->slope, after->slope);
  return bends;
}

// Whether a line read runs between dots p and q (`ends`: each line's two dots).
bool joins(const std::vector<std::pair<std::size_t, std::size_t>>& ends, std::size_t p, std::size_t q) {
  return std::any_of(ends.begin(), ends.end(),
                     [&](const auto& e) { return (e.first == p && e.second == q) || (e.first == q && e.second == p); });
}

// A line from dot a to dot b that passes beside a dot x (off it by more than a stroke's reach, within
// its ink) where a line a–x is drawn is no stroke when the picture is lighter along it than along
// a–x, by half a–x's contrast, where the two run a pixel or more apart: its ink there is a–x's
// (VisOnlyQA 00566: K–M beside K–J; 00131: C–E beside C–B, 2.3 px off B). Two strokes drawn both
// ways so near each other darken each other's path alike (00131's D–F beside B–F, 2.3 px off B,
// both drawn: lighter by 0.31 of the contrast). Nor is it a stroke where the line x–b is read too,
// its path is lighter all the same (by a fifth of the contrast), and the ink along a–b bends at x
// (bends_at): two strokes meeting at x at a slight angle, whose chord runs within their ink all
// along (VisOnlyQA 00170's J–B and B–D, B 3.3 px off J–D, whose path is lighter by 0.29 of the
// contrast only: a stroke 2 px wide darkens it a pixel off). Where the chord is drawn as well its
// path is as dark, and the ink's centre, between the strokes, bends too (00561's G–H beside G–K–H,
// K 4 px off it: darker by 0.11).
void drop_chords_beside_strokes(const Sheet& sheet, const std::vector<Dot>& dots, std::vector<Piece>& lines,
                                std::vector<std::pair<std::size_t, std::size_t>>& ends, double within_ink) {
  constexpr double kLighter = 0.2;  // of a–x's contrast: the path a–b is lighter, not as dark (drawn)
  std::vector<bool> chord(lines.size(), false);
  for (std::size_t k = 0; k < lines.size(); ++k)
    for (std::size_t m = 0; m < lines.size() && !chord[k]; ++m) {
      if (m == k || lines[m].length() >= lines[k].length()) continue;
      const auto [a, b] = ends[k];
      const auto [c, d] = ends[m];
      const std::size_t shared = c == a || c == b ? c : d == a || d == b ? d : dots.size();
      if (shared == dots.size()) continue;
      const std::size_t x = shared == c ? d : c;
      if (x == a || x == b) continue;
      const double off = std::abs(lines[k].offset(dots[x].at)), t = lines[k].along(dots[x].at);
      if (off <= sheet.on_stroke() || off > within_ink || t < lines[k].t0 || t > lines[k].t1) continue;
      const std::size_t far = shared == a ? b : a;
      const double darker = darker_along_line(sheet, lines[k], dots[shared], dots[x]);
      chord[k] = darker < -0.5 * lines[m].contrast || (darker < -kLighter * lines[m].contrast && joins(ends, x, far) &&
                                                       bends_at(sheet, lines[k], dots[x], dots, true));
    }
  for (std::size_t k = lines.size(); k-- > 0;)
    if (chord[k])
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(k)),
          ends.erase(ends.begin() + static_cast<std::ptrdiff_t>(k));
}

}  // namespace

Inking inking(const Sheet& sheet, P2 a, P2 b, double skip_a, double skip_b, double across) {
  Inking out;
  const double length = dist(a, b);
  if (length <= skip_a + skip_b + 2) return out;
  const P2 dir{(b.x - a.x) / length, (b.y - a.y) / length}, normal{-dir.y, dir.x};
  int inked = 0, known = 0;
  std::vector<double> dark;
  for (double t = skip_a + 0.5; t <= length - skip_b - 0.5; t += 1) {
    const P2 p{a.x + t * dir.x, a.y + t * dir.y};
    if (sheet.is_unknown(p)) continue;
    ++known;
    const double d = peak_darkness_across(sheet.paper, p, normal, across);
    if (d > sheet.paper.ink_level) ++inked, dark.push_back(d);
  }
  out.samples = known;
  out.coverage = known ? static_cast<double>(inked) / known : 0;
  out.contrast = median_of(dark);
  return out;
}

bool arc_between(const Sheet& sheet, const std::vector<Round>& rounds, P2 a, double radius_a, P2 b, double radius_b,
                 double contrast) {
  // Each chord sample against the circle's point on its radius (the centre itself has none).
  auto darker_along_round = [&](const Round& round) {
    return darker_beside(sheet, a, radius_a, b, radius_b, [&](P2 p) {
      const double from_centre = dist(p, round.centre);
      if (from_centre == 0) return p;
      return P2{round.centre.x + (p.x - round.centre.x) * round.radius / from_centre,
                round.centre.y + (p.y - round.centre.y) * round.radius / from_centre};
    });
  };
  // Only an arc that runs within a few pixels of the chord can ink it all along (a long chord drawn
  // across a circle is a stroke of its own: VisOnlyQA 00913noise_1's BC, 50 px from its arc).
  const double half_chord = dist(a, b) / 2;
  return std::any_of(rounds.begin(), rounds.end(), [&](const Round& r) {
    if (half_chord >= r.radius || r.radius - std::sqrt(r.radius * r.radius - half_chord * half_chord) > sheet.half + 3)
      return false;
    return std::abs(dist(a, r.centre) - r.radius) <= radius_a + sheet.half &&
           std::abs(dist(b, r.centre) - r.radius) <= radius_b + sheet.half && darker_along_round(r) > 0.25 * contrast;
  });
}

double recurring_radius(std::vector<double> radii, const std::function<bool(double)>& accept) {
  std::sort(radii.begin(), radii.end(), std::greater<>());
  for (std::size_t i = 0; i + 3 <= radii.size(); ++i)
    if (radii[i + 2] >= 0.85 * radii[i] && (!accept || accept(radii[i + 1]))) return radii[i + 1];
  return 0;
}

// A JPEG's blocks along the strokes are read as thin dots, and where they are most of the dots
// (VisOnlyQA 00062noise_1: four dots of 3.0 to 3.6 px, nine blocks of 2.2) their median is no marker.
double marker_radius(const Sheet& sheet, const std::vector<Dot>& dots) {
  std::vector<double> markers, all;
  for (const Dot& d : dots) {
    all.push_back(d.radius);
    if (is_marker(sheet, d.radius)) markers.push_back(d.radius);
  }
  return median_of(markers.empty() ? std::move(all) : std::move(markers));
}

bool at_a_dot(const Sheet& sheet, const std::vector<Dot>& dots, P2 p) {
  const double merge = sheet.merge_distance();
  return std::any_of(dots.begin(), dots.end(), [&](const Dot& d) { return dist(d.at, p) <= d.radius + merge; });
}

bool marks_points_with_dots(const Sheet& sheet, const std::vector<Dot>& dots) {
  const auto markers =
      std::count_if(dots.begin(), dots.end(), [&](const Dot& d) { return is_marker(sheet, d.radius); });
  return markers >= 3 && static_cast<std::size_t>(markers) * 2 >= sheet.glyphs.size();
}

void centre_dots_on_strokes(const Sheet& sheet, std::vector<Dot>& dots, const std::vector<Piece>& pieces) {
  if (!marks_points_with_dots(sheet, dots)) return;
  constexpr std::size_t kStrokes = 3;
  constexpr double kSpread = 0.5;  // the sine of the widest angle between two of them: 30 degrees
  const double merge = sheet.merge_distance(), on = sheet.on_stroke(), concurrent = std::max(1.0, sheet.half);
  for (Dot& dot : dots) {
    // The strokes that end within the dot's reach, strokes fanning out of it pushing the centre read
    // aside by up to its radius.
    std::vector<const Piece*> ending;
    for (const Piece& p : pieces)
      if (std::min(dist(p.a(), dot.at), dist(p.b(), dot.at)) <= 2 * dot.radius + merge &&
          std::abs(p.offset(dot.at)) <= 2 * dot.radius + on)
        ending.push_back(&p);
    if (ending.size() < kStrokes) continue;
    double spread = 0;
    for (std::size_t i = 0; i < ending.size(); ++i)
      for (std::size_t j = i + 1; j < ending.size(); ++j) spread = std::max(spread, ending[i]->sine_to(*ending[j]));
    if (spread < kSpread) continue;
    const std::optional<P2> meet = least_squares_point(ending);
    if (!meet) continue;
    double off_centre = 0, off_meet = 0;
    for (const Piece* p : ending)
      off_centre = std::max(off_centre, std::abs(p->offset(dot.at))),
      off_meet = std::max(off_meet, std::abs(p->offset(*meet)));
    if (off_centre <= on || off_meet > concurrent || dist(*meet, dot.at) > 3 * dot.radius ||
        !ink_within_pixel(sheet.paper.ink, {meet->x, meet->y}))
      continue;
    if (std::getenv("GEOTRUTH_READER_DEBUG"))
      std::fprintf(stderr, "dot %.1f,%.1f centred where its %zu strokes meet, %.1f,%.1f\n", dot.at.x, dot.at.y,
                   ending.size(), meet->x, meet->y);
    dot.at = *meet;
  }
}

std::vector<Piece> dot_to_dot_pieces(const Sheet& sheet, const std::vector<Dot>& dots, const std::vector<Round>& rounds,
                                     std::vector<Piece> pieces) {
  if (!marks_points_with_dots(sheet, dots)) return pieces;
  const double marker = marker_radius(sheet, dots);
  // A stroke drawn between two dots passes within its half-width of their centres (the dots are
  // centred on the points the stroke joins); JPEG and rounding move it by a pixel more.
  const double across = sheet.half + 1;
  const double on_line = std::max(1.0, sheet.half + 0.5);
  const double within_ink = across + 3;  // a dot this far off a line still sees its ink between
  const double min_length = std::max(8.0, 5 * sheet.half + 4);
  struct Pair {
    std::size_t i, j;
    double length;
    Inking ink;
  };
  std::vector<Pair> drawn;
  for (std::size_t i = 0; i < dots.size(); ++i) {
    charge_time(dots.size() - i);
    for (std::size_t j = i + 1; j < dots.size(); ++j) {
      const double length = dist(dots[i].at, dots[j].at);
      if (length < min_length + dots[i].radius + dots[j].radius) continue;
      charge_time(static_cast<std::uint64_t>(length));  // a sample a pixel
      const Inking ink = inking(sheet, dots[i].at, dots[j].at, dots[i].radius + 1, dots[j].radius + 1, across);
      if (ink.samples < 4 || ink.coverage < 0.9) continue;
      // Two dots on a circle whose arc between them runs within the stroke's reach of their chord
      // (VisOnlyQA 00068: E and H, 50 px apart on a circle of 196, 1.6 px off the chord).
      if (!arc_between(sheet, rounds, dots[i].at, dots[i].radius, dots[j].at, dots[j].radius, ink.contrast))
        drawn.push_back({i, j, length, ink});
    }
  }
  // Longest first: a drawn pair whose dots lie on a longer drawn one is a stretch of that line. A
  // pair with a dot beside that line, within its ink (VisOnlyQA 00081: F 3 px off AG), sees the
  // line's ink between its dots: it is a stroke of its own only if its own path is about as dark.
  std::sort(drawn.begin(), drawn.end(), [](const Pair& a, const Pair& b) { return a.length > b.length; });
  std::vector<Piece> lines;
  std::vector<std::pair<std::size_t, std::size_t>> ends;  // each line's dots
  // A pair from a longer line's end dot to a dot a pixel or so beside the line, within its reach, is
  // a stroke of its own where the line's ink runs doubled up to that dot (two strokes fanning out
  // from one point at a slight angle): the line then passes beside the dot.
  const double apart = sheet.half + 0.5;
  // Another line read (a longer one) ending at dot `off` at an angle to the line l (5° or more),
  // within l's reach halfway along the stretch just before `off` (toward `on`) where fans_out looks
  // for a second stroke, doubles l's ink there by itself (VisOnlyQA 00534noise_0: A–B arrives at B
  // 12° off H–K, which passes B 1.8 px away). One nearly along l may be the second stroke itself.
  constexpr double kAcross = 0.087;  // sin 5°
  auto doubled_by_another_line = [&](const Piece& l, std::size_t on, std::size_t off) {
    const double u = l.along(dots[off].at), back = l.along(dots[on].at) < u ? -1 : 1;
    const auto [clear, span] = stretch_before(l, dots[on], dots[off]);
    const double d = clear + span / 2;  // halfway along it
    const double reach = sheet.half + std::abs(l.offset(dots[off].at)) + 1.5;
    for (std::size_t m = 0; m < lines.size(); ++m) {
      if (&lines[m] == &l || (ends[m].first != off && ends[m].second != off)) continue;
      const std::size_t far = ends[m].first == off ? ends[m].second : ends[m].first;
      const double length = dist(dots[far].at, dots[off].at);
      if (far == on || length <= d) continue;
      const P2 q{dots[off].at.x + d * (dots[far].at.x - dots[off].at.x) / length,
                 dots[off].at.y + d * (dots[far].at.y - dots[off].at.y) / length};
      if (std::abs(l.offset(q)) <= reach && back * (l.along(q) - u) > 0 && l.sine_to(lines[m]) >= kAcross) return true;
    }
    return false;
  };
  auto covers = [&](Piece& l, const Pair& pair) {
    bool beside = false;
    for (const P2 end : {dots[pair.i].at, dots[pair.j].at}) {
      if (std::abs(l.offset(end)) > within_ink || l.along(end) < l.t0 - on_line || l.along(end) > l.t1 + on_line)
        return false;
      beside = beside || std::abs(l.offset(end)) > sheet.on_stroke();
    }
    if (beside) return darker_along_line(sheet, l, dots[pair.i], dots[pair.j]) > 0.25 * pair.ink.contrast;
    for (const auto& [on, off] : {std::pair{pair.i, pair.j}, std::pair{pair.j, pair.i}})
      if (std::min(dist(l.a(), dots[on].at), dist(l.b(), dots[on].at)) <= 0.75 &&
          std::abs(l.offset(dots[off].at)) >= apart && !doubled_by_another_line(l, on, off) &&
          fans_out(sheet, l, dots[on], dots[off])) {
        l.passes_beside.push_back(dots[off].at);
        return false;
      }
    return true;
  };
  // A line whose strokes bend at a dot between its ends (bends_at) is the chord of two lines that
  // meet there: it covers neither, and is dropped once both are read.
  std::vector<std::vector<std::size_t>> bent;  // each line's dots its strokes bend at
  // Not at a dot another line passes by within its ink (its stroke pulls the ink's centre there:
  // VisOnlyQA 00565noise_1's H–L and H–J, converging on H past a JPEG blob read as a dot).
  auto passed_by = [&](std::size_t k, std::size_t x) {
    for (std::size_t m = 0; m < lines.size(); ++m) {
      if (m == k || ends[m].first == x || ends[m].second == x) continue;
      const double t = lines[m].along(dots[x].at);
      if (std::abs(lines[m].offset(dots[x].at)) <= within_ink && t > lines[m].t0 && t < lines[m].t1) return true;
    }
    return false;
  };
  auto bends_toward = [&](std::size_t k, const Pair& pair) -> std::optional<std::size_t> {
    const Piece& l = lines[k];
    for (const auto& [on, off] : {std::pair{pair.i, pair.j}, std::pair{pair.j, pair.i}}) {
      if (on != ends[k].first && on != ends[k].second) continue;
      if (std::abs(l.offset(dots[off].at)) < apart || passed_by(k, off)) continue;
      if (bends_at(sheet, l, dots[off], dots)) return off;
    }
    return std::nullopt;
  };
  for (const Pair& pair : drawn) {
    const Piece line = piece_between(dots[pair.i].at, dots[pair.j].at, pair.ink);
    // Every line is asked (not only until one covers the pair): each learns the dots it passes beside.
    bool covered = false;
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (!covers(lines[k], pair)) continue;
      if (const auto at = bends_toward(k, pair))
        bent[k].push_back(*at);  // the pair is a stroke of its own
      else
        covered = true;
    }
    if (!covered) lines.push_back(line), ends.push_back({pair.i, pair.j}), bent.emplace_back();
  }
  std::vector<bool> bend(dots.size(), false);  // the dots where a chord was dropped
  for (std::size_t k = lines.size(); k-- > 0;) {
    const auto [a, b] = ends[k];
    const auto at = std::find_if(bent[k].begin(), bent[k].end(),
                                 [&](std::size_t x) { return joins(ends, a, x) && joins(ends, x, b); });
    if (at == bent[k].end()) continue;
    bend[*at] = true;
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(k)),
        ends.erase(ends.begin() + static_cast<std::ptrdiff_t>(k));
  }
  drop_chords_beside_strokes(sheet, dots, lines, ends, within_ink);
  if (lines.size() < 2) return pieces;

  // The strokes read otherwise: one along a dot-to-dot line is that line (going on past its end dot
  // by more than a dot, the line is drawn that far: a line need not end at a point); any other stays.
  std::vector<Piece> out = lines;
  const double along_tolerance = sheet.half + 2;
  // Past an end at such a dot, the stretch of line k from t to u runs along the other dot-to-dot
  // lines (a stroke read across the two that meet there: VisOnlyQA 00017noise_0's H–A–F, whose read
  // stroke would take A–F on past A along A–H).
  auto along_other_lines = [&](std::size_t k, double t, double u) {
    if (!bend[t < lines[k].t0 ? ends[k].first : ends[k].second]) return false;
    std::vector<Piece> others;
    for (std::size_t m = 0; m < lines.size(); ++m)
      if (m != k) others.push_back(lines[m]);
    return along_lines(Piece::from_to(lines[k].at(t), lines[k].at(u)), others, dots, along_tolerance);
  };
  for (const Piece& p : pieces) {
    bool merged = false;
    for (Piece& l : out) {
      const auto k = static_cast<std::size_t>(&l - out.data());
      if (k >= lines.size()) break;
      if (std::abs(l.offset(p.a())) > along_tolerance || std::abs(l.offset(p.b())) > along_tolerance) continue;
      const double u0 = std::min(l.along(p.a()), l.along(p.b())), u1 = std::max(l.along(p.a()), l.along(p.b()));
      if (u1 < l.t0 - along_tolerance || u0 > l.t1 + along_tolerance) continue;
      const double beyond = marker + 2 + min_length;
      if (u0 < l.t0 - beyond && !along_other_lines(k, u0, lines[k].t0)) l.t0 = u0;
      if (u1 > l.t1 + beyond && !along_other_lines(k, lines[k].t1, u1)) l.t1 = u1;
      merged = true;
      break;
    }
    if (!merged && !along_lines(p, lines, dots, along_tolerance)) out.push_back(p);
  }
  return out;
}

void run_on_to_dots(const Sheet& sheet, const std::vector<Dot>& dots, std::vector<Piece>& pieces) {
  if (!marks_points_with_dots(sheet, dots)) return;
  constexpr double kInked = 0.75;
  const double merge = sheet.merge_distance(), on = sheet.on_stroke(), across = sheet.half + 1;
  for (Piece& piece : pieces) {
    if (piece.between_dots) continue;
    // Each end, outward: +1 past t1, -1 before t0.
    for (const int way : {-1, 1}) {
      const double end = way > 0 ? piece.t1 : piece.t0;
      if (at_a_dot(sheet, dots, piece.at(end))) continue;  // it ends at a dot already
      const Dot* nearest = nullptr;
      double nearest_gap = 0;
      for (const Dot& d : dots) {
        const double gap = way * (piece.along(d.at) - end);
        if (gap <= -(2 * d.radius + merge) || gap > 3 * d.radius + merge ||
            std::abs(piece.offset(d.at)) > d.radius + on)
          continue;
        if (!nearest || std::abs(gap) < std::abs(nearest_gap)) nearest = &d, nearest_gap = gap;
      }
      if (!nearest) continue;
      const double foot = piece.along(nearest->at);
      if (way > 0 ? foot <= piece.t0 : foot >= piece.t1) continue;  // never past the piece's other end
      if (nearest_gap > nearest->radius &&
          inking(sheet, piece.at(end), piece.at(foot), 0, nearest->radius, across).coverage < kInked)
        continue;
      (way > 0 ? piece.t1 : piece.t0) = foot;
    }
  }
}

}  // namespace geotruth::vision::read
