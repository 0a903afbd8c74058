#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "vision/read/shapes.hpp"

namespace geotruth::vision::read {
namespace {

constexpr double kPi = 3.14159265358979323846;

Rational px(double v) {
  return Rational(static_cast<long>(std::llround(v * 100))) / 100;
}

double dist(P2 a, P2 b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}

struct Corner {
  P2 at;
  std::vector<std::pair<int, int>> ends;  // (piece, 0 start / 1 end)
};

// The point nearest the pieces' lines in least squares.
P2 meeting_point(const std::vector<Piece>& pieces, const Corner& c) {
  double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
  for (const auto& [i, end] : c.ends) {
    const Piece& p = pieces[i];
    const double nx = -p.dir.y, ny = p.dir.x, d = nx * p.origin.x + ny * p.origin.y;
    a11 += nx * nx, a12 += nx * ny, a22 += ny * ny, b1 += nx * d, b2 += ny * d;
  }
  const double det = a11 * a22 - a12 * a12;
  if (det < 1e-6) return c.at;
  const P2 x{(a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det};
  return dist(x, c.at) < 10 ? x : c.at;
}

}  // namespace

void add_shapes(const Sheet& sheet, const std::vector<Piece>& pieces, const std::vector<Round>& rounds,
                const std::vector<Oval>& ovals, double to_picture, Scene& scene) {
  const double merge = std::max(3.0, 2 * sheet.half + 2.5);
  auto vec = [&](P2 p) { return Vec2{px(p.x * to_picture), px(p.y * to_picture)}; };
  int next = 0;
  auto add = [&](std::string type, ShapeGeometry geometry) {
    Shape s;
    s.id = std::string(1, 's').append(std::to_string(++next));
    s.type = std::move(type);
    s.geometry = std::move(geometry);
    scene.shapes.push_back(std::move(s));
  };
  for (const Round& r : rounds)
    if (r.full) add("circle", EllipseShape{vec(r.centre), {px(r.radius * to_picture), px(r.radius * to_picture)}, 0});
  for (const Oval& o : ovals)
    add("ellipse", EllipseShape{vec(o.centre),
                                {px(o.a * to_picture), px(o.b * to_picture)},
                                Rational(static_cast<long>(std::llround(o.angle_deg * 10))) / 10});

  // Corners: ends of two or more pieces at one place.
  std::vector<Corner> corners;
  std::vector<std::array<int, 2>> corner_of(pieces.size(), {-1, -1});
  for (std::size_t i = 0; i < pieces.size(); ++i)
    for (int end = 0; end < 2; ++end) {
      const P2 e = end == 0 ? pieces[i].a() : pieces[i].b();
      int home = -1;
      for (std::size_t c = 0; c < corners.size() && home < 0; ++c)
        if (dist(corners[c].at, e) <= merge) home = static_cast<int>(c);
      if (home < 0) corners.push_back({e, {}}), home = static_cast<int>(corners.size()) - 1;
      corners[home].ends.push_back({static_cast<int>(i), end});
      corner_of[i][end] = home;
    }
  for (Corner& c : corners) c.at = meeting_point(pieces, c);
  // Sides: pieces between two corners where other pieces end too; pruned of dangling sides.
  std::vector<bool> side(pieces.size(), false);
  for (std::size_t i = 0; i < pieces.size(); ++i)
    side[i] = corner_of[i][0] != corner_of[i][1] && corners[corner_of[i][0]].ends.size() >= 2 &&
              corners[corner_of[i][1]].ends.size() >= 2;
  for (bool pruned = true; pruned;) {
    pruned = false;
    std::vector<int> degree(corners.size(), 0);
    for (std::size_t i = 0; i < pieces.size(); ++i)
      if (side[i]) ++degree[corner_of[i][0]], ++degree[corner_of[i][1]];
    for (std::size_t i = 0; i < pieces.size(); ++i)
      if (side[i] && (degree[corner_of[i][0]] < 2 || degree[corner_of[i][1]] < 2)) side[i] = false, pruned = true;
  }
  // Faces of the sides' graph: at each corner, leave by the next side clockwise from the one
  // arrived by. Per connected chain the largest face is its outside.
  struct Out {
    double angle;
    int piece, to;
  };
  std::vector<std::vector<Out>> around(corners.size());
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (!side[i]) continue;
    const int a = corner_of[i][0], b = corner_of[i][1];
    around[a].push_back(
        {std::atan2(corners[b].at.y - corners[a].at.y, corners[b].at.x - corners[a].at.x), static_cast<int>(i), b});
    around[b].push_back(
        {std::atan2(corners[a].at.y - corners[b].at.y, corners[a].at.x - corners[b].at.x), static_cast<int>(i), a});
  }
  for (auto& list : around)
    std::sort(list.begin(), list.end(), [](const Out& x, const Out& y) { return x.angle < y.angle; });
  std::map<std::pair<int, int>, bool> used;  // (corner, piece) left by
  struct Face {
    std::vector<int> corners;
    std::vector<int> pieces;
    double area;
  };
  std::vector<Face> faces;
  std::vector<int> component(corners.size(), -1);
  for (std::size_t start = 0; start < corners.size(); ++start)
    for (const Out& first : around[start]) {
      if (used[{static_cast<int>(start), first.piece}]) continue;
      Face face;
      int at = static_cast<int>(start);
      Out leave = first;
      for (std::size_t guard = 0; guard < 4 * pieces.size() + 4; ++guard) {
        used[{at, leave.piece}] = true;
        face.corners.push_back(at);
        face.pieces.push_back(leave.piece);
        const int from = at;
        at = leave.to;
        // The side back to `from` at `at`, and the one just before it in angular order.
        const auto& list = around[at];
        std::size_t k = 0;
        while (k < list.size() && !(list[k].piece == leave.piece && list[k].to == from)) ++k;
        leave = list[(k + list.size() - 1) % list.size()];
        if (at == static_cast<int>(start) && leave.piece == first.piece) break;
      }
      double area = 0;
      for (std::size_t k = 0; k < face.corners.size(); ++k) {
        const P2 p = corners[face.corners[k]].at, q = corners[face.corners[(k + 1) % face.corners.size()]].at;
        area += p.x * q.y - q.x * p.y;
      }
      face.area = area / 2;
      faces.push_back(std::move(face));
    }
  // Components (union of corners by sides), and each one's outside: its largest face.
  std::vector<int> parent(corners.size());
  std::iota(parent.begin(), parent.end(), 0);
  std::function<int(int)> find = [&](int x) { return parent[x] == x ? x : parent[x] = find(parent[x]); };
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (side[i]) parent[find(corner_of[i][0])] = find(corner_of[i][1]);
  std::map<int, std::size_t> outside;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const int c = find(faces[f].corners.front());
    if (!outside.count(c) || std::abs(faces[f].area) > std::abs(faces[outside[c]].area)) outside[c] = f;
  }
  std::vector<bool> in_polygon(pieces.size(), false);
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (outside[find(faces[f].corners.front())] == f) continue;
    // Corners where the outline goes straight on are not vertices.
    std::vector<P2> vertices;
    const auto& fc = faces[f].corners;
    for (std::size_t k = 0; k < fc.size(); ++k) {
      const P2 prev = corners[fc[(k + fc.size() - 1) % fc.size()]].at, at = corners[fc[k]].at,
               next_at = corners[fc[(k + 1) % fc.size()]].at;
      const double cross = (at.x - prev.x) * (next_at.y - at.y) - (at.y - prev.y) * (next_at.x - at.x);
      if (std::abs(cross) > std::sin(3 * kPi / 180) * dist(prev, at) * dist(at, next_at)) vertices.push_back(at);
    }
    if (vertices.size() < 3 || std::abs(faces[f].area) < 4 * merge * merge) continue;
    PolygonShape polygon;
    for (P2 v : vertices) polygon.points.push_back(vec(v));
    add("polygon", polygon);
    for (int i : faces[f].pieces) in_polygon[i] = true;
  }
  // Strokes in no polygon: segments, rays and lines by their ends at the picture's edge.
  const double edge = std::max(3.0, sheet.half + 2);
  auto at_edge = [&](P2 p) {
    return p.x <= edge || p.y <= edge || p.x >= sheet.width - edge || p.y >= sheet.height - edge;
  };
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (in_polygon[i]) continue;
    const P2 a = pieces[i].a(), b = pieces[i].b();
    const bool ea = at_edge(a), eb = at_edge(b);
    if (ea && eb)
      add("line", StraightShape{Extent::line, vec(a), vec(b)});
    else if (ea || eb)
      add("ray", StraightShape{Extent::ray, vec(ea ? b : a), vec(ea ? a : b)});
    else
      add("segment", StraightShape{Extent::segment, vec(a), vec(b)});
  }
}

}  // namespace geotruth::vision::read
