#!/usr/bin/env bash
# What the resilience middlewares cost on the happy path: GET /v1/users/bob through swiftyd (live
# mode, signing, http1) to a verifying sandbox user upstream, with the resilience settings on
# (the defaults) and off, counted in instructions (Tools/bench/instructions: the count does not
# move with the host's load) and in CPU time, interleaved. Release build, loopback only, every wait bounded.
#
#   Tools/bench/daemon/resilience.sh                          # about 3 minutes
#   SKIP_BUILD=1 ROUNDS=5 Tools/bench/daemon/resilience.sh
#   BASELINE_SWIFTYD=/tmp/base/swiftyd Tools/bench/daemon/resilience.sh
#
# "off" is this swiftyd with every module's configurable resilience off (retryAttempts 1, so the
# retry middleware passes calls through, and singleFlight false); the deadline, concurrency limit
# and breaker have no off switch and stay. Give BASELINE_SWIFTYD (a swiftyd built from a commit
# before the stack was wired, with the same configuration fields otherwise) to compare against a
# daemon without any of them instead.
#
# 1. instructions: each variant runs under the instruction counter (qemu-user with the plugin of
#    Tools/bench/instructions) twice, answering FEW and then MANY sequential requests on one
#    keep-alive connection (one curl); per request is (count(MANY) - count(FEW)) / (MANY - FEW),
#    so start-up, the token's introspection and shutdown cancel out. Floor: on <= 1.03 x off.
#    Skipped, and said so, without qemu-user and a C compiler.
# 2. CPU time: without the counter, ROUNDS interleaved rounds of `wrk -t1 -c1 -dDURATION` per
#    variant (the order alternates); swiftyd's utime + stime from /proc per answered request
#    (from its /metrics), medians. One connection by default: with more, identical concurrent
#    reads share one upstream call (single-flight) and "on" measures that saving, not the
#    middlewares' cost.
# 3. fail fast and overrun: the payment module pointed at a second sandbox that answers every
#    request 503 (`--error-rate 1`): after its breaker opens (5 calls), FAST sequential
#    GET /v1/wallet are answered 503 without calling it; their time (curl's time_total, loopback)
#    p50 and p99. Then at a third sandbox whose answers take 3 s, with a 500 ms request
#    deadline: by how much OVERRUNS sequential GET /v1/wallet overrun the deadline, median and
#    largest.
set -euo pipefail

FAST=${FAST:-200}
OVERRUNS=${OVERRUNS:-20}
FEW=${FEW:-200}
MANY=${MANY:-1200}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-1}
BASELINE_SWIFTYD=${BASELINE_SWIFTYD:-}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
# shellcheck source=common.sh
. "$ROOT/Tools/bench/daemon/common.sh"
require_tools "wrk util-linux curl gawk iproute2" wrk taskset curl awk ss
build_binaries
machine "start"
# shellcheck source=../instructions/count.sh
. "$ROOT/Tools/bench/instructions/count.sh"
COUNTING=0
if instruction_counter_ready; then COUNTING=1; fi

mkdir -p "$WORK/keys"
start_sandbox keygen --keys "$WORK/keys" --generate-keys
stop "$SB_PID"
start_sandbox upstream --keys "$WORK/keys" --replay-capacity 10000000
write_live_config "$WORK/live.json" "$SB_USER" "$SB_FEED" "$SB_PAYMENT"

# The variant's binary and environment: on, off.
variant_binary() { if [ "$1" = off ] && [ -n "$BASELINE_SWIFTYD" ]; then echo "$BASELINE_SWIFTYD"; else echo "$SWIFTYD"; fi; }
variant_env() {
    local name
    if [ "$1" = off ] && [ -z "$BASELINE_SWIFTYD" ]; then
        for name in USER FEED PAYMENT; do
            echo "SWIFTY_${name}_RETRY_ATTEMPTS=1"
            echo "SWIFTY_${name}_SINGLE_FLIGHT=false"
        done
    fi
    echo "SWIFTY_LOG_LEVEL=warning"
}

