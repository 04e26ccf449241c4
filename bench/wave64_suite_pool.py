#!/usr/bin/env python3
"""ferry diffrun --wave64 --suite over several corpora at once, in one pool of JOBS slots, under a
deadline (issue 31: a fresh pass of every corpus on a many-core machine).

bench/wave64_suite_corpora.sh runs the corpora one after another, each with its own -j: on 16 cores
the long programs of one corpus (time-outs at the CPU limit) leave the other cores idle while the
next corpus waits. Here every program folder of every corpus is one unit of one queue:
  * the CUDA corpora are migrated to HIP first, all at once (`ferry migrate C --to hip`, as the
    suite mode does), and each unit then runs with --port-dir on that port;
  * HIP corpora (a name containing "rocm" or "HIP") run against themselves at wave 32 vs 64, with
    --std=gnu++20, exactly as wave64_suite_corpora.sh runs them;
  * a unit is one `ferry diffrun --wave64 --suite C --list ONE_FOLDER` with its own results folder;
    a folder of k programs (several mains) runs with -j min(k, MAX_UNIT_JOBS) and holds that many
    slots;
  * FIRST=REGEX units start first (the known long ones), in the order of FIRST's top-level
    alternatives (`A|B|C`: A's units, then B's, then C's), LAST=REGEX units last;
  * at DEADLINE seconds (from the start) the units still running are killed (their finished
    programs keep their verdicts); units not started and programs not finished are recorded as
    verdict "not-reached".
The per-corpus results have the suite's own layout, so wave64_suite_summary.py reads them:
OUT/NAME/{list.txt, results.json, table.txt, programs/*.json}, and OUT/summary.tsv.

Usage: wave64_suite_pool.py FERRY OUT CORPUS...
Environment: JOBS (14), CPU_TIMEOUT (120: seconds of CPU per side, RLIMIT_CPU of each process, so
all its threads together), TIMEOUT (wall-clock backstop per run, default CPU_TIMEOUT + 60),
DEADLINE (seconds, 0 = none), FIRST, LAST (regexes over CORPUS/FOLDER), MAX_UNIT_JOBS (4),
IGNORE (as wave64_suite_corpora.sh), W64_THREADS (passed to the programs through the environment),
SIZES (a file of lines `CORPUS/FOLDER ARGS...`: the folder's programs run with these arguments, the
suite's per-program size option, e.g. rocm-examples' reduction sweeps of 10 ... 10^9 elements cut
to 10^6 with their own Google Benchmark/Test filters; `#` starts a comment line).
A corpus that is absent is skipped.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

WARP = re.compile(r"__shfl|__ballot|__any(_sync)?\(|__all(_sync)?\(|__activemask|__syncwarp|warpSize|"
                  r"cooperative_groups|__reduce_[a-z]+_sync|__match_")
KERNEL = re.compile(r"__global__")
HIP_API = re.compile(r"hip/hip_runtime|hipLaunchKernelGGL|\bhip[A-Z]\w*\s*\(")
MAIN = re.compile(r"(^|[^\w:.])(int|void|auto)\s+main\s*\(")
IGNORE = os.environ.get("IGNORE", r"[Tt]ime|/s\b|[Mm]s\b|msec|usec|GB/s|GFLOP|[Bb]andwidth|[Tt]hroughput|[Ss]peed|"
                        r"sec\b|[Dd]evice|GPU|Multi-?[Pp]rocessor|SM [0-9]|[Cc]ompute [Cc]apability|[Oo]ccupancy|"
                        r"[Cc]lock|[Ww]arp ?[Ss]ize|per [Ss]econd|[Ss]econds?\b|[GgTtMm][Ff][Ll][Oo][Pp]|^\s*dt\s*=|"
                        # STREAM's rows (HIP-Examples' cuda-stream, BabelStream): a rate and three
                        # times under a header that names them, the row itself only its kernel
                        r"^(Copy|Mul|Scale|Add\d*|Triad|Dot|Nstream):?\s+[0-9.]+\s+[0-9.]+|^GEOMEAN\s+[0-9.]+|"
                        # the side's own build folder, which a program prints when it looks for its
                        # input beside its executable (HIP-Examples' RecursiveGaussian)
                        r"/build/[^ ]*/(ref|port)/|"
                        # a printed pointer (HIP-Examples' add4: `d_a=0x7f98c8138100`, and below 0x7f when
                        # large buffers push mmap down: `0x7efcab333100`): 12 hex digits of a user-space
                        # address, the process's address space, not a result
                        r"\b0x[1-7][0-9a-f]{11}\b")
SRC_EXT = (".cu", ".hip", ".cpp", ".cc", ".cxx", ".c")


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def is_hip_corpus(root):
    """A HIP corpus (run against itself at wave 32 vs 64): HIP=1, or a name containing "rocm" or "HIP"."""
    name = os.path.basename(os.path.abspath(root))
    return bool(os.environ.get("HIP")) or "rocm" in name or "HIP" in name


def list_folders(root, hip=None):
    """The folders wave64_suite_corpora.sh lists: a source with main, and a warp operation.

    In a HIP corpus every folder with main and a kernel is listed, warp operation or not: at wave
    32 against 64 any kernel can show a lane-width assumption (a reduction that stops
    synchronising below 64 threads, a block or an array sized by a literal 64), and the corpus
    has no CUDA original whose warp operations would single out the programs worth a port.
    HIP-Examples (kernels in .cpp files, launched with hipLaunchKernelGGL, none using a shuffle
    or warpSize) listed no folder before."""
    if hip is None:
        hip = is_hip_corpus(root)
    out = []
    for d, dirs, files in sorted(os.walk(root)):
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x != "build")
        srcs = [f for f in files if f.endswith((".cu", ".hip", ".cpp", ".cc", ".c", ".cuh", ".h", ".hpp"))]
        text = ""
        for f in srcs:
            try:
                text += open(os.path.join(d, f), errors="replace").read()
            except OSError:
                pass
        if not any(f.endswith((".cu", ".hip")) for f in srcs) and "__global__" not in text:
            continue
        # In a HIP corpus, a folder of CUDA sources only (HIP-Examples' mini-nbody/cuda,
        # rocm-examples' hipify, whose HIP source the build makes) is a CUDA program: not run
        # as HIP at wave 32 against 64.
        if hip and not HIP_API.search(text):
            continue
        if MAIN.search(text) and (WARP.search(text) or (hip and KERNEL.search(text))):
            out.append(os.path.relpath(d, root))
    return out


def programs_of(root, folder):
    """The program names the suite gives a folder (one per source with main)."""
    d = os.path.join(root, folder)
    mains = []
    for f in sorted(os.listdir(d)):
        p = os.path.join(d, f)
        if not os.path.isfile(p) or not f.endswith(SRC_EXT) or f.startswith(("LICENSE", "README", "COPYING")):
            continue
        try:
            if MAIN.search(open(p, errors="replace").read()):
                mains.append(f)
        except OSError:
            pass
    if len(mains) <= 1:
        return [folder]
    stems = [os.path.splitext(m)[0] for m in mains]
    # Two mains of one stem (rtm8.cpp, rtm8.cu) keep their extension, as the suite names them.
    return [("" if folder == "." else folder + "/") + (m if stems.count(st) > 1 else st)
            for m, st in zip(mains, stems)]


def alternatives(regex):
    """REGEX's top-level alternatives, in order: `a|(b|c)|[|]d` -> ['a', '(b|c)', '[|]d'] (a `|` inside a
    group, a character class or after a backslash does not split)."""
    out, cur, depth, klass, i = [], "", 0, False, 0
    while i < len(regex):
        ch = regex[i]
        if ch == "\\" and i + 1 < len(regex):
            cur += regex[i:i + 2]
            i += 2
            continue
        if klass:
            klass = ch != "]" or cur.endswith("[") or cur.endswith("[^")
        elif ch == "[":
            klass = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append(cur)
            cur, i = "", i + 1
            continue
        cur += ch
        i += 1
    return out + [cur]


def queue_rank(key, first, last):
    """A unit's place in the queue: (0, k) for one matching FIRST's k-th alternative first (the known long
    units, longest first), (2, 0) for LAST, (1, 0) otherwise."""
    for k, alt in enumerate(first):
        if alt.search(key):
            return (0, k)
    return (2, 0) if last and last.search(key) else (1, 0)


def safe(n):
    s = "".join(c if c.isalnum() or c in "-." else "_" for c in n)
    return "_root" if s == "." else s


def upper(v):
    return v.replace("-", " ").upper()


def secs(s):
    return f"{s:.2f}" if s and s > 0 else "-"


def main():
    # The program list and the default --ignore pattern, for wave64_suite_corpora.sh (one definition).
    if len(sys.argv) == 3 and sys.argv[1] == "--list":
        for folder in list_folders(sys.argv[2]):
            print(folder)
        return
    if len(sys.argv) == 2 and sys.argv[1] == "--ignore":
        print(IGNORE)
        return
    if len(sys.argv) < 4:
        sys.exit("usage: wave64_suite_pool.py FERRY OUT CORPUS...")
    ferry, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    jobs = int(os.environ.get("JOBS", "14"))
    cpu = os.environ.get("CPU_TIMEOUT", "120")
    wall = os.environ.get("TIMEOUT", str(int(float(cpu)) + 60))
    deadline_s = float(os.environ.get("DEADLINE", "0"))
    first = [re.compile(a) for a in alternatives(os.environ["FIRST"])] if os.environ.get("FIRST") else []
    last = re.compile(os.environ["LAST"]) if os.environ.get("LAST") else None
    max_unit = int(os.environ.get("MAX_UNIT_JOBS", "4"))
    sizes = {}
    if os.environ.get("SIZES"):
        for line in open(os.environ["SIZES"]):
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, args = line.partition(" ")
                sizes[key] = args.strip()
    t0 = time.monotonic()
    deadline = t0 + deadline_s if deadline_s > 0 else None
    os.makedirs(out, exist_ok=True)

    corpora = []
    for c in sys.argv[3:]:
        c = os.path.abspath(c)
        if not os.path.isdir(c):
            log(f"skip: {c} is absent")
            continue
        name = os.path.basename(c)
        hip = is_hip_corpus(c)
        folders = list_folders(c, hip)
        os.makedirs(os.path.join(out, name), exist_ok=True)
        with open(os.path.join(out, name, "list.txt"), "w") as f:
            f.write("".join(x + "\n" for x in folders))
        corpora.append({"name": name, "root": c, "hip": bool(hip), "folders": folders})
        log(f"{name}: {len(folders)} folder(s){' (HIP, wave 32 vs 64)' if hip else ''}")

    # The CUDA corpora's ports, all at once (each `ferry migrate` is one process).
    procs = []
    for c in corpora:
        if c["hip"] or not c["folders"]:
            continue
        c["port"] = os.path.join(out, c["name"], "port")
        if os.path.exists(os.path.join(c["port"], ".ferry")):
            continue
        lf = open(os.path.join(out, c["name"], "migrate.log"), "w")
        procs.append((c, lf, subprocess.Popen([ferry, "migrate", c["root"], "--to", "hip", "-q", "-o", c["port"]],
                                              stdout=lf, stderr=subprocess.STDOUT)))
    for c, lf, p in procs:
        rc = p.wait()
        lf.close()
        log(f"{c['name']}: migrated (exit {rc})")
        if rc > 1:
            c["migrate_failed"] = f"ferry migrate exit {rc} (see migrate.log)"
    log(f"migration: {time.monotonic() - t0:.0f} s")

    units = []
    for c in corpora:
        for folder in c["folders"]:
            progs = programs_of(c["root"], folder)
            key = c["name"] + "/" + folder
            rank = queue_rank(key, first, last)
            units.append({"corpus": c, "folder": folder, "programs": progs, "rank": rank,
                          "jobs": max(1, min(len(progs), max_unit, jobs)), "state": "queued"})
    units.sort(key=lambda u: u["rank"])  # stable: corpus order within a rank and alternative

    def start(u):
        c = u["corpus"]
        res = os.path.join(out, c["name"], "units", safe(u["folder"]))
        os.makedirs(res, exist_ok=True)
        with open(os.path.join(res, "list.txt"), "w") as f:
            args = sizes.get(c["name"] + "/" + u["folder"])
            f.write(u["folder"] + (" " + args if args else "") + "\n")
        cmd = [ferry, "diffrun", "--wave64", "--suite", c["root"], "--list", os.path.join(res, "list.txt"),
               "--results", res, "-j", str(u["jobs"]), "--timeout", wall, "--ignore", IGNORE, "-q",
               "--cpu-timeout", cpu]
        if c["hip"]:
            cmd += ["--ref-api", "hip", "--ref-wave", "32", "--wave64-flag=--std=gnu++20"]
        else:
            cmd += ["--port-dir", c["port"]]
        u["res"] = res
        u["out"] = open(os.path.join(res, "table.txt"), "w")
        u["err"] = open(os.path.join(res, "stderr.txt"), "w")
        u["proc"] = subprocess.Popen(cmd, stdout=u["out"], stderr=u["err"], start_new_session=True)
        u["state"] = "running"
        u["t"] = time.monotonic()

    free = jobs
    queue = [u for u in units if not u["corpus"].get("migrate_failed")]
    running = []
    while queue or running:
        now = time.monotonic()
        if deadline and now >= deadline:
            for u in running:
                try:
                    os.killpg(u["proc"].pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                u["proc"].wait()
                u["state"] = "killed"
                log(f"deadline: killed {u['corpus']['name']}/{u['folder']}")
            running = []
            break
        while queue and (queue[0]["jobs"] <= free or not running):
            u = queue.pop(0)
            free -= u["jobs"]
            start(u)
            running.append(u)
            log(f"start {u['corpus']['name']}/{u['folder']} (-j {u['jobs']}, {len(queue)} queued)")
        time.sleep(0.5)
        for u in list(running):
            if u["proc"].poll() is not None:
                running.remove(u)
                free += u["jobs"]
                u["state"] = "done"
                u["out"].close()
                u["err"].close()
                log(f"done {u['corpus']['name']}/{u['folder']} exit {u['proc'].returncode} "
                    f"in {time.monotonic() - u['t']:.0f} s")

    # Per corpus: the suite's layout, from the units' program results.
    summary = ["corpus\tprograms\tsame\tdifferent\tboth_failed\ttimeout\tbuild_failed\tunsupported\tnot_runnable\t"
               "not_reached"]
    for c in corpora:
        base = os.path.join(out, c["name"])
        os.makedirs(os.path.join(base, "programs"), exist_ok=True)
        entries = []
        for u in (u for u in units if u["corpus"] is c):
            got = {}
            pdir = os.path.join(u.get("res", ""), "programs")
            if u.get("res") and os.path.isdir(pdir):
                for f in sorted(os.listdir(pdir)):
                    try:
                        j = json.load(open(os.path.join(pdir, f)))
                    except (OSError, ValueError):
                        continue
                    got[j.get("program")] = j
                    with open(os.path.join(base, "programs", f), "w") as w:
                        json.dump(j, w, indent=2)
            why = c.get("migrate_failed") or {"queued": "not started before the deadline",
                                               "killed": "stopped at the deadline"}.get(u["state"], "no result")
            for p in sorted(set(u["programs"]) | set(got)):
                j = got.get(p)
                if j is None:
                    entries.append({"program": p, "verdict": "not-reached", "ref_s": 0, "port_s": 0,
                                    "first_difference": why, "args": "", "args_from": "", "sources": [],
                                    "resumed": False})
                else:
                    entries.append({k: j.get(k) for k in ("program", "verdict", "ref_s", "port_s",
                                                          "first_difference", "args", "args_from", "sources")}
                                   | {"resumed": False})
        entries.sort(key=lambda e: e["program"])
        counts = {}
        for e in entries:
            counts[e["verdict"]] = counts.get(e["verdict"], 0) + 1
        res = {"ref_root": c["root"], "port_root": c.get("port", c["root"]),
               "ref_wave": 32, "port_wave": 64, "counts": counts, "programs": entries}
        with open(os.path.join(base, "results.json"), "w") as f:
            json.dump(res, f, indent=2)
        w = max([7] + [len(e["program"]) for e in entries])
        lines = [f"{'program':<{w}}  {'verdict':<12}  {'ref s':>8}  {'port s':>8}  first difference"]
        for e in entries:
            lines.append(f"{e['program']:<{w}}  {upper(e['verdict']):<12}  {secs(e['ref_s']):>8}  "
                         f"{secs(e['port_s']):>8}  {e['first_difference']}")
        lines.append(f"{len(entries)} program(s):" + "".join(f" {n} {upper(v)}" for v, n in sorted(counts.items())))
        with open(os.path.join(base, "table.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        summary.append("\t".join([c["name"], str(len(entries))] + [str(counts.get(k, 0)) for k in
                                  ("same", "different", "both-failed", "timeout", "build-failed", "unsupported", "not-runnable",
                                   "not-reached")]))
        log(lines[-1].replace("program(s):", f"program(s) of {c['name']}:"))
    with open(os.path.join(out, "summary.tsv"), "w") as f:
        f.write("\n".join(summary) + "\n")
    log(f"total: {time.monotonic() - t0:.0f} s")


if __name__ == "__main__":
    main()
