#include "opcheck/opcheck.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace ferry::opcheck {
namespace {

using json = nlohmann::json;

// Worst case over seeds: sums for counts and the histogram, maxima for the rest, the mean
// weighted by elements.
void merge(ErrorStats& into, const ErrorStats& s, bool first) {
  if (first) {
    into = s;
    return;
  }
  const auto total = into.count + s.count;
  if (total > 0)
    into.mean_abs = (into.mean_abs * static_cast<double>(into.count) + s.mean_abs * static_cast<double>(s.count)) /
                    static_cast<double>(total);
  into.count = total;
  if (into.first_mismatch < 0 && s.first_mismatch >= 0)
    into.first_mismatch = s.first_mismatch, into.first_ref = s.first_ref, into.first_got = s.first_got;
  into.mismatches += s.mismatches;
  into.max_abs = std::max(into.max_abs, s.max_abs);
  into.max_rel = std::max(into.max_rel, s.max_rel);
  into.ulp_p50 = std::max(into.ulp_p50, s.ulp_p50);
  into.ulp_p99 = std::max(into.ulp_p99, s.ulp_p99);
  into.ulp_max = std::max(into.ulp_max, s.ulp_max);
  for (std::size_t b = 0; b < into.ulp_histogram.size(); ++b) into.ulp_histogram[b] += s.ulp_histogram[b];
}

double median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !(x >= 0) || !std::isfinite(x); }), v.end());
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int severity(ImplResult::Status s) {
  return s == ImplResult::Status::error ? 2 : s == ImplResult::Status::unsupported ? 1 : 0;
}

std::string dims_text(const Dims& d) {
  std::string s;
  for (const auto& [k, v] : d) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

Tolerance tolerance_of(const OperatorSpec& op, const TensorSpec& t, DType case_dtype) {
  if (t.tolerances && !t.tolerances->empty()) return t.tolerances->for_dtype(case_dtype);
  return op.tolerances.for_dtype(case_dtype);
}

std::string num(double v, const char* f = "{:.2e}") {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return "inf";
  return fmt::format(fmt::runtime(f), v);
}

std::string ulp_text(double v) {
  if (!std::isfinite(v)) return num(v);
  if (v < 10) return fmt::format("{:.2g}", v);
  return num(v, "{:.3g}");
}

}  // namespace

bool ImplRow::pass() const {
  if (status != ImplResult::Status::ok) return false;
  return std::all_of(outputs.begin(), outputs.end(),
                     [](const OutputResult& o) { return !o.compared || o.stats.pass(); });
}

