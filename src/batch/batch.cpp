#include "batch/batch.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>

#include "batch/batch_writer.hpp"

namespace geotruth {

namespace {
constexpr std::size_t kChunk = 1 << 20;

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool is_blank(const std::string& s) {
  return s.find_first_not_of(" \t\r\n") == std::string::npos;
}
}  // namespace

RecordReader::RecordReader(std::string path, std::size_t max_bytes)
    : path_(std::move(path)), max_bytes_(max_bytes), buffer_(new char[kChunk]) {
  if (path_ == "-") {
    file_ = stdin;
  } else {
    file_ = std::fopen(path_.c_str(), "rb");
    owns_ = true;
    if (!file_) open_error_ = std::strerror(errno);
    whole_file_ = ends_with(path_, ".json");
  }
}

RecordReader::~RecordReader() {
  if (owns_ && file_) std::fclose(file_);
}

bool RecordReader::fill() {
  if (done_) return false;
  const std::size_t n = std::fread(buffer_.get(), 1, kChunk, file_);
  begin_ = 0;
  end_ = n;
  if (n == 0) done_ = true;
  return n > 0;
}

bool RecordReader::next(RawRecord& record) {
  for (;;) {
    record = RawRecord{path_, 0, {}, 0, {}, {}};
    bool saw_any = false;
    for (;;) {
      if (begin_ == end_ && !fill()) break;
      saw_any = true;
      const char* start = buffer_.get() + begin_;
      const std::size_t avail = end_ - begin_;
      const void* nl = whole_file_ ? nullptr : std::memchr(start, '\n', avail);
      const std::size_t take = nl ? static_cast<const char*>(nl) - start : avail;
      if (record.dropped_bytes == 0 && record.text.size() + take <= max_bytes_) {
        record.text.append(start, take);
      } else {
        // Over the limit: count, don't store.
        record.dropped_bytes += record.text.size() + take;
        record.text.clear();
        record.text.shrink_to_fit();
      }
      begin_ += take;
      consumed_ += take;
      if (nl) {
        ++begin_;
        ++consumed_;
        break;
      }
    }
    if (!saw_any) return false;
    record.line = whole_file_ ? 1 : ++line_;
    if (record.dropped_bytes == 0 && is_blank(record.text)) {
      if (whole_file_) return true;  // an empty .json file is still one (bad) record
      continue;
    }
    return true;
  }
}

ordered_json error_record(const RawRecord& record, const InputError& error) {
  ordered_json out;
  out["line"] = record.line;
  out["file"] = record.file;
  if (!record.key.empty()) out["key"] = record.key;
  out["error"] = {{"pointer", error.pointer}, {"message", error.message}};
  return out;
}

namespace {

// Reads a whole input (a file or stdin) for an importer, byte for byte and ending in '\n': blank
// lines kept, so that the importer's line numbers are the file's (and a blank line can end a
// line list's figure).
std::optional<std::string> slurp(const std::string& path, std::string& error) {
  constexpr std::size_t kMaxBytes = std::size_t{1} << 30;
  std::FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!file) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  std::string text;
  std::unique_ptr<char[]> buffer(new char[kChunk]);
  bool failed = false;
  for (std::size_t n; (n = std::fread(buffer.get(), 1, kChunk, file)) > 0;) {
    if (text.size() + n > kMaxBytes) {
      error = "input larger than 1 GiB";
      failed = true;
      break;
    }
    text.append(buffer.get(), n);
  }
  if (!failed && std::ferror(file)) {
    error = std::strerror(errno);
    failed = true;
  }
  if (file != stdin) std::fclose(file);
  if (failed) return std::nullopt;
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

std::string too_long(const RawRecord& record, const Limits& limits) {
  return "record of " + std::to_string(record.dropped_bytes) + " bytes exceeds the limit of " +
         std::to_string(limits.max_line_bytes) + " bytes (raise --max-line-bytes)";
}

}  // namespace

namespace {
PictureFileReader& registered_picture_reader() {
  static PictureFileReader reader;
  return reader;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_picture_file(const std::filesystem::path& path) {
  const std::string extension = lower(path.extension().string());
  return extension == ".png" || extension == ".jpg" || extension == ".jpeg";
}
}  // namespace

void set_picture_reader(PictureFileReader reader) {
  registered_picture_reader() = std::move(reader);
}

ImportedScene read_picture_file(const std::string& path, const WorkLimits& work) {
  const PictureFileReader& reader = registered_picture_reader();
  if (!reader)
    return {picture_id(path),
            InputError{"",
                       "this process cannot read pictures: geotruth-parallel reads them with its vision module "
                       "(run geotruth, which runs it for --from picture)"},
            {},
            {}};
  try {
    const WorkBudget budget(work);
    return reader(path);
  } catch (const InputError& e) {  // the work limit: a runaway reading is the picture's error record
    return {picture_id(path), InputError{"", path + ": " + e.message}, {}, {}};
  }
}

std::vector<std::string> picture_inputs(const std::string& path) {
  std::error_code error;
  if (path == "-" || !std::filesystem::is_directory(path, error)) return {path};
  std::vector<std::string> files;
  for (auto it = std::filesystem::recursive_directory_iterator(path, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error))
    if (it->is_regular_file(error) && is_picture_file(it->path())) files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string picture_id(const std::string& path) {
  const std::filesystem::path p(path);
  if (p.stem() == "img_diagram" && p.has_parent_path() && !p.parent_path().filename().empty())
    return p.parent_path().filename().string();
  return p.stem().string();
}

RecordStream::RecordStream(std::vector<std::string> inputs, const ImportSource& source, const Limits& limits)
    : inputs_(std::move(inputs)), format_(source.format), limits_(limits) {
  if (format_ == SourceFormat::picture) {
    std::vector<std::string> files;
    for (const auto& path : inputs_)
      for (auto& file : picture_inputs(path)) files.push_back(std::move(file));
    inputs_ = std::move(files);
  }
  if (format_ == SourceFormat::ai2d) {
    std::vector<std::string> files;
    for (const auto& path : inputs_)
      for (auto& file : ai2d_inputs(path)) files.push_back(std::move(file));
    inputs_ = std::move(files);
    if (!source.categories.empty()) {
      std::string error;
      const auto text = slurp(source.categories, error);
      if (!text) throw std::invalid_argument("cannot read " + source.categories + ": " + error);
      auto categories = read_ai2d_categories(*text);
      if (auto* e = std::get_if<InputError>(&categories))
        throw std::invalid_argument(source.categories + ": " + (e->pointer.empty() ? "/" : e->pointer) + ": " +
                                    e->message);
      categories_ = std::move(std::get<Ai2dCategories>(categories));
    }
  }
  if (format_ == SourceFormat::visonlyqa) {
    std::vector<std::string> files;
    for (const auto& path : inputs_)
      for (auto& file : visonlyqa_inputs(path)) files.push_back(std::move(file));
    inputs_ = std::move(files);
  }
  std::error_code ec;
  for (const auto& path : inputs_)
    if (path != "-") bytes_total_ += static_cast<std::size_t>(std::filesystem::file_size(path, ec)) * !ec;
}

RecordStream::~RecordStream() = default;

std::size_t RecordStream::bytes_read() const {
  return bytes_done_ + (reader_ ? reader_->consumed() : 0);
}

bool RecordStream::open_next_input() {
  if (reader_) bytes_done_ += reader_->consumed();
  reader_.reset();
  source_.reset();
  imported_.clear();
  imported_next_ = 0;
  if (input_ >= inputs_.size()) return false;
  const std::string& path = inputs_[input_++];
  auto fail = [&](const std::string& message, const std::string& file) {
    StreamItem item;
    item.raw = RawRecord{file, 0, {}, 0, {}, {}};
    item.imported = InputError{"", message};
    pending_ = std::move(item);
  };
  if (format_ == SourceFormat::picture) {
    StreamItem item;  // read when its scene is asked for, on the thread that asks
    item.raw = RawRecord{path, 1, {}, 0, {}, {}};
    item.picture = path;
    pending_ = std::move(item);
  } else if (format_ == SourceFormat::native) {
    reader_ = std::make_unique<RecordReader>(path, limits_.max_line_bytes);
    if (!reader_->ok()) {
      fail("cannot open input: " + reader_->open_error(), path);
      reader_.reset();
    }
  } else if (format_ == SourceFormat::gepbench || format_ == SourceFormat::visonlyqa) {
    // Rules and questions (VisOnlyQA: descriptions and the items sharing them) live in several
    // files: read them all, import once.
    std::vector<std::pair<std::string, std::string>> files;
    for (std::size_t k = input_ - 1; k < inputs_.size(); ++k) {
      std::string error;
      const auto text = slurp(inputs_[k], error);
      if (!text) {
        fail("cannot read input: " + error, inputs_[k]);
        return true;
      }
      files.emplace_back(inputs_[k], *text);
    }
    imported_ = format_ == SourceFormat::gepbench ? import_gepbench(files) : import_visonlyqa(files);
    imported_file_ = path;
    input_ = inputs_.size();
  } else if (format_ == SourceFormat::ai2d) {
    open_ai2d(path);
  } else if ((source_ = stream_source(format_, path))) {
    imported_file_ = path;
  } else {
    std::string error;
    const auto text = slurp(path, error);
    if (!text)
      fail("cannot read input: " + error, path);
    else
      imported_ = import_source(format_, *text, path);
    imported_file_ = path;
  }
  return true;
}

// One annotation file with its question file, or a JSONL of annotations.
void RecordStream::open_ai2d(const std::string& path) {
  imported_file_ = path;
  std::string error;
  const auto text = slurp(path, error);
  if (!text) {
    imported_.push_back({ai2d_key(path), InputError{"", "cannot read input: " + error}, {}, {}});
    return;
  }
  if (!path.ends_with(".json")) {
    imported_ = import_ai2d_lines(*text, path, categories_);
    return;
  }
  std::string questions;
  if (const std::string questions_path = ai2d_questions_path(path); !questions_path.empty()) {
    const auto read = slurp(questions_path, error);
    if (!read) {
      imported_.push_back({ai2d_key(path), InputError{"", "cannot read " + questions_path + ": " + error}, {}, {}});
      return;
    }
    questions = *read;
  }
  imported_.push_back(import_ai2d(*text, questions, ai2d_key(path), categories_));
}

ImportedScene* RecordStream::next_imported() {
  if (source_) return source_->next(streamed_) ? &streamed_ : nullptr;
  return imported_next_ < imported_.size() ? &imported_[imported_next_] : nullptr;
}

bool RecordStream::next(StreamItem& item) {
  for (;;) {
    if (pending_) {
      item = std::move(*pending_);
      pending_.reset();
      item.ordinal = ++ordinal_;
      return true;
    }
    if (reader_) {
      item = StreamItem{};
      if (reader_->next(item.raw)) {
        if (item.raw.dropped_bytes > 0) item.imported = InputError{"", too_long(item.raw, limits_)};
        item.ordinal = ++ordinal_;
        return true;
      }
    } else if (ImportedScene* imported = next_imported()) {
      ++imported_next_;
      item = StreamItem{};
      // An importer reading several files at once says which file and line each record is from.
      item.raw = RawRecord{imported->file.empty() ? imported_file_ : std::move(imported->file),
                           imported->line ? imported->line : imported_next_,
                           {},
                           0,
                           imported->key,
                           std::move(imported->notes)};
      item.imported = std::move(imported->scene);
      item.ordinal = ++ordinal_;
      return true;
    }
    if (!open_next_input()) return false;
  }
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
      continue;
    }
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default: {
        char code[8];
        std::snprintf(code, sizeof code, "\\u%04x", u);
        out += code;
      }
    }
  }
  return out;
}

