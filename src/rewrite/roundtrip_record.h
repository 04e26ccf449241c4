// The round-trip record of source files: what the CUDA -> HIP migration wrote where HIP -> CUDA
// would not derive the CUDA text back, kept beside the place in the HIP output as a block comment
//
//   /* ferry-cuda: ORIGINAL */
//
// so that CUDA -> HIP -> CUDA gives the original text (docs/targets.md, "Round trips"). This module
// is the record's one owner: the hip target and the wave64 planner write records only through
// `make` (or the constants below), the cuda target reads them only through `parse` / `after`;
// whether a text or a place already holds one is asked through `mentions` / `mentioned_after`.
// (Build files have their own record, buildsys/roundtrip_record.h: `# ferry-cuda-was` lines.)
//
// The forms, each with its restore rule on the way back (the cuda target's record_restore pass,
// first, unless another pass is named; a restored text is final: the recorded spelling wins over
// whatever the rules would derive):
//   header      `#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */` (hip cuda_record pass):
//               the header name and the record become the recorded `<cuda.h>`.
//   added       `#include <hip/hip_runtime.h> /* ferry-cuda: (none) */` (hip runtime_header pass):
//               the whole line goes; `, 32 /* ferry-cuda: (none) */` (a shuffle width the wave64
//               fix added): the cuda logical_warp pass drops the width.
//               `, 0 /* ferry-cuda: (none) */` (a default argument HIP's call wants written, hip
//               call_args pass): the comma, the 0 and the record go.
//               `#if defined(__HIP_PLATFORM_AMD__) /* ferry-cuda: (none) */` (an added
//               conditional, the wave64 fix's per-target warp width): its first branch, `#else`
//               and `#endif` go, the #else branch (the original) stays as written.
//               `for (...) /* ferry-cuda: (none) */ STEP` (an added loop head, the wave64 fix's
//               unrolled butterfly): the head, the record and one blank go.
//               `"C"/* ferry-cuda: (none) */__global__` (an added separator, glued to the tokens
//               on both sides: hip dialect pass, a string literal against a reserved name): the
//               record goes.
//   dropped     `/* ferry-cuda: #include <cuda_runtime_api.h> */` at a line start (an include that
//               became a duplicate): the record becomes the include.
//   call head   `__shfl(/* ferry-cuda: __shfl_sync(tmask, */ v, 0)` (a warp mask HIP cannot take):
//               from the name to the record and one space after it becomes the recorded head.
//   warp size   `32 /* ferry-cuda: warpSize */` (the wave64 fix's logical warps): `warpSize`.
//   warp index  `/ 64 /* ferry-cuda: D */`, `>> 6 /* ferry-cuda: D */` (WMMA one-warp-per-wavefront
//               form): the 64 (or 6) and the record become D.
//   block       `2 * (B) /* ferry-cuda: B */` and the other analysis::wmma_doubled_block_forms:
//               the doubled form and the record become B.
//   spelling    `hipError_t /* ferry-cuda: CUresult */`: a name the rules mapped many-to-one (the
//               way back would write another CUDA name): the name and the record become the
//               recorded name; a call the way there only renamed, where the way back has a call
//               template (CUDA 12's `cudaMemPrefetchAsync(p, n, dev, s)`, whose way back would
//               write CUDA 13's form): `hipMemPrefetchAsync /* ferry-cuda: cudaMemPrefetchAsync */(`.
//               Since 2026-12-05c also: a legacy warp call, `__shfl_down /* ferry-cuda:
//               __shfl_down */(v, o)` (hip warp_intrinsics pass), a functional cast to a vector
//               type, `float2 /* ferry-cuda: float2 */(a)`, the HIP names and includes of CUDA code
//               that holds HIP code, `hipSuccess /* ferry-cuda: hipSuccess */`, `#include
//               <hip/hip_fp16.h> /* ferry-cuda: <hip/hip_fp16.h> */` (hip record_spellings), and
//               a WMMA alias's target, `rocwmma /* ferry-cuda: nvcuda::wmma */` (hip wmma pass).
//               Also `hipGraphicsResource /* ferry-cuda: struct cudaGraphicsResource */`
//               (hip elaborated_type pass: a tag keyword HIP's typedef cannot take): the recorded
//               keyword and name, as written (`is_spelling`).
//   moved       `#include <hip/hip_runtime.h> /* ferry-cuda: (none) */` put before a HIP header
//               that needs it, and `/* ferry-cuda: #include <cuda_runtime.h> */` where the CUDA
//               include was (hip runtime_header pass): added and dropped, restored as above.
//   argument    `hipCtxCreate(&c, /* ferry-cuda: &params, */ 0, dev)` (an argument HIP's call does
//               not take, hip call_args pass; also CUDA 13's null edge-data arguments of the graph
//               calls, `&deps, /* ferry-cuda: NULL, */ &n`): after a `,`, a record whose text ends
//               in `,` becomes its text (the blanks after it were the original's).
//   word        `void /* ferry-cuda: CUDART_CB  */myStreamCallback(...)` (a word HIP does not take,
//               hip dialect pass: CUDART_CB, CUDA_CB, __grid_constant__, register): a record whose
//               text is a name and the blanks that followed it becomes its text.
//   type        `unsigned long long /* ferry-cuda: unsigned */ m` (the wave64 fix widened a lane
//               mask's type, analysis/wave64_fix/masks.cpp): the three words and the record become
//               the recorded words (`is_type_words`).
//   literal     `1ull /* ferry-cuda: 1 */ << lane` (a lane bit the wave64 fix widened): the number
//               and the record become the recorded number (`is_literal`). The 64-bit bit
//               functions are spellings: `__popcll /* ferry-cuda: __popc */(m)`.
//   moved initializer `a[n] /* ferry-cuda:  = {0}; */; __builtin_memset(a, 0, sizeof(a));` (a
//               variable-length array's zero initializer, hip dialect pass): from the `]` to the
//               memset's `;` becomes the recorded text.
//   guard       not a comment record: `#if !defined(FERRY_HAVE_X)  // ... [FRY4107]`, `#define
//               FERRY_HAVE_X` and its `#endif` (hip same_signature pass), and `#if
//               !defined(__HIP_PLATFORM_AMD__) // ... [FRY4103]` with its `#endif` (hip_provided
//               pass) are Ferry's own lines and go.
//   span        `(cta.thread_rank() / 32) /* ferry-cuda: warp.meta_group_rank() */`: an expression
//               rewritten for a HIP release, always parenthesised: the parentheses, what they hold
//               and the record become the recorded expression. A brace span, `{.x = 0xFBFF}
//               /* ferry-cuda: {0xFBFF} */` (hip fp16_raw_init pass: a __half_raw list given its
//               member designators): the braces, what they hold and the record become the
//               recorded list (which starts with `{`). Also the casts the hip target wraps
//               around an argument or operand: `(reinterpret_cast<const void*>(k)) /*
//               ferry-cuda: k */` (call templates), `(const_cast<const char**>(opts)) /* ... */`,
//               `((hipDeviceptr_t)(uintptr_t)(n)) /* ferry-cuda: n */` (deviceptr pass). Since
//               2026-12-05b also: deviceptr sums and returned integers, `((hipDeviceptr_t)((char*)d +
//               n)) /* ferry-cuda: d + n */`; a cudaMemLocation argument HIP takes as a device id,
//               `((loc.type == ... ? loc.id : hipCpuDeviceId)) /* ferry-cuda: loc, 0 */` (call_args);
//               `(static_cast<float>(x)) /* ferry-cuda: wmma::__float_to_tf32(x) */`; a whole call
//               whose template's HIP name comes back as another CUDA name, `(hipMemcpy(d, s, n,
//               hipMemcpyDefault)) /* ferry-cuda: cuMemcpy(d, s, n) */` (hip cuda_record pass); the
//               wave64 fix's constants, `(warpSize / 2) /* ferry-cuda: 16 */`; since 2026-12-05c a
//               deviceptr advanced in place, `(d = (hipDeviceptr_t)((char*)d + (n))) /* ferry-cuda:
//               d += n */`, and `__syncwarp(mask)`'s fence expression, `(__builtin_amdgcn_fence(...),
//               ...) /* ferry-cuda: __syncwarp(mask) */`. Spans nest (a sum in a
//               returned value): the outermost is restored first and the inner ones then do nothing.
//               A call template on the way back whose call holds a record of arguments (a comma at
//               its top level, or the argument form below) only renames the call.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lex/code_view.h"
#include "lex/lexer.h"

