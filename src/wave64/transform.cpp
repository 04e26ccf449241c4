#include "wave64/transform.h"

#include <algorithm>
#include <memory>
#include <regex>
#include <set>
#include <string>

#include "analysis/tokens.h"
#include "migrate/file_migration.h"
#include "targets/hip/passes.h"
#include "targets/target.h"
#include "wave64/regions.h"

namespace ferry::wave64 {
namespace {

using migrate::FileMigration;
using migrate::npos;

// Code index of the `{` that encloses `ci` most closely, or npos at file scope.
std::size_t enclosing_brace(const FileMigration& f, std::size_t ci) {
  int depth = 0;
  for (std::size_t i = ci; i-- > 0;) {
    if (f.code(i).in_directive) continue;
    if (f.is(i, "}")) ++depth;
    else if (f.is(i, "{")) {
      if (depth == 0) return i;
      --depth;
    }
  }
  return npos;
}

// Where the declaration or statement that contains `ci` starts (after `;`, `{`, `}` or a
// directive line).
std::size_t statement_start(const FileMigration& f, std::size_t ci) {
  std::size_t i = ci;
  while (i > 0) {
    const std::size_t p = i - 1;
    if (f.code(p).in_directive || f.is(p, ";") || f.is(p, "{") || f.is(p, "}")) break;
    i = p;
  }
  return i;
}

// The braces at `open` open a namespace, a linkage block or a class: not a function body.
// `class`/`typename` in a template's parameter list (`template <class T> __global__ void k()`)
// declare parameters, not a class: the list is skipped.
bool opens_scope_not_function(const FileMigration& f, std::size_t open) {
  const std::size_t start = statement_start(f, open);
  for (std::size_t i = start; i < open; ++i) {
    if (f.is(i, "template") && f.is(i + 1, "<")) {
      const std::size_t close = analysis::angle_close(f, i + 1, open - 1);
      if (close == npos) return false;  // the head does not close before the brace
      i = close;
      continue;
    }
    if (f.is(i, "namespace") || f.is(i, "struct") || f.is(i, "class") || f.is(i, "union") || f.is(i, "enum"))
      return true;
    // `extern "C" {` opens a linkage block; `extern "C" __global__ void k(...) {` is a function.
    if (f.is(i, "extern") && i + 1 < open && f.code(i + 1).kind == lex::Kind::String) return i + 2 == open;
    if (f.is(i, "(")) return false;
  }
  return false;
}

// The `{` of the function body containing `ci`, or npos when `ci` is not inside a function.
std::size_t function_body(const FileMigration& f, std::size_t ci) {
  std::size_t open = enclosing_brace(f, ci);
  std::size_t body = npos;
  while (open != npos) {
    if (opens_scope_not_function(f, open)) return body;
    body = open;
    open = enclosing_brace(f, open);
  }
  return body;
}

bool is_device_function(const FileMigration& f, std::size_t body_open) {
  // The head of the definition: back from the body to the end of the previous declaration,
  // skipping over parenthesized parameter lists (which may hold `;`-free text only).
  const std::size_t start = statement_start(f, body_open);
  for (std::size_t i = start; i < body_open; ++i)
    if (f.is(i, "__device__") || f.is(i, "__global__")) return true;
  return false;
}

// `asm("mov.u32 %0, %%laneid;" : "=r"(x));` and the other reads of a PTX special register
// (%laneid, %lanemask_*, %warpid, %nwarpid, %smid, %nsmid, %clock, %clock64, %globaltimer) are
// the inline assembly CUDA code uses most; each has a C++ meaning on the runtime
// (::w64::ptx_sreg_*, device.h), so the statement becomes `(x) = ::w64::ptx_sreg_laneid()`.
// Returns whether it rewrote the statement at `ci`; anything else stays for FRY5601.
bool rewrite_special_register_read(FileMigration& f, std::size_t ci, std::size_t open) {
  const std::size_t close = f.match_bracket(open);
  if (close == npos) return false;
  const std::string_view src = f.source();
  const std::string_view inside = src.substr(f.code(open).end, f.code(close).begin - f.code(open).end);
  static const std::regex kRead(
      R"re(^\s*"\s*mov\.(u32|u64|s32|b32|b64)\s+%0\s*,\s*%%(laneid|lanemask_lt|lanemask_le|lanemask_eq|lanemask_ge|lanemask_gt|warpid|nwarpid|smid|nsmid|clock|clock64|globaltimer)\s*;?\s*"\s*:\s*"=[rl]"\s*\(([^;]+)\)\s*$)re");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(inside.begin(), inside.end(), m, kRead)) return false;
  return f.replace(ci, close, "(" + m[3].str() + ") = ::w64::ptx_sreg_" + m[2].str() + "()");
}

// `clock()` in device code is the SM's cycle counter (programs spin on it: cuda-samples'
// simpleHyperQ waits clockRate * ms cycles); on the host it is libc's CPU time in microseconds,
// which would make such a wait last a thousand times longer. Device code gets the cycle counter.
void rewrite_device_clock(FileMigration& f) {
  for (std::size_t ci = 0; ci + 2 < f.code_size(); ++ci) {
    if (!f.is(ci, "clock") || !f.is(ci + 1, "(") || !f.is(ci + 2, ")") || f.excluded(ci) || f.touched(ci)) continue;
    if (ci > 0 && (f.is(ci - 1, "::") || f.is(ci - 1, ".") || f.is(ci - 1, "->"))) continue;
    const std::size_t body = function_body(f, ci);
    if (body == npos || !is_device_function(f, body)) continue;
    f.replace(ci, ci + 2, "::w64::device_clock()");
  }
}

// `hipLaunchKernelGGL(kernel<A, B>, grid, ...)`: the preprocessor splits the template's
// arguments into macro arguments (rocm-examples launch `kernel<BlockSize, WarpSize>` so). The
// kernel expression is parenthesised, which the runtime's macro takes as one argument.
void protect_template_kernel_names(FileMigration& f) {
  for (std::size_t ci = 0; ci + 1 < f.code_size(); ++ci) {
    if (!f.is(ci, "hipLaunchKernelGGL") || !f.is(ci + 1, "(") || f.code(ci).in_directive || f.excluded(ci)) continue;
    std::size_t i = ci + 2;
    const std::size_t first = i;
    while (f.is_identifier(i) && f.is(i + 1, "::")) i += 2;
    if (!f.is_identifier(i) || !f.is(i + 1, "<")) continue;
    // The matching `>` of the template's argument list, and a comma in it (outside brackets).
    const std::size_t j = analysis::angle_close(f, i + 1);
    if (j == npos || analysis::split_top_level(f, i + 2, j - 1, false).size() < 2 || !f.is(j + 1, ",") ||
        f.touched(first) || f.touched(j))
      continue;
    f.insert_before(first, "(");
    f.insert_before(j + 1, ")");
  }
}

// `k<<<g, b>>>(p, {w, h})`: a braced list for a kernel's parameter (rocm-examples' convolution
// passes its uint2 size so). The launch forwards its arguments through a template, which cannot
// deduce a braced list: the list is given the parameter's type,
// `::w64::api::kernel_arg_t<I, decltype(&k)>{w, h}` (wave64/api.h). Runs before the launch pass,
// on the launch as written; a kernel whose template arguments are deduced has no such type.
void type_braced_kernel_arguments(FileMigration& f) {
  for (std::size_t ci = 1; ci < f.code_size(); ++ci) {
    if (f.code(ci).kind != lex::Kind::LaunchOpen || f.excluded(ci)) continue;
    std::size_t k = ci - 1;  // the kernel expression: [ns::]name[<...>]
    if (f.is(k, ">")) {
      k = analysis::angle_open(f, k);
      if (k == npos || k == 0) continue;
      --k;
    }
    if (!f.is_identifier(k)) continue;
    while (k >= 2 && f.is(k - 1, "::") && f.is_identifier(k - 2)) k -= 2;
    std::size_t close = ci + 1;
    while (close < f.code_size() && f.code(close).kind != lex::Kind::LaunchClose) ++close;
    if (close + 1 >= f.code_size() || !f.is(close + 1, "(")) continue;
    const std::size_t rp = f.partner(close + 1);
    if (rp == npos) continue;
    const std::string kernel(f.span_text(k, ci - 1));
    const std::vector<lex::ArgRange> args = analysis::split_top_level(f, close + 2, rp - 1, false);
    for (std::size_t a = 0; a < args.size(); ++a)
      if (!args[a].empty() && f.is(args[a].first, "{") && !f.touched(args[a].first))
        f.insert_before(args[a].first,
                        "::w64::api::kernel_arg_t<" + std::to_string(a) + ", decltype(&" + kernel + ")>");
  }
}

void check_inline_asm(FileMigration& f) {
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is(ci, "asm") && !f.is(ci, "__asm__") && !f.is(ci, "__asm")) continue;
    std::size_t open = ci + 1;
    while (f.is(open, "volatile") || f.is(open, "__volatile__") || f.is(open, "goto") || f.is(open, "inline")) ++open;
    if (!f.is(open, "(") || f.excluded(ci)) continue;
    if (rewrite_special_register_read(f, ci, open)) continue;
    const std::vector<migrate::ArgRange> args = f.call_args(open);
    std::string_view body;
    if (!args.empty() && !args[0].empty()) body = f.text(args[0].first);
    if (body == "\"\"") continue;  // asm volatile("" ::: "memory"): a compiler barrier, fine
    const std::size_t fn = function_body(f, ci);
    if (fn == npos || !is_device_function(f, fn)) continue;
    f.diag(Diag::Wave64InlineAsm, ci,
           "inline assembly in device code cannot run on the wave64 CPU runtime: " + std::string(body),
           "replace it with the intrinsic it implements (__shfl*, __ballot, __lane_id(), clock64(), "
           "__threadfence()...), or guard it with #ifndef W64_WAVE_SIZE and give the runtime a C++ "
           "version");
  }
}

