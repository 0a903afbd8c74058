#include "import/importers.hpp"

namespace geotruth {

namespace import {

Limits source_limits() {
  Limits limits;
  limits.max_line_bytes = kMaxSourceBytes;
  limits.max_elements = 10'000'000;
  return limits;
}

std::variant<json::Value, ImportedScene> read_source_object(std::string_view text, const std::string& file_name,
                                                            const std::string& expected) {
  auto tree = json::read(text, source_limits());
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
  if (name == "ai2d") return SourceFormat::ai2d;
  if (name == "visonlyqa") return SourceFormat::visonlyqa;
  if (name == "picture") return SourceFormat::picture;
  return std::nullopt;
}

std::string gepbench_scene_id(const std::string& image_id) {
  return "gepbench-" + image_id;
}

void validate_imported(ImportedScene& imported) {
  const Scene* scene = std::get_if<Scene>(&imported.scene);
  if (!scene) return;
  auto error = validate(*scene);
  if (!error) return;
  const std::pair<std::string, std::string>* origin = nullptr;
  for (const auto& o : imported.origins) {
    const bool prefix = error->pointer.compare(0, o.first.size(), o.first) == 0 &&
                        (error->pointer.size() == o.first.size() || error->pointer[o.first.size()] == '/');
    if (prefix && (!origin || o.first.size() > origin->first.size())) origin = &o;
  }
  if (origin) {
    error->message += " (imported as " + error->pointer + ")";
    error->pointer = origin->second;
  } else {
    error->message += " (in the imported scene, at " + (error->pointer.empty() ? "/" : error->pointer) + ")";
    error->pointer = "";
  }
  imported.scene = std::move(*error);
}

namespace {
std::vector<ImportedScene> validated(std::vector<ImportedScene> scenes) {
  for (auto& s : scenes) validate_imported(s);
  return scenes;
}
}  // namespace

std::vector<ImportedScene> import_source(SourceFormat format, std::string_view text, const std::string& file_name) {
  switch (format) {
    case SourceFormat::geometry3k:
      return validated(import::import_geometry3k(text, file_name));
    case SourceFormat::pgdp:
      return validated(import::import_pgdp(text, file_name));
    case SourceFormat::linelist:
      return validated(import::import_linelist(text, file_name));
    case SourceFormat::gepbench:
      return validated(import::import_gepbench({{file_name, std::string(text)}}));
    case SourceFormat::ai2d:
      if (file_name.ends_with(".json")) {
        std::vector<ImportedScene> one;
        one.push_back(import_ai2d(text, "", ai2d_key(file_name)));
        return one;
      }
      return import_ai2d_lines(text, file_name);
    case SourceFormat::visonlyqa:
      return validated(import::import_visonlyqa({{file_name, std::string(text)}}));
    case SourceFormat::native:
    case SourceFormat::picture:
      break;
  }
  return {{file_name,
           InputError{"", format == SourceFormat::picture ? "pictures are read one file at a time (read_picture_file)"
                                                          : "native scenes are read by read_scene, not imported"},
           {},
           {}}};
}

std::unique_ptr<SourceStream> stream_source(SourceFormat format, const std::string& path) {
  return format == SourceFormat::geometry3k ? import::stream_geometry3k(path) : nullptr;
}

std::vector<ImportedScene> import_gepbench(const std::vector<std::pair<std::string, std::string>>& files) {
  return validated(import::import_gepbench(files));
}

std::vector<ImportedScene> import_visonlyqa(const std::vector<std::pair<std::string, std::string>>& files) {
  return validated(import::import_visonlyqa(files));
}

}  // namespace geotruth
