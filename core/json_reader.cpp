#include "core/json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
// RapidJSON copies runs of plain string characters 16 at a time from a NUL-terminated text.
#define RAPIDJSON_SSE2
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
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

// Builds a Value tree from parse events while tracking the JSON pointer of the current position,
// and enforces what plain JSON does not: unique keys, the depth and element limits. Both parsers
// below feed it the same events, so both give the same tree and the same limit errors.
class TreeBuilder {
 public:
  explicit TreeBuilder(const Limits& limits) : limits_(limits) {}

  // Check mode: nothing below the root is kept; a root object keeps the members named in
  // `kept_keys`, as null.
  bool drop_root_members = false;
  std::vector<std::string_view> kept_keys;

  Value root;
  std::optional<InputError> error;

  bool null() { return scalar(Value::Kind::null); }
  bool boolean(bool v) {
    Value* slot = nullptr;
    if (!make_room(Value::Kind::boolean, slot)) return false;
    if (slot) slot->flag = v;
    return scalar_done();
  }
  bool number(std::string_view text) { return scalar(Value::Kind::number, text); }
  bool string(std::string_view text) { return scalar(Value::Kind::string, text); }
  bool key(std::string_view k) {
    pending_key_.assign(k);
    if (!frames_[depth_ - 1].keys.insert(k)) return fail("duplicate key \"" + pending_key_ + "\"");
    return true;
  }
  bool start_object() { return open(Value::Kind::object); }
  bool start_array() { return open(Value::Kind::array); }
  bool end_container() {
    const Frame& frame = frames_[--depth_];
    pending_key_.clear();
    if (depth_ == 1) root_member_done(frame.key);
    return true;
  }

  bool fail(std::string message) {
    if (!error) error = InputError{pointer(), std::move(message)};
    return false;
  }

  std::string pointer() const {
    std::string out;
    for (std::size_t i = 1; i < depth_; ++i) {
      out += '/';
      out += frames_[i].in_array ? std::to_string(frames_[i].index) : pointer_token(frames_[i].key);
    }
    if (depth_ == 0) return out;
    const Frame& current = frames_[depth_ - 1];
    if (current.kind == Value::Kind::object && !pending_key_.empty())
      out += "/" + pointer_token(pending_key_);
    else if (current.kind == Value::Kind::array)
      out += "/" + std::to_string(current.count);
    return out;
  }

  bool empty() const { return depth_ == 0 && !placed_root_; }

 private:
  // The keys of one open object: a short list scanned in one reused buffer, a hash set once it is
  // long (so a huge object costs linear time, and a small one no allocation per key).
  class KeySet {
   public:
    bool insert(std::string_view key) {
      if (!many_.empty() || ends_.size() == kFew) {
        if (many_.empty())
          for (std::size_t i = 0, from = 0; i < ends_.size(); from = ends_[i++])
            many_.emplace(few_, from, ends_[i] - from);
        return many_.emplace(key).second;
      }
      for (std::size_t i = 0, from = 0; i < ends_.size(); from = ends_[i++])
        if (std::string_view(few_).substr(from, ends_[i] - from) == key) return false;
      few_ += key;
      ends_.push_back(few_.size());
      return true;
    }
    void clear() { few_.clear(), ends_.clear(), many_.clear(); }

   private:
    static constexpr std::size_t kFew = 16;
    std::string few_;                // the keys one after another
    std::vector<std::size_t> ends_;  // where each ends in few_
    std::unordered_set<std::string> many_;
  };

  // One open container. Frames are reused from one container to the next at the same depth.
  struct Frame {
    Value* value = nullptr;  // where it lives in the tree; null when it is not kept
    Value::Kind kind = Value::Kind::null;
    std::size_t count = 0;  // values placed in it (kept or not)
    KeySet keys;
    // Where it sits in its parent, escaped only when a pointer is asked for.
    bool in_array = false;
    std::size_t index = 0;  // in an array
    std::string key;        // in an object
  };

  bool scalar(Value::Kind kind, std::string_view text = {}) {
    Value* slot = nullptr;
    if (!make_room(kind, slot)) return false;
    if (slot) slot->text.assign(text);
    return scalar_done();
  }
  bool scalar_done() {
    if (depth_ == 1) root_member_done(pending_key_);
    return true;
  }

