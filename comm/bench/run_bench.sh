#!/usr/bin/env bash
# ferry-comm benchmark driver (`make bench` calls it): ferrycomm-bench over shared memory, then
# over TCP between network namespaces joined by a bridge, every namespace's veth link shaped with
# tc to RATE (1 Gbit/s and 10 Gbit/s by default), so the benefit of compression on a slow
# interconnect is measured. Everything network-related lives in namespaces this script creates
# (names fryc<pid>-*, addresses 10.231.0.0/24 seen only inside them) and is deleted on exit.
#
# usage: comm/bench/run_bench.sh [BUILD_DIR]
#   env: RANKS=4  GROUP_RANKS=8  GROUP_REPS_TCP=5  MAX_BYTES=64M  RATES="1gbit 10gbit"  QUICK=1 (64 MiB rows only)
#        CODECS="none bf16 ..."  RUN_TIMEOUT=600 (seconds per mpirun)  OUT=report.md (copy of output)
# Needs root, iproute2 (ip, tc) and util-linux (unshare) for the namespace part; without them that
# part is skipped with a message and the shared-memory part still runs.
set -euo pipefail

BUILD=${1:-build-comm}
# Standalone build (build-comm/) or the top-level tree (build/comm/); FERRYCOMM_BENCH overrides.
BENCH=${FERRYCOMM_BENCH:-}
for candidate in "$BUILD/ferrycomm-bench" "$BUILD/comm/ferrycomm-bench"; do
  [[ -z "$BENCH" && -x "$candidate" ]] && BENCH=$(readlink -f "$candidate")
done
BENCH=${BENCH:-$BUILD/ferrycomm-bench}
RANKS=${RANKS:-4}
GROUP_RANKS=${GROUP_RANKS:-8}
MAX_BYTES=${MAX_BYTES:-64M}
RATES=${RATES:-"1gbit 10gbit"}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
CODECS=${CODECS:-"none bf16 fp16 int8 int4 eb:rel=1e-3 eb:rel=1e-3,zstd=1"}
if [[ -n "${QUICK:-}" ]]; then SIZES=(-b "$MAX_BYTES" -e "$MAX_BYTES"); else SIZES=(-b 16 -e "$MAX_BYTES" -f 4); fi
COMMON=(-w 1 -n 5 --budget 2 --markdown)

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Ranks share cores (with each other, and on a busy machine with everything else): waiting ranks
# must yield, or Open MPI's busy polling takes the CPU the codecs need.
MPIRUN=(mpirun --oversubscribe --allow-run-as-root --bind-to none --mca mpi_yield_when_idle 1)
PREFIX="fryc$$"
WORK=$(mktemp -d)
OUT=${OUT:-}