// `cudaLaunchCooperativeKernel((void *)kernel, grid, block, args, ...)`: a void* has lost the
// kernel's parameter types, which the runtime needs to convert the argument array (a GPU driver
// reads them from the binary). The cast is dropped when what it casts is a kernel's name
// (`k`, `ns::k`, `k<T>`): `(void *)`, `(const void *)`, `reinterpret_cast<[const] void *>(...)`.
void drop_kernel_void_casts(FileMigration& f) {
  static constexpr std::string_view kCalls[] = {"cudaLaunchCooperativeKernel", "hipLaunchCooperativeKernel",
                                                "cudaLaunchKernel", "hipLaunchKernel"};
  for (std::size_t ci = 0; ci + 1 < f.code_size(); ++ci) {
    if (!f.is(ci + 1, "(") || f.excluded(ci) || f.code(ci).in_directive) continue;
    if (std::none_of(std::begin(kCalls), std::end(kCalls), [&](std::string_view n) { return f.is(ci, n); })) continue;
    const std::size_t a = ci + 2;
    auto void_ptr = [&](std::size_t i, std::string_view end) {  // `[const] void *` then `end`
      if (f.is(i, "const")) ++i;
      return f.is(i, "void") && f.is(i + 1, "*") && f.is(i + 2, end) ? i + 2 : npos;
    };
    std::size_t name_first = npos;
    bool call_cast = false;
    if (f.is(a, "(")) {
      const std::size_t close = void_ptr(a + 1, ")");
      if (close != npos) name_first = close + 1;
    } else if ((f.is(a, "reinterpret_cast") || f.is(a, "static_cast")) && f.is(a + 1, "<")) {
      const std::size_t gt = void_ptr(a + 2, ">");
      if (gt != npos && f.is(gt + 1, "(")) {
        name_first = gt + 2;
        call_cast = true;
      }
    }
    if (name_first == npos) continue;
    // Only a name: identifiers, `::`, and one template argument list at the end.
    std::size_t i = name_first;
    while (f.is_identifier(i) && f.is(i + 1, "::")) i += 2;
    if (!f.is_identifier(i)) continue;
    std::size_t name_last = i;
    if (f.is(i + 1, "<")) {
      name_last = analysis::angle_close(f, i + 1);
      if (name_last == npos) continue;
    }
    const std::size_t after = name_last + 1;
    if (call_cast ? !(f.is(after, ")") && (f.is(after + 1, ",") || f.is(after + 1, ")")))
                  : !(f.is(after, ",") || f.is(after, ")")))
      continue;
    if (f.touched(a) || f.touched(name_first - 1)) continue;
    if (!call_cast) {
      f.replace(a, name_first - 1, "");
    } else {
      f.replace(a, name_first - 1, "(");  // reinterpret_cast<void*>(k) -> (k)
    }
  }
}

