#!/usr/bin/env python3
"""LLaMA inference on llama_ops: do the logits match PyTorch's, and how many tokens per second?

One set of weights, four implementations of the same model (model.py): "ferry" (llama_ops built
from the original CUDA), "ferry-rt" (llama_ops built from its CUDA -> HIP -> CUDA round trip, with
--lib-rt), "sdpa" (PyTorch with scaled_dot_product_attention) and "eager" (PyTorch with attention
written out in float32). Logits are compared with eager's for attention in bf16 and fp16:
max |difference| relative to the standard deviation of eager's logits, and the share of positions
whose most likely token is the same. Then forward passes (prefill of batch x seq tokens, no KV
cache) are timed for each, in the same run.

    python3 infer.py --lib build/libllama_ops_capi.so [--lib-rt RT/build/libllama_ops_capi.so] --out DIR
    python3 infer.py --lib reference --device cpu --quick      # the CPU check (reference formulas)

Exit 0 when every llama_ops variant is within --tolerance (relative) and agrees on >= --top1 of
the argmax tokens, for both dtypes.
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import model as lm  # noqa: E402


def corpus_batch(batch, seq, seed):
    """Sentences of the generated grammar of comm/python/training (nothing downloaded)."""
    sys.path.insert(0, str(HERE.parents[2] / "comm" / "python" / "training"))
    import tiny_llama as tl
    stream = tl.corpus(batch * (seq + 1) * 4, seed=seed)
    x, _ = tl.batch(stream, batch, seq, torch.Generator().manual_seed(seed))
    return x


def sync(device):
    if device.startswith("cuda"):
        torch.cuda.synchronize()


@torch.no_grad()
def tokens_per_s(mdl, tokens, iters, device):
    for _ in range(2):
        mdl(tokens)
    sync(device)
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        mdl(tokens)
        sync(device)
        times.append(time.perf_counter() - t0)
    times.sort()
    med = times[len(times) // 2]
    return tokens.numel() / med, med


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True, help="libllama_ops_capi.so of the original, or 'reference'")
    ap.add_argument("--lib-rt", default=None, help="libllama_ops_capi.so of the round trip")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--seq", type=int, default=512)
    ap.add_argument("--model", default="", help="Config overrides, e.g. dim=768,layers=8")
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--tolerance", type=float, default=2e-2, help="max |dlogit| / std(logits)")
    ap.add_argument("--top1", type=float, default=0.99)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--out", default=None)
    ap.add_argument("--quick", action="store_true", help="a small model and batch (CPU check)")
    args = ap.parse_args()
    cfg = lm.Config(seq=args.seq).override(args.model)
    if args.quick:
        cfg = lm.Config(dim=128, layers=2, heads=2, ffn=344, seq=64)
        args.batch, args.iters = 2, 1
    cfg.seq = cfg.seq if args.quick else args.seq
    dev = args.device
    torch.manual_seed(args.seed)
    impls = {"eager": lm.make_ops("eager"), "sdpa": lm.make_ops("sdpa"), "ferry": lm.make_ops("ferry", args.lib, "llama_ops")}
    if args.lib_rt:
        impls["ferry-rt"] = lm.make_ops("ferry", args.lib_rt, "llama_ops_rt")
    base = lm.Llama(cfg, impls["eager"])
    models = {}
    for name, ops in impls.items():
        m = lm.Llama(cfg, ops)
        m.load_state_dict(base.state_dict())
        models[name] = m.to(dev).eval()
    tokens = corpus_batch(args.batch, cfg.seq, args.seed).to(dev)
    nparams = lm.n_params(base)
    print(f"infer: {nparams / 1e6:.1f} M parameters, batch {args.batch} x {cfg.seq} tokens, device {dev}"
          + (f" ({torch.cuda.get_device_name(0)})" if dev.startswith("cuda") else "") + f", torch {torch.__version__}", flush=True)

    parity, ok = [], True
    for adt in ("bf16", "fp16"):
        if adt == "fp16" and dev == "cpu":
            continue  # the eager reference's fp16 matmuls do not exist on the CPU in old torch
        cfg.attn_dtype = adt
        with torch.no_grad():
            logits = {n: m(tokens).float() for n, m in models.items()}
        ref = logits["eager"]
        scale = ref.std().item()
        for name in logits:
            if name == "eager":
                continue
            d = (logits[name] - ref).abs()
            top1 = (logits[name].argmax(-1) == ref.argmax(-1)).float().mean().item()
            rel = d.max().item() / scale
            checked = name.startswith("ferry")
            verdict = (rel <= args.tolerance and top1 >= args.top1) if checked else None
            ok &= verdict is not False
            parity.append({"attn_dtype": adt, "impl": name, "max_abs": d.max().item(), "mean_abs": d.mean().item(),
                           "rel_to_std": rel, "top1_agreement": top1, "pass": verdict})
            print(f"  logits {adt} {name:>9} vs eager: max |d| {d.max().item():.3e} ({rel:.2e} of std {scale:.3f}), "
                  f"mean {d.mean().item():.2e}, top-1 agreement {top1 * 100:.2f}%"
                  + ("" if verdict is None else (" PASS" if verdict else " FAIL")), flush=True)
    cfg.attn_dtype = "bf16"
    speed = []
    for name, m in models.items():
        tps, sec = tokens_per_s(m, tokens, args.iters, dev)
        speed.append({"impl": name, "tokens_per_s": tps, "seconds_per_forward": sec})
    ref_tps = next(s["tokens_per_s"] for s in speed if s["impl"] == "sdpa")
    for s in speed:
        s["vs_sdpa"] = s["tokens_per_s"] / ref_tps
        print(f"  forward {s['impl']:>9}: {s['tokens_per_s']:12.0f} tokens/s ({s['seconds_per_forward'] * 1e3:.2f} ms), "
              f"{s['vs_sdpa']:.3f}x sdpa", flush=True)
    print("infer:", "PASS" if ok else "FAIL", flush=True)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        meta = {"params": nparams, "batch": args.batch, "seq": cfg.seq, "device": dev, "torch": torch.__version__,
                "gpu": torch.cuda.get_device_name(0) if dev.startswith("cuda") else None, "lib": args.lib, "lib_rt": args.lib_rt,
                "model": {k: getattr(cfg, k) for k in ("vocab", "dim", "layers", "heads", "ffn")}, "tolerance": args.tolerance,
                "top1": args.top1}
        json.dump({"meta": meta, "parity": parity, "speed": speed, "pass": ok}, open(os.path.join(args.out, "infer.json"), "w"), indent=1)
        lines = [f"# LLaMA inference on llama_ops: {nparams / 1e6:.1f} M parameters, batch {args.batch} x {cfg.seq}", "",
                 "| attention dtype | implementation | max abs diff vs eager | / std(logits) | mean abs diff | top-1 agreement | verdict |",
                 "|---|---|---|---|---|---|---|"]
        for p in parity:
            v = "-" if p["pass"] is None else ("PASS" if p["pass"] else "FAIL")
            lines.append(f"| {p['attn_dtype']} | {p['impl']} | {p['max_abs']:.3e} | {p['rel_to_std']:.2e} | {p['mean_abs']:.2e} | "
                         f"{p['top1_agreement'] * 100:.2f}% | {v} |")
        lines += ["", "| implementation | tokens/s (forward, bf16 attention) | ms per forward | vs sdpa |", "|---|---|---|---|"]
        for s in speed:
            lines.append(f"| {s['impl']} | {s['tokens_per_s']:.0f} | {s['seconds_per_forward'] * 1e3:.2f} | {s['vs_sdpa']:.3f}x |")
        open(os.path.join(args.out, "infer.md"), "w").write("\n".join(lines) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
