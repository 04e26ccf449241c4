#include "diffrun/launch_bisect.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>
#include <type_traits>

#include <fmt/format.h>

#include "diffrun/suite.h"

namespace ferry::diffrun {
namespace fs = std::filesystem;

namespace {

std::string one_line(std::string s, std::size_t max = 300) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\t', ' ');
  return s.size() > max ? s.substr(0, max) + "..." : s;
}

bool read_file(const fs::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

// Within the tolerances. A subnormal value (an integer read as a float is one) must match exactly.
template <class T>
bool close_enough(T x, T y, const Tolerance& tol) {
  if (std::memcmp(&x, &y, sizeof(T)) == 0) return true;
  if (std::isnan(x) || std::isnan(y)) return tol.nan_equal && std::isnan(x) && std::isnan(y);
  if (std::fpclassify(x) == FP_SUBNORMAL || std::fpclassify(y) == FP_SUBNORMAL) return false;
  const double a = static_cast<double>(x), b = static_cast<double>(y);
  return std::fabs(a - b) <= tol.atol + tol.rtol * std::max(std::fabs(a), std::fabs(b));
}

// Index of the first element of T that differs beyond the tolerance, -1 when none; counts them.
template <class T>
long first_difference(const std::string& a, const std::string& b, const Tolerance& tol, std::size_t& count) {
  count = 0;
  long first = -1;
  const std::size_t n = a.size() / sizeof(T);
  for (std::size_t i = 0; i < n; ++i) {
    T x, y;
    std::memcpy(&x, a.data() + i * sizeof(T), sizeof(T));
    std::memcpy(&y, b.data() + i * sizeof(T), sizeof(T));
    if (close_enough(x, y, tol)) continue;
    if (first < 0) first = static_cast<long>(i);
    ++count;
  }
  return first;
}

// The share of a buffer's values that look like values of T (zero, or normal between 1e-30 and
// 1e30): a double buffer read as floats has random low words, a float buffer read as doubles does not.
template <class T>
double plausible_share(const std::string& a) {
  const std::size_t n = a.size() / sizeof(T);
  std::size_t good = 0;
  for (std::size_t i = 0; i < n; ++i) {
    T x;
    std::memcpy(&x, a.data() + i * sizeof(T), sizeof(T));
    const double v = std::fabs(static_cast<double>(x));
    good += x == 0 || (std::isnormal(x) && v > 1e-30 && v < 1e30);
  }
  return n ? static_cast<double>(good) / static_cast<double>(n) : 1.0;
}

// The buffer's hash after the launch: its `out` entry when the launch changed it, else its `in`.
std::uint64_t after(const TraceLaunch& l, std::uint64_t id, bool& known) {
  if (const auto o = l.out.find(id); o != l.out.end()) return known = true, o->second.hash;
  if (const auto i = l.in.find(id); i != l.in.end()) return known = true, i->second.hash;
  known = false;
  return 0;
}

template <class T>
std::string describe_difference(std::uint64_t id, const std::string& a, const std::string& b, const Tolerance& tol,
                                const char* type) {
  std::size_t count = 0;
  const long f = first_difference<T>(a, b, tol, count);
  if (f < 0) return {};
  T x, y;
  std::memcpy(&x, a.data() + f * static_cast<long>(sizeof(T)), sizeof(T));
  std::memcpy(&y, b.data() + f * static_cast<long>(sizeof(T)), sizeof(T));
  std::string xs = fmt::format("{:g}", static_cast<double>(x)), ys = fmt::format("{:g}", static_cast<double>(y));
  if (std::fpclassify(x) == FP_SUBNORMAL || std::fpclassify(y) == FP_SUBNORMAL) {
    // Integers, most likely: shown as such.
    using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    I p, q;
    std::memcpy(&p, &x, sizeof(T));
    std::memcpy(&q, &y, sizeof(T));
    xs = std::to_string(p);
    ys = std::to_string(q);
    type = sizeof(T) == 4 ? "int32" : "int64";
  }
  return fmt::format(
      "buffer {} ({} bytes, read as {}): {} of {} values differ, first at [{}]: {} (reference) vs {} "
      "(port)",
      id, a.size(), type, count, a.size() / sizeof(T), f, xs, ys);
}

std::string compare_buffers(std::uint64_t id, const std::string& a, const std::string& b, const Tolerance& tol) {
  if (a.size() != b.size()) return fmt::format("buffer {}: {} bytes (reference) vs {} (port)", id, a.size(), b.size());
  if (a == b) return {};
  // Floats, unless the buffer reads better as doubles; integers (implausible either way) by 4 bytes.
  if (a.size() % 4 == 0 && (a.size() % 8 != 0 || plausible_share<float>(a) >= 0.9 ||
                            plausible_share<float>(a) >= plausible_share<double>(a)))
    return describe_difference<float>(id, a, b, tol, "float");
  if (a.size() % 8 == 0) return describe_difference<double>(id, a, b, tol, "double");
  std::size_t at = 0;
  while (at < a.size() && a[at] == b[at]) ++at;
  return fmt::format("buffer {} ({} bytes): bytes differ from offset {}", id, a.size(), at);
}

// Strips comments and string literals to spaces (lines kept), for the definition search.
std::string code_only(const std::string& s) {
  std::string o = s;
  for (std::size_t i = 0; i < o.size(); ++i) {
    if (o[i] == '/' && i + 1 < o.size() && o[i + 1] == '/') {
      while (i < o.size() && o[i] != '\n') o[i++] = ' ';
    } else if (o[i] == '/' && i + 1 < o.size() && o[i + 1] == '*') {
      const std::size_t e = o.find("*/", i + 2);
      const std::size_t stop = e == std::string::npos ? o.size() : e + 2;
      for (; i < stop; ++i)
        if (o[i] != '\n') o[i] = ' ';
      --i;
    } else if (o[i] == '"' || o[i] == '\'') {
      const char q = o[i];
      for (++i; i < o.size() && o[i] != q && o[i] != '\n'; ++i) {
        if (o[i] == '\\' && i + 1 < o.size()) o[i++] = ' ';
        o[i] = ' ';
      }
    }
  }
  return o;
}

int line_of(const std::string& s, std::size_t pos) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<long>(pos), '\n'));
}

