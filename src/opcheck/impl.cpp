#include "opcheck/impl.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/diagnostic.h"
#include "opcheck/ferry_opcheck.h"

extern char** environ;

namespace ferry::opcheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// " [FRY9302]": an implementation that cannot be loaded or started.
std::string unavailable() { return " [" + std::string(to_string(Diag::OpcheckImplUnavailable)) + "]"; }

// ---- shared libraries ---------------------------------------------------------------------

struct Library {
  void* handle = nullptr;
  std::string error;  // why it could not be loaded
};

ImplResult run_library(Library& lib, const ImplSpec& impl, const CaseData& c) {
  ImplResult r;
  if (!lib.handle) {
    r.message = lib.error;
    return r;
  }
  dlerror();
  void* sym = dlsym(lib.handle, impl.symbol.c_str());
  if (!sym) {
    const char* e = dlerror();
    r.message =
        impl.library + " has no symbol '" + impl.symbol + "'" + (e ? std::string(" (") + e + ")" : "") + unavailable();
    return r;
  }
  const auto fn = reinterpret_cast<ferry_opcheck_fn>(sym);
  std::vector<ferry_tensor> ins, outs;
  r.outputs = c.outputs;
  auto view = [](const HostTensor& t, void* data) {
    ferry_tensor v{};
    v.name = t.name.c_str();
    v.dtype = static_cast<ferry_dtype>(abi_code(t.dtype));
    v.ndim = static_cast<int>(t.shape.size());
    for (std::size_t i = 0; i < t.shape.size(); ++i) v.shape[i] = t.shape[i];
    v.numel = t.numel();
    v.data = data;
    return v;
  };
  std::vector<HostTensor> inputs = c.inputs;  // a copy: an entry point that writes its inputs harms no one else
  for (HostTensor& t : inputs) ins.push_back(view(t, t.bytes.data()));
  for (HostTensor& t : r.outputs) outs.push_back(view(t, t.bytes.data()));
  std::vector<ferry_attr> attrs;
  for (const auto& [k, v] : c.attrs) attrs.push_back({k.c_str(), v});
  const int repeats = c.op->repeats;
  std::vector<double> times(static_cast<std::size_t>(repeats), -1.0);
  ferry_opcheck_call call{};
  call.abi_version = FERRY_OPCHECK_ABI_VERSION;
  call.op = c.op->name.c_str();
  call.dtype = static_cast<ferry_dtype>(abi_code(c.dtype));
  call.n_inputs = static_cast<int>(ins.size());
  call.inputs = ins.data();
  call.n_outputs = static_cast<int>(outs.size());
  call.outputs = outs.data();
  call.n_attrs = static_cast<int>(attrs.size());
  call.attrs = attrs.data();
  call.warmup = c.op->warmup;
  call.repeats = repeats;
  call.times_us = times.data();
  const int rc = fn(&call);
  call.error[sizeof(call.error) - 1] = '\0';
  if (rc == FERRY_OPCHECK_OK) r.status = ImplResult::Status::ok;
  else if (rc == FERRY_OPCHECK_UNSUPPORTED) r.status = ImplResult::Status::unsupported;
  else r.status = ImplResult::Status::error;
  r.message = call.error;
  if (rc != FERRY_OPCHECK_OK && rc != FERRY_OPCHECK_UNSUPPORTED && rc != FERRY_OPCHECK_ERROR)
    r.message = impl.symbol + " returned " + std::to_string(rc) + (r.message.empty() ? "" : ": " + r.message);
  r.times_us = std::move(times);
  return r;
}

// ---- the torch runner process ---------------------------------------------------------------

class TorchProcess {
 public:
  TorchProcess(const RunnerOptions& o, const fs::path& dir) : options_(o), dir_(dir) {}
  ~TorchProcess() { stop(); }

