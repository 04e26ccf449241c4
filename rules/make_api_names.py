#!/usr/bin/env python3
"""Writes rules/cuda_api_names.tsv or rules/hip_api_names.tsv: the names CUDA's (or HIP's) own
headers declare (functions, types, struct and enum tags, enumerators, macros) that no rule table
maps and no pass of src/ handles. `ferry migrate` reports a use of one of them with FRY1004 instead
of leaving it silently (docs/diagnostics.md). Names only, read from the installed headers.

    python3 rules/make_api_names.py cuda [/usr/local/cuda/include] > rules/cuda_api_names.tsv
    python3 rules/make_api_names.py hip [/usr/include] > rules/hip_api_names.tsv

Re-run it after adding rule rows or moving to newer headers (the header line records the release
it was made from)."""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIALECT = sys.argv[1] if len(sys.argv) > 1 else "cuda"
if DIALECT not in ("cuda", "hip"):
    sys.exit("usage: make_api_names.py cuda|hip [INCLUDE_DIR]")
INC = sys.argv[2] if len(sys.argv) > 2 else ("/usr/local/cuda/include" if DIALECT == "cuda" else "/usr/include")

# family (as in rules/cuda2hip): headers, the prefix of its names
HIP_FAMILIES = [
    ("runtime", ["hip/hip_runtime_api.h", "hip/driver_types.h", "hip/texture_types.h", "hip/surface_types.h",
                 "hip/library_types.h", "hip/hip_ext.h"], r"hip(?!Ext)[A-Z][A-Za-z0-9_]*|HIP_[A-Z0-9_]+"),
    ("nvrtc", ["hip/hiprtc.h"], r"hiprtc[A-Z][A-Za-z0-9_]*|HIPRTC_[A-Z0-9_]+"),
]
CUDA_FAMILIES = [
    ("driver", ["cuda.h"], r"CU_[A-Z0-9_]+|CUDA_[A-Z0-9_]+|CU[a-z][A-Za-z0-9_]*|cu[A-Z][A-Za-z0-9_]*"),
    ("runtime", ["cuda_runtime_api.h", "driver_types.h"], r"cuda[A-Z][A-Za-z0-9_]*|CUDART_[A-Z0-9_]+"),
    ("cublas", ["cublas_api.h", "cublasLt.h"], r"cublas[A-Za-z0-9_]+|CUBLAS[A-Z0-9_]*"),
    ("cusparse", ["cusparse.h"], r"cusparse[A-Za-z0-9_]+|CUSPARSE_[A-Z0-9_]+"),
    ("cusolver", ["cusolver_common.h", "cusolverDn.h", "cusolverSp.h", "cusolverRf.h"],
     r"cusolver[A-Za-z0-9_]+|CUSOLVER[A-Z0-9_]*"),
    ("curand", ["curand.h"], r"curand[A-Za-z0-9_]+|CURAND_[A-Z0-9_]+"),
    ("cufft", ["cufft.h", "cufftXt.h"], r"cufft[A-Za-z0-9_]+|CUFFT_[A-Z0-9_]+"),
    ("cudnn", ["cudnn_graph_v9.h", "cudnn_ops_v9.h", "cudnn_cnn_v9.h", "cudnn_adv_v9.h", "cudnn_version_v9.h"],
     r"cudnn[A-Za-z0-9_]+|CUDNN_[A-Z0-9_]+"),
    ("nccl", ["nccl.h"], r"nccl[A-Z][A-Za-z0-9_]*|NCCL_[A-Z0-9_]+"),
]

# Not API a user writes: calling conventions, export and deprecation macros, include guards,
# per-thread-stream internals, reserved enumerators.
SKIP = re.compile(r"(API|_ptsz|_ptds|_H|_H_|_INCLUDED|DEPRECATED\w*|Reserved\d+|_RESERVED\w*|_FORCE_INT|_MAX_ENUM)$")


