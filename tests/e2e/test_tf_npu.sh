#!/usr/bin/env bash
# The tf_npu target over a tree: Python files are converted (others copied), every output compiles
# as Python, every call of an npu_bridge name the outputs make is in rules/tf_npu/api.tsv (with its
# keywords), the JSON report lists the worklist (success / failed / needs_manual) per file and in its
# totals, the HTML report has the Worklist section, and a second run over the output changes
# nothing. Skips (77) without the Python parser.
set -euo pipefail
FERRY=${FERRY:?set FERRY to the ferry binary}
ROOT=${FERRY_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$tmp/in/pkg"
for case in "$ROOT"/tests/golden/tf-npu-*/; do
  grep -q -- "--tf-version 2" "$case/args" && continue  # one release per tree
  cp "$case/input.py" "$tmp/in/pkg/$(basename "$case" | tr - _).py"
done
printf 'int main() { return 0; }\n' > "$tmp/in/helper.cpp"

"$FERRY" migrate "$tmp/in" -o "$tmp/out" --to tf_npu --report "$tmp/report.json" --html "$tmp/report.html" -q \
  > "$tmp/summary.txt" 2>&1 || true
if grep -q FRY1703 "$tmp/report.json" 2>/dev/null; then echo "skipped: ferry was built without its Python parser"; exit 77; fi
[ -f "$tmp/out/pkg/tf_npu_horovod.py" ] || fail "no output: $(cat "$tmp/summary.txt")"
[ -f "$tmp/out/helper.cpp" ] || fail "helper.cpp was not copied"
python3 - "$tmp/out" "$ROOT/rules/tf_npu/api.tsv" "$tmp/report.json" <<'PY'
import ast, builtins, json, sys, pathlib
out, api_path, rep = pathlib.Path(sys.argv[1]), sys.argv[2], json.load(open(sys.argv[3]))
api = {}
for line in open(api_path):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    api[f[0]] = None if f[2] == "-" else [p for p in f[2].split(",") if p]
heads = {k.split(".")[0] for k in api} - {"os", "tf", "backend", "config_pb2", "util"}
bad, calls = [], 0
for f in sorted(out.rglob("*.py")):
    tree = ast.parse(f.read_text(), str(f))  # the py_compile check: a SyntaxError fails the test
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            name = ast.unparse(n.func)
            if name.split(".")[0] in heads and not hasattr(builtins, name):
                calls += 1
                p = api.get(name, "missing")
                if p == "missing":
                    bad.append(f"{f.name}: {name}")
                elif p is not None:
                    bad += [f"{f.name}: {name}({k.arg}=)" for k in n.keywords
                            if k.arg and k.arg not in p and not any(x.startswith("**") for x in p)]
if bad:
    sys.exit("not in rules/tf_npu/api.tsv: " + ", ".join(bad))
if calls < 10:
    sys.exit(f"only {calls} npu_bridge calls in the outputs")
wl = rep["totals"].get("worklist", {})
for key in ("success", "failed", "needs_manual"):
    if not wl.get(key):
        sys.exit(f"totals.worklist has no {key}: {wl}")
per_file = sum(len(f.get("worklist", [])) for f in rep["files"])
if per_file != sum(wl.values()):
    sys.exit(f"files' worklists ({per_file}) differ from the totals ({wl})")
item = next(w for f in rep["files"] for w in f.get("worklist", []))
if set(item) != {"list", "line", "api", "detail"} or item["line"] < 1:
    sys.exit(f"malformed worklist item {item}")
print(f"{calls} npu_bridge calls checked; worklist {wl}")
PY
grep -q 'id="worklist"' "$tmp/report.html" || fail "the HTML report has no Worklist section"
grep -q 'data-list="needs_manual"' "$tmp/report.html" || fail "the HTML worklist has no needs-manual table"

# a second run over the output changes nothing
"$FERRY" migrate "$tmp/out/pkg" -o "$tmp/again" --to tf_npu -q > /dev/null 2>&1 || true
for f in "$tmp"/out/pkg/*.py; do
  cmp -s "$f" "$tmp/again/$(basename "$f")" || fail "a second run changed $(basename "$f")"
done
echo "PASS"
