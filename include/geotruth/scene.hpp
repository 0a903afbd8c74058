// The scene model: native format v1 (docs/format.md) as plain data, with exact numbers.
#pragma once

#include <array>
#include <cstddef>
#include <geotruth/rational.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace geotruth {

struct Vec2 {
  Rational x, y;
  friend bool operator==(const Vec2&, const Vec2&) = default;
};

enum class YAxis { down, up };
enum class Extent { segment, ray, line };
enum class Stroke { solid, dashed };

/// Canvas the coordinates live on. Slack in pixels is measured on it.
struct Frame {
  Rational width{640}, height{640};
  YAxis y = YAxis::down;
  /// Pixels of the dataset's picture per frame unit, when the picture is drawn at a scale of its
  /// own (VisOnlyQA's matplotlib figures); empty: Bands::pixels_per_unit's rule.
  std::optional<Rational> px_per_unit;
  /// The step the source rounded its coordinates to (VisOnlyQA prints them to 0.01): every
  /// position may be off by half of it in each axis, and the band is at least what that moves a
  /// point-to-line distance by (FrameBands). Empty: exact positions.
  std::optional<Rational> precision;
  friend bool operator==(const Frame&, const Frame&) = default;
};

/// A named point. `at` is absent for figures given without coordinates (line lists).
struct Point {
  std::string id;
  std::optional<Vec2> at;
  std::optional<Rational> z;  ///< solid geometry: depth of the point
  bool labelled = true;       ///< false: an unnamed crossing or helper point, not a letter
  std::string extra;          ///< free-form JSON kept verbatim (compact text), "" when absent
  friend bool operator==(const Point&, const Point&) = default;
};

/// A drawn straight piece through points in order; the first and last are its ends.
struct Line {
  std::string id;                    ///< optional
  std::vector<std::size_t> through;  ///< indices into Scene::points, at least two distinct
  Extent extent = Extent::segment;
  Stroke style = Stroke::solid;
  std::string extra;
  friend bool operator==(const Line&, const Line&) = default;
};

/// A point that facts name as a circle's centre although the drawn circle is centred elsewhere,
/// with the points those facts put on the circle.
struct ClaimedCentre {
  std::size_t point = 0;
  std::vector<std::size_t> through;
  friend bool operator==(const ClaimedCentre&, const ClaimedCentre&) = default;
};

/// A drawn full circle: a centre (point or coordinates) and a radius or points it passes.
struct Circle {
  std::string id;
  std::optional<std::size_t> center_point;     ///< index into Scene::points when named
  std::optional<Vec2> center;                  ///< coordinates (copied from the point when named)
  std::optional<Rational> radius;              ///< as declared
  std::vector<std::size_t> through;            ///< points declared on the circle
  std::vector<ClaimedCentre> claimed_centers;  ///< other centres a source names for it (wrong_centre)
  std::string quadrants = "1111";              ///< drawn quadrants (PGDP mask); "1111" is a full circle
  Stroke style = Stroke::solid;
  std::string extra;
  friend bool operator==(const Circle&, const Circle&) = default;
};

struct PolygonShape {
  std::vector<Vec2> points;  ///< at least 3
  friend bool operator==(const PolygonShape&, const PolygonShape&) = default;
};
/// Straight shape given by two points: a segment, a ray from a through b, or a full line.
struct StraightShape {
  Extent extent = Extent::segment;
  Vec2 a, b;
  friend bool operator==(const StraightShape&, const StraightShape&) = default;
};
/// Ellipse by centre, SEMI-axis lengths and rotation in degrees from +x toward +y.
struct EllipseShape {
  Vec2 center;
  std::array<Rational, 2> axes;
  Rational rotation_deg{0};
  friend bool operator==(const EllipseShape&, const EllipseShape&) = default;
};
/// Circular sector, angles in degrees counter-clockwise (toward +y); may wrap past 360.
struct SectorShape {
  Vec2 center;
  Rational radius, start_deg, end_deg;
  friend bool operator==(const SectorShape&, const SectorShape&) = default;
};
struct StarShape {
  Vec2 center;
  Rational outer_radius, inner_radius;
  int num_points = 5;
  Rational rotation_deg{0};
  friend bool operator==(const StarShape&, const StarShape&) = default;
};
/// r(θ) = a + (b + ε·sin(ωθ + φ))·θ for θ in [0, max_theta], θ in radians.
struct SpiralShape {
  Vec2 center;
  Rational initial_radius, growth_rate, sin_eps{0}, sin_omega{0}, sin_phi{0}, max_theta;
  friend bool operator==(const SpiralShape&, const SpiralShape&) = default;
};

