// Filled dots (docs/reader.md, "Points"): where the ink is thicker than a stroke (a peak of its
// distance transform well above the strokes' half-thickness) and some of that ink lies off every
// stroke read: a crossing of two strokes is thick too, but all of its ink lies on the two strokes.
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numbers>

#include "vision/pixels.hpp"
#include "vision/read/read.hpp"

namespace geotruth::vision::read {

namespace {

// How the pixels from (x, y) on where `dt` stays at least `level` (8-connected) reach farther than
// `reach` from it: not at all (a round blob), on one side (the wedge of two strokes leaving a dot
// at a shallow angle: VisOnlyQA 00565's B, B-I and B-K 2 degrees apart), or on two sides more
// than 120 degrees apart (a band through it: two strokes side by side, or crossing at a shallow
// angle).
enum class Reach { round, one_way, through };

struct ThickReach {
  Reach kind;
  cv::Point2d way;  // one_way: the mean direction the thick pixels leave in (unit)
};

ThickReach thick_reach(const cv::Mat& dt, int x, int y, double level, double reach) {
  // Pixels looked at, in a square about (x, y): the walk stops one pixel past `reach`.
  const int half = static_cast<int>(std::ceil(reach)) + 2;
  cv::Mat seen = cv::Mat::zeros(2 * half + 1, 2 * half + 1, CV_8U);
  seen.at<std::uint8_t>(half, half) = 1;
  std::vector<cv::Point> todo{{x, y}}, exits;
  while (!todo.empty()) {
    const cv::Point p = todo.back();
    todo.pop_back();
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const cv::Point q{p.x + dx, p.y + dy};
        if (q.x < 0 || q.y < 0 || q.x >= dt.cols || q.y >= dt.rows || dt.at<float>(q) < level) continue;
        std::uint8_t& looked = seen.at<std::uint8_t>(q.y - y + half, q.x - x + half);
        if (looked) continue;
        looked = 1;
        if (std::hypot(q.x - x, q.y - y) > reach)
          exits.push_back({q.x - x, q.y - y});
        else
          todo.push_back(q);
      }
  }
  cv::Point2d way{0, 0};
  for (std::size_t i = 0; i < exits.size(); ++i) {
    way += cv::Point2d(exits[i]) / cv::norm(exits[i]);
    for (std::size_t j = i + 1; j < exits.size(); ++j)
      if (exits[i].dot(exits[j]) < -0.5 * cv::norm(exits[i]) * cv::norm(exits[j])) return {Reach::through, {}};
  }
  if (exits.empty()) return {Reach::round, {}};
  return {Reach::one_way, way / cv::norm(way)};
}

// Whether ink runs on from (x, y) against `way`, from `from` to `to` pixels off (within a pixel of
// the ray, on half its length or more): the strokes of a thick band go on past the blob (a shallow
// crossing), where strokes fanning out from a dot end at it. A letter's ink is no stroke: samples
// under a letter are left out (VisOnlyQA 00867noise_1: the strokes into E's dot point at its letter).
bool inked_against(const Sheet& sheet, int x, int y, cv::Point2d way, double from, double to) {
  int samples = 0, inked = 0;
  for (double t = from; t <= to; t += 1) {
    const P2 p{x + 0.5 - way.x * t, y + 0.5 - way.y * t};
    if (sheet.is_unknown(p)) continue;
    ++samples;
    inked += ink_within_pixel(sheet.paper.ink, {p.x, p.y});
  }
  return samples > 0 && 2 * inked >= samples;
}

// A dot's edge on the picture's gray levels, to a fraction of a pixel: along 24 rays from its
// centre, where the darkness falls to half the core's (interpolated); a ray still dark `reach` out
// (a stroke or a letter touching the dot) is left out. The median over 8 rays or more, and the
// core's darkness; {0, 0} when fewer leave it.
struct Edge {
  double radius = 0, core = 0;
};

Edge edge_of(const Paper& paper, P2 centre, double reach) {
  double core = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      core = std::max(core, darkness_at(paper, {centre.x + 0.5 * dx, centre.y + 0.5 * dy}));
  if (core <= paper.ink_level) return {};
  std::vector<double> crossings;
  constexpr int kRays = 24;
  for (int k = 0; k < kRays; ++k) {
    const double a = 2 * std::numbers::pi * k / kRays;
    const P2 way{std::cos(a), std::sin(a)};
    double before = core;
    for (double t = 0.25; t <= reach; t += 0.25) {
      const double d = darkness_at(paper, {centre.x + t * way.x, centre.y + t * way.y});
      if (d < 0.5 * core) {
        crossings.push_back(t - 0.25 * (0.5 * core - d) / std::max(1e-9, before - d));
        break;
      }
      before = d;
    }
  }
  if (crossings.size() < 8) return {};
  std::nth_element(crossings.begin(), crossings.begin() + crossings.size() / 2, crossings.end());
  return {crossings[crossings.size() / 2], core};
}

}  // namespace

