// The torch_npu migration of one Python file. Every rewrite is a token edit found by its context:
//   torch.cuda.X            → torch.npu.X (graphs: torch.npu.NPUGraph / torch.npu.graph, FRY4652)
//   from torch.cuda.X import → from torch_npu.npu.X import
//   x.cuda(...)             → x.npu(...);   x.is_cuda → x.is_npu
//   'cuda' / 'cuda:N'       → 'npu' / 'npu:N' only in device contexts: torch.device(...), .to(...),
//                             autocast/GradScaler(...), device=/device_type=/map_location=/... , and
//                             comparisons with x.device / x.type
//   backend='nccl'          → 'hccl' (also init_process_group('nccl'))
//   'CUDA_VISIBLE_DEVICES'  → 'ASCEND_RT_VISIBLE_DEVICES'
//   import torch_npu        inserted after the first torch import of a file that changed
// Each change is listed as a FRY4650 note; what has no NPU equivalent gets FRY1650/FRY1651, what to
// review FRY4651-FRY4654.
#include <set>
#include <string>
#include <vector>

#include "lex/python_lexer.h"
#include "targets/torch_npu/torch_npu_target.h"

namespace ferry::targets::torch_npu {
namespace {

using lex::py::Kind;
using lex::py::Token;
using migrate::FileMigration;

class Pass {
 public:
  explicit Pass(FileMigration& f) : f_(f), src_(f.source()), toks_(lex::py::tokenize(src_)) {
    for (std::size_t i = 0; i < toks_.size(); ++i)
      if (!lex::py::is_trivia(toks_[i].kind)) code_.push_back(i);
    exclusions();
  }

  void run() {
    for (std::size_t ci = 0; ci < code_.size(); ++ci) {
      if (excluded(ci)) continue;
      const Token& t = tok(ci);
      if (t.kind == Kind::Name) name(ci);
      else if (t.kind == Kind::String) string(ci);
    }
    if (changes_ > 0) add_import();
  }

 private:
  const Token& tok(std::size_t ci) const { return toks_[code_[ci]]; }
  std::string_view text(std::size_t ci) const { return ci < code_.size() ? tok(ci).text(src_) : std::string_view(); }
  bool is(std::size_t ci, std::string_view s) const { return ci < code_.size() && text(ci) == s; }
  bool excluded(std::size_t ci) const { return excluded_lines_.count(tok(ci).line) > 0; }

  void exclusions() {
    bool off = false;
    std::uint32_t from = 0;
    for (const Token& t : toks_) {
      if (t.kind != Kind::Comment) continue;
      const std::string_view c = t.text(src_);
      const std::size_t at = c.find("ferry:");
      if (at == std::string_view::npos) continue;
      std::string_view rest = c.substr(at + 6);
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      if (rest.rfind("off", 0) == 0) {
        off = true;
        from = t.line;
      } else if (rest.rfind("on", 0) == 0 && off) {
        for (std::uint32_t l = from; l <= t.line; ++l) excluded_lines_.insert(l);
        off = false;
      } else if (rest.rfind("ignore-next-line", 0) == 0) {
        excluded_lines_.insert(t.line + 1);
      } else if (rest.rfind("ignore", 0) == 0) {
        excluded_lines_.insert(t.line);
      }
    }
    if (off)
      for (std::uint32_t l = from; l <= toks_.back().line; ++l) excluded_lines_.insert(l);
  }

  void edit(std::size_t ci, std::string replacement, const std::string& what) {
    const Token& t = tok(ci);
    edit_bytes(t.begin, t.end, std::move(replacement), t, what);
  }
  void edit_bytes(std::uint32_t b, std::uint32_t e, std::string replacement, const Token& at, const std::string& what) {
    if (!f_.replace_bytes(b, e, std::move(replacement))) return;
    ++changes_;
    f_.count_converted("torch");
    f_.diag_at_line(Diag::NpuChange, at.line, at.col, "converted: " + what, "");
  }
  void note(Diag code, std::size_t ci, std::string msg, std::string hint) {
    f_.diag_at_line(code, tok(ci).line, tok(ci).col, std::move(msg), std::move(hint));
  }

