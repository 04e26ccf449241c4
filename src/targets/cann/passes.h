// Semantic passes of the CUDA → CANN target and the token helpers they share. Each pass is one
// function over a FileMigration; diagnostics use FRY16xx (not translated) and FRY46xx (changed,
// review), documented in docs/diagnostics.md under "Ascend (cann, torch_npu targets)".
// Order (CannTarget::run_passes): kernels, gemm, hccl, runtime, entry; edits of an earlier pass win
// over later ones and over the rule tables (rules/cuda2cann/).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "migrate/file_migration.h"

namespace ferry::targets::cann {

// __global__ kernels: FRY1601 per kernel with its parameters, one Ascend C skeleton file per
// source (<stem>_ascendc_skeleton.cpp, a side output), and launches rewritten to
// `k<<<blockDim, nullptr, stream>>>(args)` (FRY4607; FRY1602 when the grid is a dim3).
void kernel_pass(migrate::FileMigration& file);

// cublasSgemm/cublasHgemm → aclCreateTensor + aclnnMatmulGetWorkspaceSize + aclnnMatmul when the
// call is a plain statement with no transposes, alpha 1, beta 0 and packed leading dimensions
// (FRY4606); else FRY1606 with the recipe.
void gemm_pass(migrate::FileMigration& file);

// ncclBroadcast(buf, buf, ...) → in-place HcclBroadcast; different buffers: FRY1604.
void hccl_pass(migrate::FileMigration& file);

// Argument-level runtime rewrites: aclrtMalloc's policy, the capacity argument of
// aclrtMemcpy/aclrtMemset (FRY4601), explicit streams (FRY4602), aclrtGetDeviceCount's uint32_t
// (FRY4604), aclrtResetDevice's id (FRY1605); and the reverse check of ACL calls already in the
// input whose capacity is not provably >= the count (FRY4605).
void runtime_pass(migrate::FileMigration& file);

// aclInit(nullptr)/aclFinalize() at main's entry and exits (FRY4603); no main: FRY1603.
void entry_pass(migrate::FileMigration& file);

// ----- helpers -----
// The text of code tokens [first, last] with all whitespace removed, for comparing expressions.
[[nodiscard]] std::string squeezed(const migrate::FileMigration& f, std::size_t first, std::size_t last);
// 0, NULL, nullptr: the CUDA default (legacy) stream.
[[nodiscard]] bool is_default_stream(std::string_view squeezed_text);
// The stream variable (cudaStream_t / aclrtStream) in scope at `ci`: the enclosing function's last
// parameter or local declared before `ci`, else the last file-scope one; empty when none.
[[nodiscard]] std::string visible_stream(const migrate::FileMigration& f, std::size_t ci);
// The value of an integer constant expression without names (lex::eval_const: literals, sizeof,
// arithmetic, casts); nullopt when it names anything else.
[[nodiscard]] std::optional<long long> constant_value(std::string_view expr);
// True when capacity >= count is certain: the same expression, or both constant and ordered.
[[nodiscard]] bool provably_at_least(std::string_view capacity, std::string_view count);
// Leading whitespace of the line `ci` is on.
[[nodiscard]] std::string line_indent(const migrate::FileMigration& f, std::size_t ci);
// Code index of the `{` opening the top-level block (function body) that contains `ci`; npos at
// file scope.
[[nodiscard]] std::size_t enclosing_body(const migrate::FileMigration& f, std::size_t ci);

// ----- argument adaptation (call_adapt.cpp) -----
// What a search back from a use finds about a variable's declaration.
struct DeclInfo {
  bool found = false;    // a declaration of the name was recognized
  bool builtin = false;  // its type is spelled with builtin words only (int, uint32_t, size_t...)
  std::string type;      // the type words, `const` and storage classes left out: "unsigned int"
  int pointer_level = 0;
  bool is_const = false;       // the variable itself is const
  bool pointee_const = false;  // `const T *p`
  bool is_array = false;
};
// The nearest declaration of `name` before code index `before`; not found when the nearest
// declaration-looking occurrence cannot be read (then callers take the always-correct path).
[[nodiscard]] DeclInfo declaration_of(const migrate::FileMigration& f, std::string_view name, std::size_t before);
// "uint32_t" → "unsigned int", "size_t" → "unsigned long" (glibc LP64, the CANN hosts).
[[nodiscard]] std::string canonical_type(std::string_view type);

// How a user's pointer argument fits an AscendCL `T *` out-parameter.
enum class ArgFit {
  Same,        // the pointee is T: pass it unchanged
  SameLayout,  // same size and signedness (long long vs int64_t): reinterpret_cast<T *>
  Other,       // another or unknown type: a T temporary, copied back on success
  Null,        // 0, NULL, nullptr (CUDA's "not wanted"): a T temporary that is dropped
};
[[nodiscard]] ArgFit fit_out_arg(const migrate::FileMigration& f, const migrate::ArgRange& a,
                                 std::string_view acl_pointee);

// One parameter of the AscendCL/HCCL call, in the target's order: the user's argument `src`
// (an out-parameter with pointee type `pointee` when `out`) or a literal.
struct CallParam {
  int src = -1;         // index into the user's arguments; -1: `literal`
  std::string literal;  // e.g. ACL_HBM_MEM
  bool out = false;
  std::string pointee;  // out-parameters: uint32_t, int32_t, int64_t, size_t, float
  std::string name;     // the parameter's name in the header, for the lambda's names
};
struct CallSpec {
  std::string acl_name;
  std::string result_type;  // aclError / HcclResult
  std::string success;      // ACL_SUCCESS / HCCL_SUCCESS
  std::vector<CallParam> params;
};
// Rewrites the call at `ci` (name; `(` at ci + 1, `)` at `close`) into `spec`: glue edits when
// every argument keeps its place and fits, else the copy-back lambda (FRY4604 says why). False
// (nothing edited) when the arguments do not match the spec.
bool adapt_call(migrate::FileMigration& f, std::size_t ci, std::size_t close,
                const std::vector<migrate::ArgRange>& args, const CallSpec& spec);
// For a `void *` parameter fed from NCCL's `const void *`: wraps the argument in
// const_cast<void *>(static_cast<const void *>(...)) unless it is visibly a non-const pointer or
// array. True when it wrapped.
bool mutable_void_arg(migrate::FileMigration& f, const migrate::ArgRange& a);

}  // namespace ferry::targets::cann
