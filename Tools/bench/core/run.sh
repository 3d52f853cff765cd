#!/usr/bin/env bash
# Core benchmark (floor: at most 1.5 us median): building a request from a service case, ServiceCore
# alone. Runs `swifty-bench core` from a release build RUNS times; each run times ITERATIONS
# builds per round by thread CPU time and prints the median of 7 rounds.
#
#   Tools/bench/core/run.sh [--runs N] [--iterations N] [--skip-build]
#
# `charge` (POST, path parameter, Idempotency-Key, ~200-byte JSON body) is held to the floor;
# `chargeWithQuery` also percent-encodes the path and adds a query. Prints each run, then the
# median of the runs' medians, and writes them to RESULTS_DIR/core.tsv (Tools/bench/results.sh).
set -euo pipefail

RUNS=3
ITERATIONS=200000
BUILD=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) RUNS="$2"; shift 2 ;;
        --iterations) ITERATIONS="$2"; shift 2 ;;
        --skip-build) BUILD=0; shift ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 64 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$ROOT"
# shellcheck source=../results.sh
. "$ROOT/Tools/bench/results.sh"
if [[ $BUILD == 1 ]]; then
    swift build -c release --static-swift-stdlib --product swifty-bench >&2
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"

OUTPUT=$(mktemp)
trap 'rm -f "$OUTPUT"' EXIT
for run in $(seq "$RUNS"); do
    echo "== run $run: .build/release/swifty-bench core $ITERATIONS"
    "$ROOT/.build/release/swifty-bench" core "$ITERATIONS" | tee -a "$OUTPUT"
done

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# The median in microseconds of every run of CASE ("CASE: METHOD URL" opens a case's lines).
runs_us() {
    awk -v name="$1" '/^[^ ]/ { current = $1 } current == name ":" && /build request: median/ {
        v = $0; sub(/.*median /, "", v); sub(/ ns.*/, "", v); printf "%.2f\n", v / 1000 }' "$OUTPUT"
}
results_begin core
for name in charge chargeWithQuery; do
    all=$(runs_us "$name" | tr '\n' ' ')
    [ -n "$all" ] || continue
    m=$(runs_us "$name" | median)
    echo "$name: median of $RUNS runs $m us (runs: $all)"
    if [ "$name" = charge ]; then
        result cpu "build a request (charge)" "$m" us 1.5 lower ours
    else
        result figure "build a request ($name)" "$m" us - - ours
    fi
done
results_end
