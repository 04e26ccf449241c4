#!/usr/bin/env bash
# bench/wave64_device_bundle.sh and the run script it bundles (bench/wave64_device_run.sh): a bundle
# made from a ferry prefix and a small corpus (an absent corpus skipped), what its tarballs hold (a
# program's data/ folder in, its documents and an unrelated large file out), then run.sh from the
# bundle alone: the smoke test, the pool, and the six output files with the corpus's verdicts.
# Also the pool's queue order: FIRST's alternatives in their order, LAST last.
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
here=$(cd "$(dirname "$0")" && pwd)
bench="$here/../../bench"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() { # check NAME COMMAND...
  if "${@:2}" >/dev/null 2>&1; then echo "ok   $1"; else
    echo "FAIL $1"
    fails=$((fails + 1))
  fi
}

python3 - "$bench" <<'PY' || fails=$((fails + 1))
import re, sys
sys.path.insert(0, sys.argv[1])
import wave64_suite_pool as pool
assert pool.alternatives(r"a$|(b|c)/x|[|]d|e\|f") == ["a$", "(b|c)/x", "[|]d", r"e\|f"], pool.alternatives(r"a$|(b|c)/x|[|]d|e\|f")
first = [re.compile(a) for a in pool.alternatives(r"C/slow$|C/(long|longer)$")]
keys = ["C/a", "C/longer", "C/z", "C/slow", "C/long"]
order = sorted(keys, key=lambda k: pool.queue_rank(k, first, re.compile(r"/z$")))
assert order == ["C/slow", "C/longer", "C/long", "C/a", "C/z"], order
print("ok   pool queue order: FIRST's alternatives in order, LAST last")
PY

# A prefix as `cmake --install` lays it out (the binary is the one under test).
mkdir -p "$work/prefix/bin" "$work/prefix/lib/ferry/wave64"
ln -s "$(cd "$(dirname "$FERRY")" && pwd)/$(basename "$FERRY")" "$work/prefix/bin/ferry"
c="$work/corpora/mini"
mkdir -p "$c/progs/warp_reduce/data" "$c/progs/warp_reduce/doc" "$c/other"
cp "$here/../wave64/suite/warp_reduce/"* "$c/progs/warp_reduce/"
echo "input" >"$c/progs/warp_reduce/data/input.txt"
echo "%PDF" >"$c/progs/warp_reduce/doc/notes.pdf"
head -c 600000 /dev/zero >"$c/other/big.bin"
out=$(bash "$bench/wave64_device_bundle.sh" "$work/prefix" "$work/bundle" "$c" "$work/corpora/absent" 2>&1)
check bundle-made test -f "$work/bundle/run.sh" -a -f "$work/bundle/smoke.cu" -a -f "$work/bundle/sizes.txt" \
  -a -f "$work/bundle/wave64_suite_pool.py" -a -f "$work/bundle/ferry.tar.gz"
check absent-corpus-skipped grep -q "skip: corpus .*absent is absent" <<<"$out"
check corpora-txt test "$(cat "$work/bundle/corpora.txt")" = mini
members=$(tar -tJf "$work/bundle/corpora.tar.xz")
check corpus-sources grep -qx "mini/progs/warp_reduce/warp_reduce.cu" <<<"$members"
check corpus-data-folder grep -qx "mini/progs/warp_reduce/data/input.txt" <<<"$members"
check corpus-no-documents bash -c '! grep -q "notes.pdf\|big.bin" <<<"$0"' "$members"
check ferry-prefix bash -c 'tar -tzf "$0" | grep -qx "prefix/bin/ferry"' "$work/bundle/ferry.tar.gz"
check bad-prefix bash -c '! bash "$0" /nonexistent "$1/b2" "$2" 2>/dev/null' "$bench/wave64_device_bundle.sh" "$work" "$c"

# The bundle's run, from the bundle alone (here, a small budget).
out=$(cd "$work" && OUT="$work/out" WORK="$work/run" JOBS=2 BUDGET=240 timeout 300 bash "$work/bundle/run.sh" 2>&1)
for f in env.txt run.log summary.tsv tables.txt results.json logs.tar.gz; do
  check "output-$f" test -s "$work/out/$f"
done
check no-failed test ! -e "$work/out/FAILED.txt"
check smoke grep -q "^smoke: ok" <<<"$out"
check verdict grep -qE "^progs/warp_reduce +SAME " "$work/out/tables.txt"
check summary grep -qP "^mini\t1\t1\t" "$work/out/summary.tsv"
check results-json python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["mini"]["counts"] == {"same": 1}, j' \
  "$work/out/results.json"
check logs-without-builds bash -c 'tar -tzf "$0" | grep -q "programs/progs_warp_reduce.json" && ! tar -tzf "$0" | grep -q "/build/\|/port/"' \
  "$work/out/logs.tar.gz"
[[ $fails -eq 0 ]] || { echo "$out" | tail -30; exit 1; }
