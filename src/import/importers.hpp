// The importers behind import_source(), one source file each.
#pragma once

#include <geotruth/import.hpp>

#include "core/json_reader.hpp"

namespace geotruth::import {

/// Whole-file sources may be large (a full Geometry3K or PGDP5K annotation file).
constexpr std::size_t kMaxSourceBytes = std::size_t{1} << 30;

/// The limits a whole-file JSON source is read with.
Limits source_limits();

/// Reads a whole-file JSON source whose root must be an object (`expected` says which); on
/// failure, the single error record to return for the file.
std::variant<json::Value, ImportedScene> read_source_object(std::string_view text, const std::string& file_name,
                                                            const std::string& expected);

std::vector<ImportedScene> import_geometry3k(std::string_view text, const std::string& file_name);
std::unique_ptr<SourceStream> stream_geometry3k(const std::string& path);
std::vector<ImportedScene> import_pgdp(std::string_view text, const std::string& file_name);
std::vector<ImportedScene> import_linelist(std::string_view text, const std::string& file_name);
std::vector<ImportedScene> import_gepbench(const std::vector<std::pair<std::string, std::string>>& files);
std::vector<ImportedScene> import_visonlyqa(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace geotruth::import
