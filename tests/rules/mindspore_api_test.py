#!/usr/bin/env python3
"""Checks rules/mindspore/api.tsv (written by rules/make_mindspore_api.py): its format, and that
well-known MindSpore 2.x names are there with their real parameters. A regenerated table that
lost a module (a changed re-export, a moved YAML folder) fails here."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "rules", "mindspore", "api.tsv")
KINDS = {"function", "class", "method", "module", "attribute"}
PARAM = re.compile(r"^(\*{0,2}[A-Za-z_][A-Za-z0-9_]*)$")


def load():
    rows, errors, names = {}, [], []
    with open(TABLE, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if not lines[0].startswith("# ") or "make_mindspore_api.py" not in lines[0] or not re.search(r"[0-9a-f]{40}", lines[0]):
        errors.append("line 1: the header names the generator and the source commit")
    for no, line in enumerate(lines[1:], 2):
        if not line:
            continue
        if line.startswith("#"):
            errors.append(f"line {no}: one header comment line only")
            continue
        cols = line.split("\t")
        if len(cols) != 3:
            errors.append(f"line {no}: 3 columns expected: {line!r}")
            continue
        name, kind, params = cols
        if not re.match(r"^mindspore(\.[A-Za-z_][A-Za-z0-9_]*)*$", name):
            errors.append(f"line {no}: bad name {name!r}")
        if kind not in KINDS:
            errors.append(f"line {no}: bad kind {kind!r}")
        if params not in ("-", "") and not all(PARAM.match(p) for p in params.split(",")):
            errors.append(f"line {no}: bad params {params!r}")
        if name in rows:
            errors.append(f"line {no}: {name} twice")
        rows[name] = (kind, params)
        names.append(name)
    if names != sorted(names):
        errors.append("rows are not sorted")
    if os.path.getsize(TABLE) > 1024 * 1024:
        errors.append("the table is over 1 MiB")
    return rows, errors


EXPECT = {
    # name: (kind, leading params or None)
    "mindspore.nn.Dense": ("class", "in_channels,out_channels,weight_init,bias_init,has_bias"),
    "mindspore.nn.Cell": ("class", None),
    "mindspore.nn.Cell.set_train": ("method", "mode"),
    "mindspore.nn.Conv2d": ("class", "in_channels,out_channels,kernel_size,stride,pad_mode"),
    "mindspore.value_and_grad": ("function", "fn,grad_position,weights,has_aux"),
    "mindspore.save_checkpoint": ("function", "save_obj,ckpt_file_name"),
    "mindspore.load_checkpoint": ("function", "ckpt_file_name,net"),
    "mindspore.load_param_into_net": ("function", "net,parameter_dict"),
    "mindspore.set_context": ("function", None),
    "mindspore.set_device": ("function", "device_target,device_id"),
    "mindspore.Parameter": ("class", "default_input,name,requires_grad"),
    "mindspore.float32": ("attribute", None),
    "mindspore.Tensor": ("class", None),
    "mindspore.Tensor.view": ("method", None),
    "mindspore.Tensor.sum": ("method", "dim,keepdim"),
    "mindspore.ops.matmul": ("function", "input,other"),
    "mindspore.mint.max": ("function", "input"),
    "mindspore.mint.nn.Linear": ("class", "in_features,out_features,bias"),
    "mindspore.mint.nn.Dropout": ("class", "p"),
    "mindspore.mint.nn.functional.relu": ("function", "input"),
    # api_def entries whose op_yaml lives in op_def/func_op/ (the generator once left them empty)
    "mindspore.mint.any": ("function", "input,dim,keepdim"),
    "mindspore.mint.nn.functional.pixel_shuffle": ("function", "input,upscale_factor"),
    # a public attribute nn.Optimizer's constructor sets through _init_opt_attrs
    "mindspore.nn.Optimizer.parameters": ("attribute", None),
    "mindspore.mint.nn.functional.cross_entropy": ("function", "input,target,weight,ignore_index,reduction"),
    "mindspore.mint.optim.AdamW": ("class", "params,lr,betas,eps,weight_decay"),
    "mindspore.experimental.optim.SGD": ("class", "params,lr"),
    "mindspore.experimental.optim.lr_scheduler.StepLR": ("class", "optimizer,step_size,gamma"),
    "mindspore.dataset.GeneratorDataset": ("class", "source,column_names"),
    "mindspore.dataset.GeneratorDataset.batch": ("method", "batch_size,drop_remainder"),
    "mindspore.amp.auto_mixed_precision": ("function", "network,amp_level"),
    "mindspore.communication.init": ("function", None),
    "mindspore.mint": ("module", None),
}


def main():
    rows, errors = load()
    for name, (kind, lead) in EXPECT.items():
        if name not in rows:
            errors.append(f"{name} is missing")
            continue
        if rows[name][0] != kind:
            errors.append(f"{name}: kind {rows[name][0]}, expected {kind}")
        if lead and not rows[name][1].startswith(lead):
            errors.append(f"{name}: params {rows[name][1]!r} do not start with {lead!r}")
    for family, least in (("mindspore.ops.", 800), ("mindspore.mint.", 300), ("mindspore.nn.", 300),
                          ("mindspore.Tensor.", 300), ("mindspore.dataset.", 100)):
        n = sum(1 for k in rows if k.startswith(family))
        if n < least:
            errors.append(f"only {n} names under {family} (at least {least} expected)")
    for e in errors:
        print("FAIL:", e)
    print(f"{len(rows)} names, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
