// A JSON tree that keeps each number's decimal text, read by RapidJSON's SAX reader (nlohmann's when an
// error message is needed).
#pragma once

#include <functional>
#include <geotruth/input.hpp>
#include <memory>
#include <optional>
#include <streambuf>
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
/// It is read_fast, or read_exact where read_fast declines.
std::variant<Value, InputError> read(std::string_view text, const Limits& limits);

/// read's fast path (RapidJSON): the same Value as read_exact on every text it accepts, and it
/// accepts no text read_exact rejects; nullopt where it declines (every error, and the rare valid
/// text whose events could differ, e.g. a leading byte order mark).
std::optional<Value> read_fast(std::string_view text, const Limits& limits);

/// read's exact path (nlohmann's parser, whose messages the errors quote).
std::variant<Value, InputError> read_exact(std::string_view text, const Limits& limits);

/// Checks one JSON document of `size` bytes exactly as `read` would — the same errors, pointers
/// and limits — without keeping it: each member of a root object is dropped as soon as it is
/// complete (memory: one member, and the root's keys for the duplicate check). `open()` gives the
/// document's text from its start, each time it is called (a fast pass, then the exact one for
/// an error message). On success `root` is the root's kind, and for an object the members named in
/// `kept_keys`, with null values. `bytes(from, to)` gives the
/// document's text in [from, to) for error messages.
std::optional<InputError> check(const std::function<std::unique_ptr<std::streambuf>()>& open, std::size_t size,
                                const std::function<std::string(std::size_t, std::size_t)>& bytes, const Limits& limits,
                                const std::vector<std::string_view>& kept_keys, Value& root);

/// RFC 6901 escaping of one reference token ('~' → "~0", '/' → "~1").
std::string pointer_token(std::string_view key);

/// The pointer to a member of the root object: "/" + its escaped key.
std::string member_pointer(std::string_view key);

/// Compact JSON text of a value, numbers written with their original text.
std::string to_text(const Value& value);

}  // namespace geotruth::json
