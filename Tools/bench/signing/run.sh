#!/usr/bin/env bash
# Signing benchmark: signing and verifying typical requests against raw OpenSSL (floors: signing
# at most 2x, verifying at most 2.5x).
#
#   Tools/bench/signing/run.sh [--iterations N] [--rounds N] [--skip-build] [--no-sha-extensions]
#
# Runs `swifty-bench signing` from a release build. In one process it measures the floor (raw
# HMAC-SHA-256 of the signature base through one reused keyed EVP_MAC context, plus EVP_Digest
# SHA-256 of the body for a POST), then signing (HTTPRequest in, signed HTTPRequest out) and
# verifying (with the replay guard in a steady state), interleaved in slices of 500 operations,
# timed by thread CPU time; prints the median ns/op of N rounds and the ratio to the floor
# (limits: 2x for signing, 2.5x for verifying). Writes the figures to RESULTS_DIR/signing.tsv
# (Tools/bench/results.sh).
#
# --no-sha-extensions masks the processor's SHA instructions from OpenSSL (OPENSSL_ia32cap), so
# SHA-256 runs as on a processor without them (Intel Xeons before Ice Lake): the HMAC floor is
# then two to three times as slow and the ratios fall. The figures go to
# RESULTS_DIR/signing-no-sha.tsv.
set -euo pipefail

ITERATIONS=100000
ROUNDS=9
BUILD=1
RESULTS_NAME=signing
VARIANT=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --iterations) ITERATIONS="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --skip-build) BUILD=0; shift ;;
        --no-sha-extensions) export OPENSSL_ia32cap=":~0x20000000"; RESULTS_NAME=signing-no-sha
            VARIANT=", no SHA instructions"; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 64 ;;
    esac
done

ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$ROOT"
# shellcheck source=../results.sh
. "$ROOT/Tools/bench/results.sh"
if [[ "$BUILD" == 1 ]]; then
    swift build -c release --static-swift-stdlib --product swifty-bench >&2
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "openssl: $(openssl version)${OPENSSL_ia32cap:+, SHA instructions masked (OPENSSL_ia32cap=$OPENSSL_ia32cap)}"
echo "command: .build/release/swifty-bench signing $ITERATIONS $ROUNDS"
OUTPUT=$(mktemp)
trap 'rm -f "$OUTPUT"' EXIT
"$ROOT/.build/release/swifty-bench" signing "$ITERATIONS" "$ROUNDS" | tee "$OUTPUT"

# Each request's block starts with an unindented "NAME: METHOD URL" line; its floor, sign and
# verify lines give "N ns/op" and, for sign and verify, "= Rx floor".
results_begin "$RESULTS_NAME"
awk -v OFS='\t' -v variant="$VARIANT" '
    /^[^ ].*: (GET|POST|PUT|PATCH|DELETE) / { method = $0; sub(/.*: /, "", method); sub(/ .*/, "", method) }
    /^  (floor|sign \(HTTPRequest|verify)/ {
        what = $1; ns = $0; sub(/ ns\/op.*/, "", ns); sub(/.* /, "", ns)
        print "figure", "signing", what " " method variant, ns, "ns", "-", "-", (what == "floor" ? "anchor" : "ours")
        if (match($0, /= [0-9.]+x floor/)) {
            ratio = substr($0, RSTART + 2, RLENGTH - 9)
            print "ratio", "signing", what " " method " / raw OpenSSL" variant, ratio, "x", (what == "sign" ? 2 : 2.5), "lower", "-"
        }
    }' "$OUTPUT" >>"$RESULTS_FILE"
grep -q '^ratio' "$RESULTS_FILE" || echo "warning: no sign or verify figures found in the output" >&2
results_end
