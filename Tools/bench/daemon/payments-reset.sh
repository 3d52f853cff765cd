#!/usr/bin/env bash
# POST /v1/payments while the payment upstream resets a share of its connections: the success
# rate and the latency an app client that never retries sees, with the daemon's retries (the
# default) and without them (retryAttempts 1). swiftyd in sandbox mode (the upstreams in its
# process, faults from its configuration), each payment with a fresh Idempotency-Key, rate limits
# off (one user pays), ROUNDS interleaved rounds of wrk per variant. Release build, loopback only.
#
#   Tools/bench/daemon/payments-reset.sh                       # about 1 minute
#   SKIP_BUILD=1 RESET_RATE=0.1 ROUNDS=3 Tools/bench/daemon/payments-reset.sh
set -euo pipefail

RESET_RATE=${RESET_RATE:-0.1}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-8}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
# shellcheck source=common.sh
. "$ROOT/Tools/bench/daemon/common.sh"
require_tools "wrk util-linux curl gawk iproute2" wrk taskset curl awk ss
build_binaries

# One payment of 1 cent per request, each with its own key (one wrk thread: the counter is unique).
cat >"$WORK/payments.lua" <<LUA
local counter = 0
local prefix = "bench-" .. tostring(os.time()) .. "-" .. tostring(math.random(1000000000))
request = function()
    counter = counter + 1
    return wrk.format("POST", "/v1/payments", {
        ["Authorization"] = "Bearer $TOKEN",
        ["Content-Type"] = "application/json",
        ["Idempotency-Key"] = prefix .. "-" .. counter,
    }, '{"payee":"bob","amountMinor":1,"currency":"EUR"}')
end
LUA

config() {
    local attempts=$1
    local payment='{}'
    [ "$attempts" = default ] || payment="{\"retryAttempts\": $attempts}"
    cat <<JSON
{"threads": $THREADS, "drainSeconds": 2, "sandbox": {"resetRate": $RESET_RATE},
 "rateLimits": {"payments": {"perUser": null}}, "modules": {"PaymentModule": $payment}}
JSON
}

# Runs one round of VARIANT; prints "success_rate p50_ms p99_ms requests".
round() {
    local variant=$1 attempts=$2 out
    D_CONFIG="$WORK/$variant.json"
    config "$attempts" >"$D_CONFIG"
    start_swiftyd "swiftyd-$variant"
    # The upstreams reset connections from the start: a few tries to see the daemon answer.
    for _ in 1 2 3 4 5 6 7 8; do check_200 "$D_APP/v1/wallet" >/dev/null 2>&1 && break; done
    out=$(taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/payments.lua" "$D_APP")
    stop "$D_PID"
    echo "$out" | awk '
        /requests in/ { total = $1 }
        /Non-2xx or 3xx responses:/ { bad = $NF }
        /Socket errors:/ { for (i = 3; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) { gsub(",", "", $i); errors += $i } }
        $1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 }
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        END { printf "%.4f %.2f %.2f %d\n", (total - bad - errors) / total, ms(p50), ms(p99), total }'
}

echo "POST /v1/payments, reset rate $RESET_RATE at the payment upstream, wrk -t1 -c$CONNECTIONS -d$DURATION, $ROUNDS interleaved rounds"
: >"$WORK/retries" && : >"$WORK/once"
for r in $(seq 1 "$ROUNDS"); do
    for variant in retries once; do
        attempts=default
        [ "$variant" = once ] && attempts=1
        line=$(round "$variant" "$attempts")
        echo "round $r $variant: success, p50 ms, p99 ms, requests: $line"
        echo "$line" >>"$WORK/$variant"
    done
done
for variant in retries once; do
    success=$(awk '{ print $1 }' "$WORK/$variant" | median)
    p99=$(awk '{ print $3 }' "$WORK/$variant" | median)
    p50=$(awk '{ print $2 }' "$WORK/$variant" | median)
    echo "median $variant: success rate $success, p50 $p50 ms, p99 $p99 ms"
done
