"""The llama_ops operators as PyTorch autograd operators.

The kernels come from libllama_ops_capi.so (examples/llama_ops, `make capi`: bindings/torch_*.cu),
built from the original CUDA sources or from their CUDA -> HIP -> CUDA round trip; they are called
through ctypes with device pointers and torch's current stream, so the library needs no PyTorch
header and works with any torch. Each operator is registered with torch.library.custom_op as
`llama_ops::NAME` (torch >= 2.4) with its backward from the same library; on older torch the same
functions are wrapped in torch.autograd.Function.

    import llama_ops_torch as lt
    ops = lt.load("build/libllama_ops_capi.so")        # or lt.load_reference() (pure torch, any device)
    y = ops.rmsnorm(x, weight, 1e-5)                    # differentiable
    o = ops.attention(q, k, v, causal=True)             # FlashAttention, q/k/v [B, S, H, D] fp16/bf16

`load_reference()` gives the same operators computed with torch (the same forward and backward
formulas as the kernels): the CPU tests check the autograd wiring and the formulas with it.
"""
import ctypes
import math
import os

import torch

# LLAMA_OPS_TORCH_FUNCTION=1 takes the autograd.Function path on any torch.
_HAS_CUSTOM_OP = (hasattr(torch, "library") and hasattr(torch.library, "custom_op")
                  and os.environ.get("LLAMA_OPS_TORCH_FUNCTION", "") != "1")


# ---- backends: the same functions, computed by the library or by torch -----------------------