  // Counts a new value at the current position against the limits and makes its place: `slot`
  // is where it goes, or null when it is counted but not kept.
  bool make_room(Value::Kind kind, Value*& slot) {
    if (++values_ > limits_.max_elements * 20)
      return fail("more than " + std::to_string(limits_.max_elements * 20) +
                  " JSON values in one record (raise --max-elements)");
    if (depth_ == 0) {
      if (placed_root_) return fail("more than one JSON value in the record");
      placed_root_ = true;
      root = Value{kind};
      slot = &root;
      return true;
    }
    Frame& parent = frames_[depth_ - 1];
    if (parent.kind == Value::Kind::array && depth_ == 2 && ++elements_ > limits_.max_elements)
      // Items of the scene's top-level arrays (points, lines, ...) are its elements.
      return fail("more than " + std::to_string(limits_.max_elements) +
                  " elements in one scene (raise --max-elements)");
    ++parent.count;
    if (!parent.value || (drop_root_members && depth_ == 1)) {
      slot = nullptr;
    } else if (parent.kind == Value::Kind::array) {
      slot = &parent.value->items.emplace_back(kind);
    } else {
      slot = &parent.value->members.emplace_back(pending_key_, Value{kind}).second;
    }
    return true;
  }

  void root_member_done(std::string_view key) {
    if (drop_root_members && frames_[0].kind == Value::Kind::object &&
        std::find(kept_keys.begin(), kept_keys.end(), key) != kept_keys.end())
      root.members.emplace_back(key, Value{});
  }

  bool open(Value::Kind kind) {
    if (depth_ + 1 > limits_.max_depth)
      return fail("nesting deeper than " + std::to_string(limits_.max_depth) + " levels");
    const bool in_array = depth_ > 0 && frames_[depth_ - 1].kind == Value::Kind::array;
    const std::size_t index = in_array ? frames_[depth_ - 1].count : 0;
    Value* slot = nullptr;
    if (!make_room(kind, slot)) return false;
    if (depth_ == frames_.size()) frames_.emplace_back();
    Frame& frame = frames_[depth_++];
    frame.value = slot, frame.kind = kind, frame.count = 0, frame.in_array = in_array, frame.index = index;
    frame.keys.clear();
    frame.key.assign(in_array ? std::string_view() : std::string_view(pending_key_));
    pending_key_.clear();
    return true;
  }

  const Limits& limits_;
  // Value pointers stay valid: a container only grows while it is the innermost open one.
  std::vector<Frame> frames_;
  std::size_t depth_ = 0;  // frames in use
  std::string pending_key_;
  std::size_t values_ = 0, elements_ = 0;
  bool placed_root_ = false;
};

// The exact path: nlohmann's parser, whose messages the errors quote. It runs when the fast path
// below does not accept the text, so every error reads as it always has.
class NlohmannEvents final : public nlohmann::json_sax<json> {
 public:
  // `bytes(from, to)`: the document's text in [from, to) (clipped to its size), for error messages.
  using Bytes = std::function<std::string(std::size_t from, std::size_t to)>;
  NlohmannEvents(TreeBuilder& tree, std::size_t size, Bytes bytes)
      : tree_(tree), size_(size), bytes_(std::move(bytes)) {}

  bool null() override { return tree_.null(); }
  bool boolean(bool v) override { return tree_.boolean(v); }
  bool number_integer(number_integer_t v) override { return tree_.number(std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return tree_.number(std::to_string(v)); }
  bool number_float(number_float_t, const string_t& s) override { return tree_.number(s); }
  bool string(string_t& s) override { return tree_.string(s); }
  bool binary(binary_t&) override { return tree_.fail("binary values are not JSON"); }
  bool start_object(std::size_t) override { return tree_.start_object(); }
  bool key(string_t& k) override { return tree_.key(k); }
  bool end_object() override { return tree_.end_container(); }
  bool start_array(std::size_t) override { return tree_.start_array(); }
  bool end_array() override { return tree_.end_container(); }

  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) override {
    if (tree_.error) return false;  // our own earlier failure is the real cause
    // The word the lexer stopped in: back from the failure position over letters and signs.
    const std::size_t stop = std::min(position, size_), from = stop - std::min<std::size_t>(stop, 4096);
    const std::string before = bytes_(from, stop);
    std::size_t start = before.size();
    while (start > 0 && (std::isalpha(static_cast<unsigned char>(before[start - 1])) || before[start - 1] == '-'))
      --start;
    const std::string rest = before.substr(start) + bytes_(stop, stop + 16);
    for (std::string_view word : {"NaN", "nan", "Infinity", "-Infinity", "inf", "-inf", "-NaN"}) {
      if (std::string_view(rest).substr(0, word.size()) == word) {
        return tree_.fail("non-finite number '" + std::string(word) +
                          "': numbers must be finite JSON numbers or \"p/q\" strings");
      }
    }
    if (ex.id == 406)  // nlohmann's "number overflow"
      return tree_.fail(out_of_range_message(last_token));
    std::string message = ex.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: ..." → from "parse error".
    if (auto at = message.find("parse error"); at != std::string::npos) message = message.substr(at);
    if (tree_.empty() && position <= 1 && size_ == 0) message = "empty input: expected a JSON object";
    return tree_.fail("invalid JSON (" + message + ")");
  }

