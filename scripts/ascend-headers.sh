#!/usr/bin/env bash
# Assembles the public AscendCL, HCCL and aclnn headers at pinned commits into include roots laid
# out like a CANN install (acl/, hccl/, aclnn/, aclnnop/, opdev/), for the cann header check:
#
#   scripts/ascend-headers.sh DEST            # both header sets: DEST/8.5 and DEST/head
#   FERRY_ASCEND_INCLUDE=DEST/8.5/include:DEST/head/include ctest -R cann --output-on-failure
#
# Needs git and network access to github.com (or local clones, see below). Nothing is written
# into the Ferry checkout; the headers are Huawei's (CANN Open Software License) and are never
# committed. Each set's DEST/<set>/VERSIONS records the repositories and commits used.
#
# Local clones instead of the network: FERRY_ASCEND_GIT_RUNTIME, _HCCL, _OPBASE, _OPSNN may name a
# git directory (bare or not) of hicann/runtime, Ascend/pytorch, hicann/opbase, hicann/ops-nn that
# holds the pinned commits.
set -euo pipefail

usage() { echo "usage: $0 DEST [8.5|head ...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
DEST=$1
shift
SETS=("$@")
[ ${#SETS[@]} -gt 0 ] || SETS=(8.5 head)

RUNTIME_URL=${FERRY_ASCEND_RUNTIME_URL:-https://github.com/hicann/runtime.git}
HCCL_URL=${FERRY_ASCEND_HCCL_URL:-https://github.com/Ascend/pytorch.git}
OPBASE_URL=${FERRY_ASCEND_OPBASE_URL:-https://github.com/hicann/opbase.git}
OPSNN_URL=${FERRY_ASCEND_OPSNN_URL:-https://github.com/hicann/ops-nn.git}

# Pins: runtime = AscendCL (include/external/acl), hccl = Ascend/pytorch third_party/hccl (hccl.h
# and hccl_types.h, self-contained), opbase = aclnn base types, ops-nn = the aclnn matmul headers.
declare -A PIN
PIN[8.5,runtime]=c741ed4fd53c92c455545ba8f17f45bda5440942   # hicann/runtime tag v8.5.0
PIN[8.5,hccl]=0a6c1e6ed3fb3543de930af67bc7205a3c2aa7a7      # Ascend/pytorch master, 2026-01-06
PIN[8.5,opbase]=b27e949de1ce29df366a279adf3976f2660e669c    # hicann/opbase tag v8.5.0
PIN[8.5,opsnn]=e9f5c1b3e0acba40c9ce0d9a7b9c157f4dea0029     # hicann/ops-nn tag v8.5.0
PIN[head,runtime]=681ef7610df13c8128982901142a2c869ddbb53e  # hicann/runtime master, 2026-08-22 (after v9.2.0-beta.1)
PIN[head,hccl]=9e73e708ab9350d203475609f36f8a43f6a0c2ab     # Ascend/pytorch master, 2026-08-21
PIN[head,opbase]=aa3cd74b7f6d772acd64ff48292a7e65a9bc8142   # hicann/opbase master, 2026-07-22
PIN[head,opsnn]=e5c3fa9327ea95ba26d06227e746923580d10921    # hicann/ops-nn master, 2026-08-22

# The aclnn operators Ferry writes (aclnnMatmul) or names in its hints (Addmm, BatchMatMul, Mv).
OPSNN_HEADERS=(matmul/mat_mul_v3/op_host/op_api/aclnn_matmul.h matmul/mat_mul_v3/op_host/op_api/aclnn_addmm.h
  matmul/batch_mat_mul_v3/op_host/op_api/aclnn_batch_matmul.h matmul/mv/op_host/op_api/aclnn_mv.h)

mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)

# git_dir NAME URL: a git directory holding the commits of NAME (local override or a partial clone).
git_dir() {
  local name=$1 url=$2 var="FERRY_ASCEND_GIT_${1^^}"
  if [ -n "${!var:-}" ]; then
    echo "${!var}"
    return
  fi
  local dir="$DEST/.src/$name"
  if [ ! -d "$dir" ]; then
    git init -q --bare "$dir"
    git -C "$dir" remote add origin "$url"
  fi
  echo "$dir"
}

# extract NAME URL COMMIT OUT PATH...: the files under PATH at COMMIT, into OUT.
extract() {
  local name=$1 url=$2 commit=$3 out=$4
  shift 4
  local dir
  dir=$(git_dir "$name" "$url")
  if ! git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "fetching $name $commit from $url" >&2
    git -C "$dir" fetch -q --depth 1 --filter=blob:none origin "$commit"
  fi
  mkdir -p "$out"
  git -C "$dir" archive "$commit" "$@" | tar -x -C "$out"
}

for set in "${SETS[@]}"; do
  [ -n "${PIN[$set,runtime]:-}" ] || { echo "unknown header set '$set' (8.5, head)" >&2; exit 2; }
  root="$DEST/$set"
  rm -rf "$root"
  raw="$root/raw"
  inc="$root/include"
  extract runtime "$RUNTIME_URL" "${PIN[$set,runtime]}" "$raw/runtime" include/external/acl
  extract hccl "$HCCL_URL" "${PIN[$set,hccl]}" "$raw/hccl" third_party/hccl/inc/hccl/hccl.h \
    third_party/hccl/inc/hccl/hccl_types.h
  extract opbase "$OPBASE_URL" "${PIN[$set,opbase]}" "$raw/opbase" include/nnopbase include/aclnnop
  extract opsnn "$OPSNN_URL" "${PIN[$set,opsnn]}" "$raw/opsnn" "${OPSNN_HEADERS[@]}"

  mkdir -p "$inc/hccl" "$inc/aclnnop"
  cp -r "$raw/runtime/include/external/acl" "$inc/acl"
  cp "$raw/hccl/third_party/hccl/inc/hccl/hccl.h" "$raw/hccl/third_party/hccl/inc/hccl/hccl_types.h" "$inc/hccl/"
  cp -r "$raw/opbase/include/nnopbase/." "$inc/"
  cp "$raw/opbase/include/aclnnop/aclnn_util.h" "$inc/aclnnop/"
  for h in "${OPSNN_HEADERS[@]}"; do cp "$raw/opsnn/$h" "$inc/aclnnop/"; done
  # torch_npu's copy of hccl.h includes its siblings by their path in that tree
  # ("third_party/hccl/inc/hccl/hccl_types.h", "third_party/acl/inc/acl/acl.h"): point those
  # paths at the real headers instead of editing the files.
  mkdir -p "$inc/third_party/hccl/inc/hccl" "$inc/third_party/acl/inc"
  ln -sfn ../../../../hccl/hccl_types.h "$inc/third_party/hccl/inc/hccl/hccl_types.h"
  ln -sfn ../../../acl "$inc/third_party/acl/inc/acl"
  rm -rf "$raw"
  {
    echo "header set $set, assembled $(date -u +%Y-%m-%dT%H:%MZ) by scripts/ascend-headers.sh"
    echo "acl/      $RUNTIME_URL ${PIN[$set,runtime]} include/external/acl"
    echo "hccl/     $HCCL_URL ${PIN[$set,hccl]} third_party/hccl/inc/hccl"
    echo "aclnn/    $OPBASE_URL ${PIN[$set,opbase]} include/nnopbase, include/aclnnop/aclnn_util.h"
    echo "aclnnop/  $OPSNN_URL ${PIN[$set,opsnn]} ${OPSNN_HEADERS[*]}"
  } >"$root/VERSIONS"
  echo "$inc"
done
