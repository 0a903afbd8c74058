// Tangencies and near-touches (docs/vision.md): where the scene's circles meet each other or a
// straight stroke, the gap between their strokes measured in the picture against geometry's exact
// decision on the scene's own gap.
#include "vision/crosscheck/checker.hpp"

#include <algorithm>

#include "geometry/predicates.hpp"

namespace geotruth::vision::check {

// --- tangencies and near-tangencies: the gap between two strokes in the image -----------
// Background between the two strokes along the line through their closest points p and q
// (direction u): the stroke nearest p and the stroke nearest q are found on the darkness
// profile (ink: half the fainter stroke's contrast), and the paper between them measured; 0 when
// they are one merged stroke. Strokes of other elements further along do not count.
double Checker::image_gap(P2 p, P2 q, P2 u, double level) const {
  const double step = 0.25, reach = dist(p, q) / 2 + stroke_ + 3;
  const P2 m = midpoint(p, q);
  std::vector<bool> ink;
  for (double t = -reach; t <= reach; t += step)
    ink.push_back(darkness_at(paper_, {m.x + t * u.x, m.y + t * u.y}) >= level);
  auto index_of = [&](P2 x) {
    const double t = (x.x - m.x) * u.x + (x.y - m.y) * u.y;
    return std::clamp(static_cast<long>(std::lround((t + reach) / step)), 0L, static_cast<long>(ink.size()) - 1);
  };
  auto nearest_ink = [&](long i) -> long {
    for (long d = 0; d < static_cast<long>(ink.size()); ++d) {
      if (i - d >= 0 && ink[i - d]) return i - d;
      if (i + d < static_cast<long>(ink.size()) && ink[i + d]) return i + d;
    }
    return -1;
  };
  long a = nearest_ink(index_of(p)), b = nearest_ink(index_of(q));
  if (a < 0 || b < 0) return dist(p, q);  // no ink at all: not drawn here
  if (a > b) std::swap(a, b);
  while (a < b && ink[a + 1]) ++a;  // the end of p's stroke
  while (b > a && ink[b - 1]) --b;  // the start of q's stroke
  return b > a ? (b - a - 1) * step : 0;
}

// `scene` is geometry's exact decision on the scene's own gap; the picture is measured here.
void Checker::judge_gap(std::size_t i, std::size_t j, const std::string& a, const std::string& b,
                        const geometry::GapDecision& scene, P2 p, P2 q, P2 u) {
  const double contrast = std::min(evidence_[i].trace.contrast, evidence_[j].trace.contrast);
  const double level = std::max(paper_.ink_level, 0.5 * contrast);
  const double symbolic = scene.slack_px, measured = image_gap(p, q, u, level);
  out_.gaps.push_back({{a, b}, symbolic, measured});
  const P2 m = midpoint(p, q);
  const Decision scene_gap = scene.decision;
  if (scene_gap != Decision::holds && measured == 0)
    add(FindingKind::pixel_ambiguous, {a, b},
        a + " and " + b + " are " + fixed(symbolic, 2) + " px apart in the scene but their strokes merge in the image",
        symbolic, {m});
  // A sketchy stroke strays from its place by up to the wobble: a gap within it is its wobble.
  else if (scene_gap == Decision::holds && measured >= std::max(1.0, out_.picture.wobble_px))
    add(FindingKind::pixel_disagreement, {a, b},
        a + " and " + b + " touch in the scene but are " + fixed(measured) + " px apart in the image", measured, {m});
}

// The curve index of a straight piece (the stroke it belongs to).
std::size_t Checker::curve_of_straight(std::size_t s) const {
  for (std::size_t i = 0; i < fig_.curves.size(); ++i)
    if (std::count(fig_.curves[i].straights.begin(), fig_.curves[i].straights.end(), s)) return i;
  return 0;
}

void Checker::measure_gaps() {
  const double band = 2 * stroke_ + 3;
  std::vector<std::size_t> rounds;
  for (std::size_t i = 0; i < fig_.curves.size(); ++i)
    if (fig_.curves[i].model == Curve::Model::circle && !evidence_[i].hidden) rounds.push_back(i);
  auto on_stroke = [&](const Curve& c, P2 p) { return c.full || distance_to_path(p, c.path, false) <= 1; };
  for (std::size_t x = 0; x < rounds.size(); ++x) {
    const Curve& c1 = fig_.curves[rounds[x]];
    for (std::size_t y = x + 1; y < rounds.size(); ++y) {
      const Curve& c2 = fig_.curves[rounds[y]];
      if (c1.element == c2.element) continue;
      const double d = dist(c1.center, c2.center);
      if (d == 0) continue;
      const double external = std::abs(d - c1.a - c2.a), internal = std::abs(d - std::abs(c1.a - c2.a));
      if (std::min(external, internal) > band) continue;
      const P2 u{(c2.center.x - c1.center.x) / d, (c2.center.y - c1.center.y) / d};
      P2 p, q;
      if (external <= internal) {
        p = {c1.center.x + c1.a * u.x, c1.center.y + c1.a * u.y},
        q = {c2.center.x - c2.a * u.x, c2.center.y - c2.a * u.y};
      } else {
        const double s = c1.a >= c2.a ? 1 : -1;  // the direction from the bigger centre to the smaller
        p = {c1.center.x + s * c1.a * u.x, c1.center.y + s * c1.a * u.y},
        q = {c2.center.x + s * c2.a * u.x, c2.center.y + s * c2.a * u.y};
      }
      if (on_stroke(c1, p) && on_stroke(c2, q) && c1.exact_center && c2.exact_center)
        judge_gap(
            rounds[x], rounds[y], c1.element, c2.element,
            geometry::circle_circle_gap(*c1.exact_center, c1.exact_radius2, *c2.exact_center, c2.exact_radius2, bands_),
            p, q, u);
    }
    for (std::size_t s = 0; s < fig_.straights.size(); ++s) {
      const Straight& st = fig_.straights[s];
      if (st.element == c1.element || hidden_straight(s)) continue;
      const double len = dist(st.a, st.b);
      if (len == 0) continue;
      const double t =
          ((c1.center.x - st.a.x) * (st.b.x - st.a.x) + (c1.center.y - st.a.y) * (st.b.y - st.a.y)) / (len * len);
      if (t < 0 || t > 1) continue;
      const P2 foot{st.a.x + t * (st.b.x - st.a.x), st.a.y + t * (st.b.y - st.a.y)};
      const double d = dist(foot, c1.center);
      if (d == 0 || std::abs(d - c1.a) > band) continue;
      const P2 p{c1.center.x + (foot.x - c1.center.x) * c1.a / d, c1.center.y + (foot.y - c1.center.y) * c1.a / d};
      if (on_stroke(c1, p) && c1.exact_center)
        judge_gap(rounds[x], curve_of_straight(s), c1.element, st.element,
                  geometry::circle_segment_gap(*c1.exact_center, c1.exact_radius2, st.exact_a, st.exact_b, bands_), p,
                  foot, {(foot.x - c1.center.x) / d, (foot.y - c1.center.y) / d});
    }
  }
}

}  // namespace geotruth::vision::check
