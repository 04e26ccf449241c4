// Host code that launches a component's kernels, and launches written inside macros.
#include "analysis/wave64_fix/planner.h"

#include "analysis/tokens.h"

namespace ferry::analysis::wave64_plan {

void Planner::scan_host_launcher(std::size_t fid, const std::set<std::size_t>& kernels,
                                 std::vector<Blocker>& blockers) {
  const Fn& fn = fns_[fid];
  const FunctionInfo& fi = info(fn);
  const Tokens v = tok(fn.file);
  for (std::size_t i = fi.body_open + 1; i < fi.body_close; ++i) {
    // Block sizes written as numbers must be whole wavefronts.
    if (v.f.code(i).kind == lex::Kind::LaunchOpen) {
      const std::size_t k = launched_name(v, i, fi.body_open);
      if (k == npos) continue;
      bool ours = false;
      for (std::size_t c : resolve_function(fn.file, v.t(k))) ours |= kernels.count(c) > 0;
      if (!ours) continue;
      const std::vector<migrate::ArgRange> args = detail::launch_args(v.f, i);
      if (args.size() < 2) {  // unbalanced or unclosed: the block size cannot be read
        blockers.push_back({fn.file, v.line(i), "a launch of the component whose block size Ferry cannot read"});
        continue;
      }
      const Values vals = values(fid, args[1].first, args[1].last, 0);
      for (const long long n : vals.known)
        if (n % profile_.wave_size != 0) {
          blockers.push_back({fn.file, v.line(args[1].first),
                              "a kernel of the component is launched with blocks of " + std::to_string(n) +
                                  " threads (x), not whole " + std::to_string(profile_.wave_size) +
                                  "-lane wavefronts"});
          break;
        }
      continue;
    }
    // 32-based arithmetic next to the launch: warps per block, grid sizes from warp counts.
    if (!v.number(i)) continue;
    const auto val = parse_int(v.t(i));
    const bool arith = v.is(i - 1, "/") || v.is(i - 1, "*") || v.is(i - 1, "%") || v.is(i + 1, "*") ||
                       (v.is(i - 1, "+") && val == 31) || ((v.is(i - 1, ">>") || v.is(i - 1, "<<")) && val == 5);
    if (!arith || !(val == 32 || val == 31 || val == 16 || val == 5)) continue;
    // A product with a literal of 1024 or more (`32 * 1024 * 1024` elements) is a data size: no
    // block has more than 1024 threads, so it is neither a block size nor a count of warps.
    const auto big = [&](std::size_t q) { return v.number(q) && parse_int(v.t(q)).value_or(0) >= 1024; };
    if ((v.is(i + 1, "*") && big(i + 2)) || (v.is(i - 1, "*") && big(i - 2))) continue;
    blockers.push_back({fn.file, v.line(i),
                        "host code that launches the component computes with " + std::string(v.t(i)) +
                            " (warps per block?), which the fixer does not rewrite"});
    if (v.is(i - 1, "/") && val == 32) host_counts_.push_back({fn.file, v.at(i - 1)});  // the check's FRY2202 anchor
  }
}

// Launches written inside #define bodies (torch bindings, dispatch switches) are not in any
// function, so their block sizes cannot be evaluated: a kernel of the component that such a
// launch may start (its name, or a name pasted with ##, in a file of its translation unit)
// blocks the component unless the block argument is a literal of whole wavefronts.
void Planner::scan_macro_launches(const std::set<std::size_t>& kernels, std::vector<Blocker>& blockers) const {
  for (std::size_t k : kernels) {
    const Fn& kfn = fns_[k];
    if (!info(kfn).is_kernel) continue;
    const std::string& name = info(kfn).name;
    for (std::size_t f = 0; f < in_.size(); ++f) {
      if (macro_launches_[f].empty() || (tu_rank(f, kfn.file) > 2 && tu_rank(kfn.file, f) > 2)) continue;
      const Tokens v = tok(f);
      for (const std::size_t i : macro_launches_[f]) {
        // the launched name: NAME, NAME<...>, or pieces pasted with ## (a piece of the name)
        bool may_be = false;
        for (std::size_t q = i; q > 0 && v.f.code(q - 1).in_directive && i - q < 40; --q) {
          const std::size_t p = q - 1;
          if (v.is(p, ";") || v.is(p, "{") || v.is(p, "}") || v.is(p, ":")) break;
          if (v.ident(p) && (v.t(p) == name || (v.t(p).size() >= 3 && name.find(v.t(p)) != std::string::npos &&
                                                (v.is(p - 1, "##") || v.is(p + 1, "##")))))
            may_be = true;
        }
        if (!may_be) continue;
        // the block argument: the second launch parameter
        const std::vector<migrate::ArgRange> args = detail::launch_args(v.f, i);
        bool whole = false;
        if (args.size() >= 2) {
          const auto n = eval_constant(v.f, v.facts, args[1].first, args[1].last, nullptr);
          whole = n && *n % profile_.wave_size == 0;
        }
        if (!whole)
          blockers.push_back({f, v.line(i),
                              "a kernel of the component ('" + name +
                                  "') may be launched inside a macro, with a block size the fixer "
                                  "cannot evaluate"});
      }
    }
  }
}

}  // namespace ferry::analysis::wave64_plan
