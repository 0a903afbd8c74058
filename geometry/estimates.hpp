// Estimates with options (VisOnlyQA): which option is nearest to a ratio of two lengths, a ratio
// of two areas, or an angle, and how far the points would have to move for another option to
// become the nearest. Decided exactly (rationals; CORE square roots; the angle against a boundary
// by its rational tangent or, where the boundary's tangent is irrational, at 256-bit MPFR
// precision, where no angle between rational vectors can tie); doubles only report.
#pragma once

#include <geotruth/bands.hpp>
#include <geotruth/scene.hpp>
#include <optional>
#include <vector>

namespace geotruth::geometry {

/// The option nearest to a measured value, and the runner-up across the nearest boundary.
struct EstimateChoice {
  std::size_t best = 0;  ///< index into the options
  /// The option on the other side of the boundary nearest the value (the one that becomes the
  /// nearest first when the points move); empty with a single option.
  std::optional<std::size_t> runner_up;
  bool tie = false;   ///< exactly halfway between best and runner-up (on the option's scale)
  double value = 0;   ///< the measure: the ratio, or the angle in degrees (reporting only)
  double margin = 0;  ///< how far the value is from that boundary on the option's scale (reporting)
  /// How far (frame units, double: reporting) the named points must move at least for the
  /// runner-up to become the nearest, and that distance decided exactly: `holds` within the data's
  /// own noise per point (FrameBands::point_noise: the runner-up is as near as the best within
  /// what the data allows), `ambiguous` below ε_vis, `fails` beyond.
  double slack_units = 0;
  Decision decision = Decision::fails;
};

/// X = |a b| / |c d|; the nearest option on a log scale (options > 0). A point moved by δ changes
/// a length by at most 2δ over its two ends, so the runner-up takes over once
/// δ ≥ | |ab| − B·|cd| | / (2 (1 + B)), B the boundary √(o_best · o_runner-up). Preconditions:
/// a ≠ b, c ≠ d, at least one option, every option > 0.
EstimateChoice length_ratio_choice(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d,
                                   const std::vector<Rational>& options, const FrameBands& bands);

/// X = area(P) / area(Q) of two simple polygons given by their corners in order (shoelace); the
/// nearest option on a log scale. A corner moved by δ changes its polygon's area by at most
/// δ·|next − previous| / 2, and two neighbours moved together by δ²/2 more: the runner-up takes
/// over once | A_P − B·A_Q | ≤ δ·(S_P + B·S_Q) + δ²·(n_P + B·n_Q)/2 (S: the sum of those
/// half-diagonals, n: the corners). Preconditions: both areas non-zero, options > 0.
EstimateChoice area_ratio_choice(const std::vector<Vec2>& p, const std::vector<Vec2>& q,
                                 const std::vector<Rational>& options, const FrameBands& bands);

/// The angle at `vertex` between the rays to `a` and `b`, in degrees in [0, 180]; the nearest
/// option on a linear scale (options in degrees). Moving a point by δ turns a ray of length ℓ by
/// at most δ/ℓ (both ends), so the runner-up takes over once δ ≥ |θ − β| / (2/|va| + 2/|vb|)
/// (radians), β the boundary (o_best + o_runner-up)/2. Preconditions: a ≠ vertex ≠ b.
EstimateChoice angle_choice(const Vec2& a, const Vec2& vertex, const Vec2& b, const std::vector<Rational>& options,
                            const FrameBands& bands);

/// The values for which a dataset gives an option, [low, high] in the measure's unit (degrees, or
/// the ratio): VisOnlyQA asks for an angle only when it lies within 5° of an option, for an area
/// ratio only when it lies within 0.8–1.2 of 1, 1.8–2.2 of 2, ….
struct OptionRange {
  Rational low, high;
};

/// The options whose ranges the measure may lie in: each range that holds it, and each that the
/// named points reach moving by up to the data's own noise each (FrameBands::point_noise: the
/// moves of the nearest-option rules above, against the range's nearer end), decided exactly.
struct RangeReach {
  std::vector<std::size_t> reachable;  ///< options whose range holds or is reached, the least move first
  std::vector<double> move_units;      ///< per option: the least move (frame units) into its range, 0 inside
};

/// The ranges X = |a b| / |c d| reaches (preconditions of length_ratio_choice; every bound > 0).
RangeReach length_ratio_ranges(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d,
                               const std::vector<OptionRange>& ranges, const FrameBands& bands);

/// The ranges X = area(P) / area(Q) reaches (preconditions of area_ratio_choice; every bound > 0).
RangeReach area_ratio_ranges(const std::vector<Vec2>& p, const std::vector<Vec2>& q,
                             const std::vector<OptionRange>& ranges, const FrameBands& bands);

/// The ranges the angle at `vertex` reaches, in degrees (preconditions of angle_choice).
RangeReach angle_ranges(const Vec2& a, const Vec2& vertex, const Vec2& b, const std::vector<OptionRange>& ranges,
                        const FrameBands& bands);

/// Exact comparison of the angle at `vertex` between the rays to a and b with `degrees` (in
/// [0, 180]): −1, 0 or +1 as the angle is smaller, equal or larger. Exact where the boundary's
/// tangent is rational (0, 45, 90, 135, 180 degrees: the only rational degrees whose tangent is
/// rational, and an angle between rational vectors has a rational tangent, so it can equal no
/// other); elsewhere at 256-bit precision, where a difference cannot vanish.
int compare_angle_degrees(const Vec2& a, const Vec2& vertex, const Vec2& b, const Rational& degrees);

}  // namespace geotruth::geometry
