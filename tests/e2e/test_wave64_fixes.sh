#!/usr/bin/env bash
# The wave64 lane-math fixes of `migrate --to hip`, proven by running: tests/wave64/fixes/kinds.cu
# (one kernel per fix kind, each warp-size-generic except for the 32-lane assumption it is named
# after) runs on the wave64 CPU runtime as CUDA with 32-lane warps (the reference), then migrated
# to HIP without the fixes (--no-wave64-fix) and with them (the default), with 64-lane wavefronts.
# Every "K<code>" line must differ from the reference without the fixes (the test program really
# has the bug on wave64) and equal it with them (the fix repairs it); at wave 32 the unfixed port
# equals the reference too (the bug is the wavefront width, not the migration).
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
SRC=$(cd "$(dirname "$0")/../wave64/fixes" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

mkdir -p "$work/cuda"
cp "$SRC/kinds.cu" "$work/cuda/"
"$FERRY" migrate "$work/cuda" --to hip --hip-version 5.2 -o "$work/unfixed" --no-wave64-fix >/dev/null 2>"$work/unfixed.log" ||
  { cat "$work/unfixed.log"; fail "migrate --no-wave64-fix"; }
"$FERRY" migrate "$work/cuda" --to hip --hip-version 5.2 -o "$work/fixed" >/dev/null 2>"$work/fixed.log" ||
  { cat "$work/fixed.log"; fail "migrate"; }

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
ref=$(run ref "$work/cuda/kinds.cu")
unfixed=$(run unfixed "$work/unfixed/kinds.cu")
unfixed32=$(run unfixed32 "$work/unfixed/kinds.cu" --wave 32)
fixed=$(run fixed "$work/fixed/kinds.cu")

[[ $(wc -l <<<"$ref") -eq 10 ]] || fail "reference: want 10 K lines, got: $ref"
for k in $(awk '{print $1}' <<<"$ref"); do
  r=$(grep "^$k " <<<"$ref")
  u=$(grep "^$k " <<<"$unfixed")
  u32=$(grep "^$k " <<<"$unfixed32")
  f=$(grep "^$k " <<<"$fixed")
  if [[ "$u" == "$r" ]]; then fail "$k: without the fixes wave 64 already equals the reference ($r): the case proves nothing"; continue; fi
  if [[ "$u32" != "$r" ]]; then fail "$k: without the fixes wave 32 gives '$u32', reference '$r'"; continue; fi
  if [[ "$f" != "$r" ]]; then fail "$k: with the fixes wave 64 gives '$f', reference '$r' (unfixed '$u')"; continue; fi
  echo "ok   $k: reference '$r', unfixed at wave 64 '$u', fixed '$f'"
done
# Every lane-math hazard of the file was fixed: none is left as a warning.
if grep -E 'warning: .*\[FRY22[0-9][0-9]\]' "$work/fixed.log"; then fail "hazards left as warnings after the fixes"; fi
[[ $fails -eq 0 ]] && echo "all wave64 fix cases passed" || echo "$fails failed"
exit $((fails > 0))