log() { echo "$@"; }
cleanup() {
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$PREFIX-" || true); do ip netns del "$ns" || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

[[ -x "$BENCH" ]] || { echo "run_bench.sh: $BENCH not built" >&2; exit 1; }

header() {
  log "# ferry-comm benchmark $(date -u +%Y-%m-%dT%H:%MZ)"
  log ""
  log "- machine: $(nproc) CPU cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))," \
      "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  log "- MPI: $(mpirun --version | head -1); compiler: $(c++ --version | head -1)"
  log "- command: $0 $*  (RANKS=$RANKS MAX_BYTES=$MAX_BYTES RATES='$RATES')"
  log ""
}

# --- shared memory ---------------------------------------------------------------------------
shm() {
  log "## Shared memory (vader), $RANKS ranks"
  log ""
  log '```'
  log "${MPIRUN[*]} -np $RANKS --mca btl self,vader ferrycomm-bench ${SIZES[*]} ${COMMON[*]} --codecs $CODECS"
  log '```'
  log ""
  timeout "$RUN_TIMEOUT" "${MPIRUN[@]}" -np "$RANKS" --mca btl self,vader "$BENCH" "${SIZES[@]}" "${COMMON[@]}" --codecs $CODECS
  log ""
  log "## Group construction, shared memory, $GROUP_RANKS ranks"
  log ""
  timeout "$RUN_TIMEOUT" "${MPIRUN[@]}" -np "$GROUP_RANKS" --mca btl self,vader "$BENCH" --markdown \
    --groups 2x2x2 8x1x1 4x2x1 1x8x1
  log ""
}

# --- network namespaces ------------------------------------------------------------------------
can_netns() {
  [[ $(id -u) == 0 ]] && command -v ip >/dev/null && command -v tc >/dev/null && command -v unshare >/dev/null &&
    ip netns add "$PREFIX-probe" 2>/dev/null && ip netns del "$PREFIX-probe"
}

# One hub namespace with a bridge; node i in its own namespace (and UTS namespace, so Open MPI
# sees distinct hosts) with a veth to the bridge; both ends shaped to $1 with a token bucket.
netns_up() {
  local rate=$1 nodes=$2 hub="$PREFIX-hub"
  ip netns add "$hub"
  ip -n "$hub" link set lo up
  ip -n "$hub" link add br0 type bridge
  ip -n "$hub" addr add 10.231.0.1/24 dev br0
  ip -n "$hub" link set br0 up
  for ((i = 0; i < nodes; i++)); do
    local ns="$PREFIX-n$i"
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    ip -n "$ns" link add eth0 type veth peer name p$i netns "$hub"
    ip -n "$ns" addr add "10.231.0.$((10 + i))/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$hub" link set "p$i" master br0
    ip -n "$hub" link set "p$i" up
    ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "$rate" burst 1mb latency 50ms
    ip netns exec "$hub" tc qdisc add dev "p$i" root tbf rate "$rate" burst 1mb latency 50ms
  done
  cat >"$WORK/agent.sh" <<'AGENT'
#!/bin/sh
# Open MPI's rsh launcher calls: agent HOST COMMAND...; HOST is a namespace name.
host=$1; shift
exec ip netns exec "$host" unshare --uts sh -c 'hostname "$0"; exec sh -c "$1"' "$host" "$*"
AGENT
  chmod +x "$WORK/agent.sh"
}

netns_down() {
  for ns in $(ip netns list | awk '{print $1}' | grep "^$PREFIX-" || true); do ip netns del "$ns"; done
}

netns_run() {  # nodes, then ferrycomm-bench arguments
  local nodes=$1; shift
  local hosts=""
  for ((i = 0; i < nodes; i++)); do hosts+="${hosts:+,}$PREFIX-n$i"; done
  timeout "$RUN_TIMEOUT" ip netns exec "$PREFIX-hub" "${MPIRUN[@]}" -np "$nodes" --host "$hosts" \
    --mca plm_rsh_agent "$WORK/agent.sh" --mca oob_tcp_if_include 10.231.0.0/24 \
    --mca btl tcp,self --mca btl_tcp_if_include 10.231.0.0/24 "$BENCH" "$@"
}

tcp() {
  if ! can_netns; then
    log "## TCP between network namespaces: skipped (needs root, ip, tc, unshare and netns support)"
    return
  fi
  for rate in $RATES; do
    log "## TCP over veth shaped to $rate (tc tbf), $RANKS ranks, one per network namespace"
    log ""
    netns_up "$rate" "$RANKS"
    log '```'
    log "mpirun -np $RANKS --host <namespaces> --mca btl tcp,self ferrycomm-bench ${SIZES[*]} ${COMMON[*]} --codecs $CODECS"
    log '```'
    log ""
    netns_run "$RANKS" "${SIZES[@]}" "${COMMON[@]}" --codecs $CODECS
    log ""
    netns_down
    if [[ "$rate" == "1gbit" ]]; then
      log "## Group construction over TCP ($rate), $GROUP_RANKS ranks"
      log ""
      netns_up "$rate" "$GROUP_RANKS"
      netns_run "$GROUP_RANKS" --markdown --group-reps "${GROUP_REPS_TCP:-5}" --groups 2x2x2 8x1x1
      netns_down
      log ""
    fi
  done
}

main() {
  header "$@"
  [[ -n "${SKIP_SHM:-}" ]] || shm
  tcp
}

if [[ -n "$OUT" ]]; then main "$@" 2>&1 | tee "$OUT"; else main "$@"; fi
