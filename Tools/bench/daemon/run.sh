#!/usr/bin/env bash
# Daemon benchmarks: the floors of swiftyd, release build, loopback only, one run.
#
#   Tools/bench/daemon/run.sh                     # everything, defaults below (about 7 minutes)
#   ROUNDS=5 Tools/bench/daemon/run.sh            # more interleaved proxy rounds
#   ONLY=proxy Tools/bench/daemon/run.sh          # one part: proxy, home, rss, start, static, refusal
#   SKIP_BUILD=1 Tools/bench/daemon/run.sh        # reuse the release binaries already built
#   REPLAY_CAPACITY=N, REPLAY_WINDOW=S            # the verifying upstream's nonce limit (see part 1)
#   TRANSPORT=curl Tools/bench/daemon/run.sh      # live-mode modules on libcurl (default: http1)
#
# 1. proxy: GET /v1/users/bob through swiftyd (live mode, signing) to a sandbox user upstream
#    (verifying), against nginx proxy_pass (upstream keepalive) to a second sandbox user upstream
#    started with --no-verify (nginx cannot sign). Both upstreams, swiftyd and nginx are pinned to
#    PROXY_CORE, wrk to WRK_CORE; `wrk -t1 -c64 -d10s --latency`, ROUNDS interleaved rounds
#    (the order alternates), medians. Floor: swiftyd >= 0.4x nginx requests/s.
# 2. home: GET /v1/home on swiftyd in sandbox mode with SWIFTY_SANDBOX_LATENCY_MS=50 (50 ms on
#    each of the three in-process upstreams), `wrk -t1 -c16 -d10s --latency`. Floor: p50 <= 51.5 ms.
# 3. rss: swiftyd live mode under `wrk -t1 -c64` for 60 s on GET /v1/home (all three modules);
#    VmRSS from /proc/PID/status before, every 10 s during, and after. Floor: <= 40 MiB.
# 4. start: 20 starts of swiftyd in sandbox mode (fixed free ports), time from exec to /readyz
#    answering 200, median. Floor: <= 15 ms.
# 5. static: GET /v1/users/bob through swiftyd in live mode (every setting at its default but the
#    modules' base URLs and key files) against nginx proxy_pass, both in front of ONE static nginx
#    upstream answering canned JSON (the user and the token introspection; no signature check),
#    all on PROXY_CORE, ROUNDS interleaved rounds. Floors: >= 0.6x nginx req/s, p99 <= 1.8x nginx's.
# 6. refusal: GET /v1/users/bob without a token: swiftyd's 401 problem (sandbox mode, access log
#    on) against nginx returning the same status, fields and body (access log on), same core,
#    ROUNDS interleaved rounds. Floor: >= 0.6x nginx req/s.
#
# Every process it starts is stopped on exit, also on Ctrl-C; every wait is bounded. The figures
# of the parts run go to RESULTS_DIR/daemon-TRANSPORT.tsv, or daemon-TRANSPORT-PART.tsv for one part
# (Tools/bench/results.sh).
set -euo pipefail

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
HOME_CONNECTIONS=${HOME_CONNECTIONS:-16}
HOME_DURATION=${HOME_DURATION:-10s}
LATENCY_MS=${LATENCY_MS:-50}
RSS_SECONDS=${RSS_SECONDS:-60}
STARTS=${STARTS:-20}
ONLY=${ONLY:-all}
REPLAY_CAPACITY=${REPLAY_CAPACITY:-1000000}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
case "$ONLY" in all | proxy | home | rss | start | static | refusal) ;; *) echo "ONLY must be all, proxy, home, rss, start, static or refusal" >&2; exit 64 ;; esac
# shellcheck source=common.sh
. "$ROOT/Tools/bench/daemon/common.sh"
# shellcheck source=../results.sh
. "$ROOT/Tools/bench/results.sh"
require_tools "wrk nginx-light util-linux curl gawk iproute2" wrk nginx taskset curl awk ss
build_binaries

machine "start"
# One file for a full run; a part run alone writes its own, so it does not replace the others' figures.
if [ "$ONLY" = all ]; then results_begin "daemon-$TRANSPORT"; else results_begin "daemon-$TRANSPORT-$ONLY"; fi