std::string verdict_of(const Spec& spec, const std::string& port_run, std::string& first) {
  Spec v = spec;
  v.ref.build.clear();
  v.port.build.clear();
  v.port.run = port_run;
  const Outcome o = run_diff(v);
  first = one_line(summarize(v, o));
  return o.verdict;
}

}  // namespace

std::vector<TraceLaunch> read_trace(const fs::path& dir) {
  std::vector<TraceLaunch> out;
  std::ifstream in(dir / "trace.txt");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string kind;
    f >> kind;
    if (kind == "launch") {
      TraceLaunch l;
      f >> l.index;
      std::getline(f, l.name);
      l.name.erase(0, l.name.find_first_not_of(' '));
      out.push_back(std::move(l));
    } else if (out.empty()) {
      continue;
    } else if (kind == "in" || kind == "out") {
      TraceBuffer b;
      std::string hash;
      f >> b.id >> b.size >> hash;
      b.hash = std::strtoull(hash.c_str(), nullptr, 16);
      if (kind == "out") {
        f >> b.file;
        if (b.file == "-") b.file.clear();
        out.back().out[b.id] = b;
      } else {
        out.back().in[b.id] = b;
      }
    } else if (kind == "replaced") {
      out.back().replaced = true;
    }
  }
  return out;
}

std::string kernel_identifier(const std::string& spelled) {
  std::string s = spelled;
  const std::string wrap = "HIP_KERNEL_NAME(";
  if (s.rfind(wrap, 0) == 0 && s.ends_with(")")) s = s.substr(wrap.size(), s.size() - wrap.size() - 1);
  if (const std::size_t lt = s.find('<'); lt != std::string::npos) s = s.substr(0, lt);
  s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ' ' || c == '(' || c == ')' || c == '&'; }),
          s.end());
  if (const std::size_t colons = s.rfind("::"); colons != std::string::npos) s = s.substr(colons + 2);
  return s;
}

