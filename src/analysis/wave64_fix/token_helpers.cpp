// Word tests and statement readers the planner units share (planner.h).
#include "analysis/wave64_fix/planner.h"

#include <algorithm>
#include <filesystem>

#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "core/text.h"
#include "rewrite/roundtrip_record.h"

namespace ferry::analysis::wave64_plan {

// ---- word tests ------------------------------------------------------------------------------

bool narrow_literal(std::string_view t) { return t.find_first_of("lL") == std::string_view::npos; }

bool is_warp_op(std::string_view s) {
  // ferry_tile_shfl*: compat/tile_shfl.h's form of a tile shuffle of a vector value.
  return s.starts_with("__shfl") || s.starts_with("__ballot") || s.starts_with("ferry_tile_shfl") ||
         is_one_of(
             s, {"__any", "__all", "__any_sync", "__all_sync", "__uni_sync", "__activemask", "__syncwarp", "__lane_id",
                 "__builtin_amdgcn_wave_barrier", "__builtin_amdgcn_ds_bpermute", "__builtin_amdgcn_ds_swizzle"}) ||
         s.starts_with("__match_") || (s.starts_with("__reduce_") && s.ends_with("_sync"));
}

// WMMA calls (nvcuda::wmma, rocwmma): the whole warp -- a whole wavefront with rocWMMA -- runs
// each one on the fragment it shares.
bool is_wmma_op(std::string_view s) {
  return is_one_of(s, {"mma_sync", "load_matrix_sync", "store_matrix_sync", "fill_fragment", "bmma_sync"});
}

// Member calls of cooperative-groups tiles that move data between lanes.
bool is_tile_warp_member(std::string_view s) {
  return is_one_of(s, {"shfl", "shfl_down", "shfl_up", "shfl_xor", "ballot", "any", "all", "match_any", "match_all"});
}

bool is_int_type_word(std::string_view s) {
  return is_one_of(s, {"unsigned", "signed", "int", "long", "short", "uint32_t", "int32_t", "uint", "uint64_t",
                       "int64_t", "size_t"});
}

// The integer type words of a declaration that are 32 bits wide: "unsigned", "unsigned int",
// "int", "uint32_t", "uint", "int32_t".
bool is_32bit_type(const std::vector<std::string_view>& w) {
  if (w.size() == 2 && w[0] == "unsigned" && w[1] == "int") return true;
  if (w.size() == 2 && w[0] == "signed" && w[1] == "int") return true;
  return w.size() == 1 && is_one_of(w[0], {"unsigned", "int", "uint32_t", "uint", "int32_t", "signed"});
}

bool is_64bit_type(const std::vector<std::string_view>& w) {
  if (w.size() >= 2 && w[w.size() - 1] == "long" && w[w.size() - 2] == "long") return true;
  if (w.size() == 3 && w[1] == "long" && w[2] == "int") return true;
  return w.size() == 1 && is_one_of(w[0], {"uint64_t", "int64_t", "size_t", "auto", "long"});
}

// Splits [a, b] at top-level commas.
std::vector<std::pair<std::size_t, std::size_t>> split_commas(const Tokens& v, std::size_t a, std::size_t b) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t start = a;
  for (std::size_t i = a; i <= b; ++i) {
    if ((v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) && v.partner(i) != npos && v.partner(i) <= b) {
      i = v.partner(i);
      continue;
    }
    if (v.is(i, ",")) {
      out.push_back({start, i - 1});
      start = i + 1;
    }
  }
  if (start <= b) out.push_back({start, b});
  return out;
}

// End of the expression that starts at `a` (before `;`, or `,`/`)` at depth 0).
std::size_t expr_end(const Tokens& v, std::size_t a, std::size_t limit) {
  std::size_t i = a;
  while (i < limit) {
    if ((v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) && v.partner(i) != npos) {
      i = v.partner(i) + 1;
      continue;
    }
    if (v.is(i, ";") || v.is(i, ",") || v.is(i, ")") || v.is(i, "]") || v.is(i, "}")) break;
    ++i;
  }
  return i == a ? a : i - 1;
}

std::vector<std::uint32_t> launch_opens(const Tokens& v) {
  // Each `<<<` token begins at a "<<<" of the text (most of which, in comments, strings or `<<<<`,
  // begin no such token).
  std::vector<std::uint32_t> out;
  const std::string_view text = v.f.source();
  for (std::size_t at = text.find("<<<"); at != std::string_view::npos; at = text.find("<<<", at + 1)) {
    const std::size_t ci = v.first_at(static_cast<std::uint32_t>(at));
    if (ci < v.size() && v.at(ci) == at && v.f.code(ci).kind == lex::Kind::LaunchOpen)
      out.push_back(static_cast<std::uint32_t>(ci));
  }
  return out;
}

// The code index of the kernel name before a `<<<` at `open` (back over template arguments).
std::size_t launched_name(const Tokens& v, std::size_t open, std::size_t lo) {
  std::size_t k = open - 1;
  if (v.is(k, ">")) {
    int depth = 0;
    for (; k > lo; --k) {
      if (v.is(k, ">")) ++depth;
      else if (v.is(k, ">>")) depth += 2;
      else if (v.is(k, "<") && --depth == 0) break;
    }
    --k;
  }
  return v.ident(k) ? k : npos;
}

