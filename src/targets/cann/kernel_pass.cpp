// CUDA kernels are not translated: Ascend C runs one block per AI core with no threadIdx or warps,
// and moves data GM -> local memory -> GM through queues (CopyIn / Compute / CopyOut). Each
// __global__ kernel gets FRY1601 and a skeleton in <stem>_ascendc_skeleton.cpp; host launches become
// the Ascend C kernel-invocation form `k<<<blockDim, nullptr, stream>>>(args)`.
#include <filesystem>
#include <string>
#include <vector>

#include "targets/cann/passes.h"

namespace ferry::targets::cann {
namespace {

using migrate::FileMigration;
using migrate::npos;

struct Param {
  std::string text;  // as written
  std::string name;
  std::string elem;  // element type of a pointer parameter, "" for scalars
};

Param parse_param(const FileMigration& f, const migrate::ArgRange& a) {
  Param p;
  p.text = std::string(f.span_text(a.first, a.last));
  std::size_t name_at = a.last;
  while (name_at > a.first && !f.is_identifier(name_at)) --name_at;
  p.name = std::string(f.text(name_at));
  bool pointer = false;
  std::string type;
  for (std::size_t i = a.first; i < name_at; ++i) {
    const std::string_view t = f.text(i);
    if (t == "*") pointer = true;
    else if (t != "const" && t != "__restrict__" && t != "__restrict" && t != "volatile")
      type += (type.empty() ? "" : " ") + std::string(t);
  }
  if (pointer) p.elem = type.empty() ? "uint8_t" : type;
  return p;
}

std::string comment_lines(std::string_view body) {
  std::string out;
  std::size_t start = 0;
  while (start <= body.size()) {
    const std::size_t nl = body.find('\n', start);
    const std::string_view line = body.substr(start, nl == std::string_view::npos ? body.size() - start : nl - start);
    out += "// " + std::string(line) + "\n";
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return out;
}

std::string skeleton(const std::string& name, const std::vector<Param>& params, std::string_view cuda_sig,
                     std::string_view cuda_body) {
  std::string cls = "Kernel_" + name, decl, call, init_body, members;
  for (const Param& p : params) {
    decl += (decl.empty() ? "" : ", ") + (p.elem.empty() ? p.text : "GM_ADDR " + p.name);
    call += (call.empty() ? "" : ", ") + p.name;
    if (!p.elem.empty()) {
      init_body += "    // " + p.name + "Gm_.SetGlobalBuffer((__gm__ " + p.elem + " *)" + p.name +
                   " + <this block's offset>, <this block's length>);\n";
      members += "  AscendC::GlobalTensor<" + p.elem + "> " + p.name + "Gm_;\n";
    }
  }
  std::string s;
  s += "// ---- " + name + " ------------------------------------------------------------------------\n";
  s += "// CUDA kernel: " + std::string(cuda_sig) + "\n";
  s += "// Its CUDA body, for reference while completing the skeleton:\n" + comment_lines(cuda_body);
  s += "class " + cls + " {\n public:\n";
  s += "  __aicore__ inline " + cls + "() {}\n";
  s += "  __aicore__ inline void Init(" + decl + ") {\n";
  s += "    // TODO(ferry): split the work over AscendC::GetBlockNum() blocks; this is block AscendC::GetBlockIdx().\n";
  s += init_body;
  s += "    // TODO(ferry): pipe_.InitBuffer(inQueue_, BUFFER_NUM, <tile bytes>); same for outQueue_.\n";
  s += "  }\n";
  s += "  __aicore__ inline void Process() {\n";
  s += "    // TODO(ferry): for each tile i of this block: CopyIn(i); Compute(i); CopyOut(i);\n";
  s += "  }\n\n private:\n";
  s += "  __aicore__ inline void CopyIn(int32_t tile) {\n";
  s += "    // TODO(ferry): AllocTensor from inQueue_, AscendC::DataCopy(local, <gm tensor>[offset], length), EnQue.\n";
  s += "    (void)tile;\n  }\n";
  s += "  __aicore__ inline void Compute(int32_t tile) {\n";
  s +=
      "    // TODO(ferry): DeQue the inputs, apply the kernel's arithmetic with vector APIs (AscendC::Add, Mul, ...),\n";
  s += "    // EnQue the result to outQueue_, FreeTensor the inputs.\n";
  s += "    (void)tile;\n  }\n";
  s += "  __aicore__ inline void CopyOut(int32_t tile) {\n";
  s += "    // TODO(ferry): DeQue from outQueue_, AscendC::DataCopy(<gm tensor>[offset], local, length), FreeTensor.\n";
  s += "    (void)tile;\n  }\n\n";
  s += "  AscendC::TPipe pipe_;\n";
  s += "  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue_;\n";
  s += "  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue_;\n";
  s += members;
  s += "};\n\n";
  s += "extern \"C\" __global__ __aicore__ void " + name + "(" + decl + ") {\n";
  s += "  " + cls + " op;\n";
  s += "  op.Init(" + call + ");\n";
  s += "  op.Process();\n";
  s += "}\n\n";
  return s;
}

bool is_dim3(const FileMigration& f, const std::string& grid) {
  if (grid.rfind("dim3", 0) == 0 || grid.find(',') != std::string::npos) return true;
  for (std::size_t i = 0; i + 1 < f.code_size(); ++i)
    if (f.is(i, "dim3") && f.text(i + 1) == grid) return true;
  return false;
}

void rewrite_launches(FileMigration& f) {
  for (std::size_t ci = 1; ci < f.code_size(); ++ci) {
    if (f.code(ci).kind != lex::Kind::LaunchOpen || f.excluded(ci)) continue;
    std::size_t close = npos;
    std::vector<std::size_t> commas;
    int depth = 0;
    for (std::size_t i = ci + 1; i < f.code_size(); ++i) {
      if (f.code(i).kind == lex::Kind::LaunchClose && depth == 0) {
        close = i;
        break;
      }
      if (f.is(i, "(") || f.is(i, "[") || f.is(i, "{")) ++depth;
      else if (f.is(i, ")") || f.is(i, "]") || f.is(i, "}")) --depth;
      else if (depth == 0 && f.is(i, ",")) commas.push_back(i);
      if (depth < 0) break;
    }
    if (close == npos || close == ci + 1 || commas.empty() || commas.size() > 3) continue;
    std::vector<std::pair<std::size_t, std::size_t>> p;  // parameter ranges
    std::size_t start = ci + 1;
    for (std::size_t c : commas) {
      p.emplace_back(start, c - 1);
      start = c + 1;
    }
    p.emplace_back(start, close - 1);
    const std::string grid = squeezed(f, p[0].first, p[0].second);
    if (p.size() == 3 && squeezed(f, p[1].first, p[1].second) == "nullptr") continue;  // already Ascend C
    if (is_dim3(f, grid)) {
      f.count_unconverted("runtime");
      f.diag(Diag::CannDim3Launch, ci,
             "kernel launch with a multi-dimensional grid (" + grid +
                 ") left unchanged: Ascend C's blockDim is "
                 "one number, the count of AI-core blocks",
             "launch with <<<blocks, nullptr, stream>>> where blocks covers the work (at most the AI-core count), "
             "and compute each block's share inside the Ascend C kernel");
      continue;
    }
    std::string stream;
    if (p.size() == 4 && !is_default_stream(squeezed(f, p[3].first, p[3].second)))
      stream = std::string(f.span_text(p[3].first, p[3].second));
    if (stream.empty()) stream = visible_stream(f, ci);
    if (stream.empty()) {
      stream = "nullptr";
      f.diag(Diag::CannNoStream, ci,
             "the Ascend C launch takes an explicit stream, and no aclrtStream is in scope here: nullptr was passed",
             "create a stream with aclrtCreateStream(&stream), pass it, and aclrtSynchronizeStream(stream) "
             "before reading the results");
    }
    const std::string block(f.span_text(p[1].first, p[1].second));
    if (!f.replace(p[1].first, close - 1, "nullptr, " + stream)) continue;
    f.count_converted("runtime");
    f.diag(Diag::CannKernelLaunch, ci,
           "launch rewritten to the Ascend C form <<<" + grid + ", nullptr, " + stream +
               ">>>: blockDim is now the "
               "number of AI-core blocks; the CUDA block size (" +
               block + ") and dynamic shared memory are dropped",
           "each Ascend C block must process the elements that " + grid + " CUDA blocks of " + block +
               " threads did; keep blockDim at most the AI-core count and tile inside the kernel");
  }
}

}  // namespace

void kernel_pass(FileMigration& f) {
  std::string file_text;
  std::vector<std::string> names;
  for (std::size_t ci = 0; ci < f.code_size(); ++ci) {
    if (!f.is(ci, "__global__") || f.code(ci).in_directive || f.excluded(ci)) continue;
    // __global__ [qualifiers] void [__launch_bounds__(...)] NAME(params) { body }
    std::size_t i = ci + 1;
    std::size_t name_at = npos;
    for (; i < f.code_size() && !f.is(i, ";") && !f.is(i, "{"); ++i) {
      if (f.is(i, "(")) {
        if (i > 0 && f.is_identifier(i - 1) && f.text(i - 1) != "__launch_bounds__") {
          name_at = i - 1;
          break;
        }
        i = f.match_bracket(i);
        if (i == npos) break;
      }
    }
    if (name_at == npos) continue;
    const std::size_t close = f.match_bracket(name_at + 1);
    if (close == npos || !f.is(close + 1, "{")) continue;  // a declaration
    const std::size_t body_close = f.match_bracket(close + 1);
    if (body_close == npos) continue;
    std::vector<Param> params;
    for (const auto& a : f.call_args(name_at + 1))
      if (!a.empty() && !(a.first == a.last && f.is(a.first, "void"))) params.push_back(parse_param(f, a));
    const std::string name(f.text(name_at));
    std::string plist;
    for (const Param& p : params) plist += (plist.empty() ? "" : ", ") + p.text;
    const std::string stem = std::filesystem::path(std::string(f.path())).stem().string();
    const std::string side = stem + "_ascendc_skeleton.cpp";
    f.count_unconverted("device");
    f.diag(Diag::CannKernelSkeleton, name_at,
           "CUDA kernel '" + name + "(" + plist +
               ")' is not translated: Ascend C has no threads or warps; an Ascend C "
               "skeleton to complete was written to " +
               side,
           "complete the CopyIn/Compute/CopyOut stages in " + side +
               ", build it with the CANN ascendc toolchain, "
               "and delete this CUDA kernel from the host file");
    file_text += skeleton(name, params, f.span_text(ci, close), f.span_text(close + 1, body_close));
    names.push_back(name);
    ci = body_close;
  }
  rewrite_launches(f);
  if (names.empty()) return;
  const std::string stem = std::filesystem::path(std::string(f.path())).stem().string();
  std::string head;
  head += "// ASCEND C SKELETON generated by Ferry from " + std::string(f.path()) + ". IT IS NOT A TRANSLATION:\n";
  head += "// every TODO(ferry) must be completed by hand before this compiles or computes anything.\n";
  head += "// Model: the host launches <<<blockDim, nullptr, stream>>>; each of the blockDim AI-core blocks\n";
  head += "// copies tiles from global memory (GM_ADDR) into local tensors through TQue queues (CopyIn),\n";
  head += "// computes on them with vector/cube APIs (Compute), and copies results back (CopyOut).\n";
  head += "// Kernels: ";
  for (std::size_t i = 0; i < names.size(); ++i) head += (i ? ", " : "") + names[i];
  head += "\n#include \"kernel_operator.h\"\n\nconstexpr int32_t BUFFER_NUM = 2;  // double buffering\n\n";
  f.add_side_output(stem + "_ascendc_skeleton.cpp", head + file_text);
}

}  // namespace ferry::targets::cann
