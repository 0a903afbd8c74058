#include "batch/merge.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <queue>
#include <set>
#include <stdexcept>

#include "batch/files.hpp"
#include "batch/pictures.hpp"

namespace geotruth {
namespace fs = std::filesystem;

namespace {

std::runtime_error failure(const std::string& what) {
  return std::runtime_error("merge: " + what);
}

struct ShardRun {
  std::string arg;  // as given
  fs::path dir;     // the directory its manifest's paths are relative to
  ordered_json manifest;
  Shard shard;
};

ShardRun read_shard(const std::string& arg) {
  std::error_code ec;
  const bool is_dir = fs::is_directory(arg, ec);
  const fs::path manifest = run_file(arg, is_dir, "run.json");
  if (!fs::exists(manifest)) {
    if (fs::exists(run_file(arg, is_dir, "checkpoint.json")))
      throw failure(arg + " is an unfinished run (it has a checkpoint, no manifest): run it again with --resume");
    if (!fs::exists(arg, ec)) throw failure(arg + " does not exist");
    throw failure(arg + " has no run manifest (" + manifest.string() +
                  "): not the output of a finished geotruth run with --shard or --resume");
  }
  ShardRun s{arg, is_dir ? fs::path(arg) : fs::path(arg).parent_path(), {}, {}};
  try {
    s.manifest = ordered_json::parse(std::ifstream(manifest));
    const auto shard = parse_shard(s.manifest.at("shard").get<std::string>());
    if (!shard) throw std::runtime_error("bad shard");
    s.shard = *shard;
    s.manifest.at("streams").size(), s.manifest.at("records").at("total").get<std::size_t>();
  } catch (const std::exception&) {
    throw failure(manifest.string() + " is not a run manifest geotruth can read");
  }
  return s;
}

// What must be equal between the shards of one run.
ordered_json run_identity(const ordered_json& manifest) {
  ordered_json id = manifest;
  for (const char* key : {"shard", "records", "streams", "pictures"}) id.erase(key);
  // Paths differ between shards (part3.jsonl, overlays/shard3): their number and kind do not.
  for (const char* list : {"streams", "pictures"}) {
    ordered_json kinds = ordered_json::array();
    for (auto item : manifest.value(list, ordered_json::array())) {
      item.erase("path"), item.erase("dir");
      kinds.push_back(std::move(item));
    }
    id[list] = std::move(kinds);
  }
  return id;
}

std::string describe(const ordered_json& manifest) {
  return manifest.value("subcommand", std::string("?")) + " of " +
         std::to_string(manifest.value("inputs", ordered_json::array()).size()) + " input(s), inputs hash " +
         manifest.value("inputs_hash", std::string("?"));
}

// One shard's stream, line by line.
class LineReader {
 public:
  explicit LineReader(const fs::path& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_) throw failure(path.string() + " is missing");
  }
  bool next(std::string& line) {
    while (std::getline(in_, line))
      if (!line.empty()) return true;
    return false;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  std::ifstream in_;
};

// The ordinal of an audit line: {"record":N,...}.
std::size_t record_of(const std::string& line, const fs::path& path) {
  constexpr std::string_view prefix = "{\"record\":";
  std::size_t value = 0;
  if (line.compare(0, prefix.size(), prefix) == 0) {
    const char* begin = line.data() + prefix.size();
    const auto [end, error] = std::from_chars(begin, line.data() + line.size(), value);
    if (error == std::errc{} && end != begin) return value;
  }
  try {
    return ordered_json::parse(line).at("record").get<std::size_t>();
  } catch (const std::exception&) {
    throw failure(path.string() + ": a line without its \"record\" ordinal");
  }
}

// Picture folder of the merged run: shard files renamed as one run names them, in record order.
struct PictureMerge {
  std::string field;
  std::vector<fs::path> shard_dirs;
  std::string out_dir;  // as the user wrote it: records name pictures under it
  PictureNames names;
  std::size_t count = 0;

