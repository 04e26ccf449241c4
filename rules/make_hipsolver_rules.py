#!/usr/bin/env python3
"""Writes rules/hip2cuda/hipsolver.tsv: hipSOLVER's own (non-Dn) API -> cuSOLVER's Dn API.

Facts come from the two public headers: hipSOLVER's (hipsolver/internal/hipsolver-functions.h,
made available by scripts/rocm-headers.sh) and cuSOLVER's (cusolverDn.h of a CUDA toolkit).
Each hipsolverX... function is compared with its cusolverDnX... twin parameter by parameter, the
types written in cuSOLVER's spelling:
  - the same list: a `func` row;
  - cuSOLVER's list is hipSOLVER's less workspace arguments (`work`, `lwork`) or the job
    arguments a buffer-size query does not need: a `call` row keeping the others;
  - a buffer-size query with no cuSOLVER twin whose routine needs no workspace on cuSOLVER:
    a `call` row that sets the size to 0;
  - otherwise `unsupported` (FRY1001), with the reason.
Usage: make_hipsolver_rules.py HIPSOLVER_INCLUDE_DIR CUSOLVER_DN_H > rules/hip2cuda/hipsolver.tsv
"""
import re
import sys
from pathlib import Path

TYPES = {
    "hipsolverHandle_t": "cusolverDnHandle_t",
    "hipsolverFillMode_t": "cublasFillMode_t",
    "hipsolverOperation_t": "cublasOperation_t",
    "hipsolverSideMode_t": "cublasSideMode_t",
    "hipsolverEigMode_t": "cusolverEigMode_t",
    "hipsolverEigType_t": "cusolverEigType_t",
    "hipsolverEigRange_t": "cusolverEigRange_t",
    "hipsolverSyevjInfo_t": "syevjInfo_t",
    "hipsolverGesvdjInfo_t": "gesvdjInfo_t",
    "hipFloatComplex": "cuComplex",
    "hipDoubleComplex": "cuDoubleComplex",
    "hipStream_t": "cudaStream_t",
    "hipsolverStatus_t": "cusolverStatus_t",
    "hipblasFillMode_t": "cublasFillMode_t",
    "hipblasOperation_t": "cublasOperation_t",
    "hipblasSideMode_t": "cublasSideMode_t",
    "cusolver_int_t": "int",
}
FIXED = [
    ("type", "hipsolverHandle_t", "cusolverDnHandle_t", "cusolver", "supported"),
    ("type", "hipsolverGesvdjInfo_t", "gesvdjInfo_t", "cusolver", "supported"),
    ("type", "hipsolverSyevjInfo_t", "syevjInfo_t", "cusolver", "supported"),
    ("enum", "HIPSOLVER_STATUS_HANDLE_IS_NULLPTR", "((cusolverStatus_t)27)", "cusolver", "changed",
     "cuSOLVER reports a null handle as CUSOLVER_STATUS_NOT_INITIALIZED and has no code of its own for it"),
    ("enum", "HIPSOLVER_STATUS_INVALID_ENUM", "((cusolverStatus_t)28)", "cusolver", "changed",
     "cuSOLVER reports an invalid enum as CUSOLVER_STATUS_INVALID_VALUE and has no code of its own for it"),
    ("enum", "HIPSOLVER_STATUS_UNKNOWN", "((cusolverStatus_t)29)", "cusolver", "changed",
     "hipSOLVER's code for a back-end status it does not know; cuSOLVER has none"),
]
SKIPPABLE = {"work", "lwork", "jobu", "jobv", "jobz", "uplo", "itype", "A", "lda", "B", "ldb", "tau", "W",
             "devIpiv", "ipiv", "nrhs", "trans", "k", "D", "E", "S", "U", "V", "ldu", "ldv"}


def parse(text, pattern):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    out = {}
    for m in re.finditer(pattern, text, re.S):
        name, plist = m.group(1), m.group(2)
        params = []
        for p in plist.split(","):
            p = " ".join(p.split())
            if not p or p == "void":
                continue
            toks = re.findall(r"[A-Za-z_]\w*|\*|&", p)
            pname = toks[-1]
            ptype = " ".join(t for t in toks[:-1] if t not in ("const",))
            for h, c in TYPES.items():
                ptype = re.sub(rf"\b{h}\b", c, ptype)
            ptype = ptype.replace("signed char", "char").replace(" *", "*")
            params.append((ptype, pname))
        out[name] = params
    return out


