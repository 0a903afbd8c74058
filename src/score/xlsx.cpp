#include "score/xlsx.hpp"

#include <libxml/xmlreader.h>
#include <zip.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <mutex>
#include <optional>
#include <string_view>

namespace geotruth::score {
namespace {

constexpr std::size_t kMaxColumns = 16384;  // Excel's last column, XFD

std::string zip_message(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string message = zip_error_strerror(&error);
  zip_error_fini(&error);
  return message;
}

// One part of the archive, inflated as the XML reader asks for it, counting every byte against the
// budget left (so an archive that declares a small size and inflates to more is stopped too).
class PartStream {
 public:
  PartStream(zip_t* zip, std::string where, const std::string& name, std::uint64_t& budget)
      : where_(std::move(where)), budget_(budget) {
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat(zip, name.c_str(), 0, &stat) == 0 && (stat.valid & ZIP_STAT_SIZE) && stat.size > budget_)
      error_ = where_ + ": inflates to " + std::to_string(stat.size) + " bytes, past the " + std::to_string(budget_) +
               " left of the limit (--max-unpacked-bytes)";
    else if (!(file_ = zip_fopen(zip, name.c_str(), 0)))
      error_ = where_ + ": " + zip_strerror(zip);
  }
  ~PartStream() {
    if (file_) zip_fclose(file_);
  }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  // libxml2's read callback: the bytes read, 0 at the end, -1 on an error (kept in error()).
  static int read(void* self, char* buffer, int length) { return static_cast<PartStream*>(self)->read(buffer, length); }

 private:
  int read(char* buffer, int length) {
    if (!error_.empty()) return -1;
    const zip_uint64_t asked = std::min<std::uint64_t>(static_cast<std::uint64_t>(length), budget_ + 1);
    const zip_int64_t got = zip_fread(file_, buffer, asked);
    if (got < 0) {
      error_ = where_ + ": " + zip_file_strerror(file_);
      return -1;
    }
    if (static_cast<std::uint64_t>(got) > budget_) {
      error_ = where_ + ": inflates past the limit of unpacked bytes (--max-unpacked-bytes)";
      return -1;
    }
    budget_ -= static_cast<std::uint64_t>(got);
    return static_cast<int>(got);
  }

  std::string where_;
  std::uint64_t& budget_;
  zip_file_t* file_ = nullptr;
  std::string error_;
};

// A streaming XML reader over one part, with the first error libxml2 reports.
class PartReader {
 public:
  PartReader(zip_t* zip, const std::string& file, const std::string& part, std::uint64_t& budget)
      : where_(file + ": " + part), stream_(zip, where_, part, budget) {
    static std::once_flag init;
    std::call_once(init, [] { xmlInitParser(); });
    if (!stream_.ok()) throw XlsxError(stream_.error());
    // No network, no DTD loading, no entity substitution: a workbook needs none of them.
    reader_ = xmlReaderForIO(&PartStream::read, nullptr, &stream_, where_.c_str(), nullptr, XML_PARSE_NONET);
    if (!reader_) throw XlsxError(where_ + ": cannot start reading XML");
    xmlTextReaderSetStructuredErrorHandler(reader_, &PartReader::on_error, this);
  }
  ~PartReader() { xmlFreeTextReader(reader_); }
  PartReader(const PartReader&) = delete;
  PartReader& operator=(const PartReader&) = delete;

  /// The next node; false at the end. Throws XlsxError when the part cannot be read.
  bool next() {
    const int status = xmlTextReaderRead(reader_);
    if (status == 1) return true;
    if (status == 0 && xml_error_.empty()) return false;
    if (!stream_.ok()) throw XlsxError(stream_.error());
    throw XlsxError(where_ + ": " + (xml_error_.empty() ? std::string("not well-formed XML") : xml_error_));
  }
  int type() const { return xmlTextReaderNodeType(reader_); }
  bool element() const { return type() == XML_READER_TYPE_ELEMENT; }
  bool end() const { return type() == XML_READER_TYPE_END_ELEMENT || (element() && empty()); }
  bool empty() const { return xmlTextReaderIsEmptyElement(reader_) == 1; }
  bool text() const {
    const int t = type();
    return t == XML_READER_TYPE_TEXT || t == XML_READER_TYPE_CDATA || t == XML_READER_TYPE_SIGNIFICANT_WHITESPACE ||
           t == XML_READER_TYPE_WHITESPACE;
  }
  std::string_view name() const {
    const xmlChar* n = xmlTextReaderConstLocalName(reader_);
    return n ? reinterpret_cast<const char*>(n) : "";
  }
  std::string_view value() const {
    const xmlChar* v = xmlTextReaderConstValue(reader_);
    return v ? reinterpret_cast<const char*>(v) : "";
  }
  std::optional<std::string> attribute(const char* local_name) const {
    // Attributes by local name (r:id is in the relationships namespace, strict OOXML uses others).
    std::optional<std::string> found;
    if (xmlTextReaderMoveToFirstAttribute(reader_) != 1) return found;
    do {
      const xmlChar* name = xmlTextReaderConstLocalName(reader_);
      if (name && std::string_view(reinterpret_cast<const char*>(name)) == local_name) found = std::string(value());
    } while (!found && xmlTextReaderMoveToNextAttribute(reader_) == 1);
    xmlTextReaderMoveToElement(reader_);
    return found;
  }
  const std::string& where() const { return where_; }

