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
# Results: OUT_DIR/hazards.tsv, OUT_DIR/programs.tsv; summarised in bench/results/wave64-*.md.
set -u
FERRY=${1:?usage: wave64_corpus.sh FERRY OUT_DIR CORPUS...}
OUT=${2:?}
shift 2
mkdir -p "$OUT"
printf 'corpus\tfiles\tlane_math\tin_components\tfixed\tleft\tno_warp_op\tcomponents\tcomponents_fixed\n' > "$OUT/hazards.tsv"
: > "$OUT/blocked.txt"
for c in "$@"; do
  [[ -d $c ]] || { echo "skip: $c is absent"; continue; }
  "$FERRY" analyze "$c" --json > "$OUT/analyze.json" 2>/dev/null
  python3 - "$c" "$OUT" <<'PY'
import json, os, sys
corpus, out = sys.argv[1], sys.argv[2]
j = json.load(open(os.path.join(out, "analyze.json")))
lane = [h for h in j["hazards"] if h["code"].startswith("FRY22") and h["code"] != "FRY2206"]
harmless = [h for h in lane if "no warp operation reaches" in h["message"]]
fixable = [h for h in lane if "fixable automatically" in h["hint"]]
left = len(lane) - len(harmless) - len(fixable)
w = j["wave64_fix"]
name = os.path.basename(os.path.normpath(corpus))
with open(os.path.join(out, "hazards.tsv"), "a") as f:
    f.write(f"{name}\t{j['files_analyzed']}\t{len(lane)}\t{len(lane) - len(harmless)}\t{len(fixable)}\t{left}\t"
            f"{len(harmless)}\t{w['components']}\t{w['components_fixed']}\n")
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
[[ -n $samples ]] || { column -t "$OUT/hazards.tsv"; exit 0; }
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