def declared(text, name):
    """Names `text` declares, matching the family pattern `name`."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    n = rf"(?:{name})"
    out = set(re.findall(rf"^\s*#\s*define\s+({n})\b", text, flags=re.M))
    out |= set(re.findall(rf"\b({n})\s*\(", text))  # functions (and function-like macros)
    out |= set(re.findall(rf"\b(?:struct|enum|union)\s+({n})\b", text))  # tags
    out |= set(re.findall(rf"\}}\s*({n})\s*[;,]", text))  # typedef struct {...} NAME;
    out |= set(re.findall(rf"\btypedef\b[^;{{}}]*?\b({n})\s*(?:\[[^\]]*\])?\s*;", text))
    out |= set(re.findall(rf"\(\s*[A-Z_]*\s*\*\s*({n})\s*\)\s*\(", text))  # typedef R (CALL *NAME)(...)
    for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", text):  # enumerators
        out |= set(re.findall(rf"(?:^|,)\s*({n})\s*(?==|,|$)", body.strip(), flags=re.S))
    return {x for x in out if not SKIP.search(x)}


FAMILIES = CUDA_FAMILIES if DIALECT == "cuda" else HIP_FAMILIES


def rows(pattern):
    for path in glob.glob(os.path.join(ROOT, "rules", pattern), recursive=True):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.startswith("#") and line.strip():
                    yield line.rstrip("\n").split("\t")


def mapped():
    names = set()
    if DIALECT == "cuda":  # any name of a table (rows of every status: unsupported ones get FRY1001)
        for path in glob.glob(os.path.join(ROOT, "rules", "**", "*.tsv"), recursive=True):
            if os.path.basename(path) in ("cuda_api_names.tsv", "hip_api_names.tsv"):
                continue
            for cols in rows(os.path.relpath(path, os.path.join(ROOT, "rules"))):
                names.update(cols[:3])
    else:  # what the HIP -> CUDA table holds: inverted forward rows, explicit rows
        for cols in rows("cuda2hip/**/*.tsv"):
            if len(cols) > 4 and cols[4] in ("supported", "changed"):
                names.add(re.match(r"[A-Za-z0-9_]*", cols[2]).group(0))
        for cols in rows("hip2cuda/*.tsv"):
            names.update(cols[1:2])
    # Names a pass handles by itself (CUDART_CB, __CUDA_ARCH__, cudaLaunchKernelEx...).
    for path in glob.glob(os.path.join(ROOT, "src", "**", "*.[ch]*"), recursive=True):
        with open(path, encoding="utf-8", errors="replace") as f:
            names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f.read()))
    return names


def main():
    known = mapped()
    if DIALECT == "cuda":
        cmd = f"'{INC}/../bin/nvcc' --version 2>/dev/null | grep -o 'release [0-9.]*'"
    else:
        cmd = f"grep -h '#define HIP_VERSION_M[AI]' '{INC}/hip/hip_version.h' | awk '{{print $3}}' | paste -sd."
    release = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True).stdout.strip() or "unknown release"
    rows = {}
    for family, headers, pattern in FAMILIES:
        for h in headers:
            path = os.path.join(INC, h)
            if not os.path.exists(path):
                print(f"make_api_names: {path} not found; family {family} incomplete", file=sys.stderr)
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for name in declared(f.read(), pattern):
                    if name not in known:
                        rows.setdefault(name, (family, h))
    what = f"CUDA {release}, cuDNN 9, NCCL" if DIALECT == "cuda" else f"HIP {release}"
    to = "hip" if DIALECT == "cuda" else "cuda"
    print(f"# {DIALECT.upper()} API names that no rule table maps and no pass handles: a use gets FRY1004")
    print(f"# (ferry migrate --to {to}). Generated by rules/make_api_names.py {DIALECT} from {INC} ({what});")
    print("# do not edit by hand: add a rule row, then re-run the script.")
    print("# name<TAB>family<TAB>header")
    for name in sorted(rows):
        print(f"{name}\t{rows[name][0]}\t{rows[name][1]}")


if __name__ == "__main__":
    main()
