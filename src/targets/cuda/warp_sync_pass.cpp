// Warp-synchronous shared-memory steps on the way to CUDA (docs/targets.md, "cuda"). HIP code for
// AMD GPUs may rely on a wavefront running in lock step: the last steps of a shared-memory
// reduction (`if (tid < I) s[tid] = op(s[tid], s[tid + I]);` for I = 32, 16, ... 1) run with no
// barrier between them. CUDA warps are not in lock step (independent thread scheduling, since
// Volta): a lane may read its partner's slot before the partner wrote it, and the result is wrong
// (rocm-examples' reduction tutorial computed 92233707 for 99999999 on the H200). Each loop or
// lambda body that writes a __shared__ array and reads another lane's slot of it (`s[i + k]`), with
// no barrier inside, gets `__syncwarp();` as its last statement (FRY1242). A body under an `if`
// (some lanes of the warp may not reach it) is reported, not changed: `__syncwarp()` waits for
// every lane of the warp.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

bool is_barrier(std::string_view t) {
  return t.starts_with("__syncthreads") || t == "__syncwarp" || t == "sync" || t == "barrier" ||
         t == "__builtin_amdgcn_s_barrier" || t == "__builtin_amdgcn_wave_barrier" || t == "__threadfence_block" ||
         t == "grid_sync" || t == "block_sync";
}

// The names declared `__shared__` in the file (`__shared__ T s[N];`, `extern __shared__ T s[];`).
std::set<std::string, std::less<>> shared_arrays(const migrate::FileMigration& file) {
  std::set<std::string, std::less<>> names;
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is(ci, "__shared__") || file.in_directive(ci)) continue;
    for (std::size_t k = ci + 1; k < file.code_size() && k < ci + 24; ++k) {
      if (file.is(k, ";") || file.is(k, "=") || file.is(k, "{") || file.is(k, ")")) break;
      if (file.is(k, "[") && file.is_identifier(k - 1)) {
        names.emplace(file.text(k - 1));
        break;
      }
    }
  }
  return names;
}

// `{` at `b` opens the body of a for/while loop or of a lambda (`[&](...) {`, `[&]<int I>() {`).
bool loop_or_lambda_body(const migrate::FileMigration& file, std::size_t b) {
  if (b == 0 || !file.is(b - 1, ")")) return false;
  const std::size_t open = file.partner(b - 1);
  if (open == lex::npos || open == 0) return false;
  const std::size_t before = open - 1;
  if (file.is(before, "for") || file.is(before, "while") || file.is(before, "]")) return true;
  if (!file.is(before, ">")) return false;
  int depth = 0;  // a template parameter list right after the capture: `]<int I>(`
  for (std::size_t k = before; k > 0 && k + 40 > before; --k) {
    if (file.is(k, ">")) ++depth;
    if (file.is(k, "<") && --depth == 0) return file.is(k - 1, "]");
  }
  return false;
}

// Is `b` (an opening brace) inside the body of an `if`/`else`/`switch`, or of a `?:` or `&&`
// operand, within the function? Walks the enclosing braces outwards.
bool under_condition(const migrate::FileMigration& file, std::size_t b, const std::vector<std::size_t>& enclosing_of) {
  for (std::size_t o = enclosing_of[b]; o != lex::npos; o = enclosing_of[o]) {
    if (o > 0 && file.is(o - 1, "else")) return true;
    if (o > 0 && file.is(o - 1, ")")) {
      const std::size_t p = file.partner(o - 1);
      if (p != lex::npos && p > 0 && (file.is(p - 1, "if") || file.is(p - 1, "switch"))) return true;
      if (p != lex::npos && p > 0 && !file.is(p - 1, "for") && !file.is(p - 1, "while") && !file.is(p - 1, "]") &&
          !file.is(p - 1, ">"))
        return false;  // a function body: the walk ends at the function
    }
  }
  return false;
}

}  // namespace

