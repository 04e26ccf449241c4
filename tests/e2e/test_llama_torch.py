#!/usr/bin/env python3
"""The PyTorch side of LLaMA on llama_ops, on the CPU (examples/llama_ops/torch/).

The GPU kernels cannot run here; what can be checked is everything around them, with the
library replaced by ReferenceBackend (the kernels' forward and backward formulas in torch):
1. every operator's backward formula (RMSNorm, RoPE as the inverse rotation, SwiGLU, embedding
   scatter-add, linear, FlashAttention's recompute-from-lse backward) against torch autograd;
2. the autograd wiring (custom_op on torch >= 2.4, autograd.Function before);
3. the model: impl "ferry" (reference backend) against "eager" on the same weights, logits and
   every parameter gradient;
4. infer.py runs end to end on the CPU.
Skips (77) when no Python with torch is found.

On a GPU machine the same checks run against the real library (what scripts/gpu_llama.sh does):
    python3 tests/e2e/test_llama_torch.py --lib build/libllama_ops_capi.so --device cuda
then attention runs in bf16 and the tolerances are those of bf16 attention.
"""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(os.environ.get("FERRY_ROOT", Path(__file__).resolve().parents[2]))
TORCH_DIR = ROOT / "examples" / "llama_ops" / "torch"


def reexec_with_torch():
    try:
        import torch  # noqa: F401
        return
    except ImportError:
        pass
    for py in filter(None, [os.environ.get("FERRY_PYTHON"), "/usr/bin/python3"]):
        if py != sys.executable and subprocess.run([py, "-c", "import torch"], capture_output=True).returncode == 0:
            os.execv(py, [py, __file__] + sys.argv[1:])
    print("SKIP: no Python with torch")
    sys.exit(77)


reexec_with_torch()
import torch  # noqa: E402

sys.path.insert(0, str(TORCH_DIR))
import llama_ops_torch as lt  # noqa: E402
import model as lm  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def close(a, b, tol, what):
    err = (a.double() - b.double()).abs().max().item() / max(b.double().abs().max().item(), 1e-30)
    check(err <= tol, f"{what}: relative error {err:.2e} > {tol:.0e}")
    return err


def grads(fn, inputs):
    inputs = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in inputs]
    out = fn(*inputs)
    outs = out if isinstance(out, tuple) else (out,)
    g = torch.Generator().manual_seed(99)
    loss = sum((o.float() * torch.randn(o.shape, dtype=torch.float32, generator=g).to(o.device)).sum() for o in outs)
    loss.backward()
    return [o.detach() for o in outs], [t.grad for t in inputs if t.requires_grad]


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default="reference", help="libllama_ops_capi.so, or 'reference' (the CPU check)")
    ap.add_argument("--device", default="cpu")
    a = ap.parse_args()
    dev = a.device
    real = a.lib != "reference"
    torch.manual_seed(0)
    ours = lt.load(a.lib, "test_llama_ops") if real else lt.load_reference("test_llama_ops")
    ref = lm.TorchOps("eager")
    R = lambda *shape: torch.randn(*shape, device=dev)
    # attention: bf16 with the kernels (their types), float32 with the reference formulas
    adt, atol_fwd, atol_bwd = (torch.bfloat16, 1e-2, 3e-2) if real else (torch.float32, 1e-5, 1e-4)
    x, w = R(37, 96), torch.rand(96, device=dev) + 0.5
    for name, a, b, args, tol in [
        ("rmsnorm", lambda *t: ours.rmsnorm(*t, 1e-5), lambda *t: ref.rmsnorm(*t, 1e-5), (x, w), 1e-5),
        ("swiglu", ours.swiglu, ref.swiglu, (R(500) * 4, R(500)), 1e-5),
        ("linear", ours.linear, ref.linear, (R(20, 48), R(33, 48)), 1e-5),
    ]:
        (oa,), ga = grads(a, args)
        (ob,), gb = grads(b, args)
        close(oa, ob, tol, f"{name} forward")
        for i, (p, q) in enumerate(zip(ga, gb)):
            close(p, q, tol, f"{name} gradient {i}")
    pos = torch.randint(0, 2048, (40,), dtype=torch.int32, device=dev)
    q, k = R(40, 4, 64), R(40, 2, 64)
    oa, ga = grads(lambda q, k: ours.rope(q, k, pos, 10000.0), (q, k))
    ob, gb = grads(lambda q, k: ref.rope(q, k, pos, 10000.0), (q, k))
    for i in range(2):
        close(oa[i], ob[i], 1e-5, f"rope forward {i}")
        close(ga[i], gb[i], 1e-5, f"rope gradient (inverse rotation) {i}")
    ids = torch.randint(0, 10, (50,), device=dev)
    table = R(10, 16)
    (oa,), ga = grads(lambda t: ours.embedding(ids, t), (table,))
    (ob,), gb = grads(lambda t: ref.embedding(ids, t), (table,))
    close(oa, ob, 0, "embedding forward")
    close(ga[0], gb[0], 1e-6, "embedding gradient (scatter-add)")
    for causal in (True, False):
        qkv = [R(2, 70, 3, 64).to(adt) for _ in range(3)]
        (oa,), ga = grads(lambda q, k, v: ours.attention(q, k, v, causal), qkv)
        (ob,), gb = grads(lambda q, k, v: ref.attention(q, k, v, causal), qkv)
        close(oa, ob, atol_fwd, f"attention forward causal={causal}")
        for i, n in enumerate("qkv"):
            close(ga[i], gb[i], atol_bwd, f"attention d{n} (recomputed from lse) causal={causal}")

    cfg = lm.Config(dim=128, layers=2, heads=2, ffn=344, seq=48)
    torch.manual_seed(1)
    m_ref = lm.Llama(cfg, lm.TorchOps("eager")).to(dev)
    m_ours = lm.Llama(cfg, ours).to(dev)
    m_ours.load_state_dict(m_ref.state_dict())
    tokens = torch.randint(0, cfg.vocab, (3, cfg.seq), device=dev)
    la, lb = m_ours(tokens), m_ref(tokens)
    err = close(la, lb, 2e-2 if real else 1e-3, f"model logits, ferry ({'library' if real else 'reference backend'}) vs eager")
    check(la.std().item() > 0.3, f"logits are not degenerate (std {la.std().item():.3f})")
    y = torch.randint(0, cfg.vocab, (3, cfg.seq), device=dev)
    for mdl, lo in ((m_ours, la), (m_ref, lb)):
        torch.nn.functional.cross_entropy(lo.reshape(-1, cfg.vocab), y.reshape(-1)).backward()
    gerr = max(close(pa.grad, pb.grad, 5e-2 if real else 2e-2, f"model gradient {name}")
               for (name, pa), pb in zip(m_ours.named_parameters(), m_ref.parameters()))
    print(f"model: logits rel err {err:.1e}, worst parameter gradient rel err {gerr:.1e}, "
          f"{'custom_op' if lt._HAS_CUSTOM_OP else 'autograd.Function'} wiring")

    # The inference script, end to end on the CPU.
    env = dict(os.environ, PYTHONPATH=str(TORCH_DIR))
    r = None if real else subprocess.run([sys.executable, str(TORCH_DIR / "infer.py"), "--lib", "reference", "--device", "cpu", "--quick"],
                       capture_output=True, text=True, env=env, timeout=900)
    check(r is None or (r.returncode == 0 and "PASS" in r.stdout),
          "infer.py --quick failed" if r is None else f"infer.py --quick: rc {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    print("test_llama_torch:", "FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
