#!/usr/bin/env python3
"""Fill and check the `since` column of rules/cuda2hip/ from HIPIFY's public API tables.

Usage: hipify_since.py TABLES_DIR [--write]

TABLES_DIR is a checkout's docs/tables folder of ROCm/HIPIFY (CUDA_Runtime_API_functions_supported_by_HIP.md,
CUBLAS_API_supported_by_ROC.md, ...). Each table row names a CUDA name, its HIP (or ROC/MIOPEN) name and the
ROCm release that added it (column "A"). For every row of our tables whose `to` is HIPIFY's name:
  - `since` is "-": the HIPIFY release is proposed (written with --write);
  - `since` differs from HIPIFY's: reported; with --write the later of the two is kept, so that a name is
    never emitted for a release that may lack it, unless the row's note says "HIPIFY gives X.Y" (our
    earlier version was checked in headers; the note says where).
Rows of rules/cuda2hip/*.tsv are compared with the HIP column, cudnn rows with the MIOPEN column (Ferry maps
cuDNN to MIOpen), rows of rules/cuda2hip/alt-<lib>/ with the ROC column. Versions are major.minor.
Exit status 1 when a table cannot be read."""
import glob, os, re, sys

VERSION = re.compile(r'^(\d+)\.(\d+)(\.\d+)?$')


def read_hipify(tables_dir):
    """{column name: {cuda name: (target name, 'X.Y' or '')}} over every *_supported_by_<X>.md."""
    out = {}
    for path in sorted(glob.glob(os.path.join(tables_dir, '*_supported_by_*.md'))):
        if '_and_' in os.path.basename(path):
            continue
        header = None
        for line in open(path, encoding='utf-8'):
            if not line.startswith('|'):
                continue
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if cells[0] == '**CUDA**':
                header = [c.strip('*') for c in cells]
                continue
            if header is None or not cells[0].startswith('`') or len(cells) < 7:
                continue
            column = header[5]
            cuda, target, added = cells[0].strip('`'), cells[5].strip('`'), cells[6]
            if not target:
                continue
            m = VERSION.match(added)
            out.setdefault(column, {})[cuda] = (target, f'{m.group(1)}.{m.group(2)}' if m else '')
    return out


def process(path, names, write, report):
    lines = open(path, encoding='utf-8').read().split('\n')
    changed = 0
    for i, line in enumerate(lines):
        if not line.strip() or line.startswith('#'):
            continue
        f = line.split('\t')
        if len(f) < 6 or f[0] in ('header', 'namespace', 'call'):
            continue
        hit = names.get(f[1])
        if not hit or hit[0] != f[2] or not hit[1]:
            continue
        if f[5] == '-':
            report.append(f'{path}:{i + 1}: {f[1]} -> {f[2]}: since {hit[1]} (HIPIFY)')
            f[5] = hit[1]
            lines[i] = '\t'.join(f)
            changed += 1
        elif f[5] != hit[1] and 'HIPIFY gives' in (f[6] if len(f) > 6 else ''):
            continue  # our value, checked elsewhere, and the note says why it differs
        elif f[5] != hit[1]:
            later = max(f[5], hit[1], key=lambda v: tuple(int(x) for x in v.split('.')))
            report.append(f'{path}:{i + 1}: {f[1]} -> {f[2]}: since {f[5]} here, {hit[1]} in HIPIFY; '
                          f'{later} kept')
            if later != f[5]:
                f[5] = later
                lines[i] = '\t'.join(f)
                changed += 1
    if write and changed:
        open(path, 'w', encoding='utf-8').write('\n'.join(lines))
    return changed


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    write = '--write' in sys.argv
    if len(args) != 1 or not os.path.isdir(args[0]):
        print(__doc__, file=sys.stderr)
        return 1
    tables = read_hipify(args[0])
    if 'HIP' not in tables:
        print(f'{args[0]}: no *_supported_by_HIP.md tables', file=sys.stderr)
        return 1
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cuda2hip')
    report, filled = [], 0
    for path in sorted(glob.glob(os.path.join(root, '**', '*.tsv'), recursive=True)):
        rel = os.path.relpath(path, root)
        if rel.startswith('alt-'):
            column = 'ROC'
        elif os.path.basename(path) == 'cudnn.tsv':
            column = 'MIOPEN'
        else:
            column = 'HIP'
        filled += process(path, tables.get(column, {}), write, report)
    print('\n'.join(report))
    print(f'{filled} rows {"filled" if write else "to fill"}; '
          f'{sum(1 for r in report if "kept" in r)} disagreements (the later version kept)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
