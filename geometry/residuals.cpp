// The residuals of declared facts: how far the annotator's positions are from what they declare.
#include <geotruth/incidence.hpp>

#include <map>

#include "geometry/outlines.hpp"
#include "geometry/predicates.hpp"

namespace geotruth {

namespace {

// Each arrow's gap to the two entities its link names: how far the annotators' arrows stop short.
void add_arrow_gaps(const Scene& scene, const FrameBands& bands, BandEvidence& evidence, BandEvidence* arrow_gaps) {
  using namespace geometry;
  std::map<std::string, const Arrow*> arrows;
  for (const auto& a : scene.arrows) arrows[a.id] = &a;
  std::map<std::string, const Entity*> entities;
  for (const auto& e : scene.entities) entities[e.id] = &e;
  for (const Link& link : scene.links) {
    if (link.arrows.empty()) continue;
    std::vector<Outline> drawn;
    for (const auto& id : link.arrows) drawn.push_back(arrows.at(id)->polygon);
    for (const std::string* end : {&link.from, &link.to}) {
      const double gap = bands.squared_to_px(squared_distance_between(drawn, entity_outlines(*entities.at(*end))));
      evidence.add(gap);
      if (arrow_gaps) arrow_gaps->add(gap);
    }
  }
}

}  // namespace

void add_declared_residuals(const Scene& scene, const Bands& band_settings, BandEvidence& evidence,
                            BandEvidence* arrow_gaps) {
  using namespace geometry;
  const FrameBands bands(band_settings, scene.frame);
  for (const Line& line : scene.lines) {
    const auto& a = scene.points[line.through.front()].at;
    const auto& b = scene.points[line.through.back()].at;
    if (!a || !b || *a == *b) continue;
    for (std::size_t k = 1; k + 1 < line.through.size(); ++k)
      if (const auto& p = scene.points[line.through[k]].at)
        evidence.add(bands.squared_to_px(squared_distance_to_line(*p, *a, *b)));
  }
  for (const Circle& circle : scene.circles) {
    const auto r2 = radius_squared(scene, circle);
    if (!circle.center || !r2 || *r2 == 0) continue;
    bool radius_point_skipped = circle.radius.has_value();
    for (auto i : circle.through) {
      const auto& p = scene.points[i].at;
      if (!p) continue;
      const Rational dx = p->x - circle.center->x, dy = p->y - circle.center->y;
      if (!radius_point_skipped && dx * dx + dy * dy == *r2) {
        radius_point_skipped = true;  // its residual is 0 by construction
        continue;
      }
      evidence.add(bands.to_px(circle_gap(*p, *circle.center, *r2)));
    }
  }
  add_arrow_gaps(scene, bands, evidence, arrow_gaps);
  for (const Link& link : scene.links) {
    if (link.path.size() < 2) continue;
    for (const auto& [end, entity] :
         {std::pair{&link.path.front(), &link.from}, std::pair{&link.path.back(), &link.to}})
      for (const Entity& e : scene.entities)
        if (e.id == *entity) evidence.add(bands.squared_to_px(squared_distance_to_box(*end, e.box)));
  }
}

}  // namespace geotruth
