#!/usr/bin/env python3
"""Compare the kernels of two builds of the GPU codecs function by function, in PTX.

  nvcc -O3 -DNDEBUG -arch=compute_90 -fmad=false -std=c++20 -x cu -ptx FILE.cu -o FILE.ptx  (per file)
  comm/bench/compare_ptx.py OLD.ptx[,OLD2.ptx...] NEW.ptx[,NEW2.ptx...]

Functions are matched by their demangled names with anonymous and detail namespaces removed (a
refactoring moves kernels between files and namespaces); bodies are compared with the function's
own name, labels and local-depot numbers normalised. Prints SAME/DIFF per function and exits 1 if
any function differs or exists on one side only. Needs c++filt (binutils).
"""
import difflib
import re
import subprocess
import sys


def parse(paths):
    out = {}
    for path in paths:
        cur, body = None, []
        for line in open(path, encoding="utf-8").read().split("\n"):
            m = re.match(r"^(?:\.visible |\.weak |\.extern )*\.(entry|func)\s+(?:\([^)]*\)\s*)?(\S+?)\(", line)
            if m and cur is None:
                cur, body = m.group(2), [line]
                continue
            if cur is not None:
                body.append(line)
                if line == "}":
                    out[cur] = body
                    cur = None
    return out


def demangle(names):
    res = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True)
    clean = []
    for d in res.stdout.split("\n")[: len(names)]:
        d = re.sub(r"_INTERNAL_\w+::", "", d)
        clean.append(d.replace("(anonymous namespace)::", "").replace("::detail::", "::"))
    return clean


def normalised(name, body):
    s = "\n".join(body).replace(name, "NAME")
    s = re.sub(r"_Z\w+", "MANGLED", s)
    s = re.sub(r"\$L__BB\d+_", "$L__BB_", s)
    return re.sub(r"__local_depot\d+", "__local_depot", s)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    sides = []
    for arg in sys.argv[1:]:
        funcs = parse(arg.split(","))
        keys = list(funcs)
        sides.append({d: (k, funcs[k]) for d, k in zip(demangle(keys), keys)})
    old, new = sides
    bad = 0
    for name in sorted(set(old) | set(new)):
        if name not in old or name not in new:
            print(("NEW ONLY " if name not in old else "OLD ONLY ") + name)
            bad += 1
            continue
        a, b = normalised(*old[name]), normalised(*new[name])
        if a == b:
            print("SAME " + name)
            continue
        bad += 1
        print("DIFF " + name)
        for line in list(difflib.unified_diff(a.split("\n"), b.split("\n"), lineterm="", n=0))[2:12]:
            print("    " + line)
    print(f"{len(set(old) | set(new)) - bad} same, {bad} different")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
