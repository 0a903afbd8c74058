// Native format v1: round trips, every validation error with its pointer, and the limits.
#include <gtest/gtest.h>

#include <geotruth/input.hpp>

#include "core/exact_json.hpp"

using namespace geotruth;

namespace {

Scene read_ok(std::string_view text) {
  auto result = read_scene(text);
  if (auto* error = std::get_if<InputError>(&result)) {
    ADD_FAILURE() << "unexpected error at " << error->pointer << ": " << error->message;
    return {};
  }
  return std::get<Scene>(result);
}

InputError read_bad(std::string_view text, const Limits& limits = {}) {
  auto result = read_scene(text, limits);
  if (!std::holds_alternative<InputError>(result)) {
    ADD_FAILURE() << "accepted: " << text;
    return {};
  }
  return std::get<InputError>(result);
}

#define EXPECT_INPUT_ERROR(text, expected_pointer, message_part)                              \
  do {                                                                                        \
    const InputError e_ = read_bad(text);                                                     \
    EXPECT_EQ(e_.pointer, expected_pointer) << e_.message;                                    \
    EXPECT_NE(e_.message.find(message_part), std::string::npos) << "message: " << e_.message; \
  } while (0)

constexpr const char* kTriangleInCircle = R"({
  "id": "tri-in-circle",
  "frame": {"width": 640, "height": 640, "y": "down"},
  "points": [{"id": "A", "at": [320, 120]}, {"id": "B", "at": ["1/3", 0.1]},
             {"id": "C", "at": [440, 380]}, {"id": "O", "at": [320, "700/3"], "label": true},
             {"id": "X1", "at": [10, 10, 5], "label": false}],
  "lines": [{"through": ["A", "B"]}, {"through": ["B", "C"], "style": "dashed"},
            {"id": "ray1", "through": ["C", "A"], "extent": "ray"}],
  "circles": [{"id": "k", "center": "O", "through": ["A"]}, {"center": [100, 100], "radius": 40}],
  "shapes": [{"id": "s1", "type": "polygon", "points": [[190,190],[380,220],[250,380]], "kind": "triangle"},
             {"id": "s2", "type": "ellipse", "center": [320,320], "axes": [190,130], "rotation": 30},
             {"id": "s3", "type": "sector", "center": [0.5,0.5], "radius": 0.2, "start_angle": 350, "end_angle": 20},
             {"id": "s4", "type": "star", "center": [1,1], "outer_radius": 2, "inner_radius": 1, "num_points": 5},
             {"id": "s5", "type": "spiral", "center": [0,0], "initial_radius": 0, "growth_rate": "1/10",
              "sin_params": [0.01, 3, 0], "max_theta": 12},
             {"id": "s6", "type": "ray", "points": [[0,0],[1,1]]},
             {"id": "s7", "type": "circle", "center": [3,3], "radius": 1}],
  "relations": [{"type": "tangent", "between": ["k", "s2"]}],
  "entities": [{"id": "e1", "text": "cow", "box": [10, 10, 90, 40], "tags": ["consumer"]},
               {"id": "e2", "text": "grass", "kind": "icon", "box": [200, 10, 260, 40]}],
  "links": [{"from": "e2", "to": "e1", "path": [[200, 25], [90, 25]]}],
  "questions": [{"id": "q1", "ask": "count", "of": "triangles", "options": ["1", "2", 3, "4"], "answer": "A"},
                {"id": "q2", "ask": "estimate", "of": "angle", "vertices": ["A", "B", "C"], "options": ["90", "135"],
                 "option_ranges": [[85, 95], ["130", "140"]]}],
  "extra": {"source": "hand"}
})";

}  // namespace

