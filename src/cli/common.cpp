#include "cli/common.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace geotruth::cli {

std::filesystem::path beside_executable(const char* name) {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / name;
}

void InputOptions::add_to(CLI::App& app, const std::string& what) {
  app.add_option("inputs", inputs, what)->required();
  app.add_option("--from", from,
                 "input format: native, geometry3k, pgdp, linelist, gepbench (rules.json + VQA jsonl), ai2d "
                 "(annotation files, a directory of them, or a JSONL of them)")
      ->check(CLI::IsMember({"native", "geometry3k", "pgdp", "linelist", "gepbench", "ai2d"}))
      ->capture_default_str();
  app.add_option("--categories", categories,
                 "ai2d: AI2D's categories.json; tags each scene food web, life cycle, circuit or other")
      ->check(CLI::ExistingFile);
  // A directory reads as an empty file on most systems: say so instead of finding no records
  // (AI2D's importer reads directories of annotation files).
  app.parse_complete_callback([this] {
    std::error_code ec;
    if (from != "ai2d")
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
  app.add_option("--max-seconds", limits.work.max_seconds, "work limit: most wall-clock seconds for one scene")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--max-output-bytes", limits.work.max_output_bytes, "work limit: largest output record in bytes")
      ->capture_default_str();
}

int DescriptorBuffer::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) sputc(traits_type::to_char_type(c));
  return traits_type::not_eof(c);
}

int DescriptorBuffer::sync() {
  return drain() ? 0 : -1;
}

bool DescriptorBuffer::drain() {
  const char* from = pbase();
  while (from < pptr() && !error_) {
    const ssize_t n = ::write(fd_, from, pptr() - from);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      error_ = n < 0 ? errno : EIO;
    else
      from += n;
  }
  setp(buffer_.get(), buffer_.get() + kSize);
  return !error_;
}

Output::Output(const std::string& path) : path_(path == "-" ? "" : path) {
  if (!path_.empty()) {
    temp_ = path_ + ".tmp." + std::to_string(::getpid());
    if (auto parent = std::filesystem::path(path_).parent_path(); !parent.empty())
      std::filesystem::create_directories(parent);
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0)  // fail before the work, not after it
      throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
  } else {
    std::cout.flush();  // anything already written through std::cout goes first
  }
  buffer_ = std::make_unique<DescriptorBuffer>(fd_);
  stream_.rdbuf(buffer_.get());
}

Output::~Output() {
  if (temp_.empty()) return;
  if (fd_ >= 0) ::close(fd_);
  std::remove(temp_.c_str());  // not committed: leave no partial output
}

bool Output::commit() {
  stream_.flush();
  const std::string name = path_.empty() ? "standard output" : path_;
  auto fail = [&](int cause) {
    std::cerr << "geotruth: cannot write " << name << ": " << std::strerror(cause) << '\n';
    return false;
  };
  if (buffer_->error()) return fail(buffer_->error());
  if (path_.empty()) return true;
  if (::close(fd_) != 0) {
    fd_ = -1;
    return fail(errno);
  }
  fd_ = -1;
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) return fail(errno);
  temp_.clear();
  return true;
}

}  // namespace geotruth::cli
