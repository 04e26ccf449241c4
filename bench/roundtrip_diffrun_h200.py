#!/usr/bin/env python3
"""The H200 differential run of issue #28: every self-checking program of a HIP corpus, migrated
HIP -> CUDA by Ferry, built with nvcc and run on an NVIDIA GPU; its verdict comes from the
program's own check (exit status and its PASSED/FAILED lines), and, where a HIP reference can run
on the same machine (hipcc with HIP_PLATFORM=nvidia), from `ferry diffrun` of the two.

    python3 bench/roundtrip_diffrun_h200.py HIP_TREE... [--out DIR] [--jobs 16] [--timeout 60]

Prepared, not yet run (no GPU in the session that wrote it). Trees are given as paths and never
fetched here; an absent tree, a machine without an NVIDIA GPU (nvidia-smi) or without nvcc is
skipped cleanly (exit 0, a SKIP line). A "program" is a folder with a unit that defines main():
all units of that folder (.cu .cpp .hip after migration) are compiled together with
`nvcc -x cu -arch=sm_90` plus the include folders of the tree (as `ferry verify` infers them) and
the folder's own flags that the migrated Makefile gives (-D, -I, --extended-lambda,
--expt-relaxed-constexpr). Programs that need input files or arguments beyond their defaults run
as they are: their failures are listed with the output tail, for a person to classify
(hardware, absent library, AMD-only assembly, Ferry defect). Results: DIR/diffrun.json and a
table on stdout, one line per program: BUILD-FAIL, PASS, FAIL (exit status / check line), TIMEOUT.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FERRY = os.environ.get("FERRY", str(ROOT / "build" / "ferry"))
UNIT_EXT = {".cu", ".cpp", ".cc", ".cxx", ".hip"}
FAIL = re.compile(r"\b(FAIL(ED)?|Failed|ERROR|Error|MISMATCH|incorrect|wrong)\b")
MAIN = re.compile(r"^\s*(int|auto)\s+main\s*\(", re.M)


def has_gpu() -> bool:
    if not shutil.which("nvidia-smi") or not shutil.which("nvcc"):
        return False
    r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    return r.returncode == 0 and "GPU" in r.stdout


def include_dirs(tree: Path):
    dirs = {tree}
    for p in tree.rglob("*"):
        if p.is_dir() and p.name == "include":
            dirs.add(p)
        if p.suffix in {".h", ".hpp", ".cuh"}:
            dirs.add(p.parent)
    return sorted(dirs)


def makefile_flags(folder: Path):
    """-D/-I and the nvcc flags the migrated Makefile of the folder passes (best effort)."""
    mk = folder / "Makefile"
    if not mk.exists():
        return []
    text = mk.read_text(errors="replace")
    out = []
    for w in re.findall(r"(?<![\w$])(-D\S+|-I\S+|--extended-lambda|--expt-relaxed-constexpr|-rdc=true)", text):
        if "$" not in w and w not in out:
            out.append(w if not w.startswith("-I") else "-I" + str((folder / w[2:]).resolve()))
    return out


def programs(tree: Path):
    found = {}
    for p in sorted(tree.rglob("*")):
        if p.suffix in UNIT_EXT and p.is_file() and ".ferry" not in p.parts:
            try:
                if MAIN.search(p.read_text(errors="replace")):
                    found.setdefault(p.parent, True)
            except OSError:
                pass
    return list(found)


def run_one(folder: Path, tree: Path, incs, out: Path, timeout: int):
    rel = str(folder.relative_to(tree)) or "."
    units = [str(p) for p in sorted(folder.iterdir()) if p.suffix in UNIT_EXT and p.is_file()]
    exe = out / "bin" / (rel.replace("/", "__") + ".exe")
    exe.parent.mkdir(parents=True, exist_ok=True)
    cmd = ["nvcc", "-x", "cu", "-arch=sm_90", "-O2", "-std=c++17", "-o", str(exe)] + makefile_flags(folder)
    cmd += [f"-I{d}" for d in incs] + units
    b = subprocess.run(cmd, capture_output=True, text=True, cwd=folder)
    if b.returncode != 0:
        return {"program": rel, "verdict": "BUILD-FAIL", "tail": (b.stderr or b.stdout)[-1500:], "command": cmd}
    try:
        r = subprocess.run([str(exe)], capture_output=True, text=True, cwd=folder, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"program": rel, "verdict": "TIMEOUT"}
    text = r.stdout + r.stderr
    bad = [l for l in text.splitlines() if FAIL.search(l)]
    verdict = "PASS" if r.returncode == 0 and not bad else "FAIL"
    return {"program": rel, "verdict": verdict, "exit": r.returncode, "check_lines": bad[:5], "tail": text[-800:]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", nargs="+")
    ap.add_argument("--out", default="/tmp/ferry-diffrun-h200")
    ap.add_argument("--jobs", type=int, default=16)
    ap.add_argument("--timeout", type=int, default=60)
    a = ap.parse_args()
    if not has_gpu():
        print("SKIP: no NVIDIA GPU or no nvcc on this machine")
        return 0
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    results = {}
    for t in a.trees:
        tree = Path(t)
        if not tree.is_dir():
            print(f"SKIP: {t} is absent")
            continue
        cuda = out / ("cuda-" + tree.name)
        m = subprocess.run([FERRY, "migrate", str(tree), "--from", "hip", "--to", "cuda", "-o", str(cuda), "--force",
                            "--quiet"], capture_output=True, text=True)
        if m.returncode not in (0, 1):
            print(f"{tree.name}: migration failed ({m.returncode}): {m.stderr[-500:]}")
            continue
        incs = include_dirs(cuda)
        progs = programs(cuda)
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            rs = list(ex.map(lambda f: run_one(f, cuda, incs, out, a.timeout), progs))
        results[tree.name] = rs
        counts = {}
        for r in rs:
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
            print(f"{tree.name}/{r['program']}: {r['verdict']}")
        print(f"== {tree.name}: {len(rs)} programs: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    (out / "diffrun.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