  // Starts the interpreter on the runner script; false with `error` set when it does not come up.
  bool start() {
    signal(SIGPIPE, SIG_IGN);  // a runner that died must be an error message, not the end of ferry
    const fs::path script = dir_ / "ferry_opcheck_torch_runner.py";
    std::ofstream(script, std::ios::binary) << torch_runner_source();
    log_ = dir_ / "torch_runner.log";
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return fail(std::string("pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addclose(&fa, to_child[1]);
    posix_spawn_file_actions_addclose(&fa, from_child[0]);
    const std::string py = options_.python, s = script.string();
    std::vector<char*> argv = {const_cast<char*>(py.c_str()), const_cast<char*>("-u"), const_cast<char*>(s.c_str()),
                               nullptr};
    const int rc = posix_spawnp(&pid_, py.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
    if (rc != 0) {
      pid_ = -1;
      return fail("cannot start '" + py + "': " + std::strerror(rc) + " (set --python or FERRY_PYTHON)");
    }
    json hello;
    if (!read_json(hello, 300)) return false;
    if (!hello.value("hello", false)) return fail("the runner did not start: " + hello.dump());
    info_ = hello;
    return true;
  }

  bool request(const json& req, json& resp) {
    const std::string line = req.dump() + "\n";
    std::size_t off = 0;
    while (off < line.size()) {
      const ssize_t w = write(in_, line.data() + off, line.size() - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return fail("the Python runner is gone (" + std::string(std::strerror(errno)) + ")" + log_tail());
      off += static_cast<std::size_t>(w);
    }
    return read_json(resp, options_.timeout_s);
  }

  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] const json& info() const { return info_; }

 private:
  bool fail(const std::string& e) {
    error_ = e;
    stop();
    return false;
  }

  std::string log_tail() const {
    std::ifstream in(log_);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    if (s.size() > 2000) s = "..." + s.substr(s.size() - 2000);
    return s.empty() ? "" : "; its stderr:\n" + s;
  }

  bool read_json(json& out, double timeout_s) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
      if (const std::size_t nl = buffer_.find('\n'); nl != std::string::npos) {
        const std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        try {
          out = json::parse(line);
          return true;
        } catch (const json::parse_error&) {
          continue;  // not ours (something the user's code printed): skip it
        }
      }
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0)
        return fail("the Python runner did not answer within " + std::to_string(static_cast<int>(timeout_s)) + " s");
      pollfd p{out_, POLLIN, 0};
      const int n = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) continue;
      char buf[65536];
      const ssize_t got = read(out_, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return fail("the Python runner exited" + log_tail());
      buffer_.append(buf, static_cast<std::size_t>(got));
    }
  }

  void stop() {
    if (in_ >= 0) close(in_), in_ = -1;
    if (out_ >= 0) close(out_), out_ = -1;
    if (pid_ > 0) {
      int st = 0;
      for (int i = 0; i < 50 && waitpid(pid_, &st, WNOHANG) == 0; ++i) usleep(20000);  // EOF ends it
      if (waitpid(pid_, &st, WNOHANG) == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &st, 0);
      }
      pid_ = -1;
    }
  }

  RunnerOptions options_;
  fs::path dir_, log_;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buffer_, error_;
  json info_;
};

void write_raw(const fs::path& p, const HostTensor& t) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(t.bytes.data()), static_cast<std::streamsize>(t.bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

bool read_raw(const fs::path& p, HostTensor& t) {
  std::ifstream f(p, std::ios::binary);
  f.read(reinterpret_cast<char*>(t.bytes.data()), static_cast<std::streamsize>(t.bytes.size()));
  return static_cast<std::size_t>(f.gcount()) == t.bytes.size();
}

}  // namespace

const char* status_name(ImplResult::Status s) {
  switch (s) {
    case ImplResult::Status::ok: return "ok";
    case ImplResult::Status::unsupported: return "unsupported";
    case ImplResult::Status::error: return "error";
  }
  return "?";
}

struct Runners::State {
  RunnerOptions options;
  fs::path dir;
  std::map<std::string, Library> libraries;
  std::unique_ptr<TorchProcess> torch;
  bool torch_failed = false;
  std::string torch_error;
  json torch_info = nullptr;
  std::uint64_t next_id = 0;

