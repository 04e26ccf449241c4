#!/usr/bin/env python3
"""Whole-tree round-trip properties of the CUDA <-> HIP targets (docs/targets.md, "Round trips").

  roundtrip_property.py cuda TREE [TREE...]   CUDA -> HIP -> CUDA gives back every file byte for byte
  roundtrip_property.py hip TREE [TREE...]    HIP -> CUDA output compiles with nvcc (ferry verify)
  roundtrip_property.py fixed TREE [TREE...]  migrating the HIP output of a CUDA tree again changes nothing
  roundtrip_property.py hipback TREE [TREE...] HIP -> CUDA -> HIP: which files come back byte for byte
                                               (HIP -> CUDA writes no records: a figure, not a property)

Each TREE is migrated as a whole (`ferry migrate TREE -o OUT`), as a user would. A TREE that does
not exist is skipped with a note (bench runs take checkout paths that may be absent). Prints one line
per file that breaks the property (with its first differing line) and a summary per tree; exits 1
when any property fails. Environment: FERRY (the binary; default build/ferry of this checkout).
Options: --keep DIR keeps the migrated trees under DIR; --jobs N for ferry verify.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FERRY = os.environ.get("FERRY") or str(ROOT / "build" / "ferry")
# Files compared in the cuda property: what `ferry migrate` rewrites (C-family sources, build files).
COMPARED = {".cu", ".cuh", ".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".c", ".inl", ".cmake", ".txt", ".mk", ".hip"}


def run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace")


def migrate(src: Path, out: Path, to: str) -> None:
    args = [FERRY, "migrate", str(src), "-o", str(out), "-q", "--to", to]
    if to == "cuda":
        args += ["--from", "hip"]
    p = run(args)
    # 0: clean, 1: diagnostics reported; anything else is a failure of the tool
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} failed ({p.returncode}): {p.stderr[-2000:]}")


def compared(path: Path) -> bool:
    return path.suffix in COMPARED or path.name in ("Makefile", "makefile", "GNUmakefile", "CMakeLists.txt")


def first_diff(a: bytes, b: bytes) -> str:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return (f"line {i + 1}: original {x.decode(errors='replace').strip()[:140]!r} "
                    f"came back {y.decode(errors='replace').strip()[:140]!r}")
    return f"line counts differ: {len(la)} vs {len(lb)}"


def tree_files(tree: Path) -> list[Path]:
    return sorted(p.relative_to(tree) for p in tree.rglob("*")
                  if p.is_file() and ".ferry" not in p.parts and compared(p))


def check_cuda(tree: Path, work: Path, there: str = "hip") -> int:
    back_to = "cuda" if there == "hip" else "hip"
    hip, back = work / there, work / (back_to + "_back")
    migrate(tree, hip, there)
    migrate(hip, back, back_to)
    bad = 0
    files = tree_files(tree)
    for rel in files:
        orig = (tree / rel).read_bytes()
        out = back / rel
        if not out.exists():
            print(f"  {rel}: missing after the round trip")
            bad += 1
        elif out.read_bytes() != orig:
            print(f"  {rel}: {first_diff(orig, out.read_bytes())}")
            bad += 1
    way = "CUDA -> HIP -> CUDA" if there == "hip" else "HIP -> CUDA -> HIP"
    print(f"{tree}: {way}: {len(files) - bad} of {len(files)} files identical")
    return bad


def check_fixed(tree: Path, work: Path) -> int:
    once, twice = work / "once", work / "twice"
    migrate(tree, once, "hip")
    migrate(once, twice, "hip")
    bad = 0
    files = [p for p in tree_files(once)]
    for rel in files:
        a, b = (once / rel).read_bytes(), (twice / rel).read_bytes() if (twice / rel).exists() else b""
        if a != b:
            print(f"  {rel}: {first_diff(a, b)}")
            bad += 1
    print(f"{tree}: HIP output migrated again: {len(files) - bad} of {len(files)} files unchanged")
    return bad


def check_hip(tree: Path, work: Path, jobs: int) -> int:
    out = work / "cuda"
    migrate(tree, out, "cuda")
    report = work / "verify.json"
    p = run([FERRY, "verify", str(out), "--jobs", str(jobs), "--report", str(report)])
    print(p.stdout[-3000:])
    if p.returncode not in (0, 1):
        print(f"{tree}: ferry verify failed ({p.returncode}): {p.stderr[-1000:]}")
        return 1
    return 0 if p.returncode == 0 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["cuda", "hip", "fixed", "hipback"])
    ap.add_argument("trees", nargs="+")
    ap.add_argument("--keep", help="keep the migrated trees under this folder")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if not Path(FERRY).exists():
        print(f"SKIP: no ferry binary at {FERRY}")
        return 77
    failed = 0
    for t in a.trees:
        tree = Path(t).resolve()
        if not tree.is_dir():
            print(f"SKIP: {tree} is absent")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(a.keep) / tree.name if a.keep else Path(tmp)
            if a.keep:
                shutil.rmtree(work, ignore_errors=True)
                work.mkdir(parents=True)
            if a.mode == "cuda":
                failed += check_cuda(tree, work)
            elif a.mode == "fixed":
                failed += check_fixed(tree, work)
            elif a.mode == "hipback":
                failed += check_cuda(tree, work, there="cuda")
            else:
                failed += check_hip(tree, work, a.jobs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
