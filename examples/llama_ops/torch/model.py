"""A LLaMA-style decoder whose operators come either from llama_ops (the CUDA library, through
llama_ops_torch) or from PyTorch, with one set of parameters so that the implementations can be
compared on the same weights.

    impl="ferry"  RMSNorm, RoPE, SwiGLU, embedding, linear layers and FlashAttention of llama_ops
    impl="sdpa"   PyTorch ops, attention by F.scaled_dot_product_attention (its flash backend on GPU)
    impl="eager"  PyTorch ops, attention written out (scores, mask, softmax, P V) in float32

Attention runs in `attn_dtype` (bf16 or fp16: FlashAttention's types) in all three: q, k, v are
rounded to it, the result is rounded to it and converted back to float32; everything else is
float32. RoPE is the rotate_half convention with the angle computed in float32, as the kernel does.
"""
import math
from dataclasses import dataclass, fields

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    vocab: int = 64
    dim: int = 512
    layers: int = 6
    heads: int = 8
    ffn: int = 1376
    seq: int = 256
    theta: float = 10000.0
    eps: float = 1e-5
    attn_dtype: str = "bf16"

    def override(self, text):
        """'dim=768,layers=4' -> this config with those fields changed."""
        names = {f.name: f.type for f in fields(self)}
        for kv in filter(None, text.split(",")):
            k, _, v = kv.partition("=")
            k = k.strip()
            if k not in names:
                raise SystemExit(f"unknown model field '{k}' (have {sorted(names)})")
            cur = getattr(self, k)
            setattr(self, k, type(cur)(v) if not isinstance(cur, str) else v)
        return self


DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}


class TorchOps:
    """The operators in PyTorch, same signatures as llama_ops_torch.Ops."""

    def __init__(self, attention="sdpa"):
        self.attention_kind = attention

    def rmsnorm(self, x, weight, eps):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight

    def rope(self, q, k, positions, theta):
        hd = q.shape[-1]
        half = hd // 2
        inv = (1.0 / torch.pow(torch.tensor(theta, dtype=torch.float64), torch.arange(half, dtype=torch.float64) * 2.0 / hd)).float()
        ang = positions.float()[:, None] * inv.to(q.device)[None, :]
        c, s = torch.cos(ang)[:, None, :], torch.sin(ang)[:, None, :]
        rot = lambda t: torch.cat((t[..., :half] * c - t[..., half:] * s, t[..., half:] * c + t[..., :half] * s), -1)
        return rot(q), rot(k)

    def swiglu(self, gate, up):
        return F.silu(gate) * up

    def embedding(self, ids, table):
        return F.embedding(ids, table)

    def linear(self, x, weight):
        return F.linear(x, weight)

    def attention(self, q, k, v, causal=True, scale=None):  # [B, S, H, D]
        if self.attention_kind == "sdpa" and hasattr(F, "scaled_dot_product_attention"):
            o = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=causal,
                                               scale=scale)
            return o.transpose(1, 2)
        scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
        s = torch.einsum("bqhd,bkhd->bhqk", q.float(), k.float()) * scale
        if causal:
            s = s.masked_fill(torch.ones(s.shape[-2], s.shape[-1], dtype=torch.bool, device=s.device).triu(1), float("-inf"))
        return torch.einsum("bhqk,bkhd->bqhd", torch.softmax(s, -1), v.float()).to(q.dtype)


class Llama(nn.Module):
    def __init__(self, cfg, ops):
        super().__init__()
        self.cfg, self.ops = cfg, ops
        d, f = cfg.dim, cfg.ffn
        self.embed = nn.Parameter(torch.empty(cfg.vocab, d))
        self.attn_norm = nn.ParameterList(nn.Parameter(torch.ones(d)) for _ in range(cfg.layers))
        self.ffn_norm = nn.ParameterList(nn.Parameter(torch.ones(d)) for _ in range(cfg.layers))
        mk = lambda rows, cols: nn.ParameterList(nn.Parameter(torch.empty(rows, cols)) for _ in range(cfg.layers))
        self.wq, self.wk, self.wv, self.wo = mk(d, d), mk(d, d), mk(d, d), mk(d, d)
        self.w1, self.w3, self.w2 = mk(f, d), mk(f, d), mk(d, f)
        self.norm = nn.Parameter(torch.ones(d))
        self.head = nn.Parameter(torch.empty(cfg.vocab, d))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.normal_(self.embed, std=1.0)
        for name, p in self.named_parameters():
            if p.dim() == 2 and name != "embed":
                std = p.shape[1] ** -0.5
                if name.startswith(("wo.", "w2.")):
                    std /= math.sqrt(2 * self.cfg.layers)  # residual branches
                nn.init.normal_(p, std=std)

    def forward(self, tokens):
        cfg, ops = self.cfg, self.ops
        b, t = tokens.shape
        hd = cfg.dim // cfg.heads
        positions = torch.arange(t, dtype=torch.int32, device=tokens.device).repeat(b)
        adt = DTYPES[cfg.attn_dtype]
        x = ops.embedding(tokens, self.embed)  # [B, S, dim]
        for i in range(cfg.layers):
            h = ops.rmsnorm(x, self.attn_norm[i], cfg.eps)
            q = ops.linear(h, self.wq[i]).view(b * t, cfg.heads, hd)
            k = ops.linear(h, self.wk[i]).view(b * t, cfg.heads, hd)
            v = ops.linear(h, self.wv[i]).view(b, t, cfg.heads, hd)
            q, k = ops.rope(q, k, positions, cfg.theta)
            o = ops.attention(q.view(b, t, cfg.heads, hd).to(adt), k.view(b, t, cfg.heads, hd).to(adt), v.to(adt), causal=True)
            x = x + ops.linear(o.float().reshape(b, t, cfg.dim), self.wo[i])
            h = ops.rmsnorm(x, self.ffn_norm[i], cfg.eps)
            x = x + ops.linear(ops.swiglu(ops.linear(h, self.w1[i]), ops.linear(h, self.w3[i])), self.w2[i])
        return ops.linear(ops.rmsnorm(x, self.norm, cfg.eps), self.head)


def n_params(model):
    return sum(p.numel() for p in model.parameters())


def make_ops(impl, lib=None, namespace="llama_ops"):
    """impl: ferry (llama_ops from `lib`; lib="reference" for its torch formulas), sdpa, eager."""
    if impl == "ferry":
        import llama_ops_torch as lt
        return lt.load_reference(namespace + "_ref") if lib in (None, "reference") else lt.load(lib, namespace)
    if impl in ("sdpa", "eager"):
        return TorchOps(impl)
    raise SystemExit(f"unknown impl '{impl}' (ferry, sdpa, eager)")
