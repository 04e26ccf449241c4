#!/usr/bin/env python3
"""FlashAttention of examples/llama_ops against PyTorch's SDPA on one GPU (run by hand, not CI).

Forward and backward (tensor-core WMMA kernels and the scalar ones of the same library),
grouped-query attention and decoding (one query token over a contiguous or a paged KV cache)
against torch's SDPA flash backend and the eager formula, in one process: each kernel is checked against a float32 reference (SDPA on upcast
inputs; errors as ||out - ref|| / ||ref|| and max |out - ref|, SDPA flash's own error beside) and
timed as a CUDA graph of `reps` calls (so Python and ctypes stay out of the numbers), median of
several replays (the backward pass, ours and SDPA's autograd, as back-to-back calls between two
events instead: autograd does not capture into a graph). TFLOP/s count 4*B*H*Sq*Sk*D forward,
10*B*H*Sq*Sk*D backward (FlashAttention-2's count; half of it causal).

Usage: bench/llama_ops_flash_bench.py --lib build/libllama_ops_capi.so --out OUT_DIR [--quick]
Writes OUT_DIR/flash_bench.{json,md}; exit 1 when a check fails.
"""
import argparse
import ctypes
import json
import math
import os
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

P, I, F32, LL = ctypes.c_void_p, ctypes.c_int, ctypes.c_float, ctypes.c_longlong


def load(path):
    lib = ctypes.CDLL(path)
    sig = {
        "llama_flash_forward_gqa": [P, P, P, P, P, P, I, I, I, I, I, I, F32, I, I, P],
        "llama_flash_decode": [P, P, P, P, P, P, P, I, I, I, I, I, F32, I, P],
        "llama_flash_use_wmma": [I],
        "llama_flash_backward_gqa": [P, P, P, P, P, P, P, P, P, P, P, I, I, I, I, I, I, F32, I, I, P],
        "llama_flash_decode_paged": [P, P, P, P, P, P, P, P, I, I, P, I, I, I, I, I, F32, I, P],
    }
    for name, args in sig.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = I
    lib.llama_flash_decode_workspace.argtypes = [I, I, I, I]
    lib.llama_flash_decode_workspace.restype = LL
    lib.llama_last_error.restype = ctypes.c_char_p
    return lib


def strides(*ts):
    out = []
    for t in ts:
        s = t.stride()
        out += [s[0], s[1], s[2]]
    return (LL * len(out))(*out)


def check(lib, rc):
    if rc != 0:
        raise RuntimeError(lib.llama_last_error().decode())


def time_graph(fn, reps, replays=7):
    """Median time of one call (ms), fn captured `reps` times into a CUDA graph."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(reps):
            fn()
    g.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / reps)
    return statistics.median(times)


def time_loop(fn, reps, replays=5):
    """Median time of one call (ms) over `reps` back-to-back calls between two events."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(reps):
            fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / reps)
    return statistics.median(times)


def err(out, ref):
    d = (out.float() - ref.float())
    return (d.norm() / ref.float().norm()).item(), d.abs().max().item()


def reps_for(ms_guess):
    return max(3, min(50, int(60.0 / max(ms_guess, 1e-3))))


