#!/usr/bin/env python3
"""Validate Ferry rule tables (rules/<direction>/*.tsv) and print counts.

Usage: check_rules.py [DIR ...]      (default: every direction folder SRC2DST under rules/)
Checks: field count, the since column (first HIP version of the replacement; required in
cuda2hip), allowed kind/family/status, identifier syntax of `from`,
`-` iff there is no replacement, notes on unsupported/changed rows, family equal to
the file name for the main tables, and duplicates within one direction: headers and
namespaces by path/name, every other kind by `from` (they share one identifier index).
Alternative tables (a sub-folder such as alt-rocblas/) are checked on their own and
may repeat names of the main tables, since they replace a file when selected.
Exit status 1 when any problem is found."""
import os, re, sys, collections

KINDS = {'func', 'type', 'enum', 'macro', 'header', 'namespace', 'call'}
FAMILIES = ['runtime', 'driver', 'device', 'math', 'fp16', 'bf16', 'complex', 'coop_groups', 'cublas',
            'cublaslt', 'curand', 'curand_device', 'cufft', 'cusparse', 'cusolver', 'cudnn', 'nccl',
            'cub', 'thrust', 'nvrtc', 'graph', 'texture', 'headers', 'fp8', 'wmma']
STATUSES = ['supported', 'unsupported', 'deprecated', 'changed']
IDENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
HEADER = re.compile(r'^[A-Za-z0-9_./+-]+$')
SINCE = re.compile(r'^(-|none|\d+\.\d+)$')
OTHER_FORMATS = {'torch2mindspore', 'tf2npu', 'tf2mindspore'}
TARGET = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$')


def check_file(path, fam_expected, problems, seen, counts):
    strict = '/cuda2hip/' in path.replace(os.sep, '/')
    with open(path, encoding='utf-8') as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            where = f'{path}:{no}'
            fields = line.split('\t')
            if len(fields) not in (5, 6, 7):
                problems.append(f'{where}: expected 5 to 7 TAB-separated fields, got {len(fields)}')
                continue
            kind, frm, to, fam, status = fields[:5]
            # Field 6 is `since` ("-" or X.Y) when it reads as one, else a note (older format).
            since, note = '-', ''
            if len(fields) >= 6 and SINCE.match(fields[5]):
                since = fields[5]
                note = fields[6] if len(fields) == 7 else ''
            elif len(fields) == 7:
                problems.append(f'{where}: field 6 must be since ("-" or X.Y), got {fields[5]!r}')
            else:
                note = fields[5] if len(fields) == 6 else ''
                if strict:
                    problems.append(f'{where}: CUDA -> HIP rows need the since column ("-" or X.Y)')
            if since != '-' and to == '-':
                problems.append(f'{where}: since {since} on a row without a replacement')
            if any(x != x.strip() or not x for x in fields[:5]):
                problems.append(f'{where}: empty field or stray spaces')
            if kind not in KINDS:
                problems.append(f'{where}: unknown kind {kind!r}')
            if fam not in FAMILIES:
                problems.append(f'{where}: unknown family {fam!r}')
            elif fam_expected and fam != fam_expected:
                problems.append(f'{where}: family {fam!r} in file of family {fam_expected!r}')
            if status not in STATUSES:
                problems.append(f'{where}: unknown status {status!r}')
            if kind == 'header':
                if not HEADER.match(frm):
                    problems.append(f'{where}: bad header path {frm!r}')
                if to != '-' and not HEADER.match(to):
                    problems.append(f'{where}: bad target header {to!r}')
            else:
                # A namespace may be qualified by its enclosing one (thrust::cuda).
                parts = frm.split('::') if kind == 'namespace' else [frm]
                if not all(IDENT.match(p) for p in parts):
                    problems.append(f'{where}: `from` is not a C identifier: {frm!r}')
                # CUDA->HIP renames must be names; other directions may map to expressions
                # (e.g. hipThreadIdx_x -> threadIdx.x) and call templates of any shape.
                if kind == 'call':
                    if strict and to != '-' and not re.match(r'^[A-Za-z_][A-Za-z0-9_:]*\(.*\)$', to):
                        problems.append(f'{where}: call template must be NAME(...): {to!r}')
                elif strict and to != '-' and not TARGET.match(to):
                    problems.append(f'{where}: bad target {to!r}')
            if status == 'unsupported' and to != '-':
                problems.append(f'{where}: unsupported rows must have to = -')
            if to == '-' and status in ('supported', 'deprecated'):
                problems.append(f'{where}: `-` target needs status unsupported or changed')
            if status in ('unsupported', 'changed') and not note.strip():
                problems.append(f'{where}: {status} rows need a note')
            # func/type/enum/macro/call share one identifier namespace in the loader
            key = (kind if kind in ('header', 'namespace') else 'identifier', frm)
            if key in seen:
                problems.append(f'{where}: duplicate {key[0]} {frm!r} (first at {seen[key]})')
            else:
                seen[key] = where
            counts[fam][status] += 1


