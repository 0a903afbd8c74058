#include <algorithm>
#include <cmath>
#include <geotruth/diagram_findings.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/work_limit.hpp>

#include "geometry/arrow_audit.hpp"
#include "geometry/predicates.hpp"

namespace geotruth {

std::vector<Finding> diagram_findings(const Scene& scene, const Bands& band_settings) {
  using namespace geometry;
  std::vector<Finding> out;
  const FrameBands bands(band_settings, scene.frame);
  auto box_of = [&](const std::string& id) -> const Box* {
    for (const auto& e : scene.entities)
      if (e.id == id) return &e.box;
    return nullptr;
  };
  for (const Link& link : scene.links) {
    if (link.path.size() < 2) continue;
    for (std::size_t k = 0; k + 1 < link.path.size(); ++k)
      for (const Entity& e : scene.entities) {
        charge_work();
        if (e.id == link.from || e.id == link.to) continue;
        if (segment_enters_box(link.path[k], link.path[k + 1], e.box))
          out.push_back(make_finding(FindingKind::link_crosses_entity, {link_name(link), e.id},
                                     "the link's path runs through " + e.id));
      }
    const std::pair<const Vec2*, const std::string*> ends[] = {{&link.path.front(), &link.from},
                                                               {&link.path.back(), &link.to}};
    for (const auto& [point, entity] : ends) {
      const Rational d2 = squared_distance_to_box(*point, *box_of(*entity));
      if (const Decision decision = bands.decide_squared(d2); decision != Decision::holds)
        out.push_back(make_finding(FindingKind::link_detached, {link_name(link), *entity},
                                   "the link ends away from " + *entity + "'s box", bands.squared_to_px(d2), decision));
    }
  }
  std::vector<LinkDoubt> doubts;
  arrow_audit(scene, band_settings, out, doubts);
  // Outlines drawn by hand (AI2D blobs) overlap freely; boxes laid out as boxes should not.
  for (std::size_t i = 0; i < scene.entities.size(); ++i)
    for (std::size_t j = i + 1; j < scene.entities.size(); ++j) {
      charge_work();
      if (!scene.entities[i].polygon.empty() || !scene.entities[j].polygon.empty()) continue;
      const auto& a = scene.entities[i].box;
      const auto& b = scene.entities[j].box;
      const Rational ox = std::min(a[2], b[2]) - std::max(a[0], b[0]);
      const Rational oy = std::min(a[3], b[3]) - std::max(a[1], b[1]);
      if (ox > 0 && oy > 0)
        out.push_back(make_finding(FindingKind::overlapping_entities, {scene.entities[i].id, scene.entities[j].id},
                                   "the boxes overlap", bands.to_px(std::min(ox, oy))));
    }
  for (std::size_t i = 0; i < scene.links.size(); ++i)
    for (std::size_t j = i + 1; j < scene.links.size(); ++j) {
      charge_work(scene.links[i].path.size() * scene.links[j].path.size());
      const Link& a = scene.links[i];
      const Link& b = scene.links[j];
      bool crossing = false;
      for (std::size_t s = 0; s + 1 < a.path.size() && !crossing; ++s)
        for (std::size_t t = 0; t + 1 < b.path.size() && !crossing; ++t) {
          if (a.path[s] == a.path[s + 1] || b.path[t] == b.path[t + 1]) continue;  // a repeated point: no piece
          const auto x = segment_crossing(a.path[s], a.path[s + 1], b.path[t], b.path[t + 1]);
          // Links that meet at a shared entity's end are not crossing.
          crossing = x && *x != a.path.front() && *x != a.path.back() && *x != b.path.front() && *x != b.path.back();
        }
      if (crossing)
        out.push_back(
            make_finding(FindingKind::links_cross, {link_name(a), link_name(b)}, "the two links' paths cross"));
    }
  return out;
}

}  // namespace geotruth
