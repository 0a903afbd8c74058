// The JSON reader's two paths (src/core/json_reader.hpp): RapidJSON's fast path must give the same
// tree as nlohmann's exact path on every text it accepts, and must decline every text the exact
// path rejects. Checked on the cases where the two parsers are known to differ, then on random
// mutations of the fuzz corpus.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/json_reader.hpp"
#include "test_paths.hpp"

namespace {

using geotruth::InputError;
using geotruth::Limits;
namespace json = geotruth::json;

// The contract between the two paths; true when the fast path accepted the text.
bool paths_agree(const std::string& text, const Limits& limits = {}) {
  const auto fast = json::read_fast(text, limits);
  const auto exact = json::read_exact(text, limits);
  if (!fast) return false;
  const auto* value = std::get_if<json::Value>(&exact);
  EXPECT_NE(value, nullptr) << "fast path accepted what the exact path rejects: " << testing::PrintToString(text)
                            << "\n"
                            << (value ? "" : std::get<InputError>(exact).message);
  if (value) {
    EXPECT_EQ(json::to_text(*fast), json::to_text(*value)) << text;
  }
  return true;
}

std::string error_of(const std::string& text, const Limits& limits = {}) {
  const auto result = json::read(text, limits);
  const auto* error = std::get_if<InputError>(&result);
  return error ? error->pointer + ": " + error->message : "no error";
}

TEST(JsonPaths, OrdinaryDocumentsTakeTheFastPathAndReadTheSame) {
  EXPECT_TRUE(paths_agree(R"({"id":"a","points":[{"id":"A","at":[1.25,"1/3"]}],"flag":true,"none":null})"));
  EXPECT_TRUE(paths_agree(R"(  [ {}, [], "", 0, -1, 1.5e-3, 2E+2, false ]  )"
                          "\n\t"));
  EXPECT_TRUE(paths_agree(R"(["\/\b\f\n\r\t\"\\", "\u00e9\ud83d\ude00", "é"])"));
  const auto value = json::read_fast(R"({"k":["x"]})", {});
  ASSERT_TRUE(value);
  EXPECT_EQ(value->members.at(0).first, "k");
  EXPECT_EQ(value->members.at(0).second.items.at(0).text, "x");
}

TEST(JsonPaths, NumbersKeepTheTextTheExactPathGives) {
  // nlohmann passes an integer that fits 64 bits as its value ("-0" is 0), anything else as written.
  ASSERT_TRUE(paths_agree("[-0, -0.0, 0, 1.50, 1E2, -9223372036854775809, 18446744073709551616]"));
  EXPECT_EQ(json::to_text(*json::read_fast("[-0,-0.0,1.50,18446744073709551616]", {})),
            "[0,-0.0,1.50,18446744073709551616]");
}

TEST(JsonPaths, NumbersADoubleCannotHoldGoToTheExactPath) {
  // RapidJSON bounds only the exponent (305 ≤ 308) and would accept this 1.2e310.
  EXPECT_FALSE(paths_agree("[123456e305]"));
  EXPECT_NE(error_of("[123456e305]"), "no error");
  EXPECT_FALSE(paths_agree("[1e400]"));
  EXPECT_FALSE(paths_agree("[" + std::string(400, '9') + "]"));
  EXPECT_TRUE(paths_agree("[1e-400, 0.000001e310]"));  // an underflow and a large but finite number read
}

TEST(JsonPaths, InvalidUnicodeGoesToTheExactPath) {
  EXPECT_FALSE(paths_agree(R"(["\udc00"])"));  // a lone low surrogate: RapidJSON decodes it, nlohmann rejects it
  EXPECT_NE(error_of(R"(["\udc00"])"), "no error");
  EXPECT_FALSE(paths_agree(R"(["\ud800"])"));
  EXPECT_FALSE(paths_agree("[\"\xED\xA0\x80\"]"));  // a surrogate written as UTF-8
  EXPECT_FALSE(paths_agree("[\"\xC0\xAF\"]"));      // overlong
  EXPECT_FALSE(paths_agree("[\"\xE2\x82\"]"));      // cut short
  EXPECT_FALSE(paths_agree("{\"\xFF\":1}"));        // in a key
  EXPECT_FALSE(paths_agree("[\"a\x01\"]"));         // a raw control character
  // One that RapidJSON's SSE2 string scan (which tests c <= 0x19) lets through, 16-byte aligned in
  // the middle of a long string; and the same character escaped, which is valid.
  EXPECT_FALSE(paths_agree("[\"" + std::string(40, 'a') + "\x1E" + std::string(40, 'a') + "\"]"));
  EXPECT_FALSE(paths_agree(R"(["\u001e"])"));
  EXPECT_EQ(error_of(R"(["\u001e"])"), "no error");
}

TEST(JsonPaths, TheWholeTextIsOneValue) {
  EXPECT_FALSE(paths_agree(std::string("{}\0 x", 5)));  // RapidJSON would stop at the NUL
  EXPECT_FALSE(paths_agree(std::string("[\"a\0b\"]", 7)));
  EXPECT_FALSE(paths_agree("{} x"));
  EXPECT_FALSE(paths_agree("{}{}"));
  EXPECT_FALSE(paths_agree(""));
  EXPECT_EQ(error_of(""), ": invalid JSON (empty input: expected a JSON object)");
  EXPECT_FALSE(paths_agree("   "));
  // A byte order mark: nlohmann skips it, the fast path declines, read() still reads the text.
  EXPECT_FALSE(paths_agree("\xEF\xBB\xBF{}"));
  EXPECT_EQ(error_of("\xEF\xBB\xBF{}"), "no error");
}

TEST(JsonPaths, DuplicateKeysAreFoundInSmallAndLargeObjects) {
  EXPECT_EQ(error_of(R"({"a":1,"b":{"c":2,"c":3}})"), "/b/c: duplicate key \"c\"");
  std::string large = "{";
  for (int i = 0; i < 40; ++i) large += "\"key" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  EXPECT_TRUE(paths_agree(large + "\"last\":0}"));
  // A repeat of an early key after the list has become a hash set, and of a late one.
  EXPECT_EQ(error_of(large + "\"key3\":0}"), "/key3: duplicate key \"key3\"");
  EXPECT_EQ(error_of(large + "\"key39\":0}"), "/key39: duplicate key \"key39\"");
  // The same key in sibling objects is no repeat.
  EXPECT_TRUE(paths_agree(R"([{"a":1},{"a":2}])"));
}

TEST(JsonPaths, LimitsGiveTheSameErrorsOnBothPaths) {
  Limits limits;
  limits.max_depth = 4;
  EXPECT_TRUE(paths_agree("[[[[1]]]]", limits));
  EXPECT_FALSE(paths_agree("[[[[[1]]]]]", limits));
  EXPECT_EQ(error_of("[[[[[1]]]]]", limits), "/0/0/0/0: nesting deeper than 4 levels");
  limits = {};
  limits.max_elements = 3;
  EXPECT_TRUE(paths_agree(R"({"points":[1,2,3]})", limits));
  EXPECT_EQ(error_of(R"({"points":[1,2,3,4]})", limits),
            "/points/3: more than 3 elements in one scene (raise --max-elements)");
  limits.max_line_bytes = 4;
  EXPECT_FALSE(paths_agree("[1,2]", limits));
}

TEST(JsonPaths, CheckAgreesWithRead) {
  const auto check = [](const std::string& text, json::Value& root) {
    return json::check([&] { return std::make_unique<std::stringbuf>(text); }, text.size(),
                       [&](std::size_t from, std::size_t to) { return text.substr(from, to - from); }, Limits{},
                       {"kept"}, root);
  };
  json::Value root;
  EXPECT_FALSE(check(R"({"p1":{"x":[1,2]},"kept":{"y":"z"},"p2":3})", root));
  ASSERT_EQ(root.kind, json::Value::Kind::object);
  ASSERT_EQ(root.members.size(), 1u);
  EXPECT_EQ(root.members[0].first, "kept");
  EXPECT_EQ(root.members[0].second.kind, json::Value::Kind::null);
  for (const std::string bad :
       {R"({"p1":{},"p2":[1,],"p3":0})", R"({"p1":{},"p1":[]})", R"({"p1":["\udc00"]})", R"({"p1":{}} x)"}) {
    const auto error = check(bad, root);
    ASSERT_TRUE(error) << bad;
    EXPECT_EQ(error->pointer + ": " + error->message, error_of(bad)) << bad;
  }
  EXPECT_FALSE(check("\xEF\xBB\xBF{\"kept\":1}", root));  // declined by the fast pass, read by the exact one
  EXPECT_EQ(root.members.size(), 1u);
}

// Random edits of real inputs, biased toward the places where the parsers differ.
TEST(JsonPaths, AgreeOnMutationsOfTheFuzzCorpus) {
  std::vector<std::string> seeds = {R"({"a":[1,-0,2.5e3,"x\u00e9"],"b":{"c":null,"d":true}})"};
  for (const auto& entry : std::filesystem::directory_iterator(GEOTRUTH_FUZZ_CORPUS)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!text.empty()) seeds.push_back(text.substr(1));  // the first byte picks the fuzz target's format
  }
  const std::vector<std::string> pieces = {"\\udc00",
                                           "\\ud800",
                                           "\xED\xA0\x80",
                                           "\xC0\xAF",
                                           "-0",
                                           "1e309",
                                           "123456e305",
                                           "\"a\":1,",
                                           ",",
                                           "}",
                                           "]",
                                           "\x01",
                                           std::string(1, '\0'),
                                           "\xEF\xBB\xBF",
                                           "[[[[",
                                           "\"",
                                           "\\",
                                           "é",
                                           "0.5e-400"};
  std::mt19937_64 random(20261125);
  int accepted = 0, tried = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = seeds[random() % seeds.size()];
    for (int edits = 1 + random() % 3; edits > 0; --edits) {
      const std::size_t at = text.empty() ? 0 : random() % (text.size() + 1);
      switch (random() % 4) {
        case 0:
          text.insert(at, pieces[random() % pieces.size()]);
          break;
        case 1:
          if (at < text.size()) text[at] = static_cast<char>(random());
          break;
        case 2:
          text.erase(at, random() % 4);
          break;
        default:
          text.insert(at, text.substr(at, random() % 16));
      }
    }
    accepted += paths_agree(text);
    ++tried;
    if (::testing::Test::HasFailure()) break;
  }
  // Most mutants are broken, but enough are valid for the fast path's acceptances to be tested.
  EXPECT_GT(accepted, tried / 20);
}

}  // namespace
