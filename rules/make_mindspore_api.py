#!/usr/bin/env python3
"""Writes rules/mindspore/api.tsv: the public MindSpore 2.x Python API as facts (names, kinds and
parameter names), read from a MindSpore source checkout without importing mindspore.

    python3 rules/make_mindspore_api.py MINDSPORE_CHECKOUT [COMMIT] > rules/mindspore/api.tsv

MINDSPORE_CHECKOUT is the root of a mindspore-ai/mindspore tree (or a copy of its
mindspore/python/mindspore, mindspore/ops/op_def (yaml/, deprecated/, func_op/) and mindspore/ops/api_def folders at the same
paths). Two sources make the API:
  * the Python package mindspore/python/mindspore/** read with `ast`: def/class signatures, the
    `from X import a as b` re-exports and `__all__` (lists, .extend/.append/+=, X.__all__);
  * the operator YAML from which MindSpore's build generates mindspore.ops.auto_generate (one
    function per mindspore/ops/op_def/yaml/*_op.yaml unless `function: disable`, named
    `function: name` or the op name, its parameters the op's `args`; one Primitive class per op
    named `class: name` or the CamelCase op name, whose __init__ takes the `prim_init` args), and
    mindspore/ops/api_def/*.yaml, which generate the overloaded functions of
    mindspore.ops.functional_overload (interface `function`, imported by mindspore.mint) and the
    Tensor methods (interface `tensor`); their parameters are the union, in order, of the
    overloads' args (the first arg of a method is the tensor itself and is left out).
A name is public when its module's `__all__` lists it (or, without `__all__`, when it is bound at
module level without a leading underscore and does not come from outside mindspore). The modules
read are ROOTS below; class methods (and the public attributes their __init__ sets on self) are
listed for the classes in METHOD_CLASSES.
Output: `name<TAB>kind<TAB>params`, sorted; kind is function|class|method|module|attribute; params
are the parameter names in order (for a class, __init__'s without self, or the names its docstring
documents under "Args:" when the constructor is not Python), `*args`/`**kwargs`
literally, `-` when not known. docs/rules.md ("The MindSpore API table") describes the format."""
import ast
import os
import re
import sys

import yaml

ROOTS = [
    "mindspore", "mindspore.nn", "mindspore.ops", "mindspore.ops.functional",
    "mindspore.mint", "mindspore.mint.nn", "mindspore.mint.nn.functional", "mindspore.mint.optim",
    "mindspore.mint.linalg", "mindspore.mint.special", "mindspore.mint.distributed",
    "mindspore.dataset", "mindspore.dataset.transforms", "mindspore.dataset.vision", "mindspore.dataset.audio",
    "mindspore.dataset.text",
    "mindspore.train", "mindspore.amp", "mindspore.communication", "mindspore.communication.comm_func",
    "mindspore.experimental.optim", "mindspore.experimental.optim.lr_scheduler",
    "mindspore.common.initializer", "mindspore.runtime", "mindspore.device_context",
    "mindspore.device_context.ascend", "mindspore.device_context.cpu", "mindspore.device_context.gpu",
    "mindspore.hal", "mindspore.nn.probability.distribution",
]
# classes whose methods are listed as mindspore.X.method (inherited ones included)
METHOD_CLASSES = [
    "mindspore.Tensor", "mindspore.Parameter", "mindspore.nn.Cell", "mindspore.nn.Optimizer",
    "mindspore.nn.SequentialCell", "mindspore.nn.CellList", "mindspore.nn.CellDict",
    "mindspore.dataset.Dataset", "mindspore.dataset.GeneratorDataset", "mindspore.dataset.MnistDataset",
    "mindspore.dataset.Cifar10Dataset", "mindspore.dataset.ImageFolderDataset",
    "mindspore.experimental.optim.Optimizer", "mindspore.experimental.optim.lr_scheduler.LRScheduler",
    "mindspore.amp.DynamicLossScaler", "mindspore.amp.StaticLossScaler", "mindspore.train.Model",
    "mindspore.train.Callback", "mindspore.nn.TrainOneStepCell", "mindspore.nn.WithLossCell",
    "mindspore.mint.optim.AdamW",
]
GENERATED = {"mindspore.ops.auto_generate", "mindspore.ops.auto_generate.gen_ops_def",
             "mindspore.ops.auto_generate.gen_ops_prim", "mindspore.ops.auto_generate.pyboost_inner_prim",
             "mindspore.ops.functional_overload"}


