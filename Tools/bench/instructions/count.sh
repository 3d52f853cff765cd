# Counting a process's instructions, for the benchmarks: sourced after WORK is set.
#
#   instruction_counter_ready          builds the QEMU plugin once; fails (status 1, a line on
#                                      standard error) when qemu-user or a C compiler is missing
#   INSN_RUNNER=(...)                  the command prefix that runs a program with the counter;
#                                      the program's total goes to $INSN_COUNT_FILE at its exit
#   call_counter SPEC OUT              sets CALL_RUNNER, the prefix that also counts the calls to
#                                      the functions SPEC names ("NAME LIBRARY VALUE" lines, see
#                                      call_spec) and rewrites OUT every 20 ms and at exit with
#                                      "instructions N" and "NAME N" lines; after instruction_counter_ready
#   call_spec NAME LIBRARY SYMBOL      prints SPEC's line for SYMBOL of LIBRARY (a path)
#
# The count is of user-mode instructions in every thread (like callgrind's Ir), and does not
# move with the host's load. Programs run several times slower under it.
# shellcheck shell=bash
INSN_RUNNER=()
CALL_RUNNER=()

instruction_counter_ready() {
    local here
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    command -v qemu-x86_64 >/dev/null || { echo "no qemu-x86_64 (apt-get install qemu-user)" >&2; return 1; }
    command -v cc >/dev/null || { echo "no C compiler (apt-get install gcc)" >&2; return 1; }
    cc -O2 -shared -fPIC -o "$WORK/count-plugin.so" "$here/count-plugin.c" || return 1
    INSN_RUNNER=(qemu-x86_64 -plugin "$WORK/count-plugin.so")
}

call_counter() { CALL_RUNNER=(qemu-x86_64 -plugin "$WORK/count-plugin.so,calls=$1,snapshot=$2"); }

# The plugin finds a library by the real path its mapping shows, and the symbol at the library's
# start plus the value `nm` prints (its dynamic symbols, else its symbol table: an executable
# with the Swift runtime linked in); fails when LIBRARY defines no SYMBOL.
call_spec() {
    local name=$1 library=$2 symbol=$3 value
    library=$(readlink -f "$library")
    value=$(nm -D --defined-only "$library" | awk -v s="$symbol" '$3 == s && v == "" { v = $1 } END { print v }')
    [ -n "$value" ] || value=$(nm --defined-only "$library" 2>/dev/null |
        awk -v s="$symbol" '$3 == s && v == "" { v = $1 } END { print v }')
    [ -n "$value" ] || { echo "$library defines no $symbol" >&2; return 1; }
    echo "$name $library $value"
}
