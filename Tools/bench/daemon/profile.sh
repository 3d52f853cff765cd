#!/usr/bin/env bash
# Where swiftyd's time goes on the proxied request of run.sh's part 1: GET /v1/users/bob through
# swiftyd (live mode, signing) to a verifying sandbox user upstream, both pinned to PROXY_CORE,
# `wrk -t1 -c64` on WRK_CORE. Release build, loopback only, every wait and load bounded.
#
#   Tools/bench/daemon/profile.sh                # CPU split and counts per request (about 1 minute)
#   PROFILE=1 Tools/bench/daemon/profile.sh      # and a sampled profile by stage (about 2 minutes more)
#   SKIP_BUILD=1 SECONDS_PER_PART=5 Tools/bench/daemon/profile.sh
#   TRANSPORT=curl Tools/bench/daemon/profile.sh # the modules on libcurl (default: http1)
#
# Per request, measured over one wrk run each:
#   1. CPU time (user and system, /proc/PID/stat) of swiftyd and of its upstream;
#   2. swiftyd's system calls by name (the syscalls:sys_enter_* tracepoints);
#   3. swiftyd's Swift task switches (swift_task_switch) and libcurl drives
#      (curl_multi_socket_action), counted with uprobes;
#   4. with PROFILE=1: a DWARF call-graph profile in which each sample is charged to the innermost
#      frame of the project's own code, so the C libraries' work stays with the call that asked for
#      it (libcurl under CurlLoopDriver.socketAction, the server under EventLoop.runLoop), summed
#      by that frame and by the library the sample was in.
# Requests are counted from swiftyd's own /metrics, so the figures are per answered request.
# Needs root (tracepoints and uprobes), perf (apt-get install linux-perf) and run.sh's tools.
set -euo pipefail

SECONDS_PER_PART=${SECONDS_PER_PART:-6}
PROFILE=${PROFILE:-0}
PROFILE_SECONDS=${PROFILE_SECONDS:-4}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-1}
PROXY_CORE=${PROXY_CORE:-0}
WRK_CORE=${WRK_CORE:-1}
SKIP_BUILD=${SKIP_BUILD:-0}
TOKEN=${TOKEN:-sandbox-alice}
REPLAY_CAPACITY=${REPLAY_CAPACITY:-1000000}
TOP=${TOP:-25}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
[ "$(id -u)" = 0 ] || { echo "profile.sh needs root for tracepoints and uprobes" >&2; exit 77; }
# shellcheck source=common.sh
. "$ROOT/Tools/bench/daemon/common.sh"
require_tools "wrk util-linux curl gawk iproute2 linux-perf" wrk taskset curl awk ss perf
build_binaries

# The uprobes this script adds are removed again on any exit.
PROBES_ADDED=0
remove_probes() { [ "$PROBES_ADDED" = 0 ] || perf probe -q -d 'swifty:*' >/dev/null 2>&1 || true; }
trap 'remove_probes; cleanup' EXIT

library() { ldd "$SWIFTYD" | awk -v name="$1" 'index($1, name) == 1 { print $3; exit }'; }
CONCURRENCY=$(library libswift_Concurrency.so)
CURL=$(library libcurl.so)
[ -n "$CONCURRENCY" ] && [ -n "$CURL" ] || { echo "swiftyd links no libswift_Concurrency or libcurl" >&2; exit 1; }

machine "start"
mkdir -p "$WORK/keys"
start_sandbox keygen --keys "$WORK/keys" --generate-keys
stop "$SB_PID"
start_sandbox verified --keys "$WORK/keys" --replay-capacity "$REPLAY_CAPACITY"
UP_PID=$SB_PID
write_live_config "$WORK/live.json" "$SB_USER" "$SB_FEED" "$SB_PAYMENT"
D_CONFIG="$WORK/live.json" start_swiftyd profile-swiftyd SWIFTY_LOG_LEVEL=info
URL="$D_APP/v1/users/bob"
check_200 "$URL" >/dev/null
run_wrk "$WORK/warm.wrk" "$CONNECTIONS" 2s "$URL"

# Answered app requests so far, from swiftyd's /metrics.
answered() {
    curl -fsS --max-time 5 "$D_ADMIN/metrics" | awk '/^swiftyd_http_requests_total/ { n += $NF } END { printf "%d\n", n }'
}

