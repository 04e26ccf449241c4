#!/usr/bin/env python3
"""CUDA/NCCL references left in PyTorch training scripts after `ferry migrate --to torch_npu`.

  torch_npu_refs.py --ferry build/ferry CORPUS_DIR [CORPUS_DIR ...] [--markdown]

For each corpus (a checkout of public training scripts, fetched by the caller and never
committed), migrates the tree into a temporary folder and counts, with Python's own tokenizer,
every token of the input and of the output that mentions CUDA or NCCL, by kind. The input count
is the baseline measured in the same run; the ratio says how much of it Ferry converted. Also
prints Ferry's diagnostics by code. A corpus path that does not exist is skipped with a message.
Exit status: 0, or 1 when ferry fails on a corpus."""
import argparse
import collections
import io
import re
import subprocess
import sys
import tempfile
import tokenize
from pathlib import Path

KINDS = [
    ("torch.cuda.*", "torch.cuda.X API (X: is_available, set_device, amp, ...)"),
    ("x.cuda()", "tensor/module .cuda() and .is_cuda"),
    ("device string", "'cuda' / 'cuda:N' string"),
    ("backend string", "'nccl' string (a distributed backend name)"),
    ("nccl API", "NCCL-named API: is_nccl_available, torch.cuda.nccl, Backend.NCCL"),
    ("env var", "CUDA_* / NCCL_* environment variable name in a string"),
    ("cudnn setting", "torch.backends.cudnn.* / torch.backends.cuda.*"),
    ("user name", "the user's own cuda/nccl-named variables, flags, functions (use_cuda, args.no_cuda)"),
    ("prose string", "help texts, messages, docstrings mentioning CUDA/NCCL"),
    ("comment", "comments mentioning CUDA/NCCL"),
]
ENV = re.compile(r"^(CUDA|NCCL|TORCH_NCCL|CUDNN)_[A-Z0-9_]+$")
MENTION = re.compile(r"cuda|nccl", re.I)


def string_body(tok: str) -> str:
    m = re.match(r"^([rRbBuUfF]*)('''|\"\"\"|'|\")(.*)\2$", tok, re.S)
    return m.group(3) if m else tok


def classify_file(text: str, counts: collections.Counter) -> None:
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        counts["(untokenizable file)"] += 1
        return
    code = [t for t in toks if t.type not in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)]
    for t in toks:
        if t.type == tokenize.COMMENT and MENTION.search(t.string):
            counts["comment"] += 1
    for i, t in enumerate(code):
        prev = code[i - 1].string if i > 0 else ""
        prev2 = code[i - 2].string if i > 1 else ""
        nxt = code[i + 1].string if i + 1 < len(code) else ""
        if t.type == tokenize.NAME:
            n = t.string
            if n == "cuda" and prev == "." and prev2 == "torch":
                if nxt == "." and i + 2 < len(code) and code[i + 2].string == "nccl":
                    continue  # counted at `nccl`
                counts["torch.cuda.*"] += 1
            elif n == "cuda" and prev == "." and prev2 == "backends":
                counts["cudnn setting"] += 1
            elif n == "cudnn" and prev == "." and prev2 == "backends":
                counts["cudnn setting"] += 1
            elif (n == "cuda" and prev == "." and nxt == "(") or (n == "is_cuda" and prev == "."):
                counts["x.cuda()"] += 1
            elif "nccl" in n.lower() and (n in ("nccl", "NCCL", "is_nccl_available") or prev == "."):
                counts["nccl API"] += 1
            elif MENTION.search(n) and n not in ("cudnn",):
                counts["user name"] += 1
        elif t.type == tokenize.STRING or getattr(tokenize, "FSTRING_START", -1) == t.type:
            body = string_body(t.string)
            if not MENTION.search(body):
                continue
            if body == "cuda" or re.match(r"^cuda:(\d+|\{[^}]*\})$", body):
                counts["device string"] += 1
            elif body == "nccl" or re.match(r"^[a-z]+:[a-z]+(,[a-z]+:[a-z]+)*$", body):
                counts["backend string"] += 1
            elif ENV.match(body):
                counts["env var"] += 1
            else:
                counts["prose string"] += 1


def count_tree(root: Path) -> collections.Counter:
    c = collections.Counter()
    for f in sorted(root.rglob("*.py")):
        c["files"] += 1
        classify_file(f.read_text(encoding="utf-8", errors="replace"), c)
    return c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ferry", required=True)
    ap.add_argument("corpora", nargs="+")
    a = ap.parse_args()
    status = 0
    total_in, total_out, total_diag = collections.Counter(), collections.Counter(), collections.Counter()
    for corpus in map(Path, a.corpora):
        if not corpus.is_dir():
            print(f"{corpus}: not found, skipped (fetch the corpus and pass its path)")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            p = subprocess.run([a.ferry, "migrate", str(corpus), "-o", str(out), "--to", "torch_npu"],
                               capture_output=True, text=True)
            if p.returncode not in (0, 1):
                print(f"{corpus}: ferry exited {p.returncode}\n{p.stderr[-2000:]}", file=sys.stderr)
                status = 1
                continue
            diag = collections.Counter(re.findall(r"\[(FRY\d{4})\]$", p.stderr, re.M))
            cin, cout = count_tree(corpus), count_tree(out)
        total_in.update(cin)
        total_out.update(cout)
        total_diag.update(diag)
        print(f"\n## {corpus.name}: {cin['files']} Python files")
        print_table(cin, cout, diag)
    if len(a.corpora) > 1:
        print(f"\n## all corpora: {total_in['files']} Python files")
        print_table(total_in, total_out, total_diag)
    return status


def print_table(cin: collections.Counter, cout: collections.Counter, diag: collections.Counter) -> None:
    print("| kind | input | after ferry | converted |")
    print("|---|---:|---:|---:|")
    for kind, _ in KINDS:
        i, o = cin[kind], cout[kind]
        conv = f"{(i - o) / i:.0%}" if i else "—"
        print(f"| {kind} | {i} | {o} | {conv} |")
    if cin["(untokenizable file)"]:
        print(f"| (untokenizable files) | {cin['(untokenizable file)']} | {cout['(untokenizable file)']} | |")
    print("diagnostics: " + (" ".join(f"{k}×{v}" for k, v in sorted(diag.items())) or "none"))


if __name__ == "__main__":
    sys.exit(main())
