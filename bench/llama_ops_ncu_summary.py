#!/usr/bin/env python3
"""Per-shape summary of the ncu reports that bench/llama_ops_h200.sh (PROFILE=1) writes: one table
row per kernel of every case of bench/llama_ops_flash_bench.py --profile (ours and SDPA's, in
launch order), with where its time goes.

Input: for each part (fwd, bwd, dec) ncu-PART.csv (`ncu --csv --page raw --print-units base`: a
header row of metric names, a row of units, one row per kernel) and ncu-PART.cases.jsonl (the
cases in launch order, written by the benchmark). The kernels split into cases by namespace: ours
take llama_ops:: parameters; a case of ours starts at its first kernel (forward, the backward's
delta kernel, the decode split kernel), a case of SDPA takes every kernel up to the next of ours.

Usage: bench/llama_ops_ncu_summary.py DIR [--parts fwd,bwd,dec]  -> markdown on stdout
"""
import csv
import json
import os
import re
import sys

OURS_START = ("flash_fwd_wmma_kernel", "flash_bwd_delta_kernel", "flash_decode_split_kernel", "flash::flash_fwd_kernel")


def is_ours(name):
    return "llama_ops::" in name or "flash_wmma::" in name or "decode::flash_decode" in name


def short(name):
    n = re.sub(r"^void ", "", name)
    n = n.split("(")[0]
    base = n.split("<")[0].split("::")[-1]
    targs = n[len(n.split("<")[0]):]
    if is_ours(name):
        return base + targs.replace("__half", "half").replace("__nv_bfloat16", "bf16")
    return base[:40]


def num(x):
    try:
        return float(str(x).replace(",", ""))
    except ValueError:
        return None


def read_csv(path):
    with open(path, newline="") as f:
        lines = [ln for ln in f if ln.startswith('"')]  # ncu's own "==PROF==" lines are not CSV
    rows = list(csv.reader(lines))
    if len(rows) < 2:
        return []
    head, units = rows[0], rows[1]
    out = []
    for r in rows[2:]:
        if len(r) != len(head):
            continue
        d = {h: v for h, v in zip(head, r)}
        d["_units"] = dict(zip(head, units))
        out.append(d)
    return out


def pick(d, *names):
    for n in names:
        if n in d and num(d[n]) is not None:
            return num(d[n])
    return None


def scaled(d, name, to):
    """Metric `name` in unit `to` (ns -> us, byte -> KiB) from base units."""
    v = pick(d, name)
    if v is None:
        return None
    u = d["_units"].get(name, "")
    f = {("ns", "us"): 1e-3, ("nsecond", "us"): 1e-3, ("byte/block", "KiB"): 1 / 1024, ("usecond", "us"): 1.0, ("msecond", "us"): 1e3, ("second", "us"): 1e6,
         ("byte", "KiB"): 1 / 1024, ("Kbyte", "KiB"): 1000 / 1024, ("Mbyte", "KiB"): 1e6 / 1024}.get((u, to))
    return v * f if f else v