class CapiBackend:
    """Calls libllama_ops_capi.so. Every tensor must be on the GPU and contiguous."""

    def __init__(self, path):
        self.path = str(path)
        lib = ctypes.CDLL(self.path)
        P, I, F, L = ctypes.c_void_p, ctypes.c_int, ctypes.c_float, ctypes.c_longlong
        sig = {
            "llama_rmsnorm": [P, P, P, I, I, F, P],
            "llama_rmsnorm_backward": [P, P, P, P, P, I, I, F, P, P],
            "llama_rope": [P, P, P, I, I, I, I, F, I, P],
            "llama_swiglu": [P, P, P, L, P],
            "llama_swiglu_backward": [P, P, P, P, P, L, P],
            "llama_embedding": [P, P, P, I, I, I, P],
            "llama_embedding_backward": [P, P, P, I, I, I, P],
            "llama_linear": [P, P, P, I, I, I, P],
            "llama_linear_backward": [P, P, P, P, P, I, I, I, P],
            "llama_flash_forward": [P, P, P, P, P, P, I, I, I, I, I, F, I, I, P],
            "llama_flash_backward": [P, P, P, P, P, P, P, P, P, P, P, I, I, I, I, I, F, I, I, P],
        }
        for name, args in sig.items():
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = args, ctypes.c_int
        lib.llama_rmsnorm_backward_workspace.argtypes = [I, I]
        lib.llama_rmsnorm_backward_workspace.restype = L
        lib.llama_last_error.restype = ctypes.c_char_p
        self.lib = lib

    @staticmethod
    def _p(t):
        return ctypes.c_void_p(t.data_ptr()) if t is not None else None

    def _stream(self):
        return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

    def _check(self, rc, what):
        if rc != 0:
            raise RuntimeError(f"llama_ops {what}: {self.lib.llama_last_error().decode()}")

    def rmsnorm(self, x, w, eps):
        y = torch.empty_like(x)
        self._check(self.lib.llama_rmsnorm(self._p(x), self._p(w), self._p(y), x.shape[0], x.shape[1], eps, self._stream()), "rmsnorm")
        return y

    def rmsnorm_backward(self, x, w, dy, eps):
        rows, hidden = x.shape
        dx, dw = torch.empty_like(x), torch.empty_like(w)
        ws = torch.empty(self.lib.llama_rmsnorm_backward_workspace(rows, hidden), dtype=torch.float32, device=x.device)
        self._check(self.lib.llama_rmsnorm_backward(self._p(x), self._p(w), self._p(dy), self._p(dx), self._p(dw), rows, hidden,
                                                    eps, self._p(ws), self._stream()), "rmsnorm_backward")
        return dx, dw

    def rope(self, q, k, positions, theta, inverse):
        q, k = q.clone(), k.clone()
        t, nh, hd = q.shape
        self._check(self.lib.llama_rope(self._p(q), self._p(k), self._p(positions), t, nh, k.shape[1], hd, theta, int(inverse),
                                        self._stream()), "rope")
        return q, k

    def swiglu(self, gate, up):
        out = torch.empty_like(gate)
        self._check(self.lib.llama_swiglu(self._p(gate), self._p(up), self._p(out), gate.numel(), self._stream()), "swiglu")
        return out

    def swiglu_backward(self, gate, up, dout):
        dg, du = torch.empty_like(gate), torch.empty_like(up)
        self._check(self.lib.llama_swiglu_backward(self._p(gate), self._p(up), self._p(dout), self._p(dg), self._p(du), gate.numel(),
                                                   self._stream()), "swiglu_backward")
        return dg, du

    def embedding(self, ids, table):
        out = torch.empty(ids.numel(), table.shape[1], dtype=table.dtype, device=table.device)
        self._check(self.lib.llama_embedding(self._p(ids), self._p(table), self._p(out), ids.numel(), table.shape[1], table.shape[0],
                                             self._stream()), "embedding")
        return out

    def embedding_backward(self, ids, dout, vocab):
        dtable = torch.empty(vocab, dout.shape[1], dtype=dout.dtype, device=dout.device)
        self._check(self.lib.llama_embedding_backward(self._p(ids), self._p(dout), self._p(dtable), ids.numel(), dout.shape[1], vocab,
                                                      self._stream()), "embedding_backward")
        return dtable

    def linear(self, x, w):
        y = torch.empty(x.shape[0], w.shape[0], dtype=x.dtype, device=x.device)
        self._check(self.lib.llama_linear(self._p(x), self._p(w), self._p(y), x.shape[0], w.shape[0], x.shape[1], self._stream()), "linear")
        return y

    def linear_backward(self, x, w, dy):
        dx, dw = torch.empty_like(x), torch.empty_like(w)
        self._check(self.lib.llama_linear_backward(self._p(x), self._p(w), self._p(dy), self._p(dx), self._p(dw), x.shape[0], w.shape[0],
                                                   x.shape[1], self._stream()), "linear_backward")
        return dx, dw

    @staticmethod
    def _strides(*ts):  # [B, S, H, D] tensors: (batch, head, row) strides in elements
        arr = (ctypes.c_longlong * (3 * len(ts)))()
        for i, t in enumerate(ts):
            arr[3 * i], arr[3 * i + 1], arr[3 * i + 2] = t.stride(0), t.stride(2), t.stride(1)
        return arr

    def attention(self, q, k, v, causal, scale):
        b, sq, h, d = q.shape
        o = torch.empty_like(q)
        lse = torch.empty(b, h, sq, dtype=torch.float32, device=q.device)
        self._check(self.lib.llama_flash_forward(self._p(q), self._p(k), self._p(v), self._p(o), self._p(lse), self._strides(q, k, v, o),
                                                 b, h, sq, k.shape[1], d, scale, int(causal), int(q.dtype == torch.bfloat16),
                                                 self._stream()), "flash_forward")
        return o, lse

    def attention_backward(self, q, k, v, o, lse, do, causal, scale):
        b, sq, h, d = q.shape
        dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        delta = torch.empty_like(lse)
        self._check(self.lib.llama_flash_backward(self._p(q), self._p(k), self._p(v), self._p(o), self._p(do), self._p(dq), self._p(dk),
                                                  self._p(dv), self._p(lse), self._p(delta),
                                                  self._strides(q, k, v, o, do, dq, dk, dv), b, h, sq, k.shape[1], d, scale,
                                                  int(causal), int(q.dtype == torch.bfloat16), self._stream()), "flash_backward")
        return dq, dk, dv


