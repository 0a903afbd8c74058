// Polygon pairs (similar, symmetric, a shared edge) and the checks of one shape against its
// declared kind.
#include "geometry/relations/engine.hpp"

#include <algorithm>

namespace geotruth::geometry::relations {
namespace {

using K = RelationKind;

// Similar: B's edges are A's edges times one complex number z (rotation and scale), for some
// correspondence of vertices (a cyclic shift, either direction, optionally mirrored). z comes
// from the first edge pair; slack² = the largest |bᵢ − z·aᵢ|². Each correspondence is tried in
// double first; only those the filter cannot decide are computed in exact rationals.
ShapeRelation similar(const RelationDecider& decide, const View& a, const View& b) {
  const std::vector<Vec2>&A = a.vertices, &B = b.vertices;
  if (A.size() != B.size()) return RelationDecider::impossible(K::similar);
  const std::size_t n = A.size();
  const double size = std::max(a.size, b.size);
  std::vector<ShapeRelation> options;
  double nearest = 1e300;  // the smallest double slack among the options
  for (bool mirrored : {false, true})
    for (bool reversed : {false, true})
      for (std::size_t k = 0; k < n; ++k) {
        auto b_index = [&](std::size_t i) { return reversed ? (k + n - i % n) % n : (k + i) % n; };
        auto a_edge_d = [&](std::size_t i) {
          D2 e = minus(a.vertices_d[(i + 1) % n], a.vertices_d[i]);
          if (mirrored) e.y = -e.y;
          return e;
        };
        const D2 a0 = a_edge_d(0), b0 = minus(b.vertices_d[b_index(1)], b.vertices_d[b_index(0)]);
        const double n2 = dot(a0, a0);
        if (n2 == 0) continue;
        const D2 z{dot(b0, a0) / n2, cross(a0, b0) / n2};  // b0 / a0 as complex numbers
        double rough = 0, longest = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const D2 ai = a_edge_d(i), bi = minus(b.vertices_d[b_index(i + 1)], b.vertices_d[b_index(i)]);
          rough = std::max(rough, std::hypot(bi.x - (z.x * ai.x - z.y * ai.y), bi.y - (z.x * ai.y + z.y * ai.x)));
          longest = std::max(longest, std::hypot(ai.x, ai.y));
        }
        nearest = std::min(nearest, rough);
        if (decide.clearly_fails(rough)) continue;
        // z's error grows with 1/|a0|, and each term's with |z|·|aᵢ|.
        const double condition = (1 + std::hypot(z.x, z.y)) * (1 + longest / std::sqrt(n2));
        if (auto filtered = decide.filtered(K::similar, rough, size * condition)) {
          options.push_back(*filtered);
          continue;
        }
        auto a_edge = [&](std::size_t i) {
          Vec2 e = minus(A[(i + 1) % n], A[i]);
          if (mirrored) e.y = -e.y;
          return e;
        };
        const Vec2 e0 = a_edge(0), f0 = minus(B[b_index(1)], B[b_index(0)]);
        if (norm2(e0) == 0) continue;
        const Vec2 exact_z{dot(f0, e0) / norm2(e0), cross(e0, f0) / norm2(e0)};
        Rational worst2 = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const Vec2 ai = a_edge(i), bi = minus(B[b_index(i + 1)], B[b_index(i)]);
          const Vec2 zai{exact_z.x * ai.x - exact_z.y * ai.y, exact_z.x * ai.y + exact_z.y * ai.x};
          worst2 = std::max(worst2, norm2(minus(bi, zai)));
        }
        options.push_back(decide.by_squared(K::similar, worst2));
      }
  if (options.empty())
    return nearest < 1e300 ? decide.far(K::similar, nearest) : RelationDecider::impossible(K::similar);
  return RelationDecider::best(K::similar, options);
}

