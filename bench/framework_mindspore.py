#!/usr/bin/env python3
"""PyTorch → MindSpore over real projects: per project, the torch API uses ferry found, how many it
converted (same / with a documented difference), how many it left with a diagnostic, the output files
that compile as Python, and the MindSpore names (and keywords) the outputs use that are in
rules/mindspore/api.tsv.

    bench/framework_mindspore.py FERRY NAME=CHECKOUT[:SUBDIR] ...   (a missing checkout is skipped)
    bench/framework_mindspore.py --tensorflow FERRY NAME=CHECKOUT ...  (TensorFlow/Keras projects: their uses)

Example: bench/framework_mindspore.py build/ferry examples=/tmp/corpora/examples:mnist nanoGPT=/tmp/corpora/nanoGPT
Prints one Markdown table row per project (docs: bench/results/framework-*.md).
"""
import ast
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def api_table():
    names = {}
    for line in (ROOT / "rules/mindspore/api.tsv").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        params = None if len(f) < 3 or f[2] == "-" else [p for p in f[2].split(",") if p]
        names[f[0]] = params
    return names


def mindspore_uses(path: Path):
    """(qualified name, [keywords]) of each reference to a mindspore module alias in one file."""
    tree = ast.parse(path.read_text())
    alias = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "mindspore":
                    if a.asname:
                        alias[a.asname] = a.name
                    else:
                        alias["mindspore"] = "mindspore"
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "mindspore":
            for a in node.names:
                alias[a.asname or a.name] = node.module + "." + a.name
    calls = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            calls[id(node.func)] = [k.arg for k in node.keywords if k.arg]
    out = []

    def chain(n):
        if isinstance(n, ast.Name):
            return alias.get(n.id)
        if isinstance(n, ast.Attribute):
            base = chain(n.value)
            return base + "." + n.attr if base else None
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            q = chain(node)
            if q:
                out.append((node, q))
    # keep the longest chains only (ms.nn.Dense, not ms.nn as well)
    inner = {id(n.value) for n, _ in out}
    return [(q, calls.get(id(n), [])) for n, q in out if id(n) not in inner]


def run(ferry, name, src):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        rep = Path(tmp) / "report.json"
        subprocess.run([ferry, "migrate", str(src), "-o", str(out), "--to", "mindspore", "--report", str(rep), "-q"],
                       capture_output=True, text=True)
        r = json.loads(rep.read_text())
        conv = r["totals"].get("converted", {})
        unconv = r["totals"].get("unconverted", {})
        # tf_*: TensorFlow / Keras uses, counted apart; --tensorflow reports those instead of torch's
        pre = "tf_" if TENSORFLOW else ""
        same, diff = conv.get(pre + "same", 0), conv.get(pre + "diff", 0)
        left = sum(v for k, v in unconv.items() if k.startswith("tf_") == bool(TENSORFLOW))
        found = same + diff + left
        files = sorted(out.rglob("*.py"))
        compiled = 0
        api = api_table()
        names_total, names_in, missing = 0, 0, set()
        for f in files:
            try:
                compile(f.read_text(), str(f), "exec")
                compiled += 1
            except SyntaxError:
                continue
            for q, kws in mindspore_uses(f):
                names_total += 1
                ok = q in api and all(api[q] is None or k in api[q] or any(p.startswith("**") for p in api[q])
                                      for k in kws)
                names_in += ok
                if not ok:
                    missing.add(q + ("(" + ",".join(kws) + ")" if q in api else ""))
        diags = {}
        for d in r.get("diagnostics", []):
            diags[d["code"]] = diags.get(d["code"], 0) + 1
        share = 100.0 * (same + diff) / found if found else 0.0
        print(f"| {name} | {len(files)} | {found} | {same + diff} ({share:.0f}%) | {diff} | {left} | "
              f"{compiled}/{len(files)} | {names_in}/{names_total} |")
        if missing:
            print(f"<!-- {name}: not in api.tsv: {', '.join(sorted(missing))} -->")
        top = sorted(diags.items(), key=lambda kv: -kv[1])[:6]
        print(f"<!-- {name}: diagnostics {top} -->", file=sys.stderr)


TENSORFLOW = False


def main(argv):
    global TENSORFLOW
    if "--tensorflow" in argv:
        TENSORFLOW = True
        argv = [a for a in argv if a != "--tensorflow"]
    if len(argv) < 3:
        print(__doc__)
        return 2
    ferry = argv[1]
    print(f"| project | .py files | {'TensorFlow/Keras' if TENSORFLOW else 'torch'} API uses | converted | "
          "with a difference | diagnosed | py_compile | "
          "emitted names in api.tsv |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in argv[2:]:
        name, _, path = spec.partition("=")
        path, _, sub = path.partition(":")
        src = Path(path) / sub if sub else Path(path)
        if not src.exists():
            print(f"| {name} | skipped: {src} is absent | | | | | | |")
            continue
        run(ferry, name, src)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
