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
Rational to_segment(const Vec2& p, const Vec2& a, const Vec2& b) {
  return a == b ? squared_distance(p, a) : squared_distance_to_segment(p, a, b);
}

bool on_segment(const Vec2& p, const Vec2& a, const Vec2& b) {
  return orientation(a, b, p) == 0 && std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) &&
         std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y);
}

// True when the closed segments [a, b] and [c, d] share a point.
bool segments_meet(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const int o1 = orientation(a, b, c), o2 = orientation(a, b, d), o3 = orientation(c, d, a), o4 = orientation(c, d, b);
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

bool inside(const Vec2& p, const Outline& o) {
  return o.size() >= 3 && region_has_point(Region{std::nullopt, 0, o}, p);
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
  charge_work(a.size() * b.size());
  bool meet = false;
  each_edge(a, [&](const Vec2& p, const Vec2& q) {
    each_edge(b, [&](const Vec2& r, const Vec2& s) { meet = meet || segments_meet(p, q, r, s); });
  });
  if (meet || (!a.empty() && inside(a[0], b)) || (!b.empty() && inside(b[0], a))) return 0;
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
