#!/usr/bin/env bash
# HTTP server benchmark: swifty-bench server (small JSON after an async hop) against nginx
# `return 200`, same machine, same run. Both servers are pinned to core 0, wrk to core 1.
#
#   Tools/bench/server/run.sh                 # 3 interleaved rounds of wrk -t1 -c64 -d10s
#   ROUNDS=5 DURATION=10s HOP=actor THREADS=1 Tools/bench/server/run.sh
#
# Prints req/s per round, the medians and the ratio swifty/nginx (issue floor: 0.35).
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
for tool in wrk nginx taskset; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install wrk nginx-light util-linux)" >&2; exit 1; }
done

echo "building swifty-bench (release)..." >&2
swift build -c release --product swifty-bench >&2
BIN=$(swift build -c release --show-bin-path)/swifty-bench

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

run_wrk() {
    taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" "http://127.0.0.1:$1/" \
        | awk '/Requests\/sec/ { print $2 }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Warm both up once, untimed.
taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$NGINX_PORT/" >/dev/null
taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$SWIFTY_PORT/" >/dev/null

NGINX_RESULTS=()
SWIFTY_RESULTS=()
RATIOS=()
for round in $(seq 1 "$ROUNDS"); do
    n=$(run_wrk "$NGINX_PORT")
    s=$(run_wrk "$SWIFTY_PORT")
    r=$(awk -v s="$s" -v n="$n" 'BEGIN { printf "%.2f", s / n }')
    NGINX_RESULTS+=("$n")
    SWIFTY_RESULTS+=("$s")
    RATIOS+=("$r")
    printf 'round %d: nginx %s req/s, swifty %s req/s, ratio %s\n' "$round" "$n" "$s" "$r"
done

N=$(printf '%s\n' "${NGINX_RESULTS[@]}" | median)
S=$(printf '%s\n' "${SWIFTY_RESULTS[@]}" | median)
RATIO=$(awk -v s="$S" -v n="$N" 'BEGIN { printf "%.2f", s / n }')
ROUND_RATIO=$(printf '%s\n' "${RATIOS[@]}" | median)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk -t1 -c$CONNECTIONS -d$DURATION, $ROUNDS interleaved rounds, servers on core $SERVER_CORE, wrk on core $WRK_CORE"
echo "median nginx return 200: $N req/s"
echo "median swifty (hop: $HOP, threads: $THREADS): $S req/s"
echo "ratio of medians swifty/nginx: $RATIO; median of per-round ratios: $ROUND_RATIO (floor 0.35)"
