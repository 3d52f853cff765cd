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

# Each request new: the run's number (wrk's script argument) and a counter (one wrk thread, so
# the counter alone keeps a run's requests apart).
if [ "$FLOOD" = tokens ]; then
    cat >"$WORK/flood.lua" <<'LUA'
local counter = 0
local run = "0"
init = function(args) run = args[1] end
request = function()
    counter = counter + 1
    return wrk.format(nil, nil, { ["Authorization"] = "Bearer flood-" .. run .. "-" .. counter })
end
LUA
    echo '{}' >"$WORK/flood.json"
else
    cat >"$WORK/flood.lua" <<LUA
local counter = 0
local run = "0"
init = function(args) run = args[1] end
request = function()
    counter = counter + 1
    local address = string.format("2001:db8:%x::%x:%x", tonumber(run), math.floor(counter / 65536), counter % 65536)
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

# One round on one side: warm, then measure, each with a run number of its own; prints
# "answers/s cpu_us_per_request unexpected" (socket errors, and for FLOOD=addresses non-2xx
# answers: every answer of FLOOD=tokens is a 401).
RUN=0
flood_round() {
    local name=$1 pid=$2 url=$3 before after seconds=${DURATION%s} warm=${WARM%s} unexpected
    RUN=$((RUN + 1))
    timeout --foreground $((warm + 30)) taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$WARM" \
        -s "$WORK/flood.lua" "$url" -- "$RUN" >/dev/null
    RUN=$((RUN + 1))
    before=$(cpu_ticks "$pid")
    timeout --foreground $((seconds + 30)) taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" \
        -s "$WORK/flood.lua" "$url" -- "$RUN" >"$WORK/$name.wrk"
    after=$(cpu_ticks "$pid")
    unexpected=$(wrk_socket_errors "$WORK/$name.wrk")
    [ "$FLOOD" = tokens ] || unexpected=$((unexpected + $(wrk_non2xx "$WORK/$name.wrk")))
    FLOOD_RESULT=$(awk -v r="$(wrk_rps "$WORK/$name.wrk")" -v n="$(wrk_requests "$WORK/$name.wrk")" \
        -v c=$((after - before)) -v t="$TICK_US" -v x="$unexpected" 'BEGIN { printf "%s %.2f %d\n", r, c * t / n, x }')
}

start_side ours "$SWIFTYD"
OURS_PID=$D_PID OURS_URL="$D_APP/v1/users/bob"
SIDES=(ours)
if [ -n "$BASELINE_SWIFTYD" ]; then
    start_side baseline "$BASELINE_SWIFTYD"
    BASE_PID=$D_PID BASE_URL="$D_APP/v1/users/bob"
    SIDES=(ours baseline)
fi

OURS=() BASE=()
for round in $(seq 1 "$ROUNDS"); do
    order=("${SIDES[@]}")
    # The order alternates, so that load from elsewhere falls on both alike.
    if [ ${#SIDES[@]} = 2 ] && [ $((round % 2)) = 0 ]; then order=(baseline ours); fi
    line="round $round (answers/s cpu_us unexpected):"
    for side in "${order[@]}"; do
        if [ "$side" = ours ]; then
            flood_round ours "$OURS_PID" "$OURS_URL"
            OURS+=("$FLOOD_RESULT")
        else
            flood_round baseline "$BASE_PID" "$BASE_URL"
            BASE+=("$FLOOD_RESULT")
        fi
        line+=" $side $FLOOD_RESULT |"
    done
    echo "$line" >&2
done

echo "flood of fresh $FLOOD, GET /v1/users/bob, $CONNECTIONS connections, median of $ROUNDS rounds of $DURATION:"
echo "  swiftyd: $(median_of 1 "${OURS[@]}") answers/s, $(median_of 2 "${OURS[@]}") us CPU per request, unexpected answers $(median_of 3 "${OURS[@]}")"
if [ ${#BASE[@]} -gt 0 ]; then
    echo "  baseline: $(median_of 1 "${BASE[@]}") answers/s, $(median_of 2 "${BASE[@]}") us CPU per request, unexpected answers $(median_of 3 "${BASE[@]}")"
    awk -v a="$(median_of 1 "${OURS[@]}")" -v b="$(median_of 1 "${BASE[@]}")" -v c="$(median_of 2 "${OURS[@]}")" \
        -v d="$(median_of 2 "${BASE[@]}")" \
        'BEGIN { printf "  swiftyd / baseline: answers/s %.2fx, CPU per request %.2fx\n", a / b, c / d }'
fi
machine "end"
