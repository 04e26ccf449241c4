#!/usr/bin/env bash
# The HTML report (docs/report-schema.md) rendered in headless Chromium: migrate examples/llama_ops
# twice (two rounds), verify it when hipcc is there, write the report, load it in Chromium and
# check that the rendered DOM shows the counts of the JSON report; then take a screenshot, kept as
# an artefact in BUILD/artifacts/report.png.
set -euo pipefail
FERRY=${FERRY:?path to the ferry binary}
ROOT=${FERRY_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${FERRY_BUILD:-$ROOT/build}
PY=/usr/bin/python3
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then echo "SKIP: Debian's chromium is not installed (make deps installs it)"; exit 77; fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

rc=0
"$FERRY" migrate "$ROOT/examples/llama_ops" -o "$T/out" -q >/dev/null || rc=$?
[ "$rc" -le 1 ] || fail "ferry migrate exited $rc"
rc=0
"$FERRY" migrate "$ROOT/examples/llama_ops" -o "$T/out" -q --html "$T/migrate.html" >/dev/null || rc=$?
[ "$rc" -le 1 ] || fail "second ferry migrate exited $rc"
if command -v hipcc >/dev/null || [ -x /usr/bin/hipcc ]; then
  # verify records OUT/.ferry/verify.json; ferry status and the report show it
  "$FERRY" verify "$T/out" --arch gfx906 -j 2 --no-original-check -q >/dev/null || true
  [ -f "$T/out/.ferry/verify.json" ] || fail "verify did not record OUT/.ferry/verify.json"
  "$FERRY" status "$T/out" | grep -E '^verify: [0-9.]+% passed' || fail "ferry status does not show the verify pass rate"
else
  echo "note: hipcc not found, the report is checked without verify results"
fi
"$FERRY" report "$T/out" --format json -o "$T/report.json"
"$FERRY" report "$T/out" --format html -o "$T/report.html"
grep -qiE '(src|href)="(https?:)?//' "$T/report.html" && fail "the report refers to an external URL"

chrome() {
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$T")" "$@" 2>"$T/chromium.log"
}
chrome --dump-dom "file://$T/report.html" >"$T/dom.html" || { cat "$T/chromium.log" >&2; fail "chromium --dump-dom failed"; }

"$PY" - "$T/report.json" "$T/dom.html" <<'PY'
import json, sys
from html.parser import HTMLParser
report = json.load(open(sys.argv[1]))
m = report["migration"]
class Dom(HTMLParser):
    def __init__(self):
        super().__init__(); self.by_id = {}; self.classes = []; self.stack = []; self.text = {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a: self.by_id[a["id"]] = a
        self.classes.append((tag, a.get("class", ""), a))
        self.stack.append(a.get("id"))
    def handle_endtag(self, tag):
        if self.stack: self.stack.pop()
    def handle_data(self, data):
        for i in self.stack:
            if i: self.text[i] = self.text.get(i, "") + data
dom = Dom(); dom.feed(open(sys.argv[2]).read())
def num(i):
    assert i in dom.by_id, f"#{i} missing from the rendered DOM"
    assert dom.text.get(i, "").strip() == dom.by_id[i]["data-value"], (i, dom.text.get(i))
    return dom.by_id[i]["data-value"]
diags = m["diagnostics"]
actions = [f["action"] for f in m["files"]]
hazards = [d for d in diags if d["code"][3] in "23"]
want = {"sum-files": len(m["files"]), "sum-diagnostics": len(diags),
        "sum-errors": sum(d["severity"] == "error" for d in diags),
        "sum-warnings": sum(d["severity"] == "warning" for d in diags),
        "sum-notes": sum(d["severity"] == "note" for d in diags),
        "sum-hazards": len(hazards),
        "sum-unchanged": actions.count("unchanged") + actions.count("kept"),
        "sum-converted": sum(m["totals"]["converted"].values())}
for k, v in want.items():
    assert int(num(k)) == v, f"{k}: DOM shows {num(k)}, the JSON says {v}"
rows = [c for t, c, a in dom.classes if t == "tr" and c.split()[:1] == ["diag"]]
assert len(rows) == len(diags), f"{len(rows)} diagnostic rows in the diffs, {len(diags)} diagnostics"
hz = [c for t, c, a in dom.classes if t == "tr" and c == "hazard"]
assert len(hz) == len(hazards), (len(hz), len(hazards))
# The inline script ran: it counted the diagnostic rows and the shown files.
assert dom.by_id["diag-rows"].get("data-value") == str(len(diags)), dom.by_id["diag-rows"]
assert dom.text.get("files-shown", "").startswith(f"{len(m['files'])} of {len(m['files'])} files shown")
bars = [a for t, c, a in dom.classes if t == "rect" and c == "bar"]
assert len(report["rounds"]) == 2 and bars, "two rounds, drawn as bars"
if report["verify"]:
    s = report["verify"]["summary"]
    assert int(num("verify-passed")) == s["passed"] and int(num("verify-compiles")) == s["compiles"]
    assert num("sum-verify") == f"{100 * s['passed'] / s['compiles']:.0f}%"
print(f"DOM: {len(m['files'])} files, {len(diags)} diagnostics ({len(hazards)} hazards), "
      f"{len(report['rounds'])} rounds, verify {'shown' if report['verify'] else 'not run'}: counts match the JSON")
PY

mkdir -p "$BUILD/artifacts"
SHOT="$BUILD/artifacts/report.png"
rm -f "$SHOT"
chrome --screenshot="$SHOT" --window-size=1280,2000 --hide-scrollbars "file://$T/report.html" >/dev/null ||
  { cat "$T/chromium.log" >&2; fail "chromium --screenshot failed"; }
[ -s "$SHOT" ] || fail "no screenshot written"
head -c 8 "$SHOT" | od -An -tx1 | grep -q '89 50 4e 47' || fail "the screenshot is not a PNG"
echo "screenshot: $SHOT"
echo "PASS: test_report_html"
