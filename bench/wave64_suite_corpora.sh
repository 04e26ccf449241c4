#!/usr/bin/env bash
# ferry diffrun --wave64 --suite over public corpora (issue 31): for each checkout given, the
# programs whose sources use warp operations (shuffles, votes, ballots, warpSize, cooperative
# groups, match/reduce) are listed, and the suite runs them: CUDA corpora as the original at
# warp 32 against its HIP migration at wave 64; HIP corpora (a folder name containing "rocm" or
# "HIP", or HIP=1) against themselves at wave 32 vs 64, every program with a kernel listed (at
# wave 32 against 64 any kernel can show a lane-width assumption). Per corpus: OUT/NAME/results.{json,html}
# and a line of counts in OUT/summary.tsv. A checkout that is absent is skipped.
# Usage: bench/wave64_suite_corpora.sh FERRY OUT CORPUS...   (JOBS=2 TIMEOUT=120 by default)
# CPU_TIMEOUT=S limits each run to S seconds of CPU time (diffrun --cpu-timeout) instead, with
# TIMEOUT as a wall-clock backstop: on a shared, loaded machine a wall-clock limit measures the load.
# ONLY=REGEX runs only the program folders whose path (relative to the corpus) matches (Python re,
# searched); OUT/NAME/list.txt still lists every folder, so that wave64_suite_summary.py counts the
# others with an earlier run's verdict (--old). A corpus with no folder matching is skipped.
set -u
FERRY=${1:?usage: wave64_suite_corpora.sh FERRY OUT CORPUS...}
OUT=${2:?}
shift 2
JOBS=${JOBS:-2}
TIMEOUT=${TIMEOUT:-120}
CPU_TIMEOUT=${CPU_TIMEOUT:-}
ONLY=${ONLY:-}
mkdir -p "$OUT"
[[ -f $OUT/summary.tsv ]] || printf 'corpus\tprograms\tsame\tdifferent\tboth_failed\ttimeout\tbuild_failed\tunsupported\tnot_runnable\tseconds\n' > "$OUT/summary.tsv"
# Timings, and the lines that describe the device: both sides run on the runtime's gfx906 model
# (diffrun --device-model, default), but the device's name carries the warp size, and a line that
# prints the warp size (rocm-examples' "Warp size: 64") differs by design too.
HERE=$(cd "$(dirname "$0")" && pwd)
POOL=$HERE/wave64_suite_pool.py   # the program list and the --ignore pattern are defined there
IGNORE=${IGNORE:-$(python3 "$POOL" --ignore)}
for c in "$@"; do
  [[ -d $c ]] || { echo "skip: $c is absent"; continue; }
  name=$(basename "$c")
  mkdir -p "$OUT/$name"
  # Program folders (a source with main) whose sources use a warp operation.
  python3 "$POOL" --list "$c" > "$OUT/$name/list.txt"
  run_list=$OUT/$name/list.txt
  if [[ -n $ONLY ]]; then
    run_list=$OUT/$name/run-list.txt
    python3 -c 'import re, sys
for l in open(sys.argv[1]):
    if re.search(sys.argv[2], l.strip()): print(l.strip())' "$OUT/$name/list.txt" "$ONLY" > "$run_list"
    [[ -s $run_list ]] || { echo "skip: no folder of $name matches ONLY"; continue; }
  fi
  hip=${HIP:-}
  [[ -z $hip && ( $name == *rocm* || $name == *HIP* ) ]] && hip=1
  extra=()
  # HIP corpora (rocm-examples) are written for C++20 (std::span, ranges), set in their CMake.
  [[ -n $hip ]] && extra=(--ref-api hip --ref-wave 32 --wave64-flag=--std=gnu++20)
  [[ -n $CPU_TIMEOUT ]] && extra+=(--cpu-timeout "$CPU_TIMEOUT")
  start=$(date +%s)
  "$FERRY" diffrun --wave64 --suite "$c" --list "$run_list" --results "$OUT/$name" -j "$JOBS" \
    --timeout "$TIMEOUT" --ignore "$IGNORE" -q "${extra[@]}" \
    > "$OUT/$name/table.txt" 2> "$OUT/$name/stderr.txt"
  secs=$(( $(date +%s) - start ))
  python3 - "$OUT/$name/results.json" "$name" "$secs" >> "$OUT/summary.tsv" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
c = j["counts"]
print("\t".join([sys.argv[2], str(len(j["programs"]))] + [str(c.get(k, 0)) for k in
      ["same", "different", "both-failed", "timeout", "build-failed", "unsupported", "not-runnable"]] +
      [sys.argv[3]]))
PY
  tail -1 "$OUT/$name/table.txt"
done
