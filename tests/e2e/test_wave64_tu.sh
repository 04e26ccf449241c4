#!/usr/bin/env bash
# The wave64 fixer resolves names per translation unit (tests/wave64/tu): a corpus of standalone
# programs that define the same helper and WARP_SIZE names (app/, other/) is not one component,
# so other/'s unfixable lane math (% 16) does not block app/, and a template parameter named
# WARP_SIZE (tmpl/) refers to no file's macro. A kernel launched from a macro with a block size
# the fixer cannot evaluate (bind/, K = 32 or 256) blocks its component's warpSize form: bind/ and
# other/ are kept as logical 32-lane warps instead. app/ is then run on the
# wave64 runtime: the fixed port gives the CUDA program's sums at wave 64.
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
SRC=$(cd "$(dirname "$0")/../wave64/tu" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

cp -r "$SRC" "$work/cuda"
"$FERRY" migrate "$work/cuda" --to hip --hip-version 5.2 -o "$work/hip" >/dev/null 2>"$work/migrate.log" ||
  { cat "$work/migrate.log"; fail "migrate"; }

grep -q '#define WARP_SIZE 64' "$work/hip/app/reduce.cu" && echo "ok   app/: WARP_SIZE is per target" ||
  { fail "app/ was not fixed (blocked by another program?)"; grep -n 'WARP_SIZE' "$work/hip/app/reduce.cu" | head -3; }
grep -q '#define WARP_SIZE 64' "$work/hip/other/quarter.cu" && fail "other/ was fixed despite its % 16" ||
  echo "ok   other/: left with its diagnostic"
grep -q '#define WARP_SIZE 64' "$work/hip/bind/dispatch.cu" && fail "bind/ was fixed although a macro launches it with K threads" ||
  echo "ok   bind/: a launch inside a macro with an unknown block size blocks the warpSize form"
for f in bind/dispatch.cu other/quarter.cu; do
  grep -qF '__shfl_xor(v, o, 32 /* ferry-cuda: (none) */)' "$work/hip/$f" && echo "ok   $f: kept as logical 32-lane warps (width 32)" ||
    { fail "$f: not fixed as logical warps"; grep -n '__shfl' "$work/hip/$f"; }
done
# The reasons: of components left, and of those kept as logical 32-lane warps instead (the hint
# names what blocked the warpSize form).
reasons=$(cd "$work/cuda" && "$FERRY" analyze . --json 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
for b in j["wave64_fix"]["blocked"]: print(b)
for h in j["hazards"]: print("hint: " + h["hint"])')
grep -q "bind/dispatch.cu.*launched inside a macro" <<<"$reasons" && echo "ok   bind/: the reason names the macro launch" ||
  fail "bind/: no macro-launch reason in: $reasons"
grep -q "other/quarter.cu.*16" <<<"$reasons" && echo "ok   other/: the reason names its own % 16" ||
  fail "other/: reason missing in: $reasons"
grep -q "^app/" <<<"$reasons" && fail "app/ is blocked: $reasons"

ref=$(timeout 600 "$FERRY" wave64 run "$work/cuda/app/reduce.cu" --work "$work/ref.w64" 2>"$work/ref.err") ||
  { fail "the CUDA program at warp 32"; tail -5 "$work/ref.err"; }
port=$(timeout 600 "$FERRY" wave64 run "$work/hip/app/reduce.cu" --work "$work/port.w64" 2>"$work/port.err") ||
  { fail "the fixed HIP port at wave 64"; tail -5 "$work/port.err"; }
[[ -n $ref && $ref == "$port" ]] && echo "ok   app/ fixed port at wave 64: $port" || fail "app/: reference '$ref', port '$port'"
[[ $fails -eq 0 ]] && echo "all wave64 translation-unit cases passed" || echo "$fails failed"
exit $((fails > 0))