void warp_sync_pass(migrate::FileMigration& file) {
  // The way back of a round trip gives the CUDA original back as it was.
  if (file.project().migrated_by == "hip") return;
  const auto shared = shared_arrays(file);
  if (shared.empty()) return;
  // The innermost enclosing `{` of every code token.
  std::vector<std::size_t> enclosing_of(file.code_size(), lex::npos);
  {
    std::vector<std::size_t> stack;
    for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
      if (file.in_directive(ci)) continue;
      if (file.is(ci, "}") && !stack.empty()) stack.pop_back();
      enclosing_of[ci] = stack.empty() ? lex::npos : stack.back();
      if (file.is(ci, "{")) stack.push_back(ci);
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> fixed;  // bodies already given a __syncwarp
  std::vector<std::pair<std::size_t, std::size_t>> bodies;
  for (std::size_t b = 0; b < file.code_size(); ++b)
    if (file.is(b, "{") && !file.in_directive(b) && loop_or_lambda_body(file, b)) {
      const std::size_t e = file.partner(b);
      if (e != lex::npos && e > b + 1) bodies.emplace_back(b, e);
    }
  // Innermost first: a body that holds a body already fixed is not the step.
  std::sort(bodies.begin(), bodies.end(), [](auto x, auto y) { return x.second - x.first < y.second - y.first; });
  for (const auto& [b, e] : bodies) {
    bool holds_fixed = false;
    for (const auto& [fb, fe] : fixed) holds_fixed = holds_fixed || (fb > b && fe < e);
    if (holds_fixed || file.excluded(b)) continue;
    bool barrier = false, writes = false, reads_other = false;
    std::string name;
    for (std::size_t k = b + 1; k < e && !barrier; ++k) {
      if (file.in_directive(k)) continue;
      if (file.is_identifier(k) && is_barrier(file.text(k))) barrier = true;
      if (!file.is_identifier(k) || !file.is(k + 1, "[") || file.is_member_or_qualified(k)) continue;
      if (!shared.contains(file.text(k))) continue;
      const std::size_t close = file.partner(k + 1);
      if (close == lex::npos || close >= e) continue;
      const bool assigned = file.is(close + 1, "=") || file.is(close + 1, "+=") || file.is(close + 1, "*=") ||
                            file.is(close + 1, "-=") || file.is(close + 1, "|=") || file.is(close + 1, "&=") ||
                            file.is(close + 1, "^=");
      if (assigned) {
        writes = true;
        name = std::string(file.text(k));
        continue;
      }
      for (std::size_t i = k + 2; i < close; ++i)
        if (file.is(i, "+") || file.is(i, "^")) reads_other = true;  // s[tid + I], s[tid ^ I]
    }
    if (barrier || !writes || !reads_other) continue;
    if (file.touched(e) || file.is(e - 1, "{")) continue;
    fixed.emplace_back(b, e);
    if (under_condition(file, b, enclosing_of)) {
      file.diag(Diag::WarpSyncStepCuda, Severity::Warning, b,
                "a step on the __shared__ array '" + name +
                    "' with no barrier, under a condition: it relies on the lanes of a wavefront running in lock "
                    "step, which CUDA warps do not; left unchanged",
                "add __syncwarp(mask) after the step, with the lanes that reach it");
      continue;
    }
    // `__syncwarp();` on a line of its own after the body's last statement, indented like the
    // body's first line.
    const std::size_t first = b + 1;
    const std::string_view src = file.source();
    std::size_t line_start = file.code(first).begin;
    while (line_start > 0 && src[line_start - 1] != '\n') --line_start;
    std::string indent;
    for (std::size_t i = line_start; i < src.size() && (src[i] == ' ' || src[i] == '\t'); ++i) indent += src[i];
    const bool own_line = file.code(first).line > file.code(b).line;
    const std::string text = own_line ? "\n" + indent + "__syncwarp();" : " __syncwarp();";
    if (!file.edits().insert(file.code(e - 1).end, text)) continue;
    file.count_converted("device");
    file.diag(Diag::WarpSyncStepCuda, b,
              "a step on the __shared__ array '" + name +
                  "' with no barrier relies on the lanes of a wavefront running in lock step; CUDA warps do "
                  "not (independent thread scheduling): __syncwarp() added at the end of the step",
              "");
  }
}

}  // namespace ferry::targets::cuda