std::string compare_launch_outputs(const TraceLaunch& ref, const fs::path& ref_dir, const TraceLaunch& port,
                                   const fs::path& port_dir, const Tolerance& tol) {
  std::vector<std::uint64_t> ids;
  for (const auto& [id, b] : ref.out) ids.push_back(id);
  for (const auto& [id, b] : port.out)
    if (!ref.out.count(id)) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  for (const std::uint64_t id : ids) {
    bool rk = false, pk = false;
    const std::uint64_t rh = after(ref, id, rk), ph = after(port, id, pk);
    if (!rk || !pk) return fmt::format("buffer {} exists on one side only (allocated in another order?)", id);
    if (rh == ph) continue;
    const auto ro = ref.out.find(id), po = port.out.find(id);
    if (ro == ref.out.end() || po == port.out.end())
      return fmt::format("buffer {}: changed by the {} only", id, ro == ref.out.end() ? "port" : "reference");
    if (ro->second.file.empty() || po->second.file.empty())
      return fmt::format("buffer {} ({} bytes): contents differ (too large to compare by value)", id, ro->second.size);
    std::string a, b;
    if (!read_file(ref_dir / ro->second.file, a) || !read_file(port_dir / po->second.file, b))
      return fmt::format("buffer {}: its contents could not be read", id);
    if (std::string why = compare_buffers(id, a, b, tol); !why.empty()) return why;
  }
  return {};
}