mkdir -p "$WORK/keys"
# The keys every live-mode upstream and swiftyd share: written once by a sandbox-upstreams.
start_sandbox keygen --keys "$WORK/keys" --generate-keys
stop "$SB_PID"

# ---------------------------------------------------------------------------------------------
# 1. swiftyd against nginx proxy_pass, same upstream code, same cores.
if [ "$ONLY" = all ] || [ "$ONLY" = proxy ]; then
    echo "== 1. GET /v1/users/bob: swiftyd (signing, live mode) vs nginx proxy_pass" >&2
    start_sandbox verified --keys "$WORK/keys" --replay-capacity "$REPLAY_CAPACITY"
    V_PID=$SB_PID V_USER=$SB_USER
    write_live_config "$WORK/live.json" "$SB_USER" "$SB_FEED" "$SB_PAYMENT"
    start_sandbox unverified --keys "$WORK/keys" --no-verify
    N_PID=$SB_PID N_USER=$SB_USER

    D_CONFIG="$WORK/live.json" start_swiftyd proxy-swiftyd SWIFTY_LOG_LEVEL=info
    S_PID=$D_PID S_URL="$D_APP/v1/users/bob"

    NGINX_PORT=$(free_port 18640)
    mkdir -p "$WORK/nginx/logs" "$WORK/nginx/tmp"
    cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes 1;