 private:
  TreeBuilder& tree_;
  std::size_t size_;
  Bytes bytes_;
};

// The fast path: RapidJSON's parser (iterative, numbers as their text). It accepts no
// text the exact path rejects — the events below give up where the two could differ — and on
// accepted text both give the same events, so it only has to say "accepted" or "ask the exact path".
class RapidEvents : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, RapidEvents> {
 public:
  explicit RapidEvents(TreeBuilder& tree) : tree_(tree) {}

  bool Null() { return tree_.null(); }
  bool Bool(bool v) { return tree_.boolean(v); }
  // nlohmann hands an integer that fits 64 bits over as its value (so "-0" reads "0"), any other
  // number as its text, and fails where that text overflows a double. (`text` ends in a NUL.)
  bool RawNumber(const char* text, rapidjson::SizeType length, bool) {
    const std::string_view token(text, length);
    if (token == "-0") return tree_.number("0");
    if ((token.find_first_of("eE") != std::string_view::npos || length >= 300) &&
        !std::isfinite(std::strtod(text, nullptr)))
      return false;
    return tree_.number(token);
  }
  // Strings are checked here, once, on the decoded text, rather than by RapidJSON's parser: that
  // also catches an escaped lone low surrogate ("\udc00"), which RapidJSON decodes to the invalid
  // UTF-8 bytes ED B0 80 where nlohmann rejects it.
  bool String(const char* text, rapidjson::SizeType length, bool) {
    return plain_text(text, length) && tree_.string({text, length});
  }
  bool Key(const char* text, rapidjson::SizeType length, bool) {
    return plain_text(text, length) && tree_.key({text, length});
  }
  bool StartObject() { return tree_.start_object(); }
  bool EndObject(rapidjson::SizeType) { return tree_.end_container(); }
  bool StartArray() { return tree_.start_array(); }
  bool EndArray(rapidjson::SizeType) { return tree_.end_container(); }

 private:
  // Valid UTF-8 (RFC 3629: no surrogates, no overlong forms, by RapidJSON's own validator) and
  // none of 0x1A-0x1F: RapidJSON's SSE2 string scan tests c <= 0x19 for "must be escaped" and lets
  // those through raw, which nlohmann rejects (an escaped one is valid: the exact path tells).
  static bool plain_text(const char* text, std::size_t length) {
    const char* end = text + length;
    const auto printable_ascii = [](char c) { return static_cast<unsigned char>(c) - 0x20u < 0x60u; };
    if (std::all_of(text, end, printable_ascii)) return true;
    if (std::any_of(text, end, [](char c) { return static_cast<unsigned char>(c) - 0x1Au < 6u; })) return false;
    struct Discard {
      void Put(char) {}
    } discard;
    rapidjson::MemoryStream stream(text, length);
    while (stream.Tell() < length)
      if (!rapidjson::UTF8<>::Validate(stream, discard)) return false;
    return true;
  }
  TreeBuilder& tree_;
};

// A RapidJSON input stream over a std::streambuf, read a block at a time ('\0' at the end, as
// RapidJSON expects).
class BufferStream {
 public:
  using Ch = char;
  explicit BufferStream(std::streambuf& buffer)
      : buffer_(buffer), block_(new char[kSize]), at_(block_.get()), end_(block_.get()) {}
  Ch Peek() { return at_ < end_ || refill() ? *at_ : '\0'; }
  Ch Take() { return at_ < end_ || refill() ? *at_++ : '\0'; }
  std::size_t Tell() const { return before_ + static_cast<std::size_t>(at_ - block_.get()); }
  Ch* PutBegin() { return nullptr; }  // the rest is for in-place parsing, which is not used
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

