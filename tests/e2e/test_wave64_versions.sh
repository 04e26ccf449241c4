#!/usr/bin/env bash
# Version rewrites proven by running: tests/wave64/versions/*.cu are CUDA programs that use what an
# older HIP release lacks and `ferry migrate --hip-version 5.2` rewrites (tile_meta.cu:
# thread_block_tile::meta_group_rank/size, ROCm 5.7). Each runs on the wave64 CPU runtime as CUDA
# (the reference: the runtime's CUDA API has CUDA's members) and as its HIP 5.2 port at wave 64;
# the outputs must be equal, and the port must not use the member any more.
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
SRC=$(cd "$(dirname "$0")/../wave64/versions" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
for f in "$SRC"/*.cu; do
  base=$(basename "$f" .cu)
  mkdir -p "$work/$base/cuda"
  cp "$f" "$work/$base/cuda/"
  "$FERRY" migrate "$work/$base/cuda" --to hip --hip-version 5.2 -o "$work/$base/hip" >/dev/null 2>"$work/$base/migrate.log" ||
    { cat "$work/$base/migrate.log"; echo "FAIL $base: migrate"; fails=$((fails + 1)); continue; }
  # the span record of the rewrite (`/* ferry-cuda: warp.meta_group_rank() */`) names the call: not a call
  if sed 's|/\* ferry-cuda: [^*]* \*/||g' "$work/$base/hip/$base.cu" | grep -q '\.meta_group_'; then
    echo "FAIL $base: the HIP 5.2 port still calls meta_group_*:"
    grep -n '\.meta_group_' "$work/$base/hip/$base.cu"
    fails=$((fails + 1))
  fi
  ref=$(timeout 600 "$FERRY" wave64 run "$work/$base/cuda/$base.cu" --work "$work/$base/ref.w64" 2>"$work/$base/ref.err") ||
    { tail -20 "$work/$base/ref.err"; echo "FAIL $base: the CUDA program failed"; fails=$((fails + 1)); continue; }
  port=$(timeout 600 "$FERRY" wave64 run "$work/$base/hip/$base.cu" --work "$work/$base/port.w64" 2>"$work/$base/port.err") ||
    { tail -20 "$work/$base/port.err"; echo "FAIL $base: the HIP port failed"; fails=$((fails + 1)); continue; }
  if [[ "$ref" != "$port" ]]; then
    echo "FAIL $base: the port's output differs"
    diff <(echo "$ref") <(echo "$port")
    fails=$((fails + 1))
    continue
  fi
  echo "ok   $base: CUDA (warp 32) and the HIP 5.2 port (wave 64) print the same:"
  sed 's/^/       /' <<<"$ref"
done
[[ $fails -eq 0 ]] && echo "all version rewrites run as CUDA does" || echo "$fails failed"
exit $((fails > 0))
