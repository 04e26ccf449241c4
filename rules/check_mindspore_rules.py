#!/usr/bin/env python3
"""Checks the PyTorch->MindSpore and TensorFlow->MindSpore mapping tables (rules/torch2mindspore/*.tsv,
rules/tf2mindspore/*.tsv) against the real
MindSpore API (rules/mindspore/api.tsv, written by rules/make_mindspore_api.py): every MindSpore
name a row emits must be in the API table, and every keyword a row produces (`old->new`,
`+new=EXPR`, `@N->new`) must be a parameter of that name (unless the table does not know the
parameters, `-`, or the target takes **kwargs). Also checks the format: 5 columns, a known status,
well-formed keyword operations, one row per torch name.

core.tsv is the mindspore target's hand-checked table (its header says so), with three conventions
of its own: its rows win over the same torch name in the generated files (a later duplicate of a
core.tsv row is shadowed, not an error); a package itself may be a row (`torch`, `torchvision`);
an unsupported row may name the nearest MindSpore API for its hint (then that name must exist), and
a same/diff row with mindspore `-` drops the call (`.contiguous()`, `torch.no_grad`).

    python3 rules/check_mindspore_rules.py [--stats]

Exit 1 with one line per miss. Fix the row (or regenerate the API table), never this check."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATUSES = {"same", "diff", "unsupported"}
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
OPS = [re.compile(rf"^({IDENT})->({IDENT})$"), re.compile(rf"^({IDENT})=drop$"),
       re.compile(rf"^\+({IDENT})=(.+)$"), re.compile(rf"^@([0-9]+)->({IDENT})$")]


def load_api():
    api = {}
    with open(os.path.join(ROOT, "rules", "mindspore", "api.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, kind, params = line.rstrip("\n").split("\t")
            api[name] = (kind, None if params == "-" else [p for p in params.split(",") if p])
    return api


def check(api):
    misses, seen, stats = [], {}, {}
    paths = sorted(glob.glob(os.path.join(ROOT, "rules", "torch2mindspore", "*.tsv")))
    paths += sorted(glob.glob(os.path.join(ROOT, "rules", "tf2mindspore", "*.tsv")))
    for path in paths:
        rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                where = f"{rel}:{no}"
                cols = line.split("\t")
                if len(cols) != 5:
                    misses.append(f"{where}: 5 tab-separated columns expected, got {len(cols)}")
                    continue
                torch, ms, status, args, note = cols
                core = os.path.basename(path) == "core.tsv"
                if not re.fullmatch(rf"(torch|torchvision|torchaudio|torchtext|tf)(\.{IDENT}){'*' if core else '+'}", torch):
                    misses.append(f"{where}: bad torch name {torch!r}")
                if torch in seen:
                    if os.path.basename(seen[torch].split(":")[0]) != "core.tsv":
                        misses.append(f"{where}: {torch} already at {seen[torch]}")
                    continue  # shadowed by the core row
                seen[torch] = where
                if status not in STATUSES:
                    misses.append(f"{where}: unknown status {status!r}")
                stats[status] = stats.get(status, 0) + 1
                if "\t" in note or len(note) > (240 if core else 160):  # core notes are the hints users read
                    misses.append(f"{where}: the note is one short line")
                if status == "unsupported":
                    if args != "-" or (ms != "-" and not core):
                        misses.append(f"{where}: an unsupported row has mindspore '-' and args '-'")
                    elif ms != "-" and ms not in api:
                        misses.append(f"{where}: the hint's {ms} is not in rules/mindspore/api.tsv")
                    continue
                if ms == "-" and core:
                    continue  # the call is dropped
                if ms not in api:
                    misses.append(f"{where}: {ms} is not in rules/mindspore/api.tsv")
                    continue
                kind, params = api[ms]
                if args == "-":
                    continue
                open_kw = params is None or any(p.startswith("**") for p in params)
                for op in args.split(";"):
                    m = next((r.match(op) for r in OPS if r.match(op)), None)
                    if m is None:
                        misses.append(f"{where}: bad keyword operation {op!r}")
                        continue
                    new = None
                    if op.startswith("+"):
                        new = m.group(1)
                    elif "->" in op:
                        new = m.group(2)
                    if new and not open_kw and new not in params:
                        misses.append(f"{where}: {ms} has no parameter {new!r} (from {op!r})")
    return misses, len(seen), stats


def main():
    api = load_api()
    misses, rows, stats = check(api)
    for m in misses:
        print(m)
    print(f"{rows} mapping rows ({', '.join(f'{k} {v}' for k, v in sorted(stats.items()))}); "
          f"{len(misses)} misses against {len(api)} MindSpore API names")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
