#!/usr/bin/env python3
"""Write an alternative table (--blas=rocblas, --sparse=rocsparse) from facts.

Usage: make_alt_roc.py LIBRARY TABLES_DIR [CUDA_INCLUDE_DIR] [ROC_INCLUDE_DIR [ROC_GIT_DIR]]

LIBRARY is rocblas (writes rules/cuda2hip/alt-rocblas/cublas.tsv) or rocsparse (writes
rules/cuda2hip/alt-rocsparse/cusparse.tsv). TABLES_DIR is ROCm/HIPIFY's docs/tables (facts only).
CUDA_INCLUDE_DIR defaults to /usr/local/cuda/include. ROC_INCLUDE_DIR is the library's public
headers: /usr/include/rocsparse by default; rocBLAS, which Debian 12 lacks, from a ROCm/rocBLAS
checkout (`git archive HEAD library/include | tar x`, then pass library/include). ROC_GIT_DIR, a
clone of the library's repository (bare is fine), dates the names HIPIFY does not list: the first
release whose headers declare the name (tag rocm-X.Y.0, else branch release-staging/rocm-rel-X.Y).

For every row of the base table (rules/cuda2hip/cublas.tsv, cusparse.tsv): the ROC name HIPIFY's
CU*_API_supported_by_ROC.md gives, with its release "A" as since, else an unsupported row.
Functions are compared between CUDA's headers and the library's: equal parameter counts give
`supported`; different counts, or a function one of the headers does not declare, give `changed`
with a note saying so. For rocBLAS the parameter types are compared too, after the renames the
--blas=rocblas tables make (cublasHandle_t -> rocblas_handle, ...): rocBLAS's own complex, half and
bfloat16 types need a cast of the migrated pointers, so such rows are `changed` with a note that
says which. A cuBLAS ILP64 routine (`cublasSgemm_64`) HIPIFY gives no name for maps to the `_64`
twin of its base routine's rocBLAS name where rocBLAS declares one, dated from ROC_GIT_DIR.
HIPIFY's "E" column (experimental in) becomes a note; its "C" column (changed in) is
not used as such, since it also marks changes that do not alter a call (rocSPARSE 6.0 made
descriptor arguments const): the rocBLAS trmm rows it marks are FIXES. Where HIPIFY's
table is wrong, or misses a name, FIXES give ours and say why. Prints the counts, and the ROC names
the library's headers do not declare (review them); rewrites the table."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))


def strip_comments(text):
    text = re.sub(r'//[^\n]*|/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)  # deprecation messages name functions too


def prototypes(paths, prefix):
    """{function name: [parameter, ...]} from C headers; the first declaration of a name wins."""
    out = {}
    for path in paths:
        try:
            text = strip_comments(open(path, encoding='utf-8', errors='replace').read())
        except OSError:
            continue
        for m in re.finditer(r'\b((?:' + prefix + r')\w*)\s*\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*[;{]', text):
            params = m.group(2).strip()
            out.setdefault(m.group(1), [] if params in ('', 'void') else [p.strip() for p in params.split(',')])
    return out


def aliases(paths, prefix):
    """{macro: function} for `#define cublasSgemm cublasSgemm_v2` and the like."""
    out = {}
    for path in paths:
        try:
            text = open(path, encoding='utf-8', errors='replace').read()
        except OSError:
            continue
        for m in re.finditer(r'^\s*#\s*define\s+((?:' + prefix + r')\w*)\s+((?:' + prefix + r')\w*)\s*$', text, re.M):
            out[m.group(1)] = m.group(2)
    return out


def declared_names(paths):
    names = set()
    for path in paths:
        try:
            names |= set(re.findall(r'[A-Za-z_]\w*', strip_comments(open(path, encoding='utf-8', errors='replace').read())))
        except OSError:
            pass
    return names


QUALIFIERS = {'const', 'volatile', 'struct', 'enum', '__restrict__', '__restrict', 'restrict', 'signed'}


def param_type(param):
    """(base type, pointer depth) of one C parameter: `const float* const A[]` -> ('float', 2)."""
    p = re.sub(r'=.*$', '', param)
    depth = p.count('*') + p.count('[')
    p = re.sub(r'\[[^\]]*\]', ' ', p).replace('*', ' ').replace('&', ' ')
    words = [w for w in p.split() if w not in QUALIFIERS]
    builtin = {'unsigned', 'long', 'short', 'int', 'char', 'float', 'double', 'void', 'bool'}
    if len(words) > 1 and words[-1] not in builtin:
        words = words[:-1]  # the parameter's name
    return ' '.join(words), depth


def read_hipify(path):
    """{CUDA name: (ROC name, since, changed in, experimental in)} from a *_supported_by_ROC.md."""
    def release(s):
        m = re.match(r'(\d+)\.(\d+)', s)
        return f'{m.group(1)}.{m.group(2)}' if m else ''
    roc = {}
    for line in open(path, encoding='utf-8'):
        if not line.startswith('|`'):
            continue
        c = [x.strip() for x in line.strip().strip('|').split('|')]
        name = c[5].strip('`')
        if name:
            roc[c[0].strip('`')] = (name, release(c[6]) or '-', release(c[8]), release(c[10]) if len(c) > 10 else '')
    return roc


class Releases:
    """The first release of a library's git repository whose public headers declare a name."""

    def __init__(self, git_dir):
        self.git_dir, self.refs, self.names = git_dir, [], {}
        if not git_dir:
            return
        refs = subprocess.run(['git', '--git-dir', git_dir, 'for-each-ref', '--format=%(refname:short)',
                               'refs/tags', 'refs/heads'], capture_output=True, text=True, check=True).stdout.split()
        by_release = {}
        for ref in refs:
            m = re.fullmatch(r'rocm-(\d+)\.(\d+)\.0|release-staging/rocm-rel-(\d+)\.(\d+)', ref)
            if m:
                release = tuple(int(x) for x in m.groups() if x is not None)
                if ref.startswith('rocm-') or release not in by_release:
                    by_release[release] = ref
        self.refs = sorted(by_release.items())

    def _declared(self, ref):
        if ref not in self.names:
            git = ['git', '--git-dir', self.git_dir]
            files = subprocess.run(git + ['ls-tree', '-r', '--name-only', ref, 'library/include'],
                                   capture_output=True, text=True, check=True).stdout.split()
            text = ''.join(subprocess.run(git + ['show', f'{ref}:{f}'], capture_output=True, text=True,
                                          errors='replace').stdout for f in files if f.endswith('.h'))
            self.names[ref] = set(re.findall(r'[A-Za-z_]\w*', strip_comments(text)))
        return self.names[ref]

    def first(self, name):
        for (major, minor), ref in self.refs:
            if name in self._declared(ref):
                return f'{major}.{minor}'
        return None


