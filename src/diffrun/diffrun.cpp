#include "diffrun/diffrun.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

namespace fs = std::filesystem;

namespace ferry::diffrun {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool read_file(const fs::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

std::string resolve(const fs::path& base, const std::string& p) {
  if (p.empty() || fs::path(p).is_absolute()) return p;
  return (base / p).lexically_normal().string();
}

struct FailPattern {
  const char* text;
  bool icase;
};

// Self-check reports of test programs (cuda-samples "Test FAILED" / "Result = FAIL", "Test
// failed!", "checksum mismatch", "wrong result", "the ans is wrong"...). Counts of zero are excluded by the caller.
constexpr FailPattern kFailPatterns[] = {
    {R"(\bFAIL(ED|URE|S)?\b)", false},
    {R"(\b(tests?|checks?|self-check|verification|validation|comparison|results?)\b.*\bfail(ed|s|ure)?\b)", true},
    {R"(\bmismatch(es|ed)?\b)", true},
    {R"(\bchecksums?\b.*\b(wrong|incorrect|differs?|does not match|doesn't match|not match))", true},
    {R"(\b(incorrect|wrong)\s+(results?|answers?|outputs?|values?|sums?)\b)", true},
    {R"(\bresults?\s*[:=]?\s*(incorrect|wrong|invalid)\b)", true},
    // "the ans is wrong" (How_to_optimize_in_GPU), "the answer is incorrect", "output was wrong"
    {R"(\b(ans|answers?|results?|outputs?|sums?|values?)\s+(is|are|was|were)\s+(wrong|incorrect)\b)", true},
};

const std::vector<std::regex>& default_fail_regexes() {
  static const std::vector<std::regex> r = [] {
    std::vector<std::regex> v;
    for (const FailPattern& p : kFailPatterns)
      v.emplace_back(p.text, p.icase ? std::regex::ECMAScript | std::regex::icase : std::regex::ECMAScript);
    return v;
  }();
  return r;
}

// "FAILED: 0", "mismatches = 0", "0 mismatches", "no mismatch": a count of none.
bool counts_none(const std::string& line, std::size_t begin, std::size_t end) {
  static const std::regex after(R"(^\s*[:=]?\s*0+(\.0+)?\b)");
  static const std::regex before(R"((^|\W)(0+|no|zero)\s+$)", std::regex::ECMAScript | std::regex::icase);
  return std::regex_search(line.substr(end), after) || std::regex_search(line.substr(0, begin), before);
}

// A DIFFERENT stdout with both sides exited 0: the reference once more, and the comparison with
// what its two runs do not repeat left out (Spec::rerun_reference).
void recheck_against_rerun(const Spec& spec, const CompareOptions& copt, const std::vector<std::regex>& fail_res,
                           Outcome& o, const std::function<void(const std::string&)>& say) {
  say(fmt::format("rerun reference (its output differs from the port's): {}", spec.ref.run));
  RunRequest rq{spec.ref.run, spec.ref.dir, spec.stdin_file, spec.timeout_s};
  rq.cpu_limit_s = spec.cpu_timeout_s;
  const RunResult again = run_command(rq);
  o.ref_rerun = true;
  o.ref_rerun_status = again.status();
  std::string failed = again.ok() ? "" : again.status();
  if (failed.empty() && spec.check_self_reports) {
    std::string line = find_self_reported_failure(again.out, fail_res, copt.ignore);
    if (line.empty()) line = find_self_reported_failure(again.err, fail_res, copt.ignore);
    if (!line.empty()) failed = "printed '" + line + "'";
  }
  if (!failed.empty()) {
    o.note = "the reference's second run failed (" + failed + "): nothing left out";
    return;
  }
  o.out = compare_with_rerun(o.ref.runs.front().out, again.out, o.port.runs.front().out, copt);
  o.note = describe_recheck(o.out);
  if (o.out.equal) o.verdict = "same";
}

}  // namespace

Unsupported unsupported_in_build(const std::string& text) {
  // `FILE:LINE[:COL]: error: MESSAGE [FRYnnnn]` as Diagnostic::format() prints it.
  static const std::regex kDiag(R"(^(.*?):(\d+)(?::\d+)?: error: (.*) \[(FRY9412|FRY9414|FRY5601|FRY9404)\]\s*$)");
  static const std::regex kLibrary(R"(the program uses (.+?) \(<)");
  static const std::regex kName(R"(`([^`]+)` is not (?:declared|modelled))");
  std::istringstream in(text);
  std::string line;
  std::smatch m, n;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, kDiag)) continue;
    Unsupported u;
    u.code = m[4].str();
    u.where = fs::path(m[1].str()).filename().string() + ":" + m[2].str();
    const std::string msg = m[3].str();
    if (u.code == "FRY9412" && std::regex_search(msg, n, kLibrary)) u.what = n[1].str();
    else if (u.code == "FRY9414" && std::regex_search(msg, n, kName)) u.what = n[1].str();
    else if (u.code == "FRY5601") u.what = "inline assembly";
    else if (u.code == "FRY9404") u.what = "cooperative-groups tile wider than the wavefront";
    if (!u.what.empty()) return u;
  }
  return {};
}

