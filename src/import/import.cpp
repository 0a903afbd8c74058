#include "import/importers.hpp"

namespace geotruth {

std::optional<SourceFormat> source_format_named(std::string_view name) {
  if (name == "native") return SourceFormat::native;
  if (name == "geometry3k") return SourceFormat::geometry3k;
  if (name == "pgdp") return SourceFormat::pgdp;
  if (name == "linelist") return SourceFormat::linelist;
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

}  // namespace geotruth
