// The one decision model (docs/design.md "Bands"): does a fact hold, is it too close to call, or
// does it fail, at the precision of the data? Every module that decides takes a FrameBands;
// nothing else converts between frame units and pixels or picks a threshold.
#pragma once

#include <cstddef>
#include <geotruth/rational.hpp>
#include <geotruth/scene.hpp>
#include <optional>
#include <string>
#include <vector>

namespace geotruth {

/// What a slack means at the band in force: slack ≤ ε_num holds (within the input's own
/// noise), ε_num < slack < ε_vis is ambiguous (a person could not tell), slack ≥ ε_vis fails
/// clearly. For a predicate that "holds" this reads: holds / too close to call / clearly false.
enum class Decision { holds, ambiguous, fails };
const char* decision_name(Decision decision);

/// The residual evidence an `auto` band was estimated from: declared facts' residuals in
/// rendered pixels, kept as a histogram (constant memory whatever the dataset's size).
struct BandEvidence {
  static constexpr double kBinPx = 0.1;      ///< histogram bin width
  static constexpr std::size_t kBins = 600;  ///< 0 … 60 px; larger residuals go to the last bin
  std::vector<std::size_t> bins = std::vector<std::size_t>(kBins, 0);
  std::size_t count = 0;
  std::size_t exact = 0;  ///< residuals that are exactly 0 (exact data)

  void add(double residual_px);
  void merge(const BandEvidence& other);
  /// The q-quantile (0 ≤ q ≤ 1) of the residuals, to the histogram's bin width; 0 when empty.
  double quantile(double q) const;
};

/// The decision bands of a run, in pixels of the rendered image, and where they came from.
struct Bands {
  double eps_num_px = 0.5;
  double eps_vis_px = 3.0;
  /// Pixels of the frame's longer side in the rendered image; 0: the frame's own scale
  /// (Frame::px_per_unit) when it has one, else the frame's units are pixels, except frames under
  /// 64 units (GePBench's unit square), which are drawn at 640 px.
  double render_size_px = 0;
  /// "default", "dataset:<name>" (an importer's documented default), "auto" (estimated from the
  /// dataset's own residuals) or "option" (--eps-num / --eps-vis).
  std::string source = "default";
  std::string reason;  ///< one sentence: why this band
  /// The detachment band of traced arrows (AI2D): how far an arrow may stop short of the entity it
  /// joins as a matter of drawing style (gap ≤ gap_num_px holds, ≥ gap_vis_px clearly detached).
  /// 0: the band above. Set by `auto` from the dataset's own arrow gaps (estimate_gap_band).
  double gap_num_px = 0;
  double gap_vis_px = 0;
  std::string gap_reason;
  /// These bands with the detachment band in force, for deciding arrow gaps.
  Bands for_gaps() const;

  /// Pixels of the rendered image per frame unit, exactly as a rational.
  Rational pixels_per_unit(const Frame& frame) const;
};

/// The documented default band of a dataset ("geometry3k", "pgdp", "ai2d", "gepbench", …; ""
/// or unknown names give the global default). Hand-clicked annotations get wider bands than
/// exact synthetic scenes.
Bands dataset_bands(const std::string& dataset);

/// True for datasets whose positions are hand-clicked (their default is `auto`).
bool hand_annotated(const std::string& dataset);

/// The `auto` band: the robust scale σ̂ of the residuals (their median / 0.6745, the median of
/// a half-normal) sets ε_num = 2.5 σ̂ and ε_vis = 5 σ̂, each bounded below by `floor`. With fewer
/// than kMinResiduals residuals, or all of them 0 (exact data), the floor is kept and says why.
Bands estimate_bands(const BandEvidence& evidence, const Bands& floor);
inline constexpr std::size_t kMinResiduals = 20;
/// The detachment band from the dataset's arrow gaps (each traced arrow's distance to the two
/// entities its link names): their gaps are not noise about 0 but drawing styles (arrows that
/// touch, arrows that float 10–40 px between labels), so the band is read off their distribution:
/// gap_num = its 90th percentile (nine ends in ten stop short by no more: the styles), gap_vis =
/// twice that, each at least the band's own. Fewer than kMinResiduals gaps leave it unset.
void estimate_gap_band(const BandEvidence& gaps, Bands& bands);

/// Bands bound to one frame: converts between frame units and rendered pixels, and classifies
/// slack exactly (rational frame units) or as measured (pixels, for pictures).
class FrameBands {
 public:
  /// Keeps a reference to `bands`: they must outlive this object.
  FrameBands(const Bands& bands, const Frame& frame);

  const Bands& bands() const { return *bands_; }
  double px_per_unit() const { return px_per_unit_; }
  /// ε_num and ε_vis in this frame's pixels: the run's, or wider where the frame's coordinates
  /// are rounded (Frame::precision: ε_num at least 3/2 of the step, what rounding moves a point's
  /// distance to a line by; ε_vis that much above ε_num as the run's band is wide).
  double eps_num_px() const { return eps_num_px_; }
  double eps_vis_px() const { return eps_vis_px_; }
  /// ε_num and ε_vis in frame units, exact.
  const Rational& eps_num() const { return eps_num_; }
  const Rational& eps_vis() const { return eps_vis_; }
  const Rational& eps_num_squared() const { return eps_num2_; }
  /// How far one point may be off its place as the data gives it (frame units): ε_num, or where
  /// the coordinates are rounded at least 3/4 of the step (≥ step/√2). Estimates propagate it.
  const Rational& point_noise() const { return point_noise_; }
  const Rational& eps_vis_squared() const { return eps_vis2_; }

  /// A length in frame units as rendered pixels (for reporting).
  double to_px(const Rational& units) const;
  double to_px(double units) const { return units * px_per_unit_; }
  /// √(squared length) in rendered pixels (for reporting).
  double squared_to_px(const Rational& squared_units) const;
  /// A pixel length in frame units, exactly (the double converted bit for bit).
  Rational to_units(double px) const;

  /// Decides a slack given in frame units (≥ 0), exactly.
  Decision decide(const Rational& slack_units) const;
  /// Decides a slack given by its square in frame units, exactly.
  Decision decide_squared(const Rational& squared_slack_units) const;
  /// Decides from exact comparisons of the slack with ε_num and with ε_vis (each −1, 0, +1 as
  /// slack <, =, > the band edge): the form of predicates that compare without computing a root.
  static Decision decide(int versus_eps_num, int versus_eps_vis);
  /// Decides a slack measured in pixels (pictures, or a double estimate certified elsewhere).
  Decision decide_px(double slack_px) const;

  /// The filtered path of a predicate: decides a double estimate of a slack (frame units) known
  /// to within `error_units` when it is farther than that from both band edges; nullopt sends the
  /// caller to its exact path.
  std::optional<Decision> decide_filtered(double rough_units, double error_units) const;
  /// True when a double estimate of a slack (frame units) is beyond 4 ε_vis + 1 px: so far past
  /// the visual band that no rounding or first-order approximation can bring it back.
  bool clearly_fails(double rough_units) const;

 private:
  const Bands* bands_;
  double px_per_unit_ = 1;
  Rational eps_num_, eps_vis_, eps_num2_, eps_vis2_, units_per_px_, point_noise_;
  double eps_num_units_ = 0, eps_vis_units_ = 0;  // the band edges in frame units, for filters
  double eps_num_px_ = 0, eps_vis_px_ = 0;
};

}  // namespace geotruth
