# Shared by the daemon benchmarks (run.sh, profile.sh, instructions.sh, resilience.sh,
# payments-reset.sh): the settings they share, the tool check, the release build, process
# bookkeeping, the sandbox and swiftyd starters, wrk and /proc readers. Sourced from ROOT; it makes
# WORK (removed on exit) and traps EXIT, INT and TERM so that every process started through it is
# stopped.
# shellcheck shell=bash

# The shared settings, each kept when the caller's environment sets it: the core of the servers
# and the one of wrk, swiftyd's loops, whether to reuse the release binaries already built, the
# sandbox token sent, and the transport of the modules in write_live_config (http1 or curl).
PROXY_CORE=${PROXY_CORE:-0}
WRK_CORE=${WRK_CORE:-1}
THREADS=${THREADS:-1}
SKIP_BUILD=${SKIP_BUILD:-0}
TOKEN=${TOKEN:-sandbox-alice}
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

# Builds swiftyd and sandbox-upstreams in release, as deployed (Swift runtime and Foundation linked
# statically, docs/deployment.md), unless SKIP_BUILD=1; sets SWIFTYD and SANDBOX.
build_binaries() {
    if [ "$SKIP_BUILD" != 1 ]; then
        echo "building swiftyd and sandbox-upstreams (release)..." >&2
        swift build -c release --static-swift-stdlib --product swiftyd >&2
        swift build -c release --static-swift-stdlib --product sandbox-upstreams >&2
    fi
    BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)
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

