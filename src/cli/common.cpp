#include "cli/common.hpp"

#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace geotruth::cli {

std::filesystem::path beside_executable(const char* name) {
  const std::filesystem::path dir = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  std::error_code ec;
  for (const auto& candidate : {dir / name, dir / "../lib/geotruth" / name, dir / "../../bin" / name})
    if (std::filesystem::exists(candidate, ec)) return candidate.lexically_normal();
  return dir / name;
}

void InputOptions::add_threads_to(CLI::App& app) {
  app.add_option("--threads", threads, "--from picture: threads reading the pictures (default: all cores)");
}

void InputOptions::add_to(CLI::App& app, const std::string& what) {
  app.add_option("inputs", inputs, what)->required();
  app.add_option("--from", from,
                 "input format: native, geometry3k, pgdp, linelist, gepbench (rules.json + VQA jsonl), ai2d "
                 "(annotation files, a directory of them, or a JSONL of them), visonlyqa (item files, or a "
                 "split's folder such as dataset/val), picture (PNG or JPEG files, or folders of them: each picture "
                 "read into a scene, docs/reader.md)")
      ->check(CLI::IsMember({"native", "geometry3k", "pgdp", "linelist", "gepbench", "ai2d", "visonlyqa", "picture"}))
      ->capture_default_str();
  app.add_option("--categories", categories,
                 "ai2d: AI2D's categories.json; tags each scene food web, life cycle, circuit or other")
      ->check(CLI::ExistingFile);
  // A directory reads as an empty file on most systems: say so instead of finding no records
  // (AI2D's importer reads directories of annotation files).
  app.parse_complete_callback([this] {
    std::error_code ec;
    if (from != "ai2d" && from != "visonlyqa" && from != "picture")
      for (const auto& path : inputs)
        if (std::filesystem::is_directory(path, ec))
          throw CLI::ValidationError("inputs", path + " is a directory: give the files in it");
  });
  app.add_option("--max-elements", limits.max_elements, "most elements (array items) in one scene")
      ->capture_default_str();
  app.add_option("--max-line-bytes", limits.max_line_bytes, "longest input record in bytes")->capture_default_str();
  app.add_option("--max-depth", limits.max_depth, "deepest JSON nesting")->capture_default_str();
  app.add_option("--max-pairs", limits.work.max_pairs,
                 "work limit: most pairs of elements examined for one scene (then an error record)")
      ->capture_default_str();
  app.add_option(
         "--max-seconds", limits.work.max_seconds,
         "work limit: most CPU seconds for one scene (its thread's, so a loaded machine gives the same verdicts)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--max-output-bytes", limits.work.max_output_bytes, "work limit: largest output record in bytes")
      ->capture_default_str();
}

void BatchOptions::add_to(CLI::App& app, bool checkpoint_option) {
  app.add_option("--shard", shard, "this run's share of the records: i/n takes records i, i+n, i+2n, … (0-based i)")
      ->check(CLI::Validator(
          [](std::string& text) {
            return parse_shard(text) ? std::string() : "--shard takes i/n with 0 <= i < n, e.g. 0/4";
          },
          "i/n"));
  app.add_flag("--resume", resume,
               "continue an interrupted run (even one killed) from its checkpoint; starts afresh when there is none");
  if (checkpoint_option) {
    app.add_option("--checkpoint-every", checkpoint_every, "records between checkpoints")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--checkpoint-seconds", checkpoint_seconds,
                   "and, after the first, at least this many seconds between them (0: by records alone)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
  }
}

Output::Output(const std::string& path) : path_(path == "-" ? "" : path) {
  if (!path_.empty()) {
    if (auto parent = std::filesystem::path(path_).parent_path(); !parent.empty())
      std::filesystem::create_directories(parent);
    file_ = std::make_unique<AtomicFile>(path_);  // fails before the work, not after it
  } else {
    std::cout.flush();  // anything already written through std::cout goes first
    stdout_ = std::make_unique<DescriptorBuffer>(1);
    stream_ = std::make_unique<std::ostream>(stdout_.get());
  }
}

Output::~Output() = default;

std::ostream& Output::stream() {
  return file_ ? file_->stream() : *stream_;
}

bool Output::commit() {
  try {
    if (file_) {
      file_->commit();
      return true;
    }
  } catch (const std::exception& e) {
    std::cerr << "geotruth: " << e.what() << '\n';
    return false;
  }
  stream_->flush();
  if (stdout_->error()) {
    std::cerr << "geotruth: cannot write standard output: " << std::strerror(stdout_->error()) << '\n';
    return false;
  }
  return true;
}

namespace {
RecordsTarget with_inputs(RecordsTarget target, const InputOptions& in) {
  target.inputs = in.inputs;
  ordered_json options = input_signature(in.format(), in.limits);
  for (const auto& [key, value] : target.options.items()) options[key] = value;
  target.options = std::move(options);
  return target;
}
}  // namespace

RecordsOutput::RecordsOutput(const RecordsTarget& target, const InputOptions& in, const BatchOptions& batch)
    : RecordsOutput(with_inputs(target, in), batch) {}

RecordsOutput::RecordsOutput(const RecordsTarget& target, const BatchOptions& batch) : shard_(batch.parsed()) {
  const bool to_stdout = target.records.empty() || target.records == "-";
  if (!batch.resumable()) {
    plain_ = std::make_unique<Output>(target.records);
    return;
  }
  if (to_stdout)
    throw CLI::ValidationError("--shard/--resume",
                               "a shard or a resumable run writes its records to a file (merge "
                               "joins files): give -o FILE");
  RunSpec spec;
  spec.subcommand = target.subcommand;
  spec.home_is_directory = !target.home.empty();
  spec.home = spec.home_is_directory ? target.home : target.records;
  spec.streams.push_back({target.records, StreamOrder::position, "records"});
  spec.pictures = target.pictures;
  spec.inputs = target.inputs;
  spec.options = target.options;
  spec.shard = shard_;
  spec.resume = batch.resume;
  spec.checkpoint_every = batch.checkpoint_every;
  spec.checkpoint_seconds = batch.checkpoint_seconds;
  run_ = std::make_unique<RunOutput>(std::move(spec), std::cerr);
}

RecordsOutput::~RecordsOutput() = default;

std::ostream& RecordsOutput::stream() {
  return run_ ? run_->stream(0) : plain_->stream();
}

BatchPlan RecordsOutput::plan() {
  BatchPlan plan{shard_, 0, {}};
  if (run_) {
    plan.after = run_->resume_after();
    plan.written = [run = run_.get()](std::size_t ordinal, bool error) { run->written(ordinal, error); };
  }
  return plan;
}

void RecordsOutput::each_written_line(const std::function<void(const std::string&)>& fn) const {
  if (run_ && !run_->complete() && run_->resume_after() > 0) run_->each_written_line(0, fn);
}

bool RecordsOutput::finish(const BatchStats& stats) {
  if (plain_) return plain_->commit();
  try {
    run_->finish(stats.ordinals);
  } catch (const std::exception& e) {
    std::cerr << "geotruth: " << e.what() << '\n';
    return false;
  }
  return true;
}

RunTotals RecordsOutput::totals(const BatchStats& stats) const {
  if (run_) return run_->totals();
  return {stats.records, stats.errors};
}

}  // namespace geotruth::cli
