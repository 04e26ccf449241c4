"""A small LLaMA-style decoder (RMSNorm, rotary position embeddings, causal multi-head attention,
SwiGLU feed-forward, untied output head) and a generated corpus, for the data-parallel parity
test of ferry-comm's codecs. Sized to train on a couple of CPU cores in seconds per hundred steps.
"""
import math
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    vocab: int = 64
    dim: int = 128
    layers: int = 2
    heads: int = 4
    ffn: int = 344  # about 8/3 * dim, as in LLaMA
    seq: int = 64


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_tables(head_dim, seq, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    ang = torch.outer(torch.arange(seq, dtype=torch.float32), inv)  # (seq, head_dim/2)
    return torch.cos(ang), torch.sin(ang)


def apply_rope(x, cos, sin):  # x: (batch, heads, seq, head_dim); rotate pairs (even, odd)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    c, s = cos[: x.shape[-2]], sin[: x.shape[-2]]
    return torch.stack((x1 * c - x2 * s, x1 * s + x2 * c), dim=-1).flatten(-2)


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.heads, self.hd = cfg.heads, cfg.dim // cfg.heads
        self.wq = nn.Linear(cfg.dim, cfg.dim, bias=False)
        self.wk = nn.Linear(cfg.dim, cfg.dim, bias=False)
        self.wv = nn.Linear(cfg.dim, cfg.dim, bias=False)
        self.wo = nn.Linear(cfg.dim, cfg.dim, bias=False)

    def forward(self, x, cos, sin):
        b, t, d = x.shape
        q, k, v = (w(x).view(b, t, self.heads, self.hd).transpose(1, 2) for w in (self.wq, self.wk, self.wv))
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.hd)
        mask = torch.ones(t, t, dtype=torch.bool, device=att.device).triu(1)
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        return self.wo((att @ v).transpose(1, 2).reshape(b, t, d))


class SwiGLU(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.w1 = nn.Linear(cfg.dim, cfg.ffn, bias=False)
        self.w3 = nn.Linear(cfg.dim, cfg.ffn, bias=False)
        self.w2 = nn.Linear(cfg.ffn, cfg.dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attn_norm, self.attn = RMSNorm(cfg.dim), Attention(cfg)
        self.ffn_norm, self.ffn = RMSNorm(cfg.dim), SwiGLU(cfg)

    def forward(self, x, cos, sin):
        x = x + self.attn(self.attn_norm(x), cos, sin)
        return x + self.ffn(self.ffn_norm(x))


class TinyLlama(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab, cfg.dim)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.layers))
        self.norm = RMSNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.vocab, bias=False)
        cos, sin = rope_tables(cfg.dim // cfg.heads, cfg.seq)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)

    def forward(self, tokens):
        x = self.embed(tokens)
        for blk in self.blocks:
            x = blk(x, self.cos, self.sin)
        return self.head(self.norm(x))


def n_params(model):
    return sum(p.numel() for p in model.parameters())


# ---- corpus: sentences of a small probabilistic grammar with number agreement ----------------
# Subject number decides the verb form; relative clauses and prepositional phrases make the
# dependencies long-range, so attention has something to learn. Generated, never downloaded.
_DET_S, _DET_P = ["the", "a", "this", "every"], ["the", "some", "these", "many"]
_ADJ = ["small", "red", "old", "quiet", "bright", "heavy", "happy", "green"]
_NOUN = ["cat", "dog", "bird", "child", "teacher", "river", "robot", "farmer", "engine", "poet"]
_VERB_S = ["sees", "likes", "follows", "builds", "finds", "helps"]
_VERB_P = ["see", "like", "follow", "build", "find", "help"]
_PREP = ["near", "under", "with", "behind"]
WORDS = ["<pad>", ".", "that"] + sorted(set(_DET_S + _DET_P + _ADJ + _VERB_S + _VERB_P + _PREP)) + \
    _NOUN + [n + "s" for n in _NOUN]
assert len(WORDS) <= Config.vocab, len(WORDS)
INDEX = {w: i for i, w in enumerate(WORDS)}


def _noun_phrase(rng, plural, depth):
    out = [rng.choice(_DET_P if plural else _DET_S)]
    while rng.random() < 0.35:
        out.append(rng.choice(_ADJ))
    n = rng.choice(_NOUN)
    out.append(n + "s" if plural else n)
    if depth < 1 and rng.random() < 0.25:  # relative clause: agreement with the head noun
        out += ["that", rng.choice(_VERB_P if plural else _VERB_S)] + _noun_phrase(rng, rng.random() < 0.5, depth + 1)
    elif depth < 1 and rng.random() < 0.25:
        out += [rng.choice(_PREP)] + _noun_phrase(rng, rng.random() < 0.5, depth + 1)
    return out


def sentence(rng):
    plural = rng.random() < 0.5
    return _noun_phrase(rng, plural, 0) + [rng.choice(_VERB_P if plural else _VERB_S)] + \
        _noun_phrase(rng, rng.random() < 0.5, 0) + ["."]


def corpus(n_tokens, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n_tokens:
        out += [INDEX[w] for w in sentence(rng)]
    return torch.tensor(out[:n_tokens], dtype=torch.long)


def batch(stream, batch_size, seq, gen):
    """batch_size random windows of seq+1 tokens; gen fixes which (same for every variant)."""
    starts = torch.randint(0, stream.numel() - seq - 1, (batch_size,), generator=gen)
    win = torch.stack([stream[s: s + seq + 1] for s in starts.tolist()])
    return win[:, :-1], win[:, 1:]
