// The torch_npu migration of one Python file. Every rewrite is a token edit found by its context:
//   torch.cuda.X            → torch.npu.X (graphs: torch.npu.NPUGraph / torch.npu.graph, FRY4652)
//   from torch.cuda.X import → from torch_npu.npu.X import
//   x.cuda(...)             → x.npu(...);   x.is_cuda → x.is_npu
//   'cuda' / 'cuda:N'       → 'npu' / 'npu:N' only in device contexts: torch.device(...), .to(...),
//                             autocast/GradScaler(...), device=/device_type=/map_location=/... , and
//                             comparisons with x.device / x.type
//   'nccl'                  → 'hccl' where the string is provably the distributed backend (a
//                             backend= argument, init_process_group('nccl'), or a string that
//                             string_roles.h follows there: argparse defaults and choices,
//                             assignments, comparisons); any other 'nccl' gets FRY4655
//   'cuda' device strings   the same flow decides for names not in a device context above
//   dist.is_nccl_available  → dist.is_hccl_available; dist.Backend.NCCL → dist.Backend.HCCL
//   'CUDA_VISIBLE_DEVICES'  → 'ASCEND_RT_VISIBLE_DEVICES'; NCCL process-group variables →
//                             torch_npu's HCCL twins; other NCCL_* names: FRY4657
//   import torch_npu        inserted after the first torch import of a file that changed
// Each change is listed as a FRY4650 note; what has no NPU equivalent gets FRY1650/FRY1651, what to
// review FRY4651-FRY4654.
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "lex/python_lexer.h"
#include "targets/torch_npu/string_roles.h"
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
    roles_ = find_string_roles(src_, toks_, code_);
    dist_imports();
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
      else if (is(ci + 2, "backends") && is(ci + 3, ".") && (is(ci + 4, "cudnn") || is(ci + 4, "cuda"))) backends(ci);
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
    if (n == "is_nccl_available") {
      // torch_npu adds torch.distributed.is_hccl_available.
      const bool qualified = after_dot && ci >= 2 && distributed_module_ending_at(ci - 2);
      const bool imported = !after_dot && nccl_available_imported_;
      if (qualified || imported) edit(ci, "is_hccl_available", "is_nccl_available → is_hccl_available");
      else
        note(Diag::NpuBackendUnproven, ci,
             "is_nccl_available of a module Ferry cannot tell is torch.distributed; left unchanged",
             "on NPUs call torch.distributed.is_hccl_available() (torch_npu adds it)");
      return;
    }
    if (n == "NCCL" && after_dot && ci >= 2 && is(ci - 2, "Backend")) {
      edit(ci, "HCCL", "Backend.NCCL → Backend.HCCL");
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
    static const std::set<std::string_view> kNone = {"nvtx", "jiterator", "nccl", "cudart", "_sleep", "comm"};
    if (ci > 0 && is(ci - 1, "from")) {  // from torch.cuda[.amp] import X
      // `from torch.cuda import nccl` / `from torch.cuda.nccl import ...`: nothing to import on NPU.
      std::size_t i = cuda + 1;
      std::string_view none;
      for (; i < code_.size() && tok(i).line == tok(ci).line; ++i)
        if (kNone.count(text(i)) && (is(i - 1, ".") || is(i - 1, "import") || is(i - 1, ","))) none = text(i);
      if (!none.empty()) {
        note(Diag::NpuNoEquivalent, cuda, "torch.cuda." + std::string(none) + " has no NPU equivalent; left unchanged",
             none_hint(none));
        return;
      }
      edit_bytes(tok(ci).begin, t.end, "torch_npu.npu", tok(ci), "from torch.cuda → from torch_npu.npu");
      return;
    }
    const std::string_view attr = is(cuda + 1, ".") ? text(cuda + 2) : std::string_view();
    if (kNone.count(attr)) {
      note(Diag::NpuNoEquivalent, cuda + 2,
           "torch.cuda." + std::string(attr) + " has no NPU equivalent; left unchanged", none_hint(attr));
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
    edit(cuda, "npu",
         "torch.cuda" + (attr.empty() ? std::string() : "." + std::string(attr)) + " → torch.npu" +
             (attr.empty() ? std::string() : "." + std::string(attr)));
  }

  static std::string none_hint(std::string_view attr) {
    if (attr == "nvtx") return "use torch_npu's profiler (torch_npu.profiler) ranges instead of NVTX markers";
    if (attr == "nccl")
      return "torch.cuda.nccl (NCCL's version and raw collectives) has no NPU twin: use torch.distributed with the "
             "hccl backend, and test for it with torch.distributed.is_hccl_available()";
    return "remove this use or guard it with torch.cuda.is_available()";
  }

  // `import torch.distributed as X`, `from torch import distributed as X`,
  // `from torch.distributed import ..., is_nccl_available`.
  void dist_imports() {
    for (std::size_t ci = 0; ci + 3 < code_.size(); ++ci) {
      if (is(ci, "import") && is(ci + 1, "torch") && is(ci + 2, ".") && is(ci + 3, "distributed") && is(ci + 4, "as"))
        dist_aliases_.insert(std::string(text(ci + 5)));
      else if (is(ci, "from") && is(ci + 1, "torch") && is(ci + 2, "import") && is(ci + 3, "distributed") &&
               is(ci + 4, "as"))
        dist_aliases_.insert(std::string(text(ci + 5)));
      else if (is(ci, "from") && is(ci + 1, "torch") && is(ci + 2, ".") && is(ci + 3, "distributed") &&
               is(ci + 4, "import"))
        for (std::size_t i = ci + 5; i < code_.size() && tok(i).line == tok(ci).line; ++i)
          if (is(i, "is_nccl_available")) nccl_available_imported_ = true;
    }
  }
  // `torch.distributed` or an alias of it ends at `ci`.
  bool distributed_module_ending_at(std::size_t ci) const {
    if (is(ci, "distributed") && ci >= 2 && is(ci - 1, ".") && is(ci - 2, "torch")) return true;
    return tok(ci).kind == Kind::Name && dist_aliases_.count(std::string(text(ci))) && (ci == 0 || !is(ci - 1, "."));
  }

  void backends(std::size_t ci) {
    const std::string_view which = text(ci + 4);
    std::string setting;
    for (std::size_t i = ci + 5; i + 1 < code_.size() && is(i, "."); i += 2) setting += "." + std::string(text(i + 1));
    const std::string full = "torch.backends." + std::string(which) + setting;
    std::string hint;
    if (which == "cuda")
      hint =
          "the NPU switch for reduced-precision fp32 matmuls is torch.npu.matmul.allow_hf32 (and "
          "torch.npu.conv.allow_hf32); set it if you relied on TF32";
    else if (setting == ".benchmark")
      hint = "NPU operators are selected by CANN, not by cuDNN autotuning: drop it (no effect on NPU)";
    else if (setting == ".deterministic")
      hint = "use torch.use_deterministic_algorithms(True) for reproducible results on NPU";
    else if (setting == ".allow_tf32") hint = "the NPU twin is torch.npu.conv.allow_hf32";
    else hint = "cuDNN does not exist on NPU: this setting has no effect there";
    note(Diag::NpuBackendSetting, ci, full + " configures cuDNN/CUDA, which the NPU does not use; left unchanged",
         hint);
  }

  void ddp(std::size_t ci) {
    int depth = 0;
    for (std::size_t i = ci + 1; i < code_.size(); ++i) {
      if (is(i, "(") || is(i, "[") || is(i, "{")) ++depth;
      else if (is(i, ")") || is(i, "]") || is(i, "}")) {
        if (--depth == 0) return;
      } else if (depth == 1 && is(i + 1, "=") &&
                 (is(i, "device_ids") || is(i, "output_device") || is(i, "device_id"))) {
        note(Diag::NpuDdpDeviceIds, i, std::string(text(ci)) + "'s " + std::string(text(i)) + " now index NPUs",
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
      hint =
          "apex fused optimizers are CUDA kernels: use torch.optim.AdamW/SGD, or torch_npu's fused "
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
    if (p.body.rfind("NCCL_", 0) == 0 || p.body.rfind("TORCH_NCCL_", 0) == 0) {
      env_var(ci, body, p.body);
      return;
    }
    const bool assigned = ci >= 2 && is(ci - 1, "=") && tok(ci - 2).kind == Kind::Name;
    const std::string_view first_arg_of = call_of_first_arg(ci);
    if (is_backend_spec(p.body)) {
      if ((assigned && text(ci - 2) == "backend") || first_arg_of == "init_process_group" || roles_.backend.count(ci)) {
        std::string to(p.body);
        for (std::size_t at; (at = to.find("cuda:nccl")) != std::string::npos;) to.replace(at, 9, "npu:hccl");
        for (std::size_t at; (at = to.find("nccl")) != std::string::npos;) to.replace(at, 4, "hccl");
        edit_bytes(body, body + static_cast<std::uint32_t>(p.body.size()), to, t,
                   "backend '" + std::string(p.body) + "' → '" + to + "'");
      } else {
        note(Diag::NpuBackendUnproven, ci,
             "'" + std::string(p.body) +
                 "' is not provably the distributed backend here (no path from this string to "
                 "init_process_group's backend); left unchanged",
             "if it selects the process-group backend on NPUs, make it 'hccl' (HCCL is the NPU collective library)");
      }
      return;
    }
    if (p.body != "cuda" && p.body.rfind("cuda:", 0) != 0) return;
    bool device = roles_.device.count(ci) > 0;
    if (assigned && is_device_name(text(ci - 2))) device = true;
    if (first_arg_of == "device" || first_arg_of == "autocast" || first_arg_of == "GradScaler" ||
        (first_arg_of == "to" && ci >= 3 && is(ci - 3, ".")))
      device = true;
    if (ci >= 2 && (is(ci - 1, "==") || is(ci - 1, "!=")) &&
        (is(ci - 2, "type") || (tok(ci - 2).kind == Kind::Name && is_device_name(text(ci - 2)))))
      device = true;
    if (!device) {
      if (!looks_like_device(p.body)) return;  // a regex like 'cuda:[0-9]+': text about devices
      note(Diag::NpuDeviceUnproven, ci,
           "'" + std::string(p.body) +
               "' is not provably a device here (it does not reach torch.device, .to(), a "
               "device= argument or a device variable in this file); left unchanged",
           "if it names the accelerator, make it 'npu'" + std::string(p.body.substr(4)));
      return;
    }
    edit_bytes(body, body + 4, "npu", t,
               "device '" + std::string(p.body) + "' → '" + "npu" + std::string(p.body.substr(4)) + "'");
  }

  // 'cuda', 'cuda:0', 'cuda:{rank}'.
  static bool looks_like_device(std::string_view b) {
    if (b == "cuda") return true;
    if (b.rfind("cuda:", 0) != 0 || b.size() == 5) return false;
    const std::string_view rest = b.substr(5);
    if (rest.front() == '{') return rest.back() == '}' && rest.find('}') == rest.size() - 1;
    for (char c : rest)
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
  }

  // 'nccl', or a per-device backend list such as 'cpu:gloo,cuda:nccl'.
  static bool is_backend_spec(std::string_view b) {
    if (b == "nccl") return true;
    if (b.find("nccl") == std::string_view::npos || b.find(':') == std::string_view::npos) return false;
    for (char c : b)
      if (!(std::islower(static_cast<unsigned char>(c)) || c == ':' || c == ',')) return false;
    return true;
  }

  // NCCL process-group variables whose torch_npu twin ProcessGroupHCCL / OptionsManager reads, and
  // HCCL's own NIC selection; the rest have no HCCL meaning (FRY4657).
  void env_var(std::size_t ci, std::uint32_t body, std::string_view name) {
    static const std::pair<std::string_view, std::string_view> kTwins[] = {
        {"NCCL_SOCKET_IFNAME", "HCCL_SOCKET_IFNAME"},
        {"NCCL_ASYNC_ERROR_HANDLING", "HCCL_ASYNC_ERROR_HANDLING"},
        {"TORCH_NCCL_ASYNC_ERROR_HANDLING", "TORCH_HCCL_ASYNC_ERROR_HANDLING"},
        {"NCCL_BLOCKING_WAIT", "HCCL_BLOCKING_WAIT"},
        {"TORCH_NCCL_BLOCKING_WAIT", "TORCH_HCCL_BLOCKING_WAIT"},
        {"NCCL_DESYNC_DEBUG", "HCCL_DESYNC_DEBUG"},
        {"TORCH_NCCL_DESYNC_DEBUG", "TORCH_HCCL_DESYNC_DEBUG"},
        {"TORCH_NCCL_DUMP_ON_TIMEOUT", "TORCH_HCCL_DUMP_ON_TIMEOUT"},
        {"TORCH_NCCL_ENABLE_MONITORING", "TORCH_HCCL_ENABLE_MONITORING"},
        {"TORCH_NCCL_TRACE_BUFFER_SIZE", "TORCH_HCCL_TRACE_BUFFER_SIZE"},
        {"TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC", "TORCH_HCCL_HEARTBEAT_TIMEOUT_SEC"}};
    for (const auto& [from, to] : kTwins)
      if (name == from) {
        edit_bytes(body, body + static_cast<std::uint32_t>(name.size()), std::string(to), tok(ci),
                   std::string(from) + " → " + std::string(to));
        return;
      }
    note(Diag::NpuNcclEnvVar, ci, "HCCL does not read " + std::string(name) + "; left unchanged",
         "HCCL has its own variables (HCCL_CONNECT_TIMEOUT, HCCL_EXEC_TIMEOUT, HCCL_SOCKET_IFNAME, HCCL_IF_IP; "
         "see the HCCL environment variable reference): drop it or set the HCCL one");
  }

  void add_import() {
    for (std::size_t ci = 0; ci < code_.size(); ++ci)
      if (is(ci, "torch_npu")) return;  // already imported (or used): nothing to add
    for (std::size_t ci = 0; ci < code_.size(); ++ci) {
      const bool import_torch =
          is(ci, "import") && is(ci + 1, "torch") && (ci == 0 || tok(ci - 1).line != tok(ci).line);
      const bool from_torch = is(ci, "from") && is(ci + 1, "torch") && (ci == 0 || tok(ci - 1).line != tok(ci).line);
      if (!import_torch && !from_torch) continue;
      // End of this logical line: the first depth-0 newline after the statement's start.
      std::size_t i = code_[ci];
      while (i < toks_.size() && !(toks_[i].kind == Kind::Newline && toks_[i].depth == 0)) ++i;
      const Token& first = tok(ci);
      std::uint32_t line_begin = first.begin;
      while (line_begin > 0 && src_[line_begin - 1] != '\n') --line_begin;
      const std::string indent(src_.substr(line_begin, first.begin - line_begin));
      if (i < toks_.size())
        edit_bytes(toks_[i].end, toks_[i].end, indent + "import torch_npu\n", first, "import torch_npu added");
      else
        edit_bytes(static_cast<std::uint32_t>(src_.size()), static_cast<std::uint32_t>(src_.size()),
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
  StringRoles roles_;
  std::set<std::string> dist_aliases_;
  bool nccl_available_imported_ = false;
  std::size_t changes_ = 0;
  bool precision_done_ = false;
};

}  // namespace

void migrate_python(FileMigration& file) { Pass(file).run(); }

}  // namespace ferry::targets::torch_npu
