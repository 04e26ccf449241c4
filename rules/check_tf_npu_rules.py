#!/usr/bin/env python3
"""Checks the TensorFlow -> NPU adapter rules (rules/tf2npu/*.tsv) against the adapter's API table
(rules/tf_npu/api.tsv, written by rules/make_npu_bridge_api.py): the format of every row, and that
every NPU name a row emits, and every keyword it passes to one, exists in the adapter.

    python3 rules/check_tf_npu_rules.py [RULES_DIR]

What is checked, per action (the actions are described in the tables' header):
  rename   the npu name is in the table; each keyword the row's operations write (renamed to, added,
           set) is one of its parameters
  wrap     the npu function is in the table and takes the wrap parameter
  replace  the npu expression parses as Python; every call in it whose name is not a builtin or of
           `os`/`tf` is in the table, with each keyword it passes
  args     each `a%FUNC.PARAM` operation's FUNC is in the table and takes PARAM
  import   the line is `from M import N` with M.N an npu_bridge module of the table
Exit status 1 with the problems listed when any check fails."""
import ast
import builtins
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ACTIONS = {"rename", "args", "wrap", "replace", "remove", "import", "manual"}
OP = re.compile(r"^(?:@\d+:=.+|[A-Za-z_]\w*:=.+|\+\??[A-Za-z_]\w*=.+|[A-Za-z_]\w*%[\w.]+\.[A-Za-z_]\w*|"
                r"(?:@\d+|[A-Za-z_]\w*)->[A-Za-z_]\w*|(?:@\d+|[A-Za-z_]\w*)=drop)$")


def load_api(path):
    api = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            name, kind, params = line.split("\t")
            api[name] = (kind, None if params == "-" else [p for p in params.split(",") if p])
    return api


def takes(api, name, keyword):
    params = api[name][1]
    return params is None or keyword in params or any(p.startswith("**") for p in params)


def ops_of(args):
    return [] if args.strip() in ("", "-") else [x.strip() for x in args.split(";") if x.strip()]


def written_keywords(ops):
    out = []
    for op in ops:
        if ":=" in op and not op.startswith("@"):
            out.append(op.split(":=")[0])
        elif op.startswith("+"):
            out.append(op[1:].lstrip("?").split("=")[0])
        elif "->" in op:
            out.append(op.split("->")[1])
    return out


def check(rules_dir):
    api = load_api(os.path.join(rules_dir, "tf_npu", "api.tsv"))
    problems, rows, emitted = [], 0, set()
    folder = os.path.join(rules_dir, "tf2npu")
    seen = {}
    for fn in sorted(os.listdir(folder)):
        if not fn.endswith(".tsv"):
            continue
        with open(os.path.join(folder, fn), encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                where = f"tf2npu/{fn}:{no}"
                fields = line.split("\t")
                if len(fields) != 6:
                    problems.append(f"{where}: expected 6 TAB-separated fields, got {len(fields)}")
                    continue
                rows += 1
                tf, npu, action, args, note, majors = fields
                if majors not in ("*", "1", "2"):
                    problems.append(f"{where}: tf column must be *, 1 or 2")
                for m in ("1", "2") if majors == "*" else (majors,):
                    if (tf, m) in seen:
                        problems.append(f"{where}: {tf} repeats {seen[(tf, m)]}")
                    seen[(tf, m)] = where
                if action not in ACTIONS:
                    problems.append(f"{where}: unknown action {action}")
                    continue
                ops = [] if action == "wrap" else ops_of(args)
                for op in ops:
                    if not OP.match(op):
                        problems.append(f"{where}: malformed operation {op!r}")
                for op in ops:
                    if "%" in op:
                        target = op.split("%")[1]
                        func, param = target.rsplit(".", 1)
                        emitted.add(func)
                        if func not in api:
                            problems.append(f"{where}: {func} is not in tf_npu/api.tsv")
                        elif not takes(api, func, param):
                            problems.append(f"{where}: {func} takes no {param}")
                if action == "rename":
                    emitted.add(npu)
                    if npu not in api:
                        problems.append(f"{where}: {npu} is not in tf_npu/api.tsv")
                    else:
                        for k in written_keywords(ops):
                            if not takes(api, npu, k):
                                problems.append(f"{where}: {npu} takes no keyword {k}")
                elif action == "wrap":
                    emitted.add(npu)
                    if npu not in api:
                        problems.append(f"{where}: {npu} is not in tf_npu/api.tsv")
                    elif not takes(api, npu, args):
                        problems.append(f"{where}: {npu} takes no {args}")
                elif action == "replace":
                    expr = re.sub(r"\{[^}]*\}", "_arg", npu)
                    try:
                        tree = ast.parse(expr, mode="eval")
                    except SyntaxError as e:
                        problems.append(f"{where}: the replacement does not parse: {e}")
                        continue
                    for node in ast.walk(tree):
                        if not isinstance(node, ast.Call):
                            continue
                        name = ast.unparse(node.func)
                        head = name.split(".")[0]
                        if hasattr(builtins, name) or head in ("os", "tf"):
                            continue
                        emitted.add(name)
                        if name not in api:
                            problems.append(f"{where}: {name} is not in tf_npu/api.tsv")
                            continue
                        for kw in node.keywords:
                            if kw.arg and not takes(api, name, kw.arg):
                                problems.append(f"{where}: {name} takes no keyword {kw.arg}")
                        if api[name][1] is not None and len(node.args) > len([p for p in api[name][1]
                                                                               if not p.startswith("*")]):
                            problems.append(f"{where}: {name} takes fewer positional arguments")
                elif action == "import":
                    m = re.match(r"^from ([\w.]+) import (\w+)$", npu)
                    if not m:
                        problems.append(f"{where}: import line must be `from M import N`")
                    elif f"{m.group(1)}.{m.group(2)}" not in api:
                        problems.append(f"{where}: {m.group(1)}.{m.group(2)} is not an npu_bridge module")
                    else:
                        emitted.add(f"{m.group(1)}.{m.group(2)}")
    # what the converter writes itself (src/targets/tf_npu/convert.cpp): the star import
    # and the Keras session of a TensorFlow 1.15 __main__ block
    for name in ("npu_bridge.npu_init", "set_keras_session_npu_config", "close_session"):
        if name not in api:
            problems.append(f"{name} (written by the converter itself) is not in tf_npu/api.tsv")
    return rows, emitted, problems


def main():
    rules_dir = sys.argv[1] if len(sys.argv) > 1 else HERE
    rows, emitted, problems = check(rules_dir)
    for p in problems:
        print("ERROR", p, file=sys.stderr)
    print(f"{rows} rows, {len(emitted)} NPU names emitted, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