# Starts VARIANT's swiftyd, under the instruction counter when CG_OUT is set (the count goes to
# that file at exit); sets D_PID, D_APP, D_ADMIN.
start_variant() {
    local variant=$1 name=$2 binary
    binary=$(variant_binary "$variant")
    local -a runner=(taskset -c "$PROXY_CORE")
    local -a counting=()
    if [ -n "${CG_OUT:-}" ]; then
        runner+=("${INSN_RUNNER[@]}")
        counting=("INSN_COUNT_FILE=$CG_OUT" SWIFTY_DRAIN_DELAY_SECONDS=0)
    fi
    # shellcheck disable=SC2046
    env $(variant_env "$variant") "${counting[@]}" "${runner[@]}" "$binary" --config "$WORK/live.json" --port 0 \
        --admin-port 0 \
        >"$WORK/$name.out" 2>"$WORK/$name.err" &
    D_PID=$!
    PIDS+=("$D_PID")
    # Under the counter the start takes longer: wait up to a minute.
    for _ in $(seq 1 600); do grep -q "^  app API:" "$WORK/$name.out" 2>/dev/null && break; sleep 0.1; done
    D_APP=$(field_from "$WORK/$name.out" "  app API:" 3)
    D_ADMIN=$(field_from "$WORK/$name.out" "  admin:" 2)
    D_ADMIN=${D_ADMIN%/livez}
}

# N sequential requests to URL on one keep-alive connection; writes "status seconds" per request
# to FILE.
timed_sequential() {
    local n=$1 url=$2 file=$3
    : >"$WORK/urls.cfg"
    for _ in $(seq 1 "$n"); do echo "url = \"$url\"" >>"$WORK/urls.cfg"; done
    timeout 600 curl -sS --config "$WORK/urls.cfg" -H "Authorization: Bearer $TOKEN" \
        -w '%{stderr}%{http_code} %{time_total}\n' >/dev/null 2>"$file"
}

# The P-th percentile (0-100) of the numbers on standard input.
percentile() { sort -g | awk -v p="$1" '{ a[NR] = $1 } END { i = int((NR - 1) * p / 100) + 1; print a[i] }'; }

# The instructions counted in one run of VARIANT answering N requests (the daemon drains and
# exits on SIGTERM, and the counter writes its total then: wait up to a minute for it).
instructions() {
    local variant=$1 n=$2 out="$WORK/cg-$1-$2.out"
    CG_OUT=$out start_variant "$variant" "cg-$variant-$n"
    send_sequential "$n" "$D_APP/v1/users/bob" 200
    kill -TERM "$D_PID" 2>/dev/null || true
    for _ in $(seq 1 600); do kill -0 "$D_PID" 2>/dev/null || break; sleep 0.1; done
    stop "$D_PID"
    [ -s "$out" ] || { echo "the counter wrote no total for $variant at $n requests" >&2; exit 1; }
    cat "$out"
}

declare -A PER_REQUEST=([on]=- [off]=-)
RATIO=-
if [ "$COUNTING" = 1 ]; then
    echo "== 1. instructions per request (qemu-user counter), $FEW and $MANY requests per run" >&2
    for variant in on off; do
        few=$(instructions "$variant" "$FEW")
        many=$(instructions "$variant" "$MANY")
        PER_REQUEST[$variant]=$(awk -v a="$few" -v b="$many" -v n=$((MANY - FEW)) 'BEGIN { printf "%.0f", (b - a) / n }')
        echo "$variant: $few at $FEW, $many at $MANY: ${PER_REQUEST[$variant]} instructions per request" >&2
    done
    RATIO=$(awk -v on="${PER_REQUEST[on]}" -v off="${PER_REQUEST[off]}" 'BEGIN { printf "%.4f", on / off }')
else
    echo "== 1. skipped: no instruction counter (apt-get install qemu-user gcc)" >&2
fi

echo "== 2. CPU time per request (wrk -t1 -c$CONNECTIONS -d$DURATION, $ROUNDS interleaved rounds)" >&2
declare -A CPU
for round in $(seq 1 "$ROUNDS"); do
    order="on off"
    [ $((round % 2)) = 0 ] && order="off on"
    for variant in $order; do
        CG_OUT="" start_variant "$variant" "cpu-$variant-$round"
        check_200 "$D_APP/v1/users/bob" >/dev/null
        before=$(cpu_ticks "$D_PID")
        run_wrk "$WORK/wrk-$variant-$round" "$CONNECTIONS" "$DURATION" "$D_APP/v1/users/bob"
        after=$(cpu_ticks "$D_PID")
        answered=$(curl -sS --max-time 5 "$D_ADMIN/metrics" |
            awk '/^swiftyd_http_requests_total\{route="\/v1\/users\/:id",method="GET",status="200"\}/ { print $2 }')
        stop "$D_PID"
        us=$(awk -v t=$((after - before)) -v n="$answered" -v tick="$TICK_US" 'BEGIN { printf "%.2f", t * tick / n }')
        echo "round $round $variant: $answered requests, $us us CPU per request" >&2
        CPU[$variant]="${CPU[$variant]:-} $us"
    done