bool is_attribute_start(const FileMigration& f, std::size_t i) {
  return f.is(i, "__align__") || f.is(i, "__attribute__") || f.is(i, "alignas") || f.is(i, "__declspec");
}

void rewrite_extern_shared(FileMigration& f, Transformed& out) {
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is(ci, "__shared__") || f.code(ci).in_directive || f.excluded(ci)) continue;
    const std::size_t start = statement_start(f, ci);
    bool is_extern = false;
    for (std::size_t i = start; i < ci; ++i) is_extern |= f.is(i, "extern");
    if (!is_extern) continue;
    // The end of the declaration and its declarator `NAME [ ]`, or `NAME [ ] [N]...` (an array
    // of rows: cuda-samples' tensor-core GEMMs declare `shmem[][CHUNK_K * K + SKEW]`).
    std::size_t semi = ci;
    while (semi < f.code_size() && !f.is(semi, ";") && !f.is(semi, "{")) ++semi;
    if (semi >= f.code_size() || !f.is(semi, ";") || semi < start + 4) continue;
    std::size_t name = npos;
    for (std::size_t i = ci + 1; i + 1 < semi; ++i) {
      if (f.is(i, ",") || f.is(i, "=")) break;
      if (f.is(i, "[")) {
        if (f.is(i + 1, "]") && f.is_identifier(i - 1)) name = i - 1;
        break;
      }
    }
    // After `NAME [ ]`: whole `[ ... ]` dimensions up to the `;`.
    std::size_t dims_end = name == npos ? npos : name + 3;
    while (dims_end != npos && dims_end < semi) {
      const std::size_t close = f.is(dims_end, "[") ? f.match_bracket(dims_end) : npos;
      dims_end = close == npos || close >= semi ? npos : close + 1;
    }
    if (name == npos || dims_end != semi) {
      f.diag(Diag::Wave64ExternShared, ci,
             "this extern __shared__ declaration is not of the form `extern __shared__ T name[];` "
             "(or `T name[][N]`), which is what the wave64 runtime rewrites",
             "declare one unsized array per statement, e.g. extern __shared__ float smem[];");
      continue;
    }
    std::string dims(f.source().substr(f.code(name + 2).end, f.code(semi).begin - f.code(name + 2).end));
    std::replace(dims.begin(), dims.end(), '\n', ' ');  // the line count is kept below
    // The element type: the declaration's words without extern, __shared__ and attributes.
    std::string type;
    for (std::size_t i = start; i < name; ++i) {
      if (f.is(i, "extern") || f.is(i, "__shared__") || f.is(i, "static")) continue;
      if (is_attribute_start(f, i)) {
        if (f.is(i + 1, "(")) {
          const std::size_t close = f.match_bracket(i + 1);
          if (close != npos) i = close;
        }
        continue;
      }
      if (!type.empty()) type += ' ';
      type += f.text(i);
    }
    if (type.empty()) continue;
    const std::string n(f.text(name));
    std::string repl;
    // `T* const n`, or for rows `T (* const n)[N]`.
    const bool rows = dims.find_first_not_of(" \t\n") != std::string::npos;
    const std::string ptr_type = rows ? type + " (*)" + dims : type + "*";
    if (function_body(f, ci) != npos) {
      repl = rows ? type + " (* const " + n + ")" + dims : type + "* const " + n;
      repl += " = reinterpret_cast<" + ptr_type + ">(::w64::dynamic_shared());";
    } else {
      repl = "static thread_local " + (rows ? type + " (*" + n + ")" + dims : type + "* " + n) +
             " = nullptr; static const ::w64::rt::DynSharedSlot w64_dyn_slot_" + n + "_" +
             std::to_string(f.code(name).line) + "([]() -> void** { return reinterpret_cast<void**>(&" + n + "); });";
    }
    const std::size_t lines = f.code(semi).line - f.code(start).line;
    repl.append(lines, '\n');
    if (f.replace(start, semi, repl)) ++out.dynamic_shared;
  }
}

