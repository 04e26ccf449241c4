#!/usr/bin/env python3
"""Writes rules/cusolver_lwork.tsv: where cuSOLVER's legacy dense API takes a workspace size counted
in elements, for the HIP -> CUDA solver_lwork pass (src/targets/cuda/solver_lwork_pass.cpp).

hipSOLVER's rocSOLVER back end (what HIP code is written and tested on) reports and takes `lwork` in
bytes: its `_bufferSize` queries return rocBLAS's device-memory size and its routines pass `lwork` to
rocblas_set_workspace, for the regular API (hipsolverDsyevd) and the compatibility API
(hipsolverDnDsyevd, which calls the former). cuSOLVER's `cusolverDn<t><routine>_bufferSize(...,
int *lwork)` and `cusolverDn<t><routine>(..., T *work, int lwork, ...)` count elements of the
routine's type. Each row: the cuSOLVER function, the 0-based index of its lwork parameter, the
element type, and `query` (the int* of a _bufferSize) or `routine` (the int after the work pointer).
The 64-bit generic API (cusolverDnX*) and the IRS queries (gels/gesv, size_t lwork_bytes) count
bytes already and are not listed.
Usage: make_cusolver_lwork.py CUSOLVER_DN_H > rules/cusolver_lwork.tsv
"""
import re
import sys
from pathlib import Path

ELEMENT = {"S": "float", "D": "double", "C": "cuComplex", "Z": "cuDoubleComplex"}


def main():
    text = Path(sys.argv[1]).read_text()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    funcs = {}
    for m in re.finditer(r"cusolverStatus_t\s+CUSOLVERAPI\s+(cusolverDn\w+)\s*\(([^)]*)\)", text, re.S):
        funcs[m.group(1)] = [" ".join(p.split()) for p in m.group(2).split(",")]
    rows = []
    for name in sorted(funcs):
        m = re.fullmatch(r"cusolverDn([SDCZ])[a-z]\w*", name)
        if not m:
            continue
        params = funcs[name]
        if name.endswith("_bufferSize"):
            idx = [i for i, p in enumerate(params) if re.search(r"\bint\s*\*\s*[lL]work$", p)]
            kind = "query"
        else:
            idx = [i for i, p in enumerate(params) if re.search(r"\bint\s+[lL]work$", p)]
            kind = "routine"
            # the size of the pointer before it: the work array of the routine's type
            if idx and not re.search(r"\*\s*\w*[wW]ork\w*$", params[idx[0] - 1]):
                idx = []
        if len(idx) == 1:
            rows.append(f"{name}\t{idx[0]}\t{ELEMENT[m.group(1)]}\t{kind}")
    print("# cuSOLVER function\tlwork parameter (0-based)\telement type\tquery|routine")
    print("# made by rules/make_cusolver_lwork.py from CUDA 13.0's cusolverDn.h; do not edit")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