// Symmetric: B is A reflected across the line of one of A's or B's edges, its vertices matched
// cyclically in either order; slack² = the largest vertex distance². Each axis is tried in
// double first; only those the filter cannot decide are reflected in exact rationals.
ShapeRelation symmetric(const RelationDecider& decide, const View& a, const View& b) {
  const std::vector<Vec2>&A = a.vertices, &B = b.vertices;
  if (A.size() != B.size()) return RelationDecider::impossible(K::symmetric);
  const std::size_t n = A.size();
  const double size = std::max(a.size, b.size);
  std::vector<ShapeRelation> options;
  double nearest = 1e300;
  std::vector<D2> mirror_d(n);
  for (const View* side : {&a, &b})
    for (std::size_t e = 0; e < n; ++e) {
      const D2 p = side->vertices_d[e], u = minus(side->vertices_d[(e + 1) % n], p);
      const double u2 = dot(u, u);
      if (u2 == 0) continue;
      for (std::size_t i = 0; i < n; ++i) {  // p + 2((v−p)·u)u/|u|² − (v−p)
        const D2 v = minus(a.vertices_d[i], p);
        const double t = 2 * dot(v, u) / u2;
        mirror_d[i] = {p.x + t * u.x - v.x, p.y + t * u.y - v.y};
      }
      std::vector<Vec2> mirror;  // exact, computed when a correspondence needs it
      for (bool reversed : {false, true})
        for (std::size_t k = 0; k < n; ++k) {
          auto b_index = [&](std::size_t i) { return reversed ? (k + n - i) % n : (k + i) % n; };
          double rough = 0;
          for (std::size_t i = 0; i < n; ++i) rough = std::max(rough, distance(mirror_d[i], b.vertices_d[b_index(i)]));
          nearest = std::min(nearest, rough);
          if (decide.clearly_fails(rough)) continue;
          if (auto filtered = decide.filtered(K::symmetric, rough, size * (1 + size / std::sqrt(u2)))) {
            options.push_back(*filtered);
            continue;
          }
          const Vec2& P = side->vertices[e];
          const Vec2 U = minus(side->vertices[(e + 1) % n], P);
          if (norm2(U) == 0) continue;
          if (mirror.empty())
            for (const auto& v : A) {
              const Vec2 d = minus(v, P);
              const Rational t = 2 * dot(d, U) / norm2(U);
              mirror.push_back({P.x + t * U.x - d.x, P.y + t * U.y - d.y});
            }
          Rational worst2 = 0;
          for (std::size_t i = 0; i < n; ++i) worst2 = std::max(worst2, norm2(minus(mirror[i], B[b_index(i)])));
          options.push_back(decide.by_squared(K::symmetric, worst2));
        }
    }
  if (options.empty())
    return nearest < 1e300 ? decide.far(K::symmetric, nearest) : RelationDecider::impossible(K::symmetric);
  return RelationDecider::best(K::symmetric, options);
}

}  // namespace

void relate_polygon_polygon(const RelationDecider& decide, const View& a, const View& b, bool directional_only,
                            RelationCheck& out) {
  if (directional_only) return;
  out.relations.push_back(similar(decide, a, b));
  out.relations.push_back(symmetric(decide, a, b));
  std::vector<ShapeRelation> shared;
  for (std::size_t i = 0; i < a.vertices.size(); ++i)
    for (std::size_t j = 0; j < b.vertices.size(); ++j)
      shared.push_back(
          decide.endpoints_match(K::shared_edge, vertex(a, i), vertex(a, i + 1), vertex(b, j), vertex(b, j + 1)));
  out.relations.push_back(RelationDecider::best(K::shared_edge, shared));
}

// A sector's straight edges are its two radii (one for a full disc); a polygon's are its sides.
std::vector<std::pair<Pt, Pt>> straight_edges(const View& v) {
  std::vector<std::pair<Pt, Pt>> out;
  if (v.kind == ViewKind::sector) {
    out.emplace_back(Pt{*v.centre, v.centre_d}, Pt{v.arc_start, v.arc_start_d});
    if (v.sweep_deg != 360) out.emplace_back(Pt{*v.centre, v.centre_d}, Pt{v.arc_end, v.arc_end_d});
  } else {
    for (std::size_t i = 0; i < v.vertices.size(); ++i) out.emplace_back(vertex(v, i), vertex(v, i + 1));
  }
  return out;
}

void relate_sector_edges(const RelationDecider& decide, const View& a, const View& b, bool directional_only,
                         RelationCheck& out) {
  if (directional_only) return;
  std::vector<ShapeRelation> shared;
  for (const auto& [p, q] : straight_edges(a))
    for (const auto& [r, s] : straight_edges(b)) shared.push_back(decide.endpoints_match(K::shared_edge, p, q, r, s));
  out.relations.push_back(RelationDecider::best(K::shared_edge, shared));
}