VERSIONED = 'cuda_versions.tsv'  # rows for some CUDA releases only; they override the other tables
VERSION_BOUND = re.compile(r'\b(from CUDA|before CUDA|needs CUDA >=) \d+\.\d+')


def check_direction(d, problems):
    results = []
    main = sorted(p for p in os.listdir(d) if p.endswith('.tsv') and p != VERSIONED)
    seen, counts = {}, collections.defaultdict(collections.Counter)
    for p in main:
        check_file(os.path.join(d, p), p[:-4] if p[:-4] in FAMILIES else None, problems, seen, counts)
    results.append((d, counts))
    if os.path.exists(os.path.join(d, VERSIONED)):
        # Checked on its own (its rows replace rows of the other tables for the releases they name);
        # every row must name the releases it is for.
        v_path = os.path.join(d, VERSIONED)
        v_seen, v_counts = {}, collections.defaultdict(collections.Counter)
        check_file(v_path, None, problems, v_seen, v_counts)
        with open(v_path, encoding='utf-8') as f:
            for no, line in enumerate(f, 1):
                if line.strip() and not line.startswith('#') and not VERSION_BOUND.search(line):
                    problems.append(f'{v_path}:{no}: a row of {VERSIONED} needs "from CUDA X.Y" or "before CUDA X.Y"')
        results.append((v_path, v_counts))
    for sub in sorted(os.listdir(d)):
        sd = os.path.join(d, sub)
        if os.path.isdir(sd):
            s_seen, s_counts = {}, collections.defaultdict(collections.Counter)
            for p in sorted(x for x in os.listdir(sd) if x.endswith('.tsv')):
                check_file(os.path.join(sd, p), p[:-4] if p[:-4] in FAMILIES else None, problems, s_seen, s_counts)
            results.append((sd, s_counts))
    return results


def print_table(title, counts):
    print(f'\n### {title}\n')
    print('| family | supported | changed | deprecated | unsupported | total |')
    print('|---|---:|---:|---:|---:|---:|')
    tot = collections.Counter()
    for fam in FAMILIES:
        if fam not in counts:
            continue
        c = counts[fam]
        tot.update(c)
        print(f"| {fam} | {c['supported']} | {c['changed']} | {c['deprecated']} | {c['unsupported']} | {sum(c.values())} |")
    print(f"| **total** | {tot['supported']} | {tot['changed']} | {tot['deprecated']} | {tot['unsupported']} | {sum(tot.values())} |")
    mapped = tot['supported'] + tot['changed'] + tot['deprecated']
    print(f'\nmapped (supported + changed + deprecated): {mapped}; unsupported: {tot["unsupported"]}')


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    # direction folders are named SRC2DST (cuda2hip, hip2cuda, ...); other folders
    # under rules/ (e.g. profiles/) hold other kinds of data
    # torch2mindspore/ is a mapping of Python names in its own format (torch, mindspore, status, args,
    # note), read by src/targets/mindspore/mapping.cpp and checked by rules/check_mindspore_rules.py and
    # tests/unit/mindspore_test.cpp
    dirs = argv[1:] or [os.path.join(here, x) for x in sorted(os.listdir(here))
                        if os.path.isdir(os.path.join(here, x)) and re.match(r'^[a-z0-9]+2[a-z0-9]+$', x)
                        and x not in OTHER_FORMATS]
    problems = []
    for d in dirs:
        for path, counts in check_direction(d, problems):
            if counts:
                print_table(os.path.relpath(path, here), counts)
    for p in problems:
        print('ERROR', p, file=sys.stderr)
    print(f'\n{len(problems)} problem(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
