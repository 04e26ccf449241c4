#!/usr/bin/env python3
"""Data-parallel training of the LLaMA-style model on llama_ops, with ferry-comm's allreduce.

Run under mpirun (ranks from MPI; torch.distributed joins with the same ranks):

    mpirun -np 2 python3 train.py --lib build/libllama_ops_capi.so --steps 300 --out DIR

Variants train the same model from the same seed on the same batches and differ in the operators
and in the gradient allreduce: "torch" is the pure-PyTorch model (PyTorch ops, SDPA) with DDP's
own allreduce (the baseline); "ferry:METHOD" is the model on llama_ops (model.py impl "ferry",
FlashAttention and the backward kernels included) with the ferry-comm DDP hook METHOD (none,
int8+ef, eb:rel=1e-3, ...; docs/comm-training.md); "torch:METHOD" the PyTorch model with that hook.
Rank 0 writes DIR/llama_train.{json,md,png}; with --tolerance the run fails unless every
variant's final held-out loss is within that relative distance of the baseline's, the loss fell,
and all ranks hold identical parameters.
"""
import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2] / "comm" / "python" / "training"))
import ferry_comm  # noqa: E402  (PYTHONPATH: the ferry_comm build)
import model as lm  # noqa: E402
import tiny_llama as tl  # noqa: E402  (the generated corpus)

DEFAULT_VARIANTS = "torch,ferry:none,ferry:int8+ef,ferry:eb:rel=1e-3"


def lr_at(step, steps, peak, warmup):
    if step < warmup:
        return peak * (step + 1) / warmup
    t = (step - warmup) / max(1, steps - warmup)
    return peak * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t)))


@torch.no_grad()
def evaluate(mdl, xs, ys, vocab):
    mdl.eval()
    dev = next(mdl.parameters()).device
    loss = torch.nn.functional.cross_entropy(mdl(xs.to(dev)).reshape(-1, vocab), ys.to(dev).reshape(-1)).item()
    mdl.train()
    return loss


