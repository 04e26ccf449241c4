#!/usr/bin/env python3
"""End-to-end tests of `ferry analyze`.

1. Every tests/golden/analyze-*/ case with an `analyze.expected` file: `ferry analyze input.cu
   --json` reports exactly those "LINE:COL CODE" findings (the migrate side of the same cases is
   checked by the golden runner through expected.diag).
2. Precision on real-style code: analyze over examples/llama_ops and over every golden input
   tests/golden/*/input.cu reports exactly the reviewed findings in
   tests/e2e/test_analyze_expected.txt: a finding not on the list is a false positive (or a new
   true positive to review and add), a listed one that disappears is lost recall.
3. --fix: writes to -o OUT only, applies the two provably safe fixes, leaves the input alone,
   and analyzing the fixed copy no longer reports what was fixed.
4. Exit codes (0 clean, 1 hazards, 2 bad usage) and the wave32 note for NVIDIA profiles.
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

FERRY = os.environ.get("FERRY")
ROOT = Path(os.environ.get("FERRY_ROOT", Path(__file__).resolve().parents[2]))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def analyze(*args, cwd=None):
    p = subprocess.run([FERRY, "analyze", *map(str, args)], capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def findings(path, cwd=None):
    rc, out, err = analyze(path, "--json", cwd=cwd)
    if rc not in (0, 1):
        check(False, f"analyze {path} exited {rc}: {err}")
        return []
    j = json.loads(out)
    return [f"{h['file']}:{h['line']}:{h['col']} {h['code']}" for h in j["hazards"]]


def main():
    if not FERRY:
        print("FERRY not set", file=sys.stderr)
        return 2
    golden = ROOT / "tests" / "golden"

    # 1. per-case expectations
    for case in sorted(golden.glob("analyze-*")):
        exp = case / "analyze.expected"
        if not exp.exists():
            continue
        want = [l.strip() for l in exp.read_text().splitlines() if l.strip() and not l.startswith("#")]
        got = [f.split(":", 1)[1] for f in findings(case / "input.cu", cwd=case)]
        check(got == want, f"{case.name}: analyze findings\n  expected: {want}\n  actual:   {got}")

    # 2. the reviewed list over llama_ops and every golden input
    reviewed = ROOT / "tests" / "e2e" / "test_analyze_expected.txt"
    want = sorted(l.strip() for l in reviewed.read_text().splitlines() if l.strip() and not l.startswith("#"))
    got = [f"examples/llama_ops/{f}" for f in findings(ROOT / "examples" / "llama_ops")]
    for inp in sorted(golden.glob("*/input.cu")):
        got += [f"tests/golden/{inp.parent.name}/input.cu:{f.split(':', 1)[1]}" for f in findings(inp)]
    got = sorted(got)
    extra = [g for g in got if g not in want]
    lost = [w for w in want if w not in got]
    check(not extra, "false positives (not in the reviewed list):\n  " + "\n  ".join(extra))
    check(not lost, "reviewed findings no longer reported:\n  " + "\n  ".join(lost))
    negatives = [g for g in got if "/analyze-negatives/" in g]
    check(not negatives, f"analyze-negatives must be clean: {negatives}")

    # 3. --fix
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "k.cu"
        text = ("#define WARP_SIZE 32\n"
                "__device__ float s(float v) {\n"
                "  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);\n"
                "  return v;\n}\n"
                "__global__ void k(float* p) { p[threadIdx.x / WARP_SIZE] = s(p[threadIdx.x]); }\n")
        src.write_text(text)
        out = Path(tmp) / "fixed.cu"
        rc, _, err = analyze(src, "--fix")
        check(rc == 2 and "-o" in err, f"--fix without -o must be a usage error (rc {rc})")
        rc, _, err = analyze(src, "--fix", "-o", src)
        check(rc == 2, f"--fix -o INPUT must be refused (rc {rc})")
        rc, stdout, err = analyze(src, "--fix", "-o", out)
        check(src.read_text() == text, "--fix modified the input")
        fixed = out.read_text() if out.exists() else ""
        check("#if defined(__HIP_PLATFORM_AMD__)\n#define WARP_SIZE 64" in fixed, f"WARP_SIZE not fixed:\n{fixed}")
        check("int o = warpSize / 2;" in fixed, f"shuffle loop not fixed:\n{fixed}")
        check("__shfl_xor_sync(0xffffffffffffffffull, v, o)" in fixed, f"full mask not widened:\n{fixed}")
        check(rc == 0, f"everything is fixed, so --fix exits 0 (rc {rc})")
        codes = [f.split(" ")[1] for f in findings(out)]
        check(not codes, f"fixed copy still reports {codes}")
        # a tree: every analyzed file is written under OUT
        tree = Path(tmp) / "tree"
        (tree / "inc").mkdir(parents=True)
        (tree / "inc" / "w.cuh").write_text("#define WARP_SIZE 32\n")
        (tree / "a.cu").write_text('#include "inc/w.cuh"\n__global__ void a(int* o) {\n'
                                   '  const int v = __shfl_down_sync(0xffffffff, (int)threadIdx.x, 1);\n'
                                   '  if (threadIdx.x % WARP_SIZE == 0) o[threadIdx.x / WARP_SIZE] = v;\n}\n')
        rc, _, err = analyze(tree, "--fix", "-o", Path(tmp) / "tree-out")
        check(rc == 0, f"tree --fix fixes everything here, exit 0 (rc {rc}: {err})")
        check("#define WARP_SIZE 64" in (Path(tmp) / "tree-out" / "inc" / "w.cuh").read_text(), "tree fix")
        check((Path(tmp) / "tree-out" / "a.cu").exists(), "tree --fix writes every analyzed file")

    # 4. exit codes and profiles
    clean = golden / "analyze-negatives" / "input.cu"
    rc, out, _ = analyze(clean)
    check(rc == 0 and "0 hazards" in out, f"clean input: rc {rc}, {out!r}")
    rc, _, err = analyze(clean, "--target", "gfx1234")
    check(rc == 2 and "gfx906" in err, f"unknown target: rc {rc}, {err!r}")
    rc, out, _ = analyze(golden / "analyze-lane-math" / "input.cu", "--target", "sm_90")
    check(rc == 0 and "do not apply" in out, f"sm_90 skips wave64 checks: rc {rc}, {out!r}")
    rc, out, _ = analyze(golden / "analyze-resources" / "input.cu", "--target", "sm_90", "--json")
    j = json.loads(out)
    check(rc == 1 and j["wave64_checks"] is False and j["summary"]["by_code"].get("FRY3203"),
          f"sm_90 still checks resources: rc {rc}")
    rc, out, _ = analyze(golden / "analyze-shuffle-loop" / "input.cu")
    check(rc == 1 and "FRY2205" in out and ": warning: " in out, f"warnings exit 1: rc {rc}")
    # lane math no warp operation reaches is plain arithmetic: notes, exit 0
    rc, out, _ = analyze(golden / "analyze-lane-math" / "input.cu")
    check(rc == 0 and "FRY2201" in out and ": note: " in out and "no warp operation" in out,
          f"lane math without warp operations: rc {rc}")

    print("test_analyze:", "FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
