#!/usr/bin/env python3
"""Writes the PyTorch->MindSpore mapping tables rules/torch2mindspore/*.tsv from public facts:

  * MindSpore's documentation repository (mindspore-ai/docs): the PyTorch API mapping table
    docs/mindspore/source_en/note/api_mapping/pytorch_api_mapping.md at `master` (MindSpore 2.6+,
    mostly mindspore.mint targets) and at `r2.4.10` (ops/nn/experimental.optim targets for what the
    newer page dropped), plus the parameter rows of their pytorch_diff/*.md pages (which PyTorch
    keyword corresponds to which MindSpore keyword, which has none);
  * rules/mindspore/api.tsv (rules/make_mindspore_api.py): a target that MindSpore does not have
    is never written; a keyword operation is only written when its new keyword is a real
    parameter of the target;
  * CURATED below: rows the documentation does not list (nn.Module, checkpoints, devices, seeds,
    amp, ...), written by us from the API table.
Only facts are taken (names, which keyword maps to which); every note is ours.

    python3 rules/make_torch2mindspore.py DOCS_GIT_DIR

DOCS_GIT_DIR is a clone (bare or not) of mindspore-ai/docs with the master and r2.4.10 refs.
Rewrites rules/torch2mindspore/{functions,tensor,nn,functional,optim,data,misc}.tsv; rows and
notes written by hand belong in CURATED, not in the tables. The format is in docs/rules.md."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_mindspore_rules import load_api  # noqa: E402  (the one reader of rules/mindspore/api.tsv)
PAGE = "docs/mindspore/source_en/note/api_mapping/pytorch_api_mapping.md"
DIFF = "docs/mindspore/source_en/note/api_mapping/pytorch_diff/"
REFS = ["master", "r2.4.10"]

# PyTorch keywords MindSpore has no counterpart for (MindSpore's "general difference parameters")
GENERAL_DROPS = ["out", "layout", "device", "requires_grad", "pin_memory", "memory_format"]
# keywords that only steer PyTorch's memory, placement, logging or deprecated options: dropping
# them keeps the result
SAFE_DROPS = set(GENERAL_DROPS) | {"inplace", "verbose", "size_average", "reduce", "non_blocking",
                                   "foreach", "fused", "differentiable", "capturable", "sparse_grad",
                                   "stable", "pin_memory", "timeout", "persistent_workers",
                                   "prefetch_factor", "multiprocessing_context", "worker_init_fn"}
CREATION = {"zeros", "ones", "empty", "full", "arange", "linspace", "logspace", "eye", "rand", "randn",
            "randint", "randperm", "zeros_like", "ones_like", "empty_like", "full_like", "rand_like",
            "randn_like", "randint_like", "tensor", "as_tensor", "normal", "bernoulli", "multinomial",
            "tril_indices", "triu_indices", "empty_strided", "polar", "complex", "from_numpy"}
INPLACE_TORCH = {"ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "SiLU", "Hardtanh", "Hardswish",
                 "Hardsigmoid", "Mish", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
                 "Threshold", "RReLU", "relu", "relu6", "leaky_relu", "elu", "selu", "celu", "silu",
                 "hardtanh", "hardswish", "hardsigmoid", "mish", "dropout", "dropout1d", "dropout2d",
                 "dropout3d", "alpha_dropout", "threshold", "rrelu"}
# PyTorch keyword -> MindSpore keywords it was renamed to in the ops/nn API, tried in order
KNOWN_RENAMES = {"dim": ["axis"], "keepdim": ["keepdims", "keep_dims"], "input": ["x", "input_x"],
                 "other": ["y"], "inplace": []}

# (torch, mindspore, status, args, note): our own rows
CURATED = [
    ("torch.nn.Module", "mindspore.nn.Cell", "diff", "-", "subclass nn.Cell; forward becomes construct"),
    ("torch.nn.Module.forward", "mindspore.nn.Cell.construct", "diff", "-", "the forward pass is named construct"),
    ("torch.nn.Module.train", "mindspore.nn.Cell.set_train", "diff", "-", "set_train(True) switches to training mode"),
    ("torch.nn.Module.eval", "mindspore.nn.Cell.set_train", "diff", "+mode=False", "evaluation mode is set_train(False)"),
    ("torch.nn.Module.parameters", "mindspore.nn.Cell.trainable_params", "diff", "-", "returns the trainable Parameters"),
    ("torch.nn.Module.named_parameters", "mindspore.nn.Cell.parameters_and_names", "diff", "-", "yields (name, Parameter) pairs"),
    ("torch.nn.Module.children", "mindspore.nn.Cell.cells", "diff", "-", "direct sub-cells"),
    ("torch.nn.Module.named_children", "mindspore.nn.Cell.name_cells", "diff", "-", "returns a dict of direct sub-cells"),
    ("torch.nn.Module.modules", "mindspore.nn.Cell.cells_and_names", "diff", "-", "yields (name, cell) pairs, not cells"),
    ("torch.nn.Module.named_modules", "mindspore.nn.Cell.cells_and_names", "same", "-", "yields (name, cell) pairs"),
    ("torch.nn.Module.state_dict", "mindspore.nn.Cell.parameters_dict", "diff", "-", "a dict of name to Parameter"),
    ("torch.nn.Module.load_state_dict", "mindspore.load_param_into_net", "diff", "-", "a function taking the cell and the dict: load_param_into_net(net, dict)"),
    ("torch.nn.Module.register_buffer", "-", "unsupported", "-", "keep the tensor as a Parameter with requires_grad=False"),
    ("torch.nn.Module.add_module", "mindspore.nn.Cell.insert_child_to_cell", "same", "-", "same order: name, cell"),
    ("torch.nn.Module.zero_grad", "-", "unsupported", "-", "gradients are returned by value_and_grad, nothing to reset"),
    ("torch.nn.Module.cuda", "-", "unsupported", "-", "placement is set once with mindspore.set_device"),
    ("torch.nn.Module.cpu", "-", "unsupported", "-", "placement is set once with mindspore.set_device"),
    ("torch.nn.Module.to", "-", "unsupported", "-", "placement is set once with mindspore.set_device; for a dtype use to_float"),
    ("torch.nn.Module.half", "mindspore.nn.Cell.to_float", "diff", "+dst_type=mindspore.float16", "casts the cell's computation to float16"),
    ("torch.nn.Module.float", "mindspore.nn.Cell.to_float", "diff", "+dst_type=mindspore.float32", "casts the cell's computation to float32"),
    ("torch.nn.Module.requires_grad_", "-", "unsupported", "-", "set requires_grad on each Parameter"),
    ("torch.nn.Parameter", "mindspore.Parameter", "diff", "@0->default_input;data->default_input", "the initial value is default_input; a name is recommended"),
    ("torch.nn.ModuleList", "mindspore.nn.CellList", "diff", "modules->args", "a list of cells"),
    ("torch.nn.ModuleDict", "mindspore.nn.CellDict", "diff", "modules->args", "a dict of cells"),
    ("torch.nn.Sequential", "mindspore.nn.SequentialCell", "diff", "-", "takes cells or an OrderedDict"),
    ("torch.nn.Identity", "mindspore.nn.Identity", "same", "-", ""),
    ("torch.nn.init.xavier_uniform_", "mindspore.common.initializer.XavierUniform", "diff", "-", "an initializer object; apply it with Parameter.set_data(initializer(XavierUniform(), shape))"),
    ("torch.nn.init.xavier_normal_", "mindspore.common.initializer.XavierNormal", "diff", "-", "an initializer object applied through initializer(...)"),
    ("torch.nn.init.kaiming_uniform_", "mindspore.common.initializer.HeUniform", "diff", "-", "an initializer object applied through initializer(...)"),
    ("torch.nn.init.kaiming_normal_", "mindspore.common.initializer.HeNormal", "diff", "-", "an initializer object applied through initializer(...)"),
    ("torch.nn.init.normal_", "mindspore.common.initializer.Normal", "diff", "std->sigma", "an initializer object applied through initializer(...)"),
    ("torch.nn.init.uniform_", "mindspore.common.initializer.Uniform", "diff", "-", "symmetric range only: Uniform(scale) draws from [-scale, scale]"),
    ("torch.nn.init.trunc_normal_", "mindspore.common.initializer.TruncatedNormal", "diff", "std->sigma", "an initializer object applied through initializer(...)"),
    ("torch.nn.init.zeros_", "mindspore.common.initializer.Zero", "diff", "-", "an initializer object applied through initializer(...)"),
    ("torch.nn.init.ones_", "mindspore.common.initializer.One", "diff", "-", "an initializer object applied through initializer(...)"),
    ("torch.nn.init.constant_", "mindspore.common.initializer.Constant", "diff", "-", "an initializer object applied through initializer(...)"),
    ("torch.nn.init.orthogonal_", "mindspore.common.initializer.Orthogonal", "diff", "-", "an initializer object applied through initializer(...)"),
    ("torch.nn.utils.clip_grad_norm_", "mindspore.ops.clip_by_global_norm", "diff", "parameters->x;max_norm->clip_norm", "takes and returns the gradients instead of clipping in place"),
    ("torch.save", "mindspore.save_checkpoint", "diff", "obj->save_obj;f->ckpt_file_name", "saves a cell or a parameter list to a .ckpt file"),
    ("torch.load", "mindspore.load_checkpoint", "diff", "f->ckpt_file_name;map_location=drop;weights_only=drop", "returns a dict of Parameters from a .ckpt file"),
    ("torch.manual_seed", "mindspore.set_seed", "same", "-", "sets the global seed"),
    ("torch.initial_seed", "mindspore.get_seed", "same", "-", ""),
    ("torch.from_numpy", "mindspore.from_numpy", "same", "-", ""),
    ("torch.tensor", "mindspore.tensor", "diff", "data->input_data;device=drop;requires_grad=drop;pin_memory=drop", "no device or autograd flag on a tensor"),
    ("torch.Tensor", "mindspore.Tensor", "diff", "-", "build from data: Tensor(data, dtype)"),
    ("torch.no_grad", "-", "unsupported", "-", "gradients exist only inside value_and_grad/grad; code outside needs no guard"),
    ("torch.enable_grad", "-", "unsupported", "-", "gradients come from value_and_grad/grad"),
    ("torch.set_grad_enabled", "-", "unsupported", "-", "gradients come from value_and_grad/grad"),
    ("torch.autograd.grad", "mindspore.grad", "diff", "-", "a function transform: grad(fn, grad_position, weights)(inputs)"),
    ("torch.device", "-", "unsupported", "-", "select the device once with mindspore.set_device"),
    ("torch.cuda.is_available", "-", "unsupported", "-", "choose the backend with mindspore.set_device"),
    ("torch.cuda.device_count", "mindspore.hal.device_count", "diff", "-", "counts the devices of the current backend"),
    ("torch.cuda.set_device", "mindspore.set_device", "diff", "@0->device_id", "also needs the backend name, e.g. set_device('Ascend', id)"),
    ("torch.cuda.synchronize", "mindspore.runtime.synchronize", "same", "-", ""),
    ("torch.cuda.empty_cache", "mindspore.runtime.empty_cache", "same", "-", ""),
    ("torch.cuda.memory_allocated", "mindspore.runtime.memory_allocated", "same", "-", ""),
    ("torch.cuda.max_memory_allocated", "mindspore.runtime.max_memory_allocated", "same", "-", ""),
    ("torch.cuda.memory_reserved", "mindspore.runtime.memory_reserved", "same", "-", ""),
    ("torch.cuda.manual_seed", "mindspore.set_seed", "diff", "-", "one global seed for every device"),
    ("torch.cuda.manual_seed_all", "mindspore.set_seed", "diff", "-", "one global seed for every device"),
    ("torch.backends.cudnn.benchmark", "-", "unsupported", "-", "no cuDNN switch; remove the assignment"),
    ("torch.backends.cudnn.deterministic", "mindspore.set_context", "diff", "-", "set_context(deterministic='ON')"),
    ("torch.compile", "mindspore.jit", "diff", "-", "graph compilation of a function or cell"),
    ("torch.jit.script", "mindspore.jit", "diff", "-", "graph compilation of a function or cell"),
    ("torch.cuda.amp.autocast", "mindspore.amp.auto_mixed_precision", "diff", "-", "no context manager: wrap the network once with auto_mixed_precision(net, 'O1')"),
    ("torch.autocast", "mindspore.amp.auto_mixed_precision", "diff", "-", "no context manager: wrap the network once with auto_mixed_precision(net, 'O1')"),
    ("torch.amp.autocast", "mindspore.amp.auto_mixed_precision", "diff", "-", "no context manager: wrap the network once with auto_mixed_precision(net, 'O1')"),
    ("torch.cuda.amp.GradScaler", "mindspore.amp.DynamicLossScaler", "diff", "init_scale->scale_value;growth_factor->scale_factor;growth_interval->scale_window;backoff_factor=drop;enabled=drop", "scale the loss, unscale the gradients and adjust explicitly"),
    ("torch.amp.GradScaler", "mindspore.amp.DynamicLossScaler", "diff", "init_scale->scale_value;growth_factor->scale_factor;growth_interval->scale_window;backoff_factor=drop;enabled=drop", "scale the loss, unscale the gradients and adjust explicitly"),
    ("torch.distributed.get_rank", "mindspore.communication.get_rank", "same", "-", ""),
    ("torch.distributed.get_world_size", "mindspore.communication.get_group_size", "same", "-", ""),
    ("torch.distributed.destroy_process_group", "mindspore.mint.distributed.destroy_process_group", "same", "-", ""),
    ("torch.utils.data.Dataset", "-", "unsupported", "-", "keep the class as a plain Python source (__getitem__/__len__) for GeneratorDataset"),
    ("torch.utils.data.IterableDataset", "-", "unsupported", "-", "a Python iterable can be a GeneratorDataset source"),
    ("torch.utils.data.TensorDataset", "mindspore.dataset.NumpySlicesDataset", "diff", "-", "takes arrays (or a tuple of them) and slices the first dimension"),
    ("torch.utils.data.random_split", "mindspore.dataset.Dataset.split", "diff", "-", "a method of the dataset: ds.split(sizes, randomize=True)"),
    ("torch.utils.data.Subset", "-", "unsupported", "-", "use a SubsetSampler on the dataset"),
    ("torchvision.transforms.Compose", "mindspore.dataset.transforms.Compose", "same", "-", ""),
    ("torchvision.transforms.ToTensor", "mindspore.dataset.vision.ToTensor", "diff", "-", "a dataset map operation on numpy/PIL input"),
    ("torchvision.transforms.Resize", "mindspore.dataset.vision.Resize", "diff", "-", "a dataset map operation"),
    ("torchvision.transforms.CenterCrop", "mindspore.dataset.vision.CenterCrop", "same", "-", "a dataset map operation"),
    ("torch.optim.Optimizer.zero_grad", "-", "unsupported", "-", "no gradient buffers to clear; drop the call"),
    ("torch.optim.Optimizer.step", "-", "unsupported", "-", "call the optimizer on the gradients: optimizer(grads)"),
    ("torch.Tensor.backward", "-", "unsupported", "-", "compute loss and gradients with mindspore.value_and_grad"),
    ("torch.Tensor.cuda", "-", "unsupported", "-", "placement is set once with mindspore.set_device"),
    ("torch.Tensor.cpu", "-", "unsupported", "-", "tensors need no host copy; use asnumpy() for numpy"),
    ("torch.Tensor.detach", "mindspore.ops.stop_gradient", "diff", "-", "a function: ops.stop_gradient(x)"),
    ("torch.Tensor.numpy", "mindspore.Tensor.asnumpy", "same", "-", ""),
    ("torch.Tensor.dim", "mindspore.Tensor.ndim", "diff", "-", "ndim is a property, not a method"),
    ("torch.Tensor.size", "mindspore.Tensor.shape", "diff", "-", "shape is a property; size is the element count"),
    ("torch.Tensor.to", "mindspore.Tensor.to", "diff", "device=drop;non_blocking=drop;copy=drop", "dtype conversion only; placement is global"),
    ("torch.Tensor.type", "mindspore.Tensor.astype", "diff", "-", "takes a mindspore dtype"),
    ("torch.Tensor.data", "-", "unsupported", "-", "use the tensor itself (or Parameter.set_data to assign)"),
    ("torch.Tensor.grad", "-", "unsupported", "-", "gradients are returned by value_and_grad"),
    ("torch.Tensor.requires_grad_", "-", "unsupported", "-", "only Parameters carry requires_grad"),
    ("torch.Tensor.register_hook", "mindspore.Tensor.register_hook", "same", "-", ""),
    ("torch.float32", "mindspore.float32", "same", "-", "dtype"),
    ("torch.float", "mindspore.float32", "same", "-", "dtype"),
    ("torch.float16", "mindspore.float16", "same", "-", "dtype"),
    ("torch.half", "mindspore.float16", "same", "-", "dtype"),
    ("torch.bfloat16", "mindspore.bfloat16", "same", "-", "dtype"),
    ("torch.float64", "mindspore.float64", "same", "-", "dtype"),
    ("torch.double", "mindspore.float64", "same", "-", "dtype"),
    ("torch.int64", "mindspore.int64", "same", "-", "dtype"),
    ("torch.long", "mindspore.int64", "same", "-", "dtype"),
    ("torch.int32", "mindspore.int32", "same", "-", "dtype"),
    ("torch.int", "mindspore.int32", "same", "-", "dtype"),
    ("torch.int16", "mindspore.int16", "same", "-", "dtype"),
    ("torch.short", "mindspore.int16", "same", "-", "dtype"),
    ("torch.int8", "mindspore.int8", "same", "-", "dtype"),
    ("torch.uint8", "mindspore.uint8", "same", "-", "dtype"),
    ("torch.bool", "mindspore.bool_", "same", "-", "dtype"),
    ("torch.complex64", "mindspore.complex64", "same", "-", "dtype"),
    ("torch.optim.lr_scheduler.LRScheduler.step", "mindspore.experimental.optim.lr_scheduler.LRScheduler.step", "same", "-", ""),
    ("torch.optim.lr_scheduler.LRScheduler.get_last_lr", "mindspore.experimental.optim.lr_scheduler.LRScheduler.get_last_lr", "same", "-", ""),
    ("torch.nn.Module.apply", "mindspore.nn.Cell.apply", "same", "-", ""),
    ("torch.distributed.is_initialized", "mindspore.mint.distributed.is_initialized", "same", "-", ""),
    ("torch.relu", "mindspore.ops.relu", "same", "-", ""),
    ("torch.nn.functional.layer_norm", "mindspore.mint.nn.functional.layer_norm", "same", "-", "same parameters, in the same order"),
    ("torch.jit.ignore", "-", "unsupported", "-", "a TorchScript decorator: remove it (mindspore.jit compiles what it is given)"),
    ("torch.jit.is_scripting", "-", "unsupported", "-", "no TorchScript: the condition is False"),
    ("torch.jit.Final", "-", "unsupported", "-", "a TorchScript annotation: remove it"),
    ("torch.nn.functional.scaled_dot_product_attention", "-", "unsupported", "-", "write softmax(q @ k^T / sqrt(d) + mask) @ v, or ops.flash_attention_score on Ascend (other layout)"),
    ("torch.LongTensor", "mindspore.Tensor", "diff", "+dtype=mindspore.int64", "legacy constructor: a Tensor with dtype int64"),
    ("torch.FloatTensor", "mindspore.Tensor", "diff", "+dtype=mindspore.float32", "legacy constructor: a Tensor with dtype float32"),
    ("torch.sparse_coo_tensor", "mindspore.COOTensor", "diff", "size->shape", "indices are laid out (nnz, ndim), the transpose of PyTorch's"),
    ("torch.distributions.Categorical", "mindspore.nn.probability.distribution.Categorical", "diff", "-", "takes probs; no logits keyword"),
    ("torch.cuda.current_device", "mindspore.get_current_device", "diff", "-", "returns the device (type and id), not an index"),
    ("torch.nn.DataParallel", "-", "unsupported", "-", "data parallelism is configured with set_auto_parallel_context"),
    ("torch.nn.parallel.DistributedDataParallel", "-", "unsupported", "-", "data parallelism is configured with set_auto_parallel_context"),
    ("torch.multiprocessing.spawn", "-", "unsupported", "-", "start one process per device with MindSpore's msrun launcher"),
    ("torch.backends.cuda.matmul.allow_tf32", "-", "unsupported", "-", "no TF32 switch; remove the assignment"),
    ("torch.backends.cudnn.allow_tf32", "-", "unsupported", "-", "no TF32 switch; remove the assignment"),
    ("torch.cuda.is_bf16_supported", "-", "unsupported", "-", "bfloat16 support depends on the Ascend device; no query"),
]

# rows where the documentation's mapping is incomplete for a converter, corrected by hand (each
# checked against rules/mindspore/api.tsv); they win over the documentation's row
CORRECTED = {
    "torchvision.transforms.Normalize": (
        "mindspore.dataset.vision.Normalize", "diff", "inplace=drop;+is_hwc=False",
        "torchvision normalises CHW tensors (after ToTensor); MindSpore assumes HWC unless is_hwc=False"),
    "torch.Generator": ("-", "unsupported", "-",
                        "mindspore.Generator() takes no device or other argument; seed it with manual_seed"),
}

# notes we write by hand for rows whose difference a generic note cannot say
AMP_NOTE = "converted around a training step's forward (FRY4750); else wrap the net: amp.auto_mixed_precision(net, 'O1')"
SCALER_NOTE = "converted with its training step (FRY4750): amp.DynamicLossScaler(scale_value=2**16, scale_factor=2, scale_window=2000)"
STRUCTURAL = {
    "torch.autocast": ("-", "unsupported", "-", AMP_NOTE),
    "torch.amp.autocast": ("-", "unsupported", "-", AMP_NOTE),
    "torch.cuda.amp.autocast": ("-", "unsupported", "-", AMP_NOTE),
    "torch.amp.GradScaler": ("-", "unsupported", "-", SCALER_NOTE),
    "torch.cuda.amp.GradScaler": ("-", "unsupported", "-", SCALER_NOTE),
    # process groups: mindspore.communication (every 2.x release; the launcher, msrun, gives rank
    # and size), not mint.distributed (2.4 and later) -- the same rows as core.tsv, so the tables
    # do not contradict each other; the collectives (all_reduce, ...) keep mint.distributed
    "torch.distributed.init_process_group": (
        "mindspore.communication.init", "diff",
        "backend=drop;init_method=drop;world_size=drop;rank=drop;timeout=drop;device_id=drop",
        "init() reads rank and size from the launcher (msrun); its backend is hccl on Ascend, nccl on GPU"),
    "torch.distributed.get_rank": ("mindspore.communication.get_rank", "same", "-", ""),
    "torch.distributed.get_world_size": ("mindspore.communication.get_group_size", "same", "-", ""),
    "torch.distributed.destroy_process_group": ("mindspore.communication.release", "diff", "group=drop",
                                                "releases every communication resource"),
}

NOTES = {
    "torch.utils.data.DataLoader": "batch_size, drop_last and collate_fn move to .batch(); no batch_sampler or generator",
    "torch.nn.Linear": "same; MindSpore adds weight_init/bias_init",
}


def git_show(git, ref, path):
    r = subprocess.run(["git", "--git-dir", git, "show", f"{ref}:{path}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def git_ls(git, ref, folder):
    r = subprocess.run(["git", "--git-dir", git, "ls-tree", "--name-only", f"{ref}:{folder}"],
                       capture_output=True, text=True)
    return r.stdout.split() if r.returncode == 0 else []


def link_text(cell):
    m = re.match(r"\[([^\]]*)\]\(([^)]*)\)", cell.strip())
    return (m.group(1).strip(), m.group(2)) if m else (cell.strip(), "")


def parse_page(text):
    """Rows of the mapping page: (torch, mindspore, description, diff page name or '')."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) < 3:
            continue
        torch, _ = link_text(cols[0])
        ms, _ = link_text(cols[1])
        desc, url = link_text(cols[2])
        if not torch.startswith("torch") or " " in torch:
            continue
        page = url.rsplit("/", 1)[-1].replace(".html", "") if "pytorch_diff" in url else ""
        rows.append((torch, ms, desc, page))
    return rows