def twin(name):
    rest = name[len("hipsolver"):]
    return "cusolverDn" + rest


def align(hip, cu):
    """The argument for each cu param ("$i" of a hip param, skipping only SKIPPABLE hip params, or
    "nullptr" for a workspace pointer hipSOLVER's query does not take); None if none."""
    out, j = [], 0
    for ct, cn in cu:
        if ct == "void*" and "workspace" in cn.lower() and (j == len(hip) or hip[j][0] != ct):
            out.append("nullptr")
            continue
        while j < len(hip) and hip[j][0] != ct:
            if hip[j][1] not in SKIPPABLE:
                return None
            j += 1
        if j == len(hip):
            return None
        out.append(f"${j}")
        j += 1
    if any(h[1] not in SKIPPABLE for h in hip[j:]):
        return None
    return out


def main():
    hip_dir, cu_h = Path(sys.argv[1]), Path(sys.argv[2])
    htext = "\n".join(p.read_text() for p in sorted((hip_dir / "internal").glob("hipsolver-*.h"))
                      if p.name in ("hipsolver-functions.h",))
    ctext = cu_h.read_text()
    hip = parse(htext, r"HIPSOLVER_EXPORT\s+hipsolverStatus_t\s+(hipsolver\w+)\s*\(([^)]*)\)")
    cu = parse(ctext, r"cusolverStatus_t\s+CUSOLVERAPI\s+(cusolverDn\w+)\s*\(([^)]*)\)")
    rows = []
    for name in sorted(hip):
        if name.startswith(("hipsolverDn", "hipsolverSp", "hipsolverRf")):
            continue
        params, t = hip[name], twin(name)
        if t in cu:
            if [p[0] for p in params] == [p[0] for p in cu[t]]:
                rows.append(f"func\t{name}\t{t}\tcusolver\tsupported")
                continue
            idx = align(params, cu[t])
            if idx is not None:
                args = ", ".join(idx)
                dropped = ", ".join(params[i][1] for i in range(len(params)) if f"${i}" not in idx)
                what = f"takes no {dropped}" if dropped else "takes a workspace pointer here (nullptr)"
                rows.append(f"call\t{name}\t{t}({args})\tcusolver\tchanged\tcuSOLVER's {t} {what}")
                continue
            rows.append(f"func\t{name}\t-\tcusolver\tunsupported\thipSOLVER's compatibility-only argument list "
                        f"differs from {t}'s: call {t} by hand")
            continue
        if name.endswith("_bufferSize"):
            routine = t[: -len("_bufferSize")]
            hroutine = name[: -len("_bufferSize")]
            if routine in cu and hroutine in hip:
                idx = align(hip[hroutine], cu[routine])
                hwork = [p[1] for p in hip[hroutine]]
                cwork = [p[1].lower() for p in cu[routine]]
                if idx is not None and "lwork" in hwork and not any("work" in c for c in cwork):
                    last = len(params) - 1
                    rows.append(f"call\t{name}\t(*($${last}) = 0, CUSOLVER_STATUS_SUCCESS)\tcusolver\tchanged\t"
                                f"{routine} takes no workspace: the size is 0".replace("$$", "$"))
                    continue
        rows.append(f"func\t{name}\t-\tcusolver\tunsupported\tcuSOLVER has no {t}")
    print("# Generated by rules/make_hipsolver_rules.py from hipSOLVER's hipsolver-functions.h (ROCm 6.2) and")
    print("# cuSOLVER's cusolverDn.h (CUDA 13.0): hipSOLVER's own (non-Dn) API -> cuSOLVER's Dn API.")
    print("# kind\tfrom\tto\tfamily\tstatus[\tnote]   (see docs/rules.md)")
    for r in rows:
        print(r)
    print("# hipSOLVER's own types and the three statuses cuSOLVER never returns: values CUDA 13.0's cuSOLVER leaves")
    print("# unused (27-29, inside its range 0-31), distinct from every other, so switches keep compiling and comparisons stay false.")
    for r in FIXED:
        print("\t".join(r))


if __name__ == "__main__":
    main()