  // Puts the record's picture in place and rewrites its path, the record's last member.
  void take(std::string& line, const fs::path& stream_path, std::size_t shard) {
    ordered_json record;
    try {
      record = ordered_json::parse(line);
    } catch (const std::exception&) {
      throw failure(stream_path.string() + ": a line that is not JSON");
    }
    const auto it = record.find(field);
    if (it == record.end() || !it->is_string()) return;  // an error record: no picture
    const std::string old_path = it->get<std::string>();
    const std::size_t line_number = record.value("line", std::size_t{0});
    const fs::path name = fs::path(old_path).filename();
    const fs::path target = names.next(out_dir, picture_stem(record.value("id", std::string()), line_number),
                                       line_number, fs::path(old_path).extension().string());
    const fs::path source = shard_dirs[shard] / name;
    if (!fs::exists(source)) throw failure(source.string() + " (named in " + stream_path.string() + ") is missing");
    link_or_copy(source, target);
    ++count;
    const std::string old_tail = ",\"" + field + "\":" + to_line(old_path) + "}";
    if (line.size() < old_tail.size() || line.compare(line.size() - old_tail.size(), old_tail.size(), old_tail) != 0)
      throw failure(stream_path.string() + ": \"" + field + "\" is not the last member of its record");
    line.replace(line.size() - old_tail.size(), old_tail.size(),
                 ",\"" + field + "\":" + to_line(target.string()) + "}");
  }
};

}  // namespace

MergeResult merge_runs(const std::vector<std::string>& args, const MergeTargets& targets,
                       const std::function<void(const MergeResult&)>& finish) {
  if (args.empty()) throw failure("no shards given");
  std::vector<ShardRun> shards;
  for (const auto& arg : args) shards.push_back(read_shard(arg));
  std::sort(shards.begin(), shards.end(),
            [](const ShardRun& a, const ShardRun& b) { return a.shard.index < b.shard.index; });
  const ordered_json identity = run_identity(shards.front().manifest);
  const std::size_t n = shards.front().shard.count;
  for (const ShardRun& s : shards) {
    if (run_identity(s.manifest) != identity)
      throw failure(s.arg + " is not a shard of the same run as " + shards.front().arg + " (" + describe(s.manifest) +
                    " against " + describe(shards.front().manifest) + ", or other options)");
    if (s.shard.count != n)
      throw failure(s.arg + " is shard " + s.shard.text() + ", " + shards.front().arg + " shard " +
                    shards.front().shard.text() + ": not one split");
  }
  std::string missing;
  for (std::size_t i = 0, k = 0; i < n; ++i) {
    std::size_t found = 0;
    for (; k < shards.size() && shards[k].shard.index == i; ++k) ++found;
    if (found > 1) throw failure("shard " + std::to_string(i) + "/" + std::to_string(n) + " is given twice");
    if (found == 0) missing += (missing.empty() ? "" : ", ") + std::to_string(i) + "/" + std::to_string(n);
  }
  if (!missing.empty()) throw failure("shard(s) " + missing + " missing: every shard of the run is needed");

  const ordered_json& first = shards.front().manifest;
  MergeResult result;
  result.subcommand = first["subcommand"];
  result.options = first.value("options", ordered_json::object());
  result.shards = n;
  result.ordinals = first["records"]["total"];
  std::error_code ec;
  const bool home_is_directory = fs::is_directory(shards.front().arg, ec);
  const fs::path home(targets.output);
  if (home_is_directory)
    fs::create_directories(home);
  else if (!home.parent_path().empty())
    fs::create_directories(home.parent_path());
  const RunLock lock(run_file(home, home_is_directory, "lock"), targets.output, "merge");

  // Where each of the run's outputs goes: inside the merged home as in the shards', or where the
  // option the shards' run used for it names.
  auto target_of = [&](const ordered_json& item, const std::string& key) -> std::string {
    if (item.contains("option")) {
      const std::string option = item["option"];
      const auto it = targets.options.find(option);
      if (it == targets.options.end() || it->second.empty())
        throw failure("the shards' " + result.subcommand + " wrote " + (key == "dir" ? "pictures" : "records") +
                      " where --" + option + " said: give merge --" + option + " for the merged ones");
      return it->second;
    }
    const std::string rel = item[key];
    if (!home_is_directory || rel == ".") return targets.output;
    return (home / rel).string();
  };

  RunSpec merged;
  merged.subcommand = result.subcommand;
  merged.home = home;
  merged.home_is_directory = home_is_directory;
  for (const auto& s : first["streams"])
    merged.streams.push_back({target_of(s, "path"),
                              s["order"] == "record" ? StreamOrder::record : StreamOrder::position,
                              s.value("option", std::string())});
  std::vector<std::unique_ptr<PictureMerge>> pictures;
  for (std::size_t p = 0; p < first["pictures"].size(); ++p) {
    const ordered_json& item = first["pictures"][p];
    auto merge = std::make_unique<PictureMerge>();
    merge->field = item["field"];
    merge->out_dir = target_of(item, "dir");
    for (const ShardRun& s : shards)
      merge->shard_dirs.push_back(s.dir / s.manifest["pictures"][p]["dir"].get<std::string>());
    fs::create_directories(merge->out_dir);
    merged.pictures.push_back({merge->out_dir, item["stream"], merge->field, item.value("option", std::string())});
    pictures.push_back(std::move(merge));
  }

  for (const ShardRun& s : shards) {
    const auto& r = s.manifest["records"];
    const std::size_t i = s.shard.index, expected = result.ordinals > i ? (result.ordinals - i - 1) / n + 1 : 0;
    if (r["total"].get<std::size_t>() != result.ordinals || r["kept"].get<std::size_t>() != expected)
      throw failure(s.arg + " holds " + r["kept"].dump() + " of " + r["total"].dump() + " records, not shard " +
                    s.shard.text() + " of " + std::to_string(result.ordinals));
    result.totals.records += r["kept"].get<std::size_t>();
    result.totals.errors += r["errors"].get<std::size_t>();
  }

  // Pictures no record names (field ""): named by their item alone, so unique across the shards;
  // checked before anything is written, gathered after the streams.
  std::vector<std::pair<fs::path, fs::path>> gathered;
  for (const auto& p : pictures) {
    if (!p->field.empty()) continue;
    std::set<fs::path> taken;
    for (const fs::path& dir : p->shard_dirs)
      for (const auto& entry : fs::directory_iterator(dir)) {
        const fs::path name = entry.path().filename();
        if (!entry.is_regular_file() || name.string().front() == '.' || name.extension() == ".jsonl" ||
            name.extension() == ".part")
          continue;
        if (!taken.insert(name).second) throw failure(name.string() + " is a picture of two shards");
        gathered.emplace_back(entry.path(), fs::path(p->out_dir) / name);
        ++p->count;
      }
  }

  for (std::size_t k = 0; k < merged.streams.size(); ++k) {
    std::vector<LineReader> readers;
    for (const ShardRun& s : shards) readers.emplace_back(s.dir / s.manifest["streams"][k]["path"].get<std::string>());
    std::vector<PictureMerge*> named;
    for (std::size_t p = 0; p < pictures.size(); ++p)
      if (merged.pictures[p].stream == k && !pictures[p]->field.empty()) named.push_back(pictures[p].get());
    AtomicFile out(merged.streams[k].path);
    std::string line;
    if (merged.streams[k].order == StreamOrder::position) {
      // One line per record: record o is shard (o − 1) mod n's next line.
      for (std::size_t ordinal = 1; ordinal <= result.ordinals; ++ordinal) {
        const std::size_t i = (ordinal - 1) % n;
        if (!readers[i].next(line))
          throw failure(readers[i].path().string() + " ends before record " + std::to_string(ordinal));
        for (PictureMerge* p : named) p->take(line, readers[i].path(), i);
        out.stream() << line << '\n';
      }
      for (auto& reader : readers)
        if (reader.next(line)) throw failure(reader.path().string() + " has more lines than its records");
    } else {
      // Lines carry their record's ordinal: a k-way merge, each shard's file in input order.
      struct Head {
        std::size_t record, shard;
        std::string line;
      };
      auto later = [](const Head& a, const Head& b) { return a.record > b.record; };
      std::priority_queue<Head, std::vector<Head>, decltype(later)> heap(later);
      for (std::size_t i = 0; i < n; ++i)
        if (readers[i].next(line)) heap.push({record_of(line, readers[i].path()), i, std::move(line)});
      while (!heap.empty()) {
        Head head = heap.top();
        heap.pop();
        for (PictureMerge* p : named) p->take(head.line, readers[head.shard].path(), head.shard);
        out.stream() << head.line << '\n';
        if (readers[head.shard].next(line))
          heap.push({record_of(line, readers[head.shard].path()), head.shard, std::move(line)});
      }
    }
    out.commit();
  }
  for (const auto& [from, to] : gathered) link_or_copy(from, to);
  for (const auto& p : pictures) result.pictures += p->count;

  // Files every shard wrote the same (the band in force: each shard read all the inputs).
  for (const auto& name : first["same_files"]) {
    const std::string file = name;
    auto bytes = [&](const ShardRun& s) {
      std::ifstream in(s.dir / file, std::ios::binary);
      if (!in) throw failure((s.dir / file).string() + " is missing");
      return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    };
    const std::string text = bytes(shards.front());
    for (const ShardRun& s : shards)
      if (bytes(s) != text) throw failure((s.dir / file).string() + " differs from " + shards.front().arg + "'s");
    write_atomically(home / file, text);
    merged.same_files.push_back(file);
  }

  if (finish) finish(result);
  ordered_json signature = first;
  for (const char* key : {"records", "streams", "pictures", "same_files"}) signature.erase(key);
  signature["shard"] = "0/1";
  write_atomically(run_file(home, home_is_directory, "run.json"),
                   run_manifest(merged, signature, result.ordinals, result.totals).dump(2) + "\n");
  return result;
}

}  // namespace geotruth