def parse_diff(text):
    """(torch keyword, mindspore keyword) pairs from a difference page's parameter table."""
    pairs = []
    for line in text.splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) < 4 or not re.match(r"(Parameter|Input)", cols[1] or ""):
            continue
        t, m = cols[2].strip("`* "), cols[3].strip("`* ")
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*|-", t) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*|-", m):
            pairs.append((t, m))
    return pairs


def family(torch):
    if torch.startswith("torch.Tensor."):
        return "tensor"
    if torch.startswith("torch.nn.functional."):
        return "functional"
    if torch.startswith(("torch.optim",)):
        return "optim"
    if torch.startswith(("torch.utils.data", "torchvision", "torchaudio", "torchtext")):
        return "data"
    if torch.startswith("torch.nn."):
        return "nn"
    if torch.startswith(("torch.cuda", "torch.distributed", "torch.amp", "torch.autocast", "torch.backends",
                         "torch.save", "torch.load", "torch.utils", "torch.jit", "torch.compile", "torch.device",
                         "torch.manual_seed", "torch.initial_seed", "torch.no_grad", "torch.enable_grad",
                         "torch.set_grad_enabled", "torch.autograd")):
        return "misc"
    return "functions"


def note_for(desc, status):
    d = desc.lower()
    if status == "unsupported":
        return "no MindSpore counterpart"
    m = re.search(r"default value of (\w+)", desc)
    if m:
        return f"{m.group(1)} has another default"
    if "inplace" in d:
        return "no inplace keyword; the result is a new tensor"
    if "verbose" in d:
        return "no verbose keyword"
    if "parameter names" in d:
        return "keyword names differ"
    if "data type" in d:
        return "accepted argument types differ"
    if "overload" in d:
        return "one signature covers PyTorch's overloads"
    if "optimization parameters" in d:
        return "PyTorch's performance switches (foreach, fused, ...) are not taken"
    if "number or sequence" in d:
        return "parameter list or order differs"
    if status == "diff":
        return "behaviour or parameters differ; check the call"
    return ""


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_torch2mindspore.py DOCS_GIT_DIR")
    git = sys.argv[1]
    api = load_api()
    candidates = {}  # torch -> list of (rank, ms, desc, pairs)
    commits = []
    for rank, ref in enumerate(REFS):
        r = subprocess.run(["git", "--git-dir", git, "rev-parse", ref], capture_output=True, text=True)
        commits.append(f"{ref}@{r.stdout.strip()[:12]}")
        page = git_show(git, ref, PAGE)
        if page is None:
            sys.exit(f"make_torch2mindspore.py: no {PAGE} at {ref}")
        diffs = set(git_ls(git, ref, DIFF))
        for torch, ms, desc, dpage in parse_page(page):
            pairs = []
            if dpage and dpage + ".md" in diffs:
                pairs = parse_diff(git_show(git, ref, DIFF + dpage + ".md") or "")
            candidates.setdefault(torch, []).append((rank, ms, desc, pairs))

    def pref(ms):
        return 0 if ".mint." in ms else 1 if ".experimental." in ms else 2

    rows = {}
    for torch, cands in candidates.items():
        real = [c for c in cands if c[1] in api]
        if not real:
            if all(c[1] in ("", "-", "None") or "not supported" in c[2].lower() for c in cands):
                rows[torch] = ("-", "unsupported", "-", "no MindSpore counterpart")
            continue
        rank, ms, desc, pairs = min(real, key=lambda c: (c[0], pref(c[1])))
        d = desc.strip().lower()
        # MindSpore counts as consistent: extra MindSpore keywords with defaults, and PyTorch-only
        # performance switches (its "exception scenarios"); a different default or name is not
        consistent = d.startswith("consistent") and ("," not in d or "additional parameter" in d
                                                      or "two different parameters" in d) \
            or "optimization parameters" in d
        status = "same" if consistent else "diff"
        params = api[ms][1]
        ops = []
        short = torch.rsplit(".", 1)[-1]

        def add(op):
            if op not in ops:
                ops.append(op)
        missing = []
        for t, m in pairs:
            if t == "-" or t == m:
                continue
            if m == "-":
                if params is not None and t in params:
                    continue
                if t in SAFE_DROPS:
                    add(f"{t}=drop")
                else:
                    missing.append(t)  # meaningful: the converter must not drop it silently
            elif params is None or m in params:
                add(f"{t}->{m}")
        if params is not None:
            dropped = {o.split("=")[0] for o in ops} | {o.split("->")[0] for o in ops}
            if "inplace" in desc.lower() or short in INPLACE_TORCH:
                if "inplace" not in params:
                    add("inplace=drop")
            if "verbose" in desc.lower() and "verbose" not in params:
                add("verbose=drop")
            fam = family(torch)
            if fam == "functions" and short in CREATION:
                for k in GENERAL_DROPS:
                    if k not in params and k not in dropped:
                        add(f"{k}=drop")
            elif fam == "functions" and "out" not in params and api[ms][0] == "function":
                add("out=drop")
            if fam in ("nn", "functional") and ("Loss" in short or "loss" in short):
                for k in ("size_average", "reduce"):
                    if k not in params:
                        add(f"{k}=drop")
            if fam == "nn" and "device" not in params and "dtype" in params and api[ms][0] == "class":
                add("device=drop")
            if ".mint." not in ms and ("parameter names" in desc.lower() or pairs == [] and status == "diff"):
                for t, news in KNOWN_RENAMES.items():
                    if t in params:
                        continue
                    for n in news:
                        if n in params and not any(o.startswith(t) for o in ops):
                            add(f"{t}->{n}")
                            break
        if ops and status == "same" and any("->" in o or o.startswith("+") for o in ops):
            status = "diff"
        note = note_for(desc, status)
        if missing:
            status = "diff"
            extra = "no " + ", ".join(missing[:3]) + " keyword" + ("s" if len(missing) > 1 else "")
            note = f"{note}; {extra}" if note else extra
        if status == "same" and any(o.endswith("=drop") for o in ops) and not note:
            note = "same behaviour; PyTorch-only keywords are dropped"
        rows[torch] = (ms, status, ";".join(ops) or "-", NOTES.get(torch, note))
    for torch, ms, status, args, note in CURATED:
        # the documentation's row wins; ours only adds the keyword detail to the same target
        if torch not in rows or (rows[torch][0] == ms and rows[torch][2] == "-"):
            rows[torch] = (ms, status, args, note)

    for torch, row in STRUCTURAL.items():
        rows[torch] = row
    for torch, row in CORRECTED.items():
        rows[torch] = row
    out_dir = os.path.join(ROOT, "rules", "torch2mindspore")
    os.makedirs(out_dir, exist_ok=True)
    by_family = {}
    for torch in sorted(rows):
        by_family.setdefault(family(torch), []).append((torch,) + rows[torch])
    for fam in ("functions", "tensor", "nn", "functional", "optim", "data", "misc"):
        path = os.path.join(out_dir, fam + ".tsv")
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(f"# PyTorch -> MindSpore 2.x: {fam}. Generated by rules/make_torch2mindspore.py from the facts of\n"
                    f"# mindspore-ai/docs' PyTorch API mapping ({', '.join(commits)}) checked against\n"
                    "# rules/mindspore/api.tsv, plus our own rows (CURATED in the script); notes are ours.\n"
                    "# Edit CURATED and re-run rather than this file. Format: docs/rules.md.\n"
                    "# torch<TAB>mindspore<TAB>status<TAB>args<TAB>note\n")
            for r in by_family.get(fam, []):
                f.write("\t".join(r) + "\n")
        os.replace(tmp, path)
        print(f"{fam}: {len(by_family.get(fam, []))} rows", file=sys.stderr)


if __name__ == "__main__":
    main()
