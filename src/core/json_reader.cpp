#include "core/json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <nlohmann/json.hpp>
#include <unordered_set>

namespace geotruth::json {

const Value* Value::find(std::string_view key) const {
  for (const auto& [k, v] : members)
    if (k == key) return &v;
  return nullptr;
}

const char* kind_name(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::null:
      return "null";
    case Value::Kind::boolean:
      return "a boolean";
    case Value::Kind::number:
      return "a number";
    case Value::Kind::string:
      return "a string";
    case Value::Kind::array:
      return "an array";
    case Value::Kind::object:
      return "an object";
  }
  return "?";
}

std::string pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string member_pointer(std::string_view key) {
  std::string out = "/";
  out += pointer_token(key);
  return out;
}

namespace {

using nlohmann::json;

// Builds a Value tree from SAX events while tracking the JSON pointer of the current position.
class TreeBuilder final : public nlohmann::json_sax<json> {
 public:
  // `bytes(from, to)`: the document's text in [from, to) (clipped to its size), for error messages.
  using Bytes = std::function<std::string(std::size_t from, std::size_t to)>;
  TreeBuilder(std::size_t size, Bytes bytes, const Limits& limits)
      : size_(size), bytes_(std::move(bytes)), limits_(limits) {}

  // Drops each member of a root object once it is complete; those named in `kept_keys` stay, as null.
  bool drop_root_members = false;
  std::vector<std::string_view> kept_keys;

  Value root;
  std::optional<InputError> error;

  bool null() override { return add(Value{}); }
  bool boolean(bool v) override {
    Value value{Value::Kind::boolean};
    value.flag = v;
    return add(std::move(value));
  }
  bool number_integer(number_integer_t v) override { return add_number(std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add_number(std::to_string(v)); }
  bool number_float(number_float_t, const string_t& s) override { return add_number(s); }
  bool string(string_t& s) override {
    Value value{Value::Kind::string};
    value.text = std::move(s);
    return add(std::move(value));
  }
  bool binary(binary_t&) override { return fail("binary values are not JSON"); }

  bool start_object(std::size_t) override { return open(Value::Kind::object); }
  bool key(string_t& k) override {
    if (!open_keys_.back().insert(k).second) {
      pending_key_ = k;
      return fail("duplicate key \"" + k + "\"");
    }
    pending_key_ = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(Value::Kind::array); }
  bool end_array() override { return close(); }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) override {
    if (error) return false;  // our own earlier failure is the real cause
    // The word the lexer stopped in: back from the failure position over letters and signs.
    const std::size_t stop = std::min(position, size_), from = stop - std::min<std::size_t>(stop, 4096);
    const std::string before = bytes_(from, stop);
    std::size_t start = before.size();
    while (start > 0 && (std::isalpha(static_cast<unsigned char>(before[start - 1])) || before[start - 1] == '-'))
      --start;
    const std::string rest = before.substr(start) + bytes_(stop, stop + 16);
    for (std::string_view word : {"NaN", "nan", "Infinity", "-Infinity", "inf", "-inf", "-NaN"}) {
      if (std::string_view(rest).substr(0, word.size()) == word) {
        return fail("non-finite number '" + std::string(word) +
                    "': numbers must be finite JSON numbers or \"p/q\" strings");
      }
    }
    if (ex.id == 406)  // nlohmann's "number overflow"
      return fail(out_of_range_message(last_token));
    std::string message = ex.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: ..." → from "parse error".
    if (auto at = message.find("parse error"); at != std::string::npos) message = message.substr(at);
    if (stack_.empty() && root.kind == Value::Kind::null && position <= 1 && size_ == 0)
      message = "empty input: expected a JSON object";
    return fail("invalid JSON (" + message + ")");
  }

  std::string pointer() const {
    std::string out;
    for (const auto& level : path_) {
      out += '/';
      out += level.in_array ? std::to_string(level.index) : pointer_token(level.key);
    }
    if (!stack_.empty() && stack_.back()->kind == Value::Kind::object && !pending_key_.empty())
      out += "/" + pointer_token(pending_key_);
    else if (!stack_.empty() && stack_.back()->kind == Value::Kind::array)
      out += "/" + std::to_string(counts_.back());
    return out;
  }

 private:
  bool fail(std::string message) {
    if (!error) error = InputError{pointer(), std::move(message)};
    return false;
  }

  bool add_number(std::string text) {
    Value value{Value::Kind::number};
    value.text = std::move(text);
    return add(std::move(value));
  }

  // Places a value at the current position; returns a pointer to it where it now lives.
  Value* place(Value&& value) {
    if (++values_ > limits_.max_elements * 20)
      return fail("more than " + std::to_string(limits_.max_elements * 20) +
                  " JSON values in one record (raise --max-elements)"),
             nullptr;
    if (stack_.empty()) {
      if (placed_root_) return fail("more than one JSON value in the record"), nullptr;
      placed_root_ = true;
      root = std::move(value);
      return &root;
    }
    Value& parent = *stack_.back();
    if (parent.kind == Value::Kind::array && stack_.size() == 2 && ++elements_ > limits_.max_elements)
      // Items of the scene's top-level arrays (points, lines, ...) are its elements.
      return fail("more than " + std::to_string(limits_.max_elements) +
                  " elements in one scene (raise --max-elements)"),
             nullptr;
    ++counts_.back();
    const bool container = value.kind == Value::Kind::array || value.kind == Value::Kind::object;
    if (drop_root_members && stack_.size() >= 2 && !container) return &dropped_;  // checked, counted, not kept
    if (parent.kind == Value::Kind::array) {
      parent.items.push_back(std::move(value));
      return &parent.items.back();
    }
    parent.members.emplace_back(pending_key_, std::move(value));
    return &parent.members.back().second;
  }