def fwd_case(lib, B, H, KVH, S, D, dtype, causal, do_scalar, ms_guess):
    torch.manual_seed(B * 1000003 + H * 1009 + S * 7 + D + causal)
    q = torch.randn(B, H, S, D, device="cuda", dtype=dtype)
    k = torch.randn(B, KVH, S, D, device="cuda", dtype=dtype)
    v = torch.randn(B, KVH, S, D, device="cuda", dtype=dtype)
    o = torch.full_like(q, float("nan"))
    lse = torch.empty(B, H, S, device="cuda", dtype=torch.float32)
    scale = 1.0 / math.sqrt(D)
    bf = 1 if dtype == torch.bfloat16 else 0
    st = strides(q, k, v, o)

    def ours():
        check(lib, lib.llama_flash_forward_gqa(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr(), st,
                                               B, H, KVH, S, S, D, scale, int(causal), bf,
                                               torch.cuda.current_stream().cuda_stream))

    group = H // KVH
    ke = k.repeat_interleave(group, dim=1) if group > 1 else k
    ve = v.repeat_interleave(group, dim=1) if group > 1 else v
    ref = F.scaled_dot_product_attention(q.float(), ke.float(), ve.float(), is_causal=causal)
    # lse of one (batch, head) slice in float64
    s64 = (q[0, 0].double() @ ke[0, 0].double().T) * scale
    if causal:
        s64 = s64.masked_fill(torch.ones(S, S, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
    lse_ref = torch.logsumexp(s64, -1)

    row = {"B": B, "H": H, "KVH": KVH, "S": S, "D": D, "dtype": str(dtype).split(".")[-1], "causal": int(causal)}
    flops = 4.0 * B * H * S * S * D * (0.5 if causal else 1.0)

    def sdpa():
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            return F.scaled_dot_product_attention(q, ke, ve, is_causal=causal)

    o_sdpa = sdpa()
    row["err_sdpa"], row["max_sdpa"] = err(o_sdpa, ref)
    row["ms_sdpa"] = time_graph(sdpa, reps_for(ms_guess))
    variants = [("wmma", 1)] + ([("scalar", 0)] if do_scalar else [])
    for name, on in variants:
        used = lib.llama_flash_use_wmma(on)
        if on and not used:
            row["wmma_built"] = 0
            continue
        o.fill_(float("nan"))
        ours()
        torch.cuda.synchronize()
        row[f"nan_{name}"] = int(torch.isnan(o).any().item())
        row[f"err_{name}"], row[f"max_{name}"] = err(o, ref)
        row[f"lse_{name}"] = (lse[0, 0].double() - lse_ref).abs().max().item()
        row[f"ms_{name}"] = time_graph(ours, reps_for(ms_guess * (8 if name == "scalar" else 1)))
    lib.llama_flash_use_wmma(1)
    for name in ("sdpa", "wmma", "scalar"):
        if f"ms_{name}" in row:
            row[f"tflops_{name}"] = flops / row[f"ms_{name}"] / 1e9
    if "ms_wmma" in row:
        row["ratio_wmma"] = row["ms_sdpa"] / row["ms_wmma"]  # SDPA's time / ours: >= 0.7 is the goal
    if "ms_scalar" in row:
        row["ratio_scalar"] = row["ms_sdpa"] / row["ms_scalar"]
    tol = 1.5 * row["err_sdpa"] + 1e-4
    row["pass"] = int(all(row.get(f"err_{n}", 0) <= tol and not row.get(f"nan_{n}", 0) and row.get(f"lse_{n}", 0) < 1e-3
                          for n in ("wmma", "scalar")))
    return row


def bwd_case(lib, B, H, KVH, S, D, dtype, causal, do_scalar, ms_guess):
    """dq, dk, dv of ours (WMMA, and scalar when asked) and of SDPA-flash against float32 autograd."""
    torch.manual_seed(B * 1000003 + H * 1009 + S * 7 + D + causal + 17)
    q = torch.randn(B, H, S, D, device="cuda", dtype=dtype)
    k = torch.randn(B, KVH, S, D, device="cuda", dtype=dtype)
    v = torch.randn(B, KVH, S, D, device="cuda", dtype=dtype)
    do = torch.randn(B, H, S, D, device="cuda", dtype=dtype)
    o = torch.empty_like(q)
    lse = torch.empty(B, H, S, device="cuda", dtype=torch.float32)
    delta = torch.empty(B, H, S, device="cuda", dtype=torch.float32)
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    scale = 1.0 / math.sqrt(D)
    bf = 1 if dtype == torch.bfloat16 else 0
    s0 = lambda: torch.cuda.current_stream().cuda_stream
    check(lib, lib.llama_flash_forward_gqa(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr(),
                                           strides(q, k, v, o), B, H, KVH, S, S, D, scale, int(causal), bf, s0()))
    st = strides(q, k, v, o, do, dq, dk, dv)

    def ours():
        check(lib, lib.llama_flash_backward_gqa(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), do.data_ptr(),
                                                dq.data_ptr(), dk.data_ptr(), dv.data_ptr(), lse.data_ptr(),
                                                delta.data_ptr(), st, B, H, KVH, S, S, D, scale, int(causal), bf, s0()))

    group = H // KVH

    def expand(t):
        return t.repeat_interleave(group, dim=1) if group > 1 else t

    def fold(t):  # gradients of expanded k/v -> kv heads
        return t.view(B, KVH, group, S, D).sum(2) if group > 1 else t

    q32, k32, v32 = (t.float().requires_grad_() for t in (q, k, v))
    o32 = F.scaled_dot_product_attention(q32, expand(k32), expand(v32), is_causal=causal)
    refs = torch.autograd.grad(o32, (q32, k32, v32), do.float())
    del o32, q32, k32, v32
    row = {"B": B, "H": H, "KVH": KVH, "S": S, "D": D, "dtype": str(dtype).split(".")[-1], "causal": int(causal)}
    flops = 10.0 * B * H * S * S * D * (0.5 if causal else 1.0)
    qq, kk, vv = q.clone().requires_grad_(), expand(k).clone().requires_grad_(), expand(v).clone().requires_grad_()
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        o_s = F.scaled_dot_product_attention(qq, kk, vv, is_causal=causal)

    def sdpa():
        return torch.autograd.grad(o_s, (qq, kk, vv), do, retain_graph=True)

    g = sdpa()
    got = (g[0], fold(g[1]), fold(g[2]))
    for n, x, r in zip(("dq", "dk", "dv"), got, refs):
        row[f"err_sdpa_{n}"], _ = err(x, r)
    row["ms_sdpa"] = time_loop(sdpa, reps_for(ms_guess))
    variants = [("wmma", 1)] + ([("scalar", 0)] if do_scalar else [])
    for name, on in variants:
        used = lib.llama_flash_use_wmma(on)
        if on and not used:
            row["wmma_built"] = 0
            continue
        for t in (dq, dk, dv):
            t.fill_(float("nan"))
        ours()
        torch.cuda.synchronize()
        row[f"nan_{name}"] = int(any(torch.isnan(t).any().item() for t in (dq, dk, dv)))
        for n, x, r in zip(("dq", "dk", "dv"), (dq, dk, dv), refs):
            row[f"err_{name}_{n}"], _ = err(x, r)
        row[f"ms_{name}"] = time_loop(ours, reps_for(ms_guess * (8 if name == "scalar" else 1)))
    lib.llama_flash_use_wmma(1)
    for name in ("sdpa", "wmma", "scalar"):
        if f"ms_{name}" in row:
            row[f"tflops_{name}"] = flops / row[f"ms_{name}"] / 1e9
    if "ms_wmma" in row:
        row["ratio_wmma"] = row["ms_sdpa"] / row["ms_wmma"]  # SDPA's time / ours: >= 0.5 is the goal
    if "ms_scalar" in row:
        row["ratio_scalar"] = row["ms_sdpa"] / row["ms_scalar"]
    row["pass"] = int(all(row.get(f"err_{m}_{n}", 0) <= 2.0 * row[f"err_sdpa_{n}"] + 1e-3 and not row.get(f"nan_{m}", 0)
                          for m in ("wmma", "scalar") for n in ("dq", "dk", "dv")))
    return row


def paged(k, v, page_size, seed):
    """The cache [B, KVH, L, D] as a shuffled pool of pages [pages, page_size, KVH, D] (vLLM's
    layout) and a block table [B, max_pages]."""
    B, KVH, L, D = k.shape
    mp = (L + page_size - 1) // page_size
    gen = torch.Generator(device="cpu").manual_seed(seed)
    perm = torch.randperm(B * mp, generator=gen)
    table = perm.view(B, mp).to(device="cuda", dtype=torch.int32)
    pools = []
    for t in (k, v):
        pad = torch.zeros(B, KVH, mp * page_size, D, device="cuda", dtype=t.dtype)
        pad[:, :, :L] = t
        pages = pad.view(B, KVH, mp, page_size, D).permute(0, 2, 3, 1, 4).reshape(B * mp, page_size, KVH, D)
        pool = torch.empty_like(pages)
        pool[perm.to("cuda")] = pages
        pools.append(pool.contiguous())
    return pools[0], pools[1], table, mp


def decode_case(lib, B, H, KVH, L, D, dtype, page_size=16):
    torch.manual_seed(L + H + D)
    q = torch.randn(B, H, 1, D, device="cuda", dtype=dtype)
    k = torch.randn(B, KVH, L, D, device="cuda", dtype=dtype)
    v = torch.randn(B, KVH, L, D, device="cuda", dtype=dtype)
    o = torch.full_like(q, float("nan"))
    lse = torch.empty(B, H, device="cuda", dtype=torch.float32)
    work = torch.empty(lib.llama_flash_decode_workspace(B, H, L, D), device="cuda", dtype=torch.float32)
    scale = 1.0 / math.sqrt(D)
    bf = 1 if dtype == torch.bfloat16 else 0
    st = strides(q, k, v, o)

    def ours():
        check(lib, lib.llama_flash_decode(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr(),
                                          work.data_ptr(), st, B, H, KVH, L, D, scale, bf,
                                          torch.cuda.current_stream().cuda_stream))

    group = H // KVH
    ke = k.repeat_interleave(group, dim=1)
    ve = v.repeat_interleave(group, dim=1)
    ref = F.scaled_dot_product_attention(q.float(), ke.float(), ve.float())
    row = {"B": B, "H": H, "KVH": KVH, "L": L, "D": D, "dtype": str(dtype).split(".")[-1]}
    ours()
    torch.cuda.synchronize()
    row["nan"] = int(torch.isnan(o).any().item())
    row["err_ours"], row["max_ours"] = err(o, ref)
    row["ms_ours"] = time_graph(ours, 50)

    def sdpa_gqa():  # what a model calls: SDPA on the cache as it is (enable_gqa), any backend
        return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)

    def sdpa_flash():  # the flash backend on the cache expanded to every query head
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            return F.scaled_dot_product_attention(q, ke, ve)

    def eager():  # PyTorch's own decode path of an eager LLaMA: matmul, softmax, matmul
        kk = k.repeat_interleave(group, dim=1)
        vv = v.repeat_interleave(group, dim=1)
        s = (q @ kk.transpose(-1, -2)) * scale
        return torch.softmax(s.float(), -1).to(dtype) @ vv

    for name, fn in (("sdpa", sdpa_gqa), ("sdpa_flash_expanded", sdpa_flash), ("eager", eager)):
        try:
            out = fn()
            row[f"err_{name}"], _ = err(out, ref)
            row[f"ms_{name}"] = time_graph(fn, 50)
            row[f"ratio_{name}"] = row[f"ms_{name}"] / row["ms_ours"]
        except Exception as e:  # a backend that refuses the shape
            row[f"ms_{name}"] = None
            row[f"why_{name}"] = str(e)[:120]
    if page_size:  # the same cache as pages of page_size rows in a shuffled pool (block table)
        kp, vp, table, mp = paged(k, v, page_size, L + D)
        op = torch.full_like(q, float("nan"))
        stp = strides(q, kp.permute(0, 2, 1, 3), vp.permute(0, 2, 1, 3), op)  # (page, head, row) strides

        def ours_paged():
            check(lib, lib.llama_flash_decode_paged(q.data_ptr(), kp.data_ptr(), vp.data_ptr(), op.data_ptr(), None,
                                                    work.data_ptr(), stp, table.data_ptr(), page_size, mp, None,
                                                    B, H, KVH, L, D, scale, bf, torch.cuda.current_stream().cuda_stream))

        ours_paged()
        torch.cuda.synchronize()
        row["page_size"] = page_size
        row["nan"] |= int(torch.isnan(op).any().item())
        row["err_paged"], _ = err(op, ref)
        row["ms_paged"] = time_graph(ours_paged, 50)
        row["ratio_sdpa_paged"] = (row.get("ms_sdpa") or 0) / row["ms_paged"]
    byts = 2.0 * B * KVH * L * D * q.element_size()
    row["gbps_ours"] = byts / row["ms_ours"] / 1e6
    tol = 1.5 * max(row.get("err_sdpa", 0) or 0, 2e-3) + 1e-4
    row["pass"] = int(not row["nan"] and row["err_ours"] <= tol and row.get("err_paged", 0) <= tol)
    return row


