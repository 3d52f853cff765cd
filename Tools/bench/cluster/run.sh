#!/usr/bin/env bash
# Cluster benchmark: the fleet of Tools/cluster/run through nginx with two daemons against one,
# same machine, same run, release build.
#
#   Tools/bench/cluster/run.sh                # 3 interleaved rounds of wrk -t2 -c64 -d10s
#   ROUNDS=5 DURATION=10s PATH_UNDER_TEST=/v1/home Tools/bench/cluster/run.sh
#   SKIP_BUILD=1 Tools/bench/cluster/run.sh   # reuse the release binaries
#
# Both clusters (each with its own redis-server, sandbox sets, daemons and nginx) run at once;
# the rounds alternate between them, the order alternating too. Per round: req/s, p99 and the CPU
# of every process of the cluster per request (utime + stime from /proc). Then the medians and
# the ratio two/one. On a machine with fewer cores than the parts, two daemons share the cores
# one daemon had, so the ratio shows what the shared state costs rather than a gain.
set -euo pipefail

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
PATH_UNDER_TEST=${PATH_UNDER_TEST:-/v1/users/bob}
TOKEN=${TOKEN:-sandbox-alice}
SKIP_BUILD=${SKIP_BUILD:-0}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
# shellcheck source=../results.sh
. "$ROOT/Tools/bench/results.sh"
for tool in wrk nginx redis-server curl; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
        { echo "missing $tool (apt-get install wrk nginx redis-server curl)" >&2; exit 69; }
done

if [ "$SKIP_BUILD" != 1 ]; then
    echo "building swiftyd and sandbox-upstreams (release)..." >&2
    swift build -c release --static-swift-stdlib --product swiftyd >&2
    swift build -c release --static-swift-stdlib --product sandbox-upstreams >&2
fi
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/swifty-cluster-bench.XXXXXX")
CLUSTERS=()
cleanup() {
    local pid
    for pid in "${CLUSTERS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${CLUSTERS[@]}"; do
        for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts a cluster of $1 daemons; waits (at most 120 s) for its state file.
start_cluster() {
    local daemons=$1
    Tools/cluster/run --bin "$BIN" --daemons "$daemons" --state "$WORK/cluster-$daemons.state" \
        --work "$WORK/cluster-$daemons" \
        --rate-limits '{"reads": {"perUser": null, "perAddress": null}}' >"$WORK/cluster-$daemons.log" 2>&1 &
    CLUSTERS+=($!)
    for _ in $(seq 1 1200); do
        grep -q '^READY=1' "$WORK/cluster-$daemons.state" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "the $daemons-daemon cluster did not start: $(tail -c 1500 "$WORK/cluster-$daemons.log")" >&2
    exit 1
}
start_cluster 1
start_cluster 2

# The pids of every process of a cluster (from its state file).
cluster_pids() { grep -E '^(REDIS|SANDBOX_[0-9]|DAEMON_[0-9]|NGINX)_PID=' "$1" | cut -d= -f2 | tr '\n' ' '; }
# CPU ticks of PIDS and their threads and children (nginx's worker is a child of its master).
cpu_ticks() {
    local total=0 pid child
    for pid in "$@"; do
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat")))
        for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
            total=$((total + $(awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null || echo 0)))
        done
    done
    echo "$total"
}
HZ=$(getconf CLK_TCK)

# One wrk run against cluster $1: prints "req/s p99_ms cpu_us_per_request errors".
measure() {
    local state="$WORK/cluster-$1.state" url pids before after out
    url=$(grep '^URL=' "$state" | cut -d= -f2)
    read -r -a pids <<<"$(cluster_pids "$state")"
    before=$(cpu_ticks "${pids[@]}")
    out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -H "Authorization: Bearer $TOKEN" "$url$PATH_UNDER_TEST")
    after=$(cpu_ticks "${pids[@]}")
    echo "$out" | awk -v ticks=$((after - before)) -v hz="$HZ" '
        /requests in/ { requests = $1 }
        /Requests\/sec/ { rate = $2 }
        $1 == "99%" { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
            if (u == "us") v /= 1000; else if (u == "s") v *= 1000; p99 = v }
        /Non-2xx/ { errors += $NF }
        END { printf "%s %.2f %.1f %d\n", rate, p99, ticks * 1000000 / hz / requests, errors }'
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "GET $PATH_UNDER_TEST through nginx, wrk -t2 -c$CONNECTIONS -d$DURATION, $ROUNDS rounds"
# Warm both, untimed.
for n in 1 2; do
    url=$(grep '^URL=' "$WORK/cluster-$n.state" | cut -d= -f2)
    wrk -t2 -c"$CONNECTIONS" -d2s -H "Authorization: Bearer $TOKEN" "$url$PATH_UNDER_TEST" >/dev/null
done

declare -A RPS P99 CPU
for round in $(seq 1 "$ROUNDS"); do
    order=(1 2)
    [ $((round % 2)) = 0 ] && order=(2 1)
    for n in "${order[@]}"; do
        read -r rps p99 cpu errors < <(measure "$n")
        [ "$errors" = 0 ] || echo "round $round, $n daemon(s): $errors non-2xx answers" >&2
        RPS[$n]+="$rps "
        P99[$n]+="$p99 "
        CPU[$n]+="$cpu "
        printf 'round %d  %d daemon(s): %10.0f req/s  p99 %7.2f ms  %7.1f us CPU/request\n' "$round" "$n" "$rps" "$p99" "$cpu"
    done
done

results_begin cluster
for n in 1 2; do
    rps=$(echo "${RPS[$n]}" | tr ' ' '\n' | grep . | median)
    p99=$(echo "${P99[$n]}" | tr ' ' '\n' | grep . | median)
    cpu=$(echo "${CPU[$n]}" | tr ' ' '\n' | grep . | median)
    printf 'median %d daemon(s): %10.0f req/s  p99 %7.2f ms  %7.1f us CPU/request (whole cluster)\n' "$n" "$rps" "$p99" "$cpu"
    side=ours
    [ "$n" = 1 ] && side=anchor
    result figure "$n daemon(s) req/s" "$rps" req/s - - "$side"
    result cpu "$n daemon(s) CPU per request" "$cpu" us - - "$side"
done
r1=$(echo "${RPS[1]}" | tr ' ' '\n' | grep . | median)
r2=$(echo "${RPS[2]}" | tr ' ' '\n' | grep . | median)
ratio=$(awk -v a="$r2" -v b="$r1" 'BEGIN { printf "%.2f", a / b }')
echo "two daemons / one daemon: ${ratio}x req/s"
result figure "two daemons / one, req/s" "$ratio" x - - ours
results_end
