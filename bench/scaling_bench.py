#!/usr/bin/env python3
"""Migration time against input size: the same CUDA text at 1x, 2x, 4x and 8x, as one file and as a tree.

    bench/scaling_bench.py FERRY [SOURCE_DIR] [--reps N] [--sizes 1,2,4,8] [--mode single|tree|both]

SOURCE_DIR (default: the repository's examples/) gives the text: every .cu/.cuh/.cu.h/.h file under
it. A public checkout can be named instead (the figures in bench/results/ name the one used); a
missing SOURCE_DIR is a clean skip. For each size it prints, measured in the same run:
  - single file: the sources joined into one file, repeated N times; `ferry migrate FILE --to hip`
    (output to a file) against raw copying of the same bytes (read + write);
  - tree: the sources copied N times into copy0/ .. copyN-1/; `ferry migrate TREE --jobs 1`
    against copying the tree file by file; the peak resident memory of ferry (the goal: at most
    twice the largest file plus a constant, whatever the tree's size; the constant is measured as
    the peak of a one-line kernel, and "x goal" is the peak over that bound). A cross-check line
    gives the intercept and slope of the peak over the largest file's size (that file alone and its
    text twice in one file): the constant as a real file sees it, and the growth per MB.
Columns: MB/s of ferry, ferry's time / raw copying's time, and time / (N x the 1x time): 1.00 is
linear, the goal is <= 1.12 at 8x (8x the input in at most 9x the time). Times are CPU seconds
(ferry's as a child process, raw copying's in this process), the best of --reps runs.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

EXTS = (".cu", ".cuh", ".h", ".hpp", ".cpp")
TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None  # GNU time: the peak RSS of ferry alone


def run(cmd, out_path=None):
    """Runs cmd, returns (CPU seconds, peak RSS of the child in KiB); fails loudly.

    CPU time (user + system of the child), not wall time: ferry runs one thread here (--jobs 1 or a
    single file), so its CPU time is its cost per core, and it does not change when other work
    shares the machine (a 2-core CI box, a developer's build).
    A child forked from this process starts with this process's peak RSS (Linux keeps the peak
    across exec), which is above a small run's own: the peak is read through GNU time (a small
    process that forks ferry) where it is installed."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss_file:
        timed = ([TIME, "-f", "%M", "-o", rss_file.name] if TIME else []) + cmd
        with open(out_path or os.devnull, "wb") as stdout:
            p = subprocess.Popen(timed, stdout=stdout, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(p.pid, 0)  # wait4: the child's (and its children's) CPU time
        rc = os.waitstatus_to_exitcode(status)
        if rc not in (0, 1):  # 1: diagnostics were reported, the output is written
            sys.exit(f"scaling_bench: {' '.join(cmd)} exited {rc}")
        peak = int(rss_file.read().split()[-1]) if TIME else usage.ru_maxrss
    return usage.ru_utime + usage.ru_stime, peak


def copy_bytes(src, dst):
    t0 = time.process_time()
    with open(src, "rb") as f:
        data = f.read()
    with open(dst, "wb") as f:
        f.write(data)
    return time.process_time() - t0


def copy_tree(src, dst):
    t0 = time.process_time()
    for root, _, files in os.walk(src):
        rel = os.path.relpath(root, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                data = f.read()
            with open(os.path.join(dst, rel, name), "wb") as f:
                f.write(data)
    return time.process_time() - t0


def best(reps, fn):
    results = [fn() for _ in range(reps)]
    return min(results, key=lambda r: r[0] if isinstance(r, tuple) else r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ferry")
    ap.add_argument("source", nargs="?")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--sizes", default="1,2,4,8")
    ap.add_argument("--mode", choices=("single", "tree", "both"), default="both")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = a.source or os.path.join(root, "examples")
    if not os.path.isdir(src):
        print(f"scaling_bench: skipped: no source tree at {src}")
        return 0
    files = sorted(
        os.path.join(r, f) for r, _, fs in os.walk(src) for f in fs if f.endswith(EXTS) and "/build" not in r
    )
    if not files:
        print(f"scaling_bench: skipped: no C-family sources under {src}")
        return 0
    sizes = [int(s) for s in a.sizes.split(",")]
    text = b"".join(open(f, "rb").read() + b"\n" for f in files)
    work = tempfile.mkdtemp(prefix="ferry-scaling-")
    try:
        print(f"source: {src} ({len(files)} files, {len(text) / 1e6:.2f} MB joined)")
        largest = max(os.path.getsize(f) for f in files)
        if a.mode != "tree":
            print("single file: ferry migrate FILE --to hip")
            print(f"{'size':>5} {'MB':>7} {'cpu s':>8} {'MB/s':>7} {'raw s':>7} {'x raw':>7} {'linear':>7}")
            base = None
            for n in sizes:
                f = os.path.join(work, f"x{n}.cu")
                with open(f, "wb") as out:
                    for _ in range(n):
                        out.write(text)
                mb = os.path.getsize(f) / 1e6
                t, _ = best(a.reps, lambda: run([a.ferry, "migrate", f, "--to", "hip", "-q", "--max-file-size", "4096"], f + ".hip"))
                raw = best(a.reps, lambda: copy_bytes(f, f + ".raw"))
                base = base or t / n
                print(f"{n:>4}x {mb:7.2f} {t:8.3f} {mb / t:7.1f} {raw:7.3f} {t / max(raw, 1e-6):7.0f} {t / (n * base):7.2f}")
                os.remove(f)
        if a.mode != "single":
            print(f"tree: ferry migrate TREE --to hip --jobs 1 (peak RSS of ferry; largest file {largest / 1e6:.2f} MB)")

            def peak_of(tree):  # ferry's peak RSS (KiB) migrating `tree` into a fresh folder
                shutil.rmtree(tree + ".out", ignore_errors=True)
                _, rss = run([a.ferry, "migrate", tree, "--to", "hip", "-o", tree + ".out", "--jobs", "1", "-q"])
                shutil.rmtree(tree + ".out", ignore_errors=True)
                return rss

            # The goal's terms: the constant (what a one-line kernel costs: the binary, the target's
            # rule tables) and the largest file migrated alone.
            tiny = os.path.join(work, "tiny")
            os.makedirs(tiny)
            with open(os.path.join(tiny, "a.cu"), "w") as out:
                out.write("__global__ void k(){}\n")
            alone = os.path.join(work, "alone")
            biggest = max(files, key=os.path.getsize)
            os.makedirs(alone)
            shutil.copyfile(biggest, os.path.join(alone, os.path.basename(biggest)))
            constant = peak_of(tiny) / 1024
            bound = 2 * largest / 2**20 + constant
            alone_peak = peak_of(alone) / 1024
            print(f"peak RSS: a one-line kernel {constant:.0f} MB (the constant); the largest file alone "
                  f"{alone_peak:.0f} MB; goal: at most 2 x {largest / 2**20:.2f} + {constant:.0f} = {bound:.0f} MB")
            # A cross-check of the constant as a real file sees it (the code pages a real file
            # touches, the allocator's state): the intercept of the peak over the file's size, from
            # the largest file alone and its text twice in one file. Also the slope: the peak's
            # growth per MB of input, which the goal allows to be 2.
            twice = os.path.join(work, "twice")
            os.makedirs(twice)
            with open(biggest, "rb") as f:
                data = f.read()
            with open(os.path.join(twice, os.path.basename(biggest)), "wb") as out:
                out.write(data + b"\n" + data)
            twice_peak = peak_of(twice) / 1024
            slope = (twice_peak - alone_peak) / ((2 * len(data) + 1 - len(data)) / 2**20)
            print(f"peak RSS over the largest file's size (1x, 2x in one file): intercept {2 * alone_peak - twice_peak:.0f} MB "
                  f"(the constant as a real file sees it), slope {slope:.1f} MB per MB of input")
            print(f"{'size':>5} {'MB':>7} {'cpu s':>8} {'MB/s':>7} {'raw s':>7} {'x raw':>7} {'linear':>7} {'RSS MB':>7} {'x goal':>7}")
            base = None
            for n in sizes:
                tree = os.path.join(work, f"tree{n}")
                for c in range(n):  # the sources only: the bench measures migration, not copying data files
                    for f in files:
                        dst = os.path.join(tree, f"copy{c}", os.path.relpath(f, src))
                        os.makedirs(os.path.dirname(dst), exist_ok=True)
                        shutil.copyfile(f, dst)
                mb = sum(os.path.getsize(os.path.join(r, x)) for r, _, fs in os.walk(tree) for x in fs) / 1e6

                def once():
                    shutil.rmtree(tree + ".out", ignore_errors=True)
                    return run([a.ferry, "migrate", tree, "--to", "hip", "-o", tree + ".out", "--jobs", "1", "-q"])

                t, rss = best(a.reps, once)

                def raw_once():
                    shutil.rmtree(tree + ".raw", ignore_errors=True)
                    return copy_tree(tree, tree + ".raw")

                raw = best(a.reps, raw_once)
                base = base or t / n
                print(f"{n:>4}x {mb:7.2f} {t:8.3f} {mb / t:7.1f} {raw:7.3f} {t / max(raw, 1e-6):7.0f} {t / (n * base):7.2f} "
                      f"{rss / 1024:7.0f} {rss / 1024 / bound:7.2f}")
                shutil.rmtree(tree, ignore_errors=True)
                shutil.rmtree(tree + ".out", ignore_errors=True)
                shutil.rmtree(tree + ".raw", ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