bool declared_device(const Tokens& v, std::size_t name_ci) {
  for (std::size_t d = name_ci; d > 0; --d) {
    const std::size_t p = d - 1;
    if (v.f.code(p).in_directive || v.is(p, ";") || v.is(p, "}") || v.is(p, "{")) break;
    if (v.is(p, "__device__") || v.is(p, "__global__")) return true;
  }
  return false;
}

// A constant the file neither defines nor reaches through its includes can still come from a
// header found through an -I folder or an angle include, never from another source file.
bool is_header_key(const std::string& key) {
  const std::string e = std::filesystem::path(key).extension().string();
  return is_one_of(e, {".h", ".hpp", ".hh", ".hxx", ".cuh", ".inl", ".inc", ".ipp", ".tcc"});
}

Wave64ByteEdit replace_token(const Tokens& v, std::size_t ci, std::string text) {
  return {v.at(ci), v.end(ci), std::move(text)};
}

Wave64ByteEdit recorded_token(const Tokens& v, std::size_t ci, std::string text, bool record) {
  const std::string_view original = v.t(ci);
  if (!record || !rewrite::record::is_literal(original)) return replace_token(v, ci, std::move(text));
  if (ferry::is_identifier(text) || rewrite::record::is_literal(text))
    return replace_token(v, ci, text + " " + rewrite::record::make(original));
  if (!rewrite::record::span_can_open(v.f, ci)) return replace_token(v, ci, std::move(text));
  return replace_token(v, ci, rewrite::record::span(text, original));
}

Wave64ByteEdit recorded_paren(const Tokens& v, std::size_t ci, std::string text, bool record) {
  const std::string_view original = v.t(ci);
  if (!record || !rewrite::record::is_literal(original) || !rewrite::record::span_can_open(v.f, ci))
    return replace_token(v, ci, "(" + text + ")");
  return replace_token(v, ci, rewrite::record::span(text, original));
}

// A code token followed (on its line, whitespace between) by a `/* ferry-cuda: ... */` record.
bool recorded(const Tokens& v, std::size_t ci) {
  const std::size_t c = rewrite::record::comment_after(v.f.tokens(), v.f.token_index(ci));
  return c != SIZE_MAX && rewrite::record::is_record(v.f.tokens()[c].text(v.f.source()));
}

// The logical form's half of a ballot, as written at the `__ballot`/`__ballot_sync` token `i`:
// `(unsigned)(__ballot(P) >> HALF)` with HALF `(__lane_id() & 32)` (or, in CUDA output, the
// linear thread id form). Returns the index of the closing `)` of `(unsigned)(...)`, or npos.
std::size_t ballot_half_end(const Tokens& v, std::size_t i, std::string_view half) {
  if (i < 4 || !v.is(i - 1, "(") || !v.is(i - 2, ")") || !v.is(i - 3, "unsigned") || !v.is(i - 4, "(")) return npos;
  if (!v.is(i + 1, "(") || v.partner(i + 1) == npos) return npos;
  const std::size_t close = v.partner(i + 1);
  if (!v.is(close + 1, ">>") || !v.is(close + 2, "(") || v.partner(close + 2) == npos) return npos;
  const std::size_t half_close = v.partner(close + 2);
  std::string text;
  for (std::size_t q = close + 2; q <= half_close; ++q) text += v.t(q);
  std::string want;
  for (char c : half)
    if (c != ' ') want += c;
  if (text != want || !v.is(half_close + 1, ")") || v.partner(half_close + 1) != i - 1) return npos;
  return half_close + 1;
}

// Is the value of code range [first, last] lane-, warp- or thread-derived?
unsigned taint_of(const Tokens& v, const FunctionInfo& fi, std::size_t first, std::size_t last) {
  if (first > last) return 0;
  return range_taint(v.f, v.facts, fi.defs, first, last);
}

// Variables of `fi` holding a warp index: defined with `>> 5`, `/ 32`, `/ warpSize` or the
// division by a warp-width constant.
std::set<std::string_view> warp_index_vars(const Tokens& v, const FunctionInfo& fi) {
  std::set<std::string_view> out;
  for (const VarDef& d : fi.defs) {
    if (!(d.taint & 2)) continue;
    for (std::size_t j = d.at + 1; j < fi.body_close && !v.is(j, ";") && !v.is(j, ","); ++j) {
      const bool div = v.is(j, "/") || v.is(j, ">>");
      if (!div) continue;
      const long long n = v.number(j + 1) ? parse_int(v.t(j + 1)).value_or(-1) : -1;
      if ((v.is(j, ">>") && n == 5) ||
          (v.is(j, "/") && (n == 32 || v.is(j + 1, "warpSize") || (v.ident(j + 1) && is_warp_width_name(v.t(j + 1))))))
        out.insert(d.name);
    }
  }
  return out;
}

}  // namespace ferry::analysis::wave64_plan