# Waits (at most SECONDS, 10 by default) until FILE has a line starting with PREFIX; prints that
# line's field N: field_from FILE PREFIX N [SECONDS].
field_from() {
    local file=$1 prefix=$2 n=$3 seconds=${4:-10}
    for _ in $(seq 1 $((seconds * 20))); do
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
# before them; sets D_PID, D_APP (base URL), D_ADMIN (base URL). D_BINARY runs another build
# than SWIFTYD; the array D_RUNNER (the instruction counter's, say) goes before it, and the start
# is then waited for up to a minute instead of 10 s.
D_RUNNER=()
start_swiftyd() {
    local name=$1 wait=10
    shift
    [ ${#D_RUNNER[@]} -eq 0 ] || wait=60
    env "$@" taskset -c "$PROXY_CORE" ${D_RUNNER[@]+"${D_RUNNER[@]}"} "${D_BINARY:-$SWIFTYD}" --port 0 --admin-port 0 \
        ${D_CONFIG:+--config "$D_CONFIG"} >"$WORK/$name.out" 2>"$WORK/$name.err" &
    D_PID=$!
    PIDS+=("$D_PID")
    D_APP=$(field_from "$WORK/$name.out" "  app API:" 3 "$wait")
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

# The bearer token's header argument, for curl and wrk, in AUTH_ARGS; none when AUTH=0.
set_auth_args() {
    AUTH_ARGS=()
    if [ "${AUTH:-1}" = 1 ]; then AUTH_ARGS=(-H "Authorization: Bearer $TOKEN"); fi
}

# N sequential requests to URL on one keep-alive connection (with the bearer token unless
# AUTH=0); fails unless every one answered STATUS.
send_sequential() {
    local n=$1 url=$2 status=$3 ok
    set_auth_args
    : >"$WORK/urls.cfg"
    for _ in $(seq 1 "$n"); do echo "url = \"$url\"" >>"$WORK/urls.cfg"; done
    timeout 600 curl -sS --config "$WORK/urls.cfg" ${AUTH_ARGS[@]+"${AUTH_ARGS[@]}"} -w '%{stderr}%{http_code}\n' >/dev/null 2>"$WORK/codes"
    ok=$(grep -c "^$status\$" "$WORK/codes" || true)
    [ "$ok" = "$n" ] || { echo "only $ok of $n requests answered $status: $(sort "$WORK/codes" | uniq -c)" >&2; exit 1; }
}

# The path of the shared library whose name starts with NAME that BINARY loads: library BINARY NAME.
library() { ldd "$1" | awk -v name="$2" 'index($1, name) == 1 { print $3; exit }'; }

machine() {
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)"
    echo "load average at $1: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# One `wrk -t1 -cCONNECTIONS -dDURATION --latency` run against URL (on WRK_CORE), with the CPU of
# FRONT and of UPSTREAMS (space-separated PIDs, may be empty) read around it; further arguments
# go to wrk (a header, say): measure_front OUT FRONT "UPSTREAMS" URL [WRK_ARGS...]. Prints
# "req/s p99_ms front_cpu_us upstreams_cpu_us socket_errors non2xx requests", CPU per request.
# With WARM_DURATION set, the same wrk runs that long first, unmeasured.
measure_front() {
    local out=$1 front=$2 upstreams=$3 url=$4 seconds f0 f1 u0=0 u1=0 p
    shift 4
    seconds=${DURATION%s}
    if [ -n "${WARM_DURATION:-}" ]; then
        timeout --foreground $((${WARM_DURATION%s} + 30)) taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" \
            -d"$WARM_DURATION" "$@" "$url" >/dev/null
    fi
    f0=$(cpu_ticks "$front")
    for p in $upstreams; do u0=$((u0 + $(cpu_ticks "$p"))); done
    timeout --foreground $((seconds + 30)) taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency \
        "$@" "$url" >"$out"
    f1=$(cpu_ticks "$front")
    for p in $upstreams; do u1=$((u1 + $(cpu_ticks "$p"))); done
    awk -v r="$(wrk_rps "$out")" -v l="$(wrk_pct "$out" 99)" -v n="$(wrk_requests "$out")" -v a=$((f1 - f0)) \
        -v b=$((u1 - u0)) -v t="$TICK_US" -v s="$(wrk_socket_errors "$out")" -v x="$(wrk_non2xx "$out")" \
        'BEGIN { printf "%s %s %.2f %.2f %d %d %d\n", r, l, a * t / n, b * t / n, s, x, n }'
}
wrk_socket_errors() {
    awk '/Socket errors/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) { x = $i; sub(/,/, "", x); n += x } }
        END { print n + 0 }' "$1"
}
wrk_non2xx() { awk '/Non-2xx or 3xx responses/ { n += $NF } END { print n + 0 }' "$1"; }

# ROUNDS interleaved rounds (the order alternates) of side A against side B, each given as
# NAME FRONT "UPSTREAMS" URL, with WRK_ARGS (an array, may be empty) passed to wrk. Prints each
# round; sets ROUNDS_A and ROUNDS_B to the rounds' measure_front lines.
interleave() {
    local a=("$1" "$2" "$3" "$4") b=("$5" "$6" "$7" "$8") round x y
    ROUNDS_A=() ROUNDS_B=()
    for round in $(seq 1 "$ROUNDS"); do
        if [ $((round % 2)) = 1 ]; then
            x=$(measure_front "$WORK/${a[0]}.wrk" "${a[1]}" "${a[2]}" "${a[3]}" "${WRK_ARGS[@]+"${WRK_ARGS[@]}"}")
            y=$(measure_front "$WORK/${b[0]}.wrk" "${b[1]}" "${b[2]}" "${b[3]}" "${WRK_ARGS[@]+"${WRK_ARGS[@]}"}")
        else
            y=$(measure_front "$WORK/${b[0]}.wrk" "${b[1]}" "${b[2]}" "${b[3]}" "${WRK_ARGS[@]+"${WRK_ARGS[@]}"}")
            x=$(measure_front "$WORK/${a[0]}.wrk" "${a[1]}" "${a[2]}" "${a[3]}" "${WRK_ARGS[@]+"${WRK_ARGS[@]}"}")
        fi
        ROUNDS_A+=("$x") ROUNDS_B+=("$y")
        echo "round $round (req/s p99_ms front_us upstreams_us socket_errors non2xx requests): ${a[0]} $x | ${b[0]} $y" >&2
    done
}

# The median of field K of the given lines: median_of K LINE...
median_of() {
    local k=$1
    shift
    printf '%s\n' "$@" | awk -v k="$k" '{ print $k }' | median
}

# Writes an nginx configuration (one worker, no master, logs and temporary files under DIR) whose
# http block holds the rest of standard input: nginx_conf DIR.
nginx_conf() {
    local dir=$1
    mkdir -p "$dir/logs" "$dir/tmp"
    {
        cat <<CONF
worker_processes 1;
master_process off;
daemon off;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 4096; }
http {
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    keepalive_requests 1000000;
CONF
        cat
        echo "}"
    } >"$dir/nginx.conf"
}

# Starts nginx on PROXY_CORE with DIR/nginx.conf and waits (at most 10 s) until URL answers;
# sets NGINX_PID: start_nginx DIR URL.
start_nginx() {
    taskset -c "$PROXY_CORE" nginx -p "$1" -c "$1/nginx.conf" 2>"$1/logs/start.err" &
    NGINX_PID=$!
    PIDS+=("$NGINX_PID")
    for _ in $(seq 1 100); do curl -sS -o /dev/null "$2" 2>/dev/null && return 0; sleep 0.1; done
    echo "nginx in $1 did not answer $2: $(cat "$1/logs/start.err" "$1/logs/error.log")" >&2
    return 1
}

# The least share of PROXY_CORE any round of ROUNDS_A and ROUNDS_B used (requests/s times the
# CPU per request of front and upstreams): a round well below 1 was short of CPU, and its
# throughput measures the machine rather than the code.
least_busy() {
    printf '%s\n' "${ROUNDS_A[@]}" "${ROUNDS_B[@]}" | awk '{ b = $1 * ($3 + $4) / 1e6; if (NR == 1 || b < m) m = b }
        END { printf "%.2f\n", m }'
}

# The arrangement of the edge issue (run.sh's part 5, profile.sh): one static nginx upstream
# answering canned JSON for the user and the token introspection (no signature check); swiftyd in
# live mode with every setting at its default but the modules' base URLs and key files (from
# KEYS, as start_sandbox --generate-keys writes them); nginx proxy_pass (one worker, upstream
# keepalive, access log on) in front of the same upstream; all on PROXY_CORE. Checks that both
# answer 200. Sets UP_PID; S_PID, S_URL, S_ADMIN (swiftyd); G_PID, G_URL, G_LOG (nginx's access
# log): start_static_arrangement KEYS.
start_static_arrangement() {
    local keys=$1 up_port p_port expires
    up_port=$(free_port 18650)
    expires=$(date -u -d '+1 day' +%Y-%m-%dT%H:%M:%SZ)
    nginx_conf "$WORK/static" <<CONF
    access_log off;
    server {
        listen 127.0.0.1:$up_port;
        default_type application/json;
        location = /v1/sessions/introspect { return 200 '{"active":true,"expiresAt":"$expires","userId":"alice"}'; }
        location /v1/users/ { return 200 '{"displayName":"Bob Cratchit","followerCount":2,"followingCount":1,"id":"bob"}'; }
    }
CONF
    start_nginx "$WORK/static" "http://127.0.0.1:$up_port/v1/users/bob"
    UP_PID=$NGINX_PID
    cat >"$WORK/static.json" <<JSON
{
  "mode": "live",
  "modules": {
    "UserModule": {"baseURL": "http://127.0.0.1:$up_port", "keyFile": "$keys/user-1.key"},
    "FeedModule": {"baseURL": "http://127.0.0.1:$up_port", "keyFile": "$keys/feed-1.key"},
    "PaymentModule": {"baseURL": "http://127.0.0.1:$up_port", "keyFile": "$keys/payment-1.key"}
  }
}
JSON
    D_CONFIG="$WORK/static.json" start_swiftyd static-swiftyd
    S_PID=$D_PID S_URL="$D_APP/v1/users/bob" S_ADMIN=$D_ADMIN
    p_port=$(free_port $((up_port + 1)))
    G_LOG="$WORK/proxy/logs/access.log"
    nginx_conf "$WORK/proxy" <<CONF
    access_log $G_LOG;
    upstream user {
        server 127.0.0.1:$up_port;
        keepalive 64;
        keepalive_requests 1000000;
    }
    server {
        listen 127.0.0.1:$p_port;
        location /v1/users/ {
            proxy_pass http://user;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
CONF
    start_nginx "$WORK/proxy" "http://127.0.0.1:$p_port/v1/users/bob"
    G_PID=$NGINX_PID G_URL="http://127.0.0.1:$p_port/v1/users/bob"
    echo "swiftyd answers: $(check_200 "$S_URL")" >&2
    echo "nginx answers:   $(check_200 "$G_URL")" >&2
}