  // Precision advice, once per file, at the first mixed-precision construct.
  void precision(std::size_t ci) {
    if (precision_done_) return;
    precision_done_ = true;
    note(Diag::NpuMixedPrecision, ci,
         "mixed precision on Ascend NPUs: fp16 is native on every Atlas training product; bf16 needs Atlas A2 "
         "(910B) or later; fp32 matmuls and convolutions may run in reduced precision (HF32) on the cube unit",
         "keep the loss scaler (torch.npu.amp.GradScaler) for fp16; prefer bf16 where supported; set "
         "torch.npu.matmul.allow_hf32 / torch.npu.conv.allow_hf32 explicitly if you need full fp32");
  }

  void name(std::size_t ci) {
    const std::string_view n = text(ci);
    const bool after_dot = ci > 0 && is(ci - 1, ".");
    if (n == "torch" && !after_dot && is(ci + 1, ".")) {
      if (is(ci + 2, "cuda")) torch_cuda(ci);
      else if (is(ci + 2, "backends") && is(ci + 3, ".") && (is(ci + 4, "cudnn") || is(ci + 4, "cuda")))
        backends(ci);
      return;
    }
    if (n == "cuda" && after_dot && ci >= 2 && !is(ci - 2, "torch") && !is(ci - 2, "backends") && is(ci + 1, "(")) {
      edit(ci, "npu", ".cuda() → .npu()");
      return;
    }
    if (n == "is_cuda" && after_dot) {
      edit(ci, "is_npu", ".is_cuda → .is_npu");
      return;
    }
    if ((n == "DistributedDataParallel" || n == "DDP" || n == "FullyShardedDataParallel" || n == "FSDP") &&
        is(ci + 1, "(")) {
      ddp(ci);
      return;
    }
    if (n == "apex" && !after_dot && apex_lines_.insert(tok(ci).line).second) {
      apex(ci);
      return;
    }
    if ((n == "CUDAExtension" && is(ci + 1, "(")) || (n == "cuda_sources" && is(ci + 1, "="))) {
      note(Diag::NpuCudaExtension, ci,
           "custom CUDA extension (" + std::string(n) + "): its CUDA C++ sources cannot run on an NPU",
           "migrate the extension's host code with `ferry migrate SRC --to cann` (kernels get Ascend C "
           "skeletons), and build it with torch_npu.utils.cpp_extension.NpuExtension instead of CUDAExtension");
      return;
    }
    if (n == "autocast" || n == "GradScaler" || n == "float16" || n == "bfloat16" ||
        (n == "half" && after_dot && is(ci + 1, "(")))
      precision(ci);
  }

  void torch_cuda(std::size_t ci) {
    const std::size_t cuda = ci + 2;
    const Token& t = tok(cuda);
    if (ci > 0 && is(ci - 1, "from")) {  // from torch.cuda[.amp] import X
      edit_bytes(tok(ci).begin, t.end, "torch_npu.npu", tok(ci), "from torch.cuda → from torch_npu.npu");
      return;
    }
    const std::string_view attr = is(cuda + 1, ".") ? text(cuda + 2) : std::string_view();
    static const std::set<std::string_view> kNone = {"nvtx", "jiterator", "nccl", "cudart", "_sleep", "comm"};
    if (kNone.count(attr)) {
      note(Diag::NpuNoEquivalent, cuda + 2,
           "torch.cuda." + std::string(attr) + " has no NPU equivalent; left unchanged",
           attr == "nvtx" ? "use torch_npu's profiler (torch_npu.profiler) ranges instead of NVTX markers"
                          : "remove this use or guard it with torch.cuda.is_available()");
      return;
    }
    if (attr == "CUDAGraph" || attr == "graph" || attr == "make_graphed_callables" || attr == "graph_pool_handle") {
      edit(cuda, "npu", "torch.cuda → torch.npu");
      if (attr == "CUDAGraph") edit(cuda + 2, "NPUGraph", "torch.cuda.CUDAGraph → torch.npu.NPUGraph");
      note(Diag::NpuGraph, cuda + 2,
           "CUDA graph API moved to its NPU twin (torch.npu." + std::string(attr == "CUDAGraph" ? "NPUGraph" : attr) +
               ")",
           "NPU graph capture needs a recent torch_npu (2.1+) and supports fewer operators than CUDA graphs: run the "
           "captured region once eagerly and compare, and keep static input/output buffers as on CUDA");
      return;
    }
    if (attr == "amp") precision(cuda + 2);
    edit(cuda, "npu", "torch.cuda" + (attr.empty() ? std::string() : "." + std::string(attr)) + " → torch.npu" +
                          (attr.empty() ? std::string() : "." + std::string(attr)));
  }