KernelSite find_kernel(const fs::path& port_dir, const std::string& kernel) {
  KernelSite site;
  if (kernel.empty()) return site;
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(port_dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string n = it->path().filename().string();
    if (it->is_directory(ec) && (n == ".ferry" || n.ends_with(".ferry-bisect"))) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string ext = it->path().extension().string();
    if (it->is_regular_file(ec) && (ext == ".cu" || ext == ".hip" || ext == ".cuh" || ext == ".h" || ext == ".hpp" ||
                                    ext == ".cpp" || ext == ".cc" || ext == ".inl"))
      files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  // `__global__` ... NAME ( ... ) {  (attributes, return type and template heads between)
  const std::regex def("__global__[^;{}]*?\\b" + kernel + "\\s*\\(");
  for (const fs::path& f : files) {
    std::string text;
    if (!read_file(f, text)) continue;
    const std::string code = code_only(text);
    for (auto m = std::sregex_iterator(code.begin(), code.end(), def); m != std::sregex_iterator(); ++m) {
      const std::size_t name_at = static_cast<std::size_t>(m->position(0) + m->length(0));
      // The body: the first `{` after the parameter list, to its matching `}`.
      std::size_t depth = 1, i = name_at;
      for (; i < code.size() && depth > 0; ++i) depth += code[i] == '(' ? 1 : code[i] == ')' ? -1 : 0;
      const std::size_t open = code.find_first_of("{;", i);
      if (open == std::string::npos || code[open] == ';') continue;  // a declaration
      int braces = 0;
      std::size_t close = open;
      for (; close < code.size(); ++close) {
        if (code[close] == '{') ++braces;
        else if (code[close] == '}' && --braces == 0) break;
      }
      site.file = fs::relative(f, port_dir, ec).generic_string();
      site.line = line_of(code, static_cast<std::size_t>(m->position(0)));
      site.end_line = line_of(code, std::min(close, code.size() - 1));
      return site;
    }
  }
  return site;
}

LaunchBisect bisect_launches(const Spec& spec, const LaunchBisectOptions& o,
                             const std::function<void(const std::string&)>& log) {
  auto say = [&](const std::string& m) {
    if (log) log(m);
  };
  LaunchBisect r;
  const fs::path tref = o.work / "trace-ref", tport = o.work / "trace-port", trep = o.work / "trace-replaced",
                 tall = o.work / "trace-all";
  std::error_code ec;
  for (const fs::path& d : {tref, tport, trep, tall}) {
    fs::remove_all(d, ec);
    fs::create_directories(d, ec);
  }
  auto traced = [](const fs::path& dir, const std::string& run, const std::string& more = "") {
    return "W64_TRACE=" + shell_quote(dir.string()) + " " + more + run;
  };
  auto trace_side = [&](const Side& side, const fs::path& dir) {
    RunRequest q{traced(dir, side.run), side.dir, spec.stdin_file, spec.timeout_s};
    q.cpu_limit_s = spec.cpu_timeout_s;
    return run_command(q);
  };
  const RunResult rr = trace_side(spec.ref, tref);
  const RunResult pr = trace_side(spec.port, tport);
  const std::vector<TraceLaunch> ref = read_trace(tref), port = read_trace(tport);
  r.ref_launches = ref.size();
  r.port_launches = port.size();
  if (rr.timed_out || pr.timed_out) {
    r.error = "a traced run timed out (" + (rr.timed_out ? rr.status() : pr.status()) + ")";
  } else if (ref.empty() || port.empty()) {
    r.error =
        "no kernel launch was traced (a program built before the runtime's launch trace, or one without "
        "launches)";
  }
  if (!r.error.empty()) {
    r.conclusion = "launches not compared: " + r.error;
    return r;
  }
  say(fmt::format("bisect: traced {} launch(es) of the reference, {} of the port", ref.size(), port.size()));

  const std::size_t n = std::min(ref.size(), port.size());
  for (std::size_t i = 0; i < n && r.first < 0; ++i) {
    const std::string rk = kernel_identifier(ref[i].name), pk = kernel_identifier(port[i].name);
    if (rk != pk) {
      r.first = static_cast<long>(i);
      r.what = "the reference launches " + ref[i].name + ", the port " + port[i].name;
    } else if (std::string why = compare_launch_outputs(ref[i], tref, port[i], tport, spec.tol); !why.empty()) {
      r.first = static_cast<long>(i);
      r.what = why;
    }
  }
  if (r.first < 0 && ref.size() != port.size()) {
    r.first = static_cast<long>(n);
    r.what = fmt::format("the reference made {} launches, the port {}", ref.size(), port.size());
  }
  if (r.first < 0) {
    r.conclusion = fmt::format(
        "every launch's outputs are the same on both sides ({} launches): the difference is made outside the "
        "kernels' buffers (host code, __device__ variables, textures)",
        n);
    return r;
  }
  const std::size_t k = static_cast<std::size_t>(r.first);
  const TraceLaunch& at = k < port.size() ? port[k] : ref[k];
  r.kernel = at.name;
  if (k < ref.size() && k < port.size() && kernel_identifier(ref[k].name) != kernel_identifier(port[k].name))
    r.ref_kernel = ref[k].name;
  if (k < ref.size() && k < port.size()) {
    r.inputs_equal = ref[k].in.size() == port[k].in.size();
    for (const auto& [id, b] : ref[k].in) {
      const auto p = port[k].in.find(id);
      r.inputs_equal = r.inputs_equal && p != port[k].in.end() && p->second.hash == b.hash;
    }
  }
  say(fmt::format("bisect: launch {} ({}) is the first whose outputs differ: {}", k, r.kernel, r.what));

  // The port with that launch replaced by the original's, then with every launch replaced.
  if (k < ref.size() && k < port.size() && r.ref_kernel.empty()) {
    const std::string replay = "W64_TRACE_REPLAY=" + shell_quote(tref.string()) + " ";
    r.replaced_verdict =
        verdict_of(spec, traced(trep, spec.port.run, replay + "W64_TRACE_REPLACE=" + std::to_string(k) + " "),
                   r.replaced_first_difference);
    say("bisect: the port with launch " + std::to_string(k) + " replaced by the original's: " + r.replaced_verdict);
    if (r.replaced_verdict != "same") {
      std::string first;
      r.all_replaced_verdict = verdict_of(spec, traced(tall, spec.port.run, replay + "W64_TRACE_REPLACE=all "), first);
      say("bisect: the port with every launch replaced by the original's: " + r.all_replaced_verdict);
    }
  }

  // Where the kernel is, and what the migration changed or flagged inside it.
  r.site = find_kernel(o.port_dir, kernel_identifier(r.kernel));
  if (r.site.line > 0) {
    for (const BisectSite& s : o.fix_sites)
      if (s.file == r.site.file && s.line >= r.site.line && s.line <= r.site.end_line)
        r.notes.push_back(fmt::format("wave64 fix at {}:{}: `{}` (unfixed: `{}`){}", s.file, s.line,
                                      one_line(s.fixed, 120), one_line(s.unfixed, 120),
                                      s.verdict.empty() ? "" : "; without it: " + s.verdict));
    // The migration's report, in the port tree's root (a folder above the program's with .ferry/).
    for (fs::path d = o.port_dir; !d.empty(); d = d.parent_path()) {
      const fs::path report = d / ".ferry" / "report.json";
      if (fs::exists(report, ec)) {
        std::string text;
        const std::string rel = fs::relative(o.port_dir / r.site.file, d, ec).generic_string();
        if (read_file(report, text)) {
          const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
          if (j.is_object() && j.contains("diagnostics") && j["diagnostics"].is_array())
            for (const nlohmann::json& g : j["diagnostics"]) {
              const std::string code = g.value("code", "");
              const int line = g.value("line", 0);
              if (g.value("file", "") == rel && code.rfind("FRY2", 0) == 0 && line >= r.site.line &&
                  line <= r.site.end_line)
                r.notes.push_back(
                    fmt::format("{} at {}:{}: {}", code, r.site.file, line, one_line(g.value("message", ""), 200)));
            }
        }
        break;
      }
      if (d == d.parent_path()) break;
    }
  }

  const std::string where =
      r.site.line > 0 ? fmt::format(" ({}:{})", r.site.file, r.site.line) : std::string(" (definition not found)");
  std::string c =
      fmt::format("the first kernel whose outputs differ is launch {}, {}{}", k, kernel_identifier(r.kernel), where);
  if (!r.ref_kernel.empty()) c += ": the reference launched " + r.ref_kernel + " there (host code diverged)";
  else if (!r.inputs_equal) c += ", but its inputs already differed (host code wrote them differently)";
  if (r.replaced_verdict == "same")
    c += "; with that launch replaced by the original's, the port computes what the reference does";
  else if (r.all_replaced_verdict == "same")
    c += "; replacing it alone is not enough, but with every launch replaced by the original's the port computes "
         "what the reference does (later kernels differ too)";
  else if (!r.all_replaced_verdict.empty())
    c += "; even with every launch replaced by the original's the port differs (" + r.all_replaced_verdict +
         "): the host code or memory the trace does not see differs too";
  r.conclusion = c;
  return r;
}

nlohmann::json to_json(const LaunchBisect& b) {
  nlohmann::json j = {
      {"ref_launches", b.ref_launches}, {"port_launches", b.port_launches}, {"conclusion", b.conclusion}};
  if (!b.error.empty()) j["error"] = b.error;
  if (b.first >= 0) {
    j["first"] = b.first;
    j["kernel"] = b.kernel;
    if (!b.ref_kernel.empty()) j["ref_kernel"] = b.ref_kernel;
    j["inputs_equal"] = b.inputs_equal;
    j["what"] = b.what;
    j["replaced_verdict"] = b.replaced_verdict;
    j["replaced_first_difference"] = b.replaced_first_difference;
    if (!b.all_replaced_verdict.empty()) j["all_replaced_verdict"] = b.all_replaced_verdict;
    if (b.site.line > 0) j["site"] = {{"file", b.site.file}, {"line", b.site.line}, {"end_line", b.site.end_line}};
    j["notes"] = b.notes;
  }
  return j;
}

std::string to_text(const LaunchBisect& b) {
  std::string t;
  if (b.first >= 0) {
    t += fmt::format("bisect: launches traced: {} (reference), {} (port); launch {} ({}) differs first: {}\n",
                     b.ref_launches, b.port_launches, b.first, b.kernel, b.what);
    if (!b.replaced_verdict.empty())
      t += "  the port with launch " + std::to_string(b.first) + " replaced by the original's: " + b.replaced_verdict +
           "\n";
    if (!b.all_replaced_verdict.empty())
      t += "  the port with every launch replaced by the original's: " + b.all_replaced_verdict + "\n";
    for (const std::string& n : b.notes) t += "  in the kernel: " + n + "\n";
  }
  t += "bisect: " + b.conclusion + "\n";
  return t;
}

}  // namespace ferry::diffrun