 private:
  static void on_error(void* self, xmlErrorPtr error) {
    auto* reader = static_cast<PartReader*>(self);
    if (!error || error->level < XML_ERR_ERROR || !reader->xml_error_.empty()) return;
    std::string message = error->message ? error->message : "XML error";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    reader->xml_error_ = "line " + std::to_string(error->line) + ": " + message;
  }
  std::string where_;
  PartStream stream_;
  xmlTextReaderPtr reader_ = nullptr;
  std::string xml_error_;
};

struct Archive {
  zip_t* zip = nullptr;
  std::string file;
  std::uint64_t budget = 0;
  ~Archive() {
    if (zip) zip_discard(zip);
  }
  bool has(const std::string& part) const { return zip_name_locate(zip, part.c_str(), 0) >= 0; }
};

// "xl/worksheets/sheet1.xml" from a relationship's target, relative to the part `base` lives in.
std::string resolve(const std::string& base, const std::string& target) {
  std::vector<std::string> parts;
  std::string path = target.starts_with('/') ? target.substr(1) : base.substr(0, base.rfind('/') + 1) + target;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    const std::string segment = path.substr(start, slash - start);
    if (segment == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!segment.empty() && segment != ".") {
      parts.push_back(segment);
    }
    start = slash + 1;
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

// The relationships of `part` (its _rels/<name>.rels): id → (type, resolved target).
std::vector<std::array<std::string, 3>> relationships(Archive& archive, const std::string& part) {
  const std::size_t slash = part.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : part.substr(0, slash + 1);
  const std::string rels = dir + "_rels/" + part.substr(slash == std::string::npos ? 0 : slash + 1) + ".rels";
  std::vector<std::array<std::string, 3>> out;
  if (!archive.has(rels)) return out;
  PartReader reader(archive.zip, archive.file, rels, archive.budget);
  while (reader.next())
    if (reader.element() && reader.name() == "Relationship")
      out.push_back({reader.attribute("Id").value_or(""), reader.attribute("Type").value_or(""),
                     resolve(part, reader.attribute("Target").value_or(""))});
  return out;
}

std::optional<std::string> related(const std::vector<std::array<std::string, 3>>& rels, std::string_view type_suffix,
                                   const std::string& id = "") {
  for (const auto& [rel_id, type, target] : rels)
    if ((id.empty() || rel_id == id) && type.ends_with(type_suffix)) return target;
  return std::nullopt;
}

// Appends XML text to a cell's text, within the cell limit.
void append(std::string& text, std::string_view more, const XlsxLimits& limits, const PartReader& reader) {
  if (text.size() + more.size() > limits.max_cell_bytes)
    throw XlsxError(reader.where() + ": a cell's text is longer than " + std::to_string(limits.max_cell_bytes) +
                    " bytes");
  text += more;
}

std::vector<std::string> shared_strings(Archive& archive, const std::string& part, const XlsxLimits& limits) {
  std::vector<std::string> strings;
  PartReader reader(archive.zip, archive.file, part, archive.budget);
  int phonetic = 0;  // inside <rPh>: a reading aid, not the text
  bool in_t = false, in_si = false;
  while (reader.next()) {
    const std::string_view name = reader.name();
    if (reader.element() && !reader.empty()) {
      if (name == "si") strings.emplace_back(), in_si = true;
      if (name == "rPh") ++phonetic;
      if (name == "t") in_t = true;
    } else if (reader.element() && name == "si") {
      strings.emplace_back();  // <si/>: an empty string
    } else if (reader.type() == XML_READER_TYPE_END_ELEMENT) {
      if (name == "si") in_si = false;
      if (name == "rPh") --phonetic;
      if (name == "t") in_t = false;
    } else if (reader.text() && in_si && in_t && phonetic == 0) {
      append(strings.back(), reader.value(), limits, reader);
    }
  }
  return strings;
}

// Column index of a cell reference ("C12" → 2), or nullopt when it has no letters.
std::optional<std::size_t> column_of(std::string_view reference) {
  std::size_t column = 0, letters = 0;
  for (char c : reference) {
    if (c < 'A' || c > 'Z') break;
    column = column * 26 + static_cast<std::size_t>(c - 'A' + 1);
    if (++letters > 3) return std::nullopt;
  }
  if (letters == 0) return std::nullopt;
  return column - 1;
}

}  // namespace

void read_xlsx(const std::string& path, const XlsxLimits& limits,
               const std::function<void(std::size_t row, std::vector<std::string>& cells)>& row) {
  Archive archive;
  archive.file = path;
  archive.budget = limits.max_unpacked_bytes;
  int code = 0;
  archive.zip = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  if (!archive.zip) throw XlsxError(path + ": not a readable .xlsx (zip) archive: " + zip_message(code));

  // _rels/.rels → the workbook → its first sheet and its shared strings.
  const std::string workbook = related(relationships(archive, ""), "/officeDocument").value_or("xl/workbook.xml");
  if (!archive.has(workbook)) throw XlsxError(path + ": no workbook (" + workbook + "): not an .xlsx workbook");
  std::string first_sheet_id;
  {
    PartReader reader(archive.zip, path, workbook, archive.budget);
    while (first_sheet_id.empty() && reader.next())
      if (reader.element() && reader.name() == "sheet") first_sheet_id = reader.attribute("id").value_or("");
  }
  if (first_sheet_id.empty()) throw XlsxError(path + ": " + workbook + " lists no sheet");
  const auto rels = relationships(archive, workbook);
  const std::optional<std::string> sheet = related(rels, "/worksheet", first_sheet_id);
  if (!sheet || !archive.has(*sheet))
    throw XlsxError(path + ": the first sheet (" + first_sheet_id + ") of " + workbook + " is missing" +
                    (sheet ? " (" + *sheet + ")" : ""));
  std::vector<std::string> strings;
  if (const auto part = related(rels, "/sharedStrings"); part && archive.has(*part))
    strings = shared_strings(archive, *part, limits);

  PartReader reader(archive.zip, path, *sheet, archive.budget);
  std::vector<std::string> cells;
  std::size_t row_number = 0, column = 0;
  bool in_row = false, in_cell = false, in_value = false, in_inline = false, in_t = false;
  int phonetic = 0;
  std::string type, value, inline_text;
  auto finish_cell = [&] {
    std::string text;
    if (type == "s") {
      std::size_t index = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), index);
      if (error != std::errc() || end != value.data() + value.size() || index >= strings.size())
        throw XlsxError(reader.where() + ": row " + std::to_string(row_number) + ": shared string \"" + value +
                        "\" is not one of the " + std::to_string(strings.size()) + " in the workbook");
      text = strings[index];
    } else if (type == "inlineStr") {
      text = std::move(inline_text);
    } else if (type == "b") {
      text = value == "1" ? "TRUE" : value == "0" ? "FALSE" : value;
    } else {
      text = std::move(value);
    }
    if (column >= kMaxColumns)
      throw XlsxError(reader.where() + ": row " + std::to_string(row_number) + ": a cell past column XFD");
    if (!text.empty()) {
      if (cells.size() <= column) cells.resize(column + 1);
      cells[column] = std::move(text);
    }
    ++column;
  };
  auto finish_row = [&] {
    if (!cells.empty()) row(row_number, cells);
    cells.clear();
  };
  while (reader.next()) {
    const std::string_view name = reader.name();
    if (reader.element()) {
      if (name == "row") {
        const auto r = reader.attribute("r");
        std::size_t number = row_number + 1;
        if (r && (std::from_chars(r->data(), r->data() + r->size(), number).ec != std::errc() || number == 0))
          throw XlsxError(reader.where() + ": row number \"" + *r + "\" is not a positive integer");
        row_number = number, column = 0, in_row = true;
        if (reader.empty()) finish_row(), in_row = false;
      } else if (name == "c" && in_row) {
        if (const auto r = reader.attribute("r")) {
          const auto c = column_of(*r);
          if (!c) throw XlsxError(reader.where() + ": cell reference \"" + *r + "\" has no column letters");
          column = *c;
        }
        type = reader.attribute("t").value_or("n");
        value.clear(), inline_text.clear();
        in_cell = true;
        if (reader.empty()) finish_cell(), in_cell = false;
      } else if (in_cell && !reader.empty()) {
        if (name == "v") in_value = true;
        if (name == "is") in_inline = true;
        if (name == "rPh") ++phonetic;
        if (name == "t") in_t = true;
      }
    } else if (reader.type() == XML_READER_TYPE_END_ELEMENT) {
      if (name == "v") in_value = false;
      if (name == "is") in_inline = false;
      if (name == "rPh") --phonetic;
      if (name == "t") in_t = false;
      if (name == "c" && in_cell) finish_cell(), in_cell = false;
      if (name == "row" && in_row) finish_row(), in_row = false;
    } else if (reader.text() && in_cell) {
      if (in_value) append(value, reader.value(), limits, reader);
      if (in_inline && in_t && phonetic == 0) append(inline_text, reader.value(), limits, reader);
    }
  }
}

}  // namespace geotruth::score
