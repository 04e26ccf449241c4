#!/usr/bin/env python3
"""TensorFlow → TensorFlow's NPU adapter (npu_bridge) over real projects: per project, the
TensorFlow / Keras / Horovod API uses ferry found, how many it converted (the worklist's success
list), how many it left with a diagnostic (failed / needs manual), how many run as they are on the
adapter, the output files that compile as Python, and the NPU names the outputs call that are in
rules/tf_npu/api.tsv.
    bench/framework_tf_npu.py FERRY NAME=CHECKOUT[:SUBDIR] ... [--tf-version 2]   (a missing checkout is skipped)
Example: bench/framework_tf_npu.py build/ferry bert=/tmp/corpora/bert benchmarks=/tmp/corpora/benchmarks:scripts
Prints one Markdown table row per project (docs: bench/results/framework-tf-*.md).
"""
import ast
import builtins
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def api_table():
    names = {}
    for line in (ROOT / "rules/tf_npu/api.tsv").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        names[f[0]] = None if f[2] == "-" else [p for p in f[2].split(",") if p]
    return names


def npu_calls(path: Path, api):
    """(name, keywords) of each call in a converted file whose head is a name the star import of
    npu_bridge.npu_init binds (NPUEstimator, npu_ops.dropout, npu_config_proto ...)."""
    try:
        tree = ast.parse(path.read_text())
    except SyntaxError:
        return None
    if not any(isinstance(n, ast.ImportFrom) and n.module == "npu_bridge.npu_init" for n in ast.walk(tree)):
        return []
    bound = set()  # names the file binds itself shadow the star import
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            bound.add(n.name)
        elif isinstance(n, ast.Import):
            bound.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, ast.ImportFrom) and n.module != "npu_bridge.npu_init":
            bound.update(a.asname or a.name for a in n.names)
    heads = {k.split(".")[0] for k in api} - {"os", "tf", "backend", "config_pb2", "util"} - bound
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            name = ast.unparse(n.func)
            if name.split(".")[0] in heads and not hasattr(builtins, name):
                out.append((name, [k.arg for k in n.keywords if k.arg]))
    return out


def run(ferry, name, src, extra):
    api = api_table()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        rep = Path(tmp) / "report.json"
        subprocess.run([ferry, "migrate", str(src), "-o", str(out), "--to", "tf_npu", "--report", str(rep), "-q"] + extra,
                       capture_output=True, text=True)
        r = json.loads(rep.read_text())
        conv = r["totals"].get("converted", {})
        unconv = r["totals"].get("unconverted", {})
        wl = r["totals"].get("worklist", {})
        as_is = conv.get("unchanged", 0)
        success = wl.get("success", 0)
        failed = wl.get("failed", 0)
        manual = wl.get("needs_manual", 0)
        uses = as_is + success + failed + manual
        pyfiles = [f for f in r["files"] if f["path"].endswith(".py")]
        tf_files = [f for f in pyfiles if sum(f.get("converted", {}).values()) + sum(f.get("unconverted", {}).values())]
        compiled = total = 0
        names_ok = names_all = 0
        missing = Counter()
        by_api = Counter()
        for f in r["files"]:
            for w in f.get("worklist", []):
                by_api[(w["list"], w["api"])] += 1
        for f in pyfiles:
            p = out / f["path"]
            if not p.exists():
                continue
            total += 1
            try:
                compile(p.read_text(), str(p), "exec")
                compiled += 1
            except SyntaxError:
                pass
            for q, kws in npu_calls(p, api) or []:
                names_all += 1
                ok = q in api and (api[q] is None or all(k in api[q] or any(x.startswith("**") for x in api[q])
                                                         for k in kws))
                names_ok += ok
                if not ok:
                    missing[q] += 1
        pct = f"{100.0 * success / (success + failed + manual):.0f}%" if success + failed + manual else "-"
        print(f"| {name} | {len(pyfiles)} ({len(tf_files)} with TF) | {uses} | {as_is} | {success} | {failed} | "
              f"{manual} | {pct} | {compiled}/{total} | {names_ok}/{names_all} |")
        top = ", ".join(f"{l}:{a} {n}" for (l, a), n in by_api.most_common(12))
        print(f"<!-- {name}: {top} -->")
        if missing:
            print(f"<!-- {name}: names outside api.tsv: {dict(missing)} -->")
        return uses, as_is, success, failed, manual, compiled, total, names_ok, names_all


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    ferry = argv[1]
    extra = []
    args = argv[2:]
    if "--tf-version" in args:
        i = args.index("--tf-version")
        extra = ["--tf-version", args[i + 1]]
        del args[i:i + 2]
    print("| project | .py files | TF API uses | run as they are | converted | failed | needs manual | "
          "converted of those with a rule | py_compile | NPU calls in api.tsv |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    tot = [0] * 9
    for spec in args:
        name, _, where = spec.partition("=")
        path, _, sub = where.partition(":")
        src = Path(path) / sub if sub else Path(path)
        if not src.exists():
            print(f"<!-- {name}: {src} is absent, skipped -->")
            continue
        row = run(ferry, name, src, extra)
        tot = [a + b for a, b in zip(tot, row)]
    u, a, s, f, m, c, t, no, na = tot
    pct = f"{100.0 * s / (s + f + m):.0f}%" if s + f + m else "-"
    print(f"| **all** | | {u} | {a} | {s} | {f} | {m} | {pct} | {c}/{t} | {no}/{na} |")


if __name__ == "__main__":
    main(sys.argv)