// The declaration specifiers next to `ci` (a `__shared__` or `__forceinline__`), as code
// indices: the words and attributes before and after it up to the declared type or name.
bool is_specifier_word(const FileMigration& f, std::size_t i) {
  static constexpr std::string_view kWords[] = {
      "static",       "inline",      "__inline__",      "__inline",     "volatile",     "const",
      "constexpr",    "extern",      "__device__",      "__host__",     "__global__",   "__shared__",
      "__constant__", "__managed__", "__forceinline__", "__noinline__", "thread_local", "__restrict__"};
  for (std::string_view w : kWords)
    if (f.is(i, w)) return true;
  return false;
}

std::vector<std::size_t> specifier_run(const FileMigration& f, std::size_t ci) {
  std::vector<std::size_t> run;
  // Backwards over words and attributes (`__align__(16)`: skip the parenthesised part).
  std::size_t i = ci;
  while (i > 0) {
    std::size_t p = i - 1;
    if (f.code(p).in_directive) break;
    if (f.is(p, ")")) {
      const std::size_t open = f.partner(p);
      if (open == npos || open == 0 || !is_attribute_start(f, open - 1)) break;
      p = open - 1;
    } else if (!is_specifier_word(f, p)) {
      break;
    }
    i = p;
    run.push_back(p);
  }
  for (std::size_t j = ci + 1; j < f.code_size() && !f.code(j).in_directive; ++j) {
    if (is_attribute_start(f, j) && f.is(j + 1, "(")) {
      const std::size_t close = f.match_bracket(j + 1);
      if (close == npos) break;
      j = close;
      continue;
    }
    if (!is_specifier_word(f, j)) break;
    run.push_back(j);
  }
  return run;
}

