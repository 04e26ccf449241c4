#!/usr/bin/env python3
"""Per-corpus table of `ferry diffrun --wave64 --suite` results (bench/wave64_suite_corpora.sh).

Usage: wave64_suite_summary.py CORPUS_LIST_DIR [--old DIR]... [--per-program] [--stubs] RESULTS_DIR...

--per-program adds one Markdown table per corpus: program, verdict, CPU seconds of each side's run
(the runner's cpu_seconds, user + system of the program's process group), first difference.
--stubs counts a BUILD FAILED whose reason is the runtime's own `#error "wave64 CPU runtime:
<HEADER> (LIBRARY) is not supported"` as UNSUPPORTED (what a ferry with FRY9412 reports for it;
results of an older ferry), marked "(stub #error)".

CORPUS_LIST_DIR/NAME/list.txt lists each corpus's program folders (the script writes it; a folder
holds one program per source with a main, named FOLDER/STEM in the results). A program's
verdict is read from the first RESULTS_DIR/NAME/programs/*.json that has it (this run's); a
program none of them has yet is taken from the newest --old DIR/NAME/programs/*.json (an earlier
run), and counted as "not re-run" (NAME-rerun* folders beside an --old DIR count as NAME's). Prints a Markdown table and every program that is not SAME.
"""
import argparse
import glob
import json
import os
import re

KINDS = ["same", "different", "both-failed", "timeout", "build-failed", "unsupported", "not-runnable"]


def safe(name):
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def load(dirs, corpus, reruns=False):
    found = {}
    for d in dirs:
        # An earlier run's re-runs of some programs sit beside it as NAME-rerun, NAME-rerun2...
        pattern = os.path.join(d, corpus + ("*" if reruns else ""), "programs", "*.json")
        for f in glob.glob(pattern):
            if reruns and os.path.basename(os.path.dirname(os.path.dirname(f))) not in (corpus,) and not \
                    os.path.basename(os.path.dirname(os.path.dirname(f))).startswith(corpus + "-rerun"):
                continue
            try:
                j = json.load(open(f))
            except (OSError, ValueError):
                continue
            key = j.get("program", "")
            if key not in found or os.path.getmtime(f) > found[key][0]:
                found[key] = (os.path.getmtime(f), j, d)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lists")
    ap.add_argument("results", nargs="+")
    ap.add_argument("--old", action="append", default=[])
    ap.add_argument("--per-program", action="store_true")
    ap.add_argument("--stubs", action="store_true")
    a = ap.parse_args()
    stub_path = re.compile(r'wave64/(cuda|hip)/(\S+?):\d+:\d+: error: #error')
    runtime = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime", "wave64")

    def stub_library(why):
        # The runner's reason is cut at 140 characters: the stub header's path is what is left.
        m = stub_path.search(why)
        if not m:
            return None
        try:
            t = open(os.path.join(runtime, m.group(1), m.group(2))).read()
        except OSError:
            return None
        n = re.search(r'wave64 CPU runtime: <([^>]+)> \(([^)]+)\) is not supported', t)
        return (n.group(1), n.group(2)) if n else None
    tables = []
    total = {k: 0 for k in KINDS + ["programs", "old", "missing"]}
    rows, notes = [], []
    for corpus in sorted(os.listdir(a.lists)):
        lst = os.path.join(a.lists, corpus, "list.txt")
        if not os.path.isfile(lst):
            continue
        folders = [l.strip() for l in open(lst) if l.strip()]
        new = {}
        for d in a.results:
            for k, v in load([d], corpus).items():
                new.setdefault(k, v)
        old = load(a.old, corpus, reruns=True) if a.old else {}
        # A folder may hold several programs (one per source with a main): NAME/STEM.
        keys = sorted(set(new) | {k for k in old if any(k == f or k.startswith(f + "/") for f in folders)})
        progs = keys + [f for f in folders if not any(k == f or k.startswith(f + "/") for k in keys)]
        c = {k: 0 for k in KINDS + ["programs", "old", "missing"]}
        table = []
        for p in progs:
            c["programs"] += 1
            e, tag = new.get(p), ""
            if e is None and p in old:
                e, tag = old[p], " (not re-run: verdict of " + old[p][2] + ")"
                c["old"] += 1
            if e is None:
                c["missing"] += 1
                notes.append((corpus, p, "not run", ""))
                table.append((p, "NOT RUN", None, None, ""))
                continue
            j = e[1]
            v = j.get("verdict", "?")
            why = j.get("first_difference") or ""
            if v == "both-failed" and why == "reference: exit 152; port: exit 152":
                # 128 + SIGXCPU: both sides reached the CPU limit; the runner of 12-05 took that for a
                # failure when wait4 counted a little less CPU than the limit (fixed since).
                v, tag = "timeout", tag + " (exit 152 = the CPU limit on both sides)"
            lib = stub_library(why) if a.stubs and v == "build-failed" else None
            if lib:
                v, tag = "unsupported", tag + " (stub #error)"
                why = f"{lib[1]} (<{lib[0]}>; {why.split(':')[0].replace('build failed ', '')})"
            c[v] = c.get(v, 0) + 1
            d = j.get("diffrun") or {}
            cpu = []
            for side in ("reference", "port"):
                runs = (d.get(side) or {}).get("runs") or []
                cpu.append(runs[0].get("cpu_seconds") if runs else None)
            table.append((p, v.replace("-", " ").upper() + tag, cpu[0], cpu[1], why))
            if v != "same":
                notes.append((corpus, p, v + tag, (j.get("first_difference") or "")[:160]))
        for k in c:
            total[k] = total.get(k, 0) + c[k]
        rows.append((corpus, c))
        tables.append((corpus, table))
    print("| corpus | programs | built (both sides) | ran to completion | SAME | DIFFERENT | BOTH FAILED | TIMEOUT "
          "| BUILD FAILED | UNSUPPORTED | not re-run (older verdict) | not run |")
    print("|---|" + "---:|" * 11)
    for corpus, c in rows + [("**all**", total)]:
        built = c["same"] + c["different"] + c["both-failed"] + c["timeout"]
        ran = c["same"] + c["different"] + c["both-failed"]
        print(f"| {corpus} | {c['programs']} | {built} | {ran} | {c['same']} | {c['different']} | {c['both-failed']} "
              f"| {c['timeout']} | {c['build-failed']} | {c['unsupported']} | {c['old']} | {c['missing']} |")
    print()
    if a.per_program:
        for corpus, table in tables:
            print(f"#### {corpus}\n")
            print("| program | verdict | CPU s reference | CPU s port | first difference |")
            print("|---|---|---:|---:|---|")
            for p, v, r, q, why in table:
                f = lambda x: "-" if x is None else f"{x:.2f}"
                print(f"| `{p}` | {v} | {f(r)} | {f(q)} | {why[:200].replace('|', '/')} |")
            print()
        return
    for corpus, p, v, why in notes:
        print(f"- {corpus} `{p}`: {v}" + (f" — {why}" if why else ""))


if __name__ == "__main__":
    main()
