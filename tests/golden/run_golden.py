#!/usr/bin/env python3
"""Runs one golden case (or all, with --all) of tests/golden/.

A case is a folder holding:
  input.<ext>       the source to migrate (input.cu for CUDA→HIP, input.hip for HIP→CUDA, ...;
                    input.mk / input.cmake for a Makefile / CMake file)
  expected.<ext>    the expected output, compared byte for byte
  args              optional: extra ferry migrate arguments, one line (default: --to hip); a hip case
                    without --hip-version gets --hip-version 5.2, so that expectations do not depend
                    on the HIP installed where the test runs
  expected.diag     optional: expected diagnostics, one "LINE:COL CODE" per line, in order
  check             optional: "compile-hip" (hipcc --offload-arch=gfx906 and gfx90a compile the
                    expected output), "compile-hip-rocm" (the same, with the ROCm library headers of
                    every include root in $FERRY_ROCM_INCLUDE, ':'-separated, as -isystem: hipCUB,
                    rocThrust, hipBLAS ...; made by scripts/rocm-headers.sh; skipped when unset),
                    "compile-cuda" (nvcc -arch=sm_90), "compile-cann" (g++
                    -fsyntax-only against the real AscendCL/HCCL/aclnn headers of every include root
                    in $FERRY_ASCEND_INCLUDE, ':'-separated; made by scripts/ascend-headers.sh), or
                    "textual: <reason>" (not compiled, and why: e.g. Debian lacks hipBLAS).
                    After the first line, "allow-error LINE: reason" lines name the output lines
                    that must fail to compile, on purpose (code Ferry diagnosed and left
                    unchanged); the lines with errors must be exactly those.
A `--to mindspore` or `--to tf_npu` case also checks that expected.py passes `python3 -m py_compile`, and is skipped
(exit 77) when this ferry was built without its Python parser (FRY1703).
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
ASCEND_ENV = "FERRY_ASCEND_INCLUDE"
ROCM_ENV = "FERRY_ROCM_INCLUDE"
ROCM_SKIP = (f"{ROCM_ENV} is not set: run scripts/rocm-headers.sh DEST 5.3 and set {ROCM_ENV} to the include "
             "root it prints (DEST/5.3/include)")
ASCEND_SKIP = (f"{ASCEND_ENV} is not set: run scripts/ascend-headers.sh DEST and set {ASCEND_ENV} to the "
               "include roots it prints, ':'-separated")


def parse_check(case: Path) -> tuple[str, dict[int, str]]:
    """The check kind (first line) and the allowed error lines {output line: reason}."""
    lines = (case / "check").read_text().splitlines()
    allowed = {}
    for extra in lines[1:]:
        m = re.match(r"^allow-error (\d+): (.+)$", extra.strip())
        if m:
            allowed[int(m.group(1))] = m.group(2)
        elif extra.strip():
            raise ValueError(f"{case.name}/check: cannot read '{extra}'")
    return (lines[0].strip() if lines else ""), allowed


def mpi_flags() -> list[str]:
    mpicxx = shutil.which("mpicxx")
    if not mpicxx:
        return []
    p = subprocess.run([mpicxx, "--showme:compile"], capture_output=True, text=True)
    return p.stdout.split() if p.returncode == 0 else []


def compile_cann(path: Path, case: Path, allowed: dict[int, str]) -> str | None:
    """g++ -fsyntax-only against each include root; errors must be on exactly the allowed lines."""
    roots = [r for r in os.environ.get(ASCEND_ENV, "").split(os.pathsep) if r]
    gxx = shutil.which("g++")
    if not gxx:
        return "g++ not installed"
    problems = []
    failed_somewhere = set()
    for root in roots:
        if not (Path(root) / "acl" / "acl.h").exists():
            return f"{root}: no acl/acl.h (is this an include root made by scripts/ascend-headers.sh?)"
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "case.cpp"
            src.write_text(path.read_text())
            p = subprocess.run([gxx, "-std=c++14", "-fsyntax-only", "-Wall", "-Wextra", "-I", root, "-I", str(case),
                                *mpi_flags(), str(src)], capture_output=True, text=True)
            errors = {}
            for line in p.stderr.splitlines():
                m = re.match(r"^" + re.escape(str(src)) + r":(\d+):\d+: (?:fatal )?error: (.*)$", line)
                if m:
                    errors.setdefault(int(m.group(1)), m.group(2))
            if p.returncode != 0 and not errors:
                problems.append(f"g++ -I {root} failed:\n{p.stderr[-3000:]}")
            failed_somewhere.update(errors)
            for l, e in sorted(errors.items()):
                if l not in allowed:
                    problems.append(f"{path.name}:{l}: error with headers {root}: {e}")
    # An allowed line must really fail (with some header set; g++'s error recovery may fold a
    # follow-up error into an earlier one), so the list shrinks when Ferry learns to convert it.
    for l in sorted(set(allowed) - failed_somewhere):
        problems.append(f"{path.name}:{l}: allowed to fail ({allowed[l]}) but compiles: remove the allow-error line")
    return "\n".join(problems) if problems else None


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


def compile_check(kind: str, path: Path, case: Path, side_dir: Path,
                  allowed: dict[int, str] | None = None) -> str | None:
    """Returns an error message, or None when the compile passed."""
    if kind == "compile-cann":
        return compile_cann(path, case, allowed or {})
    if kind in ("compile-hip", "compile-hip-rocm"):
        rocm = []
        if kind == "compile-hip-rocm":
            for root in filter(None, os.environ.get(ROCM_ENV, "").split(os.pathsep)):
                rocm += ["-isystem", root]
            rocm.insert(0, "-std=c++17")  # hipCUB and rocThrust need C++14; verify compiles with C++17
        hipcc = shutil.which("hipcc")
        if not hipcc:
            return "hipcc not installed (make test installs it)"
        allowed = allowed or {}
        problems = []
        for arch in ("gfx906", "gfx90a"):
            with tempfile.TemporaryDirectory() as tmp:
                src = Path(tmp) / "case.hip"
                src.write_text(path.read_text())
                p = subprocess.run([hipcc, "-x", "hip", "-c", f"--offload-arch={arch}", "-I", str(case),
                                    "-I", str(side_dir), *rocm, str(src), "-o", str(Path(tmp) / "case.o")],
                                   capture_output=True, text=True)
                if p.returncode == 0 and not allowed:
                    continue
                if not allowed:
                    return f"hipcc --offload-arch={arch} failed:\n{p.stderr[-3000:]}"
                # Errors must be on exactly the allowed lines (each of them fails).
                errors = {}
                for line in p.stderr.splitlines():
                    m = re.match(r"^" + re.escape(str(src)) + r":(\d+):\d+: (?:fatal )?error: (.*)$", line)
                    if m:
                        errors.setdefault(int(m.group(1)), m.group(2))
                if p.returncode != 0 and not errors:
                    problems.append(f"hipcc --offload-arch={arch} failed:\n{p.stderr[-3000:]}")
                for l, e in sorted(errors.items()):
                    if l not in allowed:
                        problems.append(f"{path.name}:{l}: error for {arch}: {e}")
                for l in sorted(set(allowed) - set(errors)):
                    problems.append(f"{path.name}:{l}: allowed to fail ({allowed[l]}) but compiles for {arch}: "
                                    "remove the allow-error line")
        return "\n".join(problems) if problems else None
    if kind == "compile-cuda":
        nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
        if not nvcc:
            return "nvcc not installed"
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "case.cu"
            src.write_text(path.read_text())
            p = subprocess.run([nvcc, "-arch=sm_90", "-c", "-I", str(case), "-I", str(side_dir), str(src),
                                "-o", str(Path(tmp) / "case.o")],
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
    if any(d.endswith(" FRY1703") for d in diags):
        print(f"{case.name}: skipped (ferry was built without its Python parser, FRY1703)")
        return SKIP
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
    if "--to" in args and args[args.index("--to") + 1] in ("mindspore", "tf_npu"):
        p = subprocess.run([sys.executable, "-c", "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')",
                            str(expected)], capture_output=True, text=True)
        if p.returncode != 0:
            ok = False
            print(f"{case.name}: {expected.name} does not compile as Python:\n{p.stderr[-2000:]}", file=sys.stderr)
    check = case / "check"
    if check.exists():
        spec, allowed = parse_check(case)
        if spec.startswith("textual"):
            print(f"{case.name}: compile skipped ({spec})")
        elif spec == "compile-cann" and not os.environ.get(ASCEND_ENV):
            print(f"{case.name}: compile skipped ({ASCEND_SKIP})")
        elif spec == "compile-hip-rocm" and not os.environ.get(ROCM_ENV):
            print(f"{case.name}: compile skipped ({ROCM_SKIP})")
        else:
            err = compile_check(spec.split()[0], expected, case, side_dir, allowed)
            if err:
                ok = False
                print(f"{case.name}: {err}", file=sys.stderr)
    print(f"{case.name}: {'PASS' if ok else 'FAIL'}")
    return ok


def compile_cann_all(prefix: str) -> int:
    """The header check over every case named PREFIX*: each must be compile-cann, each must pass."""
    if not os.environ.get(ASCEND_ENV):
        print(f"skipped: {ASCEND_SKIP}")
        return SKIP
    cases = sorted(p for p in Path(__file__).parent.iterdir() if p.is_dir() and p.name.startswith(prefix))
    bad = 0
    for case in cases:
        spec, allowed = parse_check(case) if (case / "check").exists() else ("", {})
        if spec != "compile-cann":
            print(f"{case.name}: FAIL (check is '{spec}', not compile-cann)")
            bad += 1
            continue
        expected = find_one(case, "expected")
        err = compile_cann(expected, case, allowed)
        note = f" ({len(allowed)} line(s) fail on purpose)" if allowed else ""
        print(f"{case.name}: {'FAIL' if err else 'PASS'}{note}")
        if err:
            print(err, file=sys.stderr)
            bad += 1
    roots = os.environ[ASCEND_ENV].split(os.pathsep)
    print(f"{len(cases) - bad}/{len(cases)} {prefix}* outputs compile as expected against {len(roots)} header set(s)")
    return 1 if bad else 0


def compile_rocm_all(prefix: str, ferry: str) -> int:
    """Every case named PREFIX* must be compile-hip-rocm, and its output (migrated again, with the
    compat headers Ferry writes beside it) must compile against the headers of $FERRY_ROCM_INCLUDE."""
    if not os.environ.get(ROCM_ENV):
        print(f"skipped: {ROCM_SKIP}")
        return SKIP
    cases = sorted(p for p in Path(__file__).parent.iterdir() if p.is_dir() and p.name.startswith(prefix))
    bad = 0
    for case in cases:
        spec, allowed = parse_check(case) if (case / "check").exists() else ("", {})
        if spec != "compile-hip-rocm":
            print(f"{case.name}: FAIL (check is '{spec}', not compile-hip-rocm)")
            bad += 1
            continue
        args_file = case / "args"
        args = args_file.read_text().split() if args_file.exists() else ["--to", "hip"]
        if "--hip-version" not in args:
            args += ["--hip-version", "5.2"]
        with tempfile.TemporaryDirectory() as side:
            migrate(ferry, find_one(case, "input"), args, Path(side))
            err = compile_check(spec, find_one(case, "expected"), case, Path(side), allowed)
        print(f"{case.name}: {'FAIL' if err else 'PASS'}")
        if err:
            print(err, file=sys.stderr)
            bad += 1
    print(f"{len(cases) - bad}/{len(cases)} {prefix}* outputs compile against {os.environ[ROCM_ENV]}")
    return 1 if bad or not cases else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ferry")
    ap.add_argument("--case", action="append", default=[])
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--compile-cann", metavar="PREFIX",
                    help="only compile the expected outputs of the cases named PREFIX* against the AscendCL "
                         "headers (exit 77 when " + ASCEND_ENV + " is unset)")
    ap.add_argument("--compile-rocm", metavar="PREFIX",
                    help="only compile the outputs of the cases named PREFIX* against the ROCm library headers "
                         "(exit 77 when " + ROCM_ENV + " is unset)")
    a = ap.parse_args()
    if a.compile_rocm:
        if not a.ferry:
            ap.error("--ferry is required")
        return compile_rocm_all(a.compile_rocm, a.ferry)
    if a.compile_cann:
        return compile_cann_all(a.compile_cann)
    if not a.ferry:
        ap.error("--ferry is required")
    cases = [Path(c) for c in a.case]
    if a.all:
        cases = sorted(p for p in Path(__file__).parent.iterdir() if p.is_dir())
    results = [run_case(a.ferry, c, a.update) for c in cases]
    if results and all(r == SKIP for r in results):
        return SKIP
    return 0 if all(r is True or r == SKIP for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