 private:
  bool refill() {
    before_ = Tell();
    const auto n = buffer_.sgetn(block_.get(), static_cast<std::streamsize>(kSize));
    at_ = block_.get(), end_ = at_ + std::max<std::streamsize>(n, 0);
    return at_ < end_;
  }
  std::streambuf& buffer_;
  static constexpr std::size_t kSize = 1 << 16;
  std::unique_ptr<char[]> block_;  // not zeroed
  const char *at_, *end_;
  std::size_t before_ = 0;  // bytes in the blocks before this one
};

constexpr unsigned kRapidFlags =
    rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseStopWhenDoneFlag;

// True when RapidJSON reads all of `stream` (`size` bytes) as one JSON value into `tree`.
template <typename Stream>
bool fast_parse(Stream& stream, std::size_t size, TreeBuilder& tree) {
  if (size > std::numeric_limits<rapidjson::SizeType>::max()) return false;  // its string lengths are 32-bit
  RapidEvents events(tree);
  rapidjson::Reader reader;
  if (reader.Parse<kRapidFlags>(stream, events).IsError() || tree.error) return false;
  rapidjson::SkipWhitespace(stream);
  // All of it: a '\0' inside the text would otherwise end it early.
  return stream.Tell() == size && stream.Peek() == '\0';
}

std::optional<InputError> exact_parse_error(TreeBuilder& tree, bool parsed) {
  if (parsed && !tree.error) return std::nullopt;
  if (tree.error) return *tree.error;
  return InputError{tree.pointer(), "invalid JSON"};
}

std::optional<InputError> over_line_limit(std::size_t size, const Limits& limits) {
  if (size <= limits.max_line_bytes) return std::nullopt;
  return InputError{"", "record of " + std::to_string(size) + " bytes exceeds the limit of " +
                            std::to_string(limits.max_line_bytes) + " bytes (raise --max-line-bytes)"};
}

}  // namespace

std::optional<Value> read_fast(std::string_view text, const Limits& limits) {
  if (text.size() > limits.max_line_bytes) return std::nullopt;
  TreeBuilder tree(limits);
  // StringStream's SSE2 scans want a NUL-terminated text, and read it in whole aligned 16-byte
  // blocks: the copy ends in 16 NULs, so that the block holding the end is inside it.
  std::string terminated(text);
  terminated.append(16, '\0');
  rapidjson::StringStream stream(terminated.c_str());
  if (!fast_parse(stream, text.size(), tree)) return std::nullopt;
  return std::move(tree.root);
}

std::variant<Value, InputError> read_exact(std::string_view text, const Limits& limits) {
  if (auto error = over_line_limit(text.size(), limits)) return *error;
  TreeBuilder tree(limits);
  NlohmannEvents events(tree, text.size(),
                        [&](std::size_t from, std::size_t to) { return std::string(text.substr(from, to - from)); });
  const bool parsed = json::sax_parse(text.begin(), text.end(), &events);
  if (auto error = exact_parse_error(tree, parsed)) return *error;
  return std::move(tree.root);
}

std::variant<Value, InputError> read(std::string_view text, const Limits& limits) {
  if (auto value = read_fast(text, limits)) return std::move(*value);
  return read_exact(text, limits);
}

std::optional<InputError> check(const std::function<std::unique_ptr<std::streambuf>()>& open, std::size_t size,
                                const std::function<std::string(std::size_t, std::size_t)>& bytes, const Limits& limits,
                                const std::vector<std::string_view>& kept_keys, Value& root) {
  if (auto error = over_line_limit(size, limits)) return *error;
  const auto tree_for_check = [&] {
    TreeBuilder tree(limits);
    tree.drop_root_members = true;
    tree.kept_keys = kept_keys;
    return tree;
  };
  {
    TreeBuilder tree = tree_for_check();
    auto buffer = open();
    BufferStream stream(*buffer);
    if (fast_parse(stream, size, tree)) {
      root = std::move(tree.root);
      return std::nullopt;
    }
  }
  TreeBuilder tree = tree_for_check();
  NlohmannEvents events(tree, size, bytes);
  auto buffer = open();
  std::istream in(buffer.get());
  const bool parsed = json::sax_parse(in, &events);
  if (auto error = exact_parse_error(tree, parsed)) return *error;
  root = std::move(tree.root);
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
