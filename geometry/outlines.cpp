#include "geometry/outlines.hpp"

#include <algorithm>
#include <geotruth/work_limit.hpp>

namespace geotruth::geometry {
namespace {

Rational squared_distance(const Vec2& a, const Vec2& b) {
  const Rational dx = a.x - b.x, dy = a.y - b.y;
  return dx * dx + dy * dy;
}

// Squared distance from p to the closed segment [a, b]; a zero-length segment is its point.
// On the rationals directly: the nearest end, or cross² / |ab|² inside the segment's span.
Rational to_segment(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Rational abx = b.x - a.x, aby = b.y - a.y, apx = p.x - a.x, apy = p.y - a.y;
  const Rational dot = abx * apx + aby * apy, length2 = abx * abx + aby * aby;
  if (dot <= 0 || length2 == 0) return squared_distance(p, a);
  if (dot >= length2) return squared_distance(p, b);
  const Rational cross = abx * apy - aby * apx;
  return cross * cross / length2;
}

// Sign of (b − a) × (c − a), exactly on the rationals (no kernel objects: this runs per edge pair).
int turn(const Vec2& a, const Vec2& b, const Vec2& c) {
  return sgn((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
}

bool on_segment(const Vec2& p, const Vec2& a, const Vec2& b) {
  return turn(a, b, p) == 0 && std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

// True when the closed segments [a, b] and [c, d] share a point.
bool segments_meet(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const int o1 = turn(a, b, c), o2 = turn(a, b, d), o3 = turn(c, d, a), o4 = turn(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return on_segment(c, a, b) || on_segment(d, a, b) || on_segment(a, c, d) || on_segment(b, c, d);
}

template <typename Fn>
void each_edge(const Outline& o, Fn&& fn) {
  if (o.size() == 1) fn(o[0], o[0]);
  if (o.size() == 2) fn(o[0], o[1]);
  if (o.size() < 3) return;
  for (std::size_t i = 0; i < o.size(); ++i) fn(o[i], o[(i + 1) % o.size()]);
}

bool in_box(const Vec2& p, const Box& b) {
  return b[0] <= p.x && p.x <= b[2] && b[1] <= p.y && p.y <= b[3];
}

bool boxes_meet(const Box& a, const Box& b) {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

bool inside(const Vec2& p, const Outline& o) {
  return o.size() >= 3 && in_box(p, bounding_box(o)) && region_has_point(Region{std::nullopt, 0, o}, p);
}

}  // namespace

Outline box_outline(const Box& b) {
  return {{b[0], b[1]}, {b[2], b[1]}, {b[2], b[3]}, {b[0], b[3]}};
}

Rational squared_distance_to_outline(const Vec2& p, const Outline& outline) {
  if (inside(p, outline)) return 0;
  std::optional<Rational> best;
  each_edge(outline, [&](const Vec2& a, const Vec2& b) {
    const Rational d = to_segment(p, a, b);
    if (!best || d < *best) best = d;
  });
  return best.value_or(0);
}

Rational squared_distance_between(const Outline& a, const Outline& b) {
  if (a.empty() || b.empty()) return 0;
  charge_work(a.size() * b.size());
  // Outlines whose boxes are apart can neither cross nor hold one another.
  if (boxes_meet(bounding_box(a), bounding_box(b))) {
    bool meet = false;
    each_edge(a, [&](const Vec2& p, const Vec2& q) {
      each_edge(b, [&](const Vec2& r, const Vec2& s) { meet = meet || segments_meet(p, q, r, s); });
    });
    if (meet || inside(a[0], b) || inside(b[0], a)) return 0;
  }
  std::optional<Rational> best;
  auto consider = [&](const Outline& points, const Outline& edges) {
    for (const auto& p : points)
      each_edge(edges, [&](const Vec2& r, const Vec2& s) {
        const Rational d = to_segment(p, r, s);
        if (!best || d < *best) best = d;
      });
  };
  consider(a, b);
  consider(b, a);
  return best.value_or(0);
}

std::vector<Outline> entity_outlines(const Entity& e) {
  std::vector<Outline> out{e.polygon.empty() ? box_outline(e.box) : e.polygon};
  for (const auto& label : e.labels) out.push_back(box_outline(label.box));
  return out;
}

Rational squared_distance_between(const std::vector<Outline>& from, const std::vector<Outline>& to) {
  std::optional<Rational> best;
  for (const auto& a : from)
    for (const auto& b : to) {
      const Rational d = squared_distance_between(a, b);
      if (!best || d < *best) best = d;
    }
  return best.value_or(0);
}

Rational squared_distance_to_outlines(const Vec2& p, const std::vector<Outline>& outlines) {
  std::optional<Rational> best;
  for (const auto& o : outlines) {
    const Rational d = squared_distance_to_outline(p, o);
    if (!best || d < *best) best = d;
  }
  return best.value_or(0);
}

}  // namespace geotruth::geometry