master_process off;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log $WORK/nginx/logs/access.log;
    client_body_temp_path $WORK/nginx/tmp/body;
    proxy_temp_path $WORK/nginx/tmp/proxy;
    fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
    uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
    scgi_temp_path $WORK/nginx/tmp/scgi;
    keepalive_requests 1000000;
    upstream user {
        server ${N_USER#http://};
        keepalive 64;
        keepalive_requests 1000000;
    }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location /v1/users/ {
            proxy_pass http://user;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
}
CONF
    taskset -c "$PROXY_CORE" nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
    NGINX_PID=$!
    PIDS+=("$NGINX_PID")
    G_URL="http://127.0.0.1:$NGINX_PORT/v1/users/bob"
    for _ in $(seq 1 100); do curl -fsS -o /dev/null "$G_URL" 2>/dev/null && break; sleep 0.1; done

    echo "swiftyd answers: $(check_200 "$S_URL")" >&2
    echo "nginx answers:   $(check_200 "$G_URL")" >&2
    # The unverified upstream refuses nothing; the verified one refuses an unsigned request.
    v_status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$V_USER/v1/users/bob")
    [ "$v_status" = 401 ] || { echo "the verifying upstream answered $v_status to an unsigned request" >&2; exit 1; }

    # Warm both up once, untimed.
    run_wrk "$WORK/warm-n" "$CONNECTIONS" 2s "$G_URL"
    run_wrk "$WORK/warm-s" "$CONNECTIONS" 2s "$S_URL"
    # The verifying upstream remembers each nonce until the signature can no longer be accepted
    # (its `expires`, 60 s after signing, plus 30 s of allowed skew, plus 1 s) and holds at most
    # REPLAY_CAPACITY (default 1 000 000 here, 100 000 in the sandbox): beyond that it refuses
    # valid requests with 503. One million holds the warm-up and three rounds up to about
    # 30 000 req/s; for more, raise it or set REPLAY_WINDOW (seconds) so that each swiftyd round
    # starts that long after the previous one ended, when its nonces are forgotten (93 s covers
    # it). Errors are counted and fail the floor, so an overflow cannot pass.
    REPLAY_WINDOW=${REPLAY_WINDOW:-0}
    SWIFTYD_LOAD_END=0
    replay_pause() {
        local wait=$((SWIFTYD_LOAD_END + REPLAY_WINDOW - EPOCHSECONDS))
        if [ "$wait" -gt 0 ]; then
            echo "waiting ${wait} s for the verifying upstream's nonces to expire" >&2
            sleep "$wait"
        fi
    }

    N_RPS=() S_RPS=() N_P99=() S_P99=() N_CPU=() S_CPU=() VU_CPU=() NU_CPU=() N_CS=() S_CS=() RATIOS=() BUSY=() ERRORS=0
    # measure NAME PROXY_PID UPSTREAM_PID URL: prints "req/s p99_ms proxy_cpu_us upstream_cpu_us errors
    # proxy_context_switches", the last three per request.
    measure() {
        local name=$1 proxy=$2 upstream=$3 url=$4 p0 u0 c0 p1 u1 c1 requests rps p99 errors
        p0=$(cpu_ticks "$proxy") u0=$(cpu_ticks "$upstream") c0=$(ctx_switches "$proxy")
        run_wrk "$WORK/$name.wrk" "$CONNECTIONS" "$DURATION" "$url"
        p1=$(cpu_ticks "$proxy") u1=$(cpu_ticks "$upstream") c1=$(ctx_switches "$proxy")
        requests=$(wrk_requests "$WORK/$name.wrk")
        rps=$(wrk_rps "$WORK/$name.wrk")
        p99=$(wrk_pct "$WORK/$name.wrk" 99)
        errors=$(wrk_errors "$WORK/$name.wrk")
        awk -v r="$rps" -v l="$p99" -v n="$requests" -v a=$((p1 - p0)) -v b=$((u1 - u0)) -v t="$TICK_US" \
            -v e="$errors" -v c=$((c1 - c0)) 'BEGIN { printf "%s %s %.2f %.2f %d %.2f\n", r, l, a * t / n, b * t / n, e, c / n }'
    }
    for round in $(seq 1 "$ROUNDS"); do
        if [ $((round % 2)) = 1 ]; then
            n=$(measure nginx "$NGINX_PID" "$N_PID" "$G_URL")
            replay_pause
            s=$(measure swiftyd "$S_PID" "$V_PID" "$S_URL")
            SWIFTYD_LOAD_END=$EPOCHSECONDS
        else
            replay_pause
            s=$(measure swiftyd "$S_PID" "$V_PID" "$S_URL")
            SWIFTYD_LOAD_END=$EPOCHSECONDS
            n=$(measure nginx "$NGINX_PID" "$N_PID" "$G_URL")
        fi
        read -r nr nl np nu ne nc <<<"$n"
        read -r sr sl sp su se sc <<<"$s"
        N_RPS+=("$nr") N_P99+=("$nl") N_CPU+=("$np") NU_CPU+=("$nu") N_CS+=("$nc")
        S_RPS+=("$sr") S_P99+=("$sl") S_CPU+=("$sp") VU_CPU+=("$su") S_CS+=("$sc")
        ERRORS=$((ERRORS + ne + se))
        r=$(awk -v s="$sr" -v n="$nr" 'BEGIN { printf "%.3f", s / n }')
        RATIOS+=("$r")
        # How much of PROXY_CORE the round's proxy and upstream used: requests/s times their CPU
        # per request. Both are bound by that one core, so a round well below 1 was short of CPU
        # (another tenant of the machine, or a stall), and its throughput measures the machine.
        nb=$(awk -v r="$nr" -v a="$np" -v b="$nu" 'BEGIN { printf "%.2f", r * (a + b) / 1e6 }')
        sb=$(awk -v r="$sr" -v a="$sp" -v b="$su" 'BEGIN { printf "%.2f", r * (a + b) / 1e6 }')
        BUSY+=("$nb" "$sb")
        printf 'round %d: nginx %s req/s p99 %s ms (per request: nginx %s us CPU, %s context switches; upstream %s us CPU; errors %s; core busy %s) | ' \
            "$round" "$nr" "$nl" "$np" "$nc" "$nu" "$ne" "$nb"
        printf 'swiftyd %s req/s p99 %s ms (per request: swiftyd %s us CPU, %s context switches; upstream %s us CPU; errors %s; core busy %s) | ratio %s\n' \
            "$sr" "$sl" "$sp" "$sc" "$su" "$se" "$sb" "$r"
    done
    NM=$(printf '%s\n' "${N_RPS[@]}" | median)
    SM=$(printf '%s\n' "${S_RPS[@]}" | median)
    RATIO=$(awk -v s="$SM" -v n="$NM" 'BEGIN { printf "%.4f", s / n }')
    RM=$(printf '%s\n' "${RATIOS[@]}" | median)
    if [ "$ERRORS" != 0 ]; then
        echo "errors during the proxy rounds; the verifying upstream's refusals, if any:" >&2
        grep -c 'did not verify' "$WORK/verified.err" >&2 || true
        tail -3 "$WORK/verified.err" >&2 || true
    fi
    # Compared unrounded: a ratio of 0.396 must not pass as "0.40".
    verdict=$(awk -v s="$SM" -v n="$NM" -v e="$ERRORS" 'BEGIN { print (s >= 0.4 * n && e == 0) ? "PASS" : "FAIL" }')
    SUMMARY+=("floor 1 (users via swiftyd >= 0.4x nginx proxy_pass): $verdict: ratio of medians $RATIO (median of per-round ratios $RM), errors $ERRORS")
    LEAST_BUSY=$(printf '%s\n' "${BUSY[@]}" | sort -g | head -1)
    if awk -v b="$LEAST_BUSY" 'BEGIN { exit !(b < 0.9) }'; then
        SUMMARY+=("  UNRELIABLE: in some round core $PROXY_CORE was busy only $LEAST_BUSY of the time (requests/s x CPU per request of the proxy and its upstream): the machine, not the code, set that round's throughput; rerun, and compare the CPU per request below")
    fi
    NC=$(printf '%s\n' "${N_CPU[@]}" | median) NUC=$(printf '%s\n' "${NU_CPU[@]}" | median)
    SC=$(printf '%s\n' "${S_CPU[@]}" | median) VUC=$(printf '%s\n' "${VU_CPU[@]}" | median)
    SUMMARY+=("  nginx:   median $NM req/s, p99 $(printf '%s\n' "${N_P99[@]}" | median) ms; per request $NC us CPU, $(printf '%s\n' "${N_CS[@]}" | median) context switches; upstream (not verifying) $NUC us CPU")
    SUMMARY+=("  swiftyd ($TRANSPORT transport): median $SM req/s, p99 $(printf '%s\n' "${S_P99[@]}" | median) ms; per request $SC us CPU, $(printf '%s\n' "${S_CS[@]}" | median) context switches; upstream (verifying) $VUC us CPU")
    SUMMARY+=("  CPU per request, proxy alone nginx/swiftyd: $(awk -v a="$NC" -v b="$SC" 'BEGIN { printf "%.2f", a / b }'); proxy + upstream: $(awk -v a="$NC" -v b="$NUC" -v c="$SC" -v d="$VUC" 'BEGIN { printf "%.2f", (a + b) / (c + d) }') (the throughput ratio a dedicated core 0 would give)")
    SUMMARY+=("  (wrk -t1 -c$CONNECTIONS -d$DURATION --latency, $ROUNDS interleaved rounds; swiftyd threads $THREADS, nginx 1 worker; both upstreams, swiftyd and nginx on core $PROXY_CORE, wrk on core $WRK_CORE)")
    result ratio "swiftyd ($TRANSPORT) / nginx proxy_pass, req/s" "$RATIO" x 0.4 higher
    result cpu "nginx proxy_pass" "$NC" us - - anchor
    result cpu "its upstream" "$NUC" us - - anchor
    result cpu "swiftyd ($TRANSPORT)" "$SC" us - - ours
    result cpu "its upstream, verifying" "$VUC" us - - ours
    result figure "nginx req/s" "$NM" req/s - - anchor
    result figure "swiftyd req/s" "$SM" req/s - - ours
    result figure "swiftyd p99" "$(printf '%s\n' "${S_P99[@]}" | median)" ms - - ours
    result figure "CPU per request, proxy + upstream, nginx/swiftyd" \
        "$(awk -v a="$NC" -v b="$NUC" -v c="$SC" -v d="$VUC" 'BEGIN { printf "%.2f", (a + b) / (c + d) }')" x
    result figure "core busy, least of the rounds" "$LEAST_BUSY" share 0.9 higher
    result figure "errors" "$ERRORS" count 0 lower
    stop "$S_PID"
    stop "$NGINX_PID"
    stop "$V_PID"
    stop "$N_PID"
fi

# ---------------------------------------------------------------------------------------------
# 2. /v1/home with 50 ms on each upstream (sandbox mode).
if [ "$ONLY" = all ] || [ "$ONLY" = home ]; then
    echo "== 2. GET /v1/home, sandbox mode, ${LATENCY_MS} ms on each upstream" >&2
    D_CONFIG="" start_swiftyd home SWIFTY_SANDBOX_LATENCY_MS="$LATENCY_MS" SWIFTY_DRAIN_SECONDS=2
    H_URL="$D_APP/v1/home"
    body=$(check_200 "$H_URL")
    case "$body" in *'"errors":[]'* | *'"errors" : []'*) ;; *) echo "warning: /v1/home reports errors: $body" >&2 ;; esac
    run_wrk "$WORK/home-warm.wrk" "$HOME_CONNECTIONS" 2s "$H_URL"
    run_wrk "$WORK/home.wrk" "$HOME_CONNECTIONS" "$HOME_DURATION" "$H_URL"
    p50=$(wrk_pct "$WORK/home.wrk" 50) p99=$(wrk_pct "$WORK/home.wrk" 99)
    rps=$(wrk_rps "$WORK/home.wrk") errors=$(wrk_errors "$WORK/home.wrk")
    verdict=$(awk -v p="$p50" -v e="$errors" 'BEGIN { print (p <= 51.5 && e == 0) ? "PASS" : "FAIL" }')
    SUMMARY+=("floor 2 (/v1/home p50 <= 51.5 ms with ${LATENCY_MS} ms per upstream): $verdict: p50 $p50 ms, p75 $(wrk_pct "$WORK/home.wrk" 75) ms, p90 $(wrk_pct "$WORK/home.wrk" 90) ms, p99 $p99 ms, $rps req/s, errors $errors")
    SUMMARY+=("  (wrk -t1 -c$HOME_CONNECTIONS -d$HOME_DURATION --latency; swiftyd sandbox mode on core $PROXY_CORE, wrk on core $WRK_CORE)")
    result figure "/v1/home p50, ${LATENCY_MS} ms per upstream" "$p50" ms 51.5 lower ours
    result figure "/v1/home p99, ${LATENCY_MS} ms per upstream" "$p99" ms - - ours
    stop "$D_PID"
