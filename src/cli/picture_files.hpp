// Image files written by render and crosscheck: names from scene ids, unique within a run
// (batch/pictures.hpp, the rule merge follows too).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "batch/batch.hpp"
#include "batch/files.hpp"
#include "batch/pictures.hpp"
#include "cli/common.hpp"

namespace geotruth::cli {

namespace fs = std::filesystem;

inline std::string file_stem(const Scene& scene, const RawRecord& record) {
  return picture_stem(scene.id, record.line);
}

inline void write_image(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  write_atomically(path, {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
}

using Names = PictureNames;

// The picture names an interrupted run gave (its records' `field`), for the resumed run to go on.
inline void names_written(const RecordsOutput& out, const std::string& field, PictureNames& names) {
  out.each_written_line([&](const std::string& line) {
    const ordered_json record = ordered_json::parse(line, nullptr, false);
    if (record.is_object() && record.contains(field) && record[field].is_string())
      names.taken(fs::path(record[field].get<std::string>()).stem().string());
  });
}

}  // namespace geotruth::cli
