# Shared by tests/e2e/test_verify*.sh: locate ferry and the toolchains, make a scratch folder,
# copy an example without build outputs (git-tracked files when in a checkout).
set -euo pipefail
ROOT="${FERRY_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
FERRY="${FERRY:-$ROOT/build/ferry}"
export PATH="$PATH:/usr/local/cuda/bin"
[ -x "$FERRY" ] || { echo "ferry binary not found: $FERRY" >&2; exit 1; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ferry-verify-e2e.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
# Original checks are cached: keep the cache inside the scratch folder so runs stay independent.
export XDG_CACHE_HOME="$WORK/cache"

need() {  # need hipcc|nvcc: skip (77) when the toolchain is absent
  command -v "$1" >/dev/null 2>&1 || { echo "SKIP: $1 not installed"; exit 77; }
}

copy_example() {  # copy_example SRC_REL DEST
  local src="$1" dest="$2"
  mkdir -p "$dest"
  if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
     [ -n "$(git -C "$ROOT" ls-files "$src" | head -1)" ]; then
    (cd "$ROOT/$src" && git ls-files -z . | xargs -0 -I{} cp --parents {} "$dest/")
  else
    (cd "$ROOT/$src" && find . -type d \( -name 'build*' -o -name CMakeFiles \) -prune -o -type f -print0 |
       xargs -0 -I{} cp --parents {} "$dest/")
  fi
}

fail() { echo "FAIL: $*" >&2; exit 1; }