Unsupported unsupported_in_run(const std::string& err) {
  // The runtime's own stop: `wave64: error: ... [FRY9402]` (a launch sized for a GPU's throughput)
  // or `[FRY9403]` (device memory the host cannot back).
  std::istringstream in(err);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("wave64: error:")) continue;
    if (line.find("[FRY9402]") != std::string::npos) return {"work sized for a GPU", "at run time", "FRY9402"};
    if (line.find("[FRY9403]") != std::string::npos)
      return {"device memory the host cannot back", "at run time", "FRY9403"};
  }
  return {};
}

const std::vector<std::string>& default_fail_patterns() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> r;
    for (const FailPattern& p : kFailPatterns) r.push_back(std::string(p.text) + (p.icase ? " (any case)" : ""));
    return r;
  }();
  return v;
}

std::string find_self_reported_failure(const std::string& text, const std::vector<std::regex>& extra,
                                       const std::vector<std::regex>& ignore) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    bool skip = false;
    for (const std::regex& re : ignore) skip = skip || std::regex_search(line, re);
    if (skip) continue;
    for (const auto* set : {&default_fail_regexes(), &extra})
      for (const std::regex& re : *set) {
        std::smatch m;
        if (!std::regex_search(line, m, re)) continue;
        const auto b = static_cast<std::size_t>(m.position(0));
        if (set == &extra || !counts_none(line, b, b + static_cast<std::size_t>(m.length(0))))
          return line.size() > 160 ? line.substr(0, 160) + "..." : line;
      }
  }
  return {};
}

