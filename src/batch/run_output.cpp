#include "batch/run_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <exception>
#include <fstream>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <thread>

#include "batch/files.hpp"
#include "core/build_json.hpp"

namespace geotruth {
namespace fs = std::filesystem;

namespace {

const char* order_name(StreamOrder order) {
  return order == StreamOrder::record ? "record" : "position";
}

// `path` as the manifest in `manifest_dir` names it: relative to that directory (the run's files
// move together), absolute only when no relative path leads there.
std::string relative_to(const fs::path& manifest_dir, const fs::path& path) {
  const fs::path base = fs::absolute(manifest_dir.empty() ? fs::path(".") : manifest_dir).lexically_normal();
  const fs::path target = fs::absolute(path).lexically_normal();
  fs::path rel = target.lexically_relative(base);
  if (rel.empty()) return target.string();
  std::string text = rel.string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

// Whether `path` is the home or inside it (a home directory).
bool inside(const fs::path& home, const fs::path& path) {
  const fs::path rel = fs::absolute(path).lexically_normal().lexically_relative(fs::absolute(home).lexically_normal());
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

ordered_json input_signature(const ImportSource& source, const Limits& limits) {
  static constexpr const char* kNames[] = {"native", "geometry3k", "pgdp", "linelist", "gepbench", "ai2d"};
  ordered_json out{{"from", "native"}};
  for (const char* name : kNames)
    if (source_format_named(name) == source.format) out["from"] = name;
  if (!source.categories.empty()) out["categories"] = source.categories;
  out["limits"] = {{"max_elements", limits.max_elements},    {"max_line_bytes", limits.max_line_bytes},
                   {"max_depth", limits.max_depth},          {"max_pairs", limits.work.max_pairs},
                   {"max_seconds", limits.work.max_seconds}, {"max_output_bytes", limits.work.max_output_bytes}};
  return out;
}

fs::path run_file(const fs::path& home, bool home_is_directory, const std::string& name) {
  // Built by appending: GCC 12 warns (-Wrestrict, wrongly) on "." + string.
  std::string hidden(1, '.');
  if (!home_is_directory) hidden.append(home.filename().string()).append(1, '.');
  hidden.append(name);
  return (home_is_directory ? home : home.parent_path()) / hidden;
}

fs::path manifest_path(const fs::path& home) {
  std::error_code ec;
  return run_file(home, fs::is_directory(home, ec), "run.json");
}

ordered_json run_manifest(const RunSpec& spec, const ordered_json& signature, std::size_t ordinals,
                          const RunTotals& totals) {
  const fs::path dir = spec.home_is_directory ? spec.home : spec.home.parent_path();
  ordered_json out = signature;
  out["records"] = {{"total", ordinals}, {"kept", totals.records}, {"errors", totals.errors}};
  ordered_json streams = ordered_json::array();
  for (const RunStream& s : spec.streams) {
    ordered_json item{{"path", relative_to(dir, s.path)}, {"order", order_name(s.order)}};
    if (!inside(spec.home, s.path)) item["option"] = s.option;
    streams.push_back(std::move(item));
  }
  out["streams"] = std::move(streams);
  ordered_json pictures = ordered_json::array();
  for (const RunPictures& p : spec.pictures) {
    ordered_json item{{"dir", relative_to(dir, p.dir)}, {"stream", p.stream}, {"field", p.field}};
    if (!spec.home_is_directory || !inside(spec.home, p.dir)) item["option"] = p.option;
    pictures.push_back(std::move(item));
  }
  out["pictures"] = std::move(pictures);
  out["same_files"] = spec.same_files;
  return out;
}

// A stream's part file: appended in record order, made durable at checkpoints.
struct RunOutput::Part {
  fs::path path;
  int fd = -1;
  std::unique_ptr<DescriptorBuffer> buffer;
  std::ostream stream{nullptr};

  Part(fs::path part_path, bool append) : path(std::move(part_path)) {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
    if (fd < 0) throw write_failure(path, errno);
    buffer = std::make_unique<DescriptorBuffer>(fd);
    stream.rdbuf(buffer.get());
  }
  ~Part() {
    stream.rdbuf(nullptr);
    buffer.reset();
    if (fd >= 0) ::close(fd);
  }
  // Hands the buffered bytes to the kernel; the file's size then.
  std::size_t flush() {
    stream.flush();
    if (buffer->error()) throw write_failure(path, buffer->error());
    const off_t at = ::lseek(fd, 0, SEEK_END);
    if (at < 0) throw write_failure(path, errno);
    return static_cast<std::size_t>(at);
  }
  void fsync() const {
    if (::fsync(fd) != 0) throw write_failure(path, errno);
  }
};

// Makes checkpoints durable off the writer's thread. The writer hands over a checkpoint whose part
// files' bytes are already with the kernel; this thread fsyncs the files and only then writes the
// checkpoint naming their sizes, so a checkpoint on disk never names bytes that are not. A newer
// checkpoint replaces one still waiting. An fsync takes milliseconds (4-24 ms on this project's
// 2-core machine): on the writer's thread it stalled every worker of an audit behind it.
class RunOutput::Syncer {
 public:
  Syncer(const std::vector<std::unique_ptr<Part>>& parts, fs::path checkpoint)
      : parts_(parts), checkpoint_(std::move(checkpoint)) {}
  // Writes the checkpoint still waiting (a run that ends in an error keeps as much as it can).
  ~Syncer() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  // Throws the failure of an earlier checkpoint.
  void submit(std::string state) {
    {
      const std::lock_guard lock(mutex_);
      if (error_) std::rethrow_exception(error_);
      pending_ = std::move(state);
      if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
    }
    wake_.notify_all();
  }
  // Waits until every checkpoint handed over is on disk; throws the failure of one.
  void drain() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return !pending_ && !busy_; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || pending_; });
      if (!pending_) return;
      const std::string state = std::move(*pending_);
      pending_.reset();
      busy_ = true;
      lock.unlock();
      try {
        for (const auto& part : parts_) part->fsync();
        write_atomically(checkpoint_, state);
        reach("checkpoint");
      } catch (...) {
        lock.lock();
        error_ = std::current_exception();
        lock.unlock();
      }
      lock.lock();
      busy_ = false;
      idle_.notify_all();
    }
  }
  const std::vector<std::unique_ptr<Part>>& parts_;
  fs::path checkpoint_;
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::optional<std::string> pending_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

ordered_json RunOutput::signature() const {
  ordered_json inputs = ordered_json::array();
  std::error_code ec;
  for (const auto& path : spec_.inputs) {
    const auto size = fs::file_size(path, ec);
    inputs.push_back({{"path", path}, {"bytes", ec ? 0 : size}});
  }
  return {{"subcommand", spec_.subcommand},           {"shard", spec_.shard.text()}, {"inputs", inputs},
          {"inputs_hash", inputs_hash(spec_.inputs)}, {"options", spec_.options},    {"geotruth", build_json()}};
}

RunOutput::RunOutput(RunSpec spec, std::ostream& log) : spec_(std::move(spec)) {
  const fs::path& home = spec_.home;
  if (spec_.home_is_directory)
    fs::create_directories(home);
  else if (!home.parent_path().empty())
    fs::create_directories(home.parent_path());
  for (const auto& p : spec_.pictures) fs::create_directories(p.dir);
  const std::string what = spec_.home.string();
  lock_ = std::make_unique<RunLock>(run_file(home, spec_.home_is_directory, "lock"), what, spec_.subcommand);
  // A writer killed mid-picture left its temporary behind; under the lock none of them is live.
  if (spec_.home_is_directory) remove_stale_temporaries(home);
  for (const auto& p : spec_.pictures) remove_stale_temporaries(p.dir);
  checkpoint_path_ = run_file(home, spec_.home_is_directory, "checkpoint.json");
  const fs::path manifest = run_file(home, spec_.home_is_directory, "run.json");
  signature_ = signature();

  // A saved state that is not this run's: say why, and how to start over.
  auto refuse = [&](const ordered_json& saved) {
    const bool same_names = saved.value("inputs", ordered_json()) == signature_["inputs"] &&
                            saved.value("subcommand", "") == spec_.subcommand;
    const bool same_run = same_names && saved.value("options", ordered_json()) == signature_["options"] &&
                          saved.value("shard", "") == signature_["shard"];
    if (same_run && saved.value("inputs_hash", ordered_json()) == signature_["inputs_hash"])
      throw std::runtime_error("--resume: " + what + " was written by geotruth " +
                               saved.value("geotruth", ordered_json()).dump() + ", this is " +
                               signature_["geotruth"].dump() + "; run again without --resume (or into another -o)");
    throw std::runtime_error("--resume: " + what +
                             (same_run ? " was written from inputs whose content has changed since"
                                       : " belongs to a run with other inputs or options (" +
                                             saved.value("subcommand", std::string("?")) + " " +
                                             saved.value("shard", std::string("?")) + ")") +
                             "; run again without --resume (or into another -o)");
  };
  bool append = false;
  std::error_code ec;
  if (spec_.resume && fs::exists(checkpoint_path_)) {
    ordered_json saved;
    try {
      saved = ordered_json::parse(std::ifstream(checkpoint_path_));
    } catch (const std::exception&) {
      throw std::runtime_error("--resume: " + checkpoint_path_.string() +
                               " is unreadable; remove the .part files and the checkpoint to start over");
    }
    if (saved.value("signature", ordered_json()) != signature_) refuse(saved.value("signature", ordered_json()));
    totals_ = {saved.value("records", std::size_t{0}), saved.value("errors", std::size_t{0})};
    if (saved.value("complete", false)) {  // killed while publishing: finish publishing
      publish(saved.value("ordinals", std::size_t{0}));
      log << spec_.subcommand << ": " << what << " was complete; published its outputs\n";
      complete_ = true;
      return;
    }
    done_ = last_ = saved["done"].get<std::size_t>();
    for (std::size_t k = 0; k < spec_.streams.size(); ++k) {
      const fs::path part = spec_.streams[k].path.string() + ".part";
      if (!fs::exists(part))
        throw std::runtime_error("--resume: " + part.string() + " is missing; run again without --resume");
      fs::resize_file(part, saved["sizes"][k].get<std::size_t>());
    }
    append = true;
    log << spec_.subcommand << ": resuming after record " << done_ << "\n";
  } else if (spec_.resume && fs::exists(manifest)) {
    ordered_json saved;
    try {
      saved = ordered_json::parse(std::ifstream(manifest));
    } catch (const std::exception&) {
      saved = ordered_json::object();
    }
    ordered_json same = saved;
    for (const char* key : {"records", "streams", "pictures", "same_files"}) same.erase(key);
    if (same != signature_) refuse(saved);
    totals_ = {saved["records"].value("kept", std::size_t{0}), saved["records"].value("errors", std::size_t{0})};
    log << spec_.subcommand << ": " << what << " is already complete\n";
    complete_ = true;
    return;
  }
  // A fresh run: whatever manifest was here described other outputs.
  fs::remove(manifest, ec);
  for (const auto& s : spec_.streams)
    parts_.push_back(std::make_unique<Part>(fs::path(s.path.string() + ".part"), append));
  syncer_ = std::make_unique<Syncer>(parts_, checkpoint_path_);
  if (!append) checkpoint(0, false);
}

RunOutput::~RunOutput() = default;

std::ostream& RunOutput::stream(std::size_t k) {
  return parts_.at(k)->stream;
}

void RunOutput::each_written_line(std::size_t k, const std::function<void(const std::string&)>& fn) const {
  std::ifstream in(spec_.streams.at(k).path.string() + ".part");
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) fn(line);
}

