#!/usr/bin/env bash
# A flood of bearer tokens never seen before: GET /v1/users/bob, each request with a fresh token,
# against swiftyd in sandbox mode (its upstreams in its process, on PROXY_CORE). Every request
# misses the token cache, is introspected by the sandbox's user upstream (inactive, so a 401) and
# stored in the cache, which is full (10 000 entries) within the first second or two and stays
# full: an inactive token is kept 5 s. Each round warms for WARM, then measures DURATION;
# figures are the medians of ROUNDS rounds: answers per second and swiftyd's CPU per request.
# Release build, loopback only, every wait bounded.
#
#   Tools/bench/daemon/token-flood.sh                                             # about 1 minute
#   SKIP_BUILD=1 BASELINE_SWIFTYD=/tmp/base/swiftyd Tools/bench/daemon/token-flood.sh
#
# With BASELINE_SWIFTYD (another build), both run in interleaved rounds and the ratios are printed.
set -euo pipefail

ROUNDS=${ROUNDS:-3}
WARM=${WARM:-3s}
DURATION=${DURATION:-6s}
CONNECTIONS=${CONNECTIONS:-16}
BASELINE_SWIFTYD=${BASELINE_SWIFTYD:-}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
# shellcheck source=common.sh
. "$ROOT/Tools/bench/daemon/common.sh"
require_tools "wrk util-linux curl gawk" wrk taskset curl awk
build_binaries
machine "start"

# A fresh token per request: the round's prefix (wrk's script argument) and a counter (one wrk
# thread, so the counter alone keeps them apart).
cat >"$WORK/flood.lua" <<'LUA'
local counter = 0
local prefix = "flood"
init = function(args) prefix = args[1] end
request = function()
    counter = counter + 1
    return wrk.format(nil, nil, { ["Authorization"] = "Bearer " .. prefix .. "-" .. counter })
end
LUA

# Starts a swiftyd build in sandbox mode (in this shell, so that the exit trap stops it) and
# checks that it refuses an unknown token; sets D_PID and D_APP.
start_side() {
    local name=$1 binary=$2 status
    D_CONFIG="" D_BINARY=$binary start_swiftyd "$name" SWIFTY_LOG_LEVEL=warning
    status=$(curl -sS -o /dev/null -w '%{http_code}' --max-time 5 -H "Authorization: Bearer never-issued" \
        "$D_APP/v1/users/bob")
    [ "$status" = 401 ] || { echo "$name answered $status to an unknown token" >&2; exit 1; }
}

# One round on one side: warm, then measure; prints "answers/s cpu_us_per_request non401".
flood_round() {
    local name=$1 pid=$2 url=$3 round=$4 before after seconds=${DURATION%s} warm=${WARM%s}
    timeout --foreground $((warm + 30)) taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$WARM" \
        -s "$WORK/flood.lua" "$url" -- "warm-$name-$round" >/dev/null
    before=$(cpu_ticks "$pid")
    timeout --foreground $((seconds + 30)) taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" \
        -s "$WORK/flood.lua" "$url" -- "flood-$name-$round" >"$WORK/$name.wrk"
    after=$(cpu_ticks "$pid")
    # Every answer is the 401 of an inactive token; anything else (a socket error) is counted.
    awk -v r="$(wrk_rps "$WORK/$name.wrk")" -v n="$(wrk_requests "$WORK/$name.wrk")" -v c=$((after - before)) \
        -v t="$TICK_US" -v x="$(wrk_socket_errors "$WORK/$name.wrk")" \
        'BEGIN { printf "%s %.2f %d\n", r, c * t / n, x }'
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
    line="round $round (answers/s cpu_us socket_errors):"
    for side in "${order[@]}"; do
        if [ "$side" = ours ]; then
            result=$(flood_round ours "$OURS_PID" "$OURS_URL" "$round")
            OURS+=("$result")
        else
            result=$(flood_round baseline "$BASE_PID" "$BASE_URL" "$round")
            BASE+=("$result")
        fi
        line+=" $side $result |"
    done
    echo "$line" >&2
done

echo "fresh-token flood, GET /v1/users/bob, $CONNECTIONS connections, median of $ROUNDS rounds of $DURATION:"
echo "  swiftyd: $(median_of 1 "${OURS[@]}") answers/s, $(median_of 2 "${OURS[@]}") us CPU per request, socket errors $(median_of 3 "${OURS[@]}")"
if [ ${#BASE[@]} -gt 0 ]; then
    echo "  baseline: $(median_of 1 "${BASE[@]}") answers/s, $(median_of 2 "${BASE[@]}") us CPU per request, socket errors $(median_of 3 "${BASE[@]}")"
    awk -v a="$(median_of 1 "${OURS[@]}")" -v b="$(median_of 1 "${BASE[@]}")" -v c="$(median_of 2 "${OURS[@]}")" \
        -v d="$(median_of 2 "${BASE[@]}")" \
        'BEGIN { printf "  swiftyd / baseline: answers/s %.2fx, CPU per request %.2fx\n", a / b, c / d }'
fi
machine "end"
