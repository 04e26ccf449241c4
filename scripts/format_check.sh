#!/usr/bin/env bash
# The style check: clang-format-14 --dry-run -Werror over Ferry's own C/C++/CUDA sources, the
# folders .clang-format was applied to at fe3b395 (src, comm, runtime, tests/unit, tests/fuzz,
# tests/kernels, bench). Golden data, examples/, rules/compat and tests/wave64 are inputs and keep
# their own layout, so they are not checked.
#   scripts/format_check.sh [ROOT]       (make format-check; CTest style.clang_format)
# Exit 0: formatted; 1: files to format (listed, with the fix); 77: clang-format-14 not installed
# (the test is skipped). CLANG_FORMAT=path overrides the binary; it must be release 14, since other
# releases format some constructs differently.
set -u -o pipefail
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
cd "$root" || exit 2
folders=(src comm runtime tests/unit tests/fuzz tests/kernels bench)
cf=${CLANG_FORMAT:-$(command -v clang-format-14 || true)}
if [ -z "$cf" ] || ! "$cf" --version >/dev/null 2>&1; then
  echo "format_check: SKIP: clang-format-14 not installed (Debian: apt-get install clang-format-14; make deps does)"
  exit 77
fi
if ! "$cf" --version | grep -q 'version 14\.'; then
  echo "format_check: SKIP: $cf is not clang-format 14 ($("$cf" --version | head -1)); set CLANG_FORMAT"
  exit 77
fi
pattern='\.(c|cc|cpp|cxx|h|hh|hpp|cu|cuh)$'
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked files, plus new ones not ignored: what a commit would hold.
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- "${folders[@]}" | grep -E "$pattern" |
                       while read -r f; do [ -f "$f" ] && echo "$f"; done)
else
  mapfile -t files < <(find "${folders[@]}" -type f 2>/dev/null | grep -E "$pattern" | sort)
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "format_check: FAIL: no sources found under ${folders[*]} in $root" >&2
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$cf" --dry-run -Werror --style=file "${files[@]}" 2>"$log"
rc=$?
bad=$(grep -oE '^[^:]+:[0-9]+:[0-9]+: error' "$log" | cut -d: -f1 | sort -u)
if [ $rc -ne 0 ] && [ -z "$bad" ]; then
  cat "$log" >&2
  echo "format_check: FAIL: $cf exited $rc" >&2
  exit 1
fi
if [ -n "$bad" ]; then
  n=$(grep -c ': error: code should be clang-formatted' "$log")
  echo "format_check: FAIL: $(echo "$bad" | wc -l) of ${#files[@]} files not formatted ($n places):"
  echo "$bad" | sed 's/^/  /'
  echo "fix: git clang-format-14 --binary $cf (the lines you changed), or $cf -i FILE"
  exit 1
fi
echo "format_check: ${#files[@]} files formatted ($("$cf" --version | head -1 | sed 's/^.*version //'))"
