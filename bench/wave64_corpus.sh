#!/usr/bin/env bash
# Wave64 on public CUDA code (issue 17): for each corpus checkout given, the lane-math hazards
# `ferry analyze` finds (FRY2201-2205, 2207-2209; FRY2206 full masks are left out, migrate drops
# them), how many the wave64 fixer of `migrate --to hip` rewrites, how many stay with a
# diagnostic (and why), and how many are plain arithmetic that no warp operation reaches. Then,
# for NVIDIA/cuda-samples, the listed sample programs are run on the wave64 CPU runtime with
# `ferry diffrun --wave64`: the CUDA original at warp 32 against its HIP port (fixes on) at
# wave 64; timing lines are left out of the comparison.
#
# Usage: bench/wave64_corpus.sh FERRY OUT_DIR CORPUS... (a corpus that is absent is skipped)
#   WAVE64_HAZARDS_ONLY=1: the hazard count alone (seconds), no program runs (an hour).
# Results: OUT_DIR/hazards.tsv, OUT_DIR/programs.tsv; summarised in bench/results/wave64-*.md.
# hazards.tsv columns: lane_math (all FRY22xx but 2206), in_components (reached by a warp
# operation), fixed (automatically; of them, logical: kept as 32-lane logical warps), left (with a
# diagnostic; of them, unmigratable: in a component whose warp code has inline assembly, code
# `migrate` cannot port at all, FRY1003), no_warp_op (notes), components, components_fixed, and
# wmma_left: left hazards of components with WMMA calls (ported to rocWMMA, but a fragment belongs
# to a 64-lane wavefront and the fixer does not re-tile: docs/wave64.md, "WMMA").
set -u
FERRY=${1:?usage: wave64_corpus.sh FERRY OUT_DIR CORPUS...}
OUT=${2:?}
shift 2
mkdir -p "$OUT"
printf 'corpus\tfiles\tlane_math\tin_components\tfixed\tlogical\tleft\tunmigratable\tno_warp_op\tcomponents\tcomponents_fixed\twmma_left\n' > "$OUT/hazards.tsv"
: > "$OUT/blocked.txt"
: > "$OUT/left.txt"
for c in "$@"; do
  [[ -d $c ]] || { echo "skip: $c is absent"; continue; }
  "$FERRY" analyze "$c" --json > "$OUT/analyze.json" 2>/dev/null
  python3 - "$c" "$OUT" <<'PY'
import json, os, re, sys
corpus, out = sys.argv[1], sys.argv[2]
j = json.load(open(os.path.join(out, "analyze.json")))
lane = [h for h in j["hazards"] if h["code"].startswith("FRY22") and h["code"] != "FRY2206"]
harmless = [h for h in lane if "no warp operation reaches" in h["message"]]
fixable = [h for h in lane if "fixable automatically" in h["hint"]]
left = [h for h in lane if h not in harmless and h not in fixable]
logical = [h for h in fixable if "32-lane logical warps" in h["hint"]]
texts = {}
def text_of(path):
    if path not in texts:
        full = path if os.path.isabs(path) else os.path.join(corpus, path)
        try:
            texts[path] = open(full, errors="replace").read()
        except OSError:
            texts[path] = ""
    return texts[path]
def unmigratable_hazard(h):
    t = text_of(h["file"])
    # the component's inline assembly, when it is in the hazard's own file or one it includes
    m = re.search(r"inline assembly sees the physical wavefront \((?:in the macro '[^']*'\) \()?([^,()]+),", h["hint"])
    if not m:
        return False
    asm_file = m.group(1).strip()
    if os.path.normpath(asm_file) == os.path.normpath(h["file"]):
        return True
    base = os.path.basename(asm_file)
    return any(base in line for line in t.splitlines() if line.lstrip().startswith("#include"))
