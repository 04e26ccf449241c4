#!/usr/bin/env python3
"""LLaMA inference at a realistic shape with llama_ops' attention kernels, against PyTorch eager and
PyTorch + SDPA in the same run (issue 30, item 4; run by hand or by bench/llama_ops_h200.sh).

The model: a LLaMA-3-style decoder (RMSNorm, rotate-half RoPE, grouped-query attention, SwiGLU)
with random weights (nothing to download), bf16 or fp16 weights and activations, head_dim 128,
32 query heads and 8 kv heads (dim 4096, ffn 14336, vocab 32000 by default; --layers 8 by default
to keep the run short: every layer is the same work, so the ratios do not depend on the count).
A KV cache [batch, kv_heads, max_len, 128] per layer. Three (or four) implementations share the
weights and differ only in attention:

    eager     scores, causal mask, softmax in float32, P V (K/V repeated per query head)
    sdpa      F.scaled_dot_product_attention(enable_gqa=True), whichever backend PyTorch picks
    ferry     llama_ops: the WMMA FlashAttention forward (prefill, GQA on the kv heads as they are)
              and the split-K decode kernel over the cache, through ctypes on PyTorch's stream
    ferry-rt  the same from the library built from its CUDA -> HIP -> CUDA round trip (--lib-rt)

(The rest of llama_ops — RMSNorm, RoPE, SwiGLU, linear — is float32 only; a bf16 LLaMA spends its
time in cuBLAS GEMMs, which all implementations share.)

Measured: prefill (batch x ctx tokens, causal, filling the cache) and decode (--decode tokens
after the prefill, one at a time over the cache, teacher-forced with the same random tokens so
that every implementation sees the same inputs) tokens/s, median of --iters; logits of the last 64
prefill positions and of every decode step compared with eager's: max |difference| / std(eager's
logits) and top-1 agreement. ferry passes when its difference is within max(--tolerance, 1.5 x
SDPA's) and its top-1 agreement within 1% of min(--top1, SDPA's).

    python3 bench/llama_ops_infer_bench.py --lib examples/llama_ops/build/libllama_ops_capi.so --out OUT
        [--lib-rt RT/build/libllama_ops_capi.so] [--ctx 4096] [--batch 4] [--decode 64] [--layers 8]
        [--dtype bf16] [--quick]

Exit 0: every ferry variant within tolerance; 1: a check failed; 77: skipped (no torch, no CUDA
GPU, or no library), said on stdout.
"""
import argparse
import ctypes
import json
import math
import os
import statistics
import sys
import time

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("SKIP llama_ops_infer_bench: torch is not installed")
    sys.exit(77)

P, I, F32, LL = ctypes.c_void_p, ctypes.c_int, ctypes.c_float, ctypes.c_longlong
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}


