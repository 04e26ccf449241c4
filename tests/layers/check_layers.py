#!/usr/bin/env python3
"""Checks the include graph of src/ against the layers of docs/architecture.md ("Layers").

Every file of src/ belongs to a layer (by its folder; a few files by name, below). A file may
include files of its own layer or of lower layers; an include of a higher layer is an upward
include and fails the test, unless it is one of KNOWN_UPWARD (debts, each with its reason, to
remove, never to add to).
Usage: check_layers.py [SRC_DIR]    check_layers.py --self-test (the checker on trees it makes)
"""
import pathlib
import re
import sys
import tempfile

# Lowest first. A folder not listed here fails the test: give a new folder its layer.
LAYERS = [
    ("base", ["core", "lex", "pyparse", "rules", "rewrite"]),
    ("project", ["project"]),                                        # trees, file kinds, safe I/O
    ("engine", ["targets", "analysis", "buildsys", "migrate/file_migration"]),
    ("tools", ["migrate", "scan", "verify", "diffrun", "wave64", "opcheck"]),
    ("report", ["report"]),
    ("cli", ["cli", "serve"]),                                       # entry points: argv, the workbench server
]

# Upward includes that exist today, each with why, as ("from/file.cpp", "to/file.h"); the test
# fails when one disappears too, so that this list only shrinks. Empty: keep it so.
KNOWN_UPWARD: set = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


class NoLayer(Exception):
    pass


def layer_of(rel: str) -> int:
    """rel: path under src/ without the extension, e.g. 'migrate/file_migration'."""
    best, best_len = None, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (rel == p or rel.startswith(p + "/")) and len(p) > best_len:
                best, best_len = i, len(p)
    if best is None:
        raise NoLayer(f"src/{rel} is in no layer; add its folder to LAYERS")
    return best


def check(src: pathlib.Path, known: set) -> tuple[list[str], int, int]:
    """Problems (one line each), files read, known upward includes seen."""
    problems, seen_known, files = [], set(), 0
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp", ".def") or path.name.endswith("_test.cpp"):
            continue
        files += 1
        rel = path.relative_to(src).as_posix()
        try:
            mine = layer_of(rel.rsplit(".", 1)[0])
        except NoLayer as e:
            problems.append(str(e))
            continue
        for target in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
            if not (src / target).exists():
                continue  # a system or generated header
            try:
                theirs = layer_of(target.rsplit(".", 1)[0])
            except NoLayer as e:
                problems.append(str(e))
                continue
            if theirs > mine:
                if (rel, target) in known:
                    seen_known.add((rel, target))
                else:
                    problems.append(f"upward include: src/{rel} ({LAYERS[mine][0]}) includes {target} ({LAYERS[theirs][0]})")
    for rel, target in sorted(known - seen_known):
        problems.append(f"KNOWN_UPWARD lists src/{rel} -> {target}, which is gone: remove it from the list")
    return sorted(set(problems)), files, len(seen_known)


def self_test() -> int:
    """The checker on small trees: each case's files, the known list, and what it must report."""
    cases = [
        # scan (tools) reaching up into report: the include this test once had to list as a debt.
        ("upward", {"scan/render.cpp": '#include "report/json_report.h"\n', "report/json_report.h": ""}, set(),
         ["upward include: src/scan/render.cpp (tools) includes report/json_report.h (report)"]),
        ("downward and sideways", {"report/json_report.cpp": '#include "core/diagnostic_json.h"\n#include "report/a.h"\n',
                                   "report/a.h": "", "core/diagnostic_json.h": '#include <nlohmann/json.hpp>\n'}, set(), []),
        ("file_migration is engine, the rest of migrate tools",
         {"targets/t.cpp": '#include "migrate/file_migration.h"\n', "migrate/file_migration.h": "",
          "analysis/a.cpp": '#include "migrate/migrate_tree.h"\n', "migrate/migrate_tree.h": ""}, set(),
         ["upward include: src/analysis/a.cpp (engine) includes migrate/migrate_tree.h (tools)"]),
        ("listed debt", {"scan/render.cpp": '#include "report/json_report.h"\n', "report/json_report.h": ""},
         {("scan/render.cpp", "report/json_report.h")}, []),
        ("listed debt gone", {"scan/render.cpp": "", "report/json_report.h": ""},
         {("scan/render.cpp", "report/json_report.h")},
         ["KNOWN_UPWARD lists src/scan/render.cpp -> report/json_report.h, which is gone: remove it from the list"]),
        ("unlayered folder", {"newdir/x.cpp": ""}, set(), ["src/newdir/x is in no layer; add its folder to LAYERS"]),
        ("tests are not read", {"scan/render_test.cpp": '#include "cli/commands.h"\n', "cli/commands.h": ""}, set(), []),
    ]
    failed = 0
    for name, files, known, want in cases:
        with tempfile.TemporaryDirectory() as d:
            root = pathlib.Path(d)
            for rel, text in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text)
            got, _, _ = check(root, known)
        if got != want:
            failed += 1
            print(f"check_layers self-test FAILED: {name}: got {got}, want {want}")
    print(f"check_layers self-test: {len(cases) - failed}/{len(cases)} cases pass")
    return 1 if failed else 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2] / "src")
    problems, files, known = check(src, KNOWN_UPWARD)
    for line in problems:
        print("check_layers: " + line)
    print(f"check_layers: {files} files, {len(problems)} problems, {known} known upward includes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
