#include "generate/visibility.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "vision/figure.hpp"

namespace geotruth::generate {
namespace {

using vision::dist;
using vision::P2;

struct Piece {
  P2 a, b;
  int element = 0;
};

// Pieces of every stroke in cells of `cell` pixels: a point within cell / 2 of a piece finds it in
// its own cell or one of the eight around it.
class Grid {
 public:
  Grid(double cell, int width, int height)
      : cell_(cell), columns_(static_cast<int>(width / cell) + 3), rows_(static_cast<int>(height / cell) + 3) {}

  void add(std::size_t piece, P2 a, P2 b) {
    const double len = dist(a, b);
    const int steps = std::max(1, static_cast<int>(std::ceil(len / (cell_ / 4))));
    for (int k = 0; k <= steps; ++k) {
      const double t = static_cast<double>(k) / steps;
      const int cx = column(a.x + t * (b.x - a.x)), cy = row(a.y + t * (b.y - a.y));
      auto& cell = cells_[key(cx, cy)];
      if (cell.empty() || cell.back() != piece) cell.push_back(piece);
    }
  }

  template <typename Visit>
  void near(P2 p, Visit visit) const {
    const int cx = column(p.x), cy = row(p.y);
    for (int y = std::max(0, cy - 1); y <= std::min(rows_ - 1, cy + 1); ++y)
      for (int x = std::max(0, cx - 1); x <= std::min(columns_ - 1, cx + 1); ++x)
        for (std::size_t piece : cells_[key(x, y)]) visit(piece);
  }

 private:
  int column(double x) const { return std::clamp(static_cast<int>(std::floor(x / cell_)) + 1, 0, columns_ - 1); }
  int row(double y) const { return std::clamp(static_cast<int>(std::floor(y / cell_)) + 1, 0, rows_ - 1); }
  std::size_t key(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(columns_) + static_cast<std::size_t>(x);
  }
  double cell_;
  int columns_, rows_;
  std::vector<std::vector<std::size_t>> cells_ =
      std::vector<std::vector<std::size_t>>(static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_));
};

}  // namespace

