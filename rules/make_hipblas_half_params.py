#!/usr/bin/env python3
"""Writes rules/hipblas_half_params.tsv (or, with --complex, rules/hipblas_complex_params.tsv) from a hipBLAS header (hipblas.h of ROCm 5.x, as
scripts/rocm-headers.sh assembles it; 6.2 lists the 5.x functions and their _64 forms): for each function, the parameters declared hipblasHalf
pointers, which cuBLAS declares __half pointers. hipblasHalf is uint16_t (unless a build defines
HIPBLAS_USE_HIP_HALF, ROCm 6.x), and a __half* does not convert to it: the hip target's
blas_half_casts pass casts those arguments.

  python3 rules/make_hipblas_half_params.py /work/rocm-headers/6.2/include/hipblas/hipblas.h \
      > rules/hipblas_half_params.tsv
  python3 rules/make_hipblas_half_params.py --complex /work/rocm-headers/5.2/include/hipblas/hipblas.h \
      > rules/hipblas_complex_params.tsv

--complex: the parameters declared hipblasComplex/hipblasDoubleComplex pointers in hipBLAS 5.x,
whose complex functions (hipblasCgemm) take hipBLAS's own complex types where cuBLAS and hipBLAS
6.0's _v2 functions take cuComplex/hipComplex: for a release before 6.0 the pass calls the 5.x
function with those arguments cast.
"""
import re
import sys


def main() -> int:
    args = sys.argv[1:]
    complex_types = bool(args) and args[0] == "--complex"
    if complex_types:
        args = args[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    kind = r"\bhipblas(Double)?Complex\b" if complex_types else r"\bhipblasHalf\b"
    src = open(args[0], encoding="utf-8").read()
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    src = re.sub(r"//[^\n]*", "", src)
    what = "hipblasComplex/hipblasDoubleComplex" if complex_types else "hipblasHalf"
    print(f"# hipBLAS function\tparameters that are {what} pointers: INDEX:TYPE;... (0-based)")
    print("# made by rules/make_hipblas_half_params.py" + (" --complex" if complex_types else "") +
          " from hipBLAS's hipblas.h; do not edit")
    seen = set()
    for m in re.finditer(r"HIPBLAS_EXPORT\s+hipblasStatus_t\s+(\w+)\s*\(([^;{]*?)\)\s*;", src, flags=re.S):
        name, params = m.group(1), m.group(2)
        hits = []
        for i, p in enumerate(params.split(",")):
            t = " ".join(p.split())
            if not re.search(kind, t) or ("*" not in t and "[]" not in t):
                continue
            array = t.endswith("[]")
            ty = re.sub(r"\s*\w+\s*(\[\])?$", "", t).replace(" *", "*")
            hits.append(f"{i}:{ty}{'*' if array else ''}")
        if hits and name not in seen:
            seen.add(name)
            print(f"{name}\t{';'.join(hits)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
