// Facts the HIP sources give the HIP -> CUDA build-file migrators (source_facts.h).
#include "buildsys/source_facts.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "lex/lexer.h"

namespace ferry::buildsys {
namespace {

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}
bool has_wave_word(const std::string& u) {
  return u.find("WAVE") != std::string::npos || u.find("WARP") != std::string::npos || u.starts_with("WF") ||
         u.find("_WF") != std::string::npos;
}

// Names the compilers define: never the user's selector, whatever they are called.
bool is_compiler_macro(std::string_view n) {
  return n.starts_with("__AMDGCN") || n.starts_with("__HIP") || n.starts_with("__gfx") || n.starts_with("__GFX") ||
         n.starts_with("__CUDA") || n.starts_with("__NVCC") || n == "defined" || n == "warpSize";
}

// Warp-width code: the calls and names whose meaning depends on the lane count.
bool is_warp_code(std::string_view n) {
  return n.starts_with("__shfl") || n.starts_with("__ballot") || n == "warpSize" ||
         n.starts_with("__AMDGCN_WAVEFRONT") || n == "__lane_id" || n == "__activemask" || n.starts_with("__any") ||
         n.starts_with("__all") || n.starts_with("__reduce_") || n.starts_with("__lanemask") || n == "__popcll";
}

struct Tok {
  std::string_view text;
  lex::Kind kind;
  bool directive;
  bool starts_line;  // first code token after a newline
  std::uint32_t line;
};

std::vector<Tok> code_tokens(std::string_view src) {
  std::vector<Tok> out;
  bool nl = true;
  for (const lex::Token& t : lex::tokenize(src)) {
    if (t.kind == lex::Kind::Newline) nl = true;
    if (lex::is_trivia(t.kind)) continue;
    out.push_back({t.text(src), t.kind, t.in_directive, nl, t.line});
    nl = false;
  }
  return out;
}

// A directive starting at token i (`#`): its name ("if", "ifdef", ...) and one past its last token.
std::size_t directive_end(const std::vector<Tok>& t, std::size_t i) {
  std::size_t e = i + 1;
  while (e < t.size() && t[e].directive && !t[e].starts_line) ++e;
  return e;
}

}  // namespace

int vector_type_components(std::string_view t) {
  static constexpr std::string_view bases[] = {"char", "uchar", "short",    "ushort",    "int",   "uint",
                                               "long", "ulong", "longlong", "ulonglong", "float", "double"};
  if (t.size() < 2) return 0;
  const char last = t.back();
  if (last < '1' || last > '4') return 0;
  const std::string_view base = t.substr(0, t.size() - 1);
  for (std::string_view b : bases)
    if (base == b) return last - '0';
  return 0;
}

bool is_wave64_macro_name(std::string_view name) {
  const std::string u = upper(name);
  return has_wave_word(u) && u.find("64") != std::string::npos && u.find("SIZE") == std::string::npos;
}
bool is_width_macro_name(std::string_view name) {
  const std::string u = upper(name);
  if (!has_wave_word(u)) return false;
  for (std::string_view tail : {"SIZE", "WIDTH", "LANES"})
    if (u.ends_with(tail)) return true;
  return false;
}