TEST(SceneReader, ReadsEveryElementKind) {
  const Scene s = read_ok(kTriangleInCircle);
  EXPECT_EQ(s.id, "tri-in-circle");
  ASSERT_EQ(s.points.size(), 5u);
  EXPECT_EQ(s.points[1].at->x, Rational(1, 3));
  EXPECT_EQ(s.points[1].at->y, Rational(1, 10));
  EXPECT_EQ(s.points[3].at->y, Rational(700, 3));
  EXPECT_EQ(*s.points[4].z, 5);
  EXPECT_FALSE(s.points[4].labelled);
  ASSERT_EQ(s.lines.size(), 3u);
  EXPECT_EQ(s.lines[1].style, Stroke::dashed);
  EXPECT_EQ(s.lines[2].extent, Extent::ray);
  ASSERT_EQ(s.circles.size(), 2u);
  // |A − O|² = 0² + (120 − 700/3)² = (340/3)²
  EXPECT_EQ(*radius_squared(s, s.circles[0]), Rational(340 * 340, 9));
  EXPECT_EQ(*radius_squared(s, s.circles[1]), 1600);
  EXPECT_EQ(s.shapes.size(), 7u);
  EXPECT_EQ(std::get<EllipseShape>(s.shapes[1].geometry).rotation_deg, 30);
  EXPECT_EQ(std::get<SpiralShape>(s.shapes[4].geometry).growth_rate, Rational(1, 10));
  EXPECT_EQ(s.questions[0].options[2], "3");
  ASSERT_EQ(s.questions[1].option_ranges.size(), 2u);
  EXPECT_EQ(s.questions[1].option_ranges[0][0], "85");
  EXPECT_EQ(s.questions[1].option_ranges[1][1], "140");
  EXPECT_EQ(s.extra, R"({"source":"hand"})");
}

TEST(SceneReader, NormalizedRoundTripIsIdentity) {
  const Scene first = read_ok(kTriangleInCircle);
  const std::string written = write_scene(first);
  const Scene second = read_ok(written);
  EXPECT_EQ(first, second);
  EXPECT_EQ(written, write_scene(second));  // normalized text is a fixed point
}

TEST(SceneReader, NumbersADoubleCannotHoldSurviveAsStrings) {
  const Scene s = read_ok(R"({"id":"x","points":[{"id":"P","at":["1/3","0.30000000000000000000001"]}]})");
  const std::string written = write_scene(s);
  EXPECT_NE(written.find(R"("1/3")"), std::string::npos) << written;
  EXPECT_NE(written.find(R"("0.30000000000000000000001")"), std::string::npos) << written;
  EXPECT_EQ(read_ok(written), s);
  // Short decimals stay plain JSON numbers.
  EXPECT_NE(write_scene(read_ok(R"({"id":"y","points":[{"id":"P","at":[0.1, 0.8726]}]})")).find("[0.1,0.8726]"),
            std::string::npos);
}

// nlohmann prints a double in a form that reads back as that double, but not always the shortest
// (Grisu2): the nearest double to 296.97072 prints as 296.97071999999997, another rational. Such a
// decimal is written as its exact string; the writer once wrote the longer number.
TEST(SceneReader, ShortDecimalsWhoseDoublePrintsLongerStayExact) {
  const Scene s = read_ok(R"({"id":"g","points":[{"id":"T","at":[296.97072, 0.8726]}]})");
  const std::string written = write_scene(s);
  EXPECT_NE(written.find(R"(["296.97072",0.8726])"), std::string::npos) << written;
  EXPECT_EQ(read_ok(written), s);
  // Every decimal of up to 6 digits with 3 decimals, against its own reading of what was written.
  for (int k = 0; k < 1'000'000; k += 7) {
    const std::string text = std::to_string(k / 1000) + "." + std::to_string(1000 + k % 1000).substr(1);
    const Scene one = read_ok(R"({"id":"n","points":[{"id":"P","at":[)" + text + ",0]}]}");
    ASSERT_EQ(read_ok(write_scene(one)), one) << text << " written as " << write_scene(one);
  }
}

TEST(SceneReader, DefaultsAreFilledIn) {
  const Scene s = read_ok(R"({"id":"d","points":[{"id":"A","at":[0,0]},{"id":"B","at":[1,0]}],
                              "lines":[{"through":["A","B"]}]})");
  EXPECT_EQ(s.frame.width, 640);
  EXPECT_EQ(s.frame.y, YAxis::down);
  EXPECT_EQ(s.lines[0].extent, Extent::segment);
  EXPECT_EQ(s.lines[0].style, Stroke::solid);
  EXPECT_TRUE(s.points[0].labelled);
}

TEST(SceneReader, PointsWithoutCoordinatesAreAllowed) {
  const Scene s = read_ok(R"({"id":"l","points":[{"id":"A"},{"id":"B"}],"lines":[{"through":["A","B"]}]})");
  EXPECT_FALSE(s.points[0].at);
}

