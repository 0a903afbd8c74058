// Builds a native Scene from named points, two-ended pieces and circles, as importers find them.
#pragma once

#include <geotruth/import.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace geotruth::import {

class FigureBuilder {
 public:
  explicit FigureBuilder(std::string id);

  /// Room for n points (their positions are not moved as more are added).
  void reserve_points(std::size_t n) { scene_.points.reserve(n); }
  /// Adds a point; a second point with the same name is noted and ignored.
  void add_point(std::string_view name, std::optional<Vec2> at, bool labelled = true);
  bool has_point(std::string_view name) const { return index_.find(name) != index_.end(); }
  /// The length of the longest point name (a name split into two needs at most twice it).
  std::size_t longest_point_name() const { return longest_name_; }

  /// The piece with ends a and b (known points, either order), created on first use. Empty for
  /// a == b.
  std::optional<std::size_t> piece(std::string_view a, std::string_view b);
  /// Declares the known point p on the piece between its ends.
  void on_piece(std::size_t piece, std::string_view p);
  /// The circle centred at `center` named `radius` by the source ("radius_3_0" in Geometry3K;
  /// "" when unnamed), created on first use. Circles with one centre and different radius names
  /// are different circles (concentric); an unnamed one is claimed by the first named one.
  std::size_t circle(std::string_view center, std::string_view radius = "");
  /// Whether `name` names a circle's centre: a known point, or (Geometry3K's IMP re-annotation)
  /// a known point followed by an index, "A0" and "A1" for two concentric circles about A. The
  /// first time an indexed name is read so, an `indexed_centre` note says so.
  bool has_centre(std::string_view name);
  std::size_t circle_at(Vec2 center, Rational radius, std::string quadrants);
  /// Gives a circle its drawn radius and quadrant mask.
  void draw_circle(std::size_t circle, Rational radius, std::string quadrants);
  void on_circle(std::size_t circle, std::string_view p);
  /// Circles follow the drawn ones (`drawn`: the circles the source annotates as drawn, by
  /// centre). A circle only facts name, centred where no drawn circle is, whose points fit a
  /// drawn circle better than their named centre (by the spread of their squared distances), is
  /// that drawn circle: its points move there and the named centre becomes a claimed centre
  /// (audited as wrong_centre). A drawn circle no fact names, whose centre is declared on such a
  /// fact circle, is that circle, its annotated centre claimed the other way. A circle only facts
  /// name, about the centre of exactly one drawn circle, with no placed point to give it a radius
  /// (another radius name for the drawn circle, or a concentric one nothing places) is read as the
  /// drawn circle: a guess, noted (`unplaced_circle`).
  ///
  /// Every circle left without a radius and without a placed point (nothing places it) is noted
  /// at finish() (`unplaced_circle`).
  void reconcile_centres(const std::vector<std::size_t>& drawn);

  void note(std::string kind, std::string detail) { notes_.push_back({std::move(kind), std::move(detail)}); }
  void set_frame(Frame frame) { frame_ = std::move(frame); }
  /// The figure's pointer in its source file: validation errors are reported there.
  void set_origin(std::string source_pointer) { origin_ = std::move(source_pointer); }

  /// The scene: inner points of each piece ordered along it (exactly, by coordinates when all
  /// are known; else in the order declared), frame from the points when not set.
  ImportedScene finish();

 private:
  struct PieceDraft {
    std::size_t a, b;                // its ends (scene points)
    std::vector<std::size_t> inner;  // points declared on it, in the order declared
  };
  std::size_t index_of(std::string_view known_point) const;
  Scene scene_;
  std::optional<Frame> frame_;
  struct NameHash {
    using is_transparent = void;  // looked up by string views
    std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> index_;  // point name → index
  std::size_t longest_name_ = 0;
  std::vector<PieceDraft> pieces_;
  /// The point an indexed centre name stands for ("A0" → "A"), or the name itself.
  std::string_view centre_point(std::string_view name) const;
  std::vector<std::string>
      circle_centres_;                     // the source's centre names ("A", "A0"); "" for circles given by coordinates
  std::vector<std::string> circle_radii_;  // the source's radius names, "" when unnamed
  std::vector<std::vector<std::string>> circle_points_;
  std::vector<ImportNote> notes_;
  std::unordered_map<std::string, std::string, NameHash, std::equal_to<>> indexed_centres_;  // "A0" → "A"
  std::string origin_;
};

}  // namespace geotruth::import
