#!/usr/bin/env bash
# Library-heavy CUDA corpora against the real ROCm library headers (issue #29): each corpus is
# migrated to HIP 5.2, then the translation units whose output includes a ROCm library header
# (hipCUB, rocThrust, hipBLAS(Lt), hipFFT, hipSOLVER, RCCL, MIOpen, rocWMMA: the units
# --rocm-include can change) are verified for gfx906 without the headers and with them; the
# failure classes of both runs (no original check: nvcc is not run, so nothing is "pre-existing"), and the inline-PTX and compat counts of the migration, are printed
# as a Markdown table (docs/verify.md has the classes).
#
#   bash bench/libraries_bench.sh --rocm-include DEST/5.3/include [--ferry BIN] [--max-units N] \
#        [--define NAME[=V]]... NAME=CHECKOUT[/SUBDIR] ...
# (--define goes to every verify, e.g. GGML_USE_HIP, the define ggml's HIP build gives; --max-units 0: all)
#   e.g. cuda-samples=/tmp/corpora/cuda-samples/Samples ggml=/tmp/corpora/ggml/src/ggml-cuda
#
# Checkouts are never part of Ferry: pass their paths; a missing one is skipped with a note, and
# without --rocm-include (or FERRY_ROCM_INCLUDE) the whole bench is skipped.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FERRY=${FERRY:-$ROOT/build/ferry}
ROCM=${FERRY_ROCM_INCLUDE:-}
MAX=10
JOBS=2
CORPORA=()
DEFINES=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rocm-include) ROCM=$2; shift 2 ;;
    --ferry) FERRY=$2; shift 2 ;;
    --max-units) MAX=$2; shift 2 ;;
    --define) DEFINES+=(--define "$2"); shift 2 ;;
    -j) JOBS=$2; shift 2 ;;
    *=*) CORPORA+=("$1"); shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
export PATH="$PATH:/usr/local/cuda/bin"
command -v hipcc >/dev/null || { echo "SKIP: hipcc not installed"; exit 0; }
[ -n "$ROCM" ] || { echo "SKIP: no --rocm-include (scripts/rocm-headers.sh DEST 5.3)"; exit 0; }
[ -x "$FERRY" ] || { echo "ferry not built: $FERRY" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ferry-libraries-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
LIBS='#[[:space:]]*include[[:space:]]*[<"](hipcub/|thrust/|hipblas|hipblaslt/|hipfft|hipsolver|rccl|miopen/|rocwmma/)'

echo "| corpus | units with a ROCm library header | without headers: passed / classes | with headers: passed / classes | PTX rewritten (FRY1311) / left (FRY1003) | fp16 header added (FRY1310) | compat headers (FRY1302) |"
echo "|---|---:|---|---|---:|---:|---:|"
for spec in "${CORPORA[@]}"; do
  name=${spec%%=*}
  src=${spec#*=}
  if [ ! -d "$src" ]; then
    echo "| $name | skipped: $src is absent | | | | | |"
    continue
  fi
  out="$WORK/$name"
  "$FERRY" migrate "$src" -o "$out" --to hip --hip-version 5.2 >"$WORK/$name.migrate.log" 2>&1 || true
  count() { grep -c "\[$1\]" "$WORK/$name.migrate.log" || true; }
  mapfile -t units < <(cd "$out" && grep -rlE --include='*.cu' --include='*.hip' --include='*.cpp' --include='*.cc' \
    "$LIBS" . | sed 's|^\./||' | sort | { if [ "$MAX" -gt 0 ]; then head -n "$MAX"; else cat; fi; })
  only=()
  for u in "${units[@]}"; do only+=(--only "$u"); done
  if [ ${#units[@]} -eq 0 ]; then
    echo "| $name | 0 | | | $(count FRY1311) / $(count FRY1003) | $(count FRY1310) | $(count FRY1302) |"
    continue
  fi
  env -u FERRY_ROCM_INCLUDE "$FERRY" verify "$out" --arch gfx906 -j "$JOBS" --no-record --no-original-check -q "${only[@]}" \
    ${DEFINES[@]+"${DEFINES[@]}"} --report "$WORK/$name.without.json" >/dev/null 2>&1 || true
  "$FERRY" verify "$out" --arch gfx906 -j "$JOBS" --no-record --no-original-check -q "${only[@]}" --rocm-include "$ROCM" ${DEFINES[@]+"${DEFINES[@]}"} \
    --report "$WORK/$name.with.json" >/dev/null 2>&1 || true
  summary() {
    python3 - "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
cls = ", ".join(f"{k} {v}" for k, v in sorted(s["by_class"].items()))
print(f"{s['passed']}/{s['compiles']}" + (f" ({cls})" if cls else ""))
PY
  }
  echo "| $name | ${#units[@]} | $(summary "$WORK/$name.without.json") | $(summary "$WORK/$name.with.json") |" \
    "$(count FRY1311) / $(count FRY1003) | $(count FRY1310) | $(count FRY1302) |"
  # Every failure with the headers, for classification by hand.
  python3 - "$WORK/$name.with.json" "$name" >&2 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for u in r["units"]:
    if u["status"] == "pass":
        continue
    e = next((e for e in u.get("errors", []) if e.get("class") == u["class"]), (u.get("errors") or [{}])[0])
    print(f"{sys.argv[2]}: {u['file']}: {u['class']}: {e.get('message', '')[:160]} [{e.get('library', '')}]")
PY
done
