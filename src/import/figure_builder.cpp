#include "import/figure_builder.hpp"

#include <algorithm>
#include <stdexcept>

#include "geometry/predicates.hpp"
#include "geometry/segments.hpp"

namespace geotruth::import {

FigureBuilder::FigureBuilder(std::string id) {
  scene_.id = std::move(id);
}

void FigureBuilder::add_point(std::string_view name, std::optional<Vec2> at, bool labelled) {
  if (!index_.try_emplace(std::string(name), scene_.points.size()).second) {
    note("duplicate_point", "point \"" + std::string(name) + "\" is given twice; the first is kept");
    return;
  }
  longest_name_ = std::max(longest_name_, name.size());
  Point& p = scene_.points.emplace_back();
  p.id = name;
  p.at = std::move(at);
  p.labelled = labelled;
}

std::size_t FigureBuilder::index_of(std::string_view known_point) const {
  const auto it = index_.find(known_point);
  if (it == index_.end()) throw std::out_of_range("unknown point " + std::string(known_point));
  return it->second;
}

std::optional<std::size_t> FigureBuilder::piece(std::string_view a, std::string_view b) {
  if (a == b) {
    note("zero_length_piece", "piece " + std::string(a) + std::string(a) + " joins a point to itself");
    return std::nullopt;
  }
  const std::size_t from = index_of(a), to = index_of(b);
  for (std::size_t i = 0; i < pieces_.size(); ++i)
    if ((pieces_[i].a == from && pieces_[i].b == to) || (pieces_[i].a == to && pieces_[i].b == from)) return i;
  pieces_.push_back({from, to, {}});
  return pieces_.size() - 1;
}

void FigureBuilder::on_piece(std::size_t piece, std::string_view p) {
  PieceDraft& d = pieces_[piece];
  const std::size_t point = index_of(p);
  if (point == d.a || point == d.b || std::count(d.inner.begin(), d.inner.end(), point)) return;
  d.inner.push_back(point);
}

bool FigureBuilder::has_centre(std::string_view name) {
  if (has_point(name) || indexed_centres_.count(name)) return true;
  std::size_t digits = 0;
  while (digits < name.size() && name[name.size() - 1 - digits] >= '0' && name[name.size() - 1 - digits] <= '9')
    ++digits;
  const std::string_view base = name.substr(0, name.size() - digits);
  if (digits == 0 || base.empty() || !has_point(base)) return false;
  indexed_centres_.emplace(std::string(name), std::string(base));
  note("indexed_centre", "circle centre \"" + std::string(name) + "\" is read as point " + std::string(base) +
                             " with index " + std::string(name.substr(base.size())) +
                             " (the IMP re-annotation's name for one of several concentric circles about " +
                             std::string(base) + ")");
  return true;
}

std::string_view FigureBuilder::centre_point(std::string_view name) const {
  const auto it = indexed_centres_.find(name);
  return it == indexed_centres_.end() ? name : std::string_view(it->second);
}

std::size_t FigureBuilder::circle(std::string_view center, std::string_view radius) {
  std::optional<std::size_t> unnamed;
  std::size_t same_centre = 0;
  const std::string_view point = centre_point(center);
  for (std::size_t i = 0; i < circle_centres_.size(); ++i) {
    if (centre_point(circle_centres_[i]) == point) ++same_centre;
    if (circle_centres_[i] != center) continue;
    if (circle_radii_[i] == radius) return i;
    if (circle_radii_[i].empty() && !unnamed) unnamed = i;
  }
  if (unnamed && !radius.empty()) {  // the circle instance, now named by a fact
    circle_radii_[*unnamed] = radius;
    return *unnamed;
  }
  Circle c;
  c.center_point = index_of(point);
  c.center = scene_.points[*c.center_point].at;
  // A second circle on this centre: named by its radius, or by its indexed centre.
  if (same_centre > 0) c.id = radius.empty() ? center : radius;
  scene_.circles.push_back(std::move(c));
  circle_centres_.emplace_back(center);
  circle_radii_.emplace_back(radius);
  circle_points_.emplace_back();
  return scene_.circles.size() - 1;
}

std::size_t FigureBuilder::circle_at(Vec2 center, Rational radius, std::string quadrants) {
  Circle c;
  c.center = std::move(center);
  scene_.circles.push_back(std::move(c));
  circle_centres_.emplace_back();
  circle_radii_.emplace_back();
  circle_points_.emplace_back();
  draw_circle(scene_.circles.size() - 1, std::move(radius), std::move(quadrants));
  return scene_.circles.size() - 1;
}

void FigureBuilder::draw_circle(std::size_t circle, Rational radius, std::string quadrants) {
  scene_.circles[circle].radius = std::move(radius);
  scene_.circles[circle].quadrants = std::move(quadrants);
}

void FigureBuilder::on_circle(std::size_t circle, std::string_view p) {
  auto& on = circle_points_[circle];
  if (centre_point(circle_centres_[circle]) == p) {
    note("centre_on_own_circle", "point " + std::string(p) + " is declared on the circle it is the centre of");
    return;
  }
  if (std::count(on.begin(), on.end(), p) == 0) on.emplace_back(p);
}

namespace {

// How far `points` are from one circle about `centre`: (max − min) / max of their squared
// distances, in [0, 1]; 0 for a perfect fit. None with fewer than two placed points.
std::optional<Rational> spread(const std::optional<Vec2>& centre, const std::vector<const Point*>& points) {
  if (!centre) return std::nullopt;
  std::vector<Rational> squared;
  for (const Point* p : points)
    if (p->at) {
      const Rational dx = p->at->x - centre->x, dy = p->at->y - centre->y;
      squared.push_back(dx * dx + dy * dy);
    }
  if (squared.size() < 2) return std::nullopt;
  const auto [low, high] = std::minmax_element(squared.begin(), squared.end());
  return *high == 0 ? Rational(0) : Rational((*high - *low) / *high);
}

}  // namespace

void FigureBuilder::reconcile_centres(const std::vector<std::size_t>& drawn) {
  const std::size_t n = scene_.circles.size();
  std::vector<bool> gone(n, false);
  auto points_of = [&](std::size_t c) {
    std::vector<const Point*> points;
    for (const auto& p : circle_points_[c]) points.push_back(&scene_.points[index_.at(p)]);
    return points;
  };
  auto claim = [&](std::size_t keep, std::size_t lost, const std::string& why) {
    ClaimedCentre claimed{index_of(centre_point(circle_centres_[lost])), {}};
    for (const auto& p : circle_points_[lost]) claimed.through.push_back(index_.at(p));
    scene_.circles[keep].claimed_centers.push_back(std::move(claimed));
    for (const auto& p : circle_points_[lost])
      if (p != centre_point(circle_centres_[keep])) on_circle(keep, p);
    gone[lost] = true;
    note("wrong_centre", why);
  };
  for (std::size_t f = 0; f < n; ++f) {
    const std::string_view centre = centre_point(circle_centres_[f]);
    std::vector<std::size_t> concentric;  // drawn circles about this centre (itself among them when drawn)
    for (const auto d : drawn)
      if (centre_point(circle_centres_[d]) == centre) concentric.push_back(d);
    if (circle_centres_[f].empty()) continue;
    const auto points = points_of(f);
    const bool placed = std::count_if(points.begin(), points.end(), [](const Point* p) { return p->at; }) >= 2;
    const bool any_placed = std::any_of(points.begin(), points.end(), [](const Point* p) { return p->at.has_value(); });
    if (!concentric.empty()) {
      const bool is_drawn = std::count(drawn.begin(), drawn.end(), f) > 0;
      if (!is_drawn && !any_placed && concentric.size() == 1 && !gone[concentric[0]] && !scene_.circles[f].radius) {
        const std::size_t d = concentric[0];
        std::string names;
        for (const auto& p : circle_points_[f]) names += (names.empty() ? "" : ", ") + p;
        for (const auto& p : circle_points_[f]) on_circle(d, p);
        gone[f] = true;
        note("unplaced_circle", "the circle about " + std::string(centre) + " named " +
                                    (circle_radii_[f].empty() ? std::string("by no radius") : circle_radii_[f]) +
                                    " has no placed point (" + (names.empty() ? std::string("none") : names) +
                                    ") to tell it from the one drawn circle about " + std::string(centre) +
                                    (circle_radii_[d].empty() ? std::string() : " (" + circle_radii_[d] + ")") +
                                    ": read as that circle, its points on it");
      }
      continue;
    }
    std::optional<std::size_t> best;
    if (placed) {
      Rational best_spread = spread(scene_.circles[f].center, points).value_or(Rational(1));
      for (auto d : drawn) {
        if (gone[d]) continue;
        auto both = points, more = points_of(d);
        both.insert(both.end(), more.begin(), more.end());
        if (auto s = spread(scene_.circles[d].center, both); s && *s < best_spread) best_spread = *s, best = d;
      }
    } else if (drawn.size() == 1 && !gone[drawn[0]]) {
      best = drawn[0];  // nothing placed to tell: the source draws one circle, so it is that one
    }
    if (best) {
      claim(*best, f,
            "the circle facts centre at " + circle_centres_[f] + " is the drawn circle about " +
                circle_centres_[*best] +
                (placed ? " (its points fit that centre better)" : " (the only drawn circle; nothing placed to tell)"));
      continue;
    }
    for (auto d : drawn)
      if (!gone[d] && circle_points_[d].empty() && circle_radii_[d].empty() &&
          std::count(circle_points_[f].begin(), circle_points_[f].end(), centre_point(circle_centres_[d]))) {
        claim(f, d,
              "the drawn circle annotated about " + circle_centres_[d] + " is the circle facts centre at " +
                  circle_centres_[f] + " (" + circle_centres_[d] + " is declared on it)");
        break;
      }
  }
  for (std::size_t c = n; c-- > 0;)
    if (gone[c]) {
      const auto at = static_cast<std::ptrdiff_t>(c);
      scene_.circles.erase(scene_.circles.begin() + at);
      circle_centres_.erase(circle_centres_.begin() + at);
      circle_radii_.erase(circle_radii_.begin() + at);
      circle_points_.erase(circle_points_.begin() + at);
    }
}

ImportedScene FigureBuilder::finish() {
  std::optional<geometry::PlacedPoints> placed;  // the points, converted once when some piece needs sorting
  for (PieceDraft& d : pieces_) {
    const Point& a = scene_.points[d.a];
    const Point& b = scene_.points[d.b];
    if (a.at && b.at && *a.at == *b.at) {
      note("zero_length_piece", "piece " + a.id + "-" + b.id + " has both ends at the same position; dropped");
      continue;
    }
    const bool all_placed = a.at && b.at && std::all_of(d.inner.begin(), d.inner.end(), [&](std::size_t p) {
                              return scene_.points[p].at.has_value();
                            });
    if (all_placed && d.inner.size() > 1) {
      // Exact order along a→b; points beyond the ends stay inside the list (the incidence
      // builder reports them as declared outside the drawn extent).
      if (!placed) {
        std::vector<const Vec2*> at;
        for (const Point& p : scene_.points) at.push_back(p.at ? &*p.at : nullptr);
        placed.emplace(std::move(at));
      }
      placed->sort_along(*a.at, *b.at, d.inner);
    }
    Line line;
    line.through.reserve(d.inner.size() + 2);
    line.through.push_back(d.a);
    line.through.insert(line.through.end(), d.inner.begin(), d.inner.end());
    line.through.push_back(d.b);
    scene_.lines.push_back(std::move(line));
  }
  for (std::size_t c = 0; c < scene_.circles.size(); ++c) {
    bool placed = false;
    for (const auto& p : circle_points_[c]) {
      scene_.circles[c].through.push_back(index_of(p));
      placed = placed || scene_.points[index_of(p)].at.has_value();
    }
    if (!scene_.circles[c].radius && !placed && !circle_centres_[c].empty())
      note("unplaced_circle", "the circle about " + std::string(centre_point(circle_centres_[c])) +
                                  (circle_radii_[c].empty() ? std::string() : " named " + circle_radii_[c]) +
                                  " has no radius and no placed point: it is counted but cannot be drawn or checked");
  }
  if (frame_) {
    scene_.frame = *frame_;
  } else {
    // No image size given: the smallest integer frame holding every point (at least 1 × 1).
    const Rational *right = nullptr, *bottom = nullptr;
    for (const auto& p : scene_.points)
      if (p.at) {
        if (!right || p.at->x > *right) right = &p.at->x;
        if (!bottom || p.at->y > *bottom) bottom = &p.at->y;
      }
    auto size = [](const Rational* far_edge) {
      const Rational size = far_edge ? std::max(Rational(1), Rational(*far_edge + 1)) : Rational(1);
      return Rational(mpz_class(size.get_num() / size.get_den()));
    };
    scene_.frame.width = size(right);
    scene_.frame.height = size(bottom);
  }
  return {scene_.id, std::move(scene_), std::move(notes_), {{"", origin_}}};
}

}  // namespace geotruth::import
