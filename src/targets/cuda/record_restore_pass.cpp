// What the CUDA -> HIP target could not say in HIP it leaves in a comment at the place, the
// round-trip record (rewrite/roundtrip_record.h states its forms and their restore rules). This
// pass puts the CUDA text back, first, so that CUDA -> HIP -> CUDA gives the original text.
#include <algorithm>
#include <string>
#include <vector>

#include "analysis/wave64_fix.h"
#include "core/text.h"
#include "rewrite/roundtrip_record.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {

using migrate::FileMigration;
namespace record = rewrite::record;

namespace {
// The family a restored name is counted in: its HIP name's rule's, else runtime.
std::string family_of(const FileMigration& file, std::string_view hip) {
  const rules::Rule* r = file.target().rules().find_identifier(hip);
  return std::string(r && !r->family.empty() ? r->family : "runtime");
}

// The same-signature guards of the hip target (same_signature_pass: `#if !defined(FERRY_HAVE_X)
// ... [FRY4107]` before an overload the renames merged, `#define FERRY_HAVE_X` after each, `#endif`)
// are Ferry's own lines: on the way back, where the overloads differ again, they go. So do the
// guards hip_provided_pass puts around definitions HIP's headers provide (FRY4103).
void remove_ferry_guards(FileMigration& file) {
  const std::string_view src = file.source();
  constexpr std::string_view kIf = "#if !defined(FERRY_HAVE_";
  constexpr std::string_view kTag = "[FRY4107]";
  constexpr std::string_view kDefine = "#define FERRY_HAVE_";
  // hip_provided_pass: `#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers define this [FRY4103]`
  // around a definition HIP provides; CUDA needs the definition, so the guard and its #endif go.
  constexpr std::string_view kProvided = "#if !defined(__HIP_PLATFORM_AMD__)  // HIP's headers define th";
  constexpr std::string_view kProvidedTag = "[FRY4103]";
  int depth = 0;                       // #if nesting before the current line
  std::vector<int> provided;           // depth of each open provided-guard
  std::vector<std::string_view> open;  // markers of guards opened and not yet closed
  bool pending_endif = false;          // the line after a guarded overload's #define
  for (std::size_t b = 0; b < src.size();) {
    std::size_t e = src.find('\n', b);
    e = e == std::string_view::npos ? src.size() : e + 1;
    std::string_view line = src.substr(b, e - b);
    const std::string_view body = ferry::trim(line, " \t\r\n");
    bool drop = false;
    const bool opens = body.starts_with("#if");  // #if, #ifdef, #ifndef
    const bool closes = body.starts_with("#endif");
    if (body.starts_with(kProvided) && body.ends_with(kProvidedTag)) {
      provided.push_back(depth);
      drop = true;
    } else if (closes && !provided.empty() && provided.back() == depth - 1) {
      provided.pop_back();
      drop = true;
    } else if (body.starts_with(kIf) && body.ends_with(kTag)) {
      const std::size_t close = body.find(')');
      if (close != std::string_view::npos) open.push_back(body.substr(13, close - 13));
      drop = true;
    } else if (body.starts_with(kDefine) && ferry::is_identifier(body.substr(8))) {
      const std::string_view marker = body.substr(8);
      pending_endif = !open.empty() && open.back() == marker;
      if (pending_endif) open.pop_back();
      drop = true;
    } else if (pending_endif && body == "#endif") {
      pending_endif = false;
      drop = true;
    } else {
      pending_endif = false;
    }
    if (opens) ++depth;
    if (closes && depth > 0) --depth;
    if (drop) file.replace_bytes(static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(e), "");
    b = e;
  }
}
// An added conditional (rewrite/roundtrip_record.h): `#if COND /* ferry-cuda: (none) */`, a first
// branch, `#else`, the original text, `#endif` (the wave64 fix's per-target warp width). The
// original stays as it was written: from the `#if` to the first non-blank after `#else` goes, and
// from the newline before `#endif` to its end (what followed the original on its line follows
// the #endif).
void remove_added_conditionals(FileMigration& file) {
  const std::string_view src = file.source();
  const std::string suffix = " " + std::string(record::kAdded);
  for (std::size_t b = 0; b < src.size();) {
    std::size_t e = src.find('\n', b);
    e = e == std::string_view::npos ? src.size() : e + 1;
    const std::string_view body = ferry::trim(src.substr(b, e - b), " \t\r\n");
    const std::size_t start = b;
    b = e;
    if (!body.starts_with("#if ") || !body.ends_with(suffix)) continue;
    // the #else and #endif of this #if, at its depth
    int depth = 0;
    std::size_t else_end = std::string_view::npos, endif_begin = std::string_view::npos, endif_end = 0;
    for (std::size_t q = e; q < src.size();) {
      std::size_t qe = src.find('\n', q);
      qe = qe == std::string_view::npos ? src.size() : qe + 1;
      const std::string_view line = src.substr(q, qe - q);
      const std::string_view t = ferry::trim(line, " \t\r\n");
      if (t.starts_with("#if")) {
        ++depth;
      } else if (t.starts_with("#endif")) {
        if (depth-- == 0) {
          endif_begin = q + line.find('#');
          endif_end = endif_begin + 6;
          break;
        }
      } else if (depth == 0 && t.starts_with("#el")) {
        if (t != "#else" || else_end != std::string_view::npos) break;  // not this form
        else_end = qe;
      }
      q = qe;
    }
    if (else_end == std::string_view::npos || endif_begin == std::string_view::npos || endif_begin < else_end + 1)
      continue;
    std::size_t keep = else_end;  // the original's first non-blank
    while (keep < endif_begin && (src[keep] == ' ' || src[keep] == '\t')) ++keep;
    std::size_t nl = endif_begin;  // the newline before the #endif
    while (nl > else_end && src[nl - 1] != '\n') --nl;
    if (nl <= keep) continue;
    const std::size_t if_begin = start + src.substr(start, e - start).find('#');
    file.replace_bytes(static_cast<std::uint32_t>(nl - 1), static_cast<std::uint32_t>(endif_end), "");
    file.replace_bytes(static_cast<std::uint32_t>(if_begin), static_cast<std::uint32_t>(keep), "");
    file.count_converted("device");
  }
}

// The records after a `)` (code token `ci`): a launch's doubled block, or a span. Spans nest (a sum
// rewritten inside a returned value), so they are restored outermost first: the outer record holds
// the CUDA text of all it covers, and the inner restores, overlapping, do nothing.
void restore_closing(FileMigration& file, std::size_t ci) {
  const auto& toks = file.tokens();
  const std::string_view src = file.source();
  const std::size_t ti = file.token_index(ci);
  auto comment_after = [&](std::size_t t) { return record::comment_after(toks, t); };
  // a launch's block doubled for the same form: `2 * (B) /* ferry-cuda: B */`, `dim3(2 * b.x, b.y,
  // b.z) /* ferry-cuda: b */`, `dim3(2 * dim3(B).x, ...) /* ferry-cuda: B */`
  const std::size_t c = comment_after(ti);
  if (c == SIZE_MAX) return;
  const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
  if (!rec) return;
  const std::uint32_t end = file.code(ci).end;
  bool block = false;
  for (const std::string& form : analysis::wmma_doubled_block_forms(*rec)) {
    if (form.size() > end || src.substr(end - form.size(), form.size()) != form) continue;
    if (file.replace_bytes(static_cast<std::uint32_t>(end - form.size()), toks[c].end, std::string(*rec)))
      file.count_converted("launch");
    block = true;
    break;
  }
  // a span: `(cta.thread_rank() / 32) /* ferry-cuda: warp.meta_group_rank() */`, the parentheses
  // opened where no call, cast or operand of `*` is (those are the block forms above)
  // (`return (...)`, `case (...)`: a keyword before the parentheses starts an expression; so does
  // the end of a directive line)
  const std::size_t open = file.partner(ci);
  if (block || *rec == record::kNone || open == migrate::npos || !record::span_can_open(file, open)) return;
  if (file.replace_bytes(file.code(open).begin, toks[c].end, std::string(*rec))) file.count_converted("device");
}

void closing_spans(FileMigration& file) {
  std::vector<std::pair<std::uint32_t, std::size_t>> order;  // (byte of the opening, `)`)
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is(ci, ")") || record::comment_after(file.tokens(), file.token_index(ci)) == SIZE_MAX) continue;
    const std::size_t open = file.partner(ci);
    order.emplace_back(open == migrate::npos ? file.code(ci).begin : file.code(open).begin, ci);
  }
  std::sort(order.begin(), order.end(),
            [](const auto& x, const auto& y) { return x.first != y.first ? x.first < y.first : x.second > y.second; });
  for (const auto& [begin, ci] : order) restore_closing(file, ci);
}

}  // namespace