class Sym:
    """What a module-level name is bound to."""

    def __init__(self, kind, params=None, node=None, module=None, target=None):
        self.kind = kind          # def | class | module | alias | attr | ext
        self.params = params      # list of names, or None (unknown)
        self.node = node          # ast.ClassDef for classes
        self.module = module      # defining Module (classes) or alias source module name
        self.target = target      # alias: name in `module`; module: dotted module name


class Module:
    def __init__(self, name):
        self.name = name
        self.syms = {}
        self.all = None           # list of public names or None
        self.stars = []           # modules star-imported (no __all__ of their own was used)


def signature(fn, drop_first=False):
    a = fn.args
    names = [x.arg for x in a.posonlyargs + a.args]
    if drop_first and names:
        names = names[1:]
    if a.vararg:
        names.append("*" + a.vararg.arg)
    names += [x.arg for x in a.kwonlyargs]
    if a.kwarg:
        names.append("**" + a.kwarg.arg)
    return names


def docstring_args(cls):
    """The parameter names a class documents under "Args:" (Google style), for a class whose
    constructor is not Python (mindspore.Tensor's is C++); None when it documents none."""
    doc = ast.get_docstring(cls) or ""
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        if line.strip() not in ("Args:", "Arguments:"):
            continue
        indent, names = None, []
        for item in lines[i + 1:]:
            if not item.strip():
                continue
            width = len(item) - len(item.lstrip())
            if indent is None:
                indent = width
            if width < indent:
                break
            m = re.match(r"\s*(\*{0,2}[A-Za-z_][A-Za-z0-9_]*)\s*(\(|:)", item)
            if width == indent and m:
                names.append(m.group(1))
        return names or None
    return None


def is_static(fn):
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)


def is_property(fn):
    return any((isinstance(d, ast.Name) and d.id == "property") or
               (isinstance(d, ast.Attribute) and d.attr in ("setter", "getter")) for d in fn.decorator_list)


