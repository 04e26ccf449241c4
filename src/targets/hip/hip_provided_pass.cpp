// User definitions that HIP already provides: kept for CUDA builds only (hip_provided.h).
#include <string>
#include <vector>

#include "core/split.h"
#include "rules/builtin.h"
#include "targets/hip/hip_provided.h"
#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {

HipProvidedTable load_hip_provided() {
  HipProvidedTable table;
  for (const std::string_view line : table_rows(rules::builtin_table("hip_provided.tsv"))) {
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos) continue;
    const std::size_t tab2 = line.find('\t', tab + 1);
    table[std::string(line.substr(0, tab))].emplace(
        line.substr(tab + 1, tab2 == std::string_view::npos ? std::string_view::npos : tab2 - tab - 1));
  }
  return table;
}

std::string canonical_param_type(const std::vector<std::string_view>& in) {
  std::vector<std::string_view> w;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == "struct" || in[i] == "enum" || in[i] == "union") continue;
    if (in[i] == "std" && i + 1 < in.size() && in[i + 1] == "::") {
      ++i;
      continue;
    }
    w.push_back(in[i]);
  }
  std::size_t last_star = std::string::npos;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (w[i] == "*") last_star = i;
  bool had_const = false;
  std::vector<std::string_view> kept;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const bool top_level = last_star == std::string::npos || i > last_star;
    if (w[i] == "const" && top_level) {
      had_const = true;
      continue;
    }
    kept.push_back(w[i]);
  }
  if (had_const && last_star == std::string::npos && !kept.empty() && kept.back() == "&") kept.pop_back();
  // Built-in integer spellings and their common typedefs.
  static const std::unordered_map<std::string_view, std::string_view> kTypedefs = {
      {"uint32_t", "unsigned"},   {"int32_t", "int"},           {"uint64_t", "unsigned long"},
      {"int64_t", "long"},        {"size_t", "unsigned long"},  {"uint16_t", "unsigned short"},
      {"int16_t", "short"},       {"uint8_t", "unsigned char"}, {"int8_t", "signed char"},
      {"uint", "unsigned"},       {"ushort", "unsigned short"}, {"half", "__half"},
      {"__uint32_t", "unsigned"}, {"__int32_t", "int"},         {"__uint64_t", "unsigned long"},
      {"__int64_t", "long"}};
  std::string out;
  auto append = [&](std::string_view s) {
    const bool word = !s.empty() && (std::isalnum(static_cast<unsigned char>(s[0])) || s[0] == '_');
    if (word && !out.empty() && (std::isalnum(static_cast<unsigned char>(out.back())) || out.back() == '_')) out += ' ';
    out += s;
  };
  for (std::size_t i = 0; i < kept.size();) {
    const std::string_view s = kept[i];
    if (s == "unsigned" || s == "signed" || s == "int" || s == "long" || s == "short" || s == "char") {
      bool is_unsigned = false, is_signed = false, is_char = false, is_short = false;
      int longs = 0;
      for (; i < kept.size(); ++i) {
        const std::string_view k = kept[i];
        if (k == "unsigned") is_unsigned = true;
        else if (k == "signed") is_signed = true;
        else if (k == "long") ++longs;
        else if (k == "short") is_short = true;
        else if (k == "char") is_char = true;
        else if (k != "int") break;
      }
      std::string t = is_char      ? (is_unsigned ? "unsigned char"
                                      : is_signed ? "signed char"
                                                  : "char")
                      : is_short   ? "short"
                      : longs == 2 ? "long long"
                      : longs == 1 ? "long"
                                   : "int";
      if (is_unsigned && !is_char) t = t == "int" ? "unsigned" : "unsigned " + t;
      append(t);
      continue;
    }
    const auto td = kTypedefs.find(s);
    append(td == kTypedefs.end() ? s : td->second);
    ++i;
  }
  return out;
}

std::string renamed_by(const rules::RuleSet& rules, std::string_view name) {
  const rules::Rule* r = rules.find_identifier(name);
  if (!r || !r->has_replacement()) return std::string(name);
  std::size_t n = 0;  // a call template's called name
  while (n < r->to.size() && (std::isalnum(static_cast<unsigned char>(r->to[n])) || r->to[n] == '_')) ++n;
  return std::string(n > 0 ? r->to.substr(0, n) : name);
}

void hip_provided_pass(migrate::FileMigration& file, const HipProvidedTable& table) {
  std::vector<ProvidedDefinition> defs = find_provided_definitions(
      file, table, [&](std::size_t ci) { return file.excluded(ci); },
      [&](std::string_view name) { return renamed_by(file.target().rules(), name); });
  std::erase_if(defs, [](const ProvidedDefinition& d) { return d.platform_branch; });
  if (defs.empty()) return;
  const std::string_view src = file.source();
  // Neighbouring definitions (nothing but comments and blank lines between them) share one guard.
  std::size_t g = 0;
  while (g < defs.size()) {
    std::size_t h = g;
    while (h + 1 < defs.size() && defs[h + 1].first == defs[h].last + 1) ++h;
    const std::uint32_t begin = file.code(defs[g].first).begin;
    const std::uint32_t ls = line_start(src, begin);
    std::string open = "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers define these [FRY4103]\n";
    if (g == h) open = "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers define this [FRY4103]\n";
    const bool at_line_start = only_blanks(src.substr(ls, begin - ls));
    const std::uint32_t open_at = at_line_start ? ls : begin;
    if (!at_line_start) open.insert(0, "\n");
    const std::uint32_t end = file.code(defs[h].last).end;
    std::size_t eol = src.find('\n', end);
    if (eol == std::string_view::npos) eol = src.size();
    // `#endif` on the line after the closing brace, unless code follows it on its line.
    std::string_view rest = src.substr(end, eol - end);
    const std::size_t cmt = rest.find("//");
    const bool rest_blank = only_blanks(cmt == std::string_view::npos ? rest : rest.substr(0, cmt));
    std::uint32_t close_at;
    std::string close;
    if (rest_blank && eol < src.size()) {
      close_at = static_cast<std::uint32_t>(eol + 1);
      close = "#endif\n";
    } else if (rest_blank) {
      close_at = static_cast<std::uint32_t>(src.size());
      close = "\n#endif\n";
    } else {
      close_at = end;
      close = "\n#endif\n";
    }
    if (file.edits().overlaps(open_at, open_at) || file.edits().overlaps(close_at, close_at) ||
        !file.replace_bytes(open_at, open_at, std::move(open))) {
      g = h + 1;
      continue;
    }
    file.replace_bytes(close_at, close_at, std::move(close));
    for (std::size_t k = g; k <= h; ++k) {
      file.count_converted("hip_provided");
      std::string shown;  // "f(float, int, int = ...)"
      for (const char c : defs[k].signature) {
        if (c == ',') shown += ", ";
        else if (c == '=') shown += " = ...";
        else shown += c;
      }
      file.diag(Diag::HipProvidedDefinition, defs[k].name,
                "'" + shown +
                    "' is already defined by HIP's headers; this definition "
                    "is kept for CUDA builds only (#if !defined(__HIP_PLATFORM_AMD__)), HIP's serves "
                    "the uses on AMD",
                "check that HIP's definition computes what yours does (HIP's vector operators are "
                "element-wise; its float atomicMax/atomicMin compare as floats)");
    }
    g = h + 1;
  }
}

}  // namespace ferry::targets::hip