SceneOrError scene_of(const StreamItem& item, const Limits& limits) {
  if (!item.picture.empty()) return read_picture_file(item.picture, limits.work).scene;
  if (item.imported) return *item.imported;
  return read_scene(item.raw.text, limits);
}

SceneOrError take_scene(StreamItem& item, const Limits& limits) {
  if (!item.picture.empty()) return read_picture_file(item.picture, limits.work).scene;
  if (item.imported) return std::move(*item.imported);
  return read_scene(item.raw.text, limits);
}

PictureFolder::PictureFolder(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, error)) {
    const std::filesystem::path& path = entry.path();
    std::string extension = path.extension().string();
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (extension != ".png" && extension != ".jpg" && extension != ".jpeg") continue;
    const std::string stem = path.stem().string();
    by_stem_.try_emplace(stem, path);  // the first of <name>.png, .jpg, .jpeg listed
    const auto underscore = stem.rfind('_');
    if (underscore != std::string::npos && stem.size() - underscore == 9 &&
        stem.find_first_not_of("0123456789", underscore + 1) == std::string::npos)
      by_index_.try_emplace(std::stoull(stem.substr(underscore + 1)), path);
  }
}

std::vector<std::string> picture_names(const Scene& scene, const std::string& key) {
  std::vector<std::string> names{scene.id, key};
  if (!scene.extra.empty())
    if (const auto extra = ordered_json::parse(scene.extra, nullptr, false);
        extra.is_object() && extra.contains("image") && extra["image"].is_string())
      names.push_back(extra["image"].get<std::string>());
  return names;
}

