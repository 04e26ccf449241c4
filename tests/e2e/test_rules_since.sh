#!/usr/bin/env bash
# The version model's data against the installed HIP: every CUDA → HIP row the tables say the
# installed release has is declared by its headers, and no row is said to be newer than it is.
# Skips (77) where no HIP headers are installed.
set -euo pipefail
exec python3 "$FERRY_ROOT/rules/check_since.py" /usr/include