bool is_marker(const Sheet& sheet, double radius) {
  return radius >= std::max(sheet.ridge + 1.5, 2.5 * sheet.ridge);
}

bool Sheet::is_unknown(P2 p) const {
  const int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
  if (unknown.empty() || x < 0 || y < 0 || x >= unknown.cols || y >= unknown.rows) return false;
  return unknown.at<std::uint8_t>(y, x) != 0;
}

std::vector<Dot> read_dots(const Sheet& sheet, const std::vector<Piece>& pieces, const std::vector<Round>& rounds) {
  // The whole ink (a dot touching a letter's box keeps its size); peaks under a letter are the
  // letter's, and a letter's ink beside a dot does not make it stand clear of the strokes.
  const cv::Mat& ink = sheet.paper.ink;
  cv::Mat dt;
  cv::distanceTransform(ink, dt, cv::DIST_L2, cv::DIST_MASK_PRECISE);
  // A dot is thicker than a stroke by most of a pixel at least (on the distance transform's scale,
  // against the strokes' ridge), and not a filled region.
  const double min_peak = std::max(2.0, sheet.ridge + 0.9), max_peak = 8 * sheet.ridge + 2;
  struct Peak {
    int x, y;
    float value;
  };
  std::vector<Peak> peaks;
  for (int y = 1; y + 1 < dt.rows; ++y) {
    const float* row = dt.ptr<float>(y);
    for (int x = 1; x + 1 < dt.cols; ++x) {
      const float v = row[x];
      if (v < min_peak || v > max_peak) continue;
      bool is_max = true;
      for (int dy = -1; dy <= 1 && is_max; ++dy)
        for (int dx = -1; dx <= 1 && is_max; ++dx)
          if ((dx || dy) && dt.at<float>(y + dy, x + dx) > v) is_max = false;
      if (is_max) peaks.push_back({x, y, v});
    }
  }
  std::sort(peaks.begin(), peaks.end(), [](const Peak& a, const Peak& b) { return a.value > b.value; });
  // Distance from a pixel centre to the nearest stroke read.
  auto stroke_distance = [&](P2 p) {
    double best = 1e300;
    for (const Piece& piece : pieces) best = std::min(best, piece_distance(piece, p));
    for (const Round& r : rounds)
      best = std::min(best, std::abs(std::hypot(p.x - r.centre.x, p.y - r.centre.y) - r.radius));
    return best;
  };
  const double off_stroke = sheet.ridge + 0.5;  // past a stroke's ink (its fringe cut by the ink level)
  std::vector<Dot> dots, hidden;                // hidden: thick blobs whose ink lies all along strokes
  std::vector<Dot> examined;       // every blob looked at, a dot or not: its other peaks are not looked at again
  std::vector<Dot> under_letters;  // round blobs in a letter's box: a dot only if as thick as the marker
  std::vector<Dot> wedged;  // blobs thick along a wedge leaving them one way: a dot only if as thick as the marker
  for (const Peak& peak : peaks) {
    const P2 c{peak.x + 0.5, peak.y + 0.5};
    const double r = peak.value;
    // A dot is round: its thickest ink (the distance transform within 70 % of its peak, and above
    // the strokes' own half-width) lies about its centre, whatever strokes leave it (in the wedge
    // of two that leave it at an acute angle, a little beyond). Two strokes running side by side or
    // crossing at a shallow angle are as thick, but along their whole band, both ways; two that leave
    // a blob at a shallow angle thicken one way (a dot then only if as thick as the marker).
    auto reach_of_thick = [&] {
      return thick_reach(dt, peak.x, peak.y, std::max(0.7 * r, sheet.ridge + 0.25), 2.5 * r + 1);
    };
    auto round = [&] { return reach_of_thick().kind == Reach::round; };
    // Ink of the blob off every stroke, and the blob's centre (weighted by thickness: a letter's
    // thin strokes across it do not pull it).
    const int reach = static_cast<int>(std::ceil(r + 2));
    int unexplained = 0;
    double sw = 0, sx = 0, sy = 0;
    auto measure = [&] {
      for (int y = peak.y - reach; y <= peak.y + reach; ++y)
        for (int x = peak.x - reach; x <= peak.x + reach; ++x) {
          if (x < 0 || y < 0 || x >= dt.cols || y >= dt.rows || !ink.at<std::uint8_t>(y, x)) continue;
          const P2 p{x + 0.5, y + 0.5};
          const double from_centre = std::hypot(p.x - c.x, p.y - c.y);
          if (from_centre > r + 1.0) continue;
          if (!sheet.is_unknown(p) && stroke_distance(p) > off_stroke) ++unexplained;
          if (from_centre > r + 0.5) continue;
          const double v = dt.at<float>(y, x);
          if (v >= 0.6 * r) sw += v, sx += v * p.x, sy += v * p.y;
        }
      return Dot{sw > 0 ? P2{sx / sw, sy / sw} : c, r};
    };
    if (sheet.is_unknown(c)) {
      if (round()) under_letters.push_back(measure());
      continue;
    }
    // A blob touching a thicker one (within a pixel and a half) is part of it: its other peak, or a
    // letter's joint against the dot the letter is written over.
    if (std::any_of(examined.begin(), examined.end(),
                    [&](const Dot& d) { return std::hypot(d.at.x - c.x, d.at.y - c.y) < d.radius + r + 1.5; }))
      continue;
    examined.push_back({c, r});
    const ThickReach thick = reach_of_thick();
    if (thick.kind == Reach::through) continue;
    if (thick.kind == Reach::one_way) {
      // The band is a stroke and a half thick; a dot stands a quarter thicker than it, and the
      // band's strokes end at it.
      const double far = 2.5 * r + 1;
      if (thick_reach(dt, peak.x, peak.y, std::max(0.75 * r, sheet.ridge + 0.25), far).kind == Reach::round &&
          !inked_against(sheet, peak.x, peak.y, thick.way, r + 1.5, far + 3))
        wedged.push_back(measure());
      continue;
    }
    const Dot dot = measure();
    if (unexplained < std::max(3.0, 0.1 * std::numbers::pi * r * r))
      hidden.push_back(dot);
    else
      dots.push_back(dot);
  }
  // A figure marks every point with the same marker: the thickest blob that recurs (two others as
  // thick within 15 %, among the blobs clear of the strokes and those along them, and those under
  // letters when these recur no marker's thickness) is its size, when
  // two blobs or more stand clear of the strokes and one of them is that thick. A blob as thick
  // where strokes meet is a dot too (its ink is all near some stroke when five or six meet there,
  // but a crossing of thin strokes is far thinner), and a blob much thinner is no dot of this figure
  // (a JPEG's blocks along a stroke, a letter's thick joint).
  if (dots.size() >= 2) {
    std::vector<double> radii;
    for (const Dot& d : dots) radii.push_back(d.radius);
    for (const Dot& d : hidden) radii.push_back(d.radius);
    // The marker is seen clear of the strokes too (one dot within 15 % of it): thick blobs where
    // strokes run together recur in a dense JPEG (VisOnlyQA 00867noise_1: blobs of 3.6 px, dots of
    // 3.0), and the thickest radius that recurs and is seen clear is the marker.
    auto seen_clear = [&](double radius) {
      return is_marker(sheet, radius) && std::any_of(dots.begin(), dots.end(), [&](const Dot& d) {
               return std::abs(d.radius - radius) <= 0.15 * radius;
             });
    };
    double marker = recurring_radius(radii, seen_clear);
    // In a JPEG whose letters are written over their dots, the dots the letters leave may not
    // recur among the blobs off the letters, but its blocks do, thinner than any marker
    // (VisOnlyQA 00099noise_1: three dots of six clear of letters, as thick as 3.0 to 4.0 px, and
    // a score of blocks 2.0 to 2.2 px): the dots under letters count too.
    if (marker == 0) {
      for (const Dot& d : under_letters) radii.push_back(d.radius);
      marker = recurring_radius(std::move(radii), seen_clear);
    }
    if (marker > 0) {
      // The distance transform reads one marker's discs anywhere from 3.0 to 4.0 px by where their
      // centres fall among the pixels, and a disc of 3 px drawn at 0.7 of its size as thin as 2.2
      // (VisOnlyQA 00822's B, touching its letter's box; 00300's A and C, under theirs): a blob
      // thinner than the marker by it is a dot still when its edge on the gray levels is the
      // markers' (within 0.85 to 1.3 of the median edge of the dots seen clear as thick as the
      // marker) and its core as dark as theirs (a JPEG's gray blur about a letter or a crossing is
      // lighter).
      std::vector<double> edges, cores;
      for (const Dot& d : dots)
        if (std::abs(d.radius - marker) <= 0.15 * marker)
          if (const Edge e = edge_of(sheet.paper, d.at, 3 * marker); e.radius > 0)
            edges.push_back(e.radius), cores.push_back(e.core);
      const bool edges_seen = edges.size() >= 3;
      const double marker_edge = edges_seen ? median_of(edges) : 0, marker_core = edges_seen ? median_of(cores) : 0;
      // Along the strokes, a band of two strokes running together is about two strokes wide: a
      // blob there is a dot by its edge only when that edge is wider than a stroke and a pixel
      // (Tangram's renders, whose markers are barely thicker than two strokes: a line running into a
      // circle's stroke at a shallow angle read as two dots).
      auto marker_by_edge = [&](const Dot& d, bool along_strokes) {
        if (!edges_seen || d.radius < 0.7 * marker) return false;
        const Edge e = edge_of(sheet.paper, d.at, 3 * marker);
        return (!along_strokes || e.radius >= sheet.stroke + 1) && e.radius >= 0.85 * marker_edge &&
               e.radius <= 1.3 * marker_edge && e.core >= 0.95 * marker_core;
      };
      auto within = [](const Dot& o, const Dot& d, double apart) {
        return std::hypot(o.at.x - d.at.x, o.at.y - d.at.y) < apart * (o.radius + d.radius);
      };
      auto near_a_dot = [&](const Dot& d, double apart) {
        return std::any_of(dots.begin(), dots.end(), [&](const Dot& o) { return within(o, d, apart); });
      };
      // A blob along the strokes within twice their radii of a dot seen clear, every stroke through
      // it (two at least) running on into that dot, is those strokes fanning out of the dot, as a
      // wedged blob there is (VisOnlyQA 00517noise_0: three strokes leaving A's dot a few degrees
      // apart, as thick as a marker 12 px down them).
      const double on = sheet.on_stroke();
      auto fans_out_of_a_clear_dot = [&, clear = dots](const Dot& d) {
        std::vector<const Piece*> through;
        for (const Piece& piece : pieces)
          if (piece_distance(piece, d.at) <= on + d.radius) through.push_back(&piece);
        return through.size() >= 2 && std::any_of(clear.begin(), clear.end(), [&](const Dot& o) {
                 return within(o, d, 2) && std::all_of(through.begin(), through.end(), [&](const Piece* p) {
                          return piece_distance(*p, o.at) <= on + o.radius;
                        });
               });
      };
      for (const Dot& d : hidden)
        if (d.radius >= 0.85 * marker && !fans_out_of_a_clear_dot(d)) dots.push_back(d);
      // A letter written over its point's dot: the dot is far thicker than the letter's strokes
      // (its box's other peaks are a stem's half-width), so a round blob of the marker's thickness
      // there is the dot (one the marker by its edge only, when clear of every dot by twice their
      // radii: a letter's own joints lie within that of its dot, VisOnlyQA 00458noise_1's A). So is a
      // blob as thick as the marker where two strokes leave it at a shallow angle (where they meet
      // without a dot, the blob is as thick as their band, far thinner than a marker), unless it lies
      // within twice their radii of a dot: there the band is the strokes fanning out from that dot.
      auto add_if_marker = [&](const Dot& d, double apart, bool by_edge_too) {
        if (d.radius > 1.3 * marker) return;
        if (d.radius < 0.85 * marker) {
          if (!by_edge_too || !marker_by_edge(d, false)) return;
          apart = 2;
        }
        if (!near_a_dot(d, apart)) dots.push_back(d);
      };
      for (const Dot& d : under_letters) add_if_marker(d, 1, true);
      for (const Dot& d : wedged) add_if_marker(d, 2, false);
      // A blob along the strokes that is the marker by its edge only, clear of the dots kept.
      for (const Dot& d : hidden)
        if (d.radius < 0.85 * marker && marker_by_edge(d, true) && !near_a_dot(d, 2)) dots.push_back(d);
      std::erase_if(dots, [&](const Dot& d) { return d.radius < 0.7 * marker; });
    }
  }
  return dots;
}

