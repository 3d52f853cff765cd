# Writes a benchmark's figures as one small TSV file that Tools/bench/chart.sh draws from.
# Sourced by each Tools/bench/*/run.sh after it has set ROOT.
#
#   results_begin NAME        starts RESULTS_DIR/NAME.tsv (RESULTS_DIR: .build/bench-results)
#   result KIND FIGURE VALUE UNIT [FLOOR BETTER SIDE]
#   results_end               prints where the file is
#
# Lines starting with # are metadata and the column names; every other line is one figure:
#   kind       ratio: a throughput or cost ratio to the benchmark's anchor, drawn against its floor;
#              cpu: microseconds of CPU per request, drawn beside the anchor's; figure: anything else
#   benchmark  NAME (core, server, transport, signing, daemon-http1, daemon-curl)
#   figure     what the value is, as the charts label it
#   value      the number
#   unit       x, us, ns, req/s, ms, KiB, %, count
#   floor      the value it is held to, or -
#   better     higher or lower: which side of the floor passes, or -
#   side       anchor (nginx, URLSession, raw OpenSSL) or ours, or -
# shellcheck shell=bash
RESULTS_DIR=${RESULTS_DIR:-$ROOT/.build/bench-results}

results_begin() {
    RESULTS_NAME=$1
    mkdir -p "$RESULTS_DIR"
    RESULTS_FILE="$RESULTS_DIR/$RESULTS_NAME.tsv"
    {
        echo "# benchmark: $RESULTS_NAME"
        echo "# date: $(date -u +%Y-%m-%dT%H:%MZ)"
        echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
        printf '# kind\tbenchmark\tfigure\tvalue\tunit\tfloor\tbetter\tside\n'
    } >"$RESULTS_FILE"
}

result() {
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$RESULTS_NAME" "$2" "$3" "$4" "${5:--}" "${6:--}" "${7:--}" \
        >>"$RESULTS_FILE"
}

results_end() {
    echo "results: $RESULTS_FILE (Tools/bench/chart.sh $RESULTS_DIR draws them)" >&2
}
