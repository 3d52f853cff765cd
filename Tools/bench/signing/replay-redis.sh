#!/usr/bin/env bash
# Replay guard benchmark: verifying signed requests with the Redis replay guard (RedisStores)
# against the in-memory one, many requests in flight at once.
#
#   Tools/bench/signing/replay-redis.sh [--requests N] [--rounds N] [--concurrency N]
#                                       [--connections N] [--skip-build]
#
# Starts its own redis-server (Debian's) on 127.0.0.1 at a free port in a temporary directory,
# saving nothing, and runs `swifty-bench replay-redis` from a release build: the same GET
# requests, signed ahead, verified by CONCURRENCY tasks at once, by one verifier per guard, in
# interleaved rounds. Prints, as medians over the rounds, requests/s, wall time per request,
# the benchmark process's CPU per request (the Redis client's loop included) and redis-server's,
# and the ratios Redis / in-memory. Writes the figures to RESULTS_DIR/replay-redis.tsv
# (Tools/bench/results.sh). Stops redis-server on exit.
set -euo pipefail

REQUESTS=20000
ROUNDS=5
CONCURRENCY=64
CONNECTIONS=4
BUILD=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --requests) REQUESTS="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --concurrency) CONCURRENCY="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --skip-build) BUILD=0; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 64 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$ROOT"
# shellcheck source=../results.sh
. "$ROOT/Tools/bench/results.sh"
command -v redis-server >/dev/null || { echo "needs redis-server: apt-get install redis-server" >&2; exit 69; }
if [[ "$BUILD" == 1 ]]; then
    swift build -c release --static-swift-stdlib --product swifty-bench >&2
fi

WORK=$(mktemp -d)
REDIS_PID=""
OUTPUT="$WORK/output.txt"
cleanup() {
    if [[ -n "$REDIS_PID" ]]; then
        kill "$REDIS_PID" 2>/dev/null || true
        wait "$REDIS_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A free port: one nothing listens on, tried again when redis-server finds it taken after all.
for _ in 1 2 3 4 5; do
    PORT=$((20000 + RANDOM % 12000))
    if ss -Htln "sport = :$PORT" 2>/dev/null | grep -q .; then continue; fi
    redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$WORK" \
        --logfile "$WORK/redis.log" --daemonize no &
    REDIS_PID=$!
    for _ in $(seq 100); do
        if redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; then break 2; fi
        kill -0 "$REDIS_PID" 2>/dev/null || break
        sleep 0.05
    done
    kill "$REDIS_PID" 2>/dev/null || true
    wait "$REDIS_PID" 2>/dev/null || true
    REDIS_PID=""
done
[[ -n "$REDIS_PID" ]] || { echo "redis-server did not start" >&2; exit 1; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "redis: $(redis-server --version | cut -d' ' -f3)"
COMMAND=(replay-redis --port "$PORT" --requests "$REQUESTS" --rounds "$ROUNDS" --concurrency "$CONCURRENCY"
    --connections "$CONNECTIONS" --redis-pid "$REDIS_PID")
echo "command: .build/release/swifty-bench ${COMMAND[*]}"
"$ROOT/.build/release/swifty-bench" "${COMMAND[@]}" | tee "$OUTPUT"

# The guard lines give requests/s, wall and CPU per request; the last line the ratios.
results_begin replay-redis
awk -v OFS='\t' '
    /^  (in-memory|Redis) +guard:/ {
        side = ($1 == "in-memory") ? "anchor" : "ours"
        name = ($1 == "in-memory") ? "in-memory guard" : "Redis guard"
        for (i = 1; i <= NF; i++) {
            if ($(i + 1) == "requests/s") print "figure", "replay-redis", name " throughput", $i, "req/s", "-", "-", side
            if ($(i + 1) == "us/request") print "figure", "replay-redis", name " wall per request", $i, "us", "-", "-", side
            if ($(i + 1) == "us" && $(i + 3) == "(process)") print "cpu", "replay-redis", name, $i, "us", "-", "-", side
        }
    }
    /^  Redis \/ in-memory:/ {
        for (i = 1; i <= NF; i++) {
            if ($(i + 1) == "wall") { v = $i; sub(/x$/, "", v); print "ratio", "replay-redis", "Redis / in-memory wall per request", v, "x", "-", "lower", "-" }
            if ($(i + 1) == "process") { v = $i; sub(/x$/, "", v); print "ratio", "replay-redis", "Redis / in-memory CPU per request", v, "x", "-", "lower", "-" }
        }
    }' "$OUTPUT" >>"$RESULTS_FILE"
grep -q '^ratio' "$RESULTS_FILE" || echo "warning: no ratio found in the output" >&2
results_end
