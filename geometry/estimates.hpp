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

/// Exact comparison of the angle at `vertex` between the rays to a and b with `degrees` (in
/// [0, 180]): −1, 0 or +1 as the angle is smaller, equal or larger. Exact where the boundary's
/// tangent is rational (0, 45, 90, 135, 180 degrees: the only rational degrees whose tangent is
/// rational, and an angle between rational vectors has a rational tangent, so it can equal no
/// other); elsewhere at 256-bit precision, where a difference cannot vanish.
int compare_angle_degrees(const Vec2& a, const Vec2& vertex, const Vec2& b, const Rational& degrees);

}  // namespace geotruth::geometry
