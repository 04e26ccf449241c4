// cuBLAS enumerators in the arguments of cuSOLVER calls.
//
// cuSOLVER's dense and sparse routines take cuBLAS's enum types (`cusolverDnSpotrf(h,
// CUBLAS_FILL_MODE_LOWER, ...)`); hipSOLVER's take its own: hipsolverFillMode_t,
// hipsolverOperation_t, hipsolverSideMode_t. Before ROCm 6.0 those are enums of their own, and a
// HIPBLAS_* value (what the rule tables make of CUBLAS_*) does not convert to them in C++; since
// ROCm 6.0 they are aliases of hipBLAS's types, with HIPSOLVER_* macros. So inside the argument
// list of a cusolverDn*/cusolverSp* call the cuBLAS names become the HIPSOLVER_* ones, which
// compile with every hipSOLVER; elsewhere the tables keep making them HIPBLAS_*. The argument lists
// of calls nested inside are left alone: their parameters are not cuSOLVER's.
//
// A variable keeps the type of its declaration (hipblasFillMode_t, or rocblas_fill under
// --blas=rocblas). When a name declared in this file with one of the cuBLAS enum types is passed
// whole to such a call (or a function declared to return one is called as the whole argument),
// and hipSOLVER's type is not that one (hipSOLVER before ROCm 6.0, or rocBLAS's enums for any
// release), the argument gets a cast to hipSOLVER's type with a round-trip record of the argument,
// `(static_cast<hipsolverFillMode_t>(uplo)) /* ferry-cuda: uplo */` (FRY1312): the enumerators have
// the same values in cuBLAS, hipBLAS, rocBLAS and hipSOLVER (121/122, 111-113, 141/142). From
// ROCm 6.0 hipSOLVER's types are aliases of hipBLAS's and the argument is left as it is. Where the
// cast cannot be written (an argument the record cannot hold), FRY4102 says what to write.
#include <array>
#include <map>
#include <string>
#include <string_view>

#include "analysis/names.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

struct SolverName {
  std::string_view cublas;
  std::string_view hipsolver;
};

// Every name hipSOLVER's C headers define for these types (HIPSOLVER_FILL_MODE_FULL and
// HIPSOLVER_SIDE_BOTH do not exist there, so CUBLAS_FILL_MODE_FULL is left to the tables).
constexpr std::array<SolverName, 11> kSolverNames = {{
    {"CUBLAS_FILL_MODE_LOWER", "HIPSOLVER_FILL_MODE_LOWER"},
    {"CUBLAS_FILL_MODE_UPPER", "HIPSOLVER_FILL_MODE_UPPER"},
    {"CUBLAS_OP_N", "HIPSOLVER_OP_N"},
    {"CUBLAS_OP_T", "HIPSOLVER_OP_T"},
    {"CUBLAS_OP_C", "HIPSOLVER_OP_C"},
    {"CUBLAS_OP_HERMITAN", "HIPSOLVER_OP_C"},
    {"CUBLAS_SIDE_LEFT", "HIPSOLVER_SIDE_LEFT"},
    {"CUBLAS_SIDE_RIGHT", "HIPSOLVER_SIDE_RIGHT"},
    {"cublasFillMode_t", "hipsolverFillMode_t"},  // in casts: static_cast<cublasFillMode_t>(x)
    {"cublasOperation_t", "hipsolverOperation_t"},
    {"cublasSideMode_t", "hipsolverSideMode_t"},
}};

const SolverName* solver_name(std::string_view cublas) {
  for (const SolverName& n : kSolverNames)
    if (n.cublas == cublas) return &n;
  return nullptr;
}

bool is_enum_type(std::string_view t) {
  return t == "cublasFillMode_t" || t == "cublasOperation_t" || t == "cublasSideMode_t";
}

bool is_solver_call(const migrate::FileMigration& file, std::size_t ci) {
  if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || file.is_member_or_qualified(ci)) return false;
  const std::string_view t = file.text(ci);
  return t.starts_with("cusolverDn") || t.starts_with("cusolverSp");
}

struct Declared {
  std::string_view type;
  std::size_t at;  // code index of the name
  bool function;   // `cublasFillMode_t pick(bool lower) {...}`: its calls are checked
};