class ReferenceBackend:
    """The same functions in torch: the formulas the kernels implement, for tests on any device."""

    path = "reference"

    def rmsnorm(self, x, w, eps):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w

    def rmsnorm_backward(self, x, w, dy, eps):
        r = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
        dot = (w * dy * x).sum(-1, keepdim=True)
        return r * w * dy - x * r.pow(3) * dot / x.shape[-1], (dy * x * r).sum(0)

    def rope(self, q, k, positions, theta, inverse):
        hd = q.shape[-1]
        half = hd // 2
        inv = (1.0 / torch.pow(torch.tensor(theta, dtype=torch.float64), torch.arange(half, dtype=torch.float64) * 2.0 / hd)).float()
        ang = positions.float()[:, None] * inv.to(q.device)[None, :]
        c, s = torch.cos(ang)[:, None, :], torch.sin(ang)[:, None, :] * (-1.0 if inverse else 1.0)
        rot = lambda t: torch.cat((t[..., :half] * c - t[..., half:] * s, t[..., half:] * c + t[..., :half] * s), -1)
        return rot(q), rot(k)

    def swiglu(self, gate, up):
        return gate * torch.sigmoid(gate) * up

    def swiglu_backward(self, gate, up, dout):
        s = torch.sigmoid(gate)
        return dout * up * s * (1 + gate * (1 - s)), dout * gate * s

    def embedding(self, ids, table):
        ok = (ids >= 0) & (ids < table.shape[0])
        return table[ids.clamp(0, table.shape[0] - 1).long()] * ok[:, None]

    def embedding_backward(self, ids, dout, vocab):
        ok = (ids >= 0) & (ids < vocab)
        return torch.zeros(vocab, dout.shape[1], dtype=dout.dtype, device=dout.device).index_add_(0, ids[ok].long(), dout[ok])

    def linear(self, x, w):
        return x @ w.t()

    def linear_backward(self, x, w, dy):
        return dy @ w, dy.t() @ x

    @staticmethod
    def _scores(q, k, causal, scale):  # [B, S, H, D] -> float scores [B, H, Sq, Sk]
        s = torch.einsum("bqhd,bkhd->bhqk", q.float(), k.float()) * scale
        if causal:
            s = s.masked_fill(torch.ones(s.shape[-2], s.shape[-1], dtype=torch.bool, device=s.device).triu(1), float("-inf"))
        return s

    def attention(self, q, k, v, causal, scale):
        s = self._scores(q, k, causal, scale)
        lse = torch.logsumexp(s, -1)
        o = torch.einsum("bhqk,bkhd->bqhd", torch.exp(s - lse[..., None]), v.float())
        return o.to(q.dtype), lse

    def attention_backward(self, q, k, v, o, lse, do, causal, scale):  # recompute P from lse, as the kernels do
        p = torch.exp(self._scores(q, k, causal, scale) - lse[..., None])
        dof, vf = do.float(), v.float()
        delta = (dof * o.float()).sum(-1).transpose(1, 2)  # [B, H, Sq]
        dp = torch.einsum("bqhd,bkhd->bhqk", dof, vf)
        ds = p * (dp - delta[..., None])
        dq = torch.einsum("bhqk,bkhd->bqhd", ds, k.float()) * scale
        dk = torch.einsum("bhqk,bqhd->bkhd", ds, q.float()) * scale
        dv = torch.einsum("bhqk,bqhd->bkhd", p, dof)
        return dq.to(q.dtype), dk.to(k.dtype), dv.to(v.dtype)


# ---- autograd operators over a backend -----------------------------------------------------

class Ops:
    """Differentiable operators over one backend: the functions the model calls."""

    def __init__(self, backend, namespace):
        self.backend = backend
        self.namespace = namespace
        self._fns = _build_custom_ops(backend, namespace) if _HAS_CUSTOM_OP else _build_functions(backend)

    def rmsnorm(self, x, weight, eps):
        shape = x.shape
        return self._fns["rmsnorm"](x.reshape(-1, shape[-1]).contiguous(), weight, float(eps)).view(shape)

    def rope(self, q, k, positions, theta):
        """q [tokens, heads, hd], k [tokens, kv_heads, hd], positions int32 [tokens]."""
        return self._fns["rope"](q.contiguous(), k.contiguous(), positions, float(theta))

    def swiglu(self, gate, up):
        return self._fns["swiglu"](gate.contiguous(), up.contiguous())

    def embedding(self, ids, table):
        shape = ids.shape
        return self._fns["embedding"](ids.reshape(-1).to(torch.int32).contiguous(), table).view(*shape, table.shape[1])

    def linear(self, x, weight):
        shape = x.shape
        return self._fns["linear"](x.reshape(-1, shape[-1]).contiguous(), weight).view(*shape[:-1], weight.shape[0])

    def attention(self, q, k, v, causal=True, scale=None):
        """FlashAttention on [B, S, H, D] fp16/bf16 tensors; returns [B, S, H, D]."""
        scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else float(scale)
        o, _ = self._fns["attention"](q.contiguous(), k.contiguous(), v.contiguous(), bool(causal), scale)
        return o


