// What HIP cannot say, kept beside the HIP text so that HIP -> CUDA restores the CUDA original
// (docs/targets.md, "Round trips"): an include whose CUDA header the way back would not choose
// gets `/* ferry-cuda: <cuda.h> */` after it. The reverse target's record_restore pass reads it.
// (Added includes and dropped warp masks are recorded by runtime_header_pass and
// warp_intrinsics_pass, where they are written.)
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "buildsys/source_facts.h"
#include "core/text.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"
#include "targets/way_back.h"

namespace ferry::targets::hip {

using migrate::npos;

namespace {
// True when a `/* ferry-cuda: ... */` record already follows the header name at `ci` on its
// line (a tree migrated before, or written by hand): recording again would stack a second one.
bool already_recorded(const migrate::FileMigration& file, std::size_t ci) {
  return rewrite::record::mentioned_after(file.tokens(), file.source(), file.token_index(ci));
}
// The CUDA name HIP -> CUDA writes for HIP name `hip`: the rule's name, a call template's callee
// (`cudaMemAdvise($0, ...)`), or the name itself when no rule maps it.
std::string_view way_back_name(std::string_view hip) {
  const std::string_view to = way_back::to_cuda_identifier(hip);
  if (to.empty()) return hip;
  return ferry::trim(to.substr(0, to.find('(')));
}
// Whether the way back rewrites a call of `hip` by a template (`hipMemPrefetchAsync` ->
// `cudaMemPrefetchAsync($0, $1, ferry::cuda_compat::mem_location($2), 0, $3...)`, CUDA 13's form):
// a CUDA call the way there only renamed (CUDA 12's form) is recorded under its name, so that the
// way back gives it as written.
bool way_back_template(std::string_view hip) {
  return way_back::to_cuda_identifier(hip).find('(') != std::string_view::npos;
}
// Whether the call's arguments (its `(` at `open`) come back as the CUDA wrote them: names renamed
// or edits recorded at most (another pass that rewrote them unrecorded, cuda_compat's
// mem_location, owns them).
bool arguments_as_written(migrate::FileMigration& file, std::size_t open) {
  const std::size_t close = file.match_bracket(open);
  if (close == migrate::npos) return false;
  const std::uint32_t b = file.code(open).end, e = file.code(close).begin;
  bool as_written = true;
  file.edits().for_each_reaching(b, e, [&](const rewrite::Edit& ed) {
    // recorded edits (spans, arguments) come back as the CUDA wrote them
    if (ed.replacement.find(rewrite::record::kOpen) != std::string::npos) return;
    if (ed.begin < b || ed.end > e || !ferry::is_identifier(file.source().substr(ed.begin, ed.end - ed.begin)) ||
        !ferry::is_identifier(ed.replacement))
      as_written = false;
  });
  return as_written;
}
}  // namespace

void cuda_record_pass(migrate::FileMigration& file) {
  // Whether the rules rewrite the include whose header name is code token `ci` (a header the
  // release lacks keeps its path, as apply_rules does; a Compat one is the compat pass's).
  auto rule_of = [&](std::size_t ci) -> const rules::Rule* {
    const std::string_view raw = file.text(ci);
    const rules::Rule* r = file.target().rules().find_header(raw.substr(1, raw.size() - 2));
    return r && r->has_replacement() && r->availability == rules::Availability::Available ? r : nullptr;
  };
  // HIP headers already included (a later one is dropped); forgotten at every conditional
  // directive, as apply_rules does: two includes in different #if branches are not duplicates.
  std::vector<std::string> included;
  // The conditional directives' `#` and the header names, in file order (the header names only
  // when there are any).
  const std::vector<std::uint32_t> headers = header_names(file);
  if (headers.empty()) return;
  std::vector<std::uint32_t> at = headers;
  for (const std::uint32_t ci : conditional_directives(file)) at.push_back(ci);
  std::inplace_merge(at.begin(), at.begin() + static_cast<std::ptrdiff_t>(headers.size()), at.end());
  for (const std::size_t ci : at) {
    if (file.code(ci).kind != lex::Kind::HeaderName) {
      included.clear();
      continue;
    }
    const std::string_view raw = file.text(ci);
    // restored from a HIP -> CUDA record (hip_record_restore: a line it dropped, a header it gave
    // back): not an include of the CUDA text, so never what makes a later one a duplicate
    if (rewrite::record::to_hip::after(file.tokens(), file.source(), file.token_index(ci))) continue;
    const std::string path(raw.substr(1, raw.size() - 2));
    const rules::Rule* r = rule_of(ci);
    // As the rules will write it: a header the release lacks keeps its path (apply_rules does the
    // same), so it never makes a later include of the same HIP header look like a duplicate.
    const bool rewritten = r != nullptr;
    const std::string after = rewritten ? std::string(r->to) : path;
    const bool dup = std::find(included.begin(), included.end(), after) != included.end();
    included.push_back(after);
    // Only includes the rules will rewrite: a header the release lacks (Availability::Missing)
    // stays as written, so there is nothing to restore (and a Compat one is the compat pass's).
    if (!rewritten || r->to == path || file.excluded(ci) || file.touched(ci) || already_recorded(file, ci)) continue;
    if (dup) {
      // The rules drop an include that becomes a duplicate; keep what it was.
      if (ci >= 2 && file.is(ci - 2, "#") && file.is(ci - 1, "include") && rewrite::record::recordable(raw) &&
          file.replace(ci - 2, ci, rewrite::record::make(file.span_text(ci - 2, ci))))
        file.count_converted(r->family);
      continue;
    }
    // The way back maps a HIP header to one CUDA header (rules/hip2cuda/: cuda_runtime.h for
    // hip_runtime.h, a standard header to itself): record the others.
    if (way_back::to_cuda_header(r->to) == path) continue;
    // After the header, so the rules still rewrite (and report) the header itself.
    if (rewrite::record::recordable(raw)) file.edits().insert(file.code(ci).end, " " + rewrite::record::make(raw));
  }
}

}  // namespace ferry::targets::hip