  ImplResult run_torch(const ImplSpec& impl, const CaseData& c) {
    ImplResult r;
    if (!torch && !torch_failed) {
      torch = std::make_unique<TorchProcess>(options, dir);
      if (!torch->start()) {
        torch_failed = true;
        torch_error = torch->error();
        torch.reset();
      } else {
        torch_info = torch->info();
      }
    }
    if (!torch) {
      r.message = "PyTorch runner unavailable: " + torch_error + unavailable();
      return r;
    }
    const std::string id = std::to_string(next_id++);
    json req = {{"code", impl.torch_code},
                {"setup", impl.torch_setup},
                {"device", impl.device},
                {"upcast", impl.upcast ? json(std::string(dtype_name(*impl.upcast))) : json(nullptr)},
                {"warmup", c.op->warmup},
                {"repeats", c.op->repeats},
                {"attrs", json::object()},
                {"ints", json::array()}};
    for (const auto& [k, v] : c.attrs) req["attrs"][k] = v;
    for (const auto& [k, v] : c.dims) req["ints"].push_back(k);
    std::vector<fs::path> files;
    for (const HostTensor& t : c.inputs) {
      const fs::path f = dir / ("in_" + id + "_" + t.name + ".bin");
      write_raw(f, t);
      files.push_back(f);
      req["inputs"].push_back(
          {{"name", t.name}, {"dtype", dtype_name(t.dtype)}, {"shape", t.shape}, {"file", f.string()}});
    }
    std::vector<bool> wanted;
    req["outputs"] = json::array();
    for (const HostTensor& t : c.outputs) {
      HostTensor o(t.name, is_float(t.dtype) ? DType::f64 : DType::i64, t.shape);
      const fs::path f = dir / ("out_" + id + "_" + t.name + ".bin");
      files.push_back(f);
      wanted.push_back(impl.outputs.empty() ||
                       std::find(impl.outputs.begin(), impl.outputs.end(), t.name) != impl.outputs.end());
      if (wanted.back())
        req["outputs"].push_back(
            {{"name", t.name}, {"dtype", dtype_name(o.dtype)}, {"shape", t.shape}, {"file", f.string()}});
      r.outputs.push_back(std::move(o));
    }
    json resp;
    const bool answered = torch->request(req, resp);
    if (!answered) {
      r.message = "PyTorch runner: " + torch->error() + unavailable();
      torch_failed = true;
      torch_error = torch->error();
      torch.reset();
    } else if (resp.value("status", "") == "ok") {
      r.status = ImplResult::Status::ok;
      r.times_us = resp.value("times_us", std::vector<double>{});
      for (std::size_t i = 0; i < r.outputs.size(); ++i)
        if (wanted[i] && !read_raw(files[c.inputs.size() + i], r.outputs[i])) {
          r.status = ImplResult::Status::error;
          r.message = "the runner wrote no complete output '" + r.outputs[i].name + "'";
        }
    } else {
      r.status =
          resp.value("status", "") == "unsupported" ? ImplResult::Status::unsupported : ImplResult::Status::error;
      r.message = resp.value("message", std::string("no message"));
    }
    for (const fs::path& f : files) {
      std::error_code ec;
      fs::remove(f, ec);
    }
    return r;
  }
};

Runners::Runners(RunnerOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
  std::string tmpl = (fs::temp_directory_path() / "ferry-opcheck-XXXXXX").string();
  if (!mkdtemp(tmpl.data()))
    throw std::runtime_error("cannot create a temporary folder: " + std::string(std::strerror(errno)));
  state_->dir = tmpl;
}

Runners::~Runners() {
  state_->torch.reset();
  for (auto& [path, lib] : state_->libraries)
    if (lib.handle) dlclose(lib.handle);
  std::error_code ec;
  fs::remove_all(state_->dir, ec);
}

const nlohmann::json& Runners::torch_info() const { return state_->torch_info; }

ImplResult Runners::run(const ImplSpec& impl, const CaseData& c) {
  if (impl.kind == ImplSpec::Kind::torch) return state_->run_torch(impl, c);
  auto [it, fresh] = state_->libraries.try_emplace(impl.library);
  if (fresh) {
    it->second.handle = dlopen(impl.library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!it->second.handle) {
      const char* e = dlerror();
      it->second.error = "cannot load " + impl.library + ": " + (e ? e : "unknown error") + unavailable();
    }
  }
  return run_library(it->second, impl, c);
}

}  // namespace ferry::opcheck
