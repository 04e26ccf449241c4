#!/usr/bin/python3
"""Validate SARIF files against tests/data/sarif-2.1.0-subset.schema.json (a subset of SARIF 2.1.0
written by the Ferry project; see its description) plus the rules JSON Schema cannot express.

Usage: sarif-validate.py FILE...            exit 0 when every file is valid, 1 otherwise
       sarif-validate.py --self-test        checks that broken documents are rejected
Needs Debian's python3-jsonschema: run it with /usr/bin/python3 (pyenv's python3 lacks it)."""
import copy
import json
import os
import sys

import jsonschema

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sarif-2.1.0-subset.schema.json")
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def problems(doc, schema):
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    out = [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in validator.iter_errors(doc)]
    if out:
        return out
    if doc.get("$schema") != SARIF_SCHEMA_URI:
        out.append(f"$schema is {doc.get('$schema')!r}, not the SARIF 2.1.0 schema URI")
    for r, run in enumerate(doc.get("runs") or []):
        rules = run["tool"]["driver"].get("rules", [])
        ids = [rule["id"] for rule in rules]
        if len(ids) != len(set(ids)):
            out.append(f"runs/{r}: rule ids are not unique")
        for i, res in enumerate(run.get("results") or []):
            where = f"runs/{r}/results/{i}"
            if "ruleIndex" in res and res["ruleIndex"] >= 0:
                if res["ruleIndex"] >= len(rules):
                    out.append(f"{where}: ruleIndex {res['ruleIndex']} beyond {len(rules)} rules")
                elif "ruleId" in res and rules[res["ruleIndex"]]["id"] != res["ruleId"]:
                    out.append(f"{where}: ruleIndex {res['ruleIndex']} names {rules[res['ruleIndex']]['id']}, not ruleId {res['ruleId']}")
            if "ruleId" in res and res["ruleId"] not in ids:
                out.append(f"{where}: ruleId {res['ruleId']} is not among tool.driver.rules")
            for loc in res.get("locations", []):
                base = loc.get("physicalLocation", {}).get("artifactLocation", {}).get("uriBaseId")
                if base and base not in (run.get("originalUriBaseIds") or {}):
                    out.append(f"{where}: uriBaseId {base} is not defined in run.originalUriBaseIds")
    return out


def self_test(schema):
    good = {"$schema": SARIF_SCHEMA_URI, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "ferry", "rules": [{"id": "FRY1", "shortDescription": {"text": "x"}}]}},
        "originalUriBaseIds": {"SRCROOT": {"uri": "file:///src/"}},
        "results": [{"ruleId": "FRY1", "ruleIndex": 0, "level": "warning", "message": {"text": "m"},
                     "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.cu", "uriBaseId": "SRCROOT"},
                                                         "region": {"startLine": 1, "startColumn": 1}}}]}]}]}
    assert not problems(good, schema), problems(good, schema)
    breakages = {
        "version": lambda d: d.update(version="2.0.0"),
        "no runs": lambda d: d.pop("runs"),
        "no driver name": lambda d: d["runs"][0]["tool"]["driver"].pop("name"),
        "no message text": lambda d: d["runs"][0]["results"][0]["message"].pop("text"),
        "bad level": lambda d: d["runs"][0]["results"][0].update(level="warn"),
        "line 0": lambda d: d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"].update(startLine=0),
        "misspelt property": lambda d: d["runs"][0]["results"][0].update(ruleID="FRY1"),
        "ruleIndex beyond rules": lambda d: d["runs"][0]["results"][0].update(ruleIndex=3),
        "ruleIndex names another rule": lambda d: d["runs"][0]["results"][0].update(ruleId="FRY2"),
        "wrong $schema": lambda d: d.update({"$schema": "https://example.invalid/s.json"}),
        "undefined uriBaseId": lambda d: d["runs"][0].pop("originalUriBaseIds"),
    }
    for name, breaker in breakages.items():
        doc = copy.deepcopy(good)
        breaker(doc)
        if not problems(doc, schema):
            print(f"self-test: a document with '{name}' was accepted", file=sys.stderr)
            return 1
    print(f"self-test: valid document accepted, {len(breakages)} broken ones rejected")
    return 0


def main(argv):
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    if argv[1:] == ["--self-test"]:
        return self_test(schema)
    status = 0
    for path in argv[1:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        found = problems(doc, schema)
        for p in found:
            print(f"{path}: {p}", file=sys.stderr)
        if found:
            status = 1
        else:
            n = sum(len(run.get("results") or []) for run in doc["runs"])
            print(f"{path}: valid SARIF 2.1.0 (subset schema), {n} results")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
