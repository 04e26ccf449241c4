#!/usr/bin/env bash
# `make bench` part: data-parallel training parity of ferry-comm's codecs (gloo baseline, none,
# bf16, int8+ef, eb) on a small LLaMA-style decoder; writes bench/results/training_parity.{md,json,png}.
# Usage: bench/training_bench.sh [BUILD]   (STEPS, RANKS, VARIANTS: see comm/bench/training_parity.sh)
set -u -o pipefail
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case "$BUILD" in /*) build=$BUILD ;; *) build=$ROOT/$BUILD ;; esac
bash "$ROOT/comm/bench/training_parity.sh" "$build" "$ROOT/bench/results"
rc=$?
[ $rc = 77 ] && rc=0  # torch missing: the script said so; not a benchmark failure
exit $rc