FWD_SHAPES = [  # B, H, KVH, S, D, ms guess of SDPA
    (4, 16, 16, 1024, 64, 0.1), (4, 16, 16, 1024, 128, 0.15), (2, 16, 16, 2048, 128, 0.3),
    (1, 16, 16, 4096, 64, 0.3), (1, 16, 16, 4096, 128, 0.45), (1, 16, 16, 8192, 64, 1.0),
    (1, 16, 16, 8192, 128, 1.6), (2, 4, 4, 333, 64, 0.05), (1, 32, 8, 4096, 128, 0.9),
]
BWD_SHAPES = [  # B, H, KVH, S, D, ms guess of SDPA's backward
    (4, 16, 16, 1024, 64, 0.3), (4, 16, 16, 1024, 128, 0.5), (2, 16, 16, 2048, 128, 1.0),
    (1, 16, 16, 4096, 128, 1.5), (1, 16, 16, 8192, 128, 5.0), (2, 4, 4, 333, 64, 0.1), (1, 32, 8, 4096, 128, 3.0),
]
DEC_SHAPES = [(1, 32, 8, 4096, 128), (8, 32, 8, 4096, 128), (1, 32, 8, 8192, 128), (16, 32, 32, 2048, 128),
              (4, 32, 8, 1000, 64)]