using ShapeGeometry = std::variant<PolygonShape, StraightShape, EllipseShape, SectorShape, StarShape, SpiralShape>;

/// A GePBench-style shape with coordinates of its own.
struct Shape {
  std::string id;
  std::string type;  ///< polygon, segment, ray, line, ellipse, circle, sector, star, spiral
  std::string kind;  ///< declared label ("rectangle", "regular pentagon", ...), "" if none
  ShapeGeometry geometry;
  /// How the dataset's own picture draws the shape, when its source draws it unlike its definition
  /// (GePBench's engine draws spirals without their sine term): the truth stays `geometry`.
  std::optional<ShapeGeometry> drawn;
  Stroke style = Stroke::solid;
  std::string extra;
  friend bool operator==(const Shape&, const Shape&) = default;
};

/// A declared (annotated) fact between two elements, to be audited, not trusted.
struct Relation {
  std::string type;
  std::array<std::string, 2> between;
  std::string extra;
  friend bool operator==(const Relation&, const Relation&) = default;
};

/// A text box that names an entity drawn elsewhere (AI2D: a text joined to its blob by
/// intraObjectLabel). The entity and its labels are one thing: one name, several pieces of geometry.
struct EntityLabel {
  std::string id, text;
  std::array<Rational, 4> box;  ///< x0, y0, x1, y1
  friend bool operator==(const EntityLabel&, const EntityLabel&) = default;
};

enum class EntityKind { text, icon };
struct Entity {
  std::string id, text;
  EntityKind kind = EntityKind::text;
  std::array<Rational, 4> box;  ///< x0, y0, x1, y1 with x0 < x1, y0 < y1; a polygon's bounding box
  std::vector<Vec2> polygon;    ///< the drawn outline, as written; empty: the box is the outline
  std::vector<EntityLabel> labels;
  std::vector<std::string> tags;
  std::string extra;
  friend bool operator==(const Entity&, const Entity&) = default;
};

enum class LinkKind { arrow, line, wire };
struct Link {
  std::string id;
  std::string from, to;  ///< entity ids
  bool directed = true;
  LinkKind kind = LinkKind::arrow;
  std::vector<Vec2> path;           ///< drawn polyline, empty if not drawn
  std::vector<std::string> arrows;  ///< the drawn arrows (Scene::arrows ids) that carry it
  std::vector<std::string> merged;  ///< ids of further source relations this link stands for
  std::string extra;
  friend bool operator==(const Link&, const Link&) = default;
};

/// A drawn connector given by its outline (AI2D arrow: shaft and head together, or a bent wire).
struct Arrow {
  std::string id;
  std::vector<Vec2> polygon;  ///< at least 2 points, as written
  std::string extra;
  friend bool operator==(const Arrow&, const Arrow&) = default;
};

/// An arrowhead: its box, the way it points and the arrow it belongs to.
struct ArrowHead {
  std::string id;
  std::array<Rational, 4> box;  ///< x0, y0, x1, y1
  std::optional<Rational>
      orientation;    ///< degrees from +x toward +y (0 right, 90 down in y-down frames); none: unknown
  std::string arrow;  ///< id in Scene::arrows, "" when no arrow claims it
  std::string extra;
  friend bool operator==(const ArrowHead&, const ArrowHead&) = default;
};