  void backends(std::size_t ci) {
    const std::string_view which = text(ci + 4);
    std::string setting;
    for (std::size_t i = ci + 5; i + 1 < code_.size() && is(i, "."); i += 2) setting += "." + std::string(text(i + 1));
    const std::string full = "torch.backends." + std::string(which) + setting;
    std::string hint;
    if (which == "cuda")
      hint = "the NPU switch for reduced-precision fp32 matmuls is torch.npu.matmul.allow_hf32 (and "
             "torch.npu.conv.allow_hf32); set it if you relied on TF32";
    else if (setting == ".benchmark")
      hint = "NPU operators are selected by CANN, not by cuDNN autotuning: drop it (no effect on NPU)";
    else if (setting == ".deterministic")
      hint = "use torch.use_deterministic_algorithms(True) for reproducible results on NPU";
    else if (setting == ".allow_tf32")
      hint = "the NPU twin is torch.npu.conv.allow_hf32";
    else
      hint = "cuDNN does not exist on NPU: this setting has no effect there";
    note(Diag::NpuBackendSetting, ci, full + " configures cuDNN/CUDA, which the NPU does not use; left unchanged", hint);
  }

  void ddp(std::size_t ci) {
    int depth = 0;
    for (std::size_t i = ci + 1; i < code_.size(); ++i) {
      if (is(i, "(") || is(i, "[") || is(i, "{")) ++depth;
      else if (is(i, ")") || is(i, "]") || is(i, "}")) {
        if (--depth == 0) return;
      } else if (depth == 1 && is(i + 1, "=") &&
                 (is(i, "device_ids") || is(i, "output_device") || is(i, "device_id"))) {
        note(Diag::NpuDdpDeviceIds, i,
             std::string(text(ci)) + "'s " + std::string(text(i)) + " now index NPUs",
             "call torch.npu.set_device(local_rank) before building the model, and select NPUs with "
             "ASCEND_RT_VISIBLE_DEVICES instead of CUDA_VISIBLE_DEVICES");
        return;
      }
    }
  }

  void apex(std::size_t ci) {
    std::string what;
    for (std::size_t i = ci; i < code_.size() && tok(i).line == tok(ci).line; ++i) what += text(i);
    std::string hint = "torch_npu has no apex build here: replace it with the PyTorch or torch_npu equivalent";
    if (what.find("optimizers") != std::string::npos || what.find("Fused") != std::string::npos)
      hint = "apex fused optimizers are CUDA kernels: use torch.optim.AdamW/SGD, or torch_npu's fused "
             "optimizers (torch_npu.optim.NpuFusedAdamW, NpuFusedSGD, NpuFusedLamb)";
    else if (what.find("amp") != std::string::npos)
      hint = "apex.amp is superseded: use torch.npu.amp.autocast and torch.npu.amp.GradScaler";
    else if (what.find("parallel") != std::string::npos)
      hint = "use torch.nn.parallel.DistributedDataParallel with the hccl backend";
    note(Diag::NpuNoEquivalent, ci, "NVIDIA apex has no NPU build: '" + what + "' left unchanged", hint);
  }

  // The name before `(` that encloses the string at `ci` when it is the call's first argument.
  std::string_view call_of_first_arg(std::size_t ci) const {
    if (ci < 2 || !is(ci - 1, "(") || tok(ci - 2).kind != Kind::Name) return {};
    return text(ci - 2);
  }

