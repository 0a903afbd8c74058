// Many straight extents at once, for the incidence builder: which pairs may be one line, where
// pairs cross, and the order of points along a line. Filtered like CGAL's own kernels: certified
// interval enclosures decide what they can, exact rationals decide the rest and construct every
// point, so every answer is exact. A sweep over the extents' boxes keeps pairs that cannot meet
// out of the work (quadratic only when most pairs do meet, as random chords do).
#pragma once

#include <geotruth/scene.hpp>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace geotruth::geometry {

/// A straight extent by its two end points, which live elsewhere.
using EndPoints = std::pair<const Vec2*, const Vec2*>;

/// One exact point where two extents meet.
struct SegmentCrossing {
  std::size_t first, second;  ///< indices into the set, first < second
  Vec2 at;
};

class SegmentSet {
 public:
  /// Closed segments [a, b] with a ≠ b; an empty entry is no segment (paired with nothing). The
  /// pointed-to points must outlive the set.
  explicit SegmentSet(const std::vector<std::optional<EndPoints>>& segments);
  ~SegmentSet();

  /// The pairs (i < j, in increasing order) that may lie on one line within √r2 and touch within
  /// √r2: every pair that does is among them (boxes apart by more than √r2, or an end of the
  /// shorter clearly farther than √r2 from the other's line, are left out). Charges one unit of
  /// work per pair of overlapping boxes.
  std::vector<std::pair<std::size_t, std::size_t>> maybe_collinear_pairs(const Rational& r2) const;

  /// Every pair (i < j, in increasing order) whose closed segments meet in exactly one point, with
  /// that point (as segment_crossing gives it). Charges one unit of work per pair of overlapping boxes.
  std::vector<SegmentCrossing> crossings() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct GridPoint;  // a point on a common decimal grid (segments.cpp)

/// How far a set of points strays from one line (PlacedPoints::spread): the two farthest apart and
/// the point farthest off the line through them. Its own distance is computed exactly only when
/// asked for.
class Spread {
 public:
  std::size_t first = 0, second = 0;  ///< positions in the index list asked about: the extremes
  std::size_t worst = 0;              ///< the point farthest off their line (0 when none is off)

  /// The sign of (squared distance of `worst` to the line) − r2.
  int compare_off(const Rational& r2) const;
  /// Whether this set strays strictly less than `other`.
  bool less_off(const Spread& other) const;
  /// Whether some point is off the line (exactly).
  bool has_off() const;
  /// The squared distance of `worst` to the line (0 when none is off).
  const Rational& squared_off() const;

 private:
  friend class PlacedPoints;
  const Vec2 *a_ = nullptr, *b_ = nullptr, *off_ = nullptr;  // the line's ends, the farthest point off it
  double low_ = 0, high_ = 0;                                // an enclosure of its squared distance
  // The same points on PlacedPoints' common grid, when they are on one: spreads of one grid are
  // ordered exactly in integers there.
  const std::vector<GridPoint>* grid_ = nullptr;
  const GridPoint *grid_a_ = nullptr, *grid_b_ = nullptr, *grid_off_ = nullptr;
  mutable std::optional<Rational> exact_;
};

/// Points converted once (interval enclosures of their coordinates) for many filtered queries
/// about subsets of them: exact rationals only where the intervals cannot decide. The pointed-to
/// points must outlive this object and every Spread it gives, and so must this object.
class PlacedPoints {
 public:
  explicit PlacedPoints(std::vector<const Vec2*> points);  ///< null: a point without a position
  ~PlacedPoints();

  /// The points `indices` (placed ones only; at least three, else nothing is off) as one line:
  /// the two farthest apart by two farthest-point sweeps (from the first index, then from the
  /// point found: linear, and the farthest pair of a set that is nearly straight), and the point
  /// farthest from the line through them. Ties go to the earlier index.
  Spread spread(const std::vector<std::size_t>& indices) const;

  /// Sorts `indices` (placed points) by their position along the direction a → b (exact
  /// projection; equal positions keep their order). Precondition: a ≠ b.
  void sort_along(const Vec2& a, const Vec2& b, std::vector<std::size_t>& indices) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// PlacedPoints(points).sort_along(a, b, indices), for a one-off order.
void sort_along(const std::vector<const Vec2*>& points, const Vec2& a, const Vec2& b,
                std::vector<std::size_t>& indices);

}  // namespace geotruth::geometry
