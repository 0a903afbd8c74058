// Certified generation (generate --family tangram|gepbench): what the items promise, checked here
// by means that do not go through the code that made or certified them: exact incidence and
// distance formulas on the written rationals, a brute-force Tangram count from the coordinates,
// the importer reading the engine's files back, hand-made scenes for the visibility rules.
#include <gtest/gtest.h>

#include <geotruth/generate.hpp>
#include <geotruth/import.hpp>
#include <geotruth/input.hpp>

#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "generate/exact.hpp"
#include "generate/items.hpp"
#include "generate/visibility.hpp"

using namespace geotruth;

namespace {

GenerateOptions options(const std::string& family, const std::string& level) {
  GenerateOptions o;
  o.family = family, o.level = level;
  o.bands = family == "gepbench" ? dataset_bands("gepbench") : Bands{};
  return o;
}

Rational sq(const Rational& x) {
  return x * x;
}

}  // namespace

TEST(AnswerPositions, EachBlockOfFourItemsTakesEveryPositionOnce) {
  for (std::uint64_t seed : {1u, 7u, 12345u})
    for (const char* kind : {"count/circle", "relation", "size/area", "count/triangles"})
      for (std::size_t occurrence = 0; occurrence < 3; ++occurrence)
        for (std::uint64_t block = 0; block < 50; ++block) {
          std::set<std::size_t> seen;
          for (std::uint64_t i = 1; i <= 4; ++i)
            seen.insert(generate::answer_position(seed, 4 * block + i, kind, occurrence));
          EXPECT_EQ(seen, (std::set<std::size_t>{0, 1, 2, 3})) << kind << " block " << block;
        }
}

TEST(ExactNumbers, DecimalsAreWrittenAndRoundedExactly) {
  EXPECT_EQ(generate::decimal_text(Rational(1, 8)), "0.125");
  EXPECT_EQ(generate::decimal_text(Rational(-3, 40)), "-0.075");
  EXPECT_EQ(generate::decimal_text(Rational(12)), "12");
  EXPECT_EQ(generate::round_decimal(Rational(2, 3), 4), Rational(6667, 10000));
  EXPECT_EQ(generate::round_decimal(Rational(-1, 20000), 4), Rational(-1, 10000));  // half away from zero
  EXPECT_TRUE(generate::is_decimal(Rational(3, 625), 4));
  EXPECT_FALSE(generate::is_decimal(Rational(1, 3), 40));
}

TEST(ExactNumbers, UnitDirectionsAreExactAndAboutTenDegreesApart) {
  const auto& all = generate::unit_directions();
  ASSERT_EQ(all.size(), 36u);  // r2(5^8) = 4 (8 + 1) integer points on the circle of radius 625
  for (std::size_t k = 0; k < all.size(); ++k) {
    EXPECT_EQ(sq(all[k].u.x) + sq(all[k].u.y), 1);
    EXPECT_TRUE(generate::is_decimal(all[k].u.x, 4) && generate::is_decimal(all[k].u.y, 4));
    const double gap = (k + 1 < all.size() ? all[k + 1].radians : all[0].radians + 2 * M_PI) - all[k].radians;
    EXPECT_GT(gap, 0);
    EXPECT_LT(gap, 17 * M_PI / 180);
  }
}

TEST(GeneratedItems, SameSeedSameItemWhateverElseIsMade) {
  for (const auto& [family, level] : std::vector<std::pair<std::string, std::string>>{
           {"gepbench", "easy"}, {"gepbench", "hard"}, {"tangram", "medium"}}) {
    const auto o = options(family, level);
    for (std::uint64_t i : {5u, 1u, 3u}) {
      const auto a = generate_item(o, 99, i), b = generate_item(o, 99, i);
      ASSERT_FALSE(a.error) << *a.error;
      EXPECT_EQ(write_scene(a.scene), write_scene(b.scene));
      EXPECT_NE(write_scene(a.scene), write_scene(generate_item(o, 98, i).scene));
    }
  }
}