// The runtime's qualifiers are macros: `__shared__` is `static thread_local` and
// `__forceinline__` is `inline __attribute__((always_inline))`. CUDA code writes `static
// __shared__ T s[32];` (in templates), `__shared__ static int n;` and `__forceinline__ inline`,
// which would reach the compiler as a second `static` or `inline` ("conflicting specifiers",
// "duplicate inline"). The word the macro already supplies is dropped from the declaration.
void drop_duplicate_specifiers(FileMigration& f) {
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    const bool shared = f.is(ci, "__shared__");
    if ((!shared && !f.is(ci, "__forceinline__")) || f.code(ci).in_directive || f.excluded(ci) || f.touched(ci))
      continue;
    for (const std::size_t j : specifier_run(f, ci)) {
      const bool dup = shared ? f.is(j, "static") : (f.is(j, "inline") || f.is(j, "__inline__") || f.is(j, "__inline"));
      if (dup && !f.touched(j)) f.replace(j, j, "");
    }
  }
}

// The runtime's built-in variables are macros (`#define gridDim W64_GRID_DIM`), so host code that
// declares a local or parameter of that name — cuda-samples' tensor-core GEMMs write `dim3
// gridDim; dim3 blockDim;` before a launch, particles `uint gridDim = GRID_SIZE;` — would reach
// the compiler as `dim3 (::w64::rt::t_block->gdim);`. Such a name is renamed (w64_host_NAME) from
// its declaration to the end of its block (a parameter: the function's body), not after `.`,
// `->` or `::`. A declaration is the name after a type word and before `;`, `=`, `(`, `{`, `[`,
// `,` or `)`.
bool declares_builtin_name(const FileMigration& f, std::size_t ci) {
  if (ci == 0 || !f.is_identifier(ci - 1)) return false;
  static const std::set<std::string_view> kNotTypes = {"return", "case",  "sizeof", "else",     "do",
                                                       "throw",  "new",   "delete", "decltype", "co_return",
                                                       "goto",   "using", "typeof", "alignof",  "co_yield"};
  if (kNotTypes.count(f.text(ci - 1)) != 0) return false;
  for (const char* next : {";", "=", "(", "{", "[", ",", ")"})
    if (f.is(ci + 1, next)) return true;
  return false;
}

void rename_builtin_name_declarations(FileMigration& f) {
  static const std::set<std::string_view> kBuiltins = {"gridDim", "blockDim", "threadIdx", "blockIdx"};
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is_identifier(ci) || kBuiltins.count(f.text(ci)) == 0 || f.code(ci).in_directive || f.excluded(ci) ||
        f.touched(ci) || !declares_builtin_name(f, ci))
      continue;
    // A parameter: an unclosed `(` between the name and the start of its statement.
    std::size_t paren = npos;
    int depth = 0;
    for (std::size_t i = ci; i-- > 0;) {
      if (f.code(i).in_directive || f.is(i, ";") || f.is(i, "{") || f.is(i, "}")) break;
      if (f.is(i, ")")) ++depth;
      else if (f.is(i, "(") && depth-- == 0) {
        paren = i;
        break;
      }
    }
    std::size_t end = npos;
    if (paren != npos) {
      const std::size_t close = f.match_bracket(paren);
      if (close == npos) continue;
      std::size_t i = close + 1;
      while (i < f.code_size() && !f.is(i, "{") && !f.is(i, ";")) ++i;
      end = f.is(i, "{") ? f.match_bracket(i) : close;
    } else {
      const std::size_t open = enclosing_brace(f, ci);
      if (open == npos || opens_scope_not_function(f, open)) continue;  // a global or a member: left alone
      end = f.match_bracket(open);
    }
    if (end == npos) continue;
    const std::string name(f.text(ci));
    for (std::size_t j = ci; j <= end; ++j) {
      if (!f.is(j, name) || f.touched(j) || f.code(j).in_directive) continue;
      if (j > 0 && (f.is(j - 1, ".") || f.is(j - 1, "->") || f.is(j - 1, "::"))) continue;
      f.replace(j, j, "w64_host_" + name);
    }
  }
}

