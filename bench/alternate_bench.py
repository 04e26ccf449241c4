#!/usr/bin/env python3
"""Two (or more) ferry binaries on one input, measured in the same run: CPU time of alternated runs,
and instructions per phase under callgrind.

    bench/alternate_bench.py FILE LABEL=FERRY LABEL=FERRY ... [--runs N] [--callgrind] [--to hip]

Each binary runs `migrate FILE --to TARGET -q --max-file-size 4096 -o OUT --force` (one file: the
single-file path, one thread). Times are the child's user + system CPU time (os.wait4), which does not
grow when other work shares the machine; the binaries take turns, the order reversed every other
round, so that a change in the machine's load falls on both. It prints the best and the median of N
runs each, in seconds and MB/s.

--callgrind runs each binary once under valgrind's callgrind and prints the instructions of the
whole run and, inclusive, of the phases below (a phase's row sums the functions whose name holds
its pattern: the instantiations of one template, say); instruction counts do not move with the
load, so they are the figure to compare on a shared machine. A missing FILE or binary is a clean skip.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

# (row, pattern): the phases of `migrate FILE --to hip`. A pattern is matched at the start of a
# demangled name ("ferry::..." or "RETURN-TYPE ferry::..."); the lambdas of a phase's function
# ("...::{lambda(...)#1}::operator()") are left out, as they are counted in it already.
PHASES = [
    ("target construction (make_target)", r"ferry::targets::make_target\("),
    ("  rule tables (load_builtin)", r"ferry::rules::load_builtin\("),
    ("lexing (Lexer::run)", r"ferry::lex::Lexer::run\(\)"),
    ("name-clash pre-pass (NameClashScan::file)", r"ferry::targets::hip::\(anonymous namespace\)::NameClashScan::file\("),
    ("  the definition scan (definition_scan, once per file)", r".*ferry::lex::CodeView::memo<ferry::targets::hip::DefinitionScan"),
    ("Wave64Scan::file", r"ferry::targets::hip::\(anonymous namespace\)::Wave64Scan::file\("),
    ("  collect_facts", r"ferry::analysis::collect_facts\("),
    ("  function_defs", r"ferry::analysis::function_defs\("),
    ("wave64 planner (Wave64Scan::finish)", r"ferry::targets::hip::\(anonymous namespace\)::Wave64Scan::finish\("),
    ("  Planner::summarize_file", r"ferry::analysis::wave64_plan::Planner::summarize_file\("),
    ("  Planner::collect_functions", r"ferry::analysis::wave64_plan::Planner::collect_functions\("),
    ("  Planner::link", r"ferry::analysis::wave64_plan::Planner::link\(\)"),
    ("passes (HipTarget::run_passes)", r"ferry::targets::hip::\(anonymous namespace\)::HipTarget::run_passes\("),
    ("  hip_provided_pass", r"ferry::targets::hip::hip_provided_pass\("),
    ("  same_signature_pass", r"ferry::targets::hip::same_signature_pass\("),
    ("find_function_definitions (each walk not inlined)", r".*ferry::targets::hip::find_function_definitions<"),
    ("platform_branches (each)", r".*ferry::targets::hip::platform_branches<"),
    ("apply_rules", r"ferry::migrate::apply_rules\("),
]


def migrate_cmd(ferry, path, target, out):
    return [ferry, "migrate", path, "--to", target, "-q", "--max-file-size", "4096", "-o", out, "--force"]


def cpu_time(cmd):
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=null)
        _, status, usage = os.wait4(p.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    if rc not in (0, 1):  # 1: diagnostics were reported, the output is written
        sys.exit(f"alternate_bench: {' '.join(cmd)} exited {rc}")
    return usage.ru_utime + usage.ru_stime


def callgrind(cmd, tmp, label):
    out = os.path.join(tmp, f"callgrind.{label}.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + cmd,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                          capture_output=True, text=True, check=True).stdout
    total = 0
    rows = []  # (inclusive instructions, function)
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+(.*)", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2):
            total = n
        else:
            rows.append((n, m.group(2)))
    phases = [sum(n for n, fn in rows if re.match(r"\?\?\?:" + pattern, fn) and "}::operator()" not in fn)
              for _, pattern in PHASES]
    return total, phases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("binaries", nargs="+", help="LABEL=PATH")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--to", default="hip")
    ap.add_argument("--callgrind", action="store_true")
    a = ap.parse_args()
    bins = [b.split("=", 1) for b in a.binaries]
    missing = [p for _, p in bins if not os.access(p, os.X_OK)]
    if not os.path.isfile(a.file) or missing:
        print(f"alternate_bench: skipped ({a.file if not os.path.isfile(a.file) else missing[0]} missing)")
        return
    mb = os.path.getsize(a.file) / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out" + os.path.splitext(a.file)[1])
        if a.callgrind:
            results = [callgrind(migrate_cmd(p, a.file, a.to, out), tmp, label) for label, p in bins]
            print(f"instructions (callgrind, inclusive), {a.file}, {mb:.2f} MB")
            print("| phase | " + " | ".join(label for label, _ in bins) + " |")
            print("|---|" + "---:|" * len(bins))
            print("| whole run | " + " | ".join(f"{t / 1e6:,.1f} M" for t, _ in results) + " |")
            for k, (row, _) in enumerate(PHASES):
                print(f"| {row} | " + " | ".join(f"{ph[k] / 1e6:,.1f} M" for _, ph in results) + " |")
        times = {label: [] for label, _ in bins}
        for r in range(a.runs):
            order = bins if r % 2 == 0 else list(reversed(bins))
            for label, p in order:
                times[label].append(cpu_time(migrate_cmd(p, a.file, a.to, out)))
    print(f"CPU time, {a.runs} alternated runs each, {a.file}, {mb:.2f} MB")
    print("| binary | best | median |")
    print("|---|---:|---:|")
    for label, _ in bins:
        best, median = min(times[label]), statistics.median(times[label])
        print(f"| {label} | {best:.3f} s, {mb / best:.1f} MB/s | {median:.3f} s, {mb / median:.1f} MB/s |")


if __name__ == "__main__":
    main()
