// One validation for every source: each invalid shape is rejected with the same words whether it
// comes from a native scene or a GePBench rules file (there with a pointer into the rules file).
#include <gtest/gtest.h>

#include <geotruth/import.hpp>
#include <geotruth/input.hpp>

using namespace geotruth;

namespace {

struct InvalidShape {
  const char* name;
  const char* native;          // the shape as a native scene writes it
  const char* rules;           // the same shape as the GePBench engine writes it (full axes, radians)
  const char* native_pointer;  // where validate() points in the native scene
  const char* words;           // what the message says
};

const InvalidShape kCases[] = {
    {"two-point star",
     R"({"id":"s0","type":"star","center":[0.5,0.5],"outer_radius":0.3,"inner_radius":0.1,"num_points":2})",
     R"({"type":"star","center":[0.5,0.5],"outer_radius":0.3,"inner_radius":0.1,"num_points":2})",
     "/shapes/0/num_points", "an integer from 3 to 1000"},
    {"negative axis", R"({"id":"s0","type":"ellipse","center":[0.5,0.5],"axes":[-0.2,0.1]})",
     R"({"type":"ellipse","center":[0.5,0.5],"major_axis":-0.4,"minor_axis":0.2,"rotation":0})", "/shapes/0/axes/0",
     "a semi-axis must be positive"},
    {"collinear polygon", R"({"id":"s0","type":"polygon","points":[[0.1,0.1],[0.2,0.2],[0.3,0.3]]})",
     R"({"type":"polygon","points":[[0.1,0.1],[0.2,0.2],[0.3,0.3]]})", "/shapes/0/points", "zero area"},
    {"bow-tie polygon", R"({"id":"s0","type":"polygon","points":[[0.2,0.2],[0.6,0.6],[0.6,0.2],[0.2,0.6]]})",
     R"({"type":"polygon","points":[[0.2,0.2],[0.6,0.6],[0.6,0.2],[0.2,0.6]]})", "/shapes/0/points", "zero area"},
    {"zero-angle sector",
     R"({"id":"s0","type":"sector","center":[0.5,0.5],"radius":0.2,"start_angle":30,"end_angle":390})",
     R"({"type":"sector","center":[0.5,0.5],"radius":0.2,"start_angle":0,"end_angle":0})", "/shapes/0/end_angle",
     "modulo 360"},
    {"negative spiral radius",
     R"({"id":"s0","type":"spiral","center":[0.5,0.5],"initial_radius":-0.1,"growth_rate":0.01,"max_theta":6})",
     R"({"type":"spiral","center":[0.5,0.5],"initial_radius":-0.1,"growth_rate":0.01,"max_theta":6})",
     "/shapes/0/initial_radius", "must not be negative"},
    {"coincident segment", R"({"id":"s0","type":"segment","points":[[0.1,0.1],[0.1,0.1]]})",
     R"({"type":"segment","points":[[0.1,0.1],[0.1,0.1]]})", "/shapes/0/points", "coincide"},
};

}  // namespace

TEST(Validate, EachInvalidShapeIsRejectedAlikeFromEverySource) {
  for (const auto& c : kCases) {
    const std::string native =
        std::string(R"({"id":"v","frame":{"width":1,"height":1,"y":"up"},"shapes":[)") + c.native + "]}";
    const auto read = read_scene(native);
    ASSERT_TRUE(std::holds_alternative<InputError>(read)) << c.name;
    const InputError& from_reader = std::get<InputError>(read);
    EXPECT_EQ(from_reader.pointer, c.native_pointer) << c.name;
    EXPECT_NE(from_reader.message.find(c.words), std::string::npos) << c.name << ": " << from_reader.message;

    // The same shape second in a rules file: its figure is an error record pointing there, with the
    // reader's words; the other figure is imported.
    const std::string rules =
        std::string(R"([{"shapes":[],"relations":[]},{"shapes":[)") + c.rules + R"(],"relations":[]}])";
    const auto imported = import_gepbench({{"rules.json", rules}});
    ASSERT_EQ(imported.size(), 2u) << c.name;
    EXPECT_TRUE(std::holds_alternative<Scene>(imported[0].scene)) << c.name;
    ASSERT_TRUE(std::holds_alternative<InputError>(imported[1].scene)) << c.name;
    const InputError& from_import = std::get<InputError>(imported[1].scene);
    EXPECT_EQ(from_import.pointer, "/1/shapes/0") << c.name;
    EXPECT_EQ(from_import.message.rfind(from_reader.message, 0), 0u)
        << c.name << ": " << from_import.message << " vs " << from_reader.message;
  }
}

TEST(Validate, NumbersADoubleCannotHoldAreRejectedWhateverTheirSpelling) {
  const std::string huge(400, '9');
  for (const std::string& width : {"\"" + huge + "/1\"", "\"1/" + huge + "\""}) {
    const auto read = read_scene(R"({"id":"f","frame":{"width":)" + width + "}}");
    ASSERT_TRUE(std::holds_alternative<InputError>(read)) << width;
    EXPECT_EQ(std::get<InputError>(read).pointer, "/frame/width");
    EXPECT_NE(std::get<InputError>(read).message.find("out of range"), std::string::npos);
  }
}

TEST(Validate, TheModelItselfIsChecked) {
  // Importers and generators build the model directly: validate() is what stands between them and
  // the rest, so it must catch what the reader would.
  Scene s;
  s.id = "m";
  s.points = {{"A", Vec2{0, 0}}, {"A", Vec2{1, 1}}};
  auto error = validate(s);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->pointer, "/points/1/id");
  EXPECT_NE(error->message.find("duplicate id \"A\" (already used at /points/0/id)"), std::string::npos);

  s.points[1].id = "B";
  s.lines.push_back({"", {0, 0}});
  error = validate(s);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->pointer, "/lines/0/through/1");

  s.lines = {{"", {0, 1}}};
  s.relations.push_back({"glued", {"A", "B"}});
  error = validate(s);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->pointer, "/relations/0/type");
  EXPECT_FALSE(validate(Scene{"ok"}));
}

TEST(Validate, CoordinatesOutOfRangeAreNamedByAxis) {
  // 2^64 − 1 and its inverse (a limb each) are in range; 10^309 and 10^-309 (several limbs) are not.
  const Rational limb = Rational(mpz_class("18446744073709551615")),
                 huge = Rational(mpz_class("1" + std::string(309, '0')));
  Scene s;
  s.id = "r";
  s.points = {{"A", Vec2{limb, 1 / limb}}, {"B", Vec2{-limb, Rational(1, 3)}}};
  EXPECT_FALSE(validate(s));
  s.points[1].at = Vec2{huge, 0};
  auto error = validate(s);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->pointer, "/points/1/at/0");
  EXPECT_NE(error->message.find("out of range"), std::string::npos);
  s.points[1].at = Vec2{0, -1 / huge};
  error = validate(s);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->pointer, "/points/1/at/1");
}

TEST(Validate, LineErrorsPointAtTheLine) {
  Scene s;
  s.id = "l";
  s.points = {{"A", Vec2{0, 0}}, {"B", Vec2{1, 1}}, {"C", Vec2{1, 1}}};
  s.lines = {{"", {0, 1}}, {"A", {0, 2}}};
  auto error = validate(s);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->pointer, "/lines/1/id");
  EXPECT_NE(error->message.find("already used at /points/0/id"), std::string::npos);
  s.lines[1] = {"", {1, 2}};
  error = validate(s);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->pointer, "/lines/1/through");
  EXPECT_NE(error->message.find("zero length"), std::string::npos);
}
