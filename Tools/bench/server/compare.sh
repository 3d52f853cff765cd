#!/usr/bin/env bash
# Two builds of swifty-bench's server, interleaved: before and after a change to the server.
#
#   cp "$(swift build -c release --static-swift-stdlib --show-bin-path)/swifty-bench" /tmp/before   # then change, rebuild
#   Tools/bench/server/compare.sh /tmp/before "$(swift build -c release --static-swift-stdlib --show-bin-path)/swifty-bench"
#   ROUNDS=8 DURATION=5s Tools/bench/server/compare.sh A B
#
# Both on SERVER_CORE, `wrk -t1 -c64` on WRK_CORE, ROUNDS rounds (the order alternates); prints
# each round's req/s and CPU per request (the threads' run time from /proc/PID/task/*/schedstat),
# then the medians and the ratio B/A of each. No floor: a change is judged by the CPU per
# request, which the machine's other tenants disturb less than throughput.
set -euo pipefail
[ $# = 2 ] || { echo "usage: compare.sh SWIFTY_BENCH_A SWIFTY_BENCH_B" >&2; exit 64; }
A=$1 B=$2
ROUNDS=${ROUNDS:-6}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-64}
SERVER_CORE=${SERVER_CORE:-0}
WRK_CORE=${WRK_CORE:-1}
A_PORT=${A_PORT:-18451}
B_PORT=${B_PORT:-18452}

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
taskset -c "$SERVER_CORE" "$A" server --port "$A_PORT" --threads 1 >/dev/null 2>&1 &
A_PID=$!
PIDS+=("$A_PID")
taskset -c "$SERVER_CORE" "$B" server --port "$B_PORT" --threads 1 >/dev/null 2>&1 &
B_PID=$!
PIDS+=("$B_PID")
for port in "$A_PORT" "$B_PORT"; do
    for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null && break; sleep 0.1; done
done

# The run time of all the process's threads in ns (schedstat: exact, where utime and stime are
# counted in whole ticks, sampled).
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
# Prints "req/s us_cpu_per_request" for one run against port $1, pid $2.
run() {
    local before after output
    before=$(cpu_ns "$2")
    output=$(taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" "http://127.0.0.1:$1/")
    after=$(cpu_ns "$2")
    echo "$output" | awk -v ns=$((after - before)) '
        /requests in/ { n = $1 } /Requests\/sec/ { r = $2 } END { printf "%s %.3f\n", r, ns / 1000 / n }'
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$A_PORT/" >/dev/null
taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$B_PORT/" >/dev/null
AR=() AC=() BR=() BC=()
for round in $(seq 1 "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then
        read -r ar ac < <(run "$A_PORT" "$A_PID")
        read -r br bc < <(run "$B_PORT" "$B_PID")
    else
        read -r br bc < <(run "$B_PORT" "$B_PID")
        read -r ar ac < <(run "$A_PORT" "$A_PID")
    fi
    AR+=("$ar") AC+=("$ac") BR+=("$br") BC+=("$bc")
    echo "round $round: A $ar req/s $ac us CPU/req | B $br req/s $bc us CPU/req"
done
MAR=$(printf '%s\n' "${AR[@]}" | median) MAC=$(printf '%s\n' "${AC[@]}" | median)
MBR=$(printf '%s\n' "${BR[@]}" | median) MBC=$(printf '%s\n' "${BC[@]}" | median)
echo "load average $(cut -d' ' -f1-3 /proc/loadavg); wrk -t1 -c$CONNECTIONS -d$DURATION, $ROUNDS interleaved rounds"
echo "A: median $MAR req/s, $MAC us CPU/request"
echo "B: median $MBR req/s, $MBC us CPU/request"
awk -v a="$MAR" -v b="$MBR" -v c="$MAC" -v d="$MBC" 'BEGIN { printf "B/A: req/s %.3f, CPU per request %.3f\n", b / a, d / c }'
