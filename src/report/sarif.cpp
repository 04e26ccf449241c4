#include "report/sarif.h"

#include <cctype>
#include <vector>

#include <fmt/format.h>

namespace ferry::report {

std::string heading_anchor(std::string_view heading) {
  std::string a;
  for (const char ch : heading) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '_') a += static_cast<char>(std::tolower(c));
    else if (c == ' ') a += '-';
    // everything else (punctuation, backticks, the em dash's UTF-8 bytes) is dropped, as GitHub does
  }
  return a;
}

std::map<std::string, RuleDoc> parse_diagnostic_docs(std::string_view markdown) {
  std::map<std::string, RuleDoc> docs;
  std::size_t pos = 0;
  while (pos < markdown.size()) {
    std::size_t eol = markdown.find('\n', pos);
    if (eol == std::string_view::npos) eol = markdown.size();
    std::string_view line = markdown.substr(pos, eol - pos);
    pos = eol + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t hashes = 0;
    while (hashes < line.size() && line[hashes] == '#') ++hashes;
    if (hashes < 2 || hashes >= line.size() || line[hashes] != ' ') continue;
    const std::string_view heading = line.substr(hashes + 1);
    if (heading.size() < 7 || heading.substr(0, 3) != "FRY") continue;
    const std::string code(heading.substr(0, 7));
    bool digits = true;
    for (std::size_t i = 3; i < 7; ++i) digits = digits && std::isdigit(static_cast<unsigned char>(code[i]));
    if (!digits || docs.contains(code)) continue;
    // "FRY2101 — title (warning)": the title is what follows the dash, without the severity.
    std::string title(heading.substr(7));
    const std::size_t dash = title.find("—");
    if (dash != std::string::npos) title = title.substr(dash + std::string_view("—").size());
    else if (const std::size_t d = title.find_first_not_of(" -:"); d != std::string::npos) title = title.substr(d);
    while (!title.empty() && title.front() == ' ') title.erase(0, 1);
    if (const std::size_t paren = title.rfind(" ("); paren != std::string::npos && title.back() == ')')
      title.erase(paren);
    std::string plain;  // Markdown code spans shown as plain text
    for (const char c : title)
      if (c != '`') plain += c;
    docs[code] = {plain, heading_anchor(heading)};
  }
  return docs;
}

std::string uri_encode_path(std::string_view path) {
  std::string s;
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') s += static_cast<char>(c);
    else s += fmt::format("%{:02X}", c);
  }
  return s;
}

namespace {

std::string sarif_level(const std::string& severity) {
  if (severity == "error") return "error";
  if (severity == "note") return "note";
  return "warning";
}

}  // namespace

nlohmann::json to_sarif(const nlohmann::json& report, const std::map<std::string, RuleDoc>& docs,
                        std::string_view docs_uri) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  const nlohmann::json& migration = report.contains("migration") ? report["migration"] : report;
  const nlohmann::json& diags =
      migration.contains("diagnostics") && migration["diagnostics"].is_array() ? migration["diagnostics"] : kEmpty;

  // Rules: every code seen, in code order, so ruleIndex is stable across runs.
  std::map<std::string, nlohmann::json> first_of_code;
  for (const auto& d : diags) first_of_code.try_emplace(d.value("code", "FRY0000"), d);
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, std::size_t> rule_index;
  for (const auto& [code, d] : first_of_code) {
    const auto doc = docs.find(code);
    std::string title = doc != docs.end() ? doc->second.title : d.value("message", code);
    const std::string anchor = doc != docs.end() ? doc->second.anchor : heading_anchor(code);
    nlohmann::json rule = {{"id", code},
                           {"shortDescription", {{"text", title}}},
                           {"helpUri", std::string(docs_uri) + "#" + anchor},
                           {"defaultConfiguration", {{"level", sarif_level(d.value("severity", "warning"))}}}};
    if (!d.value("hint", "").empty()) rule["help"] = {{"text", d.value("hint", "")}};
    rule_index[code] = rules.size();
    rules.push_back(std::move(rule));
  }

  nlohmann::json results = nlohmann::json::array();
  for (const auto& d : diags) {
    const std::string code = d.value("code", "FRY0000");
    std::string text = d.value("message", "");
    const std::string hint = d.value("hint", "");
    if (text.empty()) text = code;
    if (!hint.empty()) text += "\nFix: " + hint;
    nlohmann::json physical = {
        {"artifactLocation", {{"uri", uri_encode_path(d.value("file", ""))}, {"uriBaseId", "SRCROOT"}}}};
    const unsigned line = d.value("line", 0u), col = d.value("col", 0u);
    if (line > 0) {  // line 0: the diagnostic is about the whole file, no region
      physical["region"] = {{"startLine", line}};
      if (col > 0) physical["region"]["startColumn"] = col;
    }
    nlohmann::json result = {{"ruleId", code},
                             {"ruleIndex", rule_index.at(code)},
                             {"level", sarif_level(d.value("severity", "warning"))},
                             {"message", {{"text", text}}},
                             {"locations", nlohmann::json::array({{{"physicalLocation", physical}}})}};
    if (!hint.empty()) result["properties"] = {{"hint", hint}};
    results.push_back(std::move(result));
  }

  nlohmann::json driver = {{"name", "ferry"},
                           {"version", report.value("ferry_version", std::string(FERRY_VERSION))},
                           {"informationUri", std::string(docs_uri)},
                           {"rules", std::move(rules)}};
  nlohmann::json run = {{"tool", {{"driver", std::move(driver)}}}, {"results", std::move(results)}};
  std::string input = report.value("input", migration.value("input", ""));  // absolute in a bundle
  if (!input.empty()) {
    if (input.front() != '/') input = "/" + input;
    if (input.back() != '/') input += '/';
    run["originalUriBaseIds"] = {{"SRCROOT", {{"uri", "file://" + uri_encode_path(input)}}}};
  }
  return {{"$schema", std::string(kSarifSchema)}, {"version", "2.1.0"}, {"runs", nlohmann::json::array({run})}};
}

}  // namespace ferry::report
