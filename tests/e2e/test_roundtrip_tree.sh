#!/usr/bin/env bash
# Whole-tree round-trip properties on trees of our own (bench/roundtrip_property.py; `make bench`
# runs the same script over public checkouts):
#   1. tests/roundtrip/cuda: CUDA -> HIP -> CUDA gives every file back byte for byte (a runtime
#      program that includes <cuda.h>, an error macro in such a header, cooperative-groups tiles);
#   2. tests/roundtrip/cuda and tests/roundtrip/fixed: migrating the HIP output again changes nothing;
#   3. tests/roundtrip/hip: the HIP -> CUDA output compiles with nvcc (ferry verify; skipped without nvcc);
#   4. its Makefile loses -DWAVE64 and gets the nvcc flags the sources need;
#   5. driver_module's CMake file links CUDA::cuda_driver beside CUDA::cudart;
#   6. tests/roundtrip/hipback: HIP -> CUDA -> HIP gives every file back byte for byte (CUDA code
#      HIP code holds for NVIDIA, a shim of CUDA names, build files with a runtime switch).
set -euo pipefail
FERRY=${FERRY:?path to the ferry binary}
ROOT=${FERRY_ROOT:?source root}
export FERRY
P="python3 $ROOT/bench/roundtrip_property.py"
$P cuda "$ROOT/tests/roundtrip/cuda"
$P fixed "$ROOT/tests/roundtrip/cuda" "$ROOT/tests/roundtrip/fixed"
$P hipback "$ROOT/tests/roundtrip/hipback"
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
  $P hip "$ROOT/tests/roundtrip/hip"
else
  echo "note: nvcc is not installed; the HIP -> CUDA compile check is skipped"
fi
# 4. the HIP tree's Makefile: the wave64 selector's -D goes, the nvcc flags the code needs come
#    (FRY5240, FRY5241; buildsys/source_facts.h).
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$FERRY" migrate "$ROOT/tests/roundtrip/hip" --from hip --to cuda -o "$OUT/cuda" -q >/dev/null || [ $? = 1 ]
grep -v "^#" "$OUT/cuda/Makefile" | grep -q -- "-DWAVE64" && { echo "FAIL: -DWAVE64 kept"; cat "$OUT/cuda/Makefile"; exit 1; }
grep -q -- "nvcc --extended-lambda --expt-relaxed-constexpr" "$OUT/cuda/Makefile" ||
  { echo "FAIL: nvcc flags not added"; cat "$OUT/cuda/Makefile"; exit 1; }
# 5. a target whose sources call the driver API links CUDA's driver library too (HIP's one
#    library held both); hipcc's link options go (buildsys/source_facts.h, driver_api).
grep -q -- "CUDA::cudart CUDA::cuda_driver" "$OUT/cuda/driver_module/CMakeLists.txt" ||
  { echo "FAIL: CUDA::cuda_driver not linked"; cat "$OUT/cuda/driver_module/CMakeLists.txt"; exit 1; }
echo "PASS"
