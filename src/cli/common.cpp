#include "cli/common.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace geotruth::cli {

void InputOptions::add_to(CLI::App& app, const std::string& what) {
  app.add_option("inputs", inputs, what)->required();
  app.add_option("--from", from, "input format: native, geometry3k, pgdp, linelist, gepbench (rules.json + VQA jsonl)")
      ->check(CLI::IsMember({"native", "geometry3k", "pgdp", "linelist", "gepbench"}))
      ->capture_default_str();
  app.add_option("--max-elements", limits.max_elements, "most elements (array items) in one scene")
      ->capture_default_str();
  app.add_option("--max-line-bytes", limits.max_line_bytes, "longest input record in bytes")->capture_default_str();
  app.add_option("--max-depth", limits.max_depth, "deepest JSON nesting")->capture_default_str();
}

Output::Output(const std::string& path) : path_(path == "-" ? "" : path), stdout_(&std::cout) {
  if (path_.empty()) return;
  temp_ = path_ + ".tmp." + std::to_string(::getpid());
  if (auto parent = std::filesystem::path(path_).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent);
  file_ = std::make_unique<std::ofstream>(temp_, std::ios::binary | std::ios::trunc);
}

Output::~Output() {
  if (file_) {
    file_.reset();
    std::remove(temp_.c_str());  // not committed: leave no partial output
  }
}

bool Output::commit() {
  if (!file_) {
    std::cout.flush();
    return static_cast<bool>(std::cout);
  }
  file_->flush();
  const bool good = static_cast<bool>(*file_);
  file_.reset();
  if (!good || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    std::cerr << "geotruth: cannot write " << path_ << '\n';
    std::remove(temp_.c_str());
    return false;
  }
  return true;
}

}  // namespace geotruth::cli
