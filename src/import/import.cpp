#include "import/importers.hpp"

namespace geotruth {

namespace import {

std::variant<json::Value, ImportedScene> read_source_object(std::string_view text, const std::string& file_name,
                                                            const std::string& expected) {
  Limits limits;
  limits.max_line_bytes = kMaxSourceBytes;
  limits.max_elements = 10'000'000;
  auto tree = json::read(text, limits);
  if (auto* error = std::get_if<InputError>(&tree)) return ImportedScene{file_name, *error, {}};
  if (std::get<json::Value>(tree).kind != json::Value::Kind::object)
    return ImportedScene{file_name, InputError{"", "expected " + expected}, {}};
  return std::move(std::get<json::Value>(tree));
}

}  // namespace import

std::optional<SourceFormat> source_format_named(std::string_view name) {
  if (name == "native") return SourceFormat::native;
  if (name == "geometry3k") return SourceFormat::geometry3k;
  if (name == "pgdp") return SourceFormat::pgdp;
  if (name == "linelist") return SourceFormat::linelist;
  if (name == "gepbench") return SourceFormat::gepbench;
  return std::nullopt;
}

std::vector<ImportedScene> import_source(SourceFormat format, std::string_view text, const std::string& file_name) {
  switch (format) {
    case SourceFormat::geometry3k:
      return import::import_geometry3k(text, file_name);
    case SourceFormat::pgdp:
      return import::import_pgdp(text, file_name);
    case SourceFormat::linelist:
      return import::import_linelist(text, file_name);
    case SourceFormat::native:
      break;
  }
  return {{file_name, InputError{"", "native scenes are read by read_scene, not imported"}, {}}};
}

std::vector<ImportedScene> import_gepbench(const std::vector<std::pair<std::string, std::string>>& files) {
  return import::import_gepbench(files);
}

}  // namespace geotruth