# Runs COMMAND under load: wrk in the background for SECONDS_PER_PART + 2 s, COMMAND after its
# first second. Not in a subshell: COMMAND's variables stay set.
under_load() {
    local wrk_pid
    timeout --foreground $((SECONDS_PER_PART + 30)) taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" \
        -d"$((SECONDS_PER_PART + 2))s" -H "Authorization: Bearer $TOKEN" "$URL" >"$WORK/load.wrk" &
    wrk_pid=$!
    PIDS+=("$wrk_pid")
    sleep 1
    "$@"
    wait "$wrk_pid" || true
    forget "$wrk_pid"
    [ "$(wrk_errors "$WORK/load.wrk")" = 0 ] || echo "warning: wrk counted errors: $(cat "$WORK/load.wrk")" >&2
}

# Runs COMMAND and sets ANSWERED to the requests swiftyd answered meanwhile (from /metrics).
answered_during() {
    local before after
    before=$(answered)
    "$@"
    after=$(answered)
    ANSWERED=$((after - before))
    [ "$ANSWERED" -gt 0 ] || { echo "swiftyd answered no request under load" >&2; exit 1; }
}

echo "== 1. CPU per request" >&2
cpu_fields() { awk '{ print $14, $15 }' "/proc/$1/stat"; }
cpu_window() {
    read -r DU0 DS0 < <(cpu_fields "$D_PID")
    read -r UU0 US0 < <(cpu_fields "$UP_PID")
    sleep "$SECONDS_PER_PART"
    read -r DU1 DS1 < <(cpu_fields "$D_PID")
    read -r UU1 US1 < <(cpu_fields "$UP_PID")
}
under_load answered_during cpu_window
n=$ANSWERED
CPU_LINE=$(awk -v n="$n" -v t="$TICK_US" -v a=$((DU1 - DU0)) -v b=$((DS1 - DS0)) -v c=$((UU1 - UU0)) -v d=$((US1 - US0)) \
    'BEGIN { printf "%d requests (%.0f/s): swiftyd %.1f us user + %.1f us system; upstream %.1f us user + %.1f us system",
        n, n / '"$SECONDS_PER_PART"', a * t / n, b * t / n, c * t / n, d * t / n }')

echo "== 2. system calls per request" >&2
# Counts EVENTS on swiftyd into CSV for exactly the window in which ANSWERED is measured: perf
# starts with its counters off (attaching to hundreds of tracepoints takes a while) and is switched
# on and off through its control FIFO around the two /metrics reads.
counted_window() {
    local events=$1 csv=$2 perf_pid
    rm -f "$WORK/ctl" "$WORK/ack"
    mkfifo "$WORK/ctl" "$WORK/ack"
    perf stat -x, -D -1 --control "fifo:$WORK/ctl,$WORK/ack" -e "$events" -p "$D_PID" -o "$csv" \
        -- sleep $((SECONDS_PER_PART + 30)) 2>/dev/null &
    perf_pid=$!
    PIDS+=("$perf_pid")
    exec 8<>"$WORK/ctl" 9<>"$WORK/ack"
    under_load counting
    kill -INT "$perf_pid" 2>/dev/null || true
    wait "$perf_pid" 2>/dev/null || true
    forget "$perf_pid"
    exec 8>&- 9>&-
}
# Switches perf's counters on, counts the answers of SECONDS_PER_PART seconds, switches them off.
counting() {
    local reply
    echo enable >&8
    read -r -t 20 reply <&9 || { echo "perf did not start counting" >&2; exit 1; }
    answered_during sleep "$SECONDS_PER_PART"
    echo disable >&8
    read -r -t 20 reply <&9 || true
}
counted_window 'syscalls:sys_enter_*' "$WORK/syscalls.csv"
n=$ANSWERED
SYSCALLS=$(awk -F, -v n="$n" '$1 ~ /^[0-9]+$/ && $1 > 0 { sub(/syscalls:sys_enter_/, "", $3); printf "%s %.2f\n", $3, $1 / n }' \
    "$WORK/syscalls.csv" | sort -k2 -g -r | awk '$2 >= 0.01 { printf "%s%s %s", sep, $1, $2; sep = ", " } END { print "" }')
SYSCALL_TOTAL=$(awk -F, -v n="$n" '$1 ~ /^[0-9]+$/ { s += $1 } END { printf "%.2f", s / n }' "$WORK/syscalls.csv")

