// The importers behind import_source(), one source file each.
#pragma once

#include <geotruth/import.hpp>

namespace geotruth::import {

/// Whole-file sources may be large (a full Geometry3K or PGDP5K annotation file).
constexpr std::size_t kMaxSourceBytes = std::size_t{1} << 30;

std::vector<ImportedScene> import_geometry3k(std::string_view text, const std::string& file_name);
std::vector<ImportedScene> import_pgdp(std::string_view text, const std::string& file_name);
std::vector<ImportedScene> import_linelist(std::string_view text, const std::string& file_name);

}  // namespace geotruth::import
