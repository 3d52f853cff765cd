#!/usr/bin/env bash
# Transport benchmark: libcurl vs URLSession against a loopback nginx `return 200`.
#
#   Tools/bench/transport/run.sh [--duration S] [--rounds N] [--requests N] [--skip-build]
#
# 1. throughput: `swifty-bench transport load` at 64 concurrent requests, curl and URLSession
#    interleaved for N rounds (median reported); nginx pinned to CPU 0, the client to CPU 1.
# 2. upstream connections: distinct `$connection` values in nginx's access log during one curl
#    run (and one URLSession run, for comparison).
# 3. memory: `swifty-bench transport memory`, 200k requests through curl, RSS after each 50k.
# Prints a Markdown report on stdout and writes the figures to RESULTS_DIR/transport.tsv
# (Tools/bench/results.sh). Needs nginx (nginx-light) and a release build.
set -euo pipefail

DURATION=10
ROUNDS=3
REQUESTS=200000
CONCURRENCY=64
BUILD=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --duration) DURATION="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --requests) REQUESTS="$2"; shift 2 ;;
        --skip-build) BUILD=0; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 64 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$ROOT"
# shellcheck source=../results.sh
. "$ROOT/Tools/bench/results.sh"
if [[ $BUILD == 1 ]]; then
    swift build -c release --static-swift-stdlib --product swifty-bench >&2
fi
BENCH="$ROOT/.build/release/swifty-bench"

WORK="$(mktemp -d /tmp/swifty-bench-transport.XXXXXX)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
mkdir -p "$WORK/logs"
cat > "$WORK/nginx.conf" <<CONF
worker_processes 1;
daemon on;
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 4096; }
http {
    log_format conn '\$connection';
    access_log $WORK/logs/access.log conn buffer=256k flush=1s;
    keepalive_requests 1000000;
    keepalive_timeout 75s;
    client_body_temp_path $WORK/body;
    proxy_temp_path $WORK/proxy;
    fastcgi_temp_path $WORK/fastcgi;
    uwsgi_temp_path $WORK/uwsgi;
    scgi_temp_path $WORK/scgi;
    server {
        listen 127.0.0.1:$PORT;
        location / { return 200 'ok'; }
    }
}
CONF
taskset -c 0 nginx -p "$WORK" -c "$WORK/nginx.conf" 2>/dev/null || nginx -p "$WORK" -c "$WORK/nginx.conf"
cleanup() {
    if [[ -f "$WORK/nginx.pid" ]]; then kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true; fi
    sleep 0.3
    rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$PORT/" >/dev/null && break; sleep 0.1; done
URL="http://127.0.0.1:$PORT/"

field() { sed -n "s/^$1=//p"; }
log_lines() { wc -l < "$WORK/logs/access.log"; }
flush_log() { kill -USR1 "$(cat "$WORK/nginx.pid")"; sleep 1.5; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2==1) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }

client() { taskset -c 1 "$BENCH" transport "$@"; }

declare -a CURL_RPS URLS_RPS
CURL_CONNECTIONS="" URLS_CONNECTIONS=""
for round in $(seq "$ROUNDS"); do
    flush_log; before=$(log_lines)
    out=$(client load --transport curl --url "$URL" --concurrency "$CONCURRENCY" --duration "$DURATION")
    flush_log
    CURL_RPS+=("$(echo "$out" | field requests_per_second)")
    CURL_P99="$(echo "$out" | field latency_p99_us)"
    CURL_ERRORS="$(echo "$out" | field errors)"
    connections=$(tail -n +"$((before + 1))" "$WORK/logs/access.log" | sort -u | wc -l)
    CURL_CONNECTIONS="$CURL_CONNECTIONS $connections"

    before=$(log_lines)
    out=$(client load --transport urlsession --url "$URL" --concurrency "$CONCURRENCY" --duration "$DURATION")
    flush_log
    URLS_RPS+=("$(echo "$out" | field requests_per_second)")
    URLS_P99="$(echo "$out" | field latency_p99_us)"
    URLS_ERRORS="$(echo "$out" | field errors)"
    connections=$(tail -n +"$((before + 1))" "$WORK/logs/access.log" | sort -u | wc -l)
    URLS_CONNECTIONS="$URLS_CONNECTIONS $connections"
    echo "round $round: curl ${CURL_RPS[-1]} req/s, URLSession ${URLS_RPS[-1]} req/s" >&2
done
CURL_MEDIAN=$(printf '%s\n' "${CURL_RPS[@]}" | median)
URLS_MEDIAN=$(printf '%s\n' "${URLS_RPS[@]}" | median)
RATIO=$(awk -v c="$CURL_MEDIAN" -v u="$URLS_MEDIAN" 'BEGIN { printf "%.1f", (u > 0) ? c / u : 0 }')

memory=$(client memory --transport curl --url "$URL" --concurrency "$CONCURRENCY" --requests "$REQUESTS" --sample-every 50000)

cat <<REPORT
## Transports

Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -r); \
nginx $(nginx -v 2>&1 | cut -d/ -f2) \`return 200\` (1 worker, CPU 0, keepalive_requests 1000000); client on CPU 1.
Command: \`Tools/bench/transport/run.sh --duration $DURATION --rounds $ROUNDS --requests $REQUESTS\` (release build).

| figure | libcurl transport | URLSession transport |
|---|---|---|
| requests/s at $CONCURRENCY concurrent, median of $ROUNDS x ${DURATION}s | $CURL_MEDIAN | $URLS_MEDIAN |
| all rounds (requests/s) | ${CURL_RPS[*]} | ${URLS_RPS[*]} |
| p99 latency, last round (µs) | $CURL_P99 | $URLS_P99 |
| errors, last round | $CURL_ERRORS | $URLS_ERRORS |
| upstream connections opened per ${DURATION}s run | ${CURL_CONNECTIONS# } | ${URLS_CONNECTIONS# } |

- Throughput ratio libcurl / URLSession: **${RATIO}x** (floor: at least 5x).
- Upstream connections per run at concurrency $CONCURRENCY (floor: at most $((2 * CONCURRENCY))): libcurl ${CURL_CONNECTIONS# }.
- Memory, $REQUESTS requests through the libcurl transport at concurrency $CONCURRENCY (RSS in KiB after each 50k):

\`\`\`
$memory
\`\`\`
REPORT

results_begin transport
result ratio "libcurl / URLSession, req/s at $CONCURRENCY concurrent" "$RATIO" x 5 higher
result figure "libcurl req/s" "$CURL_MEDIAN" req/s - - ours
result figure "URLSession req/s" "$URLS_MEDIAN" req/s - - anchor
result figure "libcurl p99, last round" "$CURL_P99" us - - ours
result figure "URLSession p99, last round" "$URLS_P99" us - - anchor
result figure "libcurl upstream connections per run, most" \
    "$(printf '%s\n' $CURL_CONNECTIONS | sort -n | tail -1)" count $((2 * CONCURRENCY)) lower ours
result figure "RSS growth over $REQUESTS requests, first to last 50k" \
    "$(echo "$memory" | field rss_growth_first_to_last_chunk_percent)" % 5 lower ours
results_end