unmigratable = [h for h in left if unmigratable_hazard(h)]
wmma_left = [h for h in left if "WMMA fragment belongs to a whole wavefront" in h["hint"]]
w = j["wave64_fix"]
name = os.path.basename(os.path.normpath(corpus))
with open(os.path.join(out, "hazards.tsv"), "a") as f:
    f.write(f"{name}\t{j['files_analyzed']}\t{len(lane)}\t{len(lane) - len(harmless)}\t{len(fixable)}\t{len(logical)}\t"
            f"{len(left)}\t{len(unmigratable)}\t{len(harmless)}\t{w['components']}\t{w['components_fixed']}\t{len(wmma_left)}\n")
with open(os.path.join(out, "left.txt"), "a") as f:
    for h in left:
        f.write(f"{name}: {h['file']}:{h['line']}: {h['code']}{' (unmigratable)' if h in unmigratable else ' (wmma)' if h in wmma_left else ''}: "
                f"{h['message'][:100]}\n")
with open(os.path.join(out, "blocked.txt"), "a") as f:
    for b in w["blocked"]:
        f.write(f"{name}: {b}\n")
PY
done
rm -f "$OUT/analyze.json"

# Programs of NVIDIA/cuda-samples on the runtime.
samples=""
for c in "$@"; do [[ -d $c/Samples && -d $c/Common ]] && samples=$c; done
printf 'program\tresult\tdetail\n' > "$OUT/programs.tsv"
[[ -n $samples && -z ${WAVE64_HAZARDS_ONLY:-} ]] || { column -t "$OUT/hazards.tsv"; exit 0; }
PROGRAMS=${WAVE64_PROGRAMS:-"0_Introduction/simpleVoteIntrinsics 2_Concepts_and_Techniques/shfl_scan
0_Introduction/vectorAdd 0_Introduction/simpleAtomicIntrinsics 0_Introduction/simpleTemplates
0_Introduction/clock 2_Concepts_and_Techniques/scalarProd 2_Concepts_and_Techniques/threadFenceReduction
0_Introduction/fp16ScalarProduct 2_Concepts_and_Techniques/histogram 2_Concepts_and_Techniques/reduction
0_Introduction/matrixMul 2_Concepts_and_Techniques/sortingNetworks 2_Concepts_and_Techniques/scan"}
work=$OUT/work
rm -rf "$work"
mkdir -p "$work/cuda/Samples"
cp -r "$samples/Common" "$work/cuda/"
for p in $PROGRAMS; do
  [[ -d $samples/Samples/$p ]] || continue
  mkdir -p "$work/cuda/Samples/$(dirname "$p")"
  cp -r "$samples/Samples/$p" "$work/cuda/Samples/$p"
done
"$FERRY" migrate "$work/cuda" --to hip -o "$work/hip" > "$work/migrate.log" 2>&1
for p in $PROGRAMS; do
  [[ -d $work/cuda/Samples/$p ]] || continue
  srcs=$(cd "$work/cuda" && ls Samples/$p/*.cu Samples/$p/*.cpp 2>/dev/null | tr '\n' ' ')
  rep=$work/$(basename "$p").json
  (cd "$work" && timeout 1200 "$FERRY" diffrun -q --wave64 --ref-dir cuda --port-dir hip --sources $srcs \
     -I Common -I "Samples/$p" --wave64-work "$work/build-$(basename "$p")" --timeout 300 \
     --ignore '[Tt]ime|msec|[Tt]hroughput|GB/s|MB/s|Elapsed|clocks|[Dd]evice [0-9]|GPU Device|> Found|CUDA Capable|Compute Capability|multi-processors|MegaElements|took [0-9.]+ ms' \
     --report "$rep" > "$work/$(basename "$p").log" 2>&1)
  rc=$?
  verdict=$(grep -m1 -o 'verdict: [A-Z_]*' "$work/$(basename "$p").log" | cut -d' ' -f2)
  detail=$(grep -m1 -E 'error|differ|vs|failed|exit' "$work/$(basename "$p").log" | cut -c1-160 | tr '\t' ' ')
  printf '%s\t%s\t%s\n' "$p" "${verdict:-rc=$rc}" "$detail" >> "$OUT/programs.tsv"
  echo "$p: ${verdict:-rc=$rc}"
done
column -t -s$'\t' "$OUT/hazards.tsv"
column -t -s$'\t' "$OUT/programs.tsv"
