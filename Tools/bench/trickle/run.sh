#!/usr/bin/env bash
# Trickle benchmark: the latency of a normal client while one address trickles request heads.
#
#   Tools/bench/trickle/run.sh                   # 3 rounds, 1500 trickling connections
#   ROUNDS=5 CONNECTIONS=1500 SKIP_BUILD=1 Tools/bench/trickle/run.sh
#
# swiftyd (sandbox mode, default limits: 256 connections per address, the whole head within its
# deadline) runs on SERVER_CORE; trickle.py on CLIENT_CORE opens CONNECTIONS connections from
# 127.0.0.1 that send their heads one byte every 200 ms (reconnecting 1 s after a close) and, meanwhile,
# times REQUESTS requests of a normal client from 127.0.0.2 (GET /v1/users/bob with a token, a
# new connection each, connect to last byte). Each round also times the same client with no
# trickling first. Target: the client's p99 under the trickle < 100 ms. Figures go to
# RESULTS_DIR/trickle.tsv.
set -euo pipefail

ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-1500}
REQUESTS=${REQUESTS:-200}
SERVER_CORE=${SERVER_CORE:-0}
CLIENT_CORE=${CLIENT_CORE:-1}
SKIP_BUILD=${SKIP_BUILD:-0}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
# shellcheck source=../results.sh
. "$ROOT/Tools/bench/results.sh"
for tool in python3 taskset curl; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install python3 util-linux curl)" >&2; exit 69; }
done
if [ "$SKIP_BUILD" != 1 ]; then
    echo "building swiftyd (release)..." >&2
    swift build -c release --static-swift-stdlib --product swiftyd >&2
fi
SWIFTYD=$(swift build -c release --static-swift-stdlib --show-bin-path)/swiftyd

WORK=$(mktemp -d)
D_PID=""
cleanup() {
    if [ -n "$D_PID" ]; then
        kill -TERM "$D_PID" 2>/dev/null || true
        wait "$D_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM

# The trickling connections and the daemon need a descriptor each.
ulimit -n 8192 2>/dev/null || true
SWIFTY_DRAIN_DELAY_SECONDS=0 SWIFTY_LOG_LEVEL=warning taskset -c "$SERVER_CORE" "$SWIFTYD" --port 0 --admin-port 0 \
    >"$WORK/swiftyd.out" 2>"$WORK/swiftyd.err" &
D_PID=$!
PORT=""
for _ in $(seq 1 200); do
    PORT=$(awk '/app API:/ { n = split($3, a, ":"); print a[n]; exit }' "$WORK/swiftyd.out" | tr -dc 0-9)
    [ -n "$PORT" ] && break
    sleep 0.05
done
[ -n "$PORT" ] || { echo "swiftyd did not start: $(cat "$WORK/swiftyd.out" "$WORK/swiftyd.err")" >&2; exit 1; }
curl -fsS -o /dev/null --max-time 5 -H "Authorization: Bearer sandbox-alice" "http://127.0.0.1:$PORT/v1/users/bob"

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
QUIET=() P50=() P99=() MAX=() FAILED=0
for round in $(seq 1 "$ROUNDS"); do
    read -r _ q50 q99 _ qf _ _ < <(taskset -c "$CLIENT_CORE" python3 Tools/bench/trickle/trickle.py "$PORT" \
        --connections 0 --requests "$REQUESTS")
    read -r _ p50 p99 max failed open reconnects < <(taskset -c "$CLIENT_CORE" python3 Tools/bench/trickle/trickle.py \
        "$PORT" --connections "$CONNECTIONS" --requests "$REQUESTS")
    QUIET+=("$q99") P50+=("$p50") P99+=("$p99") MAX+=("$max")
    FAILED=$((FAILED + failed + qf))
    echo "round $round: without trickle p50 $q50 ms p99 $q99 ms | with $CONNECTIONS trickling: p50 $p50 ms p99 $p99 ms max $max ms, failed $failed, trickling connections open at the end $open, reconnects $reconnects" >&2
done
M99=$(printf '%s\n' "${P99[@]}" | median)
verdict=$(awk -v p="$M99" -v f="$FAILED" 'BEGIN { print (p < 100 && f == 0) ? "PASS" : "FAIL" }')
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "target (p99 of a client from 127.0.0.2 while $CONNECTIONS connections from 127.0.0.1 trickle < 100 ms): $verdict: median p99 $M99 ms (p50 $(printf '%s\n' "${P50[@]}" | median) ms, max $(printf '%s\n' "${MAX[@]}" | median) ms; without trickle p99 $(printf '%s\n' "${QUIET[@]}" | median) ms), failed $FAILED"
results_begin trickle
result figure "client p99 while $CONNECTIONS connections trickle" "$M99" ms 100 lower ours
result figure "client p50 while $CONNECTIONS connections trickle" "$(printf '%s\n' "${P50[@]}" | median)" ms - - ours
result figure "client p99 without trickle" "$(printf '%s\n' "${QUIET[@]}" | median)" ms - - ours
result figure "trickle: failed requests" "$FAILED" count 0 lower
results_end
