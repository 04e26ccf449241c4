#!/usr/bin/python3
"""Data-parallel training parity of ferry-comm's codecs on a small LLaMA-style decoder.

Run under mpirun (ranks come from MPI; torch.distributed joins with the same ranks):

    mpirun -np 2 /usr/bin/python3 comm/python/training/training_parity.py --steps 300 --out DIR

Every variant trains the same model from the same seed on the same batches; only the gradient
allreduce differs: "gloo" is DDP's built-in allreduce over torch.distributed (the baseline), the
others are ferry-comm hooks (docs/comm-training.md). Rank 0 writes DIR/training_parity.{json,md,png}
and, with --tolerance, exits 1 unless every variant's final held-out loss is within that relative
distance of the baseline's and training reduced the loss.
"""
import argparse
import json
import math
import os
import sys
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import ferry_comm  # the built package: PYTHONPATH=<build>/python (comm/bench/training_parity.sh sets it)
import tiny_llama as tl  # next to this script

DEFAULT_VARIANTS = ["gloo", "none", "bf16", "int8+ef", "eb:rel=1e-3"]


def lr_at(step, steps, peak, warmup):
    if step < warmup:
        return peak * (step + 1) / warmup
    t = (step - warmup) / max(1, steps - warmup)
    return peak * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t)))


@torch.no_grad()
def evaluate(model, xs, ys):
    model.eval()
    dev = next(model.parameters()).device
    logits = model(xs.to(dev))
    ys = ys.to(dev)
    model.train()
    return torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), ys.reshape(-1)).item()


def train(variant, args, cfg, train_stream, eval_xy, rank, world):
    torch.manual_seed(args.seed)
    model = tl.TinyLlama(cfg).to(args.device)
    ddp = DDP(model, bucket_cap_mb=args.bucket_mb,
              device_ids=[torch.device(args.device).index] if args.device.startswith("cuda") else None)
    state = None
    if variant != args.backend:
        state = ferry_comm.register(ddp, variant)
    opt = torch.optim.AdamW(ddp.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.01)
    gen = torch.Generator().manual_seed(args.seed * 1000 + rank)  # same batches for every variant
    curve, evals = [], []
    train_time = 0.0
    comm_time = [0.0]
    if state is not None:  # time spent inside the ferry-comm allreduce
        inner = state.allreduce_mean_

        def timed(flat, bucket=None):
            t0 = time.perf_counter()
            r = inner(flat, bucket)
            comm_time[0] += time.perf_counter() - t0
            return r
        state.allreduce_mean_ = timed
    dist.barrier()
    t_start = time.perf_counter()
    for step in range(args.steps):
        if step % args.eval_every == 0:
            evals.append((step, evaluate(model, *eval_xy)))
        t0 = time.perf_counter()
        x, y = tl.batch(train_stream, args.batch, cfg.seq, gen)
        x, y = x.to(args.device), y.to(args.device)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, args.steps, args.lr, args.warmup)
        logits = ddp(x)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, cfg.vocab), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
        opt.step()
        curve.append(loss.item())  # synchronizes a CUDA step, so the timing below is complete
        train_time += time.perf_counter() - t0
    evals.append((args.steps, evaluate(model, *eval_xy)))
    # Every rank must hold the same parameters after training (DDP's contract); check it.
    coll = args.device if args.backend == "nccl" else "cpu"  # NCCL collectives take CUDA tensors
    flat = torch.cat([p.detach().reshape(-1) for p in model.parameters()]).to(coll)
    ref = flat.clone()
    dist.broadcast(ref, 0)
    max_param_diff = (flat - ref).abs().max().item()
    losses = torch.tensor(curve, device=coll)
    dist.all_reduce(losses)  # the training curve averaged over ranks (outside the timing)
    losses = (losses / world).cpu()
    return {
        "variant": variant,
        "train_loss": losses.tolist(),
        "eval": evals,
        "final_eval_loss": evals[-1][1],
        "final_train_loss": float(losses[-10:].mean()),
        "train_seconds": train_time,
        "comm_seconds": comm_time[0] if state is not None else None,
        "bytes_sent_per_step": (state.bytes_sent / args.steps) if state is not None else None,
        "last_stats": state.last_stats if state is not None else None,
        "max_param_diff_across_ranks": max_param_diff,
        "device": args.device,
        "tokens_per_s": args.steps * args.batch * cfg.seq * world / train_time,
        "comm_share": (comm_time[0] / train_time) if state is not None else None,
    }