/// A named closed boundary (a layer of a planet, a cell wall): a circle or a polygon.
struct Layer {
  std::string id, text;
  std::optional<Vec2> center;  ///< circle: centre and radius
  Rational radius{0};
  std::vector<Vec2> points;  ///< polygon: at least 3 vertices
  std::string extra;
  friend bool operator==(const Layer&, const Layer&) = default;
};

/// Rows × columns over the frame, for "which label is in the top row" questions.
struct Grid {
  int rows = 3, columns = 3;
  friend bool operator==(const Grid&, const Grid&) = default;
};

/// Which way food-web arrows point: from prey to predator (energy flow, the default) or back.
enum class FoodArrows { to_predator, to_prey };

/// A question about the scene (docs/questions.md vocabulary). Parameters not used by a kind stay empty.
struct Question {
  std::string id, ask, of;
  std::vector<std::string> options;
  std::string answer;  ///< option letter "A".."D", or the value itself when there are no options
  std::vector<std::string> between;
  /// Named figures (VisOnlyQA): the points a question names, in order — a triangle's or
  /// quadrilateral's corners in their cyclic order, a segment's two ends, an angle's three points
  /// with the vertex in the middle. `versus`: the second figure of a ratio (length or area).
  std::vector<std::string> vertices, versus;
  /// Estimates: each option's range of values, as the dataset built its answers: [low, high] in the
  /// options' unit (VisOnlyQA asks for an angle only within 5° of an option). The truth is the
  /// option whose range the measure lies in, within the data's precision; empty: the nearest option.
  std::vector<std::array<std::string, 2>> option_ranges;
  std::string anchor, relative_to, measure, criterion, value, touching, connected_to, relation, row, column;
  bool absent = false, connected_pair = false;
  std::string text;           ///< the question as the dataset wrote it (empty for native items)
  std::string template_name;  ///< the dataset's template it matched ("template" in JSON), for per-template counts
  std::string extra;
  friend bool operator==(const Question&, const Question&) = default;
};

struct Scene {
  std::string id;
  Frame frame;
  std::vector<Point> points;
  std::vector<Line> lines;
  std::vector<Circle> circles;
  std::vector<Shape> shapes;
  std::vector<Relation> relations;
  std::vector<Entity> entities;
  std::vector<Link> links;
  std::vector<Arrow> arrows;
  std::vector<ArrowHead> arrow_heads;
  std::vector<Layer> layers;
  std::optional<Grid> grid;
  FoodArrows food_arrows = FoodArrows::to_predator;
  std::string domain;  ///< what the diagram shows: food_web, life_cycle, circuit, other; "" unknown
  std::vector<Question> questions;
  std::string extra;
  friend bool operator==(const Scene&, const Scene&) = default;
};

/// Squared radius of a circle, exact: radius² when declared, else the lower median of
/// |P − center|² over its `through` points with coordinates; empty when neither is known.
std::optional<Rational> radius_squared(const Scene& scene, const Circle& circle);

/// Why the scene's description may leave out drawn elements of one kind ("circles"): the reason its
/// importer wrote in extra.unlisted.<kind> for a source known to drop them (VisOnlyQA's texts keep
/// one circle at most), or "" when the description lists every one the picture draws.
std::string unlisted_reason(const Scene& scene, const std::string& kind);

/// Why the picture may not show elements of one kind ("letters") that the scene's description
/// names: the reason its importer wrote in extra.unshown.<kind> (Geometry3K's annotators name
/// every point, lettered in the picture or not), or "" when the picture shows every one.
std::string unshown_reason(const Scene& scene, const std::string& kind);

/// The smallest box [x0, y0, x1, y1] holding the points (at least one), exact.
std::array<Rational, 4> bounding_box(const std::vector<Vec2>& points);

}  // namespace geotruth