echo "== 3. task switches and libcurl drives per request" >&2
perf probe -q -x "$CONCURRENCY" -a 'swifty:task_switch=swift_task_switch' >/dev/null 2>&1 &&
    perf probe -q -x "$CURL" -a 'swifty:curl_drive=curl_multi_socket_action' >/dev/null 2>&1 || {
    echo "could not add uprobes (perf probe)" >&2
    exit 1
}
PROBES_ADDED=1
counted_window 'swifty:*' "$WORK/probes.csv"
n=$ANSWERED
PROBE_LINE=$(awk -F, -v n="$n" '$1 ~ /^[0-9]+$/ { sub(/swifty:/, "", $3); printf "%s%s %.2f", sep, $3, $1 / n; sep = ", " }
    END { print "" }' "$WORK/probes.csv")
remove_probes
PROBES_ADDED=0

if [ "$PROFILE" = 1 ]; then
    echo "== 4. sampled profile by stage (perf record, DWARF call graphs)" >&2
    record_window() {
        perf record -q -F 999 --call-graph dwarf,32768 -p "$D_PID" -o "$WORK/perf.data" -- sleep "$PROFILE_SECONDS" \
            >/dev/null 2>&1
    }
    SECONDS_PER_PART=$PROFILE_SECONDS under_load answered_during record_window
    perf script -i "$WORK/perf.data" -F ip,sym,dso 2>/dev/null >"$WORK/perf.script"
    # A sample's stack runs from its leaf outwards; it is charged to the first frame whose
    # mangled name belongs to one of the project's modules, and to the library of its leaf.
    awk -v top="$TOP" '
        function flush() {
            if (frames == 0) return
            total++
            for (i = 1; i <= frames; i++) if (sym[i] ~ ours) { charged[sym[i]]++; where[sym[i] SUBSEP lib[1]]++; frames = 0; return }
            charged["(no frame of the project)"]++
            frames = 0
        }
        BEGIN { ours = "^\\$s[0-9]+(SwiftyDaemon|ServiceCore|HTTPServer|CurlTransport|HTTP1Transport|RequestSigning|AppLogging|UserModule|FeedModule|PaymentModule)" }
        NF == 0 { flush(); next }
        {
            line = $0; sub(/^[ \t]*[0-9a-f]+ /, "", line)
            d = line; sub(/.*\(/, "", d); sub(/\)$/, "", d); n = split(d, parts, "/"); d = parts[n]
            s = line; sub(/ \([^(]*\)$/, "", s); sub(/\+0x[0-9a-f]+$/, "", s)
            frames++; sym[frames] = s; lib[frames] = d
        }
        END {
            flush()
            for (s in charged) printf "%.2f %s\n", 100 * charged[s] / total, s | "sort -g -r | head -" top
            close("sort -g -r | head -" top)
            for (k in where) { split(k, p, SUBSEP); if (p[1] ~ /LoopDriverC12socketAction|EventLoopC03runC0|EventLoopC13runQueuedJobs/) printf "  %.2f %s in %s\n", 100 * where[k] / total, p[1], p[2] | "sort -k1 -g -r | head -12 >&2" }
        }' "$WORK/perf.script" >"$WORK/stages.txt" 2>"$WORK/libraries.txt"
fi

echo
echo "== profile of GET /v1/users/bob through swiftyd (live mode, signing, $TRANSPORT transport) to a verifying upstream"
machine "end"
echo "CPU: $CPU_LINE"
echo "system calls per request ($SYSCALL_TOTAL in all): $SYSCALLS"
echo "per request: $PROBE_LINE"
if [ "$PROFILE" = 1 ]; then
    echo "samples charged to the innermost frame of the project's code (% of swiftyd's samples):"
    swift demangle --simplified --compact <"$WORK/stages.txt" | cut -c1-150 | sed 's/^/  /'
    echo "where the C libraries' time under the loop's three entry points went (% of all samples):"
    swift demangle --simplified --compact <"$WORK/libraries.txt" | cut -c1-150
fi
echo "(wrk -t1 -c$CONNECTIONS, ${SECONDS_PER_PART} s per part; swiftyd threads $THREADS and its upstream on core $PROXY_CORE, wrk on core $WRK_CORE)"
