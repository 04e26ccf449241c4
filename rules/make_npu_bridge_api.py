#!/usr/bin/env python3
"""Writes rules/tf_npu/api.tsv: what a TensorFlow script can call after
`from npu_bridge.npu_init import *` (TensorFlow's NPU adapter, Ascend/tensorflow), as facts (names,
kinds, parameter names), read from the adapter's source without importing it.

    python3 rules/make_npu_bridge_api.py ADAPTER_CHECKOUT [COMMIT] > rules/tf_npu/api.tsv

ADAPTER_CHECKOUT is the root of an Ascend/tensorflow tree (or a copy of its tf_adapter/python and
tf_adapter/ops folders at the same paths). Three sources make the table:
  * npu_bridge/npu_init.py read with `ast`: every public name it binds (its own def/class, and each
    `from M import a` / `import M`), which a star import brings into the script; a name imported from
    a module of npu_bridge gets the parameters of its def (a class: its __init__'s, without self);
    one from outside npu_bridge (hccl.manage.api, tensorflow) gets `-` (not known here);
  * the modules npu_init binds (`npu_ops`, `npu_strategy`, `hccl_ops`, `util`, ...): their public
    module-level defs and classes, as `module.name`;
  * every module of the npu_bridge package, as `npu_bridge.x.y` (kind module), for import lines;
  * the operator registrations tf_adapter/ops/**/*.cc (REGISTER_OP("Gelu").Input("features: T")...),
    from which TensorFlow generates the Python wrappers that npu_bridge loads with
    helper.get_gen_ops() (npu_unary_ops = helper.get_gen_ops()): one function per op, named in
    snake case, its parameters the inputs, then the attributes not inferred from the inputs'
    types, then `name`.
Output: `name<TAB>kind<TAB>params`, sorted; kind is function|class|module|attribute; params are the
parameter names in order, `*args`/`**kwargs` literally, `-` when not known."""
import ast
import os
import re
import sys

PY = "tf_adapter/python"
OPS = "tf_adapter/ops"


def module_path(root, module):
    base = os.path.join(root, PY, *module.split("."))
    for p in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(p):
            return p
    return None


def read_module(root, module):
    p = module_path(root, module)
    if p is None:
        return None
    with open(p, encoding="utf-8") as f:
        return ast.parse(f.read(), p)


def params_of(fn, skip_self):
    a = fn.args
    out = [x.arg for x in a.posonlyargs + a.args]
    if skip_self and out and out[0] in ("self", "cls"):
        out = out[1:]
    if a.vararg:
        out.append("*" + a.vararg.arg)
    out += [x.arg for x in a.kwonlyargs]
    if a.kwarg:
        out.append("**" + a.kwarg.arg)
    return out


def class_params(cls):
    for st in cls.body:
        if isinstance(st, ast.FunctionDef) and st.name in ("__init__", "__new__"):
            return params_of(st, True)
    return None  # inherits its constructor: not known here


def definitions(tree):
    """Public module-level defs and classes: name -> (kind, params or None)."""
    out = {}
    for st in tree.body:
        if isinstance(st, ast.FunctionDef) and not st.name.startswith("_"):
            out[st.name] = ("function", params_of(st, False))
        elif isinstance(st, ast.ClassDef) and not st.name.startswith("_"):
            out[st.name] = ("class", class_params(st))
    return out


def fmt(params):
    if params is None:
        return "-"
    return ",".join(params)


CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def snake(name):
    return CAMEL.sub("_", name).lower()