  bool device_name(std::string_view n) const {
    std::string l;
    for (char c : n) l.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return l == "device" || l == "device_type" || l == "map_location" || l == "output_device" || l == "device_id" ||
           l == "dev" || (l.size() > 7 && l.compare(l.size() - 7, 7, "_device") == 0) ||
           (l.size() > 7 && l.compare(0, 7, "device_") == 0 && l != "device_ids");
  }

  void string(std::size_t ci) {
    const Token& t = tok(ci);
    const lex::py::StringParts p = lex::py::split_string(t.text(src_));
    if (!p.terminated || p.quote.size() != 1) return;
    std::string prefix;
    for (char c : p.prefix) prefix.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (prefix.find('b') != std::string::npos) return;
    const std::uint32_t body = t.begin + static_cast<std::uint32_t>(p.prefix.size() + p.quote.size());
    if (p.body == "CUDA_VISIBLE_DEVICES") {
      edit_bytes(body, body + 20, "ASCEND_RT_VISIBLE_DEVICES", t, "CUDA_VISIBLE_DEVICES → ASCEND_RT_VISIBLE_DEVICES");
      return;
    }
    const bool assigned = ci >= 2 && is(ci - 1, "=") && tok(ci - 2).kind == Kind::Name;
    const std::string_view first_arg_of = call_of_first_arg(ci);
    if (p.body == "nccl") {
      if ((assigned && text(ci - 2) == "backend") || first_arg_of == "init_process_group")
        edit_bytes(body, body + 4, "hccl", t, "backend 'nccl' → 'hccl'");
      return;
    }
    if (p.body != "cuda" && p.body.rfind("cuda:", 0) != 0) return;
    bool device = false;
    if (assigned && device_name(text(ci - 2))) device = true;
    if (first_arg_of == "device" || first_arg_of == "autocast" || first_arg_of == "GradScaler" ||
        (first_arg_of == "to" && ci >= 3 && is(ci - 3, ".")))
      device = true;
    if (ci >= 2 && (is(ci - 1, "==") || is(ci - 1, "!=")) &&
        (is(ci - 2, "type") || (tok(ci - 2).kind == Kind::Name && device_name(text(ci - 2)))))
      device = true;
    if (!device) return;
    edit_bytes(body, body + 4, "npu", t,
               "device '" + std::string(p.body) + "' → '" + "npu" + std::string(p.body.substr(4)) + "'");
  }

  void add_import() {
    for (std::size_t ci = 0; ci < code_.size(); ++ci)
      if (is(ci, "torch_npu")) return;  // already imported (or used): nothing to add
    for (std::size_t ci = 0; ci < code_.size(); ++ci) {
      const bool import_torch = is(ci, "import") && is(ci + 1, "torch") && (ci == 0 || tok(ci - 1).line != tok(ci).line);
      const bool from_torch = is(ci, "from") && is(ci + 1, "torch") && (ci == 0 || tok(ci - 1).line != tok(ci).line);
      if (!import_torch && !from_torch) continue;
      // End of this logical line: the first depth-0 newline after the statement's start.
      std::size_t i = code_[ci];
      while (i < toks_.size() && !(toks_[i].kind == Kind::Newline && toks_[i].depth == 0)) ++i;
      const Token& first = tok(ci);
      std::uint32_t line_begin = first.begin;
      while (line_begin > 0 && src_[line_begin - 1] != '\n') --line_begin;
      const std::string indent(src_.substr(line_begin, first.begin - line_begin));
      if (i < toks_.size()) edit_bytes(toks_[i].end, toks_[i].end, indent + "import torch_npu\n", first, "import torch_npu added");
      else edit_bytes(static_cast<std::uint32_t>(src_.size()), static_cast<std::uint32_t>(src_.size()),
                      "\n" + indent + "import torch_npu", first, "import torch_npu added");
      return;
    }
  }

  FileMigration& f_;
  std::string_view src_;
  std::vector<Token> toks_;
  std::vector<std::size_t> code_;
  std::set<std::uint32_t> excluded_lines_;
  std::set<std::uint32_t> apex_lines_;
  std::size_t changes_ = 0;
  bool precision_done_ = false;
};

}  // namespace

void migrate_python(FileMigration& file) { Pass(file).run(); }

}  // namespace ferry::targets::torch_npu
