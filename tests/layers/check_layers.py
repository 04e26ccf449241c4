#!/usr/bin/env python3
"""Checks the include graph of src/ against the layers of docs/architecture.md ("Layers").

Every file of src/ belongs to a layer (by its folder; a few files by name, below). A file may
include files of its own layer or of lower layers; an include of a higher layer is an upward
include and fails the test, unless it is one of KNOWN_UPWARD (debts, each with its reason, to
remove, never to add to). Usage: check_layers.py [SRC_DIR]
"""
import pathlib
import re
import sys

# Lowest first. A folder not listed here fails the test: give a new folder its layer.
LAYERS = [
    ("base", ["core", "lex", "rules", "rewrite"]),
    ("project", ["project"]),                                        # trees, file kinds, safe I/O
    ("engine", ["targets", "analysis", "buildsys", "migrate/file_migration"]),
    ("tools", ["migrate", "scan", "verify", "diffrun", "wave64", "opcheck"]),
    ("report", ["report"]),
    ("cli", ["cli", "serve"]),                                       # entry points: argv, the workbench server
]

# Upward includes that exist today, each with why; the test fails when one disappears too, so
# that this list only shrinks.
KNOWN_UPWARD = {
    # scan's JSON inventory carries its input problems in the one JSON form of diagnostics, which
    # is report's (report::to_json); it goes when that form moves down to core/.
    ("scan/render.cpp", "report/json_report.h"),
}


def layer_of(rel: str) -> int:
    """rel: path under src/ without the extension, e.g. 'migrate/file_migration'."""
    best, best_len = None, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (rel == p or rel.startswith(p + "/")) and len(p) > best_len:
                best, best_len = i, len(p)
    if best is None:
        raise SystemExit(f"check_layers: src/{rel} is in no layer; add its folder to LAYERS")
    return best


def main() -> int:
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2] / "src")
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    upward, seen_known, files = [], set(), 0
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp", ".def") or path.name.endswith("_test.cpp"):
            continue
        files += 1
        rel = path.relative_to(src).as_posix()
        mine = layer_of(rel.rsplit(".", 1)[0])
        for target in include.findall(path.read_text(encoding="utf-8", errors="replace")):
            if not (src / target).exists():
                continue  # a system or generated header
            theirs = layer_of(target.rsplit(".", 1)[0])
            if theirs > mine:
                if (rel, target) in KNOWN_UPWARD:
                    seen_known.add((rel, target))
                else:
                    upward.append(f"src/{rel} ({LAYERS[mine][0]}) includes {target} ({LAYERS[theirs][0]})")
    for rel, target in sorted(KNOWN_UPWARD - seen_known):
        upward.append(f"KNOWN_UPWARD lists src/{rel} -> {target}, which is gone: remove it from the list")
    for line in upward:
        print("check_layers: upward include: " + line)
    print(f"check_layers: {files} files, {len(upward)} problems, {len(seen_known)} known upward includes")
    return 1 if upward else 0


if __name__ == "__main__":
    sys.exit(main())