namespace ferry::targets::hip {

namespace {
// A call its template rewrote, whose HIP name the way back would give another CUDA name
// (`cuMemcpy(d, s, n)` -> `hipMemcpy(d, s, n, hipMemcpyDefault)`, back as cudaMemcpy): the call is
// recorded as a span, `(hipMemcpy(d, s, n, hipMemcpyDefault)) /* ferry-cuda: cuMemcpy(d, s, n) */`
// (rewrite/roundtrip_record.h), where parentheses can open there.
void record_call(migrate::FileMigration& file, std::size_t ci) {
  const std::size_t close = file.match_bracket(ci + 1);
  if (close == migrate::npos || !file.touched(ci) || file.excluded(close)) return;
  if (!rewrite::record::span_can_open(file, ci)) return;
  if (file.code(ci).in_directive) return;
  const std::string_view original = file.span_text(ci, close);
  if (!rewrite::record::recordable(original) ||
      rewrite::record::comment_after(file.tokens(), file.token_index(close)) != SIZE_MAX)
    return;
  if (file.edits().insert(file.code(ci).begin, "("))
    file.edits().insert(file.code(close).end, ") " + rewrite::record::make(original));
}
// A functional cast to a vector type, `float2(a)` (`a` of a class with a conversion to float2:
// CUDA's vector types have no constructors): HIP keeps it, but the way back reads HIP's one-value
// constructor there and writes `make_float2(a, a)`. The type's name is recorded by its spelling,
// `float2 /* ferry-cuda: float2 */(a)`, so the call comes back as written (the context is the
// cuda vector_ctor pass's: not a declaration's name, not after a type).
// `sites`: the vector types' names, in file order (not looked for in HIP code, where `float2(a)` is
// HIP's constructor).
void record_vector_casts(migrate::FileMigration& file, const std::vector<std::size_t>& sites) {
  for (const std::size_t ci : sites) {
    if (ci + 1 >= file.code_size() || !file.is(ci + 1, "(") || file.excluded(ci) || file.touched(ci) ||
        file.is_member_or_qualified(ci) || file.code(ci).in_directive)
      continue;
    if (ci > 0 &&
        (file.is_identifier(ci - 1) || file.is(ci - 1, ">") || file.is(ci - 1, "*") || file.is(ci - 1, "&")) &&
        !(file.is(ci - 1, "return") || file.is(ci - 1, "else") || file.is(ci - 1, "case")))
      continue;
    const std::size_t close = file.match_bracket(ci + 1);
    if (close == migrate::npos || close == ci + 2) continue;  // `float2()`: value-initialized, as written
    if (rewrite::record::after(file.tokens(), file.source(), file.token_index(ci))) continue;
    file.edits().insert(file.code(ci).end, " " + rewrite::record::make(file.text(ci)));
  }
}
// CUDA code that also holds HIP code (a tree that keeps both: `#ifdef USE_HIP #include
// <hip/hip_fp16.h>`, `if (err == hipSuccess)` under `#if defined(USE_HIP)`): the way back would
// write its HIP includes and names as CUDA ones, so each is recorded as it is, `#include
// <hip/hip_fp16.h> /* ferry-cuda: <hip/hip_fp16.h> */`, `hipSuccess /* ferry-cuda: hipSuccess */`
// (header and spelling forms). Only in a file this migration changed (`changed_text`): a HIP
// output migrated again changes nothing, and its names stay as they are (a fixed point).
// `names`: the HIP names' occurrences, in file order (spelling_sites).
void record_hip_code(migrate::FileMigration& file, const std::vector<std::size_t>& names) {
  const std::string_view src = file.source();
  // where a pass wrote a record already (the warp pass's legacy calls): insertions holding one,
  // read once (this loop's own records go at other tokens' ends)
  std::vector<std::uint32_t> recorded_at;
  for (const rewrite::Edit& e : file.edits().edits())
    if (e.begin == e.end && e.replacement.find(rewrite::record::kOpen) != std::string::npos)
      recorded_at.push_back(e.begin);
  const auto& toks = file.tokens();
  // The candidates, in file order: the header names and the HIP names.
  std::vector<std::size_t> candidates = names;
  for (const std::uint32_t ci : header_names(file)) candidates.push_back(ci);
  std::inplace_merge(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(names.size()),
                     candidates.end());
  for (const std::size_t ci : candidates) {
    const bool header = file.code(ci).kind == lex::Kind::HeaderName;
    if (file.excluded(ci) || file.touched(ci)) continue;
    const std::string_view text = file.text(ci);
    if (header) {
      const std::string_view path = text.substr(1, text.size() - 2);
      // a HIP header (`<hip/hip_fp16.h>`, `<rccl/rccl.h>`): the way back maps it, the way there not
      const std::string_view back = file.target().rules().find_header(path) ? "" : way_back::to_cuda_header(path);
      if (back.empty() || back == path || already_recorded(file, ci) || !rewrite::record::recordable(text)) continue;
    } else {
      // a HIP name: the way back renames it, the way there has no rule for it or keeps it (a name
      // both have, `__shfl(v, l)`, whose way back is `__shfl_sync(0xffffffff, v, l)`); not the
      // user's own declaration of it (`#define HIP_DYNAMIC_SHARED(T, n)`: no record before the
      // parameters)
      if (is_declared_name(file, ci) || rewrite::record::after(toks, src, file.token_index(ci))) continue;
    }
    // recorded by the pass that wrote the record already (the warp pass's legacy calls)
    if (!std::binary_search(recorded_at.begin(), recorded_at.end(), file.code(ci).end))
      file.edits().insert(file.code(ci).end, " " + rewrite::record::make(text));
  }
}
// Whether an edit changes the text (passes claim text by rewriting it as it is).
bool changed_text(migrate::FileMigration& file) {
  const std::string_view src = file.source();
  for (const rewrite::Edit& e : file.edits().edits())
    if (e.replacement != src.substr(e.begin, e.end - e.begin)) return true;
  return false;
}
// The identifiers record_spellings visits, in file order, found from the file's distinct names
// (each name decided once): the HIP names record_hip_code records (the way back renames them, the way there
// has no rule for them or keeps them; only when `hip_names`), the vector types of
// record_vector_casts (when `vector_types`) and the names the rules rename.
struct SpellingSites {
  std::vector<std::size_t> hip_names, vector_types, renamed;
};
SpellingSites spelling_sites(const migrate::FileMigration& file, bool hip_names, bool vector_types) {
  enum : unsigned char { kHip = 1, kVector = 2, kRenamed = 4 };
  const rules::RuleSet& rules = file.target().rules();
  SpellingSites sites;
  // Per distinct name (in the order of first occurrences), its occurrences appended to the lists
  // it belongs to; each list is then put in file order.
  for (std::uint32_t id = 0, n = static_cast<std::uint32_t>(file.name_count()); id < n; ++id) {
    const std::string_view name = file.name_text(id);
    const rules::Rule* there = rules.find_identifier(name);
    unsigned char bits = 0;
    if (hip_names && way_back_name(name) != name && rewrite::record::is_spelling(name) &&
        (!there || (there->has_replacement() && there->to == name)))
      bits |= kHip;
    if (vector_types && buildsys::vector_type_components(name) > 0) bits |= kVector;
    if (there && there->has_replacement() && there->to != name) bits |= kRenamed;
    if (bits == 0) continue;
    const std::span<const std::uint32_t> at = file.occurrences_of(id);
    if (bits & kHip) sites.hip_names.insert(sites.hip_names.end(), at.begin(), at.end());
    if (bits & kVector) sites.vector_types.insert(sites.vector_types.end(), at.begin(), at.end());
    if (bits & kRenamed) sites.renamed.insert(sites.renamed.end(), at.begin(), at.end());
  }
  for (std::vector<std::size_t>* list : {&sites.hip_names, &sites.vector_types, &sites.renamed})
    std::sort(list->begin(), list->end());
  return sites;
}
}  // namespace

void record_spellings(migrate::FileMigration& file) {
  const bool changed = changed_text(file);
  const bool hip_code = includes_hip_header(file);
  const SpellingSites sites = spelling_sites(file, changed, !hip_code);
  if (changed) record_hip_code(file, sites.hip_names);
  if (!hip_code) record_vector_casts(file, sites.vector_types);
  auto edit_of = [&](std::uint32_t b, std::uint32_t e) { return file.edits().find(b, e); };
  for (const std::size_t ci : sites.renamed) {
    if (file.excluded(ci)) continue;
    const std::string_view name = file.text(ci);
    const rules::Rule* r = file.identifier_rule(ci);
    // A call template's name (`cuMemcpy` -> `hipMemcpy($0, $1, $2, hipMemcpyDefault)`): its head.
    const std::string_view to = ferry::is_identifier(r->to)
                                    ? std::string_view(r->to)
                                    : ferry::trim(std::string_view(r->to).substr(0, r->to.find('(')));
    if (!ferry::is_identifier(to)) continue;
    if (to != r->to && file.is(ci + 1, "(")) {  // a call its template rewrote
      if (way_back_name(to) != name && !file.is_member_or_qualified(ci)) record_call(file, ci);
      continue;
    }
    // a name (a template's, used as a value: its head) the way back gives another CUDA name, or a
    // call only renamed where the way back has a template
    if (way_back_name(to) == name &&
        !(to == r->to && way_back_template(to) && file.is(ci + 1, "(") && arguments_as_written(file, ci + 1)))
      continue;
    // Only a plain rename of the token to the rule's name (a pass that rewrote more owns its text).
    const rewrite::Edit* e = edit_of(file.code(ci).begin, file.code(ci).end);
    if (!e || e->replacement != to) continue;
    // Already recorded (a tree migrated before): the record stays as it is.
    if (rewrite::record::after(file.tokens(), file.source(), file.token_index(ci))) continue;
    // Recorded by another pass (elaborated_type: `struct CUgraphicsResource_st`, keyword and name).
    if (const rewrite::Edit* at = edit_of(file.code(ci).end, file.code(ci).end);
        at && at->replacement.find(rewrite::record::kOpen) != std::string::npos)
      continue;
    file.edits().insert(file.code(ci).end, " " + rewrite::record::make(name));
  }
}

}  // namespace ferry::targets::hip
