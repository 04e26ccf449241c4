#!/usr/bin/env bash
# `ferry verify` wall time per translation unit and the speed-up of --jobs 2 over --jobs 1,
# both measured in this run on the same migrated corpus: examples/llama_ops (11 units; the ones
# that need hipBLAS/RCCL stop at the missing header), tests/e2e/verify_cases/defect (2 units of
# real device code, migrated with the built-in rules, so both pass) and the three examples/broken
# cases, for gfx906 and gfx90a. Original checks (nvcc) run too, uncached (--no-cache), so both runs do the same work.
#   bash bench/verify_bench.sh [BUILD] [--reps N] [--record FILE.md]
set -euo pipefail
BUILD=${1:-build}
shift || true
REPS=3
RECORD=""
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) REPS=$2; shift 2 ;;
    --record) RECORD=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FERRY=${FERRY:-$ROOT/$BUILD/ferry}
export PATH="$PATH:/usr/local/cuda/bin"
command -v hipcc >/dev/null || { echo "SKIP: hipcc not installed"; exit 0; }
[ -x "$FERRY" ] || { echo "ferry not built: $FERRY" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ferry-verify-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

mkdir -p "$WORK/in/llama_ops" "$WORK/in/broken"
(cd "$ROOT/examples/llama_ops" && find . -type d \( -name 'build*' -o -name CMakeFiles \) -prune -o -type f -print0 |
   xargs -0 -I{} cp --parents {} "$WORK/in/llama_ops/")
for c in missing_hip_library typo no_hip_equivalent; do
  mkdir -p "$WORK/in/broken/$c" && cp "$ROOT/examples/broken/$c/kernel.cu" "$WORK/in/broken/$c/"
done
cp -r "$ROOT/tests/e2e/verify_cases/defect/src" "$WORK/in/defect"
"$FERRY" migrate "$WORK/in" -o "$WORK/out" -q >/dev/null || true

ARCH=gfx906,gfx90a
for rep in $(seq 1 "$REPS"); do
  for j in 1 2; do
    "$FERRY" verify "$WORK/out" --arch $ARCH --jobs $j --no-cache --report "$WORK/j$j-r$rep.json" >/dev/null || true
  done
done

python3 - "$WORK" "$REPS" "$ARCH" "$RECORD" "$FERRY" <<'PY'
import json, sys, os, platform, subprocess, datetime, statistics
work, reps, arch, record, ferry = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
runs = {j: [json.load(open(f"{work}/j{j}-r{r}.json")) for r in range(1, reps + 1)] for j in (1, 2)}
r0 = runs[1][0]
tus, compiles = r0["summary"]["translation_units"], r0["summary"]["compiles"]
walls = {j: [r["summary"]["wall_seconds"] for r in runs[j]] for j in (1, 2)}
med = {j: statistics.median(walls[j]) for j in (1, 2)}
lines = []
p = lines.append
p(f"corpus: {tus} translation units x {arch} = {compiles} compiles; classes {r0['summary']['by_class']}, "
  f"{r0['summary']['passed']} passed; {len(r0['original_checks'])} original checks (nvcc)")
p("")
p("| jobs | wall s (median of %d) | runs | s per unit (wall / units) | s per compile | speed-up vs jobs 1 |" % reps)
p("|---:|---:|---|---:|---:|---:|")
for j in (1, 2):
    p(f"| {j} | {med[j]:.2f} | {', '.join(f'{w:.2f}' for w in walls[j])} | {med[j]/tus:.3f} | "
      f"{med[j]/compiles:.3f} | {med[1]/med[j]:.2f}x |")
p("")
p("per unit, jobs 1 (first run): compile seconds per arch")
p("")
p("| unit | " + " | ".join(arch.split(",")) + " | result |")
p("|---|" + "---:|" * len(arch.split(",")) + "---|")
by = {}
for u in r0["units"]:
    by.setdefault(u["file"], {})[u["arch"]] = u
for f in sorted(by):
    row = by[f]
    res = {u["status"] if u["status"] == "pass" else u["class"] for u in row.values()}
    p(f"| {f} | " + " | ".join(f"{row[a]['seconds']:.2f}" for a in arch.split(",")) + f" | {', '.join(sorted(res))} |")
text = "\n".join(lines)
print(text)
if record:
    cpu = "unknown CPU"
    for l in open("/proc/cpuinfo"):
        if l.startswith("model name"): cpu = l.split(":", 1)[1].strip(); break
    hip = subprocess.run(["hipcc", "--version"], capture_output=True, text=True).stdout.splitlines()
    hip = next((l for l in hip if "HIP version" in l), "")
    with open(record, "w") as fh:
        fh.write(f"# ferry verify: wall time per translation unit, --jobs 2 vs --jobs 1 ({datetime.date.today()})\n\n")
        fh.write(f"- machine: {platform.node() or 'host'}, {cpu}, {os.cpu_count()} CPUs visible (shared with other builds)\n")
        fh.write(f"- toolchain: Debian hipcc ({hip.strip()}), nvcc for original checks\n")
        fh.write(f"- command: `bash bench/verify_bench.sh BUILD --reps {reps}` "
                 f"(runs `ferry verify OUT --arch {arch} --jobs N --no-cache`)\n\n")
        fh.write(text + "\n")
    print(f"\nrecorded in {record}")
PY