TEST(SceneReaderErrors, UnknownPointLabel) {
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[0,0]}],"lines":[{"through":["A","Q"]}]})",
                     "/lines/0/through/1", "unknown point label \"Q\"");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[0,0]}],"circles":[{"center":"Z","radius":1}]})",
                     "/circles/0/center", "unknown point label \"Z\"");
}

TEST(SceneReaderErrors, DuplicateIds) {
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[0,0]},{"id":"A","at":[1,1]}]})", "/points/1/id",
                     "duplicate id \"A\" (already used at /points/0/id)");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"k","at":[0,0]}],"circles":[{"id":"k","center":[0,0],"radius":1}]})",
                     "/circles/0/id", "duplicate id \"k\"");
  EXPECT_INPUT_ERROR(R"({"id":"s","questions":[{"id":"q","ask":"count"},{"id":"q","ask":"count"}]})", "/questions/1/id",
                     "duplicate question id");
  EXPECT_INPUT_ERROR(R"({"id":"s","id":"t"})", "/id", "duplicate key \"id\"");
}

TEST(SceneReaderErrors, LineThroughFewerThanTwoDistinctPoints) {
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[0,0]}],"lines":[{"through":["A"]}]})", "/lines/0/through",
                     "at least 2 distinct points");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[0,0]}],"lines":[{"through":["A","A"]}]})",
                     "/lines/0/through/1", "listed twice");
}

TEST(SceneReaderErrors, CoincidentEnds) {
  EXPECT_INPUT_ERROR(
      R"({"id":"s","points":[{"id":"A","at":[5,5]},{"id":"M","at":[6,6]},{"id":"B","at":["10/2",5.0]}],
          "lines":[{"through":["A","M","B"]}]})",
      "/lines/0/through", "same position");
}

TEST(SceneReaderErrors, ZeroRadius) {
  EXPECT_INPUT_ERROR(R"({"id":"s","circles":[{"center":[0,0],"radius":0}]})", "/circles/0/radius", "zero");
  EXPECT_INPUT_ERROR(R"({"id":"s","circles":[{"center":[0,0],"radius":-2}]})", "/circles/0/radius", "negative");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"O","at":[1,1]},{"id":"P","at":[1,1]}],
                         "circles":[{"center":"O","through":["P"]}]})",
                     "/circles/0/through/0", "zero radius");
  EXPECT_INPUT_ERROR(R"({"id":"s","shapes":[{"id":"c","type":"circle","center":[0,0],"radius":0}]})",
                     "/shapes/0/radius", "must be positive");
}

TEST(SceneReaderErrors, DegenerateShapes) {
  EXPECT_INPUT_ERROR(R"({"id":"s","shapes":[{"id":"p","type":"polygon","points":[[0,0],[1,1]]}]})", "/shapes/0/points",
                     "at least 3 points, got 2");
  EXPECT_INPUT_ERROR(R"({"id":"s","shapes":[{"id":"l","type":"segment","points":[[1,1],[1,1]]}]})", "/shapes/0/points",
                     "coincide");
  EXPECT_INPUT_ERROR(R"({"id":"s","shapes":[{"id":"e","type":"ellipse","center":[0,0],"axes":[1,0]}]})",
                     "/shapes/0/axes/1", "must be positive");
  EXPECT_INPUT_ERROR(R"({"id":"s","shapes":[{"id":"t","type":"hexagram","points":[]}]})", "/shapes/0/type",
                     "unknown shape type");
  EXPECT_INPUT_ERROR(R"({"id":"s","entities":[{"id":"e","box":[10,10,5,20]}]})", "/entities/0/box", "degenerate box");
}

TEST(SceneReaderErrors, UnknownKeysUnlessUnderExtra) {
  EXPECT_INPUT_ERROR(R"({"id":"s","colour":"red"})", "/colour", "unknown key \"colour\"");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[0,0],"color":1}]})", "/points/0/color", "unknown key");
  read_ok(R"({"id":"s","points":[{"id":"A","at":[0,0],"extra":{"color":1}}],"extra":{"colour":"red"}})");
}

TEST(SceneReaderErrors, NonFiniteAndOutOfRangeNumbers) {
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[NaN,0]}]})", "/points/0/at/0", "non-finite number 'NaN'");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[0,Infinity]}]})", "/points/0/at/1", "non-finite");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[-Infinity,0]}]})", "/points/0/at/0", "non-finite");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[1e400,0]}]})", "/points/0/at/0", "out of range");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":["NaN",0]}]})", "/points/0/at/0",
                     "expected a decimal number");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":["1/0",0]}]})", "/points/0/at/0", "zero denominator");
}

