#!/usr/bin/env python3
"""Runs one golden case (or all, with --all) of tests/golden/.

A case is a folder holding:
  input.<ext>       the source to migrate (input.cu for CUDA→HIP, input.hip for HIP→CUDA, ...)
  expected.<ext>    the expected output, compared byte for byte
  args              optional: extra ferry migrate arguments, one line (default: --to hip); a hip case
                    without --hip-version gets --hip-version 5.2, so that expectations do not depend
                    on the HIP installed where the test runs
  expected.diag     optional: expected diagnostics, one "LINE:COL CODE" per line, in order
  check             optional: "compile-hip" (hipcc --offload-arch=gfx906 and gfx90a compile the
                    expected output), "compile-cuda" (nvcc -arch=sm_90), or
                    "textual: <reason>" (not compiled, and why: e.g. Debian lacks hipBLAS)
Properties checked on every case: the output equals expected; migrating expected again with the
same arguments changes nothing (idempotence). Files Ferry writes beside the output (its compat
headers, ferry/compat/*.h) are on the include path of the compile check.
--update rewrites expected.* from the current output, for a human to review with git diff.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77


def find_one(case: Path, stem: str) -> Path | None:
    hits = sorted(p for p in case.iterdir() if p.name.startswith(stem + "."))
    hits = [p for p in hits if p.name != "expected.diag"]
    return hits[0] if hits else None


def migrate(ferry: str, src: Path, args: list[str], side_dir: Path | None = None) -> tuple[str, list[str], int]:
    """Migrates src; files Ferry writes beside the output are copied into side_dir when given."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / ("out" + src.suffix)
        proc = subprocess.run([ferry, "migrate", str(src), "-o", str(out), *args],
                              capture_output=True, text=True)
        text = out.read_text() if out.exists() else ""
        if side_dir is not None:
            for p in Path(tmp).rglob("*"):
                if p.is_file() and p != out:
                    dest = side_dir / p.relative_to(tmp)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(p, dest)
    diags = []
    for line in proc.stderr.splitlines():
        m = re.match(r"^.*?:(\d+):(\d+): (?:warning|error|note): .* \[(FRY\d{4})\]$", line)
        if m:
            diags.append(f"{m.group(1)}:{m.group(2)} {m.group(3)}")
        elif re.match(r"^.*?: (?:warning|error|note): .* \[(FRY\d{4})\]$", line):
            diags.append("0:0 " + re.search(r"\[(FRY\d{4})\]$", line).group(1))
    return text, diags, proc.returncode


def compile_check(kind: str, path: Path, case: Path, side_dir: Path) -> str | None:
    """Returns an error message, or None when the compile passed."""
    if kind == "compile-hip":
        hipcc = shutil.which("hipcc")
        if not hipcc:
            return "hipcc not installed (make test installs it)"
        for arch in ("gfx906", "gfx90a"):
            with tempfile.TemporaryDirectory() as tmp:
                src = Path(tmp) / "case.hip"
                src.write_text(path.read_text())
                p = subprocess.run([hipcc, "-x", "hip", "-c", f"--offload-arch={arch}", "-I", str(case), "-I", str(side_dir),
                                    str(src), "-o", str(Path(tmp) / "case.o")],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    return f"hipcc --offload-arch={arch} failed:\n{p.stderr[-3000:]}"
        return None
    if kind == "compile-cuda":
        nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
        if not nvcc:
            return "nvcc not installed"
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "case.cu"
            src.write_text(path.read_text())
            p = subprocess.run([nvcc, "-arch=sm_90", "-c", "-I", str(case), str(src), "-o", str(Path(tmp) / "case.o")],
                               capture_output=True, text=True)
            if p.returncode != 0:
                return f"nvcc -arch=sm_90 failed:\n{p.stderr[-3000:]}"
        return None
    return f"unknown check '{kind}'"


def run_case(ferry: str, case: Path, update: bool) -> bool:
    src = find_one(case, "input")
    if src is None:
        print(f"{case.name}: no input.* file", file=sys.stderr)
        return False
    args_file = case / "args"
    args = args_file.read_text().split() if args_file.exists() else ["--to", "hip"]
    if "--to" in args and args[args.index("--to") + 1] == "hip" and "--hip-version" not in args:
        args += ["--hip-version", "5.2"]
    side = tempfile.TemporaryDirectory()
    side_dir = Path(side.name)
    out, diags, rc = migrate(ferry, src, args, side_dir)
    if rc not in (0, 1):
        print(f"{case.name}: ferry exited {rc}", file=sys.stderr)
        return False
    expected = find_one(case, "expected")
    diag_file = case / "expected.diag"
    if update:
        target = expected or case / ("expected" + (".hip" if "hip" in args else ".cu"))
        target.write_text(out)
        if diags or diag_file.exists():
            diag_file.write_text("".join(d + "\n" for d in diags))
        print(f"{case.name}: updated")
        return True
    ok = True
    if expected is None:
        print(f"{case.name}: no expected.* file (run with --update, then review)", file=sys.stderr)
        return False
    want = expected.read_text()
    if out != want:
        ok = False
        import difflib
        diff = difflib.unified_diff(want.splitlines(True), out.splitlines(True), "expected", "actual")
        print(f"{case.name}: output differs from {expected.name}:\n" + "".join(diff), file=sys.stderr)
    if diag_file.exists():
        want_d = [l.strip() for l in diag_file.read_text().splitlines() if l.strip()]
        if diags != want_d:
            ok = False
            print(f"{case.name}: diagnostics differ\n  expected: {want_d}\n  actual:   {diags}", file=sys.stderr)
    # Idempotence: migrating the expected output again must change nothing.
    with tempfile.TemporaryDirectory() as tmp:
        again_src = Path(tmp) / ("again" + expected.suffix)
        again_src.write_text(want)
        again, _, _ = migrate(ferry, again_src, args)
        if again != want:
            ok = False
            print(f"{case.name}: not idempotent: migrating expected output changed it", file=sys.stderr)
    check = case / "check"
    if check.exists():
        spec = check.read_text().strip()
        if spec.startswith("textual"):
            print(f"{case.name}: compile skipped ({spec})")
        else:
            err = compile_check(spec.split()[0], expected, case, side_dir)
            if err:
                ok = False
                print(f"{case.name}: {err}", file=sys.stderr)
    print(f"{case.name}: {'PASS' if ok else 'FAIL'}")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ferry", required=True)
    ap.add_argument("--case", action="append", default=[])
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    cases = [Path(c) for c in a.case]
    if a.all:
        cases = sorted(p for p in Path(__file__).parent.iterdir() if p.is_dir())
    results = [run_case(a.ferry, c, a.update) for c in cases]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