void record_restore_pass(FileMigration& file) {
  remove_ferry_guards(file);
  remove_added_conditionals(file);
  const auto& toks = file.tokens();
  const std::string_view src = file.source();
  // A dropped duplicate include: `/* ferry-cuda: #include <cuda_runtime_api.h> */` alone at a line start.
  for (std::size_t t = 0; t < toks.size(); ++t) {
    if (toks[t].kind != lex::Kind::BlockComment || (toks[t].begin > 0 && src[toks[t].begin - 1] != '\n')) continue;
    const auto rec = record::parse(src.substr(toks[t].begin, toks[t].end - toks[t].begin));
    if (rec && rec->starts_with("#include") && file.replace_bytes(toks[t].begin, toks[t].end, std::string(*rec)))
      file.count_converted("headers");
  }
  // An added separator: `"C"/* ferry-cuda: (none) */__global__`, glued to the tokens on both sides.
  for (std::size_t t = 1; t + 1 < toks.size(); ++t) {
    if (toks[t].kind != lex::Kind::BlockComment || toks[t - 1].end != toks[t].begin ||
        toks[t + 1].begin != toks[t].end || lex::is_trivia(toks[t - 1].kind) || lex::is_trivia(toks[t + 1].kind) ||
        src.substr(toks[t].begin, toks[t].end - toks[t].begin) != record::kAdded)
      continue;
    if (file.replace_bytes(toks[t].begin, toks[t].end, "")) file.count_converted("dialect");
  }
  // A word HIP does not take: `void /* ferry-cuda: CUDART_CB  */myStreamCallback`.
  for (std::size_t t = 0; t < toks.size(); ++t) {
    if (toks[t].kind != lex::Kind::BlockComment) continue;
    const auto rec = record::parse(src.substr(toks[t].begin, toks[t].end - toks[t].begin));
    if (rec && record::is_word(*rec) && file.replace_bytes(toks[t].begin, toks[t].end, std::string(*rec)))
      file.count_converted("dialect");
  }
  closing_spans(file);
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    const std::size_t ti = file.token_index(ci);
    // The first comment after code token `ci` on the same line (whitespace between allowed).
    auto comment_after = [&](std::size_t t) { return record::comment_after(toks, t); };
    if (file.code(ci).kind == lex::Kind::HeaderName) {
      const std::size_t c = comment_after(ti);
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (!rec) continue;
      if (*rec == record::kNone) {  // added by the forward migration: the original did not have it
        // the whole line, from '#' to the newline
        std::uint32_t b = file.code(ci).begin;
        while (b > 0 && src[b - 1] != '\n') --b;
        std::uint32_t e = toks[c].end;
        while (e < src.size() && src[e] != '\n') ++e;
        if (e < src.size()) ++e;
        if (file.replace_bytes(b, e, "")) file.count_converted("headers");
        continue;
      }
      if (!(rec->starts_with('<') || rec->starts_with('"'))) continue;
      if (file.replace_bytes(file.code(ci).begin, toks[c].end, std::string(*rec))) file.count_converted("headers");
      continue;
    }
    if (file.is(ci, "]") && file.is(ci + 1, ";") && file.is(ci + 2, "__builtin_memset") && file.is(ci + 3, "(")) {
      // `a[n] /* ferry-cuda:  = {0}; */; __builtin_memset(a, 0, sizeof(a));`: a variable-length
      // array's initializer the hip dialect pass moved into a memset
      const auto rec = record::after(toks, src, ti);
      const std::size_t close = file.match_bracket(ci + 3);
      if (rec && rec->text.ends_with(';') && close != migrate::npos && file.is(close + 1, ";") &&
          file.replace_bytes(file.code(ci).end, file.code(close + 1).end, std::string(rec->text)))
        file.count_converted("dialect");
      continue;
    }
    if (file.is_number(ci) || file.is_identifier(ci)) {
      // `1ull /* ferry-cuda: 1 */`, `warpSize /* ferry-cuda: 32 */`: a literal the wave64 fix
      // widened or replaced; `/ warpSize /* ferry-cuda: >> 5 */` with its operator
      if (const auto rec = record::after(toks, src, ti)) {
        const bool shift =
            rec->text.starts_with(">> ") && record::is_literal(rec->text.substr(3)) && ci > 0 && file.is(ci - 1, "/");
        if (shift || record::is_literal(rec->text)) {
          if (file.replace_bytes(file.code(shift ? ci - 1 : ci).begin, toks[rec->token].end, std::string(rec->text)))
            file.count_converted("device");
          continue;
        }
      }
    }
    if (file.is(ci, "long") && ci >= 2 && file.is(ci - 1, "long") && file.is(ci - 2, "unsigned")) {
      // `unsigned long long /* ferry-cuda: unsigned */`: a lane mask's type the wave64 fix widened
      if (const auto rec = record::after(toks, src, ti); rec && record::is_type_words(rec->text)) {
        if (file.replace_bytes(file.code(ci - 2).begin, toks[rec->token].end, std::string(rec->text)))
          file.count_converted("device");
        continue;
      }
    }
    if (file.is(ci, "64") || file.is(ci, "6")) {
      // `threadIdx.x / 64 /* ferry-cuda: WARP_SIZE */` (`>> 6 /* ferry-cuda: 5 */`): a warp index
      // of a WMMA component in one-warp-per-wavefront form (docs/wave64.md, WMMA)
      const std::size_t c = comment_after(ti);
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (rec && *rec != record::kNone && (ci > 0 && (file.is(ci - 1, "/") || file.is(ci - 1, ">>"))) &&
          file.replace_bytes(file.code(ci).begin, toks[c].end, std::string(*rec)))
        file.count_converted("device");
      continue;
    }
    if (file.is(ci, "for") && file.is(ci + 1, "(")) {
      // `for (int ferry_off = ...) /* ferry-cuda: (none) */ STEP`: a loop head the wave64 fix put
      // before an unrolled butterfly's first step; the head, the record and one blank go
      const std::size_t close = file.match_bracket(ci + 1);
      if (close == migrate::npos) continue;
      const auto rec = record::after(toks, src, file.token_index(close));
      if (!rec || rec->text != record::kNone) continue;
      std::uint32_t e = toks[rec->token].end;
      if (e < src.size() && src[e] == ' ') ++e;
      if (file.replace_bytes(file.code(ci).begin, e, "")) file.count_converted("device");
      continue;
    }
    if (file.is(ci, ")")) continue;  // closing_spans, before this loop
    if (file.is(ci, "}")) {
      // a brace span: `{.x = 0xFBFF} /* ferry-cuda: {0xFBFF} */` (hip fp16_raw_init pass)
      const std::size_t c = comment_after(ti);
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      const std::size_t open = file.partner(ci);
      if (rec && rec->starts_with('{') && rec->ends_with('}') && open != migrate::npos &&
          file.replace_bytes(file.code(open).begin, toks[c].end, std::string(*rec)))
        file.count_converted("fp16");
      continue;
    }
    if (file.is(ci, "0") && ci > 0 && file.is(ci - 1, ",")) {
      // `hipStreamWaitEvent(s, e, 0 /* ferry-cuda: (none) */)`: a default argument HIP wants written
      const std::size_t c = comment_after(ti);
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (rec && *rec == record::kNone && file.replace_bytes(file.code(ci - 1).begin, toks[c].end, ""))
        file.count_converted("runtime");
      continue;
    }
    if (file.is(ci, ",")) {
      // `hipCtxCreate(&c, /* ferry-cuda: &params, */ 0, dev)`: an argument HIP's call does not take
      const std::size_t c = comment_after(ti);
      if (c != SIZE_MAX) {
        const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
        if (rec && rec->size() > 1 && rec->ends_with(',') && *rec != record::kNone &&
            file.replace_bytes(toks[c].begin, toks[c].end, std::string(*rec)))
          file.count_converted("driver");
      }
      continue;
    }
    if (file.is(ci, "32")) {
      // `32 /* ferry-cuda: warpSize */`: the wave64 fix's logical warps needed CUDA's 32 there
      const std::size_t c = comment_after(ti);
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (rec && *rec == "warpSize" && file.replace_bytes(file.code(ci).begin, toks[c].end, "warpSize"))
        file.count_converted("device");
      continue;
    }
    if (file.is_identifier(ci)) {
      // `hipError_t /* ferry-cuda: CUresult */`: the spelling the CUDA had, whatever the rules say
      // (`hipGraphicsResource /* ferry-cuda: struct cudaGraphicsResource */`: with its tag keyword)
      if (const auto rec = record::after(toks, src, ti); rec && record::is_spelling(rec->text)) {
        if (file.replace_bytes(file.code(ci).begin, toks[rec->token].end, std::string(rec->text)))
          file.count_converted(family_of(file, file.text(ci)));
        continue;
      }
    }
    if (file.is_identifier(ci) && file.is(ci + 1, "(")) {
      const std::size_t c = comment_after(file.token_index(ci + 1));
      if (c == SIZE_MAX) continue;
      const auto rec = record::parse(src.substr(toks[c].begin, toks[c].end - toks[c].begin));
      if (!rec || !rec->starts_with(file.text(ci).substr(0, 2))) continue;
      // `__shfl(/* ferry-cuda: __shfl_sync(tmask, */ v` : the comment and one space after it
      std::uint32_t e = toks[c].end;
      if (e < src.size() && src[e] == ' ') ++e;
      if (file.replace_bytes(file.code(ci).begin, e, std::string(*rec))) file.count_converted("device");
    }
  }
}

}  // namespace ferry::targets::cuda