TEST(GeneratedItems, LevelsHaveTheEnginesShapeCountsAndTangramsTotals) {
  for (std::uint64_t i = 1; i <= 12; ++i) {
    const auto easy = generate_item(options("gepbench", "easy"), 3, i),
               hard = generate_item(options("gepbench", "hard"), 3, i);
    EXPECT_GE(easy.scene.shapes.size(), 2u);
    EXPECT_LE(easy.scene.shapes.size(), 4u);
    EXPECT_GE(hard.scene.shapes.size(), 5u);
    EXPECT_LE(hard.scene.shapes.size(), 8u);
  }
}

// The engine's rules.json entry and VQA rows read back by the importer give the same scene.
TEST(GeneratedGepbench, EngineFilesImportBackToTheSameItem) {
  for (const char* level : {"easy", "hard"})
    for (std::uint64_t i = 1; i <= 10; ++i) {
      const GeneratedItem item = generate_item(options("gepbench", level), 21, i);
      ASSERT_FALSE(item.error);
      std::string vqa;
      for (const auto& q : item.engine_questions) {
        vqa += "{\"image_id\": 0, \"question_id\": " + std::to_string(q.question_id) + ", \"question\": \"" +
               q.question + "\", \"choices\": [";
        for (std::size_t c = 0; c < q.choices.size(); ++c) vqa += (c ? "," : "") + q.choices[c];
        vqa += "], \"answer\": " + q.answer + ", \"aspect\": \"" + q.aspect + "\"}\n";
      }
      auto back = import_gepbench({{"rules.json", "[" + item.engine_rules + "]"}, {"vqa.jsonl", vqa}});
      ASSERT_EQ(back.size(), 1u);
      ASSERT_TRUE(std::holds_alternative<Scene>(back[0].scene));
      const Scene& s = std::get<Scene>(back[0].scene);
      EXPECT_EQ(s.shapes, item.scene.shapes);
      EXPECT_EQ(s.relations, item.scene.relations);
      EXPECT_EQ(s.questions, item.scene.questions);
      EXPECT_GE(item.scene.questions.size(), 6u);  // one aspect at least each
    }
}

