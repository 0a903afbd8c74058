#include "audit/report.hpp"

#include <filesystem>
#include <fstream>
#include <map>

#include "audit/report_page.hpp"  // generated from report_page.html

namespace geotruth {

namespace {
constexpr std::size_t kMaxItems = 50'000;  // keeps the page fast; the jsonl files have everything
}

std::string render_report(const std::string& dir, const ordered_json& summary) {
  namespace fs = std::filesystem;
  ordered_json items = ordered_json::array();
  std::size_t total = 0;
  std::map<std::size_t, bool> wanted;  // records whose scene the page draws
  {
    std::ifstream in(fs::path(dir) / "verdicts.jsonl");
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      ordered_json v = ordered_json::parse(line);
      if (v["verdict"] == "ok") continue;
      ++total;
      if (items.size() >= kMaxItems) continue;
      wanted[v["record"]] = true;
      items.push_back(std::move(v));
    }
  }
  {
    std::ifstream in(fs::path(dir) / "scenes.jsonl");
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      const ordered_json s = ordered_json::parse(line);
      if (!s.contains("findings") || s["findings"].empty()) continue;
      ++total;
      if (items.size() >= kMaxItems) continue;
      wanted[s["record"]] = true;
      ordered_json reasons = ordered_json::array();
      for (const auto& f : s["findings"]) {
        ordered_json r{{"kind", f["kind"]}, {"detail", f["detail"]}, {"elements", f["elements"]}};
        if (f.contains("slack_px")) r["slack_px"] = f["slack_px"];
        reasons.push_back(std::move(r));
      }
      items.push_back({{"record", s["record"]}, {"scene", s["id"]}, {"verdict", "finding"}, {"reasons", reasons}});
    }
  }
  ordered_json scenes = ordered_json::object();
  {
    std::ifstream in(fs::path(dir) / "flagged.jsonl");
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      ordered_json f = ordered_json::parse(line);
      const std::size_t record = f["record"];
      if (wanted.count(record)) scenes[std::to_string(record)] = std::move(f["scene"]);
    }
  }
  const ordered_json data{{"summary", summary},
                          {"items", items},
                          {"scenes", scenes},
                          {"total_flagged", total},
                          {"truncated", total > items.size()}};
  std::string json_text = to_line(data);
  // Inside <script>, "</" must not appear literally.
  for (std::size_t at = json_text.find("</"); at != std::string::npos; at = json_text.find("</", at + 2))
    json_text.replace(at, 2, "<\\/");
  std::string page = kReportPage;
  page.replace(page.find("@DATA@"), 6, json_text);
  return page;
}

}  // namespace geotruth