std::string visibility_problem(const Scene& scene, const Bands& bands, const VisibilityRules& rules) {
  const double scale = vision::render_scale(scene.frame, static_cast<int>(bands.render_size_px), bands);
  const auto [width, height] = vision::image_size(scene.frame, scale);
  const vision::Figure fig = vision::build_figure(scene, width, height, scale);
  if (!fig.problems.empty()) return "not_drawable";
  const double near = 2 * bands.eps_vis_px, contact = 0.75;

  // Elements by id; every curve's path becomes pieces of its element.
  std::map<std::string, int> element_of;
  std::vector<std::string> names;
  auto element = [&](const std::string& id) {
    auto [it, added] = element_of.emplace(id, static_cast<int>(names.size()));
    if (added) names.push_back(id);
    return it->second;
  };
  std::vector<Piece> pieces;
  std::vector<std::vector<std::size_t>> paths;  // pieces of each curve, in order along it
  std::vector<bool> closed;
  for (const auto& curve : fig.curves) {
    const int e = element(curve.element);
    const bool straight_line = curve.category == "lines";
    for (const auto& p : curve.path) {
      const double m = straight_line ? -1 : rules.margin_px;
      if (p.x < m || p.y < m || p.x > width - m || p.y > height - m) return "off_canvas";
    }
    if ((curve.model == vision::Curve::Model::circle || curve.model == vision::Curve::Model::ellipse) &&
        std::min(curve.a, curve.b) < rules.min_radius_px)
      return "small_curve";
    std::vector<std::size_t> path;
    for (std::size_t i = 0; i + 1 < curve.path.size() + (curve.closed ? 1 : 0); ++i) {
      path.push_back(pieces.size());
      pieces.push_back({curve.path[i], curve.path[(i + 1) % curve.path.size()], e});
    }
    paths.push_back(std::move(path));
    closed.push_back(curve.closed);
  }
  for (const auto& s : fig.straights)
    if (dist(s.a, s.b) < rules.min_stroke_px) return "short_stroke";

  // A polygon's vertex near one of its own sides that does not end there: too thin to read.
  for (const auto& curve : fig.curves) {
    if (curve.straights.size() < 3 || !curve.closed || curve.category == "sectors") continue;
    const std::size_t n = curve.straights.size();
    for (std::size_t v = 0; v < n; ++v)
      for (std::size_t s = 0; s < n; ++s) {
        if (s == v || (s + 1) % n == v) continue;  // the two sides that end at vertex v
        const auto& side = fig.straights[curve.straights[s]];
        if (vision::distance_to_segment(fig.straights[curve.straights[v]].a, side.a, side.b) < near)
          return "thin_shape";
      }
  }

  // Every stroke against every other element's: where they come within `near`, they must touch
  // (a crossing, a tangency, a shared vertex), and cross steeply unless they touch by construction.
  // Each element gets a grid of its own pieces and a box; a curve is sampled against an element
  // only inside that element's box grown by `near`.
  struct Bounds {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    void add(P2 p) { x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y); }
    bool near(P2 p, double m) const { return p.x >= x0 - m && p.x <= x1 + m && p.y >= y0 - m && p.y <= y1 + m; }
    bool near(const Bounds& b, double m) const {
      return b.x1 >= x0 - m && b.x0 <= x1 + m && b.y1 >= y0 - m && b.y0 <= y1 + m;
    }
  };
  std::vector<Bounds> element_bounds(names.size()), curve_bounds(paths.size());
  std::vector<std::unique_ptr<Grid>> grids(names.size());
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    auto& grid = grids[static_cast<std::size_t>(pieces[i].element)];
    if (!grid) grid = std::make_unique<Grid>(2 * near, width, height);
    grid->add(i, pieces[i].a, pieces[i].b);
    element_bounds[static_cast<std::size_t>(pieces[i].element)].add(pieces[i].a);
    element_bounds[static_cast<std::size_t>(pieces[i].element)].add(pieces[i].b);
  }
  for (std::size_t c = 0; c < paths.size(); ++c)
    for (std::size_t i : paths[c]) curve_bounds[c].add(pieces[i].a), curve_bounds[c].add(pieces[i].b);
  const double shallow_run = 2 * near / std::sin(rules.min_angle_deg * M_PI / 180) + 2;
  auto touching = [&](int a, int b) {
    return rules.touching.count({names[static_cast<std::size_t>(a)], names[static_cast<std::size_t>(b)]}) ||
           rules.touching.count({names[static_cast<std::size_t>(b)], names[static_cast<std::size_t>(a)]});
  };
  constexpr double kStep = 1.0;
  struct Run {
    double length = 0, closest = 1e300;
    bool open = false, at_start = false;
  };
  for (std::size_t c = 0; c < paths.size(); ++c) {
    const auto& path = paths[c];
    if (path.empty()) continue;
    const int self = pieces[path.front()].element;
    for (std::size_t other = 0; other < names.size(); ++other) {
      if (static_cast<int>(other) == self || !grids[other] || !element_bounds[other].near(curve_bounds[c], near))
        continue;
      const Bounds& zone = element_bounds[other];
      std::vector<Run> runs;
      long sample = 0;
      for (std::size_t i : path) {
        const P2 a = pieces[i].a, b = pieces[i].b;
        const int steps = std::max(1, static_cast<int>(std::ceil(dist(a, b) / kStep)));
        const bool last = i == path.back() && !closed[c];  // an open path's end is a sample too
        for (int k = 0; k < steps + (last ? 1 : 0); ++k, ++sample) {
          const double t = static_cast<double>(k) / steps;
          const P2 p{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
          double closest = near;
          if (zone.near(p, near))
            grids[other]->near(p, [&](std::size_t j) {
              closest = std::min(closest, vision::distance_to_segment(p, pieces[j].a, pieces[j].b));
            });
          if (closest >= near) {
            if (!runs.empty()) runs.back().open = false;
            continue;
          }
          if (runs.empty() || !runs.back().open) runs.push_back({0, 1e300, true, sample == 0});
          runs.back().length += kStep;
          runs.back().closest = std::min(runs.back().closest, closest);
        }
      }
      // On a closed curve a run through the starting point is one run.
      if (closed[c] && runs.size() > 1 && runs.front().at_start && runs.back().open) {
        runs.front().length += runs.back().length;
        runs.front().closest = std::min(runs.front().closest, runs.back().closest);
        runs.pop_back();
      }
      for (const auto& run : runs) {
        if (run.closest > contact) return "near_miss";
        if (run.length > shallow_run && !touching(self, static_cast<int>(other))) return "shallow_crossing";
      }
    }
  }

  // Points and their letters.
  for (std::size_t i = 0; i < fig.dots.size(); ++i)
    for (std::size_t j = i + 1; j < fig.dots.size(); ++j)
      if (dist(fig.dots[i].at, fig.dots[j].at) < 2 * fig.font_px) return "crowded_points";
  for (std::size_t i = 0; i < fig.texts.size(); ++i) {
    const auto& t = fig.texts[i];
    if (!t.letter) continue;
    const double half = fig.font_px * 0.6;
    if (t.center.x < half || t.center.y < half || t.center.x > width - half || t.center.y > height - half)
      return "letter_off_canvas";
    double clearance = 1e300;
    for (const auto& curve : fig.curves)
      clearance = std::min(clearance, vision::distance_to_path(t.center, curve.path, curve.closed));
    if (clearance < 0.75 * fig.font_px) return "letter_on_stroke";
    const double own = dist(t.center, t.anchor);
    for (const auto& d : fig.dots)
      if (d.element != t.element && dist(t.center, d.at) < 1.6 * own) return "letter_ambiguous";
    for (std::size_t j = i + 1; j < fig.texts.size(); ++j)
      if (fig.texts[j].letter && dist(t.center, fig.texts[j].center) < 1.4 * fig.font_px) return "letters_overlap";
  }
  return "";
}

}  // namespace geotruth::generate
