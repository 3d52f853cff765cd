# Counting a process's instructions, for the benchmarks: sourced after WORK is set.
#
#   instruction_counter_ready          builds the QEMU plugin once; fails (status 1, a line on
#                                      standard error) when qemu-user or a C compiler is missing
#   INSN_RUNNER=(...)                  the command prefix that runs a program with the counter;
#                                      the program's total goes to $INSN_COUNT_FILE at its exit
#
# The count is of user-mode instructions in every thread (like callgrind's Ir), and does not
# move with the host's load. Programs run several times slower under it.
# shellcheck shell=bash
INSN_RUNNER=()

instruction_counter_ready() {
    local here
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    command -v qemu-x86_64 >/dev/null || { echo "no qemu-x86_64 (apt-get install qemu-user)" >&2; return 1; }
    command -v cc >/dev/null || { echo "no C compiler (apt-get install gcc)" >&2; return 1; }
    cc -O2 -shared -fPIC -o "$WORK/count-plugin.so" "$here/count-plugin.c" || return 1
    INSN_RUNNER=(qemu-x86_64 -plugin "$WORK/count-plugin.so")
}
