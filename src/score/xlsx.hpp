// Reading the first worksheet of an .xlsx workbook (Office Open XML, ECMA-376) as rows of cell texts:
// what VLMEvalKit writes its predictions into by default. libzip opens the container, libxml2's
// streaming reader parses the workbook's parts; nothing is held but the shared strings and the
// rows handed out.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace geotruth::score {

/// How much an .xlsx may make us read: an archive's parts inflate to any size (a "zip bomb" of a
/// few kilobytes can hold gigabytes), so the bytes inflated are counted as they come.
struct XlsxLimits {
  std::uint64_t max_unpacked_bytes = 1ull << 30;  ///< all the XML parts read, inflated
  std::size_t max_cell_bytes = 16u << 20;         ///< one cell's text (as one JSONL line)
};

/// Why a workbook could not be read: the message names the file, the part and what was wrong.
struct XlsxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads the first worksheet of the workbook `path` (the first <sheet> of xl/workbook.xml, through
/// its relationship), calling `row` with each non-empty row's 1-based number and its cells' texts,
/// placed by their column (A is 0; cells not written are ""). A cell's text is its shared string,
/// its inline string (rich-text runs joined), a formula's cached string, or its value as written
/// (numbers in their XML text: 3, 0.25; booleans TRUE/FALSE; errors such as #N/A).
/// Throws XlsxError for anything else: not a zip archive or a damaged one, a missing part,
/// XML that is not well-formed, a part inflating past the limits (checked on the bytes actually
/// inflated, whatever the archive declares), a cell past max_cell_bytes.
void read_xlsx(const std::string& path, const XlsxLimits& limits,
               const std::function<void(std::size_t row, std::vector<std::string>& cells)>& row);

}  // namespace geotruth::score
