#!/usr/bin/env bash
# HTTP server benchmark: swifty-bench server (small JSON after an async hop) against nginx
# `return 200`, same machine, same run. Both servers are pinned to core 0, wrk to core 1.
#
#   Tools/bench/server/run.sh                 # 3 interleaved rounds of wrk -t1 -c64 -d10s
#   ROUNDS=5 DURATION=10s HOP=actor THREADS=1 Tools/bench/server/run.sh
#
# Prints, per round, req/s and the server's CPU time per request (utime+stime from /proc, which
# stays meaningful when other processes compete for the core), then the medians and the ratios
# swifty/nginx (floor: 0.8): by throughput, and by CPU per request (capacity on a full core).
# Writes them to RESULTS_DIR/server.tsv (Tools/bench/results.sh).
set -euo pipefail

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
HOP=${HOP:-actor}
THREADS=${THREADS:-1}
SWIFTY_PORT=${SWIFTY_PORT:-18431}
NGINX_PORT=${NGINX_PORT:-18432}
SERVER_CORE=${SERVER_CORE:-0}
WRK_CORE=${WRK_CORE:-1}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
# shellcheck source=../results.sh
. "$ROOT/Tools/bench/results.sh"
for tool in wrk nginx taskset; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install wrk nginx-light util-linux)" >&2; exit 1; }
done

echo "building swifty-bench (release)..." >&2
swift build -c release --static-swift-stdlib --product swifty-bench >&2
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)/swifty-bench

WORK=$(mktemp -d)
SWIFTY_PID=""
NGINX_PID=""
cleanup() {
    [ -n "$SWIFTY_PID" ] && kill "$SWIFTY_PID" 2>/dev/null && wait "$SWIFTY_PID" 2>/dev/null || true
    [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/logs" "$WORK/tmp"
cat > "$WORK/nginx.conf" <<CONF
worker_processes 1;
master_process off;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $WORK/tmp/body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fastcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / {
            default_type application/json;
            return 200 '{"ok":true}';
        }
    }
}
CONF

taskset -c "$SERVER_CORE" nginx -p "$WORK" -c "$WORK/nginx.conf" &
NGINX_PID=$!
taskset -c "$SERVER_CORE" "$BIN" server --port "$SWIFTY_PORT" --threads "$THREADS" --hop "$HOP" >"$WORK/swifty.log" 2>&1 &
SWIFTY_PID=$!

wait_ready() {
    for _ in $(seq 1 100); do
        curl -fsS -o /dev/null "http://127.0.0.1:$1/" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "server on port $1 did not come up" >&2
    exit 1
}
wait_ready "$NGINX_PORT"
wait_ready "$SWIFTY_PORT"

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
TICKS=$(getconf CLK_TCK)

# Prints "<req/s> <microseconds of server CPU per request>" for one wrk run against port $1, pid $2.
run_wrk() {
    local before after output
    before=$(cpu_ticks "$2")
    output=$(taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" "http://127.0.0.1:$1/")
    after=$(cpu_ticks "$2")
    echo "$output" | awk -v ticks=$((after - before)) -v hz="$TICKS" '
        /requests in/ { requests = $1 }
        /Requests\/sec/ { rate = $2 }
        END { printf "%s %.2f\n", rate, ticks * 1000000 / hz / requests }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Warm both up once, untimed.
taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$NGINX_PORT/" >/dev/null
taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$SWIFTY_PORT/" >/dev/null

NGINX_RESULTS=()
SWIFTY_RESULTS=()
RATIOS=()
NGINX_CPU=()
SWIFTY_CPU=()
for round in $(seq 1 "$ROUNDS"); do
    read -r n ncpu < <(run_wrk "$NGINX_PORT" "$NGINX_PID")
    read -r s scpu < <(run_wrk "$SWIFTY_PORT" "$SWIFTY_PID")
    r=$(awk -v s="$s" -v n="$n" 'BEGIN { printf "%.2f", s / n }')
    NGINX_RESULTS+=("$n")
    SWIFTY_RESULTS+=("$s")
    RATIOS+=("$r")
    NGINX_CPU+=("$ncpu")
    SWIFTY_CPU+=("$scpu")
    printf 'round %d: nginx %s req/s (%s us CPU/req), swifty %s req/s (%s us CPU/req), ratio %s\n' \
        "$round" "$n" "$ncpu" "$s" "$scpu" "$r"
done

N=$(printf '%s\n' "${NGINX_RESULTS[@]}" | median)
S=$(printf '%s\n' "${SWIFTY_RESULTS[@]}" | median)
RATIO=$(awk -v s="$S" -v n="$N" 'BEGIN { printf "%.2f", s / n }')
ROUND_RATIO=$(printf '%s\n' "${RATIOS[@]}" | median)
NC=$(printf '%s\n' "${NGINX_CPU[@]}" | median)
SC=$(printf '%s\n' "${SWIFTY_CPU[@]}" | median)
CPU_RATIO=$(awk -v s="$SC" -v n="$NC" 'BEGIN { printf "%.2f", n / s }')
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk -t1 -c$CONNECTIONS -d$DURATION, $ROUNDS interleaved rounds, servers on core $SERVER_CORE, wrk on core $WRK_CORE"
echo "median nginx return 200: $N req/s, $NC us CPU/request"
echo "median swifty (hop: $HOP, threads: $THREADS): $S req/s, $SC us CPU/request"
echo "throughput ratio swifty/nginx: $RATIO (median of per-round ratios: $ROUND_RATIO); floor 0.8"
echo "CPU-per-request ratio nginx/swifty (capacity on a full core): $CPU_RATIO"

results_begin server
result ratio "swifty / nginx return 200, req/s" "$RATIO" x 0.8 higher
result cpu "nginx return 200" "$NC" us - - anchor
result cpu "swifty-bench server" "$SC" us - - ours
result figure "nginx req/s" "$N" req/s - - anchor
result figure "swifty req/s" "$S" req/s - - ours
result figure "CPU per request nginx/swifty" "$CPU_RATIO" x
results_end