def profile(lib, part, manifest):
    """One launch of each kernel at every shape of the tables, for ncu with --profile-from-start
    off: only the launches between torch.cuda.profiler.start() and stop() are profiled (inputs are
    made outside). part: fwd (ours fp16 and bf16, SDPA-flash fp16; causal and not), bwd (ours fp16
    causal and not, bf16 non-causal; SDPA-flash fp16 through autograd), dec (ours and SDPA with
    enable_gqa, fp16). Each case is ours then SDPA, so that the kernels of the ncu report split into
    cases by namespace (ours: flash_wmma::, flash::, decode::); the cases, in launch order, go to
    `manifest` (JSON lines) for bench/llama_ops_ncu_summary.py."""
    s0 = lambda: torch.cuda.current_stream().cuda_stream
    prof = torch.cuda.profiler
    out = open(manifest, "a")

    def note(**kw):
        out.write(json.dumps(dict(part=part, **kw)) + "\n")
        out.flush()

    if part == "fwd":
        for (B, H, KVH, S, D, _) in FWD_SHAPES:
            for dtype in (torch.float16, torch.bfloat16):
                q = torch.randn(B, H, S, D, device="cuda", dtype=dtype)
                k, v = (torch.randn(B, KVH, S, D, device="cuda", dtype=dtype) for _ in range(2))
                o = torch.empty_like(q)
                lse = torch.empty(B, H, S, device="cuda", dtype=torch.float32)
                ke, ve = (t.repeat_interleave(H // KVH, dim=1) for t in (k, v))
                bf = int(dtype == torch.bfloat16)
                for causal in (0, 1):
                    shape = dict(B=B, H=H, KVH=KVH, S=S, D=D, dtype=str(dtype).split(".")[-1], causal=causal)
                    torch.cuda.synchronize()
                    prof.start()
                    check(lib, lib.llama_flash_forward_gqa(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                                                           lse.data_ptr(), strides(q, k, v, o), B, H, KVH, S, S, D,
                                                           1.0 / math.sqrt(D), causal, bf, s0()))
                    note(impl="ours", **shape)
                    if not bf:
                        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                            F.scaled_dot_product_attention(q, ke, ve, is_causal=bool(causal))
                        note(impl="sdpa", **shape)
                    torch.cuda.synchronize()
                    prof.stop()
                del q, k, v, o, ke, ve
    elif part == "bwd":
        for (B, H, KVH, S, D, _) in BWD_SHAPES:
            for dtype, causals in ((torch.float16, (0, 1)), (torch.bfloat16, (0,))):
                bf = int(dtype == torch.bfloat16)
                q, do = (torch.randn(B, H, S, D, device="cuda", dtype=dtype) for _ in range(2))
                k, v = (torch.randn(B, KVH, S, D, device="cuda", dtype=dtype) for _ in range(2))
                o = torch.empty_like(q)
                lse, delta = (torch.empty(B, H, S, device="cuda", dtype=torch.float32) for _ in range(2))
                dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
                for causal in causals:
                    shape = dict(B=B, H=H, KVH=KVH, S=S, D=D, dtype=str(dtype).split(".")[-1], causal=causal)
                    sc = 1.0 / math.sqrt(D)
                    check(lib, lib.llama_flash_forward_gqa(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                                                           lse.data_ptr(), strides(q, k, v, o), B, H, KVH, S, S, D,
                                                           sc, causal, bf, s0()))
                    qq = q.clone().requires_grad_()
                    kk, vv = (t.repeat_interleave(H // KVH, dim=1).clone().requires_grad_() for t in (k, v))
                    if not bf:
                        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                            o_s = F.scaled_dot_product_attention(qq, kk, vv, is_causal=bool(causal))
                    torch.cuda.synchronize()
                    prof.start()
                    check(lib, lib.llama_flash_backward_gqa(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                                                            do.data_ptr(), dq.data_ptr(), dk.data_ptr(), dv.data_ptr(),
                                                            lse.data_ptr(), delta.data_ptr(),
                                                            strides(q, k, v, o, do, dq, dk, dv), B, H, KVH, S, S, D,
                                                            sc, causal, bf, s0()))
                    note(impl="ours", **shape)
                    if not bf:
                        torch.autograd.grad(o_s, (qq, kk, vv), do)
                        note(impl="sdpa", **shape)
                    torch.cuda.synchronize()
                    prof.stop()
                    del qq, kk, vv
                del q, k, v, o, do, dq, dk, dv
    elif part == "dec":
        for (B, H, KVH, L, D) in DEC_SHAPES:
            dtype = torch.float16
            q = torch.randn(B, H, 1, D, device="cuda", dtype=dtype)
            k, v = (torch.randn(B, KVH, L, D, device="cuda", dtype=dtype) for _ in range(2))
            o = torch.empty_like(q)
            work = torch.empty(lib.llama_flash_decode_workspace(B, H, L, D), device="cuda", dtype=torch.float32)
            shape = dict(B=B, H=H, KVH=KVH, S=L, D=D, dtype="float16", causal=0)
            F.scaled_dot_product_attention(q, k, v, enable_gqa=True)  # backend selection, workspace, outside
            torch.cuda.synchronize()
            prof.start()
            check(lib, lib.llama_flash_decode(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), None,
                                              work.data_ptr(), strides(q, k, v, o), B, H, KVH, L, D,
                                              1.0 / math.sqrt(D), 0, s0()))
            note(impl="ours", **shape)
            F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
            note(impl="sdpa", **shape)
            torch.cuda.synchronize()
            prof.stop()
    torch.cuda.synchronize()
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-scalar", action="store_true", help="skip timing the scalar kernel")
    ap.add_argument("--variant", action="store_true",
                    help="WMMA only, two forward shapes and one backward shape (1x16x4096x128): for "
                         "comparing builds of the kernels")
    ap.add_argument("--decode-only", action="store_true", help="the decode cases only")
    ap.add_argument("--no-backward", action="store_true", help="skip the backward cases")
    ap.add_argument("--backward-only", action="store_true", help="the backward cases only")
    ap.add_argument("--profile", choices=("fwd", "bwd", "dec"),
                    help="one call of each kernel (ours and SDPA's) at every shape of one table, for "
                         "ncu --profile-from-start off; no checks or timing")
    ap.add_argument("--manifest", help="--profile: the cases in launch order (JSON lines)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    lib = load(os.path.abspath(a.lib))
    if a.profile:
        return profile(lib, a.profile, a.manifest or os.path.join(a.out, f"ncu-{a.profile}.cases.jsonl"))
    dev = torch.cuda.get_device_name()
    print(f"device {dev}, torch {torch.__version__}, wmma built {lib.llama_flash_use_wmma(1)}", flush=True)
    fwd_shapes = list(FWD_SHAPES)
    if a.quick:
        fwd_shapes = [fwd_shapes[0], fwd_shapes[7], fwd_shapes[8]]
    if a.variant:
        fwd_shapes = [fwd_shapes[0], fwd_shapes[4]]
        a.no_scalar = True
    if a.decode_only or a.backward_only:
        fwd_shapes = []
    fwd, bwd, dec = [], [], []

    def emit():  # after every section: a run cut short keeps what it measured
        json.dump({"device": dev, "torch": torch.__version__, "forward": fwd, "backward": bwd, "decode": dec},
                  open(os.path.join(a.out, "flash_bench.json"), "w"), indent=1)

        lines = [f"device: {dev}, torch {torch.__version__}", "",
                 "| B×H(kv)×S×D | dtype | causal | SDPA-flash ms | WMMA ms | scalar ms | SDPA TFLOP/s | WMMA TFLOP/s | SDPA/WMMA | SDPA/scalar | err WMMA | err scalar | err SDPA | check |",
                 "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        f = lambda x, p=3: "—" if x is None else (f"{x:.{p}f}" if isinstance(x, float) else str(x))
        for r in fwd:
            lines.append(f"| {r['B']}×{r['H']}({r['KVH']})×{r['S']}×{r['D']} | {r['dtype']} | {r['causal']} | {f(r['ms_sdpa'])} | "
                         f"{f(r.get('ms_wmma'))} | {f(r.get('ms_scalar'))} | {f(r['tflops_sdpa'], 0)} | {f(r.get('tflops_wmma'), 0)} | "
                         f"{f(r.get('ratio_wmma'), 2)} | {f(r.get('ratio_scalar'), 2)} | {r.get('err_wmma', 0):.1e} | "
                         f"{r.get('err_scalar', 0):.1e} | {r['err_sdpa']:.1e} | {'PASS' if r['pass'] else 'FAIL'} |")
        lines += ["", "| backward B×H(kv)×S×D | dtype | causal | SDPA-flash ms | WMMA ms | scalar ms | SDPA TFLOP/s | WMMA TFLOP/s | SDPA/WMMA | SDPA/scalar | err WMMA dq/dk/dv | err SDPA dq/dk/dv | check |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        e3 = lambda r, m: "/".join(f"{r[f'err_{m}_{n}']:.1e}" if f"err_{m}_{n}" in r else "—" for n in ("dq", "dk", "dv"))
        for r in bwd:
            lines.append(f"| {r['B']}×{r['H']}({r['KVH']})×{r['S']}×{r['D']} | {r['dtype']} | {r['causal']} | {f(r['ms_sdpa'])} | "
                         f"{f(r.get('ms_wmma'))} | {f(r.get('ms_scalar'))} | {f(r['tflops_sdpa'], 0)} | {f(r.get('tflops_wmma'), 0)} | "
                         f"{f(r.get('ratio_wmma'), 2)} | {f(r.get('ratio_scalar'), 2)} | {e3(r, 'wmma')} | {e3(r, 'sdpa')} | "
                         f"{'PASS' if r['pass'] else 'FAIL'} |")
        lines += ["", "| decode B×H(kv)×L×D | dtype | ours µs | paged µs (16-row pages) | SDPA(enable_gqa) µs | SDPA-flash expanded µs | eager µs | SDPA/ours | SDPA/paged | eager/ours | ours GB/s | err ours | err paged | check |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        us = lambda x: "—" if x is None else f"{1000 * x:.1f}"
        for r in dec:
            lines.append(f"| {r['B']}×{r['H']}({r['KVH']})×{r['L']}×{r['D']} | {r['dtype']} | {us(r['ms_ours'])} | {us(r.get('ms_paged'))} | "
                         f"{us(r.get('ms_sdpa'))} | {us(r.get('ms_sdpa_flash_expanded'))} | {us(r.get('ms_eager'))} | "
                         f"{f(r.get('ratio_sdpa'), 2)} | {f(r.get('ratio_sdpa_paged'), 2)} | {f(r.get('ratio_eager'), 2)} | "
                         f"{r['gbps_ours']:.0f} | {r['err_ours']:.1e} | {r.get('err_paged', 0):.1e} | {'PASS' if r['pass'] else 'FAIL'} |")
        md = "\n".join(lines) + "\n"
        open(os.path.join(a.out, "flash_bench.md"), "w").write(md)
        return md

    for (B, H, KVH, S, D, g) in fwd_shapes:
        for dtype in (torch.float16, torch.bfloat16):
            for causal in (False, True):
                scalar = not a.no_scalar and S <= 4096
                r = fwd_case(lib, B, H, KVH, S, D, dtype, causal, scalar, g)
                fwd.append(r)
                print(json.dumps(r), flush=True)
    emit()
    bwd_shapes = list(BWD_SHAPES)
    if a.quick:
        bwd_shapes = [bwd_shapes[0], bwd_shapes[5], bwd_shapes[6]]
    if a.variant:  # one backward shape: builds that change the backward kernels
        bwd_shapes = [bwd_shapes[3]]
    if a.decode_only or a.no_backward:
        bwd_shapes = []
    for (B, H, KVH, S, D, g) in bwd_shapes:
        for dtype in (torch.float16, torch.bfloat16):
            for causal in (False, True):
                scalar = not a.no_scalar and S <= 2048
                r = bwd_case(lib, B, H, KVH, S, D, dtype, causal, scalar, g)
                bwd.append(r)
                print(json.dumps(r), flush=True)
    emit()
    dec_shapes = list(DEC_SHAPES)
    if a.variant or a.backward_only:
        dec_shapes = []
    for (B, H, KVH, L, D) in dec_shapes:
        for dtype in (torch.float16, torch.bfloat16):
            r = decode_case(lib, B, H, KVH, L, D, dtype)
            dec.append(r)
            print(json.dumps(r), flush=True)
    md = emit()
    print(md)
    rows = fwd + bwd + dec
    bad = [r for r in rows if not r["pass"]]
    print(f"{len(rows) - len(bad)} of {len(rows)} checks passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