Result run_opcheck(const Spec& spec, const Options& options, const Progress& progress, const OperatorDone& done) {
  for (const std::string& name : options.only)
    if (std::none_of(spec.operators.begin(), spec.operators.end(),
                     [&](const OperatorSpec& o) { return o.name == name; })) {
      std::string have;
      for (const OperatorSpec& o : spec.operators) have += (have.empty() ? "" : ", ") + o.name;
      throw std::invalid_argument("--only " + name + ": the spec has no such operator (" + have + ")");
    }
  Result res;
  res.spec = spec.path;
  Runners runners(options.runners);
  for (const OperatorSpec& op : spec.operators) {
    if (!options.only.empty() && std::find(options.only.begin(), options.only.end(), op.name) == options.only.end())
      continue;
    OperatorResult o{op.name, op.description, op.baseline, {}};
    for (const DType dtype : op.dtypes)
      for (const Dims& dims : op.shapes) {
        CaseRow row{dtype, dims, {}};
        row.impls.push_back({op.reference.name, true, false, ImplResult::Status::ok, "", {}, {}, -1, -1});
        for (const ImplSpec& c : op.candidates) {
          ImplRow r{c.name, false, c.informational, ImplResult::Status::ok, "", {}, {}, -1, -1};
          for (const TensorSpec& t : op.outputs)
            r.outputs.push_back(
                {t.name,
                 t.dtype.value_or(dtype),
                 tolerance_of(op, t, dtype),
                 {},
                 c.outputs.empty() || std::find(c.outputs.begin(), c.outputs.end(), t.name) != c.outputs.end()});
          row.impls.push_back(std::move(r));
        }
        for (std::size_t si = 0; si < op.seeds.size(); ++si) {
          CaseData c;
          c.op = &op;
          c.dtype = dtype;
          c.dims = dims;
          c.seed = op.seeds[si];
          for (const TensorSpec& t : op.inputs) c.inputs.push_back(make_input(op, t, dtype, dims, c.seed));
          for (const TensorSpec& t : op.outputs)
            c.outputs.emplace_back(t.name, t.dtype.value_or(dtype), resolve_shape(t, dims));
          c.attrs = op.attrs;
          for (const auto& [k, v] : dims) c.attrs.emplace_back(k, static_cast<double>(v));

          const ImplResult ref = runners.run(op.reference, c);
          ImplRow& rr = row.impls[0];
          if (severity(ref.status) > severity(rr.status)) rr.status = ref.status, rr.message = ref.message;
          rr.times_us.insert(rr.times_us.end(), ref.times_us.begin(), ref.times_us.end());
          for (std::size_t k = 0; k < op.candidates.size(); ++k) {
            ImplRow& cr = row.impls[k + 1];
            const ImplResult got = runners.run(op.candidates[k], c);
            cr.times_us.insert(cr.times_us.end(), got.times_us.begin(), got.times_us.end());
            ImplResult::Status st = got.status;
            std::string msg = got.message;
            if (st == ImplResult::Status::ok && ref.status != ImplResult::Status::ok) {
              st = ImplResult::Status::error;
              msg = "no reference to compare with: " + ref.message;
            }
            if (st == ImplResult::Status::ok)
              for (std::size_t q = 0; q < cr.outputs.size(); ++q) {
                if (!cr.outputs[q].compared) continue;
                try {
                  merge(cr.outputs[q].stats,
                        compare_output(ref.outputs[q], got.outputs[q], cr.outputs[q].dtype, cr.outputs[q].tolerance),
                        si == 0);
                } catch (const std::invalid_argument& e) {
                  st = ImplResult::Status::error;
                  msg = e.what();
                }
              }
            if (severity(st) > severity(cr.status)) cr.status = st, cr.message = msg;
          }
        }
        for (ImplRow& r : row.impls) r.median_us = median(r.times_us);
        const auto base =
            std::find_if(row.impls.begin(), row.impls.end(), [&](const ImplRow& r) { return r.name == op.baseline; });
        for (ImplRow& r : row.impls)
          if (base != row.impls.end() && base->median_us > 0 && r.median_us >= 0)
            r.ratio = r.median_us / base->median_us;
        std::string line = op.name + " " + std::string(dtype_name(dtype)) + " " + dims_text(dims) + ":";
        for (std::size_t k = 1; k < row.impls.size(); ++k) {
          const ImplRow& r = row.impls[k];
          if (r.informational) {
            ++res.informational;
            const bool fine = r.pass() || r.status == ImplResult::Status::unsupported;
            res.informational_failed += !fine;
            line += " " + r.name +
                    (r.pass()                             ? " pass"
                     : r.status == ImplResult::Status::ok ? " fail"
                                                          : " " + std::string(status_name(r.status))) +
                    " (informational)";
            continue;
          }
          ++res.checks;
          const char* verdict = "PASS";
          if (r.status == ImplResult::Status::unsupported) ++res.unsupported, verdict = "unsupported";
          else if (r.status == ImplResult::Status::error) ++res.errors, verdict = "ERROR";
          else if (r.pass()) ++res.passed;
          else ++res.failed, verdict = "FAIL";
          line += " " + r.name + " " + verdict;
        }
        if (progress) progress(line);
        o.rows.push_back(std::move(row));
      }
    res.operators.push_back(std::move(o));
    res.torch = runners.torch_info();
    if (done) done(res);
  }
  res.torch = runners.torch_info();
  return res;
}

json to_json(const Result& r) {
  json ops = json::array();
  for (const OperatorResult& o : r.operators) {
    json rows = json::array();
    for (const CaseRow& row : o.rows) {
      json shape = json::object(), impls = json::array();
      for (const auto& [k, v] : row.dims) shape[k] = v;
      for (const ImplRow& i : row.impls) {
        json j = {{"name", i.name},
                  {"role", i.reference       ? "reference"
                           : i.informational ? "informational"
                                             : "candidate"},
                  {"status", status_name(i.status)},
                  {"median_us", i.median_us >= 0 ? json(i.median_us) : json(nullptr)},
                  {"ratio", i.ratio >= 0 ? json(i.ratio) : json(nullptr)},
                  {"timed_repeats", i.times_us.size()}};
        if (!i.message.empty()) j["message"] = i.message;
        if (!i.reference) {
          j["pass"] = i.pass();
          json outs = json::array();
          for (const OutputResult& out : i.outputs) {
            json oj = {{"name", out.name},
                       {"dtype", dtype_name(out.dtype)},
                       {"tolerance",
                        {{"rtol", out.tolerance.rtol},
                         {"atol", out.tolerance.atol},
                         {"ulp", out.tolerance.ulp ? json(*out.tolerance.ulp) : json(nullptr)}}}};
            oj["compared"] = out.compared;
            if (i.status == ImplResult::Status::ok && out.compared) oj.update(to_json(out.stats));
            outs.push_back(std::move(oj));
          }
          j["outputs"] = std::move(outs);
        }
        impls.push_back(std::move(j));
      }
      rows.push_back({{"dtype", dtype_name(row.dtype)},
                      {"shape", shape},
                      {"shape_text", dims_text(row.dims)},
                      {"implementations", impls}});
    }
    ops.push_back({{"name", o.name}, {"description", o.description}, {"baseline", o.baseline}, {"rows", rows}});
  }
  return {{"tool", "ferry"},
          {"command", "opcheck"},
          {"version", 1},
          {"spec", r.spec},
          {"torch", r.torch},
          {"summary",
           {{"checks", r.checks},
            {"passed", r.passed},
            {"failed", r.failed},
            {"unsupported", r.unsupported},
            {"errors", r.errors},
            {"informational", r.informational},
            {"informational_failed", r.informational_failed},
            {"ok", r.ok()}}},
          {"operators", ops}};
}

