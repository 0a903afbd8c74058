// The incidence structure of a figure: which points lie on which maximal drawn line or circle,
// where drawn lines cross, and where annotation and geometry disagree.
#pragma once

#include <cstddef>
#include <geotruth/bands.hpp>
#include <geotruth/findings.hpp>
#include <geotruth/scene.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace geotruth {

/// Where incidences come from (docs/counting.md).
enum class IncidenceMode {
  declared,   ///< only `through` lists; pieces are one line when they share two points
  geometric,  ///< only coordinates; collinear pieces that overlap or touch merge
  merged,     ///< declared facts, plus geometric ones where nothing is declared; disagreements listed
};

/// A point of the figure: a scene point, or an unlabelled crossing of two drawn lines.
struct Vertex {
  std::optional<std::size_t> point;  ///< index into Scene::points; empty for a crossing
  std::optional<Vec2> at;
  bool letter = false;  ///< a labelled scene point
};

/// A maximal drawn line: drawn straight pieces that are one line, merged.
struct MaximalLine {
  std::vector<std::size_t> pieces;            ///< indices into Scene::lines
  std::vector<std::size_t> vertices;          ///< indices into Incidence::vertices, in order along the line
  std::optional<std::pair<Vec2, Vec2>> ends;  ///< drawn extent, when coordinates are known
  std::string name;                           ///< "line A-B", by the points at its two ends
};

struct Incidence {
  IncidenceMode mode = IncidenceMode::merged;
  double px_per_unit = 1;        ///< rendered pixels per frame unit (for reporting)
  std::vector<Vertex> vertices;  ///< scene points first (same indices), then crossings
  std::vector<MaximalLine> lines;
  std::vector<std::vector<std::size_t>> circle_points;  ///< per Scene::circles: scene point indices on it
  std::vector<Finding> findings;                        ///< disagreements between declarations and positions
  /// Merged mode: ε_num² in frame units; three placed corners this close to one line (the smallest
  /// height of their triangle within ε_num) are not a triangle. 0: decide on the lines alone.
  Rational collinear_eps_squared = 0;
};

/// Builds the incidence structure of a scene's points, lines and circles. Never throws on
/// valid scenes; what cannot be decided (no coordinates) is listed in `findings`.
Incidence build_incidence(const Scene& scene, IncidenceMode mode, const Bands& bands = {});

const char* mode_name(IncidenceMode mode);

/// Adds the residuals of a scene's declared facts to `evidence`, in rendered pixels at `bands`'
/// scale: each point declared on a drawn line (its distance to the line through the piece's
/// ends), each point declared on a circle (its distance to the circle; when the radius comes
/// from the points themselves, the point that sets it is left out), and each drawn link end (its
/// distance to its entity's box). These are what `--bands auto` estimates a dataset's precision from.
/// Each traced arrow's gaps to the two entities its link names go to `evidence` and, when given,
/// to `arrow_gaps` as well (the detachment band's evidence).
void add_declared_residuals(const Scene& scene, const Bands& bands, BandEvidence& evidence,
                            BandEvidence* arrow_gaps = nullptr);

/// The `auto` band of a dataset, scene by scene: the declared facts' residuals give ε_num/ε_vis
/// (estimate_bands) and traced arrows' gaps the detachment band (estimate_gap_band). The one
/// estimator behind `--bands auto` and the Python package's Bands.estimate.
class BandEstimator {
 public:
  explicit BandEstimator(Bands floor) : floor_(std::move(floor)) {}
  void add(const Scene& scene) { add_declared_residuals(scene, floor_, evidence_, &arrow_gaps_); }
  Bands estimate() const {
    Bands bands = estimate_bands(evidence_, floor_);
    estimate_gap_band(arrow_gaps_, bands);
    return bands;
  }
  const BandEvidence& evidence() const { return evidence_; }

 private:
  Bands floor_;
  BandEvidence evidence_, arrow_gaps_;
};

}  // namespace geotruth