def train(variant, args, cfg, ops_by_impl, stream, eval_xy, rank, world):
    impl, _, method = variant.partition(":")
    torch.manual_seed(args.seed)
    mdl = lm.Llama(cfg, ops_by_impl[impl]).to(args.device)
    ddp = DDP(mdl, bucket_cap_mb=args.bucket_mb)
    state = ferry_comm.register(ddp, method) if method else None
    opt = torch.optim.AdamW(ddp.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.01)
    gen = torch.Generator().manual_seed(args.seed * 1000 + rank)  # the same batches for every variant
    curve, evals, comm_time = [], [], [0.0]
    if state is not None:
        inner = state.allreduce_mean_

        def timed(flat, bucket=None):
            t0 = time.perf_counter()
            r = inner(flat, bucket)
            comm_time[0] += time.perf_counter() - t0
            return r
        state.allreduce_mean_ = timed
    dist.barrier()
    train_time = 0.0
    for step in range(args.steps):
        if step % args.eval_every == 0:
            evals.append((step, evaluate(mdl, *eval_xy, cfg.vocab)))
        t0 = time.perf_counter()
        x, y = tl.batch(stream, args.batch, cfg.seq, gen)
        x, y = x.to(args.device), y.to(args.device)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, args.steps, args.lr, args.warmup)
        loss = torch.nn.functional.cross_entropy(ddp(x).reshape(-1, cfg.vocab), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
        opt.step()
        curve.append(loss.item())  # synchronises the step
        train_time += time.perf_counter() - t0
    evals.append((args.steps, evaluate(mdl, *eval_xy, cfg.vocab)))
    flat = torch.cat([p.detach().reshape(-1) for p in mdl.parameters()]).cpu()
    ref = flat.clone()
    dist.broadcast(ref, 0)
    losses = torch.tensor(curve)
    dist.all_reduce(losses)
    losses = losses / world
    return {"variant": variant, "impl": impl, "method": method or "ddp", "train_loss": losses.tolist(), "eval": evals,
            "final_eval_loss": evals[-1][1], "final_train_loss": float(losses[-10:].mean()), "train_seconds": train_time,
            "comm_seconds": comm_time[0] if state is not None else None,
            "bytes_sent_per_step": state.bytes_sent / args.steps if state is not None else None,
            "path": (state.last_stats or {}).get("path") if state is not None and isinstance(state.last_stats, dict) else None,
            "max_param_diff_across_ranks": (flat - ref).abs().max().item(),
            "tokens_per_s": args.steps * args.batch * cfg.seq * world / train_time}


def write_outputs(results, args, cfg, nparams, world, lib):
    os.makedirs(args.out, exist_ok=True)
    base = results[0]
    meta = {"steps": args.steps, "ranks": world, "batch_per_rank": args.batch, "seq": cfg.seq, "device": args.device,
            "gpu": torch.cuda.get_device_name(0) if args.device.startswith("cuda") else None, "params": nparams,
            "model": {k: getattr(cfg, k) for k in ("vocab", "dim", "layers", "heads", "ffn", "seq", "attn_dtype")},
            "lib": lib, "seed": args.seed, "lr": args.lr, "torch": torch.__version__, "baseline": base["variant"],
            "tolerance": args.tolerance}
    json.dump({"meta": meta, "results": results}, open(os.path.join(args.out, "llama_train.json"), "w"), indent=1)
    lines = [f"# LLaMA on llama_ops: {nparams / 1e6:.1f} M parameters, {world} ranks, {args.steps} steps, "
             f"batch {args.batch}x{cfg.seq} per rank, attention in {cfg.attn_dtype}", "",
             "| variant | operators | allreduce | final eval loss | vs baseline | final train loss (last 10) | tokens/s | "
             "in allreduce s | bytes sent/step/rank |", "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        rel = (r["final_eval_loss"] - base["final_eval_loss"]) / base["final_eval_loss"]
        ops = ("llama_ops formulas in torch (reference)" if lib == "reference" else "llama_ops (custom ops)") if r["impl"] == "ferry" else "PyTorch (SDPA)"
        comm = "DDP (gloo)" if r["method"] == "ddp" else f"ferry-comm {r['method']}" + (f" ({r['path']})" if r["path"] else "")
        cs = "-" if r["comm_seconds"] is None else f"{r['comm_seconds']:.2f}"
        sent = "-" if r["bytes_sent_per_step"] is None else str(int(r["bytes_sent_per_step"]))
        lines.append(f"| {r['variant']} | {ops} | {comm} | {r['final_eval_loss']:.4f} | {rel * 100:+.3f}% | "
                     f"{r['final_train_loss']:.4f} | {r['tokens_per_s']:.0f} | {cs} | {sent} |")
    lines += ["", f"Baseline: `{base['variant']}`. Final eval loss: cross-entropy on a held-out set of the generated corpus "
              "(another seed), identical on every rank."]
    open(os.path.join(args.out, "llama_train.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines), flush=True)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.5))
        k = max(1, args.steps // 50)
        for r in results:
            t = torch.tensor(r["train_loss"])
            sm = t.unfold(0, k, 1).mean(1) if t.numel() >= k else t
            a1.plot(range(k - 1, k - 1 + sm.numel()), sm.tolist(), label=r["variant"], lw=1)
            a2.plot([e[0] for e in r["eval"]], [e[1] for e in r["eval"]], marker=".", label=r["variant"], lw=1)
        a1.set(title=f"training loss (mean over ranks, {k}-step moving average)", xlabel="step", ylabel="loss")
        a2.set(title="held-out loss", xlabel="step", ylabel="loss")
        for a in (a1, a2):
            a.legend()
            a.grid(alpha=0.3)
        fig.suptitle(f"LLaMA-style {nparams / 1e6:.1f} M params on llama_ops vs PyTorch, {world} ranks, "
                     + (torch.cuda.get_device_name(0) if args.device.startswith("cuda") else "cpu"))
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, "llama_train.png"), dpi=110)
    except ImportError as e:
        print(f"train: no plot ({e})", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True, help="libllama_ops_capi.so (or 'reference': the torch formulas, for CPU runs)")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=16, help="sequences per rank per step")
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--model", default="", help="Config overrides, e.g. dim=768,layers=8")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--eval-every", type=int, default=25)
    ap.add_argument("--bucket-mb", type=float, default=25.0)
    ap.add_argument("--variants", default=DEFAULT_VARIANTS, help="comma list; the first is the baseline")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--out", default="llama-train-out")
    ap.add_argument("--tolerance", type=float, default=None)
    args = ap.parse_args()
    rank, world = ferry_comm.init_distributed(backend="gloo")
    if args.device == "cuda":
        args.device = f"cuda:{rank % torch.cuda.device_count()}"
        torch.cuda.set_device(args.device)
    cfg = lm.Config(seq=args.seq).override(args.model)
    cfg.seq = args.seq
    ops_by_impl = {"torch": lm.make_ops("sdpa"), "ferry": lm.make_ops("ferry", args.lib, "llama_ops")}
    stream = tl.corpus(400_000, seed=args.seed)
    ex, ey = tl.batch(tl.corpus(40_000, seed=args.seed + 1), 32, cfg.seq, torch.Generator().manual_seed(7))
    nparams = lm.n_params(lm.Llama(cfg, ops_by_impl["torch"]))
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        if v.partition(":")[0] not in ops_by_impl:
            raise SystemExit(f"train: variant '{v}': operators must be torch or ferry")
    if rank == 0:
        print(f"train: {world} ranks, {nparams / 1e6:.1f} M parameters, {args.steps} steps, variants {variants}, "
              f"operators from {args.lib}", flush=True)
    results = []
    for v in variants:
        r = train(v, args, cfg, ops_by_impl, stream, (ex, ey), rank, world)
        results.append(r)
        if rank == 0:
            print(f"  {v:>20}: final eval loss {r['final_eval_loss']:.4f} (start {r['eval'][0][1]:.4f}), "
                  f"{r['tokens_per_s']:.0f} tokens/s, param spread across ranks {r['max_param_diff_across_ranks']:.1e}", flush=True)
    ok = True
    if rank == 0:
        write_outputs(results, args, cfg, nparams, world, args.lib)
        if args.tolerance is not None:
            base = results[0]["final_eval_loss"]
            for r in results:
                rel = abs(r["final_eval_loss"] - base) / base
                learned = r["final_eval_loss"] < 0.8 * r["eval"][0][1]
                same = r["max_param_diff_across_ranks"] == 0.0
                verdict = rel <= args.tolerance and learned and same
                ok &= verdict
                print(f"  {'PASS' if verdict else 'FAIL'} {r['variant']}: |delta| {rel * 100:.3f}% (limit "
                      f"{args.tolerance * 100:g}%), learned {learned}, ranks identical {same}", flush=True)
    flag = torch.tensor([1 if ok else 0])
    dist.broadcast(flag, 0)
    ferry_comm.finalize()
    sys.exit(0 if int(flag[0]) == 1 else 1)


if __name__ == "__main__":
    main()