void RunOutput::checkpoint(std::size_t through, bool complete) {
  ordered_json state{{"signature", signature_},
                     {"done", through},
                     {"records", totals_.records},
                     {"errors", totals_.errors},
                     {"sizes", ordered_json::array()}};
  for (auto& part : parts_) state["sizes"].push_back(part->flush());
  if (complete) state["complete"] = true, state["ordinals"] = through;
  if (through > 0 && !complete) return syncer_->submit(state.dump());
  // The first and the last checkpoint here and now, after any still being written.
  syncer_->drain();
  for (auto& part : parts_) part->fsync();
  write_atomically(checkpoint_path_, state.dump());
}

void RunOutput::written(std::size_t ordinal, bool error) {
  ++totals_.records;
  totals_.errors += error;
  last_ = ordinal;
  // The first checkpoint after `checkpoint_every` records whatever the time (a short run killed
  // early resumes from it); the next ones at least `checkpoint_seconds` apart as well.
  if (++since_checkpoint_ < spec_.checkpoint_every) return;
  const auto now = std::chrono::steady_clock::now();  // read once the records are there, not per record
  if (spec_.checkpoint_seconds > 0 && checkpointed_ &&
      now - *checkpointed_ < std::chrono::duration<double>(spec_.checkpoint_seconds))
    return;
  checkpoint(last_, false);
  since_checkpoint_ = 0;
  checkpointed_ = std::chrono::steady_clock::now();
}

void RunOutput::finish(std::size_t ordinals) {
  if (complete_) return;
  reach("finishing");
  // Records of other shards after the last kept one are done too.
  checkpoint(std::max({last_, done_, ordinals}), true);
  reach("complete");
  syncer_.reset();
  parts_.clear();
  publish(std::max({last_, done_, ordinals}));
}

void RunOutput::publish(std::size_t ordinals) {
  for (const auto& s : spec_.streams) {
    const fs::path part = s.path.string() + ".part";
    if (fs::exists(part)) fs::rename(part, s.path);
    reach("renaming");
  }
  reach("renamed");
  write_atomically(run_file(spec_.home, spec_.home_is_directory, "run.json"),
                   run_manifest(spec_, signature_, ordinals, totals_).dump(2) + "\n");
  fs::remove(checkpoint_path_);
  reach("published");
}

}  // namespace geotruth
