#!/usr/bin/env python3
"""ferry scan's PyTorch -> MindSpore coverage on a training script we wrote
(tests/e2e/scan_framework/train.py): the JSON `framework` object matches expected.json (the
totals and the unmapped names; review it when the mapping tables change, then regenerate with
--update), and the text summary prints the coverage section.

    FERRY=build/ferry python3 tests/e2e/test_scan_framework.py [--update]"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASE = os.path.join(HERE, "scan_framework")
EXPECTED = os.path.join(CASE, "expected.json")
FERRY = os.environ.get("FERRY")
if not FERRY:
    sys.exit("set FERRY to the ferry binary")


def summary(fw):
    keep = ("from", "to", "files", "uses", "mapped", "mapped_with_differences", "unmapped", "unmapped_apis")
    out = {k: fw[k] for k in keep}
    out["api_uses"] = [f'{u["line"]}:{u["col"]} {u["kind"]} {u["name"]} {u["status"]} {u.get("mindspore", "-")}'
                       for u in fw["api_uses"]]
    return out


j = json.loads(subprocess.run([FERRY, "scan", os.path.join(CASE, "train.py"), "--json", "-q"], check=True,
                              capture_output=True, text=True).stdout)
fw = j["framework"]
assert abs(fw["automatic_share"] - (fw["mapped"] + fw["mapped_with_differences"]) / fw["uses"]) < 1e-9, fw
assert fw["effort"]["hours"] > 0 and fw["effort"]["level"] in ("low", "medium", "high"), fw["effort"]
got = summary(fw)
if "--update" in sys.argv:
    with open(EXPECTED + ".tmp", "w") as f:
        json.dump(got, f, indent=1)
        f.write("\n")
    os.replace(EXPECTED + ".tmp", EXPECTED)
    print("wrote", EXPECTED)
    sys.exit(0)
want = json.load(open(EXPECTED))
if got != want:
    for k in want:
        if got.get(k) != want[k]:
            print(f"{k}: expected {want[k]!r}\n{' ' * len(k)}  got      {got.get(k)!r}")
    sys.exit(1)
text = subprocess.run([FERRY, "scan", os.path.join(CASE, "train.py"), "-q"], check=True, capture_output=True,
                      text=True).stdout
assert "PyTorch -> MindSpore coverage:" in text and "converted automatically:" in text, text
print(f"scan framework ok: {fw['uses']} uses, {fw['mapped']} mapped, {fw['mapped_with_differences']} with "
      f"differences, {fw['unmapped']} unmapped")