class Library:
    """What differs between the ROC libraries: files, names, and the hand-checked FIXES."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


# rocSPARSE: where HIPIFY's ROC table is wrong (checked against rocSPARSE's headers).
ROCSPARSE_FIXES = {
    'CUSPARSE_ORDER_COL': ('rocsparse_order_column', 'HIPIFY gives rocsparse_order_row (swapped with CUSPARSE_ORDER_ROW)'),
    'CUSPARSE_ORDER_ROW': ('rocsparse_order_row', 'HIPIFY gives rocsparse_order_column (swapped with CUSPARSE_ORDER_COL)'),
    'csrsv2Info': ('_rocsparse_mat_info', 'HIPIFY gives _rocsparse_mat_descr; rocsparse_csrsv_analysis keeps its data in a rocsparse_mat_info'),
    'csrsv2Info_t': ('rocsparse_mat_info', 'HIPIFY gives rocsparse_mat_descr; rocsparse_csrsv_analysis keeps its data in a rocsparse_mat_info'),
}

# rocBLAS: (name, note[, status[, since]]) where HIPIFY's ROC table is wrong or silent, checked
# against rocBLAS's headers (rocblas-types.h, rocblas-functions.h; since: the first rocm-X.Y tag of
# ROCm/rocBLAS that declares the name). A note that starts "HIPIFY gives" marks a better name for
# the coverage report; the status, when given, overrides the computed one.
TRMM_NOTE = ('rocBLAS >= ROCm 6.0 trmm is out-of-place with a separate C like cuBLAS; older rocBLAS (5.x) '
             'has in-place trmm and trmm_outofplace')
ROCBLAS_FIXES = {
    'CUBLAS_STATUS_ALLOC_FAILED': ('rocblas_status_memory_error', 'HIPIFY gives rocblas_status_not_implemented; '
                                   'rocBLAS reports a failed allocation as rocblas_status_memory_error', 'changed'),
    'CUBLAS_STATUS_EXECUTION_FAILED': ('rocblas_status_internal_error', 'HIPIFY gives rocblas_status_memory_error; '
                                       'a kernel that failed to run is rocblas_status_internal_error', 'changed'),
    'CUBLAS_STATUS_NOT_SUPPORTED': ('rocblas_status_not_implemented', 'HIPIFY gives rocblas_status_perf_degraded, '
                                    'which is not an error; rocblas_status_not_implemented is', 'changed'),
    'CUBLAS_STATUS_MAPPING_ERROR': ('rocblas_status_invalid_size', 'closest rocBLAS status', 'changed'),
    'CUBLAS_TF32_TENSOR_OP_MATH': ('rocblas_xf32_xdl_math_op', 'xf32 only on gfx94x (rocBLAS 5.7 has it in '
                                   'rocblas_math_mode; HIPIFY gives no rocBLAS name)', 'changed', '5.7'),
    'cudaDataType_t': ('rocblas_datatype', 'HIPIFY gives rocblas_datatype_, the enum tag (C needs `enum` before '
                       'it); rocblas_datatype is its typedef, as for cudaDataType'),
    'cublasComputeType_t': ('rocblas_computetype', 'only f32 compute exists (rocblas_compute_type_f32); rocblas_gemm_ex '
                            'takes its compute type as a rocblas_datatype', 'changed'),
}
for _p in 'SDCZ':
    for _v in ('', '_v2'):
        ROCBLAS_FIXES[f'cublas{_p}trmm{_v}'] = (f'rocblas_{_p.lower()}trmm', TRMM_NOTE, 'changed')

# Why a name HIPIFY gives no rocBLAS name for has none, and what to do instead (hand-checked
# against rocBLAS's headers): the first pattern that matches the CUDA name.
ROCBLAS_HINTS = [
    (r'^CUBLAS_GEMM_ALGO\d+$', 'use rocblas_gemm_algo_standard (or solution indices via rocblas_gemm_ex_get_solutions)'),
    (r'^CUBLAS_GEMM_(ALGO\d+|DEFAULT|DFALT)_TENSOR_OP$', 'use rocblas_gemm_algo_standard'),
    (r'^(CUBLAS_COMPUTE_|CUBLAS_(PEDANTIC|TENSOR_OP)_MATH$|CUBLAS_MATH_DISALLOW)',
     'rocBLAS picks the compute type from the rocblas_datatype arguments'),
    (r'^CUBLAS_OP_CONJG$', 'rocblas_operation has no conjugate-without-transpose'),
    (r'^CUBLAS_STATUS_LICENSE_ERROR$', 'no licensing on ROCm'),
    (r'^cublas(Alloc|Free|GetError|Shutdown|SetKernelStream|GetVersion|GetProperty|GetCudartVersion|GetStatusName|'
     r'[GS]etSmCountTarget|LoggerConfigure|[SG]etLoggerCallback|MigrateComputeType|Xerbla)$',
     'drop it or use rocblas_get_version_string / ROCBLAS_LAYER logging'),
    (r'^cublas[SDCZ](getrf|getrs|getri|matinv|geqrf|gels)Batched$|^cublas[SDCZ](trttp|tpttr)$',
     'LAPACK-like routine: use rocSOLVER (rocsolver_*), whose arguments differ'),
    (r'^cublas(Cgemm3m|Zgemm3m|SgemmEx|CgemmEx|Cherk|Csyrk|Uint8gemmBias|AsumEx|CopyEx|IamaxEx|IaminEx|Rot[mg]*Ex|SwapEx)',
     'use rocblas_gemm_ex or the typed routine'),
    (r'_64$', 'no ILP64 (_64) variant in rocBLAS; use the 32-bit-int routine (sizes < 2^31)'),
]

# The types the other tables give the parameters of a cuBLAS call (cuComplex.h, cuda_fp16.h,
# the runtime), and the integer types that are the same on both sides.
ROCBLAS_MIGRATED = {
    'cuComplex': 'hipFloatComplex', 'cuFloatComplex': 'hipFloatComplex', 'cuDoubleComplex': 'hipDoubleComplex',
    '__half': '__half', '__nv_bfloat16': '__hip_bfloat16', 'cudaStream_t': 'hipStream_t',
}
SAME_INTEGER = {'rocblas_int': 'int', 'int32_t': 'int', 'int64_t': 'int64', 'long long': 'int64',
                'long long int': 'int64', 'rocblas_stride': 'int64', 'rocblas_int64': 'int64',
                'size_t': 'size_t', 'unsigned int': 'unsigned', 'uint32_t': 'unsigned', 'unsigned': 'unsigned'}
# rocBLAS types a migrated argument does not convert to, and what the note tells the user.
ROCBLAS_CASTS = {
    'rocblas_float_complex': 'rocBLAS takes rocblas_float_complex/rocblas_double_complex: cast the migrated '
                             'hipFloatComplex/hipDoubleComplex pointers (same layout)',
    'rocblas_double_complex': None,  # the same note
    'rocblas_half': 'rocBLAS takes rocblas_half: cast the migrated __half pointers (same layout)',
    'rocblas_bfloat16': 'rocBLAS takes rocblas_bfloat16: cast the migrated bfloat16 pointers (same layout)',
}
ROCBLAS_CASTS['rocblas_double_complex'] = ROCBLAS_CASTS['rocblas_float_complex']

LIBRARIES = {
    'rocsparse': Library(
        title='rocSPARSE', cuda_title='cuSPARSE', family='cusparse', base='cusparse.tsv', out='alt-rocsparse/cusparse.tsv',
        hipify='CUSPARSE_API_supported_by_ROC.md', option='--sparse=rocsparse', fallback='--sparse=hipsparse',
        cuda_headers=['cusparse.h'], cuda_label='cusparse.h', roc_default='/usr/include/rocsparse', hints=[],
        roc_label='rocSPARSE 5.3', prefix='cusparse|rocsparse', header='rocsparse/rocsparse.h', headers={},
        fixes=ROCSPARSE_FIXES, compare_types=False, review_absent=False),
    'rocblas': Library(
        title='rocBLAS', cuda_title='cuBLAS', family='cublas', base='cublas.tsv', out='alt-rocblas/cublas.tsv',
        hipify='CUBLAS_API_supported_by_ROC.md', option='--blas=rocblas', fallback='--blas=hipblas',
        cuda_headers=['cublas_api.h', 'cublas_v2.h'], cuda_label='cublas_api.h', roc_default='', hints=ROCBLAS_HINTS,
        roc_label="rocBLAS's headers", prefix='cublas|rocblas', header='rocblas/rocblas.h',
        headers={'cublas_v2.h': ('rocblas/rocblas.h', 'supported', 'older ROCm installs it at the include root as rocblas.h'),
                 'cublas.h': ('rocblas/rocblas.h', 'deprecated', 'legacy cuBLAS API; rocBLAS only has the handle-based API'),
                 'cublasXt.h': ('-', 'unsupported', 'cuBLASXt (multi-GPU host BLAS) has no ROCm equivalent')},
        fixes=ROCBLAS_FIXES, compare_types=True, review_absent=True),
}


def type_difference(cuda_params, roc_params, renames):
    """The note for the first parameter whose migrated CUDA type is not rocBLAS's, else ''."""
    def canon(t):
        return SAME_INTEGER.get(t, t)
    for i, (a, b) in enumerate(zip(cuda_params, roc_params)):
        (ta, da), (tb, db) = param_type(a), param_type(b)
        ta = renames.get(ta, ROCBLAS_MIGRATED.get(ta, ta))
        if canon(ta) == canon(tb) and da == db:
            continue
        if tb in ROCBLAS_CASTS:
            return ROCBLAS_CASTS[tb]
        return f'parameter {i + 1} is {b} in rocBLAS, {a} in cuBLAS: check the argument'
    return ''


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in LIBRARIES:
        print(__doc__, file=sys.stderr)
        return 1
    lib = LIBRARIES[sys.argv[1]]
    tables = sys.argv[2]
    cuda_dir = sys.argv[3] if len(sys.argv) > 3 else '/usr/local/cuda/include'
    roc_dir = sys.argv[4] if len(sys.argv) > 4 else lib.roc_default
    releases = Releases(sys.argv[5] if len(sys.argv) > 5 else '')
    roc = read_hipify(os.path.join(tables, lib.hipify))
    roc_since = {}  # ROC name: the release HIPIFY gives it, for FIXES that choose another of its names
    for name, since, _, _ in roc.values():
        roc_since.setdefault(name, since)
    cuda_paths = [os.path.join(cuda_dir, h) for h in lib.cuda_headers]
    cuda_protos = prototypes(cuda_paths, lib.prefix)
    cuda_alias = aliases(cuda_paths, lib.prefix)
    roc_paths = []
    for d, _, files in os.walk(roc_dir) if roc_dir and os.path.isdir(roc_dir) else ():
        roc_paths += [os.path.join(d, f) for f in sorted(files) if f.endswith('.h')]
    if lib.review_absent and not roc_paths:
        print(f'{lib.title} headers not found in {roc_dir!r}: pass ROC_INCLUDE_DIR', file=sys.stderr)
        return 1
    roc_protos = prototypes(roc_paths, lib.prefix)
    roc_names = declared_names(roc_paths)
    base = []
    for line in open(os.path.join(ROOT, 'cuda2hip', lib.base), encoding='utf-8'):
        if line.strip() and not line.startswith('#'):
            base.append(line.rstrip('\n').split('\t'))
    # The type renames this table makes, for comparing parameter types.
    renames = {}
    for f in base:
        if f[0] == 'type' and f[1] in roc:
            renames[f[1]] = lib.fixes.get(f[1], roc[f[1]])[0]
    out = [f'# Ferry CUDA->HIP mapping rules, family "{lib.family}", for {lib.option}: '
           f'{lib.cuda_title} -> {lib.title}.',
           '# kind\tfrom\tto\tfamily\tstatus\tsince[\tnote]   (see docs/rules.md)',
           f'# Generated by rules/make_alt_roc.py {sys.argv[1]} from HIPIFY\'s {lib.hipify} (names,',
           f'# since) and the parameter {"types" if lib.compare_types else "counts"} of '
           f'{" and ".join(lib.cuda_headers)} (CUDA) and {lib.title}\'s headers; review before committing.']
    counts = {'supported': 0, 'changed': 0, 'deprecated': 0, 'unsupported': 0}
    absent = []
    for f in base:
        kind, frm = f[0], f[1]
        if kind == 'header':
            to, status, note = lib.headers.get(frm, (lib.header, 'supported', ''))
            out.append('\t'.join(['header', frm, to, lib.family, status, '-'] + ([note] if note else [])))
            counts[status] += 1
            continue
        fix = lib.fixes.get(frm)
        twin = re.sub(r'(_v2)?_64$', '', frm) if frm.endswith('_64') else ''
        if frm not in roc and not fix and twin in roc and roc[twin][0] + '_64' in roc_names:
            name = roc[twin][0] + '_64'
            since = releases.first(name)
            if not since:
                print(f'{frm} -> {name}: no release found to date it (pass ROC_GIT_DIR)', file=sys.stderr)
                return 1
            fix = (name, f'the ILP64 twin of {roc[twin][0]} (HIPIFY lists no {lib.title} name)',
                   'supported', since)
        if frm not in roc and not fix:
            hint = next((h for pattern, h in lib.hints if re.search(pattern, frm)), '')
            if not hint:
                hint = f'migrate with {lib.fallback}' if f[2] != '-' else f'{lib.fallback} has none either'
            out.append('\t'.join([kind, frm, '-', lib.family, 'unsupported', '-',
                                  f'HIPIFY gives no {lib.title} name for it; {hint}']))
            counts['unsupported'] += 1
            continue
        name, since, _, experimental = roc.get(frm, ('', '-', '', ''))
        status, note = 'supported', ''
        if fix:
            status = fix[2] if len(fix) > 2 else status
            if len(fix) > 3:
                since = fix[3]
            elif fix[0] != name:  # the release of our name, not of HIPIFY's
                since = roc_since.get(fix[0]) or releases.first(fix[0]) or '-'
            name, note = fix[0], fix[1]
        if kind in ('func', 'call') and status == 'supported':
            cuda_name = cuda_alias.get(frm, frm)
            a, b = cuda_protos.get(cuda_name), roc_protos.get(name)
            found = ''
            if a is None or b is None:
                found = (f'{lib.title} call: check its arguments against {name} (' +
                         (lib.cuda_label if a is None else lib.roc_label) + ' does not declare it here)')
            elif len(a) != len(b):
                found = f'{name} takes {len(b)} arguments, {frm} {len(a)}: rewrite the call'
            elif lib.compare_types:
                found = type_difference(a, b, renames)
            if found:
                status, note = 'changed', '; '.join(x for x in (note, found) if x)
        if experimental:
            note = (note + '; ' if note else '') + f'(experimental in {lib.title} {experimental})'
        if lib.review_absent and name not in roc_names:
            absent.append(f'{frm} -> {name}')
        if kind == 'call':
            kind = 'func'  # the ROC name replaces the head; its arguments are the user's to fix
        out.append('\t'.join([kind, frm, name, lib.family, status, since] + ([note] if note else [])))
        counts[status] += 1
    path = os.path.join(ROOT, 'cuda2hip', lib.out)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, 'w', encoding='utf-8').write('\n'.join(out) + '\n')
    for a in absent:
        print(f'not declared by {lib.title}\'s headers: {a}', file=sys.stderr)
    print(f'{path}: {dict((k, v) for k, v in counts.items() if v or k != "deprecated")}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