// A wavefront runs in lock-step on AMD hardware (and a warp did on NVIDIA's before Volta):
// warp-synchronous code finishes a reduction in shared memory with no barrier between steps,
// `if (tid < I) s[tid] = op(s[tid], s[tid + I]);` for I = 32, 16, ..., 1 (rocm-examples'
// reduction v5/v6 in a static_for; the classic `volatile` warpReduce), each lane reading what
// another wrote the step before. The runtime runs lanes one after another between barriers, so
// such a step gets a lock-step point after it (W64_LOCKSTEP(): a wave barrier over the lanes that
// reach it, runtime/wave64/include/wave64/core.h); every lane then finishes one step before any
// starts the next, as on the hardware. The step is also split at its assignment (`{ auto w64_ls =
// RHS; W64_LOCKSTEP(); s[e1] = w64_ls; }`, for `op=` a copy of `s[e1]` takes `op= RHS`): every lane
// reads its operands before any lane writes, as one instruction does for the whole wavefront. A step is an expression
// statement in device code that assigns to NAME[e1] and reads NAME[e2] with e2 written differently, where NAME is
// declared
// `__shared__` or as a `volatile` pointer in the file, and no barrier follows it (past the
// closing braces of blocks that are not loop bodies). After a brace-less `if` the point goes
// after the `if` (every lane of the wave reaches it); under a brace-less loop or `else` the step
// and the point are braced together. `notes` gets one line per point (`-v`).
int insert_lockstep_points(FileMigration& f, std::vector<std::string>& notes) {
  std::set<std::string_view> names;
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (f.code(ci).in_directive) continue;
    if (f.is(ci, "__shared__")) {
      int depth = 0;
      for (std::size_t j = ci + 1; j < f.code_size() && !(depth == 0 && (f.is(j, ";") || f.is(j, "{"))); ++j) {
        if (f.is(j, "(") || f.is(j, "[")) ++depth;
        else if (f.is(j, ")") || f.is(j, "]")) --depth;
        else if (depth == 0 && f.is_identifier(j) &&
                 (f.is(j + 1, "[") || f.is(j + 1, ";") || f.is(j + 1, "=") || f.is(j + 1, ",")))
          names.insert(f.text(j));
      }
    } else if (f.is(ci, "volatile")) {
      // `volatile T* p`, `T volatile* p`, `volatile T* __restrict__ p`
      for (std::size_t j = ci + 1; j < ci + 6 && j + 1 < f.code_size(); ++j) {
        if (!f.is(j, "*")) continue;
        std::size_t n = j + 1;
        while (n < f.code_size() && (f.is(n, "__restrict__") || f.is(n, "__restrict") || f.is(n, "const"))) ++n;
        if (n < f.code_size() && f.is_identifier(n)) names.insert(f.text(n));
        break;
      }
    }
  }
  if (names.empty()) return 0;
  auto span = [&](std::size_t a, std::size_t b) {  // the tokens' text, without spaces
    std::string t;
    for (std::size_t k = a; k <= b; ++k) t += f.text(k);
    return t;
  };
  auto head_keyword = [&](std::size_t close_paren) -> std::string_view {  // `if (...)` -> "if"
    const std::size_t open = f.partner(close_paren);
    if (open == npos || open == 0 || !f.is(close_paren, ")")) return {};
    return f.is(open - 1, "if") || f.is(open - 1, "for") || f.is(open - 1, "while") ? f.text(open - 1)
                                                                                    : std::string_view{};
  };
  auto is_sync_at = [&](std::size_t i) {
    static const std::set<std::string_view> kSync = {"__syncthreads", "__syncwarp", "__builtin_amdgcn_s_barrier",
                                                     "__builtin_amdgcn_wave_barrier", "W64_LOCKSTEP"};
    std::size_t j = i;
    while (j + 2 < f.code_size() && f.is_identifier(j) && (f.is(j + 1, "::") || f.is(j + 1, ".")) &&
           !kSync.count(f.text(j)))
      j += 2;  // cg::sync(block), block.sync()
    return j < f.code_size() && (kSync.count(f.text(j)) != 0 || f.is(j, "sync")) && f.is(j + 1, "(");
  };
  static const std::set<std::string_view> kAssign = {"=", "+=", "-=", "*=", "/=", "|=", "&=", "^=", "<<=", ">>="};
  int inserted = 0;
  for (std::size_t ci = 1; ci + 1 < f.code_size(); ++ci) {
    if (!f.is_identifier(ci) || !f.is(ci + 1, "[") || names.count(f.text(ci)) == 0 || f.code(ci).in_directive ||
        f.excluded(ci) || f.touched(ci))
      continue;
    // at the start of a statement
    const std::size_t p = ci - 1;
    std::string_view head;
    if (f.is(p, ")")) {
      head = head_keyword(p);
      if (head.empty()) continue;
    } else if (f.is(p, "else") || f.is(p, "do")) {
      head = f.text(p);
    } else if (!f.is(p, ";") && !f.is(p, "{") && !f.is(p, "}")) {
      continue;
    }
    const std::size_t body = function_body(f, ci);
    if (body == npos || !is_device_function(f, body)) continue;
    bool host_too = false;  // a __host__ __device__ function may run outside a kernel
    for (std::size_t i = statement_start(f, body); i < body && !host_too; ++i) host_too = f.is(i, "__host__");
    if (host_too) continue;
    const std::size_t idx_close = f.match_bracket(ci + 1);
    if (idx_close == npos || !kAssign.count(f.text(idx_close + 1))) continue;
    const std::string written = span(ci + 2, idx_close - 1);
    std::size_t end = idx_close + 1;
    bool reads_other = false;
    int depth = 0;
    for (; end < f.code_size(); ++end) {
      if (f.is(end, "(") || f.is(end, "[") || f.is(end, "{")) ++depth;
      else if (f.is(end, ")") || f.is(end, "]") || f.is(end, "}")) --depth;
      else if (depth == 0 && f.is(end, ";")) break;
      if (f.is(end, f.text(ci)) && f.is(end + 1, "[")) {
        const std::size_t c = f.match_bracket(end + 1);
        if (c != npos && span(end + 2, c - 1) != written) reads_other = true;
      }
      if (depth < 0) break;
    }
    if (!reads_other || end >= f.code_size() || !f.is(end, ";")) continue;
    const bool braced_body = head == "for" || head == "while" || head == "else" || head == "do";
    if (head == "if" && f.is(end + 1, "else")) continue;  // `if (c) s[i] = s[j]; else ...`: left alone
    // A brace-less loop over the written index (`for (int i = threadIdx.x; i < n; i += blockDim.x)
    // s[i] += s[n + i];`): each lane updates its own elements, no other lane's.
    if (head == "for") {
      const std::size_t open = f.partner(p);
      std::size_t k = open + 1;
      while (k < p && !f.is(k, "=") && !f.is(k, ";")) ++k;
      if (k < p && f.is(k, "=") && k > open + 1 && f.is_identifier(k - 1) && f.text(k - 1) == written) continue;
    }
    // Is a barrier reached before this array is read again? Forward from the step: a barrier, or
    // the kernel's end, means no; a read of a shared name means yes; at the end of a loop body
    // the next iteration decides (a barrier at the body's top level: no).
    bool needed = !braced_body;
    for (std::size_t k = end + 1; !braced_body && k < f.code_size(); ++k) {
      if (f.is(k, "}")) {
        const std::size_t open = f.partner(k);
        if (open == npos || open > ci) continue;  // a block entered after the step
        if (open == body) {
          // a kernel ends here; a device function returns to a caller that may read on
          bool kernel = false;
          for (std::size_t h = statement_start(f, body); h < body; ++h) kernel = kernel || f.is(h, "__global__");
          needed = !kernel;
          break;
        }
        const bool loop_body =
            open > 0 && (f.is(open - 1, "do") || (f.is(open - 1, ")") && (head_keyword(open - 1) == "for" ||
                                                                          head_keyword(open - 1) == "while")));
        if (loop_body) {
          needed = true;
          int d = 0;
          for (std::size_t j = open + 1; j < k && needed; ++j) {
            if (f.is(j, "{") || f.is(j, "(")) ++d;
            else if (f.is(j, "}") || f.is(j, ")")) --d;
            else if (d == 0 && is_sync_at(j)) needed = false;
          }
          break;
        }
        continue;
      }
      if (is_sync_at(k)) {
        needed = false;
        break;
      }
      if (f.is_identifier(k) && f.is(k + 1, "[") && names.count(f.text(k)) != 0) {
        needed = true;
        break;
      }
    }
    if (!needed && !braced_body) continue;
    // The step itself reads, waits and writes: every lane of the wavefront reads its operands
    // before any writes (`s[t] += s[t + 16]` on the hardware), then the point after the step.
    const std::string_view src = f.source();
    auto bytes = [&](std::size_t a, std::size_t b) {
      return std::string(src.substr(f.code(a).begin, f.code(b).end - f.code(a).begin));
    };
    const std::string target = bytes(ci, idx_close), op(f.text(idx_close + 1)), rhs = bytes(idx_close + 2, end - 1);
    std::string step = op == "=" ? "{ auto w64_ls = (" + rhs + "); W64_LOCKSTEP(); " + target + " = w64_ls; }"
                                 : "{ auto w64_ls = " + target + "; w64_ls " + op + " (" + rhs + "); W64_LOCKSTEP(); " +
                                       target + " = w64_ls; }";
    const std::string original = bytes(ci, end);
    const auto newlines = [](const std::string& t) { return std::count(t.begin(), t.end(), '\n'); };
    step += std::string(static_cast<std::size_t>(std::max<long>(0, newlines(original) - newlines(step))), '\n');
    if (written.find("++") != std::string::npos || written.find("--") != std::string::npos ||
        written.find('=') != std::string::npos)
      step = original;  // an index with a side effect is evaluated once: the step stays as written
    f.replace(ci, end, braced_body ? "{ " + step + " W64_LOCKSTEP(); }" : step + " W64_LOCKSTEP();");
    ++inserted;
    notes.push_back(std::string(f.path()) + ":" + std::to_string(f.code(ci).line) + ":" +
                    std::to_string(f.code(ci).col) + ": note: lock-step point after this step on `" +
                    std::string(f.text(ci)) +
                    "` (it reads another lane's element with no barrier between: the lanes of a wavefront finish it "
                    "together, as the hardware runs them)");
    ci = end;
  }
  return inserted;
}

}  // namespace