Spec load_spec(const std::string& path) {
  std::string text;
  if (!read_file(path, text)) throw std::invalid_argument(path + ": cannot read the spec file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::invalid_argument(path + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) throw std::invalid_argument(path + ": the spec must be a JSON object");
  const fs::path base = fs::absolute(path).parent_path();
  Spec s;
  try {
    for (const auto& [key, side] : {std::pair<const char*, Side*>{"ref", &s.ref}, {"port", &s.port}}) {
      if (!j.contains(key)) continue;
      const auto& o = j.at(key);
      side->build = o.value("build", "");
      side->run = o.value("run", "");
      side->dir = resolve(base, o.value("dir", "."));
    }
    s.files = j.value("files", std::vector<std::string>{});
    s.stdin_file = resolve(base, j.value("stdin", ""));
    s.compare_stdout = j.value("compare_stdout", true);
    s.ignore = j.value("ignore", std::vector<std::string>{});
    s.tol.rtol = j.value("rtol", s.tol.rtol);
    s.tol.atol = j.value("atol", s.tol.atol);
    s.tol.ulp = j.value("ulp", s.tol.ulp);
    s.tol.ulp_float = j.value("ulp_float", s.tol.ulp_float);
    s.tol.nan_equal = j.value("nan_equal", s.tol.nan_equal);
    s.max_report = j.value("max_report", s.max_report);
    s.runs = j.value("runs", s.runs);
    s.timeout_s = j.value("timeout", s.timeout_s);
    s.cpu_timeout_s = j.value("cpu_timeout", s.cpu_timeout_s);
    s.build_timeout_s = j.value("build_timeout", s.build_timeout_s);
    s.check_self_reports = j.value("check_self_reports", s.check_self_reports);
    s.fail_patterns = j.value("fail_patterns", s.fail_patterns);
    s.rerun_reference = j.value("rerun_reference", s.rerun_reference);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
  return s;
}

Outcome run_diff(const Spec& spec, const std::function<void(const std::string&)>& log) {
  if (spec.ref.run.empty() || spec.port.run.empty())
    throw std::invalid_argument("diffrun needs both a reference and a port command (--ref, --port)");
  if (spec.runs < 1) throw std::invalid_argument("--runs must be at least 1");
  for (const Side* s : {&spec.ref, &spec.port})
    if (std::error_code ec; !fs::is_directory(s->dir, ec))
      throw std::invalid_argument("working directory '" + s->dir + "' does not exist");
  if (!spec.stdin_file.empty() && !fs::exists(spec.stdin_file))
    throw std::invalid_argument("stdin file '" + spec.stdin_file + "' does not exist");
  CompareOptions copt;
  copt.tol = spec.tol;
  copt.max_report = spec.max_report;
  for (const std::string& re : spec.ignore) {
    try {
      copt.ignore.emplace_back(re, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw std::invalid_argument("--ignore '" + re + "': " + e.what());
    }
  }
  std::vector<std::regex> fail_res;
  for (const std::string& re : spec.fail_patterns) {
    try {
      fail_res.emplace_back(re, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw std::invalid_argument("--fail-pattern '" + re + "': " + e.what());
    }
  }
  auto say = [&](const std::string& m) {
    if (log) log(m);
  };

  Outcome o;
  std::pair<const Side*, SideResult*> sides[] = {{&spec.ref, &o.ref}, {&spec.port, &o.port}};
  for (auto& [side, res] : sides) {
    if (side->build.empty()) continue;
    say(fmt::format("building {}: {}", side == &spec.ref ? "reference" : "port", side->build));
    // (Named, not positional: the fifth field is the CPU limit, which a 16 MiB output cap once filled.)
    RunRequest bq{side->build, side->dir, "", spec.build_timeout_s};
    bq.max_output = std::size_t{16} << 20;
    res->build = run_command(bq);
    res->built = res->build.ok();
  }
  if (!o.ref.built || !o.port.built) {
    o.verdict = "build-failed";
    o.build_failed_side = !o.ref.built && !o.port.built ? "both" : (!o.ref.built ? "reference" : "port");
    // A construct the runtime cannot run, on every side that failed: a verdict of its own.
    Unsupported first;
    bool all = true;
    for (auto& [side, res] : sides) {
      if (side->build.empty() || res->built) continue;
      const Unsupported u = unsupported_in_build(res->build.err + "\n" + res->build.out);
      if (u.what.empty()) all = false;
      else if (first.what.empty()) first = u;
    }
    if (all && !first.what.empty()) {
      o.verdict = "unsupported";
      o.unsupported = first.what;
      o.unsupported_where = first.where;
      o.unsupported_code = first.code;
    }
    return o;
  }

  // Stale outputs of an earlier run must not pass for this run's.
  for (auto& [side, res] : sides)
    for (const std::string& f : spec.files) {
      std::error_code ec;
      fs::remove(fs::path(side->dir) / f, ec);
    }
  std::vector<std::string> contents[2];
  std::vector<bool> exists[2];
  for (int i = 0; i < spec.runs; ++i) {
    for (int s = 0; s < 2; ++s) {
      auto& [side, res] = sides[s];
      if (i > 0 && !res->runs.front().ok() && res->runs.front().timed_out) continue;
      say(fmt::format("run {}/{} {}: {}", i + 1, spec.runs, s == 0 ? "reference" : "port", side->run));
      RunRequest rq{side->run, side->dir, spec.stdin_file, spec.timeout_s};
      rq.cpu_limit_s = spec.cpu_timeout_s;
      res->runs.push_back(run_command(rq));
      if (i == 0)
        for (const std::string& f : spec.files) {
          std::string text;
          exists[s].push_back(read_file(fs::path(side->dir) / f, text));
          contents[s].push_back(std::move(text));
        }
      // Later runs are for timing only; their output is not kept.
      if (i > 0) res->runs.back().out.clear();
    }
  }
  for (auto& [side, res] : sides) {
    std::vector<double> t;
    for (const RunResult& r : res->runs)
      if (r.started && !r.timed_out) t.push_back(r.seconds);
    res->median_s = median(t);
  }
  if (o.ref.median_s > 0 && o.port.median_s > 0) o.ratio = o.port.median_s / o.ref.median_s;

  const RunResult& r = o.ref.runs.front();
  const RunResult& p = o.port.runs.front();
  // Why each side failed, if it did: could not start, ran out of time, crashed, exited non-zero
  // (a shell reports a crashed child as 128 + signal), or reported a failed self-check.
  for (auto& [side, res] : sides) {
    const RunResult& f = res->runs.front();
    res->timed_out = f.timed_out;
    if (!f.ok()) res->failure = f.status();
    else if (spec.check_self_reports) {
      std::string line = find_self_reported_failure(f.out, fail_res, copt.ignore);
      if (line.empty()) line = find_self_reported_failure(f.err, fail_res, copt.ignore);
      if (!line.empty()) res->failure = "printed '" + line + "'";
    }
  }
  const bool ran = r.started && p.started && !r.timed_out && !p.timed_out && r.signal == 0 && p.signal == 0;
  o.exit_codes_match = ran && r.exit_code == p.exit_code;
  bool same = o.exit_codes_match;
  if (spec.compare_stdout) {
    o.stdout_compared = true;
    o.out = compare_outputs(r.out, p.out, copt);
    same = same && o.out.equal;
  }
  for (std::size_t k = 0; k < spec.files.size(); ++k) {
    FileComparison fc;
    fc.name = spec.files[k];
    fc.ref_exists = exists[0][k];
    fc.port_exists = exists[1][k];
    if (fc.ref_exists && fc.port_exists) fc.result = compare_outputs(contents[0][k], contents[1][k], copt);
    else fc.result.equal = fc.ref_exists == fc.port_exists;
    same = same && fc.result.equal && fc.ref_exists;
    o.files.push_back(std::move(fc));
  }
  if (o.ref.timed_out || o.port.timed_out) {
    o.verdict = "timeout";
    o.timeout_side = o.ref.timed_out && o.port.timed_out ? "both" : (o.ref.timed_out ? "reference" : "port");
  } else if (!o.ref.failure.empty() && !o.port.failure.empty()) {
    o.verdict = "both-failed";
    // Both sides stopped by the runtime itself on work or memory a CPU cannot stand in for.
    const Unsupported ru = o.ref.runs.empty() ? Unsupported{} : unsupported_in_run(o.ref.runs.front().err);
    const Unsupported pu = o.port.runs.empty() ? Unsupported{} : unsupported_in_run(o.port.runs.front().err);
    if (!ru.what.empty() && !pu.what.empty()) {
      o.verdict = "unsupported";
      o.unsupported = ru.what;
      o.unsupported_where = ru.where;
      o.unsupported_code = ru.code;
      o.build_failed_side = "both";
    }
  } else if (!o.ref.failure.empty() || !o.port.failure.empty()) {
    o.verdict = "different";
    // One side stopped by the runtime's CPU-time projection (FRY9402) while the other finished:
    // that side ran out of time (the runtime stops it early instead of at the limit), which says
    // nothing about its numbers. A time-out of that side, not a different result.
    const bool ref_failed = !o.ref.failure.empty();
    const SideResult& f = ref_failed ? o.ref : o.port;
    if (!f.runs.empty() && unsupported_in_run(f.runs.front().err).code == "FRY9402") {
      o.verdict = "timeout";
      o.timeout_side = ref_failed ? "reference" : "port";
    }
  } else {
    o.verdict = same ? "same" : "different";
  }
  const bool only_stdout =
      o.stdout_compared && !o.out.equal && std::all_of(o.files.begin(), o.files.end(), [](const FileComparison& f) {
        return f.ref_exists && f.port_exists && f.result.equal;
      });
  if (spec.rerun_reference && o.verdict == "different" && o.exit_codes_match && r.exit_code == 0 && only_stdout)
    recheck_against_rerun(spec, copt, fail_res, o, say);
  return o;
}

namespace {
nlohmann::json side_json(const Side& s, const SideResult& r) {
  nlohmann::json j = {{"run", s.run}, {"dir", s.dir}, {"median_s", r.median_s}};
  if (!r.failure.empty()) j["failure"] = r.failure;
  if (!s.build.empty()) {
    j["build"] = s.build;
    j["build_result"] = to_json(r.build, !r.built);
  }
  nlohmann::json runs = nlohmann::json::array();
  for (std::size_t i = 0; i < r.runs.size(); ++i) runs.push_back(to_json(r.runs[i], i == 0));
  j["runs"] = std::move(runs);
  return j;
}
}  // namespace

nlohmann::json to_json(const Spec& spec, const Outcome& o) {
  nlohmann::json j = {{"verdict", o.verdict},
                      {"same", o.same()},
                      {"reference", side_json(spec.ref, o.ref)},
                      {"port", side_json(spec.port, o.port)},
                      {"ratio", o.ratio > 0 ? nlohmann::json(o.ratio) : nlohmann::json(nullptr)},
                      {"exit_codes_match", o.exit_codes_match},
                      {"tolerance",
                       {{"rtol", spec.tol.rtol},
                        {"atol", spec.tol.atol},
                        {"ulp", spec.tol.ulp},
                        {"ulp_float", spec.tol.ulp_float},
                        {"nan_equal", spec.tol.nan_equal}}},
                      {"runs", spec.runs}};
  if (!o.timeout_side.empty()) j["timeout_side"] = o.timeout_side;
  if (!o.build_failed_side.empty()) j["build_failed_side"] = o.build_failed_side;
  if (o.ref_rerun) j["reference_rerun"] = {{"status", o.ref_rerun_status}, {"note", o.note}};
  if (!o.note.empty()) j["note"] = o.note;
  if (!o.unsupported.empty())
    j["unsupported"] = {{"what", o.unsupported}, {"where", o.unsupported_where}, {"code", o.unsupported_code}};
  if (o.stdout_compared) j["stdout"] = to_json(o.out);
  nlohmann::json files = nlohmann::json::array();
  for (const FileComparison& f : o.files) {
    nlohmann::json x = {{"name", f.name}, {"ref_exists", f.ref_exists}, {"port_exists", f.port_exists}};
    if (f.ref_exists && f.port_exists) x["compare"] = to_json(f.result);
    files.push_back(std::move(x));
  }
  j["files"] = std::move(files);
  return j;
}

std::string to_text(const Spec& spec, const Outcome& o) {
  std::string s;
  auto side = [&](const char* name, const Side& sd, const SideResult& r) {
    if (!sd.build.empty() && !r.built) {
      s += fmt::format("{}: build failed ({}): {}\n", name, r.build.status(), sd.build);
      const std::string& e = r.build.err.empty() ? r.build.out : r.build.err;
      if (!e.empty()) s += "  " + (e.size() > 1500 ? "..." + e.substr(e.size() - 1500) : e) + "\n";
      return;
    }
    if (r.runs.empty()) return;
    s += fmt::format("{}: {}, median {:.4g} s over {} run(s)\n", name, r.runs.front().status(), r.median_s,
                     r.runs.size());
    const RunResult& f = r.runs.front();
    if (!f.ok() && !f.err.empty())
      s += "  stderr: " + (f.err.size() > 800 ? "..." + f.err.substr(f.err.size() - 800) : f.err) +
           (f.err.ends_with('\n') ? "" : "\n");
  };
  side("reference", spec.ref, o.ref);
  side("port     ", spec.port, o.port);
  if (o.verdict == "build-failed") return s + "verdict: BUILD FAILED (" + o.build_failed_side + ")\n";
  if (o.verdict == "unsupported")
    return s + fmt::format("verdict: UNSUPPORTED: {} ({}, {}; {})\n", o.unsupported, o.unsupported_where,
                           o.unsupported_code, o.build_failed_side);
  for (const auto& [name, r] : {std::pair<const char*, const SideResult*>{"reference", &o.ref}, {"port", &o.port}})
    if (!r->failure.empty() && r->failure.starts_with("printed"))
      s += fmt::format("{} failed its own check: {}\n", name, r->failure);
  if (o.ratio > 0) s += fmt::format("time ratio port/reference: {:.3f}\n", o.ratio);
  if (o.ref.runs.front().status() != o.port.runs.front().status() && !o.ref.timed_out && !o.port.timed_out)
    s += fmt::format("exit codes differ: {} vs {}\n", o.ref.runs.front().status(), o.port.runs.front().status());
  auto report = [&](const std::string& what, const CompareResult& c) {
    if (c.equal) {
      s += fmt::format("{}: equal ({} lines, {} numbers, max abs err {:.3g}, max rel err {:.3g})\n", what, c.lines_ref,
                       c.numbers_compared, c.max_abs_err, c.max_rel_err);
      return;
    }
    s += fmt::format("{}: {} difference(s) ({} numbers compared); the first:\n", what, c.differences,
                     c.numbers_compared);
    for (const Difference& d : c.first) s += "  " + describe(d) + "\n";
  };
  if (o.stdout_compared) report("stdout", o.out);
  if (!o.note.empty()) s += "reference run again: " + o.note + "\n";
  for (const FileComparison& f : o.files) {
    if (!f.ref_exists || !f.port_exists) {
      s += fmt::format("file {}: missing in {}\n", f.name,
                       !f.ref_exists && !f.port_exists ? "both" : (!f.ref_exists ? "the reference" : "the port"));
      continue;
    }
    report("file " + f.name, f.result);
  }
  std::string v = o.verdict;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return c == '-' ? ' ' : std::toupper(c); });
  if (o.verdict == "timeout")
    v += " (" +
         (o.timeout_side == "both" ? std::string("both sides")
                                   : o.timeout_side + ", " + (o.timeout_side == "port" ? o.port : o.ref).failure) +
         ")";
  if (o.verdict == "both-failed") v += " (reference: " + o.ref.failure + "; port: " + o.port.failure + ")";
  return s + "verdict: " + v + "\n";
}

}  // namespace ferry::diffrun
