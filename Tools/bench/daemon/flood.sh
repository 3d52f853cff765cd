#!/usr/bin/env bash
# A flood of clients never seen before, against swiftyd in sandbox mode (its upstreams in its
# process, on PROXY_CORE): GET /v1/users/bob, each request new to one of the daemon's stores.
#
#   FLOOD=tokens (default): each request carries a bearer token never sent before. Every request
#     misses the token cache, is introspected by the sandbox's user upstream (inactive, so a 401)
#     and stored in the cache, which is full (10 000 entries) within the first seconds and stays
#     full: an inactive token is kept 5 s.
#   FLOOD=addresses: each request comes, through a trusted proxy (`X-Forwarded-For`), from an
#     address never seen before, under a limit of one read per address per hour. Every request
#     adds a key to the rate-limit store, whose shards are full (100 000 keys) within the first
#     seconds, of keys whose allowance comes back only after an hour.
#
# Each round warms for WARM, then measures DURATION; figures are the medians of ROUNDS rounds:
# answers per second and swiftyd's CPU per request. Release build, loopback only, every wait
# bounded.
#
#   Tools/bench/daemon/flood.sh                                                   # about 1 minute
#   FLOOD=addresses SKIP_BUILD=1 BASELINE_SWIFTYD=/tmp/base/swiftyd Tools/bench/daemon/flood.sh
#
# With BASELINE_SWIFTYD (another build), both run in interleaved rounds and the ratios are printed.
set -euo pipefail

FLOOD=${FLOOD:-tokens}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-6s}
CONNECTIONS=${CONNECTIONS:-16}
BASELINE_SWIFTYD=${BASELINE_SWIFTYD:-}
case "$FLOOD" in
    tokens) WARM=${WARM:-3s} ;;
    addresses) WARM=${WARM:-8s} ;;
    *) echo "FLOOD must be tokens or addresses" >&2; exit 64 ;;
esac

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
# shellcheck source=common.sh
. "$ROOT/Tools/bench/daemon/common.sh"
require_tools "wrk util-linux curl gawk" wrk taskset curl awk
build_binaries
machine "start"

# Each request new: the second the wrk run started (runs are seconds apart) and a counter (one
# wrk thread, so the counter alone keeps a run's requests apart).
if [ "$FLOOD" = tokens ]; then
    cat >"$WORK/flood.lua" <<'LUA'
local counter = 0
local run = os.time()
request = function()
    counter = counter + 1
    return wrk.format(nil, nil, { ["Authorization"] = "Bearer flood-" .. run .. "-" .. counter })
end
LUA
    echo '{}' >"$WORK/flood.json"
else
    cat >"$WORK/flood.lua" <<LUA
local counter = 0
local run = os.time()
request = function()
    counter = counter + 1
    local address = string.format("2001:db8:%x:%x::%x:%x", math.floor(run / 65536) % 65536, run % 65536,
        math.floor(counter / 65536) % 65536, counter % 65536)
    return wrk.format(nil, nil, { ["Authorization"] = "Bearer $TOKEN", ["X-Forwarded-For"] = address })
end
LUA
    cat >"$WORK/flood.json" <<'JSON'
{"trustedProxies": ["127.0.0.1"],
 "rateLimits": {"reads": {"perAddress": {"quota": 1, "windowSeconds": 3600}}}}
JSON
fi

# Starts a swiftyd build in sandbox mode (in this shell, so that the exit trap stops it) and
# checks its answer to one request of the flood's kind; sets D_PID and D_APP.
start_side() {
    local name=$1 binary=$2 status expected
    D_CONFIG="$WORK/flood.json" D_BINARY=$binary start_swiftyd "$name" SWIFTY_LOG_LEVEL=warning
    if [ "$FLOOD" = tokens ]; then
        expected=401
        status=$(curl -sS -o /dev/null -w '%{http_code}' --max-time 5 -H "Authorization: Bearer never-issued" \
            "$D_APP/v1/users/bob")
    else
        expected=200
        status=$(curl -sS -o /dev/null -w '%{http_code}' --max-time 5 -H "Authorization: Bearer $TOKEN" \
            -H "X-Forwarded-For: 2001:db8:ffff::1" "$D_APP/v1/users/bob")
    fi
    [ "$status" = "$expected" ] || { echo "$name answered $status to the first request, not $expected" >&2; exit 1; }
}

# Each round of each side warms for WARM (measure_front's WARM_DURATION), then measures.
WARM_DURATION=$WARM
WRK_ARGS=(-s "$WORK/flood.lua")
start_side ours "$SWIFTYD"
OURS=(ours "$D_PID" "" "$D_APP/v1/users/bob")
if [ -n "$BASELINE_SWIFTYD" ]; then
    start_side baseline "$BASELINE_SWIFTYD"
    interleave "${OURS[@]}" baseline "$D_PID" "" "$D_APP/v1/users/bob"
else
    ROUNDS_A=()
    for round in $(seq 1 "$ROUNDS"); do
        ROUNDS_A+=("$(measure_front "$WORK/ours.wrk" "${OURS[1]}" "" "${OURS[3]}" "${WRK_ARGS[@]}")")
        echo "round $round (req/s p99_ms front_us upstreams_us socket_errors non2xx requests): ${ROUNDS_A[-1]}" >&2
    done
fi

# A median line: answers/s, CPU per request and unexpected answers (socket errors, and for
# FLOOD=addresses non-2xx answers: every answer of FLOOD=tokens is a 401): summary ROUND_LINE...
summary() {
    local non2xx=1
    [ "$FLOOD" = addresses ] || non2xx=0
    echo "$(median_of 1 "$@") answers/s, $(median_of 3 "$@") us CPU per request, unexpected answers" \
        "$(printf '%s\n' "$@" | awk -v k="$non2xx" '{ print $5 + k * $6 }' | median)"
}
echo "flood of fresh $FLOOD, GET /v1/users/bob, $CONNECTIONS connections, median of $ROUNDS rounds of $DURATION:"
echo "  swiftyd: $(summary "${ROUNDS_A[@]}")"
if [ -n "$BASELINE_SWIFTYD" ]; then
    echo "  baseline: $(summary "${ROUNDS_B[@]}")"
    awk -v a="$(median_of 1 "${ROUNDS_A[@]}")" -v b="$(median_of 1 "${ROUNDS_B[@]}")" \
        -v c="$(median_of 3 "${ROUNDS_A[@]}")" -v d="$(median_of 3 "${ROUNDS_B[@]}")" \
        'BEGIN { printf "  swiftyd / baseline: answers/s %.2fx, CPU per request %.2fx\n", a / b, c / d }'
fi
machine "end"