// Names declared with a cuBLAS enum type: `cublasFillMode_t uplo = ...;`, a parameter
// `(cublasFillMode_t uplo, ...)`, `const cublasOperation_t& t`, a function returning one. The first
// declaration wins.
std::map<std::string_view, Declared> enum_typed_names(const migrate::FileMigration& file) {
  std::map<std::string_view, Declared> out;
  for (const std::size_t ci : file.occurrences({"cublasFillMode_t", "cublasOperation_t", "cublasSideMode_t"})) {
    if (!is_enum_type(file.text(ci)) || file.is_member_or_qualified(ci)) continue;
    std::size_t n = ci + 1;
    while (file.is(n, "const") || file.is(n, "&") || file.is(n, "&&")) ++n;
    if (!file.is_identifier(n)) continue;
    const bool function = file.is(n + 1, "(");
    const bool declarator_end = function || file.is(n + 1, "=") || file.is(n + 1, ";") || file.is(n + 1, ",") ||
                                file.is(n + 1, ")") || file.is(n + 1, "{");
    if (declarator_end) out.emplace(file.text(n), Declared{file.text(ci), n, function});
  }
  return out;
}

}  // namespace

void solver_args_pass(migrate::FileMigration& file, bool old_hipsolver) {
  std::map<std::string_view, Declared> typed;
  bool typed_known = false;
  for (const std::size_t ci : analysis::detail::identifiers_where(file, [](std::string_view name) {
         return name.starts_with("cusolverDn") || name.starts_with("cusolverSp");
       })) {
    if (!is_solver_call(file, ci) || file.excluded(ci)) continue;
    const std::size_t open = ci + 1;
    const std::size_t close = file.match_bracket(open);
    if (close == migrate::npos) continue;
    for (std::size_t k = open + 1; k < close; ++k) {
      if (file.is(k, "(") && (file.is_identifier(k - 1) || file.is(k - 1, ">"))) {
        // A nested call (or function-style cast): its arguments are not the solver's.
        const std::size_t end = file.match_bracket(k);
        if (end == migrate::npos || end > close) break;
        k = end;
        continue;
      }
      if (!file.is_identifier(k) || file.excluded(k) || file.touched(k) || file.is_member_or_qualified(k)) continue;
      if (const SolverName* n = solver_name(file.text(k))) {
        if (file.replace(k, k, std::string(n->hipsolver))) file.count_converted("cublas");
      }
    }

    const std::string_view callee = file.text(ci);
    for (const migrate::ArgRange& a : file.call_args(open)) {
      // A whole argument that is a name, or a call `name(...)`.
      if (a.empty() || !file.is_identifier(a.first) || file.excluded(a.first)) continue;
      const bool call = a.first != a.last;
      if (call && !(file.is(a.first + 1, "(") && file.match_bracket(a.first + 1) == a.last)) continue;
      if (!typed_known) {
        typed = enum_typed_names(file);
        typed_known = true;
      }
      const auto it = typed.find(file.text(a.first));
      if (it == typed.end() || it->second.at >= a.first || it->second.function != call) continue;
      const std::string_view type = it->second.type;
      const rules::Rule* r = file.target().rules().find_identifier(type);
      const std::string migrated(r && r->has_replacement() ? r->to : type);
      const bool rocblas = migrated.starts_with("rocblas");
      if (!old_hipsolver && !rocblas) continue;  // hipSOLVER's type is hipBLAS's (ROCm 6.0 on)
      const std::string hipsolver(solver_name(type)->hipsolver);
      const std::string var = std::string(file.text(a.first)) + (call ? "(...)" : "");
      const std::string_view original = file.span_text(a.first, a.last);
      if (rewrite::record::recordable(original) && !file.excluded(a.last) &&
          file.insert_before(a.first, "(static_cast<" + hipsolver + ">(")) {
        file.replace_bytes(file.code(a.last).end, file.code(a.last).end, ")) " + rewrite::record::make(original));
        file.count_converted("cusolver");
        file.diag(Diag::SolverBlasEnumCast, a.first,
                  "'" + var + (call ? "' returns a " : "' is a ") + std::string(type) + " (" + migrated +
                      " after migration) passed to " + std::string(callee) + ", whose hipSOLVER form takes a " +
                      hipsolver + ": cast to it (the enumerators have the same values)",
                  "declare it as " + hipsolver + " if it only feeds hipSOLVER, and drop the cast");
        continue;
      }
      file.diag(Diag::SolverBlasEnumVariable, a.first,
                "'" + var + (call ? "' returns a " : "' is a ") + std::string(type) + " (" + migrated +
                    " after migration) passed to " + std::string(callee) + ", whose hipSOLVER form takes a " +
                    hipsolver + ": a different type" + (rocblas ? "" : " before ROCm 6.0"),
                "pass static_cast<" + hipsolver + ">(" + var + ") (the enumerators have the same values), or " +
                    (call ? "make it return " : "declare it as ") + hipsolver + " if it only feeds hipSOLVER");
    }
  }
}

}  // namespace ferry::targets::hip
