#!/usr/bin/env bash
# Ferry covers at least 99% of the CUDA names HIPIFY's API tables convert, with the same HIP name
# or a documented better one (docs/rules.md#coverage-of-hipifys-tables). Needs the tables of a
# ROCm/HIPIFY checkout (its docs/tables): FERRY_HIPIFY_TABLES=DIR; skips (77) without them.
set -euo pipefail
TABLES=${FERRY_HIPIFY_TABLES:-}
if [ -z "$TABLES" ] || [ ! -d "$TABLES" ]; then
  echo "SKIP: set FERRY_HIPIFY_TABLES to ROCm/HIPIFY's docs/tables folder"
  exit 77
fi
json=$("$FERRY" rules --stats --against-hipify "$TABLES" --json)
python3 - "$json" <<'PY'
import json, sys
j = json.loads(sys.argv[1])
t = j["total"]
print(f"HIPIFY names: {t['total']}; same {t['same']}, better {t['better']}, declined {t['declined']}, "
      f"differs {t['differs']}, unsupported {t['unsupported']}, missing {t['missing']}: "
      f"{t['coverage_percent']:.2f}% covered")
worst = sorted(j["tables"].items(), key=lambda kv: kv[1]["coverage_percent"])[:3]
for name, row in worst:
    print(f"  {name}: {row['coverage_percent']:.2f}%")
if t["coverage_percent"] < 99.0:
    sys.exit("FAIL: coverage below 99%")
if t["differs"]:
    sys.exit(f"FAIL: {t['differs']} names differ from HIPIFY's without a note saying why")
print("PASS")
PY
