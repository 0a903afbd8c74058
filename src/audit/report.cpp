#include "audit/report.hpp"

#include "audit/jsonl.hpp"
#include "audit/report_page.hpp"  // generated from report_page.html

#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <string_view>

namespace geotruth {

namespace {

constexpr std::size_t kMaxItems = 50'000;  // keeps the page fast; the jsonl files have everything

// Inside <script>, "</" must not appear literally; "<\/" is the same JSON string.
void write_script_safe(std::ostream& out, std::string_view json_text) {
  std::size_t from = 0;
  for (std::size_t at = json_text.find("</"); at != std::string::npos; at = json_text.find("</", from)) {
    out.write(json_text.data() + from, static_cast<std::streamsize>(at - from));
    out << "<\\/";
    from = at + 2;
  }
  out.write(json_text.data() + from, static_cast<std::streamsize>(json_text.size() - from));
}

}  // namespace

void write_report(const std::string& dir, const ordered_json& summary, std::ostream& out) {
  namespace fs = std::filesystem;
  const std::string page = kReportPage;
  const std::size_t slot = page.find("@DATA@");
  out.write(page.data(), static_cast<std::streamsize>(slot));

  // The data is streamed line by line from the jsonl files: memory stays small however many
  // items the page holds.
  std::set<std::size_t> wanted;  // records whose scene the page draws
  std::size_t items = 0, total = 0;
  out << "{\"summary\":";
  write_script_safe(out, to_line(summary));
  out << ",\"items\":[";
  auto add_item = [&](std::string_view json_text, std::size_t record) {
    ++total;
    if (items >= kMaxItems) return;
    out << (items++ ? "," : "");
    write_script_safe(out, json_text);
    wanted.insert(record);
  };
  each_line(fs::path(dir) / "verdicts.jsonl", [&](std::string_view line) {
    if (line.find("\"verdict\":\"ok\"") != std::string::npos) return;  // our own fixed layout
    add_item(line, ordered_json::parse(line)["record"].get<std::size_t>());
  });
  ordered_json overlays = ordered_json::object();  // record → the overlay beside the report (audit --image)
  each_line(fs::path(dir) / "scenes.jsonl", [&](std::string_view line) {
    if (line.find("\"findings\":[]") != std::string::npos || line.find("\"findings\":") == std::string::npos) return;
    const ordered_json s = ordered_json::parse(line);
    if (s.contains("overlay"))
      overlays[std::to_string(s["record"].get<std::size_t>())] =
          (fs::path("overlays") / fs::path(s["overlay"].get<std::string>()).filename()).string();
    ordered_json reasons = ordered_json::array();
    for (const auto& f : s["findings"]) {
      ordered_json r{
          {"kind", f["kind"]}, {"severity", f["severity"]}, {"detail", f["detail"]}, {"elements", f["elements"]}};
      if (f.contains("slack_px")) r["slack_px"] = f["slack_px"];
      reasons.push_back(std::move(r));
    }
    const ordered_json item{{"record", s["record"]}, {"scene", s["id"]}, {"verdict", "finding"}, {"reasons", reasons}};
    add_item(to_line(item), s["record"].get<std::size_t>());
  });
  out << "],\"overlays\":";
  write_script_safe(out, to_line(overlays));
  out << ",\"flagged\":[";
  std::size_t scenes = 0;
  each_line(fs::path(dir) / "flagged.jsonl", [&](std::string_view line) {
    const std::size_t record = ordered_json::parse(line)["record"].get<std::size_t>();
    if (!wanted.count(record)) return;
    out << (scenes++ ? "," : "");
    write_script_safe(out, line);
  });
  out << "],\"total_flagged\":" << total << ",\"truncated\":" << (total > items ? "true" : "false") << "}";
  out.write(page.data() + slot + 6, static_cast<std::streamsize>(page.size() - slot - 6));
}

}  // namespace geotruth
