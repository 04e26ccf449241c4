#!/usr/bin/env python3
"""Round-trip properties of the CUDA<->HIP targets.

1. Fixed point after one round, on every golden input of the two directions:
     CUDA x (tests/golden/*/input.cu with --to hip):  F(R(F(x))) == F(x)
     HIP  x (tests/golden/*/input.hip with --to cuda): R(F(R(x))) == R(x)
   where F is `ferry migrate --to hip` (with the case's own args) and R `ferry migrate --to cuda`.
2. The same on the example trees (examples/llama_ops, make_saxpy, cmake_vector_add: CUDA;
   examples/hip_native: HIP), file by file.
3. The CUDA -> HIP -> CUDA output of those CUDA examples, and the HIP -> CUDA output of
   hip_native, compile with nvcc -arch=sm_90 (compile only; skipped when nvcc is missing).
Environment: FERRY (the binary), FERRY_ROOT (the repository).
"""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(os.environ.get("FERRY_ROOT", Path(__file__).resolve().parents[2]))
FERRY = os.environ.get("FERRY") or str(ROOT / "build" / "ferry")
NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
CUDA_EXAMPLES = ["llama_ops", "make_saxpy", "cmake_vector_add"]
HIP_EXAMPLES = ["hip_native"]
SOURCE_EXT = {".cu", ".cuh", ".cpp", ".h", ".hpp", ".hip"}

# Known cases where one round is not a fixed point, and why. A listed case that becomes a fixed
# point fails the test, so the list only shrinks.
KNOWN = {
    "cuda-version-12": "HIP's clockInstructionRate and clockRate both read cudaDevAttrClockRate on NVIDIA; "
    "the way back from ferry::cuda_compat::device_attribute(p, cudaDevAttrClockRate) writes clockRate, "
    "which CUDA 12.4 still has and leaves as written",
}

failures: list[str] = []


def migrate(src: Path, args: list[str], suffix: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        inp = Path(tmp) / ("in" + suffix)
        inp.write_bytes(src.read_bytes()) if isinstance(src, Path) else inp.write_text(src)
        out = Path(tmp) / ("out" + suffix)
        p = subprocess.run([FERRY, "migrate", str(inp), "-q", "-o", str(out), *args],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            raise RuntimeError(f"ferry migrate {' '.join(args)} failed ({p.returncode}): {p.stderr}")
        return out.read_text(errors="surrogateescape")


def migrate_text(text: str, args: list[str], suffix: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / ("t" + suffix)
        p.write_text(text, errors="surrogateescape")
        return migrate(p, args, suffix)


def first_diff(a: str, b: str) -> str:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {i + 1}:\n    round 1: {x}\n    round 2: {y}"
    return f"line counts differ: {len(la)} vs {len(lb)}"


def check_fixed_point(name: str, src: Path, there: list[str], back: list[str]) -> str:
    """Returns the once-migrated text; a failure of the property is recorded."""
    once = migrate(src, there, src.suffix)
    round_trip = migrate_text(migrate_text(once, back, src.suffix), there, src.suffix)
    ok = round_trip == once
    if name in KNOWN:
        if ok:
            failures.append(f"{name}: listed in KNOWN but now a fixed point; remove it from the list")
        else:
            print(f"known  {name}: {KNOWN[name]}")
        return once
    if not ok:
        failures.append(f"{name}: not a fixed point after one round ({' '.join(there)}): {first_diff(once, round_trip)}")
        return once
    print(f"fixed  {name}")
    return once


def golden_cases() -> None:
    for case in sorted((ROOT / "tests" / "golden").iterdir()):
        if not case.is_dir():
            continue
        args_file = case / "args"
        args = args_file.read_text().split() if args_file.exists() else ["--to", "hip"]
        to = args[args.index("--to") + 1] if "--to" in args else "hip"
        if (case / "input.cu").exists() and to == "hip":
            check_fixed_point(case.name, case / "input.cu", args, ["--to", "cuda"])
        elif (case / "input.hip").exists() and to == "cuda":
            check_fixed_point(case.name, case / "input.hip", args, ["--to", "hip"])


def example_files(example: str) -> list[Path]:
    base = ROOT / "examples" / example
    return sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in SOURCE_EXT
                  and not any(part.startswith("build") for part in p.relative_to(base).parts))


def compile_tree(label: str, tree: Path, files: list[Path]) -> None:
    includes = sorted({str(tree / p.parent) for p in files} | {str(tree / "include")})
    jobs = []
    for rel in files:
        if rel.suffix not in (".cu", ".cpp", ".hip"):
            continue
        cmd = [NVCC, "-arch=sm_90", "-std=c++17", "-c", "-x", "cu", str(tree / rel), "-o", os.devnull]
        for inc in includes:
            cmd += ["-I", inc]
        jobs.append((rel, cmd))

    def run(job):
        rel, cmd = job
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        return rel, p.returncode, p.stderr

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for rel, rc, err in pool.map(run, jobs):
            if rc != 0:
                failures.append(f"{label}: nvcc -arch=sm_90 failed on {rel}:\n{err[-2500:]}")
            else:
                print(f"nvcc   {label}/{rel}")


def examples(tmp: Path) -> None:
    for example, there, back in ([(e, ["--to", "hip"], ["--to", "cuda"]) for e in CUDA_EXAMPLES] +
                                 [(e, ["--to", "cuda"], ["--to", "hip"]) for e in HIP_EXAMPLES]):
        files = example_files(example)
        if not files:
            print(f"skip   examples/{example}: not present")
            continue
        out_tree = tmp / example
        base = ROOT / "examples" / example
        for f in files:
            rel = f.relative_to(base)
            once = check_fixed_point(f"examples/{example}/{rel}", f, there, back)
            # The CUDA code to compile: CUDA -> HIP -> CUDA, or HIP -> CUDA.
            cuda = migrate_text(once, back, f.suffix) if there == ["--to", "hip"] else once
            (out_tree / rel).parent.mkdir(parents=True, exist_ok=True)
            (out_tree / rel).write_text(cuda, errors="surrogateescape")
        if NVCC:
            compile_tree(f"examples/{example} ({'CUDA->HIP->CUDA' if there[1] == 'hip' else 'HIP->CUDA'})",
                         out_tree, [f.relative_to(base) for f in files])


def main() -> int:
    if not os.path.exists(FERRY):
        print(f"ferry binary not found at {FERRY} (set FERRY)", file=sys.stderr)
        return 1
    golden_cases()
    with tempfile.TemporaryDirectory() as tmp:
        examples(Path(tmp))
    if not NVCC:
        print("nvcc not found: compile checks skipped")
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    print(f"{'FAIL' if failures else 'PASS'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