def write_outputs(results, args, cfg, nparams, world):
    os.makedirs(args.out, exist_ok=True)
    base = results[0]
    meta = {"steps": args.steps, "ranks": world, "batch_per_rank": args.batch, "seq": cfg.seq, "device": args.device,
            "backend": args.backend, "model": {k: getattr(cfg, k) for k in ("vocab", "dim", "layers", "heads", "ffn", "seq")},
            "params": nparams, "seed": args.seed, "lr": args.lr, "torch": torch.__version__,
            "threads_per_rank": torch.get_num_threads(), "baseline": base["variant"],
            "tolerance": args.tolerance}
    with open(os.path.join(args.out, "training_parity.json"), "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    none_bytes = next((r["bytes_sent_per_step"] for r in results if r["variant"] == "none"), None)
    lines = [f"# Training parity: {nparams / 1e6:.2f} M-parameter LLaMA-style decoder, {world} ranks, "
             f"{args.steps} steps, batch {args.batch}x{cfg.seq} per rank, seed {args.seed}", "",
             "| variant | final eval loss | vs baseline | final train loss (last 10) | train wall s | tokens/s | "
             "in allreduce s | share of step | bytes sent/step/rank | compression |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        rel = (r["final_eval_loss"] - base["final_eval_loss"]) / base["final_eval_loss"]
        comp = (f"{none_bytes / r['bytes_sent_per_step']:.2f}x" if none_bytes and r["bytes_sent_per_step"] else "-")
        comm_s = "-" if r["comm_seconds"] is None else f"{r['comm_seconds']:.2f}"
        sent = "-" if r["bytes_sent_per_step"] is None else str(int(r["bytes_sent_per_step"]))
        share = "-" if r.get("comm_share") is None else f"{r['comm_share'] * 100:.0f}%"
        lines.append(f"| {r['variant']} | {r['final_eval_loss']:.4f} | {rel * 100:+.3f}% | {r['final_train_loss']:.4f} | "
                     f"{r['train_seconds']:.1f} | {r['tokens_per_s']:.0f} | {comm_s} | {share} | {sent} | {comp} |")
    lines += ["", f"Baseline: `{base['variant']}` (DDP's own allreduce over torch.distributed/{args.backend}). Final eval "
              "loss: cross-entropy on a held-out set of the generated corpus (other seed), identical on every rank."]
    with open(os.path.join(args.out, "training_parity.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
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
        fig.suptitle(f"ferry-comm codecs vs {args.backend} allreduce: {nparams / 1e6:.2f} M params, {world} ranks, "
                     f"{args.device.split(':')[0]}")
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, "training_parity.png"), dpi=110)
    except ImportError as e:
        print(f"training_parity: no plot ({e}); install python3-matplotlib", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=16, help="sequences per rank per step")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--eval-every", type=int, default=25)
    ap.add_argument("--bucket-mb", type=float, default=1.0)
    ap.add_argument("--variants", default=",".join(DEFAULT_VARIANTS),
                    help="comma list: gloo (baseline, first) and ferry-comm methods CODEC[+ef][@ALG]")
    ap.add_argument("--out", default="training-parity-out")
    ap.add_argument("--backend", default="gloo", choices=["gloo", "nccl"],
                    help="torch.distributed backend; the baseline variant has its name (nccl: one GPU per rank)")
    ap.add_argument("--model", default="",
                    help="model shape overrides, e.g. dim=768,layers=6,heads=12,ffn=2048,seq=128 (default: the tiny one)")
    ap.add_argument("--device", default="cpu",
                    help="cpu, or cuda: every rank trains on GPU (rank %% visible GPUs); the ferry-comm hook "
                         "then uses the device path (DeviceComm) when the extension has CUDA")
    ap.add_argument("--tolerance", type=float, default=None,
                    help="fail unless |final eval loss - baseline| <= tolerance * baseline for every variant")
    args = ap.parse_args()
    torch.set_num_threads(int(os.environ.get("FERRY_TRAIN_THREADS", "1")))
    rank, world = ferry_comm.init_distributed(backend=args.backend)
    if args.device == "cuda":
        args.device = f"cuda:{rank % torch.cuda.device_count()}"
        torch.cuda.set_device(args.device)
    cfg = tl.Config()
    for kv in filter(None, args.model.split(",")):
        k, _, v = kv.partition("=")
        if not hasattr(cfg, k.strip()):
            raise SystemExit(f"training_parity: unknown model field '{k}' (have {list(vars(cfg))})")
        setattr(cfg, k.strip(), int(v))
    train_stream = tl.corpus(200_000, seed=args.seed)
    ex, ey = tl.batch(tl.corpus(20_000, seed=args.seed + 1), 32, cfg.seq, torch.Generator().manual_seed(7))
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    if variants and variants[0] == "gloo" and args.backend != "gloo":
        variants[0] = args.backend  # the baseline is DDP's own allreduce on the chosen backend
    nparams = tl.n_params(tl.TinyLlama(cfg))
    if rank == 0:
        print(f"training_parity: {world} ranks, {nparams} parameters, {args.steps} steps, variants {variants}",
              flush=True)
    results = []
    for v in variants:
        r = train(v, args, cfg, train_stream, (ex, ey), rank, world)
        results.append(r)
        if rank == 0:
            print(f"  {v:>14}: final eval loss {r['final_eval_loss']:.4f} (start {r['eval'][0][1]:.4f}), "
                  f"train {r['train_seconds']:.1f} s, param spread across ranks {r['max_param_diff_across_ranks']:.1e}",
                  flush=True)
    ok = True
    if rank == 0:
        write_outputs(results, args, cfg, nparams, world)
        if args.tolerance is not None:
            base = results[0]["final_eval_loss"]
            for r in results:
                rel = abs(r["final_eval_loss"] - base) / base
                learned = r["final_eval_loss"] < 0.8 * r["eval"][0][1]
                same = r["max_param_diff_across_ranks"] == 0.0
                verdict = rel <= args.tolerance and learned and same
                ok &= verdict
                print(f"  {'PASS' if verdict else 'FAIL'} {r['variant']}: |delta| {rel * 100:.3f}% "
                      f"(limit {args.tolerance * 100:g}%), learned {learned}, ranks identical {same}", flush=True)
    flag = torch.tensor([1 if ok else 0], device=args.device if args.backend == "nccl" else "cpu")
    dist.broadcast(flag, 0)
    ferry_comm.finalize()
    sys.exit(0 if int(flag[0]) == 1 else 1)


if __name__ == "__main__":
    main()
