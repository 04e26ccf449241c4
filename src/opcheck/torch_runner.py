"""ferry opcheck's PyTorch runner (embedded in the ferry binary; started once per opcheck run).

Protocol: one JSON object per line on stdin, one per line on stdout. First it prints
{"hello": true, "torch": VERSION, "cuda": BOOL, "device": NAME}. Each request names the inputs
(raw little-endian files of a dtype and shape), the outputs to write (fp64 or int64 raw files),
attrs and dimension names (integers), the code, setup code run once untimed, a device
(auto|cuda|cpu), an optional upcast of float inputs, warmup and repeats. The code runs with the
inputs, attrs, `torch`, `F` (torch.nn.functional) and `math` in scope and must set every output
by name. The answer: {"status": "ok", "times_us": [...]} or {"status": "error", "message": ...}.
Times are per repeat, from CUDA events on a GPU and perf_counter on the CPU.
"""
import json
import math
import sys
import time
import traceback

import torch
import torch.nn.functional as F

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "fp64": torch.float64,
          "int32": torch.int32, "int64": torch.int64}


def device_for(req):
    want = req.get("device", "auto")
    if want == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("device 'cuda' asked for, but torch sees no GPU")
    if want == "cpu" or (want == "auto" and not torch.cuda.is_available()):
        return torch.device("cpu")
    return torch.device("cuda")


def load(inp, dev, upcast):
    dt = DTYPES[inp["dtype"]]
    with open(inp["file"], "rb") as f:
        raw = bytearray(f.read())
    t = torch.frombuffer(raw, dtype=dt).reshape(inp["shape"]) if raw else torch.empty(inp["shape"], dtype=dt)
    if upcast and t.is_floating_point():
        t = t.to(DTYPES[upcast])
    return t.to(dev)


def handle(req):
    dev = device_for(req)
    ns = {"torch": torch, "F": F, "math": math, "device": dev}
    ints = set(req.get("ints", []))
    for k, v in req.get("attrs", {}).items():
        ns[k] = int(v) if k in ints else v
    for inp in req["inputs"]:
        ns[inp["name"]] = load(inp, dev, req.get("upcast"))
    if req.get("setup"):
        exec(compile(req["setup"], "<setup>", "exec"), ns)
    code = compile(req["code"], "<code>", "exec")
    exec(code, ns)  # the result
    outs = {}
    for o in req["outputs"]:
        if o["name"] not in ns or not torch.is_tensor(ns[o["name"]]):
            raise RuntimeError(f"the code did not set output '{o['name']}' to a tensor")
        t = ns[o["name"]].detach()
        if t.numel() != math.prod(o["shape"]):
            raise RuntimeError(f"output '{o['name']}' has shape {tuple(t.shape)}, the spec says {tuple(o['shape'])}")
        outs[o["name"]] = t.to("cpu", DTYPES[o["dtype"]]).contiguous().reshape(-1).clone()
    for _ in range(req.get("warmup", 0)):
        exec(code, ns)
    times = []
    cuda = dev.type == "cuda"
    for _ in range(req.get("repeats", 1)):
        if cuda:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            exec(code, ns)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 1000.0)
        else:
            t0 = time.perf_counter()
            exec(code, ns)
            times.append((time.perf_counter() - t0) * 1e6)
    for o in req["outputs"]:
        with open(o["file"], "wb") as f:
            f.write(outs[o["name"]].numpy().tobytes())
    return {"status": "ok", "times_us": times, "device": str(dev)}


def main():
    cuda = torch.cuda.is_available()
    name = torch.cuda.get_device_name(0) if cuda else "cpu"
    print(json.dumps({"hello": True, "torch": torch.__version__, "cuda": cuda, "device": name}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            resp = handle(json.loads(line))
        except Exception as e:  # the message goes back to ferry; the runner stays up
            resp = {"status": "error", "message": f"{type(e).__name__}: {e}",
                    "traceback": traceback.format_exc(limit=4)}
        print(json.dumps(resp), flush=True)


if __name__ == "__main__":
    main()
