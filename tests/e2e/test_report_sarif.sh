#!/usr/bin/env bash
# SARIF 2.1.0 (docs/report-schema.md): `ferry migrate --sarif` and `ferry report --format sarif`
# over examples/llama_ops produce the same log, it is valid against our SARIF 2.1.0 subset schema
# (tests/data/sarif-2.1.0-subset.schema.json, checked with Debian's python3-jsonschema), and it
# carries every diagnostic of the JSON report with its rule, level and location.
set -euo pipefail
FERRY=${FERRY:?path to the ferry binary}
ROOT=${FERRY_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=/usr/bin/python3  # Debian's: the python3 first on PATH may be pyenv's, without jsonschema
if ! "$PY" -c 'import jsonschema' 2>/dev/null; then
  echo "SKIP: Debian's python3-jsonschema is not installed (make deps installs it)"; exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$PY" "$ROOT/tests/data/sarif-validate.py" --self-test
rc=0
"$FERRY" migrate "$ROOT/examples/llama_ops" -o "$T/out" -q --sarif "$T/migrate.sarif" >/dev/null || rc=$?
[ "$rc" -le 1 ] || fail "ferry migrate exited $rc"
"$FERRY" report "$T/out" --format sarif -o "$T/report.sarif"
"$FERRY" report "$T/out" --format json -o "$T/report.json"
cmp -s "$T/migrate.sarif" "$T/report.sarif" || fail "migrate --sarif and report --format sarif differ"
"$PY" "$ROOT/tests/data/sarif-validate.py" "$T/report.sarif"

"$PY" - "$T/report.json" "$T/report.sarif" <<'PY'
import json, sys, urllib.parse
report, sarif = (json.load(open(p)) for p in sys.argv[1:3])
diags = report["migration"]["diagnostics"]
run = sarif["runs"][0]
results, rules = run["results"], run["tool"]["driver"]["rules"]
assert len(diags) > 0, "llama_ops should raise diagnostics"
assert len(results) == len(diags), (len(results), len(diags))
assert sorted(r["id"] for r in rules) == sorted({d["code"] for d in diags}), "one rule per code seen"
for r in rules:
    assert r["helpUri"].split("#")[0].endswith("docs/diagnostics.md") and "#" in r["helpUri"], r
    assert r["shortDescription"]["text"], r
level = {"error": "error", "warning": "warning", "note": "note"}
for d, res in zip(diags, results):
    assert res["ruleId"] == d["code"] and rules[res["ruleIndex"]]["id"] == d["code"]
    assert res["level"] == level[d["severity"]], (d, res)
    assert res["message"]["text"].startswith(d["message"])
    loc = res["locations"][0]["physicalLocation"]
    assert urllib.parse.unquote(loc["artifactLocation"]["uri"]) == d["file"], (d, loc)
    assert not loc["artifactLocation"]["uri"].startswith("/"), "uris are relative to the input root"
    if d["line"]:
        assert loc["region"]["startLine"] == d["line"]
        if d["col"]:
            assert loc["region"]["startColumn"] == d["col"]
root = run["originalUriBaseIds"]["SRCROOT"]["uri"]
assert root.startswith("file:///") and root.endswith("/"), root
# Documented codes take their title from docs/diagnostics.md.
documented = [r for r in rules if "--" in r["helpUri"].split("#")[1]]
print(f"SARIF: {len(results)} results, {len(rules)} rules ({len(documented)} with a documented heading)")
PY
echo "PASS: test_report_sarif"
