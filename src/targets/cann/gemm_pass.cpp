// cuBLAS GEMM → aclnn's two-phase form (aclnnMatmulGetWorkspaceSize, then aclnnMatmul), for the
// calls we can prove simple: a plain statement, no transposes, alpha 1, beta 0, and packed
// column-major operands (lda == m, ldb == k, ldc == m). cuBLAS is column-major and aclnn row-major:
// the column-major C(m×n) = A(m×k)·B(k×n) is the row-major Cᵀ(n×m) = Bᵀ(n×k)·Aᵀ(k×m), so the
// operands swap and every matrix keeps its memory as is. Anything else gets FRY1606 and the recipe.
#include <string>
#include <vector>

#include "targets/cann/passes.h"

namespace ferry::targets::cann {
namespace {

using migrate::ArgRange;
using migrate::FileMigration;
using migrate::npos;

const char* kRecipe =
    "describe A, B and C with aclCreateTensor(shape, 2, dtype, strides, 0, ACL_FORMAT_ND, shape, 2, devPtr) "
    "(row-major: a column-major m×k matrix is a row-major k×m one), call aclnnMatmulGetWorkspaceSize(self, "
    "mat2, out, cubeMathType, &wsSize, &executor), allocate wsSize bytes with aclrtMalloc, call "
    "aclnnMatmul(ws, wsSize, executor, stream), then aclDestroyTensor each descriptor; alpha/beta other than "
    "1/0 need aclnnAddmm, transposes are swapped strides, batches aclnnBatchMatMul";

// The value `&name` points at, when `name` is assigned a literal before `before`.
std::optional<long long> scalar_value(const FileMigration& f, const ArgRange& a, std::size_t before, bool& exact) {
  exact = false;
  if (a.last != a.first + 1 || !f.is(a.first, "&") || !f.is_identifier(a.last)) return std::nullopt;
  const std::string_view name = f.text(a.last);
  for (std::size_t i = before; i-- > 0;) {
    if (f.text(i) != name || !f.is(i + 1, "=") || i + 3 >= f.code_size()) continue;
    if (!f.is(i + 3, ";") && !f.is(i + 3, ",")) return std::nullopt;
    std::string lit(f.text(i + 2));
    while (!lit.empty() && (lit.back() == 'f' || lit.back() == 'F')) lit.pop_back();
    try {
      std::size_t used = 0;
      const double v = std::stod(lit, &used);
      if (used != lit.size()) return std::nullopt;
      exact = v == 0.0 || v == 1.0;
      return static_cast<long long>(v);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string stream_of_handle(const FileMigration& f, std::string_view handle, std::size_t before) {
  std::string s;
  for (std::size_t i = 0; i < before; ++i)
    if ((f.is(i, "cublasSetStream") || f.is(i, "cublasSetStream_v2")) && f.is(i + 1, "(")) {
      const auto a = f.call_args(i + 1);
      if (a.size() == 2 && squeezed(f, a[0].first, a[0].last) == handle)
        s = std::string(f.span_text(a[1].first, a[1].last));
    }
  return s;
}

}  // namespace

void gemm_pass(FileMigration& f) {
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is_identifier(ci) || f.excluded(ci) || f.touched(ci) || f.is_member_or_qualified(ci)) continue;
    const std::string_view name = f.text(ci);
    const bool sgemm = name == "cublasSgemm" || name == "cublasSgemm_v2";
    if (!sgemm && name != "cublasHgemm") continue;
    if (!f.is(ci + 1, "(")) continue;
    const std::size_t close = f.match_bracket(ci + 1);
    const auto args = f.call_args(ci + 1);
    std::string why;
    if (close == npos || args.size() != 14) why = "the call does not have cuBLAS's 14 arguments";
    const auto txt = [&](std::size_t i) { return squeezed(f, args[i].first, args[i].last); };
    const bool statement = ci > 0 && (f.is(ci - 1, ";") || f.is(ci - 1, "{") || f.is(ci - 1, "}")) && close != npos &&
                           f.is(close + 1, ";");
    if (why.empty() && !statement) why = "the call is not a plain statement (its status is used)";
    if (why.empty() && (txt(1) != "CUBLAS_OP_N" || txt(2) != "CUBLAS_OP_N")) why = "an operand is transposed";
    bool alpha_exact = false, beta_exact = false;
    if (why.empty()) {
      const auto alpha = scalar_value(f, args[6], ci, alpha_exact);
      const auto beta = scalar_value(f, args[11], ci, beta_exact);
      if (!alpha || !beta || !alpha_exact || !beta_exact || *alpha != 1 || *beta != 0)
        why = "alpha and beta are not visibly 1 and 0";
    }
    if (why.empty() && (txt(8) != txt(3) || txt(10) != txt(5) || txt(13) != txt(3)))
      why = "the leading dimensions are not the packed ones (lda == m, ldb == k, ldc == m)";
    std::string stream;
    if (why.empty()) {
      stream = stream_of_handle(f, txt(0), ci);
      if (stream.empty()) stream = visible_stream(f, ci);
      if (stream.empty()) why = "no stream is visible (neither cublasSetStream on this handle nor an aclrtStream)";
    }
    if (!why.empty()) {
      f.replace(ci, ci, std::string(name));  // claimed: the table's generic note would repeat this one
      f.count_unconverted("cublas");
      f.diag(Diag::CannGemmNotRewritten, ci, std::string(name) + " was not rewritten to aclnnMatmul: " + why,
             std::string("by hand: ") + kRecipe);
      continue;
    }
    const std::string m(f.span_text(args[3].first, args[3].last)), n(f.span_text(args[4].first, args[4].last)),
        k(f.span_text(args[5].first, args[5].last));
    const std::string a(f.span_text(args[7].first, args[7].last)), b(f.span_text(args[9].first, args[9].last)),
        c(f.span_text(args[12].first, args[12].last));
    const std::string dtype = sgemm ? "ACL_FLOAT" : "ACL_FLOAT16";
    const std::string in = line_indent(f, ci);
    const std::string in2 = in + "  ";
    std::string out;
    out += "{  // ferry: " + std::string(name) + " -> aclnnMatmul; column-major C = A*B is row-major C^T = B^T * A^T\n";
    out += in2 + "int64_t ferry_self_shape[2] = {" + n + ", " + k + "}, ferry_self_strides[2] = {" + k + ", 1};\n";
    out += in2 + "int64_t ferry_mat2_shape[2] = {" + k + ", " + m + "}, ferry_mat2_strides[2] = {" + m + ", 1};\n";
    out += in2 + "int64_t ferry_out_shape[2] = {" + n + ", " + m + "}, ferry_out_strides[2] = {" + m + ", 1};\n";
    out += in2 + "aclTensor *ferry_self = aclCreateTensor(ferry_self_shape, 2, " + dtype +
           ", ferry_self_strides, 0, ACL_FORMAT_ND, ferry_self_shape, 2, (void *)(" + b + "));\n";
    out += in2 + "aclTensor *ferry_mat2 = aclCreateTensor(ferry_mat2_shape, 2, " + dtype +
           ", ferry_mat2_strides, 0, ACL_FORMAT_ND, ferry_mat2_shape, 2, (void *)(" + a + "));\n";
    out += in2 + "aclTensor *ferry_out = aclCreateTensor(ferry_out_shape, 2, " + dtype +
           ", ferry_out_strides, 0, ACL_FORMAT_ND, ferry_out_shape, 2, (void *)(" + c + "));\n";
    out += in2 + "uint64_t ferry_ws_size = 0;\n";
    out += in2 + "aclOpExecutor *ferry_executor = nullptr;\n";
    out +=
        in2 + "aclnnMatmulGetWorkspaceSize(ferry_self, ferry_mat2, ferry_out, 1, &ferry_ws_size, &ferry_executor);\n";
    out += in2 + "void *ferry_ws = nullptr;\n";
    out += in2 + "if (ferry_ws_size > 0) aclrtMalloc(&ferry_ws, ferry_ws_size, ACL_MEM_MALLOC_HUGE_FIRST);\n";
    out += in2 + "aclnnMatmul(ferry_ws, ferry_ws_size, ferry_executor, " + stream + ");\n";
    out += in2 + "aclrtSynchronizeStream(" + stream + ");\n";
    out += in2 + "if (ferry_ws != nullptr) aclrtFree(ferry_ws);\n";
    out += in2 + "aclDestroyTensor(ferry_self);\n";
    out += in2 + "aclDestroyTensor(ferry_mat2);\n";
    out += in2 + "aclDestroyTensor(ferry_out);\n";
    out += in + "}";
    if (!f.replace(ci, close + 1, std::move(out))) continue;
    f.count_converted("cublas");
    f.diag(Diag::CannGemmToMatmul, ci,
           std::string(name) +
               " was rewritten to aclnnMatmulGetWorkspaceSize + aclnnMatmul (operands swapped for "
               "row-major; cubeMathType 1 = ALLOW_FP32_DOWN_PRECISION)",
           "the call now synchronizes the stream before freeing its workspace; keep a workspace across calls "
           "to avoid that. cubeMathType 1 lets FP32 run in reduced precision (HF32/FP16) on the cube unit: "
           "use 0 (KEEP_DTYPE) where the hardware supports it and you need full FP32");
  }
}

}  // namespace ferry::targets::cann
