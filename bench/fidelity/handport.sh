#!/usr/bin/env bash
# Hand port against Ferry's automatic port (issue 13's core claim): for a project that carries a
# CUDA original and an expert's HIP port of the same programs, compile both for gfx906 with the
# same tool (`ferry verify --arch gfx906`, every translation unit with the real hipcc) and print,
# per program, whether the hand port compiles and whether Ferry's port of the CUDA original does.
#
#   bash bench/fidelity/handport.sh CHECKOUT [--cuda REL] [--hip REL] [--common REL] [--only P1,P2]
#        [--jobs N] [--hip-version X.Y] [--keep DIR]
# Defaults fit ROCm/HIP-Examples at 77e50d42 (the last commit with rodinia_3.0/, which holds the
# Rodinia 3.0 CUDA originals in cuda/ and AMD's HIP ports in hip/, each with a cusrc/ copy of the
# CUDA source that is not part of the port): --cuda rodinia_3.0/cuda --hip rodinia_3.0/hip
# --common rodinia_3.0/common. A program is a folder of CUDA that has a folder of the same name
# under HIP; it "compiles" when every translation unit of it compiles.
# CHECKOUT is never modified; exits 0 with "SKIP:" when it is absent or hipcc is not installed.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 CHECKOUT [options]" >&2; exit 2; }
CHECKOUT=$1
shift
CUDA=rodinia_3.0/cuda; HIP=rodinia_3.0/hip; COMMON=rodinia_3.0/common; ONLY=""; JOBS=2; HIPV=5.2; KEEP=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cuda) CUDA=$2; shift 2 ;;
    --hip) HIP=$2; shift 2 ;;
    --common) COMMON=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --hip-version) HIPV=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -d "$CHECKOUT/$CUDA" ] && [ -d "$CHECKOUT/$HIP" ] || { echo "SKIP: $CHECKOUT/$CUDA or $CHECKOUT/$HIP not found"; exit 0; }
command -v hipcc >/dev/null || { echo "SKIP: hipcc not installed"; exit 0; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FERRY=${FERRY:-$ROOT/build/ferry}
[ -x "$FERRY" ] || { echo "ferry not built: $FERRY" >&2; exit 1; }
COMMIT=$(git -C "$CHECKOUT" rev-parse HEAD 2>/dev/null || echo "${CORPUS_COMMIT:-unknown}")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ferry-handport.XXXXXX")
finish() {
  [ -z "$KEEP" ] || { mkdir -p "$KEEP" && cp -r "$WORK"/*.json "$WORK"/hand "$WORK"/ferry "$KEEP"/ 2>/dev/null || true; }
  rm -rf "$WORK"
}
trap finish EXIT
PROGRAMS=()
for d in "$CHECKOUT/$CUDA"/*/; do
  p=$(basename "$d")
  [ -d "$CHECKOUT/$HIP/$p" ] || continue
  if [ -n "$ONLY" ] && [[ ",$ONLY," != *",$p,"* ]]; then continue; fi
  PROGRAMS+=("$p")
done
# Same layout on both sides: PROGRAM/ beside common/, as in the checkout (../../common stays valid).
mkdir -p "$WORK/hand/hip" "$WORK/cuda-in/cuda"
for p in "${PROGRAMS[@]}"; do
  cp -r "$CHECKOUT/$HIP/$p" "$WORK/hand/hip/"
  rm -rf "$WORK/hand/hip/$p/cusrc"  # the CUDA copy kept beside the port, not part of it
  cp -r "$CHECKOUT/$CUDA/$p" "$WORK/cuda-in/cuda/"
done
if [ -n "$COMMON" ] && [ -d "$CHECKOUT/$COMMON" ]; then
  cp -r "$CHECKOUT/$COMMON" "$WORK/hand/common"
  cp -r "$CHECKOUT/$COMMON" "$WORK/cuda-in/common"
fi
"$FERRY" migrate "$WORK/cuda-in" -o "$WORK/ferry" --to hip --hip-version "$HIPV" -q >/dev/null 2>"$WORK/migrate.err" || true
nice "$FERRY" verify "$WORK/hand" --arch gfx906 --jobs "$JOBS" --no-original-check --no-record \
  --report "$WORK/hand.json" -q >/dev/null 2>&1 || true
nice "$FERRY" verify "$WORK/ferry" --arch gfx906 --jobs "$JOBS" --no-original-check --no-record \
  --report "$WORK/ferry.json" -q >/dev/null 2>&1 || true

python3 - "$WORK" "$COMMIT" "$CUDA" "$HIP" "$HIPV" "${PROGRAMS[@]}" <<'PY'
import json, os, sys
work, commit, cuda, hip, hipv, *programs = sys.argv[1:]
def units(side, top):
    path = f"{work}/{side}.json"
    if not os.path.exists(path):
        return {}
    per = {}
    for u in json.load(open(path))["units"]:
        parts = u["file"].split("/")
        if len(parts) > 1 and parts[0] == top:
            per.setdefault(parts[1], []).append(u)
    return per
hand, ferry = units("hand", "hip"), units("ferry", "cuda")
def cell(us):
    if not us:
        return "no TU", None
    ok = sum(u["status"] == "pass" for u in us)
    return f"{ok}/{len(us)}", ok == len(us)
print(f"hand port vs Ferry, commit `{commit}` ({cuda} → Ferry, HIP {hipv}; {hip} by hand), gfx906\n")
print("| program | hand port TUs compiling | hand port compiles | Ferry TUs compiling | Ferry compiles | first Ferry failure |")
print("|---|---:|:---:|---:|:---:|---|")
tot = {"hand": 0, "ferry": 0, "both": 0, "ferry_only": 0, "hand_only": 0}
for p in programs:
    hc, hok = cell(hand.get(p, []))
    fc, fok = cell(ferry.get(p, []))
    first = ""
    for u in ferry.get(p, []):
        if u["status"] != "pass":
            e = next(iter(u.get("errors", [])), None)
            first = f"`{u['file'].split('/', 2)[-1]}` {u.get('class', '')}: " + (e["message"][:90] if e else "")
            break
    tot["hand"] += bool(hok); tot["ferry"] += bool(fok)
    tot["both"] += bool(hok and fok); tot["ferry_only"] += bool(fok and not hok); tot["hand_only"] += bool(hok and not fok)
    mark = lambda b: "-" if b is None else ("yes" if b else "no")
    print(f"| {p} | {hc} | {mark(hok)} | {fc} | {mark(fok)} | {first.replace('|', '/')} |")
print(f"\nprograms: {len(programs)}; hand port compiles: {tot['hand']}; Ferry compiles: {tot['ferry']}; "
      f"both: {tot['both']}; Ferry only: {tot['ferry_only']}; hand only: {tot['hand_only']}")
PY
