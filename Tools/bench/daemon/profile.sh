#!/usr/bin/env bash
# The work of one proxied request, swiftyd beside nginx, in the arrangement of run.sh's part 5
# (start_static_arrangement in common.sh): GET /v1/users/bob through swiftyd in live mode (every
# setting at its default but the modules' base URLs and key files), through the same daemon with
# single-flight off (so that every answer costs its own upstream request, as nginx's does), and
# through nginx proxy_pass, all in front of one static nginx upstream answering canned JSON.
# Every server on PROXY_CORE, `wrk -t1 -c64` on WRK_CORE. Release build, loopback only, every
# wait and load bounded.
#
#   Tools/bench/daemon/profile.sh                # the table per request (about 7 minutes)
#   PROFILE=1 Tools/bench/daemon/profile.sh      # and swiftyd's sampled profile by stage
#   SKIP_BUILD=1 SECONDS_PER_PART=2 Tools/bench/daemon/profile.sh   # shorter windows (5 minutes)
#
# Each side is measured alone under the same load, in windows of SECONDS_PER_PART seconds, and
# every figure is divided by the requests that side answered in that same window (swiftyd's
# /metrics; the lines of nginx's access log):
#   1. CPU in user and in kernel mode (/proc/PID/stat), the requests per second, and the upstream
#      requests per answered request (swiftyd's upstream attempts; nginx forwards every request);
#   2. system calls by name (the syscalls:sys_enter_* tracepoints);
#   3. counted with uprobes: swiftyd's Swift tasks created (swift_task_create_common), task
#      switches (swift_task_switch), continuations (swift_continuation_init, _await, and the three
#      resumes), objects (swift_allocObject), and heap allocations and frees in the allocator it
#      links (mimalloc: malloc, calloc, realloc, memalign, aligned_alloc, posix_memalign, operator new;
#      free);
#      nginx's heap allocations and frees in glibc. Uprobes slow the process down; the counts
#      are what is read from this window;
#   4. from a sampled profile (perf record, no call graph): the share of each proxy's CPU in
#      reference counting (swift_retain, swift_release and their kin: a uprobe on each would
#      stop the daemon) and in the allocator, and that share of the CPU per request of part 1;
#   5. counted under QEMU (Tools/bench/instructions, when qemu-user and a C compiler are there):
#      swiftyd's calls to swift_retain and swift_release (with their _n and nonatomic forms) and
#      its user-mode instructions, in a second swiftyd of the same configuration run by
#      qemu-x86_64 with the counting plugin, under the same load;
#   6. with PROFILE=1: swiftyd's DWARF call-graph profile, each sample charged to the innermost
#      frame of the project's own code, so the C libraries' work stays with the call that asked
#      for it, summed by that frame and by the library the sample was in.
# Prints the table and writes it to RESULTS_DIR/profile.tsv (Tools/bench/results.sh).
# Needs root (tracepoints and uprobes), perf (apt-get install linux-perf) and run.sh's tools.
set -euo pipefail

SECONDS_PER_PART=${SECONDS_PER_PART:-6}
PROFILE=${PROFILE:-0}
PROFILE_SECONDS=${PROFILE_SECONDS:-4}
CONNECTIONS=${CONNECTIONS:-64}
TOP=${TOP:-25}

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
[ "$(id -u)" = 0 ] || { echo "profile.sh needs root for tracepoints and uprobes" >&2; exit 77; }
# shellcheck source=common.sh
. "$ROOT/Tools/bench/daemon/common.sh"
# shellcheck source=../results.sh
. "$ROOT/Tools/bench/results.sh"
# shellcheck source=../instructions/count.sh
. "$ROOT/Tools/bench/instructions/count.sh"
require_tools "wrk nginx-light util-linux curl gawk iproute2 linux-perf binutils" wrk nginx taskset curl awk ss perf nm
build_binaries

