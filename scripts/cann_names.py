#!/usr/bin/env python3
"""Every AscendCL, aclnn and HCCL name the cann target knows, and the public header that declares it.

The names come from what Ferry writes or tells users: the cann rule tables (rules/cuda2cann/*.tsv,
every column but the CUDA name) and the cann passes (src/targets/cann/*). docs/targets.md holds
the table "AscendCL and HCCL names" between two marker lines; this script keeps it true.

  cann_names.py --check                 the table lists exactly the names Ferry uses (no headers needed);
                                        with FERRY_ASCEND_INCLUDE set, every name is also declared in
                                        the header the table gives, in some header set
  cann_names.py --write                 regenerate the table from FERRY_ASCEND_INCLUDE's header sets

FERRY_ASCEND_INCLUDE: include roots made by scripts/ascend-headers.sh, ':'-separated; each root's
parent holds VERSIONS, whose first line names the set (8.5, head).
Exit status: 0 ok, 1 a problem, 77 (--write only) when FERRY_ASCEND_INCLUDE is unset."""
import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "targets.md"
BEGIN = "<!-- cann-names: begin (scripts/cann_names.py --write) -->"
END = "<!-- cann-names: end -->"
NAME = re.compile(r"\b(aclnn[A-Z]\w*|aclrt[A-Z]\w*|acl[A-Z]\w*|ACL_[A-Z0-9_]*[A-Z0-9]|Hccl[A-Z]\w*|"
                  r"HCCL_[A-Z0-9_]*[A-Z0-9])\b")
# Header search order: the file a name is declared in first wins over files that merely use it.
PRIORITY = ["acl/acl_base_rt.h", "acl/acl_rt.h", "acl/acl_base.h", "acl/error_codes/rt_error_codes.h",
            "hccl/hccl_types.h", "hccl/hccl.h", "aclnn/acl_meta.h", "aclnn/aclnn_base.h",
            "aclnnop/aclnn_matmul.h"]


def used_names() -> dict[str, str]:
    """name -> the first file that uses it (relative to the checkout)."""
    names: dict[str, str] = {}
    files = sorted((ROOT / "rules" / "cuda2cann").glob("*.tsv")) + sorted((ROOT / "src" / "targets" / "cann").glob("*.*"))
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if f.suffix == ".tsv":
                if line.startswith("#"):
                    continue
                fields = line.split("\t")
                line = "\t".join(fields[2:]) if len(fields) >= 5 else ""
            for m in NAME.finditer(line):
                names.setdefault(m.group(1), str(f.relative_to(ROOT)))
    return names


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def header_sets() -> list[tuple[str, Path]]:
    sets = []
    for root in [r for r in os.environ.get("FERRY_ASCEND_INCLUDE", "").split(os.pathsep) if r]:
        p = Path(root)
        versions = p.parent / "VERSIONS"
        label = versions.read_text().split()[2].rstrip(",") if versions.exists() else p.name
        sets.append((label, p))
    return sets


def declared(root: Path) -> dict[str, str]:
    """name -> header (relative to root) for every name in the root's headers, comments stripped."""
    files = [h for h in root.rglob("*.h") if "third_party" not in h.parts]
    rel = {h: h.relative_to(root).as_posix() for h in files}
    order = sorted(files, key=lambda h: (PRIORITY.index(rel[h]) if rel[h] in PRIORITY else len(PRIORITY), rel[h]))
    found: dict[str, str] = {}
    for h in order:
        for m in NAME.finditer(strip_comments(h.read_text(encoding="utf-8", errors="replace"))):
            found.setdefault(m.group(1), rel[h])
    return found


def read_table() -> dict[str, tuple[str, str]]:
    text = DOCS.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        return {}
    rows = {}
    for line in text[text.index(BEGIN):text.index(END)].splitlines():
        m = re.match(r"^\| `([^`]+)` \| (`[^`]+`|—) \| ([^|]*) \|", line)
        if m:
            rows[m.group(1)] = (m.group(2).strip("`"), m.group(3).strip())
    return rows


def write_table(names: dict[str, str], sets: list[tuple[str, Path]]) -> int:
    decl = [(label, declared(root)) for label, root in sets]
    lines = [BEGIN, "", "| name | declared in | header sets |", "|---|---|---|"]
    missing = []
    for n in sorted(names, key=str.lower):
        headers = [d[n] for _, d in decl if n in d]
        in_sets = [label for label, d in decl if n in d]
        if not headers:
            missing.append(n)
            lines.append(f"| `{n}` | — | none: {names[n]} uses a name no header declares |")
        else:
            lines.append(f"| `{n}` | `{headers[-1]}` | {', '.join(in_sets)} |")
    lines += ["", END]
    text = DOCS.read_text(encoding="utf-8")
    if BEGIN in text:
        text = text[:text.index(BEGIN)] + "\n".join(lines) + text[text.index(END) + len(END):]
    else:
        raise SystemExit(f"{DOCS}: add the marker lines {BEGIN!r} and {END!r} where the table goes")
    DOCS.write_text(text, encoding="utf-8")
    for n in missing:
        print(f"{n}: used by {names[n]} but declared in no header set", file=sys.stderr)
    print(f"{len(names)} names, {len(names) - len(missing)} declared; header sets: {', '.join(l for l, _ in sets)}")
    return 1 if missing else 0


def check(names: dict[str, str], sets: list[tuple[str, Path]]) -> int:
    table = read_table()
    problems = []
    for n in sorted(set(names) - set(table)):
        problems.append(f"{n}: used by {names[n]} but not in the docs/targets.md table (run --write)")
    for n in sorted(set(table) - set(names)):
        problems.append(f"{n}: in the docs/targets.md table but no longer used (run --write)")
    for n, (header, _) in sorted(table.items()):
        if header == "—":
            problems.append(f"{n}: no header declares it ({names.get(n, '?')})")
    for label, root in sets:
        decl = declared(root)
        for n, (header, in_sets) in sorted(table.items()):
            if label in [s.strip() for s in in_sets.split(",")] and decl.get(n) != header:
                problems.append(f"{n}: the table says {header} in set {label}, the headers say {decl.get(n)}")
    for p in problems:
        print(p, file=sys.stderr)
    what = f" and {len(sets)} header set(s)" if sets else " (no header sets: FERRY_ASCEND_INCLUDE unset)"
    print(f"{len(names)} names checked against docs/targets.md{what}: {len(problems)} problem(s)")
    return 1 if problems else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true")
    g.add_argument("--write", action="store_true")
    a = ap.parse_args()
    names = used_names()
    sets = header_sets()
    if a.write:
        if not sets:
            print("FERRY_ASCEND_INCLUDE is not set (scripts/ascend-headers.sh makes the include roots)")
            return 77
        return write_table(names, sets)
    return check(names, sets)


if __name__ == "__main__":
    sys.exit(main())
