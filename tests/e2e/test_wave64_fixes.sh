#!/usr/bin/env bash
# The wave64 lane-math fixes of `migrate --to hip`, proven by running: tests/wave64/fixes/kinds.cu,
# logical.cu and wmma.cu
# (one kernel per fix kind, each warp-size-generic except for the 32-lane assumption it is named
# after) runs on the wave64 CPU runtime as CUDA with 32-lane warps (the reference), then migrated
# to HIP without the fixes (--no-wave64-fix) and with them (the default), with 64-lane wavefronts.
# Every "K<code>" line must differ from the reference without the fixes (the test program really
# has the bug on wave64) and equal it with them (the fix repairs it); at wave 32 the unfixed port
# equals the reference too (the bug is the wavefront width, not the migration), and for the
# logical-warp and WMMA cases so does the fixed port at wave 32. wmma.cu runs on the runtime's
# collective model of WMMA fragments (runtime/wave64/include/wave64/wmma.h).
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
SRC=$(cd "$(dirname "$0")/../wave64/fixes" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

run() {  # run NAME FILE [args]: the program's K lines
  local name=$1 file=$2
  shift 2
  local out
  if ! out=$(timeout 600 "$FERRY" wave64 run "$file" --work "$work/$name.w64" "$@" 2>"$work/$name.err"); then
    fail "$name: the program failed"
    sed 's/^/    /' "$work/$name.err" | tail -20
  fi
  grep '^K' <<<"$out"
}
# kinds.cu: one kernel per fix kind of the warpSize form; logical.cu: components fixed as logical
# 32-lane warps (analysis/wave64_fix.h); wmma.cu: WMMA components fixed as one CUDA warp per
# wavefront with doubled blocks.
# Each is migrated as a project of its own.
for prog in kinds:10 logical:4 wmma:3; do
  base=${prog%%:*}
  want=${prog##*:}
  w=$work/$base
  mkdir -p "$w/cuda"
  cp "$SRC/$base.cu" "$w/cuda/"
  "$FERRY" migrate "$w/cuda" --to hip --hip-version 5.2 -o "$w/unfixed" --no-wave64-fix >/dev/null 2>"$w/unfixed.log" ||
    { cat "$w/unfixed.log"; fail "$base: migrate --no-wave64-fix"; }
  "$FERRY" migrate "$w/cuda" --to hip --hip-version 5.2 -o "$w/fixed" >/dev/null 2>"$w/fixed.log" ||
    { cat "$w/fixed.log"; fail "$base: migrate"; }
  # logical.cu is fixed as logical warps (not by the warpSize form).
  if [[ $base == logical ]] && ! grep -q 'kept as 32-lane logical warps' "$w/fixed.log"; then
    fail "logical: not fixed as logical warps"
  fi
  if [[ $base == wmma ]] && ! grep -q 'one CUDA warp per 64-lane wavefront' "$w/fixed.log"; then
    fail "wmma: not fixed as one warp per wavefront"
  fi
  # Every lane-math hazard of the file was fixed: none is left as a warning.
  if grep -E 'warning: .*\[FRY22[0-9][0-9]\]' "$w/fixed.log"; then fail "$base: hazards left as warnings after the fixes"; fi
  ref=$(run "$base.ref" "$w/cuda/$base.cu")
  unfixed=$(run "$base.unfixed" "$w/unfixed/$base.cu")
  unfixed32=$(run "$base.unfixed32" "$w/unfixed/$base.cu" --wave 32)
  fixed=$(run "$base.fixed" "$w/fixed/$base.cu")
  f_ref=$ref
  # logical warps keep NVIDIA's semantics at any wave size; the warpSize form's constants are
  # the gfx906 profile's 64 under __HIP_PLATFORM_AMD__ (kinds.cu's K2204 would differ at 32)
  fixed32=$f_ref
  [[ $base == logical || $base == wmma ]] && fixed32=$(run "$base.fixed32" "$w/fixed/$base.cu" --wave 32)
  [[ $(wc -l <<<"$ref") -eq $want ]] || fail "$base reference: want $want K lines, got: $ref"
  for k in $(awk '{print $1}' <<<"$ref"); do
    r=$(grep "^$k " <<<"$ref")
    u=$(grep "^$k " <<<"$unfixed")
    u32=$(grep "^$k " <<<"$unfixed32")
    f=$(grep "^$k " <<<"$fixed")
    f32=$(grep "^$k " <<<"$fixed32")
    if [[ "$u" == "$r" ]]; then fail "$k: without the fixes wave 64 already equals the reference ($r): the case proves nothing"; continue; fi
    if [[ "$u32" != "$r" ]]; then fail "$k: without the fixes wave 32 gives '$u32', reference '$r'"; continue; fi
    if [[ "$f" != "$r" ]]; then fail "$k: with the fixes wave 64 gives '$f', reference '$r' (unfixed '$u')"; continue; fi
    if [[ "$f32" != "$r" ]]; then fail "$k: with the fixes wave 32 gives '$f32', reference '$r'"; continue; fi
    echo "ok   $k: reference '$r', unfixed at wave 64 '$u', fixed '$f'"
  done
done
[[ $fails -eq 0 ]] && echo "all wave64 fix cases passed" || echo "$fails failed"
exit $((fails > 0))