TEST(SceneReaderErrors, WrongTypesAndMissingKeys) {
  EXPECT_INPUT_ERROR(R"({"points":[]})", "", "missing key \"id\"");
  EXPECT_INPUT_ERROR(R"([1,2])", "", "expected a scene");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":{"A":1}})", "/points", "expected an array, got an object");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A","at":[0]}]})", "/points/0/at", "expected [x, y] or [x, y, z]");
  EXPECT_INPUT_ERROR(R"({"id":"s","lines":[{"through":["A","B"],"extent":"infinite"}]})", "/lines/0/through/0",
                     "unknown point label");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A"},{"id":"B"}],"lines":[{"through":["A","B"],"extent":"long"}]})",
                     "/lines/0/extent", "expected one of: segment, ray, line");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A"}],"relations":[{"type":"kissing","between":["A","A"]}]})",
                     "/relations/0/type", "unknown relation");
  EXPECT_INPUT_ERROR(R"({"id":"s","points":[{"id":"A"}],"relations":[{"type":"parallel","between":["A","B"]}]})",
                     "/relations/0/between/1", "unknown element \"B\"");
  EXPECT_INPUT_ERROR(R"({"id":"s","entities":[{"id":"e","box":[0,0,1,1]}],"links":[{"from":"e","to":"f"}]})",
                     "/links/0/to", "unknown entity \"f\"");
}

TEST(SceneReaderErrors, OptionRangesOnePairPerOption) {
  EXPECT_INPUT_ERROR(R"({"id":"s","questions":[{"id":"q","ask":"estimate","options":["1","2"],)"
                     R"("option_ranges":[[0.8,1.2]]}]})",
                     "/questions/0/option_ranges", "one range per option (2), got 1");
  EXPECT_INPUT_ERROR(R"({"id":"s","questions":[{"id":"q","ask":"estimate","options":["1"],)"
                     R"("option_ranges":[[0.8,1.2,2]]}]})",
                     "/questions/0/option_ranges/0", "a range [low, high] of two numbers");
  EXPECT_INPUT_ERROR(R"({"id":"s","questions":[{"id":"q","ask":"estimate","options":["1"],)"
                     R"("option_ranges":[[0.8,true]]}]})",
                     "/questions/0/option_ranges/0/1", "expected a string or a number");
}

TEST(SceneReaderErrors, BrokenJson) {
  const InputError e = read_bad(R"({"id":"s","points":[{"id":"A","at":[0,0]})");
  EXPECT_NE(e.message.find("invalid JSON"), std::string::npos) << e.message;
  EXPECT_NE(read_bad("").message.find("invalid JSON"), std::string::npos);
  EXPECT_NE(read_bad(std::string("{\"id\":\"\xff\xfe\"}")).message.find("invalid JSON"), std::string::npos);
  EXPECT_NE(read_bad(R"({"id":"s"} {"id":"t"})").message.find("invalid JSON"), std::string::npos);
}

TEST(SceneLimits, Nesting) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  const InputError e = read_bad(deep);
  EXPECT_NE(e.message.find("nesting deeper than 64"), std::string::npos) << e.message;
  Limits tight;
  tight.max_depth = 3;
  const InputError e2 = read_bad(R"({"id":"s","points":[{"id":"A","at":[0,0]}]})", tight);
  EXPECT_EQ(e2.pointer, "/points/0/at");
}

TEST(SceneLimits, ElementsPerScene) {
  Limits limits;
  limits.max_elements = 3;
  std::string text = R"({"id":"s","points":[)";
  for (int i = 0; i < 4; ++i) {
    if (i) text += ',';
    text += R"({"id":"P)";
    text += std::to_string(i);
    text += R"("})";
  }
  text += "]}";
  const InputError e = read_bad(text, limits);
  EXPECT_EQ(e.pointer, "/points/3");
  EXPECT_NE(e.message.find("more than 3 elements"), std::string::npos) << e.message;
  limits.max_elements = 4;
  EXPECT_TRUE(std::holds_alternative<Scene>(read_scene(text, limits)));
}

TEST(SceneLimits, RecordBytes) {
  Limits limits;
  limits.max_line_bytes = 10;
  EXPECT_NE(read_bad(R"({"id":"scene-1"})", limits).message.find("exceeds the limit of 10 bytes"), std::string::npos);
}
