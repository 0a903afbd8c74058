// Image files written by render and crosscheck: names from scene ids, unique within a run.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "audit/run.hpp"
#include "batch/batch.hpp"

namespace geotruth::cli {

namespace fs = std::filesystem;

// A file name from a scene id: letters, digits, '.', '-', '_' kept, the rest '_'.
inline std::string file_stem(const Scene& scene, const RawRecord& record) {
  std::string stem = scene.id.empty() ? "line" + std::to_string(record.line) : scene.id;
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  if (stem.front() == '.') stem.insert(stem.begin(), '_');
  return stem;
}

inline void write_image(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  write_atomically(path.string(), {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
}

// Unique names within one run: a second scene with the same id gets its line number appended.
class Names {
 public:
  fs::path next(const fs::path& dir, std::string stem, std::size_t line, const std::string& extension) {
    if (!taken_.insert(stem).second) {
      stem += "-line" + std::to_string(line);
      taken_.insert(stem);
    }
    return dir / (stem + extension);
  }

 private:
  std::set<std::string> taken_;
};

}  // namespace geotruth::cli