// Relations built on rationals hold exactly, by the textbook formulas on the written numbers.
TEST(GeneratedGepbench, RationalRelationsHoldExactly) {
  std::map<std::string, int> exact;
  for (std::uint64_t i = 1; i <= 60; ++i) {
    const Scene s = generate_item(options("gepbench", i % 2 ? "easy" : "hard"), 8, i).scene;
    std::map<std::string, const Shape*> by_id;
    for (const auto& shape : s.shapes) by_id[shape.id] = &shape;
    for (const auto& r : s.relations) {
      const Shape &a = *by_id[r.between[0]], &b = *by_id[r.between[1]];
      const auto* la = std::get_if<StraightShape>(&a.geometry);
      const auto* lb = std::get_if<StraightShape>(&b.geometry);
      const auto* ca = a.type == "circle" ? std::get_if<EllipseShape>(&a.geometry) : nullptr;
      const auto* cb = b.type == "circle" ? std::get_if<EllipseShape>(&b.geometry) : nullptr;
      using namespace geotruth::generate;
      if ((r.type == "parallel" || r.type == "perpendicular") && la && lb) {
        const Vec2 u = la->b - la->a, v = lb->b - lb->a;
        EXPECT_EQ(r.type == "parallel" ? cross(u, v) : dot(u, v), 0) << s.id;
        ++exact[r.type];
      } else if (r.type == "tangent" && ((la && cb) || (lb && ca))) {
        const StraightShape& l = la ? *la : *lb;
        const EllipseShape& c = ca ? *ca : *cb;
        const Vec2 d = l.b - l.a;
        // distance² from the centre to the line = r², and the contact inside the drawn segment
        EXPECT_EQ(sq(cross(c.center - l.a, d)), sq(c.axes[0]) * dot(d, d)) << s.id;
        const Rational t = dot(c.center - l.a, d) / dot(d, d);
        EXPECT_TRUE(t >= 0 && t <= 1) << s.id;
        ++exact["tangent line"];
      } else if ((r.type == "external_tangent" || r.type == "internal_tangent") && ca && cb) {
        const Vec2 d = ca->center - cb->center;
        EXPECT_EQ(dot(d, d), sq(r.type == "external_tangent" ? Rational(ca->axes[0] + cb->axes[0])
                                                             : Rational(ca->axes[0] - cb->axes[0])))
            << s.id;
        ++exact[r.type];
      } else if (r.type == "diameter" && la && cb) {
        EXPECT_EQ(la->a + la->b, Rational(2) * cb->center) << s.id;  // the midpoint is the centre
        EXPECT_EQ(dot(la->a - cb->center, la->a - cb->center), sq(cb->axes[0])) << s.id;
        ++exact[r.type];
      } else if (r.type == "circumscribed" && ca && b.type == "polygon") {
        const auto& pts = std::get<PolygonShape>(b.geometry).points;
        // Exact wherever the corners are rational points of the circle (not regular polygons).
        if (b.kind.rfind("regular", 0) == 0) continue;
        for (const auto& p : pts) EXPECT_EQ(dot(p - ca->center, p - ca->center), sq(ca->axes[0])) << s.id;
        ++exact[r.type];
      } else if (r.type == "diagonal" && la) {
        const auto& pts = std::get<PolygonShape>(b.geometry).points;
        const auto ia = std::find(pts.begin(), pts.end(), la->a) - pts.begin(),
                   ib = std::find(pts.begin(), pts.end(), la->b) - pts.begin();
        EXPECT_EQ((ia - ib + 4) % 4, 2) << s.id;
        ++exact[r.type];
      }
    }
  }
  EXPECT_GE(exact.size(), 4u);  // several kinds of relation were checked
}

namespace {

// Tangram's four counts by brute force on the coordinates: each drawn line is its two ends; a
// letter is on it when it is collinear and between them; lines sharing two letters are one line.
std::map<std::string, std::size_t> count_by_hand(const Scene& s) {
  using namespace geotruth::generate;
  std::vector<std::size_t> letters;
  for (std::size_t i = 0; i < s.points.size(); ++i)
    if (s.points[i].labelled) letters.push_back(i);
  std::vector<std::set<std::size_t>> on;
  for (const auto& l : s.lines) {
    const Vec2 a = *s.points[l.through.front()].at, b = *s.points[l.through.back()].at;
    std::set<std::size_t> here;
    for (std::size_t i : letters) {
      const Vec2 p = *s.points[i].at;
      if (cross(p - a, b - a) == 0 && dot(p - a, b - a) >= 0 && dot(p - b, a - b) >= 0) here.insert(i);
    }
    on.push_back(here);
  }
  auto share = [&](std::size_t x, std::size_t y) {
    for (const auto& h : on)
      if (h.count(x) && h.count(y)) return true;
    return false;
  };
  std::map<std::string, std::size_t> out{{"letters", letters.size()}, {"circles", s.circles.size()}};
  std::set<std::pair<std::size_t, std::size_t>> pairs;
  for (const auto& h : on)
    for (auto x : h)
      for (auto y : h)
        if (x < y) pairs.insert({x, y});
  out["segments"] = pairs.size();
  for (std::size_t i = 0; i < letters.size(); ++i)
    for (std::size_t j = i + 1; j < letters.size(); ++j)
      for (std::size_t k = j + 1; k < letters.size(); ++k) {
        const Vec2 &a = *s.points[letters[i]].at, &b = *s.points[letters[j]].at, &c = *s.points[letters[k]].at;
        if (share(letters[i], letters[j]) && share(letters[j], letters[k]) && share(letters[i], letters[k]) &&
            cross(b - a, c - a) != 0)
          ++out["triangles"];
      }
  return out;
}

}  // namespace