done
CPU_ON=$(echo "${CPU[on]}" | tr ' ' '\n' | grep . | median)
CPU_OFF=$(echo "${CPU[off]}" | tr ' ' '\n' | grep . | median)
CPU_RATIO=$(awk -v on="$CPU_ON" -v off="$CPU_OFF" 'BEGIN { printf "%.3f", on / off }')

echo "== 3. an open breaker's answer, and the deadline's overrun" >&2
start_sandbox down --keys "$WORK/keys" --error-rate 1
write_live_config "$WORK/down.json" "$(awk '/^user / { print $2 }' "$WORK/upstream.out")" \
    "$(awk '/^feed / { print $2 }' "$WORK/upstream.out")" "$SB_PAYMENT"
D_CONFIG="$WORK/down.json" start_swiftyd breaker SWIFTY_LOG_LEVEL=warning SWIFTY_PAYMENT_RETRY_ATTEMPTS=1 \
    SWIFTY_PAYMENT_BREAKER_MINIMUM_CALLS=5 SWIFTY_PAYMENT_BREAKER_OPEN_MS=600000
timed_sequential 10 "$D_APP/v1/wallet" "$WORK/opening"
timed_sequential "$FAST" "$D_APP/v1/wallet" "$WORK/fast"
stop "$D_PID"
FAST_503=$(grep -c '^503 ' "$WORK/fast" || true)
[ "$FAST_503" = "$FAST" ] || { echo "only $FAST_503 of $FAST answered 503 with the breaker open" >&2; exit 1; }
FAST_P50=$(awk '{ printf "%.3f\n", $2 * 1000 }' "$WORK/fast" | percentile 50)
FAST_P99=$(awk '{ printf "%.3f\n", $2 * 1000 }' "$WORK/fast" | percentile 99)

start_sandbox slow --keys "$WORK/keys" --latency-ms 3000
write_live_config "$WORK/slow.json" "$(awk '/^user / { print $2 }' "$WORK/upstream.out")" \
    "$(awk '/^feed / { print $2 }' "$WORK/upstream.out")" "$SB_PAYMENT"
D_CONFIG="$WORK/slow.json" start_swiftyd deadline SWIFTY_LOG_LEVEL=warning SWIFTY_REQUEST_DEADLINE_MS=500
check_200 "$D_APP/v1/me" >/dev/null
timed_sequential "$OVERRUNS" "$D_APP/v1/wallet" "$WORK/late"
stop "$D_PID"
LATE_504=$(grep -c '^504 ' "$WORK/late" || true)
[ "$LATE_504" = "$OVERRUNS" ] || { echo "only $LATE_504 of $OVERRUNS answered 504 past the deadline" >&2; exit 1; }
OVERRUN_P50=$(awk '{ printf "%.3f\n", $2 * 1000 - 500 }' "$WORK/late" | percentile 50)
OVERRUN_MAX=$(awk '{ printf "%.3f\n", $2 * 1000 - 500 }' "$WORK/late" | percentile 100)

machine "end"
echo
echo "instructions per request: on ${PER_REQUEST[on]}, off ${PER_REQUEST[off]}, ratio $RATIO (floor <= 1.03)"
echo "CPU per request (median of $ROUNDS): on $CPU_ON us, off $CPU_OFF us, ratio $CPU_RATIO"
echo "open breaker's 503 (of $FAST): p50 $FAST_P50 ms, p99 $FAST_P99 ms"
echo "500 ms deadline against 3 s answers (504 of $OVERRUNS): overrun median $OVERRUN_P50 ms, largest $OVERRUN_MAX ms"
if [ "$RATIO" != - ]; then
    awk -v r="$RATIO" 'BEGIN { exit !(r <= 1.03) }' || { echo "FLOOR MISSED: instructions ratio $RATIO > 1.03" >&2; exit 1; }
fi