std::optional<std::filesystem::path> PictureFolder::find(const std::vector<std::string>& names) const {
  for (const std::string& name : names) {
    if (name.empty()) continue;
    // A path under the folder (VisOnlyQA's image_path: "images/SyntheticGeometry/…jpeg").
    if (name.find('/') != std::string::npos && name.find("..") == std::string::npos)
      if (std::error_code error; std::filesystem::is_regular_file(dir_ / name, error)) return dir_ / name;
    if (auto it = by_stem_.find(name); it != by_stem_.end()) return it->second;
    if (const auto nested = dir_ / name / "img_diagram.png"; std::filesystem::exists(nested)) return nested;
    constexpr std::string_view kGepbench = "gepbench-";
    if (name.rfind(kGepbench, 0) == 0 && name.size() > kGepbench.size() && name.size() - kGepbench.size() <= 8 &&
        name.find_first_not_of("0123456789", kGepbench.size()) == std::string::npos)
      if (auto it = by_index_.find(std::stoull(name.substr(kGepbench.size()))); it != by_index_.end())
        return it->second;
  }
  return std::nullopt;
}

std::string PictureFolder::looked_for(const std::vector<std::string>& names) const {
  std::string out;
  for (const std::string& name : names)
    if (name.find('/') != std::string::npos)
      out += (out.empty() ? "" : ", ") + (dir_ / name).string();
    else if (!name.empty())
      out += (out.empty() ? "" : ", ") + (dir_ / name).string() + ".png/.jpg/.jpeg, " +
             (dir_ / name / "img_diagram.png").string();
  return out + (out.empty() ? "" : " in ") + dir_.string();
}

BatchStats run_batch(const std::vector<std::string>& inputs, const ImportSource& source, const Limits& limits,
                     const SceneHandler& handler, std::ostream& out, std::ostream& diagnostics, const BatchPlan& plan) {
  BatchWriter writer(limits, out, diagnostics);
  RecordStream stream(inputs, source, limits);
  StreamItem item;
  std::size_t records = 0;
  while (stream.next(item)) {
    if (!plan.takes(item.ordinal)) continue;
    ++records;
    const SceneOrError scene = take_scene(item, limits);
    const bool written = std::holds_alternative<InputError>(scene)
                             ? writer.error(item.raw, std::get<InputError>(scene))
                             : writer.write(item.raw, [&] { return handler(std::get<Scene>(scene), item.raw); });
    if (plan.written) plan.written(item.ordinal, !written);
  }
  return writer.finish(records, stream.ordinals());
}

}  // namespace geotruth