TEST(GeneratedTangram, AnswersEqualACountFromTheCoordinates) {
  for (const char* level : {"easy", "medium", "hard"})
    for (std::uint64_t i = 1; i <= 15; ++i) {
      const GeneratedItem item = generate_item(options("tangram", level), 4, i);
      ASSERT_FALSE(item.error) << *item.error;
      const auto counts = count_by_hand(item.scene);
      std::size_t total = 0;
      for (const auto& q : item.scene.questions) {
        ASSERT_EQ(q.options.size(), 4u);
        const std::string answer = q.options[static_cast<std::size_t>(q.answer[0] - 'A')];
        EXPECT_EQ(answer, std::to_string(counts.at(q.of))) << item.scene.id << " " << q.of;
        total += counts.at(q.of);
      }
      const std::string by_total = total <= 15 ? "easy" : total <= 30 ? "medium" : "hard";
      EXPECT_EQ(by_total, level) << item.scene.id << " total " << total;
    }
}

namespace {

Scene two_segments(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  Scene s;
  s.id = "two";
  s.frame = Frame{1, 1, YAxis::up};
  for (const auto& [id, from, to] : {std::tuple{"s0", a, b}, std::tuple{"s1", c, d}}) {
    Shape shape;
    shape.id = id, shape.type = "segment", shape.geometry = StraightShape{Extent::segment, from, to};
    s.shapes.push_back(shape);
  }
  return s;
}

}  // namespace

TEST(Visibility, NearMissesShallowCrossingsAndShortStrokesAreRefused) {
  const Bands bands = dataset_bands("gepbench");  // 640 px for the unit square, eps_vis 3 px
  const generate::VisibilityRules rules;
  const Rational px(1, 640);
  // Parallel, 4 px apart (between eps_vis and twice it): a near miss.
  EXPECT_EQ(generate::visibility_problem(
                two_segments({Rational(2, 10), Rational(5, 10)}, {Rational(8, 10), Rational(5, 10)},
                             {Rational(2, 10), Rational(5, 10) + 4 * px}, {Rational(8, 10), Rational(5, 10) + 4 * px}),
                bands, rules),
            "near_miss");
  // 20 px apart: fine.
  EXPECT_EQ(
      generate::visibility_problem(
          two_segments({Rational(2, 10), Rational(5, 10)}, {Rational(8, 10), Rational(5, 10)},
                       {Rational(2, 10), Rational(5, 10) + 20 * px}, {Rational(8, 10), Rational(5, 10) + 20 * px}),
          bands, rules),
      "");
  // Crossing at about 6° (slope 1/10): shallow; at 45°: fine.
  EXPECT_EQ(generate::visibility_problem(
                two_segments({Rational(2, 10), Rational(5, 10)}, {Rational(8, 10), Rational(5, 10)},
                             {Rational(2, 10), Rational(47, 100)}, {Rational(8, 10), Rational(53, 100)}),
                bands, rules),
            "shallow_crossing");
  EXPECT_EQ(
      generate::visibility_problem(two_segments({Rational(2, 10), Rational(5, 10)}, {Rational(8, 10), Rational(5, 10)},
                                                {Rational(3, 10), Rational(3, 10)}, {Rational(7, 10), Rational(7, 10)}),
                                   bands, rules),
      "");
  // A stroke of 10 px: too short for a line detector.
  EXPECT_EQ(generate::visibility_problem(
                two_segments({Rational(2, 10), Rational(5, 10)}, {Rational(2, 10) + 10 * px, Rational(5, 10)},
                             {Rational(3, 10), Rational(3, 10)}, {Rational(7, 10), Rational(3, 10)}),
                bands, rules),
            "short_stroke");
}
