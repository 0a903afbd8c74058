// Picture files of a batch run (render's images, crosscheck's overlays): named after the record's
// scene id, unique within the run. One rule for the run and for merge, which names the pictures of
// joined shards as one run would have.
#pragma once

#include <cctype>
#include <filesystem>
#include <set>
#include <string>

namespace geotruth {

/// A picture's name before the run makes it unique: the scene id with every character other than
/// letters, digits, '.', '-', '_' made '_' (a leading '.' gets a '_' before it), or "line<N>" for a
/// scene without an id.
inline std::string picture_stem(const std::string& id, std::size_t line) {
  std::string stem = id.empty() ? "line" + std::to_string(line) : id;
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  if (stem.front() == '.') stem.insert(stem.begin(), '_');
  return stem;
}

/// Unique names within one run, in record order: a second record with the same stem gets its line
/// number appended ("-line<N>").
class PictureNames {
 public:
  std::filesystem::path next(const std::filesystem::path& dir, std::string stem, std::size_t line,
                             const std::string& extension) {
    if (!taken_.insert(stem).second) {
      stem += "-line" + std::to_string(line);
      taken_.insert(stem);
    }
    return dir / (stem + extension);
  }
  /// A name already given (by the interrupted run a resumed one continues).
  void taken(const std::string& stem) { taken_.insert(stem); }

 private:
  std::set<std::string> taken_;
};

}  // namespace geotruth
