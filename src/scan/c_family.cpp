// C, C++, CUDA and HIP sources: through the target's token view (strings and comments never
// count): headers, kernels, launches, inline asm, namespaces, names of the rule tables, and names
// no table knows but with a CUDA library's prefix.
#include "analysis/tokens.h"
#include "migrate/file_migration.h"
#include "scan/scanner.h"

namespace ferry::scan::detail {
namespace {

bool is_warp_intrinsic(std::string_view n) {
  return starts(n, "__shfl") || starts(n, "__ballot") || n == "__activemask" || n == "__syncwarp" ||
         starts(n, "__match_") || (starts(n, "__reduce_") && ends(n, "_sync")) || n == "__any_sync" ||
         n == "__all_sync" || n == "__uni_sync" || n == "__any" || n == "__all";
}

std::string rule_kind_name(rules::RuleKind k) {
  switch (k) {
    case rules::RuleKind::Func:
    case rules::RuleKind::Call: return "function";
    case rules::RuleKind::Type: return "type";
    case rules::RuleKind::Enum: return "enum";
    case rules::RuleKind::Macro: return "macro";
    case rules::RuleKind::Header: return "header";
    case rules::RuleKind::Namespace: return "namespace";
  }
  return "?";
}

}  // namespace

void Scanner::scan_c_family() {
  const targets::ProjectContext ctx;
  const targets::Options opts;
  migrate::FileMigration f(rel_, text_, *targets_.front(), opts, ctx);
  out_.file.lines = f.stats().lines;
  const std::size_t n = f.code_size();
  for (std::size_t ci = 0; ci < n; ++ci) {
    const lex::Token& t = f.code(ci);
    if (t.kind == lex::Kind::HeaderName) {
      const std::string_view raw = f.text(ci);
      const std::string path(raw.substr(1, raw.size() - 2));
      std::map<std::string, std::string> status;
      const rules::Rule* r = lookup([&](const rules::RuleSet& rs) { return rs.find_header(path); }, status);
      std::string lib(header_library(path));
      if (lib.empty() && r) lib = family_library(r->family);
      if (lib.empty()) continue;
      if (lib == "pytorch-cpp") status = construct("pytorch");
      const std::string family = r ? std::string(r->family) : lib == "pytorch-cpp" ? "pytorch" : lib;
      use(t.line, t.col, path, family, "header", lib, std::move(status), r ? std::string(r->note) : "", false);
      continue;
    }
    if (t.kind == lex::Kind::LaunchOpen) {
      // The kernel's name: the identifier before `<<<`, or before its template
      // arguments.
      std::size_t k = ci;
      std::string name = "<<<";
      if (k > 0 && f.is(k - 1, ">")) {
        const std::size_t open = analysis::angle_open(f, k - 1);
        k = open == lex::npos ? 0 : open;  // not closed: no name
      }
      if (k > 0 && f.is_identifier(k - 1)) name = f.text(k - 1);
      use(t.line, t.col, name, "kernel", "launch", "cuda-runtime", construct("launch"));
      continue;
    }
    if (t.kind != lex::Kind::Identifier) continue;
    const std::string_view name = f.text(ci);

    if (t.in_directive) {
      if (ci >= 2 && (f.is(ci - 1, "define") || f.is(ci - 1, "undef")) && f.is(ci - 2, "#")) {
        out_.defined_macros.emplace(name);
        continue;
      }
    } else if (name == "__global__") {
      // Kernel definition: the identifier before the parameter list, past
      // __launch_bounds__(...).
      std::size_t k = ci + 1;
      std::size_t name_ci = migrate::npos;
      while (k < n && !f.is(k, ";") && !f.is(k, "{")) {
        if (f.is(k, "(")) {
          if (k > 0 && (f.is(k - 1, "__launch_bounds__") || f.is(k - 1, "__attribute__") || f.is(k - 1, "__declspec") ||
                        f.is(k - 1, "alignas"))) {
            const std::size_t close = f.match_bracket(k);
            if (close == migrate::npos) break;
            k = close + 1;
            continue;
          }
          if (f.is_identifier(k - 1)) name_ci = k - 1;
          const std::size_t close = f.match_bracket(k);
          if (close == migrate::npos) name_ci = migrate::npos;
          k = close == migrate::npos ? n : close + 1;
          break;
        }
        ++k;
      }
      // Skip trailing qualifiers up to the body; a `;` means a declaration, not
      // a kernel.
      while (k < n && !f.is(k, "{") && !f.is(k, ";")) ++k;
      if (name_ci != migrate::npos && f.is(k, "{")) {
        const lex::Token& nt = f.code(name_ci);
        use(nt.line, nt.col, std::string(f.text(name_ci)), "kernel", "kernel", "cuda-runtime", construct("kernel"));
      }
      continue;
    }

    if (name == "asm" || name == "__asm__" || name == "__asm") {
      std::size_t open = ci + 1;
      while (f.is(open, "volatile") || f.is(open, "__volatile__") || f.is(open, "goto") || f.is(open, "inline")) ++open;
      if (!f.is(open, "(")) continue;
      std::string body;
      for (const migrate::ArgRange& a : f.call_args(open)) {
        if (a.empty()) continue;
        const lex::Kind k = f.code(a.first).kind;
        if (k == lex::Kind::String || k == lex::Kind::RawString) body = f.text(a.first);
        break;
      }
      const bool ptx = body.find('%') != std::string::npos || body.find('.') != std::string::npos;
      use(t.line, t.col, std::string(name), "device", "inline-asm", "cuda-runtime", construct("inline-asm"),
          ptx ? "PTX" : "");
      continue;
    }

    if (f.is(ci + 1, "::") && !f.is_member_or_qualified(ci)) {
      std::map<std::string, std::string> status;
      const rules::Rule* r = lookup([&](const rules::RuleSet& rs) { return rs.find_namespace(name); }, status);
      std::string lib(namespace_library(name));
      if (r && lib.empty()) lib = family_library(r->family);
      if (!lib.empty()) {
        std::string full(name);
        if (f.is_identifier(ci + 2)) full += "::" + std::string(f.text(ci + 2));
        use(t.line, t.col, std::move(full), r ? std::string(r->family) : lib, "namespace", lib, r ? status : unknown(),
            r ? std::string(r->note) : "");
        ci += f.is_identifier(ci + 2) ? 2 : 1;
        continue;
      }
    }
    if (f.is_member_or_qualified(ci)) continue;

    std::map<std::string, std::string> status;
    const rules::Rule* r = lookup([&](const rules::RuleSet& rs) { return rs.find_identifier(name); }, status);
    if (r) {
      const std::string kind = is_warp_intrinsic(name) ? "warp-intrinsic" : rule_kind_name(r->kind);
      use(t.line, t.col, std::string(name), std::string(r->family), kind, std::string(family_library(r->family)),
          std::move(status), std::string(r->note));
      continue;
    }
    if (const auto g = guess_by_prefix(name)) {
      const bool call = f.is(ci + 1, "(");
      bool all_caps = true;
      for (char c : name) all_caps = all_caps && !std::islower(static_cast<unsigned char>(c));
      use(t.line, t.col, std::string(name), std::string(g->family),
          call       ? "function"
          : all_caps ? "constant"
                     : "type",
          std::string(g->library), unknown(), "not in the target's tables", true);
    }
  }
}

}  // namespace ferry::scan::detail
