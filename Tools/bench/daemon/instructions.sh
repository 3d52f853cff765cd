#!/usr/bin/env bash
# The work of one request in swiftyd, counted: user-mode instructions, retains, releases and heap
# allocations per request, for the 401 to a request without a token, GET /v1/users/bob and
# GET /v1/home, with swiftyd in live mode (its defaults, http1 transport) before a sandbox
# upstream process, so only swiftyd is counted. Release build, loopback only, every wait bounded.
#
#   Tools/bench/daemon/instructions.sh                              # about 2 minutes
#   SKIP_BUILD=1 BASELINE_SWIFTYD=/tmp/base/swiftyd Tools/bench/daemon/instructions.sh
#   CONNECTIONS=16 THREADS=2 Tools/bench/daemon/instructions.sh     # under concurrent load
#
# The counts come from qemu-user with the plugin of Tools/bench/instructions: they do not move
# with the host's load, so a change to the request path is judged by them (a timed run on a
# shared host cannot see a 1 % change). Each request kind is sent WARM times, then MANY times,
# sequentially on one keep-alive connection (one curl); the plugin's snapshots around the second
# batch, divided by MANY, give the figures per request. Sequential requests never share an
# upstream call (single-flight), so the proxied counts hold one upstream exchange per call.
# With CONNECTIONS above 1, each batch is instead `wrk -t1 -cCONNECTIONS -dDURATION` (on WRK_CORE),
# divided by the requests it was answered: concurrent requests on THREADS loops, where shared
# state is contended and single-flight shares identical reads (so the proxied counts move with
# how much it shared).
# With BASELINE_SWIFTYD (another build), the same is counted for it, and the ratio printed.
# swiftyd runs at its default log level, so each request writes its access-log line (to a file);
# LOG_LEVEL=warning counts the requests without it.
set -euo pipefail

WARM=${WARM:-200}
MANY=${MANY:-2000}
CONNECTIONS=${CONNECTIONS:-1}
DURATION=${DURATION:-8s}
BASELINE_SWIFTYD=${BASELINE_SWIFTYD:-}
LOG_LEVEL=${LOG_LEVEL:-info}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
# shellcheck source=common.sh
. "$ROOT/Tools/bench/daemon/common.sh"
require_tools "curl gawk binutils wrk util-linux" curl awk nm wrk taskset
build_binaries
machine "start"
# shellcheck source=../instructions/count.sh
. "$ROOT/Tools/bench/instructions/count.sh"
instruction_counter_ready || exit 69

mkdir -p "$WORK/keys"
start_sandbox keygen --keys "$WORK/keys" --generate-keys
stop "$SB_PID"
start_sandbox upstream --keys "$WORK/keys" --replay-capacity 10000000
write_live_config "$WORK/live.json" "$SB_USER" "$SB_FEED" "$SB_PAYMENT"

# One batch of requests of a kind (see the top); prints how many were answered.
send_batch() {
    local n=$1 url=$2 status=$3 answered
    if [ "$CONNECTIONS" = 1 ]; then
        send_sequential "$n" "$url" "$status"
        echo "$n"
        return
    fi
    set_auth_args
    timeout 120 taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" ${AUTH_ARGS[@]+"${AUTH_ARGS[@]}"} "$url" \
        >"$WORK/wrk.out"
    answered=$(wrk_requests "$WORK/wrk.out")
    # wrk counts every answer but a 2xx or 3xx as non-2xx: the 401s all, the 200s none.
    if [ "$status" = 200 ] && grep -q "Non-2xx" "$WORK/wrk.out"; then
        echo "some requests were not answered 200: $(grep Non-2xx "$WORK/wrk.out")" >&2
        exit 1
    fi
    echo "$answered"
}

# Counts BINARY's work per request of each kind; prints "kind instructions retains releases
# allocations" lines.
count_side() {
    local binary=$1 name=$2 mimalloc kind path status auth answered
    mimalloc=$(library "$binary" libmimalloc)
    {
        call_spec retain "$binary" swift_retain
        call_spec release "$binary" swift_release
        if [ -n "$mimalloc" ]; then call_spec malloc "$mimalloc" malloc; else call_spec malloc "$(library "$binary" libc.so)" malloc; fi
    } >"$WORK/$name.spec"
    call_counter "$WORK/$name.spec" "$WORK/$name.calls"
    D_RUNNER=("${CALL_RUNNER[@]}")
    D_BINARY=$binary D_CONFIG="$WORK/live.json" start_swiftyd "$name" SWIFTY_LOG_LEVEL="$LOG_LEVEL"
    D_RUNNER=()
    for kind in 401 users home; do
        case $kind in
            401) path=/v1/users/bob status=401 auth=0 ;;
            users) path=/v1/users/bob status=200 auth=1 ;;
            home) path=/v1/home status=200 auth=1 ;;
        esac
        AUTH=$auth send_batch "$WARM" "$D_APP$path" "$status" >/dev/null
        # The plugin rewrites its snapshot every 20 ms: wait for one taken after the batch. It
        # replaces the file by a rename, which cp reports as an error mid-copy; cat reads one whole.
        sleep 0.1
        cat "$WORK/$name.calls" >"$WORK/$name.before"
        answered=$(AUTH=$auth send_batch "$MANY" "$D_APP$path" "$status")
        sleep 0.1
        cat "$WORK/$name.calls" >"$WORK/$name.after"
        awk -v kind="$kind" -v n="$answered" 'FNR == NR { a[$1] = $2; next } { d[$1] = ($2 - a[$1]) / n }
            END { printf "%s %.0f %.1f %.1f %.1f\n", kind, d["instructions"], d["retain"], d["release"], d["malloc"] }' \
            "$WORK/$name.before" "$WORK/$name.after"
    done
    stop "$D_PID"
}

if [ "$CONNECTIONS" = 1 ]; then
    echo "== counting swiftyd ($WARM + $MANY sequential requests of each kind, under qemu-user)" >&2
else
    echo "== counting swiftyd (wrk -c$CONNECTIONS for $DURATION per kind, $THREADS loops, under qemu-user)" >&2
fi
count_side "$SWIFTYD" swiftyd >"$WORK/ours"
if [ -n "$BASELINE_SWIFTYD" ]; then
    echo "== counting the baseline $BASELINE_SWIFTYD" >&2
    count_side "$BASELINE_SWIFTYD" baseline >"$WORK/base"
fi

echo
echo "== per request (user-mode instructions; calls to swift_retain, swift_release, malloc)"
printf '%-8s %14s %10s %10s %12s\n' request instructions retains releases allocations
while read -r kind insn retains releases mallocs; do
    printf '%-8s %14s %10s %10s %12s\n' "$kind" "$insn" "$retains" "$releases" "$mallocs"
    if [ -s "$WORK/base" ]; then
        read -r _ binsn bretains breleases bmallocs < <(grep "^$kind " "$WORK/base")
        printf '%-8s %14s %10s %10s %12s   (instructions %s x the baseline)\n' "  base" "$binsn" "$bretains" \
            "$breleases" "$bmallocs" "$(awk -v a="$insn" -v b="$binsn" 'BEGIN { printf "%.3f", a / b }')"
    fi
done <"$WORK/ours"
