#!/usr/bin/env bash
# `make run`: the main job on the bundled example.
#   1. scan the CUDA project (what it uses, what HIP supports, effort),
#   2. migrate it to HIP out of tree (out/llama_ops-hip), print the summary and diagnostics,
#   3. analyze it for wave64 hazards on gfx906 (Hygon DCU / MI50),
#   4. verify: compile every migrated translation unit with Debian's hipcc for gfx906; files that
#      need hipBLAS or RCCL (not shipped by Debian) are reported as missing dependencies.
set -uo pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FERRY="$ROOT/$BUILD/ferry"
IN="$ROOT/examples/llama_ops"
OUT="$ROOT/out/llama_ops-hip"
has() { "$FERRY" "$1" --help >/dev/null 2>&1; }

echo "== ferry scan examples/llama_ops"
if has scan; then "$FERRY" scan "$IN" || true; fi

echo
echo "== ferry migrate examples/llama_ops --to hip -o out/llama_ops-hip"
rm -rf "$OUT"
"$FERRY" migrate "$IN" --to hip -o "$OUT" --report "$ROOT/out/llama_ops-migrate.json"
rc=$?
[ $rc -le 1 ] || exit $rc

if has analyze; then
  echo
  echo "== ferry analyze examples/llama_ops --target gfx906"
  "$FERRY" analyze "$IN" --target gfx906 || true
fi

echo
echo "== ferry verify out/llama_ops-hip --arch gfx906"
if has verify; then
  "$FERRY" verify "$OUT" --arch gfx906 --jobs 2
  rc=$?
else
  rc=0
  for f in "$OUT"/src/*.cu; do
    if hipcc -x hip -c --offload-arch=gfx906 -I"$OUT/include" "$f" -o /tmp/ferry-run.o 2>/tmp/ferry-run.err; then
      echo "PASS  ${f#$OUT/}"
    elif grep -q "file not found" /tmp/ferry-run.err; then
      echo "DEP   ${f#$OUT/}: $(grep -m1 'file not found' /tmp/ferry-run.err | sed 's/.*fatal error: //')"
    else
      echo "FAIL  ${f#$OUT/}"; sed -n 1,5p /tmp/ferry-run.err; rc=1
    fi
  done
fi
echo
echo "Migrated tree: out/llama_ops-hip   JSON report: out/llama_ops-migrate.json"
exit $rc
