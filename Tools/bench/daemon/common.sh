# Shared by the daemon benchmarks (run.sh, profile.sh): the tool check, the release build,
# process bookkeeping, the sandbox and swiftyd starters, wrk and /proc readers. Sourced from ROOT
# after the caller has set SKIP_BUILD, PROXY_CORE, WRK_CORE, THREADS and TOKEN; it makes WORK
# (removed on exit) and traps EXIT, INT and TERM so that every process started through it is
# stopped. TRANSPORT (http1 when unset, or curl) is the transport of the modules in
# write_live_config.
# shellcheck shell=bash
TRANSPORT=${TRANSPORT:-http1}

# Exits 69 naming the Debian packages when one of TOOLS is not on PATH: require_tools PACKAGES TOOLS...
require_tools() {
    local packages=$1 tool
    shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null || {
            echo "missing $tool (apt-get install $packages)" >&2
            exit 69
        }
    done
}

# Builds swiftyd and sandbox-upstreams in release (unless SKIP_BUILD=1); sets SWIFTYD and SANDBOX.
build_binaries() {
    if [ "$SKIP_BUILD" != 1 ]; then
        echo "building swiftyd and sandbox-upstreams (release)..." >&2
        swift build -c release --product swiftyd >&2
        swift build -c release --product sandbox-upstreams >&2
    fi
    BIN=$(swift build -c release --show-bin-path)
    SWIFTYD="$BIN/swiftyd"
    SANDBOX="$BIN/sandbox-upstreams"
    [ -x "$SWIFTYD" ] && [ -x "$SANDBOX" ] || { echo "release binaries missing in $BIN" >&2; exit 1; }
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/swifty-daemon-bench.XXXXXX")
PIDS=()
SUMMARY=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    PIDS=()
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM

# Forgets a process that has ended.
forget() {
    local kept=() p
    for p in "${PIDS[@]}"; do [ "$p" = "$1" ] || kept+=("$p"); done
    PIDS=("${kept[@]+"${kept[@]}"}")
}

# Stops one process started by this script (SIGTERM, then SIGKILL after 5 s) and forgets it.
stop() {
    local pid=$1
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    forget "$pid"
}

# Waits (at most 10 s) until FILE has a line starting with PREFIX; prints that line's field N.
field_from() {
    local file=$1 prefix=$2 n=$3
    for _ in $(seq 1 200); do
        if grep -q "^$prefix" "$file" 2>/dev/null; then
            awk -v p="$prefix" -v n="$n" 'index($0, p) == 1 { print $n; exit }' "$file"
            return 0
        fi
        sleep 0.05
    done
    echo "timed out waiting for '$prefix' in $file:" >&2
    cat "$file" "${file%.out}.err" >&2 2>/dev/null
    return 1
}

# A TCP port nobody listens on, from 20000 up.
free_port() {
    local port
    for port in $(seq "${1:-20000}" 60000); do
        if [ -z "$(ss -Htln "sport = :$port")" ]; then echo "$port"; return 0; fi
    done
    return 1
}

# Starts a sandbox-upstreams on PROXY_CORE; sets SB_PID, SB_USER, SB_FEED, SB_PAYMENT.
start_sandbox() {
    local name=$1
    shift
    taskset -c "$PROXY_CORE" "$SANDBOX" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
    SB_PID=$!
    PIDS+=("$SB_PID")
    SB_USER=$(field_from "$WORK/$name.out" "user " 2)
    SB_FEED=$(field_from "$WORK/$name.out" "feed " 2)
    SB_PAYMENT=$(field_from "$WORK/$name.out" "payment " 2)
}

# Writes a live-mode configuration for swiftyd (ports 0) whose modules call USER FEED PAYMENT
# through TRANSPORT (http1, the default here, or curl; see docs/transports.md).
write_live_config() {
    local file=$1 user=$2 feed=$3 payment=$4
    cat >"$file" <<JSON
{
  "mode": "live",
  "port": 0,
  "adminPort": 0,
  "threads": $THREADS,
  "drainSeconds": 2,
  "modules": {
    "UserModule": {"baseURL": "$user", "keyFile": "$WORK/keys/user-1.key", "transport": "$TRANSPORT"},
    "FeedModule": {"baseURL": "$feed", "keyFile": "$WORK/keys/feed-1.key", "transport": "$TRANSPORT"},
    "PaymentModule": {"baseURL": "$payment", "keyFile": "$WORK/keys/payment-1.key", "transport": "$TRANSPORT"}
  }
}
JSON
}

# Starts swiftyd (pinned to PROXY_CORE) with the given arguments and environment assignments
# before them; sets D_PID, D_APP (base URL), D_ADMIN (base URL).
start_swiftyd() {
    local name=$1
    shift
    env "$@" taskset -c "$PROXY_CORE" "$SWIFTYD" --port 0 --admin-port 0 ${D_CONFIG:+--config "$D_CONFIG"} \
        >"$WORK/$name.out" 2>"$WORK/$name.err" &
    D_PID=$!
    PIDS+=("$D_PID")
    D_APP=$(field_from "$WORK/$name.out" "  app API:" 3)
    D_ADMIN=$(field_from "$WORK/$name.out" "  admin:" 2)
    D_ADMIN=${D_ADMIN%/livez}
}

# Checks that URL answers 200 with the bearer token; prints the body.
check_200() {
    local status
    status=$(curl -sS -o "$WORK/check.body" -w '%{http_code}' --max-time 5 -H "Authorization: Bearer $TOKEN" "$1")
    [ "$status" = 200 ] || { echo "$1 answered $status: $(cat "$WORK/check.body")" >&2; return 1; }
    cat "$WORK/check.body"
}

# CPU time (utime + stime) of PID in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
TICK_US=$(awk -v hz="$(getconf CLK_TCK)" 'BEGIN { print 1000000 / hz }')

# Context switches (voluntary and involuntary) of all threads of PID.
ctx_switches() {
    cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^(voluntary|nonvoluntary)_ctxt_switches:/ { n += $2 } END { print n + 0 }'
}

# VmRSS of PID in KiB.
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# wrk output field readers. Latencies in ms.
wrk_rps() { awk '/^Requests\/sec/ { print $2 }' "$1"; }
wrk_pct() {
    awk -v p="$2%" '$1 == p {
        v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
        if (u == "us") v /= 1000; else if (u == "s") v *= 1000; else if (u == "m") v *= 60000
        printf "%.2f\n", v }' "$1"
}
wrk_errors() {
    awk '/Non-2xx or 3xx responses/ { n += $NF } /Socket errors/ {
        for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) { x = $i; sub(/,/, "", x); n += x } } END { print n + 0 }' "$1"
}
wrk_requests() { awk '/requests in/ { print $1 }' "$1"; }

# Runs wrk on WRK_CORE: run_wrk OUTFILE CONNECTIONS DURATION URL.
run_wrk() {
    local out=$1 connections=$2 duration=$3 url=$4 seconds
    seconds=${duration%s}
    timeout --foreground $((seconds + 30)) taskset -c "$WRK_CORE" wrk -t1 -c"$connections" -d"$duration" --latency \
        -H "Authorization: Bearer $TOKEN" "$url" >"$out"
}

machine() {
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)"
    echo "load average at $1: $(cut -d' ' -f1-3 /proc/loadavg)"
}