# The uprobes this script adds (groups swiftyd and nginx) are removed again on any exit.
PROBES_ADDED=0
remove_probes() {
    [ "$PROBES_ADDED" = 0 ] || { perf probe -q -d 'swiftyd:*' -d 'nginx:*' >/dev/null 2>&1 || true; }
    PROBES_ADDED=0
}
trap 'remove_probes; cleanup' EXIT

# The release build links the Swift runtime in (docs/deployment.md#building): its functions are
# then the executable's own.
swift_runtime() {
    local shared
    shared=$(library "$SWIFTYD" "$1")
    if [ -n "$shared" ]; then
        echo "$shared"
    elif nm "$SWIFTYD" | awk -v s="$2" '$3 == s { found = 1 } END { exit !found }'; then
        echo "$SWIFTYD"
    fi
}
# Where perf probe puts a uprobe on SYMBOL of FILE: its name in a shared library; in the
# executable, the file offset of its address (perf looks for debug information for a name there
# and fails without it).
probe_point() {
    local file=$1 symbol=$2 address text
    if [ "$file" != "$SWIFTYD" ]; then echo "$symbol"; return; fi
    address=$(nm "$file" | awk -v s="$symbol" '$3 == s && !found { print $1; found = 1 }')
    # .text's address and file offset: the symbol's offset is its address less their difference.
    text=$(readelf -SW "$file" | awk '{ for (i = 1; i < NF; i++) if ($i == ".text") print $(i + 2), $(i + 3) }')
    [ -n "$address" ] && [ -n "$text" ] || return 0
    # shellcheck disable=SC2086 # two words, split on purpose
    set -- $text
    printf '0x%x\n' $((16#$address - (16#$1 - 16#$2)))
}
CONCURRENCY=$(swift_runtime libswift_Concurrency.so swift_task_switch)
SWIFT_CORE=$(swift_runtime libswiftCore.so swift_retain)
MIMALLOC=$(library "$SWIFTYD" libmimalloc)
LIBC=$(library "$(command -v nginx)" libc.so)
[ -n "$CONCURRENCY" ] && [ -n "$SWIFT_CORE" ] && [ -n "$MIMALLOC" ] && [ -n "$LIBC" ] || {
    echo "swiftyd has no Swift runtime or libmimalloc, or nginx no libc" >&2
    exit 1
}

machine "start"
mkdir -p "$WORK/keys"
start_sandbox keygen --keys "$WORK/keys" --generate-keys
stop "$SB_PID"
start_static_arrangement "$WORK/keys"
# The same daemon with single-flight off: every answer then costs its own upstream request.
D_CONFIG="$WORK/static.json" start_swiftyd unshared-swiftyd SWIFTY_USER_SINGLE_FLIGHT=false
U_PID=$D_PID U_URL="$D_APP/v1/users/bob" U_ADMIN=$D_ADMIN
check_200 "$U_URL" >/dev/null
run_wrk "$WORK/warm-g" "$CONNECTIONS" 2s "$G_URL"
run_wrk "$WORK/warm-s" "$CONNECTIONS" 2s "$S_URL"
run_wrk "$WORK/warm-u" "$CONNECTIONS" 2s "$U_URL"

# The side measured: SIDE (swiftyd, unshared: swiftyd with single-flight off, or nginx), its PID,
# URL and (swiftyd) admin URL.
use_side() {
    SIDE=$1
    case "$SIDE" in
        swiftyd) PID=$S_PID URL=$S_URL ADMIN=$S_ADMIN ;;
        unshared) PID=$U_PID URL=$U_URL ADMIN=$U_ADMIN ;;
        nginx) PID=$G_PID URL=$G_URL ;;
    esac
}