def _build_functions(b):
    """torch < 2.4: one autograd.Function per operator."""

    class RmsNorm(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, eps):
            ctx.save_for_backward(x, w)
            ctx.eps = eps
            return b.rmsnorm(x, w, eps)

        @staticmethod
        def backward(ctx, dy):
            x, w = ctx.saved_tensors
            dx, dw = b.rmsnorm_backward(x, w, dy.contiguous(), ctx.eps)
            return dx, dw, None

    class Rope(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, positions, theta):
            ctx.save_for_backward(positions)
            ctx.theta = theta
            return b.rope(q, k, positions, theta, False)

        @staticmethod
        def backward(ctx, dq, dk):
            (positions,) = ctx.saved_tensors
            dq, dk = b.rope(dq.contiguous(), dk.contiguous(), positions, ctx.theta, True)
            return dq, dk, None, None

    class SwiGlu(torch.autograd.Function):
        @staticmethod
        def forward(ctx, gate, up):
            ctx.save_for_backward(gate, up)
            return b.swiglu(gate, up)

        @staticmethod
        def backward(ctx, dout):
            gate, up = ctx.saved_tensors
            return b.swiglu_backward(gate, up, dout.contiguous())

    class Embedding(torch.autograd.Function):
        @staticmethod
        def forward(ctx, ids, table):
            ctx.save_for_backward(ids)
            ctx.vocab = table.shape[0]
            return b.embedding(ids, table)

        @staticmethod
        def backward(ctx, dout):
            (ids,) = ctx.saved_tensors
            return None, b.embedding_backward(ids, dout.contiguous(), ctx.vocab)

    class Linear(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return b.linear(x, w)

        @staticmethod
        def backward(ctx, dy):
            x, w = ctx.saved_tensors
            return b.linear_backward(x, w, dy.contiguous())

    class Attention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, causal, scale):
            o, lse = b.attention(q, k, v, causal, scale)
            ctx.save_for_backward(q, k, v, o, lse)
            ctx.causal, ctx.scale = causal, scale
            ctx.mark_non_differentiable(lse)
            return o, lse

        @staticmethod
        def backward(ctx, do, _dlse):
            q, k, v, o, lse = ctx.saved_tensors
            dq, dk, dv = b.attention_backward(q, k, v, o, lse, do.contiguous(), ctx.causal, ctx.scale)
            return dq, dk, dv, None, None

    return {"rmsnorm": RmsNorm.apply, "rope": Rope.apply, "swiglu": SwiGlu.apply, "embedding": Embedding.apply,
            "linear": Linear.apply, "attention": Attention.apply}