std::string operator_text(const OperatorResult& op) {
  std::ostringstream o;
  {
    o << "\n== " << op.name << (op.description.empty() ? "" : " — " + op.description) << " (times vs " << op.baseline
      << ")\n";
    o << fmt::format("{:<6} {:<28} {:<18} {:<8} {:>9} {:>9} {:>9} {:>16} {:>8} {:>10} {:>7}\n", "dtype", "shape",
                     "impl", "output", "max_abs", "mean_abs", "max_rel", "ulp p50/p99/max", "result", "median_us",
                     "x base");
    for (const CaseRow& row : op.rows) {
      bool first = true;
      for (const ImplRow& i : row.impls) {
        const std::string dt = first ? std::string(dtype_name(row.dtype)) : "";
        const std::string sh = first ? dims_text(row.dims) : "";
        first = false;
        const std::string t = i.median_us >= 0 ? fmt::format("{:.2f}", i.median_us) : "-";
        const std::string x = i.ratio >= 0 ? fmt::format("{:.2f}", i.ratio) : "-";
        const std::string name = i.reference ? i.name + " (ref)" : i.informational ? i.name + " (info)" : i.name;
        if (i.reference || i.status != ImplResult::Status::ok) {
          const std::string res = i.reference ? (i.status == ImplResult::Status::ok ? "" : status_name(i.status))
                                              : (i.status == ImplResult::Status::error ? "ERROR" : "unsupported");
          o << fmt::format("{:<6} {:<28} {:<18} {:<8} {:>9} {:>9} {:>9} {:>16} {:>8} {:>10} {:>7}\n", dt, sh, name, "",
                           "", "", "", "", res, t, x);
          if (!i.message.empty()) o << "       " << i.message << "\n";
          continue;
        }
        bool lead = true;
        for (std::size_t q = 0; q < i.outputs.size(); ++q) {
          const OutputResult& out = i.outputs[q];
          const ErrorStats& s = out.stats;
          if (!out.compared) continue;
          const bool first_line = lead;
          lead = false;
          o << fmt::format("{:<6} {:<28} {:<18} {:<8} {:>9} {:>9} {:>9} {:>16} {:>8} {:>10} {:>7}\n",
                           first_line ? dt : "", first_line ? sh : "", first_line ? name : "", out.name, num(s.max_abs),
                           num(s.mean_abs), num(s.max_rel),
                           ulp_text(s.ulp_p50) + "/" + ulp_text(s.ulp_p99) + "/" + ulp_text(s.ulp_max),
                           s.pass() ? "PASS" : "FAIL", first_line ? t : "", first_line ? x : "");
          if (!s.pass())
            o << fmt::format(
                "       {} of {} elements outside rtol {:g} atol {:g}{}; first at {}: {} vs reference {}\n",
                s.mismatches, s.count, out.tolerance.rtol, out.tolerance.atol,
                out.tolerance.ulp ? fmt::format(" ulp {:g}", *out.tolerance.ulp) : "", s.first_mismatch,
                num(s.first_got, "{:.9g}"), num(s.first_ref, "{:.9g}"));
        }
      }
    }
  }
  return o.str();
}

std::string summary_text(const Result& r) {
  std::string s = fmt::format("\nopcheck: {} checks: {} passed, {} failed, {} errors, {} unsupported", r.checks,
                              r.passed, r.failed, r.errors, r.unsupported);
  if (r.informational)
    s += fmt::format("; informational: {} of {} outside the tolerances", r.informational_failed, r.informational);
  return s + "\n";
}

std::string to_text(const Result& r) {
  std::string o;
  if (r.torch.is_object()) o += "torch " + r.torch.value("torch", "?") + " on " + r.torch.value("device", "?") + "\n";
  for (const OperatorResult& op : r.operators) o += operator_text(op);
  return o + summary_text(r);
}

}  // namespace ferry::opcheck
