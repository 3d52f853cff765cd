#!/usr/bin/env bash
# Draws the benchmarks' charts (SVG, gnuplot) from the result files the run.sh scripts write
# (Tools/bench/results.sh), and prints every figure held to a floor with its verdict.
#
#   Tools/bench/chart.sh                              # .build/bench-results, charts beside them
#   Tools/bench/chart.sh RESULTS_DIR [OUT_DIR]
#   Tools/bench/chart.sh docs/benchmarks docs/images  # the charts of docs/benchmarks.md
#
# bench-ratios.svg: each ratio to an anchor (nginx, URLSession, raw OpenSSL) against its floor,
# on a log scale; bench-cpu.svg: microseconds of CPU per request, ours beside the anchor's.
# Installs Debian's gnuplot-nox when gnuplot is missing (as root, or through sudo).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RESULTS=${1:-$ROOT/.build/bench-results}
OUT=${2:-$RESULTS}
[ -d "$RESULTS" ] || { echo "no results directory $RESULTS (run a Tools/bench/*/run.sh first)" >&2; exit 66; }
mkdir -p "$OUT"

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "chart.sh: installing gnuplot-nox" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends gnuplot-nox
fi

# The result files in the order of the page: core, server, transport, signing, daemon, others.
files=()
for name in core server transport signing daemon-http1 daemon-curl; do
    [ -f "$RESULTS/$name.tsv" ] && files+=("$RESULTS/$name.tsv")
done
for file in "$RESULTS"/*.tsv; do
    [ -e "$file" ] || continue
    case " ${files[*]} " in *" $file "*) ;; *) files+=("$file") ;; esac
done
[ ${#files[@]} -gt 0 ] || { echo "no result files (*.tsv) in $RESULTS" >&2; exit 66; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Rows of one kind as "y<TAB>label<TAB>value<TAB>floor<TAB>colour<TAB>text<TAB>text's x", top to
# bottom, with a gap between benchmarks (gnuplot skips a point whose column is NaN). Colours: met green, missed red (ratios); anchor grey, ours blue (cpu).
rows() {
    awk -F'\t' -v OFS='\t' -v want="$1" '
        /^#/ || $1 != want { next }
        {
            n++; bench[n] = $2; label[n] = $2 ": " $3; value[n] = $4; floor[n] = $6; better[n] = $7; side[n] = $8
        }
        END {
            y = 0
            for (i = n; i >= 1; i--) {
                if (i < n && bench[i] != bench[i + 1]) y += 0.5
                y += 1
                f = (floor[i] == "-") ? "NaN" : floor[i]
                if (want == "ratio") {
                    met = (better[i] == "higher") ? (value[i] + 0 >= floor[i] + 0) : (value[i] + 0 <= floor[i] + 0)
                    colour = met ? 3046706 : 12986408
                    text = sprintf("%s×  (floor %s %s×)", value[i], better[i] == "higher" ? "≥" : "≤", floor[i])
                } else {
                    colour = (side[i] == "anchor") ? 10395294 : 1402304
                    text = value[i] " µs" (f == "NaN" ? "" : "  (floor ≤ " floor[i] " µs)")
                }
                x = (f != "NaN" && f + 0 > value[i] + 0) ? f : value[i]
                print y, label[i], value[i], f, colour, text, x
            }
        }' "${files[@]}"
}

rows ratio >"$WORK/ratios.tsv"
rows cpu >"$WORK/cpu.tsv"

# plot_chart DATA SVG TITLE XLABEL SCALE: horizontal bars, floor marks, values beside the bars.
plot_chart() {
    local data=$1 svg=$2 title=$3 xlabel=$4 scale=$5 count top range base
    count=$(wc -l <"$data")
    [ "$count" -gt 0 ] || { echo "no rows for $svg, skipped" >&2; return 0; }
    top=$(awk -F'\t' 'END { print $1 + 0.8 }' "$data")
    if [ "$scale" = log ]; then
        range=$(awk -F'\t' '{ for (c = 3; c <= 4; c++) if ($c != "NaN") { v = $c + 0; if (lo == "" || v < lo) lo = v; if (v > hi) hi = v } }
            END { printf "[%g:%g]", 10 ^ int(log(lo / 2) / log(10) - (lo < 2 ? 1 : 0)), hi * 15 }' "$data")
        base=$(echo "$range" | sed 's/^\[\([^:]*\):.*/\1/')
        scale_cmd="set logscale x; set xtics format '%g×'"
    else
        range=$(awk -F'\t' '{ v = $3 + 0; if ($4 != "NaN" && $4 + 0 > v) v = $4 + 0; if (v > hi) hi = v } END { printf "[0:%g]", hi * 1.6 }' "$data")
        base=0
        scale_cmd="unset logscale x; set xtics format '%g'"
    fi
    gnuplot <<GNUPLOT
set terminal svg size 1000,$((110 + 30 * count)) dynamic noenhanced font 'Helvetica,13' background '#ffffff'
set output '$svg'
set datafile separator '\t'
set title "$title"
set xlabel '$xlabel'
$scale_cmd
set xrange $range
set yrange [0.3:$top]
set ytics scale 0
set grid xtics lc rgb '#dddddd'
set border 3
set tics nomirror
unset key
set style fill solid 0.9 noborder
plot '$data' using ($base):1:($base):3:(\$1 - 0.35):(\$1 + 0.35):5:ytic(2) with boxxyerror lc rgb variable notitle, \
     '' using 4:(\$1 - 0.45):(0):(0.9) with vectors nohead lw 3 lc rgb '#212121' notitle, \
     '' using 7:1:(sprintf('  %s', strcol(6))) with labels left notitle
GNUPLOT
    echo "wrote $svg" >&2
}

plot_chart "$WORK/ratios.tsv" "$OUT/bench-ratios.svg" "Ratio to the anchor\ngreen: meets its floor, red: misses it; black mark: the floor" \
    "ratio (log scale)" log
plot_chart "$WORK/cpu.tsv" "$OUT/bench-cpu.svg" "CPU per request\ngrey: the anchor; blue: Swifty; black mark: a floor" \
    "µs of CPU per request" linear

# Every figure held to a floor, with its verdict.
awk -F'\t' '/^#/ || $6 == "-" { next } {
    met = ($7 == "higher") ? ($4 + 0 >= $6 + 0) : ($4 + 0 <= $6 + 0)
    printf "%-13s %-52s %10s %-5s floor %s %-8s %s\n", $2, $3, $4, $5, ($7 == "higher") ? ">=" : "<=", $6, met ? "met" : "MISSED"
}' "${files[@]}"