Transformed transform_source(std::string_view src, const std::string& display_path, bool regions) {
  static const targets::Options options = [] {
    targets::Options o;
    o.values["launch"] = "ggl";
    return o;
  }();
  static const std::unique_ptr<targets::Target> hip = targets::make_target("hip", options);
  const targets::ProjectContext project;
  Transformed out;
  FileMigration f(display_path, src, *hip, options, project);

  type_braced_kernel_arguments(f);
  targets::hip::launch_pass(f);
  rename_builtin_name_declarations(f);
  protect_template_kernel_names(f);
  rewrite_extern_shared(f, out);
  drop_duplicate_specifiers(f);
  rewrite_device_clock(f);
  drop_kernel_void_casts(f);
  check_inline_asm(f);
  out.lockstep_points = insert_lockstep_points(f, out.region_notes);

  // Launches the pass could not rewrite would reach the compiler as `<<<`: say so here.
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    // The pass replaces the glue around `<<<`: an untouched one is a launch it did not take.
    if (f.code(ci).kind != lex::Kind::LaunchOpen || f.touched(ci)) continue;
    f.diag(Diag::Wave64Launch, ci,
           "kernel launch the wave64 driver cannot rewrite (the kernel expression or the launch "
           "parameters are not in a form it knows)",
           "write it as hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, args...)");
  }
  for (const rewrite::Edit& e : f.edits().edits())
    if (e.replacement.starts_with("hipLaunchKernelGGL(")) ++out.launches;

  std::string quoted;
  for (const char c : display_path) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  std::string body = f.edits().apply(src);
  out.diagnostics = std::move(f.diagnostics());
  if (regions) {
    RegionOutcome r = form_regions(body, display_path);
    body = std::move(r.text);
    out.regions_split = r.split;
    for (const RegionNote& n : r.notes) out.region_notes.push_back(n.format(display_path));
  }
  out.text = "#line 1 \"" + quoted + "\"\n" + body;
  return out;
}

}  // namespace ferry::wave64