std::optional<ShapeRelation> label_of(const RelationDecider& decide, const View& v, const std::string& kind) {
  if (kind == "circle") {
    if (!v.round()) return std::nullopt;
    const Rational d = v.ra - v.rb;
    return decide.by_squared(K::label, d * d);
  }
  if (v.kind != ViewKind::polygon) return std::nullopt;
  const std::size_t n = v.vertices.size();
  const std::size_t wanted = kind == "rectangle" || kind == "square" ? 4
                             : kind == "equilateral triangle"        ? 3
                             : kind == "regular pentagon"            ? 5
                             : kind == "regular hexagon"             ? 6
                                                                     : 0;
  if (wanted == 0) return std::nullopt;
  if (n != wanted) return RelationDecider::impossible(K::label);
  std::vector<ShapeRelation> parts;
  // |a₁a₂| = |b₁b₂|: the double distances first, then exact square roots.
  auto equal_lengths = [&](Pt a1, Pt a2, Pt b1, Pt b2) {
    if (auto filtered = decide.filtered(K::label, std::abs(distance(a1.d, a2.d) - distance(b1.d, b2.d)), v.size))
      return *filtered;
    return decide.by_root_gap(K::label, norm2(minus(a1.exact, a2.exact)), norm2(minus(b1.exact, b2.exact)));
  };
  if (kind == "rectangle" || kind == "square")
    for (std::size_t i = 0; i < n; ++i)
      parts.push_back(
          decide.direction(K::label, vertex(v, i), vertex(v, i + 1), vertex(v, i + 1), vertex(v, i + 2), false));
  if (kind != "rectangle")  // equal sides
    for (std::size_t i = 1; i < n; ++i)
      parts.push_back(equal_lengths(vertex(v, 0), vertex(v, 1), vertex(v, i), vertex(v, i + 1)));
  if (kind == "regular pentagon" || kind == "regular hexagon") {  // equal distances from the vertex mean
    Vec2 mean{0, 0};
    for (const auto& q : v.vertices) mean = {mean.x + q.x / n, mean.y + q.y / n};
    const Pt centre{mean, approx(mean)};
    for (std::size_t i = 1; i < n; ++i) parts.push_back(equal_lengths(vertex(v, 0), centre, vertex(v, i), centre));
  }
  return RelationDecider::worst(K::label, parts);
}

std::optional<std::string> looks_like_of(const RelationDecider& decide, const View& v, const std::string& kind) {
  if (!kind.empty()) return std::nullopt;
  if (v.kind == ViewKind::ellipse) {  // axes within the visual band of each other
    if (decide.bands().decide(abs(v.ra - v.rb)) != Decision::fails) return "circle";
    return std::nullopt;
  }
  if (v.kind != ViewKind::polygon || (v.vertices.size() != 3 && v.vertices.size() != 4)) return std::nullopt;
  // Every angle within 3° of 90° (quadrilateral) or 60° (triangle), decided on cos² exactly
  // against rational bounds of cos²(87°), cos²(93°) = 0.0027390523… and cos²(57°), cos²(63°);
  // cos² in double first, exact only within 1e-9 of a bound.
  const auto& p = v.vertices;
  const std::size_t n = p.size();
  const Rational lo = n == 4 ? Rational(0) : Rational(20610737, 100000000);  // cos²63° ≈ 0.20610737
  const Rational hi = n == 4 ? Rational(27390523, 10000000000) : Rational(29663167, 100000000);  // cos²87°, cos²57°
  const double lo_d = lo.get_d(), hi_d = hi.get_d();
  for (std::size_t i = 0; i < n; ++i) {
    const D2 u_d = minus(v.vertices_d[(i + n - 1) % n], v.vertices_d[i]),
             w_d = minus(v.vertices_d[(i + 1) % n], v.vertices_d[i]);
    const double uu = dot(u_d, u_d), ww = dot(w_d, w_d);
    if (uu > 1e-12 && ww > 1e-12) {
      const double c = dot(u_d, w_d), cos2 = c * c / (uu * ww);
      const bool clear = std::abs(cos2 - lo_d) > 1e-9 && std::abs(cos2 - hi_d) > 1e-9 && std::abs(c) > 1e-9 * (uu + ww);
      if (clear && ((n == 3 && c < 0) || cos2 < lo_d || cos2 > hi_d)) return std::nullopt;
      if (clear) continue;
    }
    const Vec2 u = minus(p[(i + n - 1) % n], p[i]), w = minus(p[(i + 1) % n], p[i]);
    if (norm2(u) == 0 || norm2(w) == 0) return std::nullopt;
    const Rational c = dot(u, w), cos2 = c * c / (norm2(u) * norm2(w));
    if (n == 3 && c < 0) return std::nullopt;  // an obtuse angle
    if (cos2 < lo || cos2 > hi) return std::nullopt;
  }
  return std::string(n == 4 ? "rectangle" : "equilateral triangle");
}

}  // namespace geotruth::geometry::relations