# "answered upstream": the requests the side has answered so far and the upstream requests it
# has made (swiftyd's /metrics; nginx's access log, one line per answer, each forwarded).
answered() {
    if [ "$SIDE" != nginx ]; then
        curl -fsS --max-time 5 "$ADMIN/metrics" | awk '/^swiftyd_http_requests_total/ { n += $NF }
            /^swiftyd_upstream_attempts_total/ { u += $NF } END { printf "%d %d\n", n, u }'
    else
        wc -l <"$G_LOG" | awk '{ print $1, $1 }'
    fi
}

# Runs COMMAND and sets ANSWERED and UPSTREAM to the requests answered and made meanwhile.
answered_during() {
    local n0 u0 n1 u1
    read -r n0 u0 < <(answered)
    "$@"
    read -r n1 u1 < <(answered)
    ANSWERED=$((n1 - n0)) UPSTREAM=$((u1 - u0))
    [ "$ANSWERED" -gt 0 ] || { echo "$SIDE answered no request under load" >&2; exit 1; }
}

# Runs COMMAND under load on the side's URL: wrk in the background for SECONDS_PER_PART + 2 s,
# COMMAND after its first second. Not in a subshell: COMMAND's variables stay set.
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

# Counts EVENTS on the side's process into CSV for exactly the window in which ANSWERED is
# measured: perf starts with its counters off (attaching to hundreds of tracepoints takes a while)
# and is switched on and off through its control FIFO around the two answer counts.
counted_window() {
    local events=$1 csv=$2 perf_pid
    rm -f "$WORK/ctl" "$WORK/ack"
    mkfifo "$WORK/ctl" "$WORK/ack"
    perf stat -x, -D -1 --control "fifo:$WORK/ctl,$WORK/ack" -e "$events" -p "$PID" -o "$csv" \
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

# The table: one "ROW<TAB>SIDE<TAB>VALUE<TAB>UNIT" line per figure, in the order measured.
row() { printf '%s\t%s\t%s\t%s\n' "$1" "$SIDE" "$2" "$3" >>"$WORK/table.tsv"; }
: >"$WORK/table.tsv"
# Each perf stat CSV line "count,,EVENT,..." as "EVENT count_per_request", the group dropped.
per_request() { awk -F, -v n="$ANSWERED" '$1 ~ /^[0-9]+$/ { e = $3; sub(/^[^:]*:/, "", e); printf "%s %.2f\n", e, $1 / n }' "$1"; }

for side in swiftyd unshared nginx; do
    use_side "$side"
    echo "== $SIDE: 1. CPU per request ($(date -u +%T))" >&2
    cpu_window() {
        read -r U0 K0 < <(awk '{ print $14, $15 }' "/proc/$PID/stat")
        sleep "$SECONDS_PER_PART"
        read -r U1 K1 < <(awk '{ print $14, $15 }' "/proc/$PID/stat")
    }
    under_load answered_during cpu_window
    row "requests/s under load" "$((ANSWERED / SECONDS_PER_PART))" "req/s"
    USER_US=$(awk -v n="$ANSWERED" -v t="$TICK_US" -v a=$((U1 - U0)) 'BEGIN { printf "%.2f", a * t / n }')
    KERNEL_US=$(awk -v n="$ANSWERED" -v t="$TICK_US" -v a=$((K1 - K0)) 'BEGIN { printf "%.2f", a * t / n }')
    row "CPU in user mode" "$USER_US" us
    row "CPU in kernel mode" "$KERNEL_US" us
    row "upstream requests" "$(awk -v u="$UPSTREAM" -v n="$ANSWERED" 'BEGIN { printf "%.3f", u / n }')" count

    echo "== $SIDE: 2. system calls per request" >&2
    counted_window 'syscalls:sys_enter_*' "$WORK/syscalls-$SIDE.csv"
    per_request "$WORK/syscalls-$SIDE.csv" | awk '{ s += $2 } END { printf "%.2f\n", s }' >"$WORK/total"
    row "system calls" "$(cat "$WORK/total")" count
    per_request "$WORK/syscalls-$SIDE.csv" | sed 's/^sys_enter_//' | sort -k2 -g -r | awk '$2 >= 0.01' |
        while read -r name count; do row "  $name" "$count" count; done

    echo "== $SIDE: 3. counted with uprobes" >&2
    remove_probes
    PROBES_ADDED=1
    if [ "$SIDE" != nginx ]; then
        GROUP=swiftyd
        for probe in task_create=swift_task_create_common task_switch=swift_task_switch \
            continuation_init=swift_continuation_init continuation_await=swift_continuation_await \
            continuation_resume=swift_continuation_resume continuation_throwing_resume=swift_continuation_throwingResume \
            continuation_throwing_error=swift_continuation_throwingResumeWithError; do
            perf probe -q -x "$CONCURRENCY" -a "swiftyd:${probe%%=*}=$(probe_point "$CONCURRENCY" "${probe#*=}")" \
                >/dev/null 2>&1 || { echo "could not add uprobe $probe" >&2; exit 1; }
        done
        perf probe -q -x "$SWIFT_CORE" -a "swiftyd:alloc_object=$(probe_point "$SWIFT_CORE" swift_allocObject)" \
            >/dev/null 2>&1 || { echo "could not add uprobe swift_allocObject" >&2; exit 1; }
        # mimalloc's entry points under the C names it replaces; operator new is mi_new (perf
        # probe cannot name the mangled _Znwm).
        for probe in malloc=malloc calloc=calloc realloc=realloc memalign=memalign aligned_alloc=aligned_alloc \
            posix_memalign=posix_memalign operator_new=mi_new free=free; do
            perf probe -q -x "$MIMALLOC" -a "swiftyd:$probe" >/dev/null 2>&1 || { echo "could not add uprobe $probe" >&2; exit 1; }
        done
    else
        GROUP=nginx
        for probe in malloc calloc realloc posix_memalign free; do
            perf probe -q -x "$LIBC" -a "nginx:$probe=$probe" >/dev/null 2>&1 || { echo "could not add uprobe $probe" >&2; exit 1; }
        done
    fi
    counted_window "$GROUP:*" "$WORK/probes-$SIDE.csv"
    remove_probes
    per_request "$WORK/probes-$SIDE.csv" >"$WORK/probes-$SIDE.txt"
    count() { awk -v want="$1" 'BEGIN { split(want, w, " "); for (i in w) k[w[i]] = 1 } ($1 in k) { s += $2 } END { printf "%.2f", s }' "$WORK/probes-$SIDE.txt"; }
    if [ "$SIDE" != nginx ]; then
        row "Swift tasks created" "$(count task_create)" count
        row "Swift task switches" "$(count task_switch)" count
        row "continuations (init)" "$(count continuation_init)" count
        row "continuation awaits" "$(count continuation_await)" count
        row "continuation resumes" "$(count "continuation_resume continuation_throwing_resume continuation_throwing_error")" count
        row "Swift objects allocated (swift_allocObject)" "$(count alloc_object)" count
    fi
    row "heap allocations (malloc, calloc, realloc, aligned, new)" "$(count "malloc calloc realloc memalign aligned_alloc posix_memalign operator_new")" count
    row "heap frees" "$(count free)" count
    row "upstream requests in the uprobes' window" "$(awk -v u="$UPSTREAM" -v n="$ANSWERED" 'BEGIN { printf "%.3f", u / n }')" count

    echo "== $SIDE: 4. reference counting and allocator share (perf record)" >&2
    record_window() {
        perf record -q -F 1999 -p "$PID" -o "$WORK/share.data" -- sleep "$SECONDS_PER_PART" >/dev/null 2>&1
    }
    under_load record_window
    perf script -i "$WORK/share.data" -F ip,sym,dso 2>/dev/null | awk -v user="$USER_US" -v kernel="$KERNEL_US" '
        {
            dso = $NF; sym = $0; sub(/[ \t]*\([^(]*\)$/, "", sym); sub(/^[ \t]*[0-9a-f]+ /, "", sym)
            total++
            if (sym ~ /^swift_(nonatomic_)?(bridgeObject|unknownObject|unowned|weak)?([Rr]etain|[Rr]elease)(_n)?$/) rc++
            else if (dso ~ /mimalloc/ || sym ~ /^swift_(allocObject|deallocObject|slowAlloc|slowDealloc|deallocClassInstance)$/ ||
                (dso ~ /libc[.-]/ && sym ~ /^(__libc_)?(malloc|free|calloc|realloc|cfree|posix_memalign)$|^_int_(malloc|free|realloc|memalign)|^_mid_memalign$|^malloc_consolidate$|^unlink_chunk|^tcache_/)) heap++
        }
        END {
            cpu = user + kernel
            printf "%.1f %.2f %.1f %.2f\n", 100 * rc / total, cpu * rc / total, 100 * heap / total, cpu * heap / total
        }' >"$WORK/share"
    read -r RC_PCT RC_US HEAP_PCT HEAP_US <"$WORK/share"
    if [ "$SIDE" != nginx ]; then
        row "retain and release, share of CPU" "$RC_PCT" %
        row "retain and release, CPU" "$RC_US" us
    fi
    row "allocator, share of CPU" "$HEAP_PCT" %
    row "allocator, CPU" "$HEAP_US" us
done

# A second daemon of each swiftyd side's configuration, run by qemu-x86_64 with the counting
# plugin, under the same load; its plugin rewrites the counts every 20 ms, read around the window.
if instruction_counter_ready; then
    {
        # Every form the runtime has; a static link keeps only those something calls, and
        # swift_retain and swift_release always.
        for symbol in swift_retain swift_retain_n swift_nonatomic_retain swift_nonatomic_retain_n; do
            call_spec retain "$SWIFT_CORE" "$symbol" 2>/dev/null || [ "$symbol" != swift_retain ]
        done
        for symbol in swift_release swift_release_n swift_nonatomic_release swift_nonatomic_release_n; do
            call_spec release "$SWIFT_CORE" "$symbol" 2>/dev/null || [ "$symbol" != swift_release ]
        done
    } >"$WORK/calls.spec"
    call_counter "$WORK/calls.spec" "$WORK/calls.out"
    for side in swiftyd unshared; do
        SIDE=$side
        echo "== $SIDE: 5. retains, releases and instructions, counted under QEMU ($(date -u +%T))" >&2
        settings=()
        if [ "$SIDE" = unshared ]; then settings=(SWIFTY_USER_SINGLE_FLIGHT=false); fi
        rm -f "$WORK/calls.out"
        env "${settings[@]+"${settings[@]}"}" taskset -c "$PROXY_CORE" "${CALL_RUNNER[@]}" "$SWIFTYD" --port 0 --admin-port 0 \
            --config "$WORK/static.json" >"$WORK/counted-$SIDE.out" 2>"$WORK/counted-$SIDE.err" &
        PID=$!
        PIDS+=("$PID")
        # Under QEMU the start takes longer: wait up to a minute.
        for _ in $(seq 1 600); do grep -q "^  app API:" "$WORK/counted-$SIDE.out" 2>/dev/null && break; sleep 0.1; done
        URL="$(field_from "$WORK/counted-$SIDE.out" "  app API:" 3)/v1/users/bob"
        ADMIN=$(field_from "$WORK/counted-$SIDE.out" "  admin:" 2)
        ADMIN=${ADMIN%/livez}
        check_200 "$URL" >/dev/null
        run_wrk "$WORK/warm-q" "$CONNECTIONS" 2s "$URL"
        # cat, not cp: the plugin replaces its snapshot by a rename, which cp reports as an error.
        calls_window() {
            cat "$WORK/calls.out" >"$WORK/calls.0"
            sleep "$SECONDS_PER_PART"
            cat "$WORK/calls.out" >"$WORK/calls.1"
        }
        under_load answered_during calls_window
        stop "$PID"
        # Each NAME's calls in the window per request.
        calls() { awk -v want="$1" -v n="$ANSWERED" '$1 != want { next } FNR == NR { a += $2; next } { b += $2 } END { printf "%.1f", (b - a) / n }' "$WORK/calls.0" "$WORK/calls.1"; }
        row "retains (swift_retain, _n; counted under QEMU)" "$(calls retain)" count
        row "releases (swift_release, _n; counted under QEMU)" "$(calls release)" count
        row "instructions in user mode (counted under QEMU)" "$(calls instructions | cut -d. -f1)" count
        row "upstream requests in QEMU's window" "$(awk -v u="$UPSTREAM" -v n="$ANSWERED" 'BEGIN { printf "%.3f", u / n }')" count
    done
else
    echo "no counts under QEMU: retains and releases are read from the sampled profile only" >&2
fi

use_side swiftyd
if [ "$PROFILE" = 1 ]; then
    echo "== swiftyd: 6. sampled profile by stage (perf record, DWARF call graphs)" >&2
    record_window() {
        perf record -q -F 999 --call-graph dwarf,32768 -p "$PID" -o "$WORK/perf.data" -- sleep "$PROFILE_SECONDS" \
            >/dev/null 2>&1
    }
    SECONDS_PER_PART=$PROFILE_SECONDS under_load record_window
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
echo "== per request: GET /v1/users/bob through swiftyd (live mode, defaults; and with single-flight off) and nginx proxy_pass, one static nginx upstream"
machine "end"
# Rows in the order first measured; a side without a figure shows "-".
awk -F'\t' '
    function show(r,    j, v) {
        for (j = 1; j <= 3; j++) v[j] = ((r, side[j]) in value) ? value[r, side[j]] : "-"
        printf "%-56s %10s %14s %10s  %s\n", r, v[1], v[2], v[3], unit[r]
    }
    # The system calls by name (indented rows) stay together under their total.
    !($1 in seen) { seen[$1] = 1; if ($1 ~ /^  /) calls[++m] = $1; else order[++n] = $1 }
    { value[$1, $2] = $3; unit[$1] = $4 }
    END {
        split("swiftyd unshared nginx", side, " ")
        printf "%-56s %10s %14s %10s  %s\n", "per request", "swiftyd", "swiftyd sf-off", "nginx", "unit"
        for (i = 1; i <= n; i++) {
            show(order[i])
            if (order[i] == "system calls") for (k = 1; k <= m; k++) show(calls[k])
        }
    }' "$WORK/table.tsv"
echo "(swiftyd sf-off: the same daemon with single-flight off; wrk -t1 -c$CONNECTIONS, ${SECONDS_PER_PART} s per window; swiftyd threads $THREADS, nginx 1 worker, the static upstream: all on core $PROXY_CORE, wrk on core $WRK_CORE)"
if [ "$PROFILE" = 1 ]; then
    echo "swiftyd's samples charged to the innermost frame of the project's code (% of its samples):"
    swift demangle --simplified --compact <"$WORK/stages.txt" | cut -c1-150 | sed 's/^/  /'
    echo "where the C libraries' time under the loop's three entry points went (% of all samples):"
    swift demangle --simplified --compact <"$WORK/libraries.txt" | cut -c1-150
fi

results_begin profile
while IFS=$'\t' read -r name side value unit; do
    case "$name" in "  "*) name="system call ${name#  }" ;; esac
    case "$side" in
        nginx) result figure "per request, nginx: $name" "$value" "$unit" - - anchor ;;
        unshared) result figure "per request, swiftyd with single-flight off: $name" "$value" "$unit" - - ours ;;
        *) result figure "per request, swiftyd: $name" "$value" "$unit" - - ours ;;
    esac
done <"$WORK/table.tsv"
results_end