class Capi:
    """llama_ops' attention through its C interface (bindings/torch_ops.cu)."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        sig = {"llama_flash_forward_gqa": [P, P, P, P, P, P, I, I, I, I, I, I, F32, I, I, P],
               "llama_flash_decode": [P, P, P, P, P, P, P, I, I, I, I, I, F32, I, P],
               "llama_flash_use_wmma": [I]}
        for name, args in sig.items():
            fn = getattr(self.lib, name)
            fn.argtypes, fn.restype = args, I
        self.lib.llama_flash_decode_workspace.argtypes = [I, I, I, I]
        self.lib.llama_flash_decode_workspace.restype = LL
        self.lib.llama_last_error.restype = ctypes.c_char_p
        self.wmma = self.lib.llama_flash_use_wmma(1)
        self.work = None

    @staticmethod
    def strides(*ts):  # (batch, head, row) strides of [B, H, S, D] views, in elements
        out = []
        for t in ts:
            out += [t.stride(0), t.stride(1), t.stride(2)]
        return (LL * len(out))(*out)

    def check(self, rc, what):
        if rc != 0:
            raise RuntimeError(f"llama_ops {what}: {self.lib.llama_last_error().decode()}")

    def prefill(self, q, k, v):  # [B, H|KVH, S, D] views -> o [B, H, S, D] (a [B, S, H, D] buffer)
        B, H, S, D = q.shape
        o = torch.empty(B, S, H, D, device=q.device, dtype=q.dtype).transpose(1, 2)
        self.check(self.lib.llama_flash_forward_gqa(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), None,
                                                    self.strides(q, k, v, o), B, H, k.shape[1], S, S, D, 1.0 / math.sqrt(D),
                                                    1, int(q.dtype == torch.bfloat16),
                                                    torch.cuda.current_stream().cuda_stream), "flash forward")
        return o

    def decode(self, q, kc, vc, L):  # q [B, H, 1, D], caches [B, KVH, Lmax, D] (rows < L valid)
        B, H, _, D = q.shape
        need = self.lib.llama_flash_decode_workspace(B, H, kc.shape[2], D)
        if self.work is None or self.work.numel() < need:
            self.work = torch.empty(need, device=q.device, dtype=torch.float32)
        o = torch.empty_like(q)
        self.check(self.lib.llama_flash_decode(q.data_ptr(), kc.data_ptr(), vc.data_ptr(), o.data_ptr(), None,
                                               self.work.data_ptr(), self.strides(q, kc, vc, o), B, H, kc.shape[1], L, D,
                                               1.0 / math.sqrt(D), int(q.dtype == torch.bfloat16),
                                               torch.cuda.current_stream().cuda_stream), "flash decode")
        return o


def attn_eager(q, k, v, causal):  # [B, H, Sq, D], [B, KVH, Sk, D]; float32 scores and softmax
    g = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(g, 1), v.repeat_interleave(g, 1)
    s = (q.float() @ k.float().transpose(-1, -2)) * (1.0 / math.sqrt(q.shape[-1]))
    if causal:
        Sq, Sk = s.shape[-2:]
        s = s.masked_fill(torch.ones(Sq, Sk, dtype=torch.bool, device=s.device).triu(Sk - Sq + 1), float("-inf"))
    return (torch.softmax(s, -1) @ v.float()).to(q.dtype)


def attn_sdpa(q, k, v, causal):
    try:
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
    except TypeError:  # torch < 2.5: no enable_gqa
        g = q.shape[1] // k.shape[1]
        return F.scaled_dot_product_attention(q, k.repeat_interleave(g, 1), v.repeat_interleave(g, 1), is_causal=causal)


class Model:
    """Weights shared by every implementation; `attn` picks the attention."""

    def __init__(self, a, dtype, device):
        g = torch.Generator(device=device).manual_seed(a.seed)
        d, f, hd = a.dim, a.ffn, a.head_dim
        self.a, self.dtype, self.device = a, dtype, device

        def w(rows, cols, extra=1.0):
            return (torch.randn(rows, cols, generator=g, device=device, dtype=torch.float32) *
                    (extra / math.sqrt(cols))).to(dtype)

        res = 1.0 / math.sqrt(2 * a.layers)
        self.embed = torch.randn(a.vocab, d, generator=g, device=device, dtype=torch.float32).to(dtype)
        self.layers = [dict(wq=w(a.heads * hd, d), wk=w(a.kv_heads * hd, d), wv=w(a.kv_heads * hd, d),
                            wo=w(d, a.heads * hd, res), w1=w(f, d), w3=w(f, d), w2=w(d, f, res),
                            n1=torch.ones(d, device=device, dtype=dtype), n2=torch.ones(d, device=device, dtype=dtype))
                       for _ in range(a.layers)]
        self.norm = torch.ones(d, device=device, dtype=dtype)
        self.head = w(a.vocab, d)
        half = hd // 2
        inv = 1.0 / (a.theta ** (torch.arange(half, dtype=torch.float64, device=device) * 2.0 / hd))
        ang = torch.arange(a.max_len, dtype=torch.float64, device=device)[:, None] * inv[None, :]
        self.cos, self.sin = torch.cos(ang).float(), torch.sin(ang).float()

    def rms(self, x, wgt):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.a.eps)).to(self.dtype) * wgt

    def rope(self, t, pos0):  # [B, S, heads, D], positions pos0 .. pos0+S-1
        S, half = t.shape[1], t.shape[-1] // 2
        c, s = self.cos[pos0:pos0 + S][None, :, None, :], self.sin[pos0:pos0 + S][None, :, None, :]
        tf = t.float()
        x1, x2 = tf[..., :half], tf[..., half:]
        return torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), -1).to(self.dtype)

    def new_cache(self, B):
        shape = (B, self.a.kv_heads, self.a.max_len, self.a.head_dim)
        return [(torch.zeros(shape, device=self.device, dtype=self.dtype),
                 torch.zeros(shape, device=self.device, dtype=self.dtype)) for _ in self.layers]

    def forward(self, tokens, pos0, cache, impl):
        """tokens [B, S] at positions pos0.. (S > 1: prefill from pos0 = 0; S = 1: a decode step)."""
        a = self.a
        B, S = tokens.shape
        x = F.embedding(tokens, self.embed)
        for L, (kc, vc) in zip(self.layers, cache):
            h = self.rms(x, L["n1"])
            q = self.rope(F.linear(h, L["wq"]).view(B, S, a.heads, a.head_dim), pos0)
            k = self.rope(F.linear(h, L["wk"]).view(B, S, a.kv_heads, a.head_dim), pos0)
            v = F.linear(h, L["wv"]).view(B, S, a.kv_heads, a.head_dim)
            kc[:, :, pos0:pos0 + S] = k.transpose(1, 2)
            vc[:, :, pos0:pos0 + S] = v.transpose(1, 2)
            qh = q.transpose(1, 2)  # [B, H, S, D] views of [B, S, H, D]
            if S > 1:  # prefill: attention over the new tokens (pos0 = 0), causal
                kh, vh = k.transpose(1, 2), v.transpose(1, 2)
                if isinstance(impl, Capi):
                    o = impl.prefill(qh, kh, vh)
                else:
                    o = impl(qh, kh, vh, True)
            else:  # decode: the new token over the cache's pos0 + 1 rows
                n = pos0 + 1
                if isinstance(impl, Capi):
                    o = impl.decode(qh, kc, vc, n)
                else:
                    o = impl(qh, kc[:, :, :n], vc[:, :, :n], False)
            x = x + F.linear(o.transpose(1, 2).reshape(B, S, a.heads * a.head_dim), L["wo"])
            h = self.rms(x, L["n2"])
            x = x + F.linear(F.silu(F.linear(h, L["w1"])) * F.linear(h, L["w3"]), L["w2"])
        # logits of the last (up to) 64 positions: [B, min(S, 64), vocab]
        return F.linear(self.rms(x[:, -min(S, 64):], self.norm), self.head)


def compare(got, ref):
    d = (got.float() - ref.float()).abs()
    return d.max().item() / ref.float().std().item(), (got.argmax(-1) == ref.argmax(-1)).float().mean().item()


@torch.no_grad()
def run_impl(model, impl, prompt, dec_tokens, iters):
    B, S = prompt.shape
    cache = model.new_cache(B)
    model.forward(prompt, 0, cache, impl)  # warm-up (and cuBLAS / kernel selection)
    torch.cuda.synchronize()
    pre = []
    for _ in range(iters):
        t0 = time.perf_counter()
        logits_prefill = model.forward(prompt, 0, cache, impl)
        torch.cuda.synchronize()
        pre.append(time.perf_counter() - t0)
    for i in range(min(4, dec_tokens.shape[1])):  # warm-up of the decode path
        model.forward(dec_tokens[:, i:i + 1], S + i, cache, impl)
    torch.cuda.synchronize()
    dec_logits, dec = [], []
    for _ in range(iters):
        steps = []
        t0 = time.perf_counter()
        for i in range(dec_tokens.shape[1]):
            steps.append(model.forward(dec_tokens[:, i:i + 1], S + i, cache, impl))
        torch.cuda.synchronize()
        dec.append(time.perf_counter() - t0)
        dec_logits = steps
    return {"prefill_s": statistics.median(pre), "decode_s": statistics.median(dec),
            "prefill_logits": logits_prefill, "decode_logits": torch.cat(dec_logits, 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True, help="libllama_ops_capi.so (make capi in examples/llama_ops)")
    ap.add_argument("--lib-rt", default=None, help="libllama_ops_capi.so of the CUDA -> HIP -> CUDA round trip")
    ap.add_argument("--out", default=None)
    ap.add_argument("--ctx", type=int, default=4096, help="prompt (prefill) tokens")
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--decode", type=int, default=64, help="tokens decoded after the prompt")
    ap.add_argument("--layers", type=int, default=8)
    ap.add_argument("--dim", type=int, default=4096)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--kv-heads", type=int, default=8)
    ap.add_argument("--ffn", type=int, default=14336)
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--dtype", choices=sorted(DTYPES), default="bf16")
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--tolerance", type=float, default=5e-2, help="max |dlogit| / std(eager's logits)")
    ap.add_argument("--top1", type=float, default=0.95)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--quick", action="store_true", help="2 layers, ctx 1024, batch 2, 16 decode tokens")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print("SKIP llama_ops_infer_bench: no CUDA GPU")
        return 77
    if not os.path.exists(a.lib):
        print(f"SKIP llama_ops_infer_bench: {a.lib} not found (make -C examples/llama_ops capi)")
        return 77
    if a.quick:
        a.layers, a.ctx, a.batch, a.decode = 2, 1024, 2, 16
    a.head_dim = a.dim // a.heads
    a.max_len = a.ctx + a.decode + 8
    a.theta, a.eps = 500000.0, 1e-5
    dev, dtype = "cuda", DTYPES[a.dtype]
    impls = {"eager": attn_eager, "sdpa": attn_sdpa, "ferry": Capi(os.path.abspath(a.lib))}
    if a.lib_rt:
        impls["ferry-rt"] = Capi(os.path.abspath(a.lib_rt))
    model = Model(a, dtype, dev)
    g = torch.Generator(device=dev).manual_seed(a.seed + 1)
    prompt = torch.randint(0, a.vocab, (a.batch, a.ctx), generator=g, device=dev)
    dec_tokens = torch.randint(0, a.vocab, (a.batch, a.decode), generator=g, device=dev)
    nparams = sum(t.numel() for L in model.layers for t in L.values()) + 2 * model.embed.numel()
    print(f"llama infer bench: {torch.cuda.get_device_name(0)}, torch {torch.__version__}; {a.layers} layers, dim {a.dim}, "
          f"{a.heads} heads ({a.kv_heads} kv) x {a.head_dim}, ffn {a.ffn}, vocab {a.vocab}, {nparams / 1e9:.2f} B parameters, "
          f"{a.dtype}; prefill {a.batch} x {a.ctx}, decode {a.batch} x {a.decode}; ferry WMMA built: "
          f"{impls['ferry'].wmma}", flush=True)
    res = {}
    for name, impl in impls.items():
        r = run_impl(model, impl, prompt, dec_tokens, a.iters)
        r["prefill_tok_s"] = a.batch * a.ctx / r["prefill_s"]
        r["decode_tok_s"] = a.batch * a.decode / r["decode_s"]
        res[name] = r
        print(f"  {name:>8}: prefill {r['prefill_tok_s']:10.0f} tok/s ({r['prefill_s'] * 1e3:8.2f} ms), "
              f"decode {r['decode_tok_s']:8.0f} tok/s ({r['decode_s'] / a.decode * 1e3:.3f} ms/step)", flush=True)
        torch.cuda.empty_cache()
    ref = res["eager"]
    rows, ok = [], True
    for name, r in res.items():
        row = {"impl": name, "prefill_tok_s": r["prefill_tok_s"], "decode_tok_s": r["decode_tok_s"],
               "prefill_ms": r["prefill_s"] * 1e3, "decode_ms_per_step": r["decode_s"] / a.decode * 1e3,
               "prefill_vs_sdpa": r["prefill_tok_s"] / res["sdpa"]["prefill_tok_s"],
               "decode_vs_sdpa": r["decode_tok_s"] / res["sdpa"]["decode_tok_s"],
               "prefill_vs_eager": r["prefill_tok_s"] / ref["prefill_tok_s"],
               "decode_vs_eager": r["decode_tok_s"] / ref["decode_tok_s"]}
        if name != "eager":
            row["prefill_rel"], row["prefill_top1"] = compare(r["prefill_logits"], ref["prefill_logits"])
            row["decode_rel"], row["decode_top1"] = compare(r["decode_logits"], ref["decode_logits"])
        rows.append(row)
    sd = next(r for r in rows if r["impl"] == "sdpa")
    for row in rows:
        if row["impl"].startswith("ferry"):  # as close to eager as SDPA is, or within the tolerances
            v = all(row[f"{p}_rel"] <= max(a.tolerance, 1.5 * sd[f"{p}_rel"]) and
                    row[f"{p}_top1"] >= min(a.top1, sd[f"{p}_top1"]) - 0.01 for p in ("prefill", "decode"))
            row["pass"] = int(v)
            ok &= v
    lines = [f"# LLaMA inference: {a.layers} layers x (dim {a.dim}, {a.heads} heads / {a.kv_heads} kv x {a.head_dim}, "
             f"ffn {a.ffn}), vocab {a.vocab}, {nparams / 1e9:.2f} B parameters, {a.dtype}, random weights", "",
             f"{torch.cuda.get_device_name(0)}, torch {torch.__version__}; prefill {a.batch} x {a.ctx} tokens (causal), "
             f"decode {a.batch} x {a.decode} tokens over the KV cache after it; median of {a.iters}", "",
             "| impl | prefill tok/s | prefill ms | vs SDPA | vs eager | decode tok/s | ms/step | vs SDPA | vs eager | "
             "logits prefill (max diff / std, top-1) | logits decode | check |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lg = lambda p: f"{r[p + '_rel']:.1e}, {100 * r[p + '_top1']:.1f}%" if p + "_rel" in r else "reference"
        chk = "—" if "pass" not in r else ("PASS" if r["pass"] else "FAIL")
        lines.append(f"| {r['impl']} | {r['prefill_tok_s']:.0f} | {r['prefill_ms']:.2f} | {r['prefill_vs_sdpa']:.3f} | "
                     f"{r['prefill_vs_eager']:.2f} | {r['decode_tok_s']:.0f} | {r['decode_ms_per_step']:.3f} | "
                     f"{r['decode_vs_sdpa']:.3f} | {r['decode_vs_eager']:.2f} | {lg('prefill')} | {lg('decode')} | {chk} |")
    md = "\n".join(lines) + "\n"
    print(md)
    print("llama infer bench:", "PASS" if ok else "FAIL", flush=True)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        tag = f"ctx{a.ctx}-b{a.batch}-{a.dtype}"
        meta = {k: v for k, v in vars(a).items() if isinstance(v, (int, float, str, type(None)))}
        meta.update(gpu=torch.cuda.get_device_name(0), torch=torch.__version__, params=nparams)
        json.dump({"meta": meta, "rows": rows, "pass": ok}, open(os.path.join(a.out, f"infer-{tag}.json"), "w"), indent=1)
        open(os.path.join(a.out, f"infer-{tag}.md"), "w").write(md)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