def _build_custom_ops(b, ns):
    """torch >= 2.4: registered operators `ns::name` with fake (meta) kernels and autograd."""
    from torch import Tensor
    from typing import Tuple
    lib = torch.library
    fns = {}

    @lib.custom_op(f"{ns}::rmsnorm", mutates_args=())
    def rmsnorm(x: Tensor, w: Tensor, eps: float) -> Tensor:
        return b.rmsnorm(x, w, eps)

    @lib.custom_op(f"{ns}::rmsnorm_backward", mutates_args=())
    def rmsnorm_backward(x: Tensor, w: Tensor, dy: Tensor, eps: float) -> Tuple[Tensor, Tensor]:
        return b.rmsnorm_backward(x, w, dy, eps)

    @lib.custom_op(f"{ns}::rope", mutates_args=())
    def rope(q: Tensor, k: Tensor, positions: Tensor, theta: float) -> Tuple[Tensor, Tensor]:
        return b.rope(q, k, positions, theta, False)

    @lib.custom_op(f"{ns}::rope_inverse", mutates_args=())
    def rope_inverse(q: Tensor, k: Tensor, positions: Tensor, theta: float) -> Tuple[Tensor, Tensor]:
        return b.rope(q, k, positions, theta, True)

    @lib.custom_op(f"{ns}::swiglu", mutates_args=())
    def swiglu(gate: Tensor, up: Tensor) -> Tensor:
        return b.swiglu(gate, up)

    @lib.custom_op(f"{ns}::swiglu_backward", mutates_args=())
    def swiglu_backward(gate: Tensor, up: Tensor, dout: Tensor) -> Tuple[Tensor, Tensor]:
        return b.swiglu_backward(gate, up, dout)

    @lib.custom_op(f"{ns}::embedding", mutates_args=())
    def embedding(ids: Tensor, table: Tensor) -> Tensor:
        return b.embedding(ids, table)

    @lib.custom_op(f"{ns}::embedding_backward", mutates_args=())
    def embedding_backward(ids: Tensor, dout: Tensor, vocab: int) -> Tensor:
        return b.embedding_backward(ids, dout, vocab)

    @lib.custom_op(f"{ns}::linear", mutates_args=())
    def linear(x: Tensor, w: Tensor) -> Tensor:
        return b.linear(x, w)

    @lib.custom_op(f"{ns}::linear_backward", mutates_args=())
    def linear_backward(x: Tensor, w: Tensor, dy: Tensor) -> Tuple[Tensor, Tensor]:
        return b.linear_backward(x, w, dy)

    @lib.custom_op(f"{ns}::attention", mutates_args=())
    def attention(q: Tensor, k: Tensor, v: Tensor, causal: bool, scale: float) -> Tuple[Tensor, Tensor]:
        return b.attention(q, k, v, causal, scale)

    @lib.custom_op(f"{ns}::attention_backward", mutates_args=())
    def attention_backward(q: Tensor, k: Tensor, v: Tensor, o: Tensor, lse: Tensor, do: Tensor, causal: bool,
                           scale: float) -> Tuple[Tensor, Tensor, Tensor]:
        return b.attention_backward(q, k, v, o, lse, do, causal, scale)

    # Fake kernels: shapes only (torch.compile and meta tensors).
    rmsnorm.register_fake(lambda x, w, eps: torch.empty_like(x))
    rmsnorm_backward.register_fake(lambda x, w, dy, eps: (torch.empty_like(x), torch.empty_like(w)))
    rope.register_fake(lambda q, k, p, t: (torch.empty_like(q), torch.empty_like(k)))
    rope_inverse.register_fake(lambda q, k, p, t: (torch.empty_like(q), torch.empty_like(k)))
    swiglu.register_fake(lambda g, u: torch.empty_like(g))
    swiglu_backward.register_fake(lambda g, u, d: (torch.empty_like(g), torch.empty_like(u)))
    embedding.register_fake(lambda ids, t: t.new_empty(ids.shape[0], t.shape[1]))
    embedding_backward.register_fake(lambda ids, d, vocab: d.new_empty(vocab, d.shape[1]))
    linear.register_fake(lambda x, w: x.new_empty(x.shape[0], w.shape[0]))
    linear_backward.register_fake(lambda x, w, dy: (torch.empty_like(x), torch.empty_like(w)))
    attention.register_fake(lambda q, k, v, c, s: (torch.empty_like(q), q.new_empty(q.shape[0], q.shape[2], q.shape[1], dtype=torch.float32)))
    attention_backward.register_fake(lambda q, k, v, o, l, d, c, s: (torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)))

    def ctx_save(names):
        def setup(ctx, inputs, output):
            ctx.save_for_backward(*[inputs[i] for i in names])
            ctx.inputs = inputs
        return setup

    rmsnorm.register_autograd(lambda ctx, dy: (*rmsnorm_backward(*ctx.saved_tensors, dy.contiguous(), ctx.inputs[2]), None),
                              setup_context=ctx_save([0, 1]))
    rope.register_autograd(lambda ctx, dq, dk: (*rope_inverse(dq.contiguous(), dk.contiguous(), ctx.saved_tensors[0], ctx.inputs[3]),
                                                None, None), setup_context=ctx_save([2]))
    swiglu.register_autograd(lambda ctx, d: swiglu_backward(*ctx.saved_tensors, d.contiguous()), setup_context=ctx_save([0, 1]))
    def embedding_setup(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.vocab = inputs[1].shape[0]

    embedding.register_autograd(lambda ctx, d: (None, embedding_backward(ctx.saved_tensors[0], d.contiguous(), ctx.vocab)),
                                setup_context=embedding_setup)
    linear.register_autograd(lambda ctx, dy: linear_backward(*ctx.saved_tensors, dy.contiguous()), setup_context=ctx_save([0, 1]))

    def attn_setup(ctx, inputs, output):
        q, k, v, causal, scale = inputs
        o, lse = output
        ctx.save_for_backward(q, k, v, o, lse)
        ctx.causal, ctx.scale = causal, scale
        ctx.set_materialize_grads(True)

    def attn_backward(ctx, do, _dlse):
        q, k, v, o, lse = ctx.saved_tensors
        dq, dk, dv = attention_backward(q, k, v, o, lse, do.contiguous(), ctx.causal, ctx.scale)
        return dq, dk, dv, None, None

    attention.register_autograd(attn_backward, setup_context=attn_setup)
    fns.update(rmsnorm=rmsnorm, rope=rope, swiglu=swiglu, embedding=embedding, linear=linear, attention=attention)
    return fns


def load(path, namespace="llama_ops"):
    """The operators of libllama_ops_capi.so at `path`, registered as `namespace::*` (one
    namespace per library: the original and the round trip can both be loaded)."""
    return Ops(CapiBackend(path), namespace)


def load_reference(namespace="llama_ops_ref"):
    return Ops(ReferenceBackend(), namespace)