  bool add(Value&& value) {
    if (!place(std::move(value))) return false;
    if (stack_.size() == 1) drop_finished_member();
    return true;
  }

  void drop_finished_member() {
    if (!drop_root_members || stack_.front()->kind != Value::Kind::object) return;
    auto& members = stack_.front()->members;
    if (std::find(kept_keys.begin(), kept_keys.end(), members.back().first) != kept_keys.end())
      members.back().second = {};
    else
      members.pop_back();
  }

  bool open(Value::Kind kind) {
    if (stack_.size() + 1 > limits_.max_depth)
      return fail("nesting deeper than " + std::to_string(limits_.max_depth) + " levels");
    const bool in_array = !stack_.empty() && stack_.back()->kind == Value::Kind::array;
    const std::size_t index = in_array ? counts_.back() : 0;
    Value* placed = place(Value{kind});
    if (!placed) return false;
    if (!stack_.empty()) path_.push_back({in_array, index, in_array ? std::string() : std::move(pending_key_)});
    stack_.push_back(placed);
    counts_.push_back(0);
    open_keys_.emplace_back();
    pending_key_.clear();
    return true;
  }

  bool close() {
    stack_.pop_back();
    counts_.pop_back();
    open_keys_.pop_back();
    if (!path_.empty() && stack_.size() == path_.size()) path_.pop_back();
    pending_key_.clear();
    if (stack_.size() == 1) drop_finished_member();
    return true;
  }

  std::size_t size_;
  Bytes bytes_;
  const Limits& limits_;
  // Pointers stay valid: a container only grows while it is the innermost open one.
  std::vector<Value*> stack_;
  std::vector<std::size_t> counts_;  // values placed in each open container (kept or dropped)
  Value dropped_;                    // where a dropped value goes
  std::vector<std::unordered_set<std::string>> open_keys_;
  // Where each open container sits in its parent, escaped only when a pointer is asked for.
  struct Level {
    bool in_array;
    std::size_t index;  // in an array
    std::string key;    // in an object
  };
  std::vector<Level> path_;
  std::string pending_key_;
  std::size_t values_ = 0, elements_ = 0;
  bool placed_root_ = false;
};

}  // namespace

std::variant<Value, InputError> read(std::string_view text, const Limits& limits) {
  if (text.size() > limits.max_line_bytes)
    return InputError{"", "record of " + std::to_string(text.size()) + " bytes exceeds the limit of " +
                              std::to_string(limits.max_line_bytes) + " bytes (raise --max-line-bytes)"};
  TreeBuilder builder(
      text.size(), [&](std::size_t from, std::size_t to) { return std::string(text.substr(from, to - from)); }, limits);
  const bool ok = json::sax_parse(text.begin(), text.end(), &builder);
  if (!ok || builder.error) {
    if (builder.error) return *builder.error;
    return InputError{builder.pointer(), "invalid JSON"};
  }
  return std::move(builder.root);
}

std::optional<InputError> check(std::istream& in, std::size_t size,
                                const std::function<std::string(std::size_t, std::size_t)>& bytes, const Limits& limits,
                                const std::vector<std::string_view>& kept_keys, Value& root) {
  if (size > limits.max_line_bytes)
    return InputError{"", "record of " + std::to_string(size) + " bytes exceeds the limit of " +
                              std::to_string(limits.max_line_bytes) + " bytes (raise --max-line-bytes)"};
  TreeBuilder builder(size, bytes, limits);
  builder.drop_root_members = true;
  builder.kept_keys = kept_keys;
  const bool ok = json::sax_parse(in, &builder);
  if (!ok || builder.error) {
    if (builder.error) return *builder.error;
    return InputError{builder.pointer(), "invalid JSON"};
  }
  root = std::move(builder.root);
  return std::nullopt;
}

std::string to_text(const Value& value) {
  switch (value.kind) {
    case Value::Kind::null:
      return "null";
    case Value::Kind::boolean:
      return value.flag ? "true" : "false";
    case Value::Kind::number:
      return value.text;
    case Value::Kind::string:
      return nlohmann::json(value.text).dump();
    case Value::Kind::array: {
      std::string out = "[";
      for (std::size_t i = 0; i < value.items.size(); ++i) out += (i ? "," : "") + to_text(value.items[i]);
      return out + "]";
    }
    case Value::Kind::object: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, v] : value.members) {
        out += (first ? "" : ",") + nlohmann::json(k).dump() + ":" + to_text(v);
        first = false;
      }
      return out + "}";
    }
  }
  return "null";
}

}  // namespace geotruth::json
