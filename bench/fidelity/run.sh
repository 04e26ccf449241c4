#!/usr/bin/env bash
# Fidelity of CUDA->HIP migration on a public CUDA code base (issue 13): migrate the tree, compile
# every migrated translation unit for gfx906 with the real hipcc (`ferry verify`), count the
# units that compile and the failures by class, and check that migrating the output again changes
# nothing (the re-migration fixed point). With --before FERRY, the same is done with a second
# ferry binary (e.g. one built from an older commit) in the same run, for a before/after ratio.
#
#   bash bench/fidelity/run.sh CHECKOUT [--name NAME] [--subdir REL] [--only P1,P2,...]
#        [--exclude REL] [--before FERRY] [--ferry LABEL=FERRY]... [--jobs N] [--hip-version X.Y]
#        [--no-verify] [--record FILE.md] [--keep DIR]
# Binaries: `after` = $FERRY or build/ferry, plus `before` with --before; --ferry LABEL=PATH
# (repeatable) replaces that list. --keep DIR copies the migration and verify reports (and the
# migrated trees) into DIR before the temporary folder goes, for classifying failures afterwards.
#
# CHECKOUT is a checkout (or `git archive` extract) of the corpus, never modified: the part used
# (--subdir, and with --only just those files/folders under it) is copied to a temporary folder.
# Exits 0 with "SKIP:" when CHECKOUT is absent; without hipcc only the fixed-point check runs.
# Corpora used for bench/results/fidelity-*.md (fetch them yourself; their code is not ours):
#   NVIDIA/cuda-samples  --subdir Samples  (with --only: a sample of Samples/*/* plus Common)
#   ggml-org/ggml        --subdir src/ggml-cuda --exclude template-instances
#   turboderp/exllamav2  --subdir exllamav2/exllamav2_ext
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 CHECKOUT [options]" >&2; exit 2; }
CHECKOUT=$1
shift
NAME=""; SUBDIR=""; ONLY=""; EXCLUDE=""; BEFORE=""; FERRIES=(); JOBS=2; HIPV=5.2; VERIFY=1; RECORD=""; KEEP=""
while [ $# -gt 0 ]; do
  case "$1" in
    --name) NAME=$2; shift 2 ;;
    --subdir) SUBDIR=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --exclude) EXCLUDE=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    --ferry) FERRIES+=("$2"); shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --hip-version) HIPV=$2; shift 2 ;;
    --no-verify) VERIFY=0; shift ;;
    --record) RECORD=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -d "$CHECKOUT" ] || { echo "SKIP: corpus checkout $CHECKOUT not found"; exit 0; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [ ${#FERRIES[@]} -eq 0 ]; then
  FERRIES=("after=${FERRY:-$ROOT/build/ferry}")
  [ -z "$BEFORE" ] || FERRIES+=("before=$BEFORE")
fi
for lf in "${FERRIES[@]}"; do
  [ -x "${lf#*=}" ] || { echo "ferry not built: ${lf#*=}" >&2; exit 1; }
done
[ -n "$NAME" ] || NAME=$(basename "$CHECKOUT")
command -v hipcc >/dev/null || { echo "note: hipcc not installed: fixed-point check only"; VERIFY=0; }
SRC="$CHECKOUT${SUBDIR:+/$SUBDIR}"
[ -d "$SRC" ] || { echo "SKIP: $SRC not found"; exit 0; }
COMMIT=$(git -C "$CHECKOUT" rev-parse HEAD 2>/dev/null || echo "${CORPUS_COMMIT:-unknown}")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ferry-fidelity.XXXXXX")
keep_work() {
  [ -z "$KEEP" ] || { mkdir -p "$KEEP" && cp -r "$WORK"/*-migrate.* "$WORK"/*-verify.* "$WORK"/*-refix.txt "$WORK"/out-* "$KEEP"/ 2>/dev/null || true; }
  rm -rf "$WORK"
}
trap keep_work EXIT
mkdir -p "$WORK/in"
if [ -n "$ONLY" ]; then
  IFS=',' read -r -a PARTS <<<"$ONLY"
  for p in "${PARTS[@]}"; do
    [ -e "$SRC/$p" ] || { echo "--only: $SRC/$p not found" >&2; exit 1; }
    (cd "$SRC" && cp -r --parents "$p" "$WORK/in/")
  done
else
  cp -r "$SRC/." "$WORK/in/"
fi
[ -z "$EXCLUDE" ] || rm -rf "${WORK:?}/in/$EXCLUDE"

run_one() {  # LABEL FERRY
  local label=$1 ferry=$2 out="$WORK/out-$1"
  local t0=$(date +%s.%N)
  "$ferry" migrate "$WORK/in" -o "$out" --to hip --hip-version "$HIPV" --report "$WORK/$label-migrate.json" -q \
    >/dev/null 2>"$WORK/$label-migrate.err" || true
  local t1=$(date +%s.%N)
  # Fixed point: migrate the output again; nothing may change.
  "$ferry" migrate "$out" -o "$WORK/re-$label" --to hip --hip-version "$HIPV" -q >/dev/null 2>&1 || true
  (diff -rq -x .ferry "$out" "$WORK/re-$label" 2>&1 || true) | grep -v '^Only in .*: ferry$' >"$WORK/$label-refix.txt" || true
  echo "$t0 $t1" >"$WORK/$label-times"
  if [ "$VERIFY" = 1 ]; then
    nice "$ferry" verify "$out" --arch gfx906 --jobs "$JOBS" --report "$WORK/$label-verify.json" -q \
      >"$WORK/$label-verify.txt" 2>&1 || true
  fi
}
LABELS=""
for lf in "${FERRIES[@]}"; do
  run_one "${lf%%=*}" "${lf#*=}"
  LABELS="$LABELS${LABELS:+,}${lf%%=*}"
done

python3 - "$WORK" "$NAME" "$COMMIT" "$SUBDIR" "$ONLY" "$EXCLUDE" "$HIPV" "$RECORD" "$LABELS" "${FERRIES[*]}" <<'PY'
import datetime, json, os, platform, subprocess, sys
work, name, commit, subdir, only, exclude, hipv, record, labels, ferries = sys.argv[1:11]
labels = labels.split(",")
src_ext = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hip")
files = sum(1 for _, _, fs in os.walk(f"{work}/in") for f in fs if f.endswith(src_ext))
lines = []
p = lines.append
p(f"### {name}")
p("")
p(f"- corpus: `{name}` commit `{commit}`; part: `{subdir or '.'}`" + (f", only {len(only.split(','))} entries" if only else "")
  + (f", without `{exclude}`" if exclude else ""))
p(f"- source files: {files}; target: HIP {hipv}, `ferry verify --arch gfx906` with "
  + subprocess.run(["bash", "-c", "hipcc --version 2>/dev/null | grep -m1 -i 'HIP version' || echo hipcc"],
                   capture_output=True, text=True).stdout.strip())
for lf in ferries.split():
    p(f"- ferry `{lf.split('=', 1)[0]}`: `{lf.split('=', 1)[1]}`")
p("")
# verify's classes (docs/verify.md); only migration-defect is a Ferry defect to fix.
CLASSES = ["migration-defect", "diagnosed", "target-gap", "missing-dependency", "pre-existing", "unknown"]
p("| ferry | TUs | compile for gfx906 | rate | " + " | ".join(CLASSES) + " | re-migration: files changed |")
p("|---|" + "---:|" * (len(CLASSES) + 4))
res = {}
for lab in labels:
    refix = [l for l in open(f"{work}/{lab}-refix.txt").read().splitlines() if l.strip()]
    vj = f"{work}/{lab}-verify.json"
    if os.path.exists(vj):
        v = json.load(open(vj))
        s = v["summary"]
        bc = s["by_class"]
        res[lab] = v
        rate = f"{100.0 * s['passed'] / s['compiles']:.1f}%" if s["compiles"] else "-"
        p(f"| {lab} | {s['translation_units']} | {s['passed']} | {rate} | "
          + " | ".join(str(bc.get(c, 0)) for c in CLASSES) + f" | {len(refix)} |")
    else:
        p(f"| {lab} | - | - | - | " + " | ".join("-" for _ in CLASSES) + f" | {len(refix)} |")
if "after" in res and "before" in res:
    a, b = res["after"]["summary"], res["before"]["summary"]
    if b["passed"]:
        p("")
        p(f"after/before compiling units: {a['passed']}/{b['passed']} = {a['passed'] / b['passed']:.2f}x")
for lab in labels:
    if lab not in res:
        continue
    fails = [u for u in res[lab]["units"] if u["status"] != "pass"]
    if not fails:
        continue
    p("")
    p(f"{lab}: failing units (class: first error of that class)")
    p("")
    for u in fails:
        e = next((e for e in u.get("errors", []) if e["class"] == u["class"]), None)
        msg = (e["message"][:140] if e else "").replace("|", "\\|")
        at = ""
        if e and e.get("original"):
            at = f" at {e['original']['file']}:{e['original']['line']}"
        p(f"- `{u['file']}` {u['class']}{at}: {msg}")
    refix = [l for l in open(f"{work}/{lab}-refix.txt").read().splitlines() if l.strip()]
    for l in refix[:10]:
        p(f"- re-migration changed: {l}")
text = "\n".join(lines) + "\n"
print(text)
if record:
    head = "" if os.path.exists(record) else (
        f"# Fidelity on public CUDA code ({datetime.date.today()})\n\nMachine: {platform.node()}, "
        f"{os.cpu_count()} cores shared; command per corpus below (bench/fidelity/run.sh).\n\n")
    with open(record, "a") as f:
        f.write(head + text + "\n")
PY
