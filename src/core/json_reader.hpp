// A JSON tree that keeps each number's decimal text, read through nlohmann's SAX interface.
#pragma once

#include <geotruth/input.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace geotruth::json {

struct Value {
  enum class Kind { null, boolean, number, string, array, object };
  Value() = default;
  explicit Value(Kind k) : kind(k) {}

  Kind kind = Kind::null;
  bool flag = false;
  std::string text;  ///< a number's decimal text, or a string's value
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> members;  ///< in input order, keys unique

  const Value* find(std::string_view key) const;
};

const char* kind_name(Value::Kind kind);

/// Parses one JSON document. Fails with an InputError (pointer to where parsing stopped) on
/// syntax errors, invalid UTF-8, duplicate keys, and on exceeding the depth/element limits.
std::variant<Value, InputError> read(std::string_view text, const Limits& limits);

/// RFC 6901 escaping of one reference token ('~' → "~0", '/' → "~1").
std::string pointer_token(std::string_view key);

/// The pointer to a member of the root object: "/" + its escaped key.
std::string member_pointer(std::string_view key);

/// Compact JSON text of a value, numbers written with their original text.
std::string to_text(const Value& value);

}  // namespace geotruth::json
