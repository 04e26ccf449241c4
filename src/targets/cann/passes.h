// Semantic passes of the CUDA → CANN target and the token helpers they share. Each pass is one
// function over a FileMigration; diagnostics use FRY16xx (not translated) and FRY46xx (changed,
// review), documented in docs/diagnostics.md under "Ascend (cann, torch_npu targets)".
// Order (CannTarget::run_passes): kernels, gemm, hccl, runtime, entry; edits of an earlier pass win
// over later ones and over the rule tables (rules/cuda2cann/).
#pragma once

#include <optional>
#include <string>
#include <string_view>

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

}  // namespace ferry::targets::cann
