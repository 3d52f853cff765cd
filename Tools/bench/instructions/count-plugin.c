/*
 * A QEMU TCG plugin that counts the guest instructions a process executes, in every thread, and
 * writes the total to the file named by $INSN_COUNT_FILE when the process exits (standard error
 * without it). Used by the benchmarks to count a program's instructions under
 * `qemu-x86_64 -plugin`, where neither hardware counters (`perf stat -e instructions`) nor
 * valgrind (which stops in the Swift concurrency runtime's thread start) are available.
 *
 * Built by Tools/bench/instructions/count.sh with the system's C compiler; it declares the few
 * functions of QEMU's plugin API (version 1, as in QEMU 7.2) it calls, since Debian ships no
 * plugin header.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           void (*cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb));
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, void (*cb)(unsigned int vcpu, void *userdata),
                                          enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t id, void *userdata),
                                    void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t total;

/* Each translated block adds its instruction count every time it runs; threads run at once, so
 * the sum is atomic. */
static void block_ran(unsigned int vcpu, void *instructions) {
    (void)vcpu;
    __atomic_fetch_add(&total, (uint64_t)(uintptr_t)instructions, __ATOMIC_RELAXED);
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran, QEMU_PLUGIN_CB_NO_REGS,
                                         (void *)(uintptr_t)qemu_plugin_tb_n_insns(tb));
}

static void exited(qemu_plugin_id_t id, void *userdata) {
    (void)id;
    (void)userdata;
    const char *path = getenv("INSN_COUNT_FILE");
    FILE *file = path ? fopen(path, "w") : stderr;
    if (file == NULL) return;
    fprintf(file, "%llu\n", (unsigned long long)__atomic_load_n(&total, __ATOMIC_RELAXED));
    if (path) fclose(file);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
    qemu_plugin_register_atexit_cb(id, exited, NULL);
    return 0;
}