class Api:
    def __init__(self, root):
        self.root = root
        self.pkg = os.path.join(root, "mindspore", "python")
        self.modules = {}
        self.load_yaml()

    # ---------------------------------------------------------------- generated modules (YAML)
    def load_yaml(self):
        ydir = os.path.join(self.root, "mindspore", "ops", "op_def", "yaml")
        self.ops = {}  # op yaml file name -> (op_name, data)
        for folder in (ydir, os.path.join(self.root, "mindspore", "ops", "op_def", "deprecated")):
            for fname in sorted(os.listdir(folder)):
                if not fname.endswith(".yaml") or fname.endswith("_doc.yaml"):
                    continue
                with open(os.path.join(folder, fname), encoding="utf-8") as f:
                    data = yaml.safe_load(f)
                if not isinstance(data, dict):
                    continue
                for op_name, op in data.items():
                    if isinstance(op, dict) and "args" in op:
                        key = fname if folder == ydir else "deprecated/" + fname
                        self.ops[key] = (op_name, op)
        # func_op/: operators implemented as Python functions (any, pixel_shuffle, ...); MindSpore's own
        # generator (ops_generate, MS_OP_DEF_FUNC_OP_YAML_PATH) adds them to the op protos that api_def's
        # `op_yaml` entries name, but they get no gen_ops_def function or Primitive class of their own.
        fdir = os.path.join(self.root, "mindspore", "ops", "op_def", "func_op")
        func_ops = {}
        if os.path.isdir(fdir):
            for fname in sorted(os.listdir(fdir)):
                if not fname.endswith(".yaml"):
                    continue
                with open(os.path.join(fdir, fname), encoding="utf-8") as f:
                    data = yaml.safe_load(f)
                if isinstance(data, dict):
                    for op_name, op in data.items():
                        if isinstance(op, dict) and "args" in op:
                            func_ops[fname] = (op_name, op)
        gen_def, gen_prim = Module("mindspore.ops.auto_generate.gen_ops_def"), \
            Module("mindspore.ops.auto_generate.gen_ops_prim")
        for op_name, op in self.ops.values():
            args = list((op.get("args") or {}).keys())
            fn = op.get("function") or {}
            if not fn.get("disable", False):
                gen_def.syms[fn.get("name", op_name)] = Sym("def", args)
            cls = op.get("class") or {}
            cname = cls.get("name", "".join(w.capitalize() for w in op_name.split("_")))
            init = [a for a, spec in (op.get("args") or {}).items() if isinstance(spec, dict) and spec.get("prim_init")]
            gen_prim.syms[cname] = Sym("class", init)
        auto = Module("mindspore.ops.auto_generate")
        auto.stars = [gen_prim.name, gen_def.name, "mindspore.ops.operations.manually_defined.ops_def"]
        auto.all = []
        for m in (gen_def, gen_prim, auto):
            self.modules[m.name] = m
        for key, v in func_ops.items():
            self.ops.setdefault(key, v)
        self.modules["mindspore.ops.auto_generate.pyboost_inner_prim"] = Module(
            "mindspore.ops.auto_generate.pyboost_inner_prim")
        # api_def: overloaded functions (mint) and Tensor methods
        adir = os.path.join(self.root, "mindspore", "ops", "api_def")
        overload = Module("mindspore.ops.functional_overload")
        self.tensor_methods = {}
        defs = {}
        for fname in sorted(os.listdir(adir)):
            if fname.endswith(".yaml"):
                with open(os.path.join(adir, fname), encoding="utf-8") as f:
                    defs.update(yaml.safe_load(f) or {})
        for name, spec in defs.items():
            if isinstance(spec, dict) and "alias" in spec:
                spec = defs.get(spec["alias"])
            if isinstance(spec, dict):
                spec = [spec]
            if not isinstance(spec, list):
                continue
            fparams, mparams, is_f, is_m = [], [], False, False

            def add(into, names):
                for a in names:
                    if a not in into:
                        into.append(a)
            for ov in spec:
                ifaces = [s.strip() for s in str(ov.get("interface", "")).split(",")]
                op = self.ops.get(ov.get("op_yaml", ""))
                args = list((op[1].get("args") or {}).keys()) if op else []
                extra = [s.strip() for s in str(ov.get("kwonlyargs", "")).split(",") if s.strip()]
                if "function" in ifaces:
                    is_f = True
                    add(fparams, args + extra)
                if "tensor" in ifaces:
                    is_m = True
                    add(mparams, args[1:] + extra)
            if is_f:
                overload.syms[name] = Sym("def", fparams)
            if is_m:
                self.tensor_methods[name] = mparams
        overload.all = list(overload.syms)
        self.modules[overload.name] = overload

    # ---------------------------------------------------------------- Python modules (ast)
    def file_of(self, name):
        base = os.path.join(self.pkg, *name.split("."))
        for p in (os.path.join(base, "__init__.py"), base + ".py"):
            if os.path.isfile(p):
                return p
        return None

    def module(self, name):
        if name in self.modules:
            return self.modules[name]
        m = Module(name)
        self.modules[name] = m
        path = self.file_of(name) if name.startswith("mindspore") else None
        if path is None:
            return m
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        is_pkg = path.endswith("__init__.py")
        self.read_body(m, tree.body, is_pkg)
        return m

    def absolute(self, m, node, is_pkg):
        if not node.level:
            return node.module or ""
        parts = m.name.split(".")
        if not is_pkg:
            parts = parts[:-1]
        if node.level > 1:
            parts = parts[:len(parts) - (node.level - 1)]
        return ".".join(parts + ([node.module] if node.module else []))

    def read_body(self, m, body, is_pkg):
        for node in body:
            if isinstance(node, (ast.If, ast.Try)):
                self.read_body(m, node.body, is_pkg)
                for h in getattr(node, "handlers", []):
                    self.read_body(m, h.body, is_pkg)
                self.read_body(m, node.orelse, is_pkg)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                m.syms[node.name] = Sym("def", signature(node))
            elif isinstance(node, ast.ClassDef):
                m.syms[node.name] = Sym("class", node=node, module=m)
            elif isinstance(node, ast.ImportFrom):
                src = self.absolute(m, node, is_pkg)
                for a in node.names:
                    if a.name == "*":
                        m.stars.append(src)
                    elif src.startswith("mindspore"):
                        # a submodule or a name of src
                        sub = src + "." + a.name
                        if self.file_of(sub) and a.name not in self.names_bound(src):
                            m.syms[a.asname or a.name] = Sym("module", target=sub)
                        else:
                            m.syms[a.asname or a.name] = Sym("alias", module=src, target=a.name)
                    else:
                        m.syms[a.asname or a.name] = Sym("ext")
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        m.syms[a.asname] = Sym("module", target=a.name) if a.name.startswith("mindspore") \
                            else Sym("ext")
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self.read_assign(m, node)
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                self.read_all_call(m, node.value)

    def names_bound(self, modname):
        """Names a module binds itself (without loading it twice in a cycle)."""
        if modname in self.modules:
            return self.modules[modname].syms
        return self.module(modname).syms

    def list_value(self, m, v):
        """The strings an __all__ expression denotes; None if unknown."""
        if isinstance(v, (ast.List, ast.Tuple)):
            return [e.value for e in v.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Add):
            a, b = self.list_value(m, v.left), self.list_value(m, v.right)
            return (a or []) + (b or [])
        if isinstance(v, ast.Attribute) and v.attr == "__all__" and isinstance(v.value, ast.Name):
            s = m.syms.get(v.value.id)
            target = None
            if s is not None and s.kind == "module":
                target = s.target
            elif s is not None and s.kind == "alias":
                target = s.module + "." + s.target
            elif s is None and self.file_of(m.name + "." + v.value.id):
                target = m.name + "." + v.value.id  # a submodule an import bound implicitly
            if target:
                return self.public_names(target)
            return []
        if isinstance(v, ast.Name) and v.id == "__all__":
            return list(m.all or [])
        return None

    def read_assign(self, m, node):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            if not isinstance(t, ast.Name):
                continue
            if t.id == "__all__":
                vals = self.list_value(m, node.value)
                if isinstance(node, ast.AugAssign):
                    m.all = (m.all or []) + (vals or [])
                else:
                    m.all = vals if vals is not None else m.all
                continue
            if isinstance(node, ast.AugAssign) or node.value is None:
                continue
            v = node.value
            if isinstance(v, ast.Name) and v.id in m.syms:
                m.syms[t.id] = m.syms[v.id]
            elif isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id in m.syms \
                    and m.syms[v.value.id].kind == "module":
                m.syms[t.id] = Sym("alias", module=m.syms[v.value.id].target, target=v.attr)
            else:
                m.syms[t.id] = Sym("attr")

    def read_all_call(self, m, call):
        f = call.func
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "__all__"):
            return
        if m.all is None:
            m.all = []
        if f.attr == "extend" and call.args:
            m.all += self.list_value(m, call.args[0]) or []
        elif f.attr == "append" and call.args and isinstance(call.args[0], ast.Constant):
            m.all.append(call.args[0].value)
        elif f.attr == "remove" and call.args and isinstance(call.args[0], ast.Constant):
            if call.args[0].value in m.all:
                m.all.remove(call.args[0].value)

    # ---------------------------------------------------------------- resolution
    def lookup(self, modname, name, depth=0):
        """The final Sym a name of a module denotes, following re-exports; None if unbound."""
        if depth > 40:
            return None
        m = self.module(modname)
        s = m.syms.get(name)
        if s is None:
            for star in reversed(m.stars):
                if star.startswith("mindspore") and name in self.star_names(star):
                    return self.lookup(star, name, depth + 1)
            if self.file_of(modname + "." + name):
                return Sym("module", target=modname + "." + name)
            return None
        if s.kind == "alias":
            r = self.lookup(s.module, s.target, depth + 1)
            if r is None and self.file_of(s.module + "." + s.target):
                return Sym("module", target=s.module + "." + s.target)
            return r
        return s

    def star_names(self, modname):
        m = self.module(modname)
        if m.all is not None:
            return set(m.all)
        names = {n for n, s in m.syms.items() if not n.startswith("_") and s.kind not in ("ext", "module")}
        for star in m.stars:
            if star.startswith("mindspore"):
                names |= self.star_names(star)
        return names

    def public_names(self, modname):
        m = self.module(modname)
        if m.all is not None:
            return list(dict.fromkeys(m.all))
        return sorted(self.star_names(modname))

    def exported_names(self, modname):
        """What a user reaches as modname.X: __all__ plus, for a package, its __init__.py's own
        non-underscore defs, classes and explicit re-exports from mindspore (MindSpore documents
        several names, e.g. mindspore.value_and_grad and mindspore.mint.nn.Dropout, that only such
        an import makes public)."""
        names = self.public_names(modname)
        m = self.module(modname)
        if not (self.file_of(modname) or "").endswith("__init__.py"):
            return names
        for n, s in m.syms.items():
            if n.startswith("_") or s.kind in ("ext", "attr"):
                continue
            if s.kind == "module" and not s.target.startswith(modname + "."):
                continue
            names.append(n)
        return list(dict.fromkeys(names))

    def class_init(self, sym, depth=0):
        if sym.params is not None or sym.node is None:
            return sym.params
        for item in sym.node.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                return signature(item, drop_first=True)
        for base in self.bases(sym):
            if depth < 20:
                p = self.class_init(base, depth + 1)
                if p is not None:
                    return p
        return docstring_args(sym.node) if depth == 0 else None

    def bases(self, sym):
        out = []
        for b in sym.node.bases:
            r = None
            if isinstance(b, ast.Name):
                r = self.lookup(sym.module.name, b.id)
            elif isinstance(b, ast.Attribute) and isinstance(b.value, ast.Name):
                ms = self.lookup(sym.module.name, b.value.id)
                if ms is not None and ms.kind == "module":
                    r = self.lookup(ms.target, b.attr)
            if r is not None and r.kind == "class" and r.node is not None:
                out.append(r)
        return out

    def methods(self, sym, depth=0):
        out = {}
        if sym.node is None or depth > 20:
            return out
        for base in reversed(self.bases(sym)):
            out.update(self.methods(base, depth + 1))
        for item in sym.node.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                # public instance attributes the constructor sets, itself or in the methods it calls on
                # self (nn.Optimizer's `self.parameters`, set in _init_opt_attrs)
                called = {c.func.attr for c in ast.walk(item) if isinstance(c, ast.Call)
                          and isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name)
                          and c.func.value.id == "self"}
                helpers = [m for m in sym.node.body if isinstance(m, ast.FunctionDef) and m.name in called]
                for st in (x for fn in [item] + helpers for x in ast.walk(fn)):
                    targets = st.targets if isinstance(st, ast.Assign) else \
                        [st.target] if isinstance(st, (ast.AnnAssign, ast.AugAssign)) else []
                    for t in targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" \
                                and not t.attr.startswith("_"):
                            out.setdefault(t.attr, ("attribute", None))
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if item.name.startswith("_") and item.name not in ("__call__",):
                    continue
                if is_property(item):
                    out[item.name] = ("attribute", None)
                else:
                    out[item.name] = ("method", signature(item, drop_first=not is_static(item)))
        return out


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: make_mindspore_api.py MINDSPORE_CHECKOUT [COMMIT]")
    root = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else "unknown"
    if not os.path.isdir(os.path.join(root, "mindspore", "python", "mindspore")):
        sys.exit(f"make_mindspore_api.py: {root} has no mindspore/python/mindspore")
    api = Api(root)
    rows = {}

    def fmt(params):
        return ",".join(params) if params is not None else "-"

    for modname in ROOTS:
        if api.file_of(modname) is None:
            continue
        rows[modname] = ("module", "-")
        for name in api.exported_names(modname):
            s = api.lookup(modname, name)
            full = modname + "." + name
            if s is None:
                continue
            if s.kind == "def":
                rows[full] = ("function", fmt(s.params))
            elif s.kind == "class":
                rows[full] = ("class", fmt(api.class_init(s)))
            elif s.kind == "module":
                rows.setdefault(full, ("module", "-"))
            else:
                rows[full] = ("attribute", "-")
    for cname in METHOD_CLASSES:
        modname, _, name = cname.rpartition(".")
        s = api.lookup(modname, name)
        if s is None or s.kind != "class":
            continue
        for meth, (kind, params) in api.methods(s).items():
            rows[cname + "." + meth] = (kind, fmt(params))
        if cname == "mindspore.Tensor" or cname == "mindspore.Parameter":
            for meth, params in api.tensor_methods.items():
                rows.setdefault(cname + "." + meth, ("method", fmt(params)))
    out = sys.stdout
    out.write(f"# MindSpore public Python API, generated by rules/make_mindspore_api.py from mindspore {commit} "
              "(Python package + ops YAML); name<TAB>kind<TAB>params; do not edit by hand\n")
    for full in sorted(rows):
        kind, params = rows[full]
        out.write(f"{full}\t{kind}\t{params}\n")


if __name__ == "__main__":
    main()