fi

# ---------------------------------------------------------------------------------------------
# 3. RSS of swiftyd (live mode) during and after RSS_SECONDS at CONNECTIONS connections.
if [ "$ONLY" = all ] || [ "$ONLY" = rss ]; then
    echo "== 3. RSS of swiftyd over ${RSS_SECONDS} s of GET /v1/home at $CONNECTIONS connections" >&2
    # The upstreams do not verify here: a verifying upstream remembers every nonce for 91 s, at
    # most 100 000, and refuses requests (503) beyond that, which a 60 s soak above about
    # 1 600 req/s would reach. swiftyd signs every request all the same.
    start_sandbox rss-upstreams --keys "$WORK/keys" --no-verify
    R_UP=$SB_PID
    write_live_config "$WORK/rss.json" "$SB_USER" "$SB_FEED" "$SB_PAYMENT"
    D_CONFIG="$WORK/rss.json" start_swiftyd rss-swiftyd
    R_PID=$D_PID
    check_200 "$D_APP/v1/home" >/dev/null
    before=$(rss_kib "$R_PID")
    SAMPLES=("0s:$before")
    timeout --foreground $((RSS_SECONDS + 30)) taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"${RSS_SECONDS}s" --latency \
        -H "Authorization: Bearer $TOKEN" "$D_APP/v1/home" >"$WORK/rss.wrk" &
    W_PID=$!
    PIDS+=("$W_PID")
    peak=$before
    for t in $(seq 10 10 "$RSS_SECONDS"); do
        sleep 10
        kill -0 "$R_PID" 2>/dev/null || { echo "swiftyd died during the soak" >&2; exit 1; }
        v=$(rss_kib "$R_PID")
        SAMPLES+=("${t}s:$v")
        [ "$v" -gt "$peak" ] && peak=$v
    done
    wait "$W_PID" || true
    forget "$W_PID"
    after=$(rss_kib "$R_PID")
    sleep 5
    idle=$(rss_kib "$R_PID")
    hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$R_PID/status")
    [ "$after" -gt "$peak" ] && peak=$after
    errors=$(wrk_errors "$WORK/rss.wrk")
    verdict=$(awk -v p="$peak" -v h="$hwm" -v e="$errors" 'BEGIN { print (p <= 40 * 1024 && h <= 40 * 1024 && e == 0) ? "PASS" : "FAIL" }')
    SUMMARY+=("floor 3a (RSS <= 40 MiB after ${RSS_SECONDS} s at $CONNECTIONS connections): $verdict: VmRSS KiB before $before, during ${SAMPLES[*]:1}, at the end $after, 5 s later $idle; VmHWM $hwm KiB; $(wrk_rps "$WORK/rss.wrk") req/s, $(wrk_requests "$WORK/rss.wrk") requests, errors $errors")
    result figure "RSS, highest over ${RSS_SECONDS} s" "$(( hwm > peak ? hwm : peak ))" KiB $((40 * 1024)) lower ours
    stop "$R_PID"
    stop "$R_UP"