namespace ferry::rewrite::record {

inline constexpr std::string_view kOpen = "/* ferry-cuda: ";
inline constexpr std::string_view kClose = " */";
// What an `added` record holds: the CUDA original had nothing there.
inline constexpr std::string_view kNone = "(none)";
// `/* ferry-cuda: (none) */`
inline constexpr std::string_view kAdded = "/* ferry-cuda: (none) */";
// The word every record holds. A text that mentions it may hold records, Ferry's or written by
// hand (a hand-written one may not start its comment, or may lack the blank after the colon).
inline constexpr std::string_view kMark = "ferry-cuda:";

// Whether `text` (a comment, or a whole file) mentions a record (`kMark` anywhere in it).
[[nodiscard]] bool mentions(std::string_view text);

// Whether a comment mentioning a record follows raw token `ti` on its line, only trivia between
// (a place recorded before: a tree migrated twice, or a record written by hand). Recording
// there again would stack a second record.
[[nodiscard]] bool mentioned_after(const lex::TokenList& toks, std::string_view src, std::size_t ti);

// Whether `original` can be recorded: a block comment cannot hold `*/`.
[[nodiscard]] bool recordable(std::string_view original);

// `/* ferry-cuda: ORIGINAL */` (callers check `recordable` first).
[[nodiscard]] std::string make(std::string_view original);

// The recorded text of a comment, or nullopt when the comment is not a record.
[[nodiscard]] std::optional<std::string_view> parse(std::string_view comment);

// Whether a comment is a record (starts like one; `parse` also wants the close).
[[nodiscard]] bool is_record(std::string_view comment);

// The span form, `(REWRITTEN) /* ferry-cuda: ORIGINAL */`, or REWRITTEN alone when ORIGINAL cannot
// be recorded. The parentheses must not follow a name, `)`, `]`, `>` or `*` in the output (the
// way back would read a call, cast or product): callers wrap an expression or a call argument.
[[nodiscard]] std::string span(std::string_view rewritten, std::string_view original);

// Whether a span's parentheses may open at code token `ci` of `v`: not after a name (a keyword
// that starts an expression aside: return, case, throw, else), `)`, `]`, `>`, `*`, `.` or `->`,
// where the way back would read a call, cast, operand or member (a directive line's last token
// is none of these to the code after it).
[[nodiscard]] bool span_can_open(const lex::CodeView& v, std::size_t ci);

// Whether `recorded` stands for call arguments (a comma outside its brackets: `&params,`, `loc, 0`).
[[nodiscard]] bool holds_arguments(std::string_view recorded);

// The word form: `/* ferry-cuda: WORD  */` for a word and the blanks after it (`CUDART_CB `) that
// the HIP output drops; "" when it cannot be recorded (no trailing blank, or not a name).
[[nodiscard]] std::string dropped_word(std::string_view word_and_blanks);
// Whether `recorded` is a word record's text.
[[nodiscard]] bool is_word(std::string_view recorded);

// Whether `recorded` is a type record's text (`unsigned long long /* ferry-cuda: unsigned int */`):
// names separated by single blanks, as the CUDA wrote an integer type.
[[nodiscard]] bool is_type_words(std::string_view recorded);
// Whether `recorded` is a literal record's text (`1ull /* ferry-cuda: 1 */`): a number.
[[nodiscard]] bool is_literal(std::string_view recorded);

// Whether `recorded` is a spelling record's text: an identifier (or a qualified name,
// `wmma::precision::tf32`), or `struct`, `union` or `enum`, blanks, and an identifier (the tag
// keyword and name as the CUDA wrote them).
[[nodiscard]] bool is_spelling(std::string_view recorded);

// The raw index of the block comment that follows raw token `ti` with only spaces between (on
// its line), or lex::npos-like SIZE_MAX when the next token is something else.
[[nodiscard]] std::size_t comment_after(const lex::TokenList& toks, std::size_t ti);

// The record that follows raw token `ti` (as `comment_after`): its raw index and text.
struct Found {
  std::size_t token;
  std::string_view text;
};
[[nodiscard]] std::optional<Found> after(const lex::TokenList& toks, std::string_view src, std::size_t ti);

// The header a header or dropped record names (`<cuda.h>`, `#include "x.h"`): its path without
// the brackets, or nullopt for the other forms.
[[nodiscard]] std::optional<std::string_view> header_path(std::string_view recorded);

// The headers all records of a file name, in order (they count as included on the way back).
[[nodiscard]] std::vector<std::string> recorded_headers(const lex::TokenList& toks, std::string_view src);

// Whether a file holds a header record naming `<header>` (e.g. "cuda.h").
[[nodiscard]] bool records_header(const lex::TokenList& toks, std::string_view src, std::string_view header);

// The other way, since 2026-12-05e: what HIP -> CUDA writes where CUDA -> HIP would not derive
// the HIP text back, `/* ferry-hip: ORIGINAL */` (the cuda target writes it, the hip target's
// hip_record_restore pass reads it first, so that HIP -> CUDA -> HIP gives the HIP text). Forms:
//   spelling  `cudaLimitStackSize /* ferry-hip: cudaLimitStackSize */` (a CUDA name in HIP code that
//             holds CUDA code for NVIDIA, cuda record_cuda_code), `cuda::std::plus /* ferry-hip:
//             rocprim::plus */` (cuda rocprim pass): the name as written (qualified by `::` as far
//             as it goes) and the record become the recorded name.
//   added     `#include <cuda/std/functional> /* ferry-hip: (none) */` (cuda rocprim pass): the line goes.
namespace to_hip {
inline constexpr std::string_view kOpen = "/* ferry-hip: ";
inline constexpr std::string_view kMark = "ferry-hip:";
inline constexpr std::string_view kAdded = "/* ferry-hip: (none) */";
[[nodiscard]] std::string make(std::string_view original);
[[nodiscard]] std::optional<std::string_view> parse(std::string_view comment);
// The ferry-hip record that follows raw token `ti` (as record::after).
[[nodiscard]] std::optional<Found> after(const lex::TokenList& toks, std::string_view src, std::size_t ti);
}  // namespace to_hip

}  // namespace ferry::rewrite::record