def registered_ops(root):
    """REGISTER_OP blocks of tf_adapter/ops: op name -> parameter list of its generated wrapper."""
    ops = {}
    for dirpath, _, files in os.walk(os.path.join(root, OPS)):
        for fn in sorted(files):
            if not fn.endswith(".cc"):
                continue
            with open(os.path.join(dirpath, fn), encoding="utf-8", errors="replace") as f:
                text = f.read()
            for m in re.finditer(r'REGISTER_OP\("(\w+)"\)(.*?);', text, re.S):
                name, body = m.group(1), m.group(2)
                inputs, attrs, typed = [], [], set()
                for kind, spec in re.findall(r'\.(Input|Output|Attr)\(\s*"([^"]*)"', body):
                    key, _, ty = spec.partition(":")
                    key, ty = key.strip(), ty.strip()
                    if kind in ("Input", "Output"):
                        if kind == "Input":
                            inputs.append(key)
                        # "T", "N * T", "Tlist" name attributes the inputs' types infer
                        for w in re.findall(r"[A-Za-z_]\w*", ty):
                            typed.add(w)
                    else:
                        attrs.append((key, "=" in ty))
                params = list(inputs)
                params += [a for a, _ in attrs if a not in typed]
                params.append("name")
                ops[name] = params
    return ops


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else "(unknown commit)"
    init = read_module(root, "npu_bridge.npu_init")
    if init is None:
        sys.exit(f"{root}: no {PY}/npu_bridge/npu_init.py")
    rows = {}
    gen_ops = registered_ops(root)
    modules = {}  # bound module alias -> module path
    for st in init.body:
        if isinstance(st, ast.ImportFrom) and st.module:
            for a in st.names:
                bound = a.asname or a.name
                if bound.startswith("_") or a.name == "*":
                    continue
                sub = read_module(root, st.module + "." + a.name) if st.module.startswith("npu_bridge") else None
                if sub is not None:
                    rows[bound] = ("module", None)
                    modules[bound] = sub
                    continue
                src = read_module(root, st.module) if st.module.startswith("npu_bridge") else None
                if src is not None:
                    defs = definitions(src)
                    if a.name in defs:
                        rows[bound] = defs[a.name]
                        continue
                    # a module-level assignment: npu_unary_ops = helper.get_gen_ops()
                    gen = any(isinstance(x, ast.Assign) and any(isinstance(t, ast.Name) and t.id == a.name
                                                                for t in x.targets)
                              and "get_gen_ops" in ast.unparse(x.value) for x in src.body)
                    if gen:
                        rows[bound] = ("module", None)
                        for op, params in gen_ops.items():
                            rows[bound + "." + snake(op)] = ("function", params)
                        continue
                kind = "class" if a.name[:1].isupper() else "function"
                if st.module.startswith("tensorflow"):
                    kind = "module" if a.name.islower() and a.name.endswith(("_pb2", "session", "backend",
                                                                              "session_run_hook")) else kind
                rows[bound] = (kind, None)
        elif isinstance(st, ast.Import):
            for a in st.names:
                bound = a.asname or a.name.split(".")[0]
                if not bound.startswith("_"):
                    rows[bound] = ("module", None)
    for name, v in definitions(init).items():
        rows[name] = v
    # the modules of the package itself, for import lines (from npu_bridge.estimator.npu import npu_convert_dropout)
    pkg = os.path.join(root, PY, "npu_bridge")
    for dirpath, _, files in os.walk(pkg):
        for fn in files:
            if fn.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, fn), os.path.join(root, PY))[:-3].replace(os.sep, ".")
                if rel.endswith(".__init__"):
                    rel = rel[: -len(".__init__")]
                if not any(part.startswith("_") for part in rel.split(".")):
                    rows[rel] = ("module", None)
    for alias, tree in modules.items():
        for name, v in definitions(tree).items():
            rows[alias + "." + name] = v
        for st in tree.body:  # gen_npu_ops = helper.get_gen_ops() inside a module: its ops too
            if isinstance(st, ast.Assign) and "get_gen_ops" in ast.unparse(st.value):
                for t in st.targets:
                    if isinstance(t, ast.Name) and not t.id.startswith("_"):
                        rows[alias + "." + t.id] = ("module", None)
    print("# TensorFlow NPU adapter (npu_bridge) API after `from npu_bridge.npu_init import *`, generated by "
          f"rules/make_npu_bridge_api.py from Ascend/tensorflow@{commit} (tf_adapter/python + tf_adapter/ops); "
          "name<TAB>kind<TAB>params; do not edit by hand")
    for name in sorted(rows):
        kind, params = rows[name]
        print(f"{name}\t{kind}\t{fmt(params)}")


if __name__ == "__main__":
    main()