fi

# ---------------------------------------------------------------------------------------------
# 4. Start to ready: exec to /readyz answering 200, sandbox mode, fixed free ports.
if [ "$ONLY" = all ] || [ "$ONLY" = start ]; then
    echo "== 4. start to ready, $STARTS starts of swiftyd in sandbox mode" >&2
    # /readyz polled over bash's /dev/tcp about every half millisecond, waiting with a timed
    # read on a pipe nobody writes: no process per poll (an external `sleep` costs about 2 ms
    # of fork and exec per poll, which the figure would include, and CPU the starting daemon
    # would share).
    exec {NAP}<> <(:)
    readyz_ok() {
        local line
        { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
        printf 'GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3 2>/dev/null || { exec 3<&-; return 1; }
        IFS= read -r -t 1 line <&3 || line=""
        exec 3<&-
        [[ $line == "HTTP/1.1 200"* ]]
    }
    TIMES=()
    for i in $(seq 1 "$STARTS"); do
        app=$(free_port 21000)
        admin=$(free_port $((app + 1)))
        t0=$EPOCHREALTIME
        SWIFTY_DRAIN_SECONDS=1 "$SWIFTYD" --port "$app" --admin-port "$admin" >"$WORK/start.out" 2>"$WORK/start.err" &
        P=$!
        PIDS+=("$P")
        ready=""
        for _ in $(seq 1 20000); do
            if readyz_ok "$admin"; then ready=$EPOCHREALTIME; break; fi
            kill -0 "$P" 2>/dev/null || break
            read -r -t 0.0005 -u "$NAP" _ || true
        done
        [ -n "$ready" ] || { echo "start $i: not ready: $(cat "$WORK/start.err")" >&2; exit 1; }
        TIMES+=("$(awk -v a="$t0" -v b="$ready" 'BEGIN { printf "%.1f", (b - a) * 1000 }')")
        stop "$P"
    done
    med=$(printf '%s\n' "${TIMES[@]}" | median)
    min=$(printf '%s\n' "${TIMES[@]}" | sort -g | head -1)
    max=$(printf '%s\n' "${TIMES[@]}" | sort -g | tail -1)
    verdict=$(awk -v m="$med" 'BEGIN { print (m <= 15) ? "PASS" : "FAIL" }')
    SUMMARY+=("floor 3b (start to ready <= 15 ms): $verdict: median $med ms of $STARTS starts (min $min, max $max); all: ${TIMES[*]}")
    result figure "start to ready, median" "$med" ms 15 lower ours
fi

# ---------------------------------------------------------------------------------------------
# 5. static: swiftyd in live mode (defaults but the modules' base URLs and key files) against
#    nginx proxy_pass, both in front of one static nginx upstream (canned JSON, no signature
#    check), so the figure is the proxy's own cost.
if [ "$ONLY" = all ] || [ "$ONLY" = static ]; then
    echo "== 5. GET /v1/users/bob: swiftyd (live mode, defaults) vs nginx proxy_pass, one static nginx upstream" >&2
    start_static_arrangement "$WORK/keys"
    WRK_ARGS=(-H "Authorization: Bearer $TOKEN")
    run_wrk "$WORK/warm-g" "$CONNECTIONS" 2s "$G_URL"
    run_wrk "$WORK/warm-s" "$CONNECTIONS" 2s "$S_URL"
    interleave nginx "$G_PID" "$UP_PID" "$G_URL" swiftyd "$S_PID" "$UP_PID" "$S_URL"
    NR=$(median_of 1 "${ROUNDS_A[@]}") SR=$(median_of 1 "${ROUNDS_B[@]}")
    NL=$(median_of 2 "${ROUNDS_A[@]}") SL=$(median_of 2 "${ROUNDS_B[@]}")
    NC=$(median_of 3 "${ROUNDS_A[@]}") SC=$(median_of 3 "${ROUNDS_B[@]}")
    NU=$(median_of 4 "${ROUNDS_A[@]}") SU=$(median_of 4 "${ROUNDS_B[@]}")
    ERRORS=$(printf '%s\n' "${ROUNDS_A[@]}" "${ROUNDS_B[@]}" | awk '{ n += $5 + $6 } END { print n + 0 }')
    RATIO=$(awk -v s="$SR" -v n="$NR" 'BEGIN { printf "%.4f", s / n }')
    P99_RATIO=$(awk -v s="$SL" -v n="$NL" 'BEGIN { printf "%.2f", s / n }')
    verdict=$(awk -v s="$SR" -v n="$NR" -v a="$SL" -v b="$NL" -v e="$ERRORS" \
        'BEGIN { print (s >= 0.6 * n && a <= 1.8 * b && e == 0) ? "PASS" : "FAIL" }')
    SUMMARY+=("floor 5 (live mode, static upstream: swiftyd >= 0.6x nginx proxy_pass, p99 <= 1.8x): $verdict: ratio of medians $RATIO, p99 ratio $P99_RATIO, errors $ERRORS")
    SUMMARY+=("  nginx proxy_pass: median $NR req/s, p99 $NL ms; per request $NC us CPU (static upstream $NU us)")
    SUMMARY+=("  swiftyd:          median $SR req/s, p99 $SL ms; per request $SC us CPU (static upstream $SU us)")
    SUMMARY+=("  CPU per request nginx/swiftyd: $(awk -v a="$NC" -v b="$SC" 'BEGIN { printf "%.2f", a / b }')  (wrk -t1 -c$CONNECTIONS -d$DURATION, $ROUNDS interleaved rounds; all servers on core $PROXY_CORE, wrk on core $WRK_CORE)")
    LEAST_BUSY=$(least_busy)
    if awk -v b="$LEAST_BUSY" 'BEGIN { exit !(b < 0.9) }'; then
        SUMMARY+=("  UNRELIABLE: in some round core $PROXY_CORE was busy only $LEAST_BUSY of the time: the machine, not the code, set that round's throughput; rerun, and compare the CPU per request")
    fi
    result figure "static: core busy, least of the rounds" "$LEAST_BUSY" share 0.9 higher
    result ratio "swiftyd live / nginx proxy_pass, static upstream, req/s" "$RATIO" x 0.6 higher
    result ratio "swiftyd live / nginx proxy_pass, static upstream, p99" "$P99_RATIO" x 1.8 lower
    result cpu "nginx proxy_pass, static upstream" "$NC" us - - anchor
    result cpu "swiftyd live, static upstream" "$SC" us - - ours
    result figure "static: nginx req/s" "$NR" req/s - - anchor
    result figure "static: swiftyd req/s" "$SR" req/s - - ours
    result figure "static: errors" "$ERRORS" count 0 lower
    stop "$S_PID"
    stop "$G_PID"
    stop "$UP_PID"
fi

# ---------------------------------------------------------------------------------------------
# 6. refusal: the daemon's 401 to an app request without a token (sandbox mode, access log on)
#    against nginx returning the same status, headers and body (its access log on too).
if [ "$ONLY" = all ] || [ "$ONLY" = refusal ]; then
    echo "== 6. GET /v1/users/bob without a token: swiftyd's 401 vs nginx returning the same bytes" >&2
    D_CONFIG="" start_swiftyd refusal-swiftyd
    S_PID=$D_PID S_URL="$D_APP/v1/users/bob"
    curl -sS -D "$WORK/401.head" -o "$WORK/401.body" --max-time 5 "$S_URL"
    head -1 "$WORK/401.head" | grep -q ' 401' || { echo "swiftyd answered $(head -1 "$WORK/401.head")" >&2; exit 1; }
    BODY=$(cat "$WORK/401.body")
    case "$BODY" in *"'"* | *'$'* | *'\'*) echo "the 401 body cannot be quoted for nginx: $BODY" >&2; exit 1 ;; esac
    TYPE=$(awk -F': ' 'tolower($1) == "content-type" { sub(/\r$/, "", $2); print $2 }' "$WORK/401.head")
    # Every other field of the answer, but those nginx writes itself.
    EXTRA=$(awk -F': ' 'NR > 1 && NF >= 2 {
            n = tolower($1); sub(/\r$/, "", $0); v = substr($0, length($1) + 3)
            if (n !~ /^(date|content-length|content-type|connection|server)$/) printf "        add_header %s '"'"'%s'"'"' always;\n", $1, v
        }' "$WORK/401.head")
    R_PORT=$(free_port 18660)
    nginx_conf "$WORK/refusal" <<CONF
    access_log $WORK/refusal/logs/access.log;
    server_tokens off;
    server {
        listen 127.0.0.1:$R_PORT;
        location / {
            default_type $TYPE;
$EXTRA
            return 401 '$BODY';
        }
    }
CONF
    R_URL="http://127.0.0.1:$R_PORT/v1/users/bob"
    start_nginx "$WORK/refusal" "$R_URL"
    G_PID=$NGINX_PID
    echo "swiftyd answers: $(tr -d '\r' <"$WORK/401.head" | tr '\n' ' ') $BODY" >&2
    echo "nginx answers:   $(curl -sS -D - --max-time 5 "$R_URL" | tr -d '\r' | tr '\n' ' ')" >&2
    WRK_ARGS=()
    timeout 40 taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d2s "$R_URL" >/dev/null
    timeout 40 taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d2s "$S_URL" >/dev/null
    interleave nginx "$G_PID" "" "$R_URL" swiftyd "$S_PID" "" "$S_URL"
    NR=$(median_of 1 "${ROUNDS_A[@]}") SR=$(median_of 1 "${ROUNDS_B[@]}")
    NC=$(median_of 3 "${ROUNDS_A[@]}") SC=$(median_of 3 "${ROUNDS_B[@]}")
    # Every answer must be the 401: wrk counts it among its non-2xx answers.
    ERRORS=$(printf '%s\n' "${ROUNDS_A[@]}" "${ROUNDS_B[@]}" | awk '{ n += $5 + ($7 - $6) } END { print n + 0 }')
    RATIO=$(awk -v s="$SR" -v n="$NR" 'BEGIN { printf "%.4f", s / n }')
    verdict=$(awk -v s="$SR" -v n="$NR" -v e="$ERRORS" 'BEGIN { print (s >= 0.6 * n && e == 0) ? "PASS" : "FAIL" }')
    SUMMARY+=("floor 6 (401 without a token: swiftyd >= 0.6x nginx returning the same bytes): $verdict: ratio of medians $RATIO, errors $ERRORS")
    SUMMARY+=("  nginx:   median $NR req/s, p99 $(median_of 2 "${ROUNDS_A[@]}") ms, $NC us CPU per request")
    SUMMARY+=("  swiftyd: median $SR req/s, p99 $(median_of 2 "${ROUNDS_B[@]}") ms, $SC us CPU per request  (CPU ratio nginx/swiftyd $(awk -v a="$NC" -v b="$SC" 'BEGIN { printf "%.2f", a / b }'))")
    LEAST_BUSY=$(least_busy)
    if awk -v b="$LEAST_BUSY" 'BEGIN { exit !(b < 0.9) }'; then
        SUMMARY+=("  UNRELIABLE: in some round core $PROXY_CORE was busy only $LEAST_BUSY of the time: the machine, not the code, set that round's throughput; rerun, and compare the CPU per request")
    fi
    result figure "401: core busy, least of the rounds" "$LEAST_BUSY" share 0.9 higher
    result ratio "swiftyd 401 / nginx same bytes, req/s" "$RATIO" x 0.6 higher
    result cpu "nginx 401" "$NC" us - - anchor
    result cpu "swiftyd 401, access log on" "$SC" us - - ours
    result figure "401: errors" "$ERRORS" count 0 lower
    stop "$S_PID"
    stop "$G_PID"
fi

echo
echo "== summary"
machine "end"
printf '%s\n' "${SUMMARY[@]}"
results_end