def metrics(d):
    m = {"kernel": short(d.get("Kernel Name", "?")), "grid": d.get("Grid Size", ""), "block": d.get("Block Size", "")}
    m["us"] = scaled(d, "gpu__time_duration.sum", "us")
    m["regs"] = pick(d, "launch__registers_per_thread")
    st = scaled(d, "launch__shared_mem_per_block_static", "KiB") or 0.0
    dy = scaled(d, "launch__shared_mem_per_block_dynamic", "KiB") or 0.0
    m["smem_kib"] = st + dy
    m["occ_th"] = pick(d, "sm__maximum_warps_per_active_cycle_pct")
    m["occ"] = pick(d, "sm__warps_active.avg.pct_of_peak_sustained_active")
    m["sm"] = pick(d, "sm__throughput.avg.pct_of_peak_sustained_elapsed")
    m["mem"] = pick(d, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
    m["l1"] = pick(d, "l1tex__throughput.avg.pct_of_peak_sustained_active")
    m["dram"] = pick(d, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                     "dram__throughput.avg.pct_of_peak_sustained_elapsed")
    m["cpi"] = pick(d, "smsp__average_warp_latency_per_inst_issued.ratio",
                    "smsp__average_warps_issue_stalled_per_issue_active.ratio")
    tm = next((n for n in ("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
                           "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active") if pick(d, n) is not None), None)
    if tm is None:
        tens = [(num(v), k) for k, v in d.items() if k != "_units" and "tensor" in k and "pct_of_peak" in k and num(v) is not None]
        tm = max(tens)[1] if tens else None
    m["tensor"], m["tensor_metric"] = (pick(d, tm), tm) if tm else (None, None)
    m["lsu"] = pick(d, "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active")
    stalls = []
    for k, v in d.items():
        g = re.match(r"smsp__average_warps?_issue_stalled_(\w+?)_per_issue_active\.ratio$", k) or re.match(r"smsp__average_warp_latency_issue_stalled_(\w+)\.ratio$", k)
        if g and g.group(1) not in ("selected",) and num(v) is not None:
            stalls.append((num(v), g.group(1)))
    stalls.sort(reverse=True)
    m["stalls"] = stalls[:3]
    return m


def split_cases(kernels, cases):
    """[(case, [kernel metrics...])] in launch order."""
    out, i = [], 0
    for c in cases:
        ks = []
        if c["impl"] == "ours":
            while i < len(kernels) and is_ours(kernels[i]["Kernel Name"]):
                if ks and any(s in kernels[i]["Kernel Name"] for s in OURS_START):
                    break
                ks.append(kernels[i])
                i += 1
        else:
            while i < len(kernels) and not is_ours(kernels[i]["Kernel Name"]):
                ks.append(kernels[i])
                i += 1
        out.append((c, [metrics(k) for k in ks]))
    return out, len(kernels) - i


def f(x, p=0):
    return "—" if x is None else f"{x:.{p}f}"


def table(part, split):
    lines = [f"### ncu, {part}: one launch of each kernel per case (ours, then SDPA's)", "",
             "| shape B×H(kv)×S×D | dtype | causal | impl | kernel | µs | case µs | regs | smem KiB/block | occ theor/achieved % "
             "| SM % | tensor % | LSU % | L1 % | DRAM % | cycles/issue | top stalls (cycles per issue) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c, ks in split:
        shape = f"{c['B']}×{c['H']}({c['KVH']})×{c['S']}×{c['D']}"
        total = sum(k["us"] or 0 for k in ks)
        for k in ks:
            st = ", ".join(f"{n} {v:.1f}" for v, n in k["stalls"])
            lines.append(f"| {shape} | {c['dtype']} | {c['causal']} | {c['impl']} | {k['kernel']} | {f(k['us'], 1)} | "
                         f"{f(total, 1)} | {f(k['regs'])} | {f(k['smem_kib'], 1)} | {f(k['occ_th'])}/{f(k['occ'])} | "
                         f"{f(k['sm'])} | {f(k['tensor'])} | {f(k['lsu'])} | {f(k['l1'])} | {f(k['dram'])} | {f(k['cpi'], 1)} | {st} |")
        if not ks:
            lines.append(f"| {shape} | {c['dtype']} | {c['causal']} | {c['impl']} | (no kernel in the report) |"
                         + " |" * 12)
    return lines


def main():
    d = sys.argv[1]
    parts = sys.argv[3].split(",") if len(sys.argv) > 3 and sys.argv[2] == "--parts" else ["fwd", "bwd", "dec"]
    out, tm = [], set()
    for part in parts:
        csvp, casep = os.path.join(d, f"ncu-{part}.csv"), os.path.join(d, f"ncu-{part}.cases.jsonl")
        if not (os.path.exists(csvp) and os.path.exists(casep)):
            out += [f"### ncu, {part}: no report", ""]
            continue
        kernels = read_csv(csvp)
        cases = [json.loads(ln) for ln in open(casep) if ln.strip()]
        split, rest = split_cases(kernels, cases)
        out += table(part, split)
        out.append("")
        out.append(f"{len(kernels)} kernels, {len(cases)} cases" + (f", {rest} kernels left unassigned" if rest else ""))
        out.append("")
        tm |= {k["tensor_metric"] for _, ks in split for k in ks if k["tensor_metric"]}
    if tm:
        out.append("tensor %: " + ", ".join(sorted(tm)))
    print("\n".join(out))


if __name__ == "__main__":
    main()