void drop_blocks_along_strokes(const Sheet& sheet, std::vector<Dot>& dots, const std::vector<Piece>& pieces,
                               const std::vector<Round>& rounds) {
  const double on = sheet.on_stroke();
  if (!marks_points_with_dots(sheet, dots)) {
    // A figure that does not mark its points: a dot on a full circle that no straight stroke meets
    // is a lump of the circle's stroke (a sketch draws its circles in overlapping passes: Tangram's
    // sketch item 6, four along a circle of 180 px, C's letter taken by one of them 11 px from C).
    std::erase_if(dots, [&](const Dot& d) {
      const bool meets_piece = std::any_of(pieces.begin(), pieces.end(), [&](const Piece& piece) {
        return piece_distance(piece, d.at) <= on + d.radius;
      });
      const bool on_circle = std::any_of(rounds.begin(), rounds.end(),
                                         [&](const Round& r) { return r.full && on_round(r, d.at, on + d.radius); });
      return on_circle && !meets_piece;
    });
    return;
  }
  // A figure that marks its points does so with markers: a thinner dot midway along one stroke,
  // where no other stroke meets it, is a JPEG's block (VisOnlyQA 00867noise_1: 31 blocks of 2.5 px
  // among dots of 3.6) or a sketch's lump. A thin dot where strokes meet or end stays: a sketch
  // draws some markers thinner.
  std::erase_if(dots, [&](const Dot& d) {
    if (is_marker(sheet, d.radius)) return false;
    int through = 0, midway = 0;
    for (const Piece& piece : pieces) {
      if (piece_distance(piece, d.at) > on + d.radius) continue;
      ++through;
      const double t = piece.along(d.at);
      midway += t > piece.t0 + d.radius + on && t < piece.t1 - d.radius - on;
    }
    const bool meets_round =
        std::any_of(rounds.begin(), rounds.end(), [&](const Round& r) { return on_round(r, d.at, on + d.radius); });
    return through == 1 && midway == 1 && !meets_round;
  });
}

void drop_dots_in_letters(const Sheet& sheet, std::vector<Dot>& dots) {
  if (marks_points_with_dots(sheet, dots)) return;
  std::erase_if(dots, [&](const Dot& d) {
    return std::any_of(sheet.glyphs.begin(), sheet.glyphs.end(), [&](const Glyph& g) {
      return g.by_font && g.box.contains(cv::Point(static_cast<int>(d.at.x), static_cast<int>(d.at.y)));
    });
  });
}

}  // namespace geotruth::vision::read