SourceFacts scan_source_facts(const std::vector<SourceText>& files) {
  SourceFacts f;
  // constexpr functions without __device__ (clang makes them host and device; nvcc needs
  // --expt-relaxed-constexpr to call them in device code), over all files first.
  std::set<std::string, std::less<>> constexpr_host_functions;
  std::vector<std::vector<Tok>> toks;
  toks.reserve(files.size());
  for (const SourceText& s : files) {
    toks.push_back(code_tokens(s.text));
    const std::vector<Tok>& t = toks.back();
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].directive || t[i].text != "constexpr") continue;
      bool annotated = false;
      // `__host__ __device__ constexpr T f(...)` / `constexpr __device__ T f(...)`
      for (std::size_t b = i; b > 0 && b + 8 > i; --b) {
        const std::string_view x = t[b - 1].text;
        if (x == ";" || x == "{" || x == "}" || t[b - 1].directive) break;
        if (x == "__device__" || x == "__host__" || x == "__global__") annotated = true;
      }
      std::size_t k = i + 1;
      for (; k < t.size() && k < i + 24; ++k) {
        const std::string_view x = t[k].text;
        if (x == "__device__" || x == "__host__" || x == "__global__") annotated = true;
        if (x == "(" || x == ";" || x == "=" || x == "{") break;
      }
      if (annotated || k >= t.size() || t[k].text != "(" || t[k - 1].kind != lex::Kind::Identifier ||
          t[k - 1].text == "operator" || t[k - 1].text == "constexpr")
        continue;
      int depth = 0;
      std::size_t e = k;
      for (; e < t.size(); ++e) {
        if (t[e].text == "(") ++depth;
        else if (t[e].text == ")" && --depth == 0) break;
      }
      for (++e; e < t.size() && e < k + 64; ++e) {
        const std::string_view x = t[e].text;
        if (x == "{") {
          constexpr_host_functions.emplace(t[k - 1].text);
          break;
        }
        if (x == ";" || x == "=" || x == "(") break;
      }
    }
  }

  for (std::size_t fi = 0; fi < files.size(); ++fi) {
    const std::vector<Tok>& t = toks[fi];
    const std::string& path = files[fi].path;
    auto where = [&](std::size_t i) { return path + ":" + std::to_string(t[i].line); };

    // ---- conditional directives that choose wavefront-64 code
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (!(t[i].directive && t[i].starts_line && t[i].text == "#") || i + 1 >= t.size()) continue;
      const std::string_view d = t[i + 1].text;
      if (d != "if" && d != "ifdef" && d != "ifndef" && d != "elif") continue;
      const std::size_t e = directive_end(t, i);
      std::vector<std::string_view> user;
      for (std::size_t k = i + 2; k < e; ++k)
        if (t[k].kind == lex::Kind::Identifier && !is_compiler_macro(t[k].text)) user.push_back(t[k].text);
      for (std::string_view m : user) {
        if (is_wave64_macro_name(m)) f.wave64_macros.emplace(std::string(m), where(i));
        else if (is_width_macro_name(m)) f.width_macros.emplace(std::string(m), where(i));
      }
      if (user.size() != 1 || d == "ifndef") continue;
      // `#ifdef M` / `#if M` / `#if defined(M)`: a branch of warp-width code with 64 in it.
      bool warp = false, sixty_four = false;
      int nest = 0;
      for (std::size_t k = e; k < t.size(); ++k) {
        if (t[k].directive && t[k].starts_line && t[k].text == "#" && k + 1 < t.size()) {
          const std::string_view n = t[k + 1].text;
          if (n == "if" || n == "ifdef" || n == "ifndef") ++nest;
          else if (n == "endif" && nest-- == 0) break;
          else if ((n == "else" || n == "elif") && nest == 0) break;
          else if (n == "define" && k + 2 < t.size()) {
            const std::string u = upper(t[k + 2].text);
            warp = warp || has_wave_word(u) || u.find("LANE") != std::string::npos;
          }
        }
        if (t[k].kind == lex::Kind::Identifier && is_warp_code(t[k].text)) warp = true;
        if (t[k].kind == lex::Kind::Number && (t[k].text == "64" || t[k].text == "63" || t[k].text == "0x3f"))
          sixty_four = true;
      }
      if (warp && sixty_four) f.wave64_macros.emplace(std::string(user[0]), where(i));
    }

    // ---- the project's own operators on vector types
    for (std::size_t i = 0; i + 3 < t.size() && !f.user_vector_operators; ++i) {
      if (t[i].text != "operator" || t[i + 1].kind != lex::Kind::Punct) continue;
      const std::size_t open = t[i + 2].text == "(" ? i + 2 : (t[i + 3].text == "(" ? i + 3 : 0);
      if (!open || t[i + 1].text == "(" || t[i + 1].text == "[") continue;
      for (std::size_t k = open + 1; k < t.size() && k < open + 16 && t[k].text != ")"; ++k)
        if (t[k].kind == lex::Kind::Identifier && vector_type_components(t[k].text)) f.user_vector_operators = true;
    }

    // ---- nvcc flags the code needs
    // Each flag's field lists the first place in every file that needs it ("a.hip:3;b/c.hip:9"):
    // a build file passes the flag when a file under its folder needs it.
    auto add = [](std::string& list, const std::string& at) { list += (list.empty() ? "" : ";") + at; };
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
      if (t[i].directive || t[i].text != "]" || (i > 0 && t[i - 1].text == "]") || t[i + 1].text == "]") continue;
      std::size_t k = i + 1;
      if (t[k].text == "(") {
        int depth = 0;
        for (; k < t.size(); ++k) {
          if (t[k].text == "(") ++depth;
          else if (t[k].text == ")" && --depth == 0) break;
        }
        ++k;
        while (k < t.size() && (t[k].text == "mutable" || t[k].text == "constexpr")) ++k;
      }
      if (k < t.size() && (t[k].text == "__device__" || t[k].text == "__host__")) {
        add(f.extended_lambda, where(i));
        break;
      }
    }
    bool constexpr_found = false;
    for (std::size_t i = 0; i < t.size() && !constexpr_found; ++i) {
      if (t[i].directive || (t[i].text != "__device__" && t[i].text != "__global__")) continue;
      // The body of the function (or lambda) this annotation starts: the first `{` before a `;`.
      std::size_t k = i + 1;
      int paren = 0;
      for (; k < t.size(); ++k) {
        if (t[k].directive) continue;
        if (t[k].text == "(") ++paren;
        else if (t[k].text == ")") --paren;
        else if (paren == 0 && (t[k].text == ";" || t[k].text == "=" || t[k].text == "{")) break;
      }
      if (k >= t.size() || t[k].text != "{") continue;
      int depth = 0;
      std::size_t e = k;
      for (; e < t.size(); ++e) {
        if (t[e].directive) continue;
        if (t[e].text == "{") ++depth;
        else if (t[e].text == "}" && --depth == 0) break;
      }
      for (std::size_t j = k; j < e && j + 1 < t.size(); ++j) {
        if (t[j].kind != lex::Kind::Identifier || t[j].directive) continue;
        const bool call = t[j + 1].text == "(" || t[j + 1].text == "<";
        const bool std_algo = call && j >= 2 && t[j - 1].text == "::" && t[j - 2].text == "std" &&
                              (t[j].text == "min" || t[j].text == "max" || t[j].text == "clamp" ||
                               t[j].text == "swap" || t[j].text == "minmax");
        if (t[j].text == "numeric_limits" || std_algo ||
            (call && constexpr_host_functions.contains(t[j].text) &&
             !(j > 0 && (t[j - 1].text == "." || t[j - 1].text == "->")))) {
          add(f.relaxed_constexpr, where(j));
          constexpr_found = true;
          break;
        }
      }
      i = e;
    }
  }
  return f;
}

}  // namespace ferry::buildsys
