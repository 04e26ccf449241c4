#include "core/diagnostic_json.h"

namespace ferry {

nlohmann::json to_json(const Diagnostic& d, WithFile with_file) {
  nlohmann::json j = {{"code", to_string(d.code)},
                      {"severity", std::string(to_string(d.severity))},
                      {"line", d.line},
                      {"col", d.col},
                      {"message", d.message},
                      {"hint", d.hint}};
  if (with_file == WithFile::Yes) j["file"] = d.file;
  return j;
}

nlohmann::json to_json(const std::vector<Diagnostic>& diags) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& d : diags) a.push_back(to_json(d));
  return a;
}

std::optional<Diagnostic> diagnostic_from_json(const std::string& file, const nlohmann::json& j) {
  const std::optional<Diag> code = parse_diag(j.value("code", ""));
  if (!code) return std::nullopt;
  const std::string sev = j.value("severity", "warning");
  return Diagnostic{*code,
                    sev == "error"  ? Severity::Error
                    : sev == "note" ? Severity::Note
                                    : Severity::Warning,
                    file,
                    j.value("line", 0u),
                    j.value("col", 0u),
                    j.value("message", ""),
                    j.value("hint", "")};
}

}  // namespace ferry
