/*
 * A QEMU TCG plugin that counts the guest instructions a process executes, in every thread, and
 * writes the total to the file named by $INSN_COUNT_FILE when the process exits (standard error
 * without it). Used by the benchmarks to count a program's instructions under
 * `qemu-x86_64 -plugin`, where neither hardware counters (`perf stat -e instructions`) nor
 * valgrind (which stops in the Swift concurrency runtime's thread start) are available.
 *
 * With the arguments `calls=SPEC,snapshot=OUT` it also counts the calls to given functions of
 * the process's shared libraries: SPEC has one "NAME LIBRARY VALUE" line per function (LIBRARY
 * the library's real path, VALUE the symbol's value in hex, as `nm -D` prints it), and every
 * 20 ms and at exit OUT is replaced by "instructions N" and one "NAME N" line per function. A
 * call is counted each time a translated block starting at the function's first instruction
 * runs, so calls, tail calls and jumps through the PLT all count once.
 *
 * Built by Tools/bench/instructions/count.sh with the system's C compiler; it declares the few
 * functions of QEMU's plugin API (version 1, as in QEMU 7.2) it calls, since Debian ships no
 * plugin header.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           void (*cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb));
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, void (*cb)(unsigned int vcpu, void *userdata),
                                          enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t id, void *userdata),
                                    void *userdata);
void qemu_plugin_register_vcpu_syscall_ret_cb(qemu_plugin_id_t id,
                                              void (*cb)(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
                                                         int64_t ret));

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t total;

/* Each translated block adds its instruction count every time it runs; threads run at once, so
 * the sum is atomic. */
static void block_ran(unsigned int vcpu, void *instructions) {
    (void)vcpu;
    __atomic_fetch_add(&total, (uint64_t)(uintptr_t)instructions, __ATOMIC_RELAXED);
}

/* The functions whose calls are counted (calls=SPEC), each at its host address once its library
 * is mapped (0 before). */
enum { MAX_FUNCTIONS = 64 };
static struct function {
    char name[64];
    char library[512];
    uint64_t value;
    uintptr_t address;
    uint64_t calls;
} functions[MAX_FUNCTIONS];
static int function_count;
static int unresolved;
static const char *snapshot_path;
static pthread_mutex_t resolving = PTHREAD_MUTEX_INITIALIZER;

static void function_called(unsigned int vcpu, void *function) {
    (void)vcpu;
    __atomic_fetch_add(&((struct function *)function)->calls, 1, __ATOMIC_RELAXED);
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran, QEMU_PLUGIN_CB_NO_REGS,
                                         (void *)(uintptr_t)qemu_plugin_tb_n_insns(tb));
    if (function_count == 0) return;
    uintptr_t start = (uintptr_t)qemu_plugin_insn_haddr(qemu_plugin_tb_get_insn(tb, 0));
    for (int i = 0; i < function_count; i++) {
        if (__atomic_load_n(&functions[i].address, __ATOMIC_ACQUIRE) == start)
            qemu_plugin_register_vcpu_tb_exec_cb(tb, function_called, QEMU_PLUGIN_CB_NO_REGS, &functions[i]);
    }
}

/* A shared library's symbols sit at the start of its offset-0 mapping plus their value; the
 * process's mappings (QEMU maps the guest's files into its own address space) say where. */
static void resolve(void) {
    pthread_mutex_lock(&resolving);
    FILE *maps = __atomic_load_n(&unresolved, __ATOMIC_RELAXED) > 0 ? fopen("/proc/self/maps", "r") : NULL;
    if (maps != NULL) {
        char line[1024], path[512];
        unsigned long long low, offset;
        while (fgets(line, sizeof line, maps) != NULL) {
            if (sscanf(line, "%llx-%*x %*s %llx %*s %*s %511s", &low, &offset, path) != 3 || offset != 0) continue;
            for (int i = 0; i < function_count; i++) {
                if (functions[i].address != 0 || strcmp(functions[i].library, path) != 0) continue;
                __atomic_store_n(&functions[i].address, (uintptr_t)(low + functions[i].value), __ATOMIC_RELEASE);
                __atomic_fetch_sub(&unresolved, 1, __ATOMIC_RELAXED);
            }
        }
        fclose(maps);
    }
    pthread_mutex_unlock(&resolving);
}

/* Libraries arrive by mmap (x86-64 system call 9), before any of their code runs. */
static void syscall_returned(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, int64_t ret) {
    (void)id;
    (void)vcpu;
    (void)ret;
    if (num == 9 && __atomic_load_n(&unresolved, __ATOMIC_RELAXED) > 0) resolve();
}

/* Replaces the snapshot file (written aside, then renamed, so a reader never sees half). */
static void write_snapshot(void) {
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp", snapshot_path);
    FILE *file = fopen(temporary, "w");
    if (file == NULL) return;
    fprintf(file, "instructions %llu\n", (unsigned long long)__atomic_load_n(&total, __ATOMIC_RELAXED));
    for (int i = 0; i < function_count; i++)
        fprintf(file, "%s %llu\n", functions[i].name,
                (unsigned long long)__atomic_load_n(&functions[i].calls, __ATOMIC_RELAXED));
    fclose(file);
    rename(temporary, snapshot_path);
}

static void *snapshots(void *unused) {
    (void)unused;
    const struct timespec interval = {0, 20 * 1000 * 1000};
    for (;;) {
        nanosleep(&interval, NULL);
        write_snapshot();
    }
    return NULL;
}

static int read_spec(const char *path) {
    FILE *spec = fopen(path, "r");
    if (spec == NULL) return -1;
    char line[1024];
    while (fgets(line, sizeof line, spec) != NULL && function_count < MAX_FUNCTIONS) {
        struct function *f = &functions[function_count];
        if (sscanf(line, "%63s %511s %llx", f->name, f->library, (unsigned long long *)&f->value) == 3) function_count++;
    }
    fclose(spec);
    unresolved = function_count;
    return 0;
}

static void exited(qemu_plugin_id_t id, void *userdata) {
    (void)id;
    (void)userdata;
    if (snapshot_path != NULL) write_snapshot();
    const char *path = getenv("INSN_COUNT_FILE");
    FILE *file = path ? fopen(path, "w") : stderr;
    if (file == NULL) return;
    fprintf(file, "%llu\n", (unsigned long long)__atomic_load_n(&total, __ATOMIC_RELAXED));
    if (path) fclose(file);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv) {
    (void)info;
    const char *spec = NULL;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "calls=", 6) == 0) spec = argv[i] + 6;
        else if (strncmp(argv[i], "snapshot=", 9) == 0) snapshot_path = argv[i] + 9;
    }
    if ((spec == NULL) != (snapshot_path == NULL)) {
        fprintf(stderr, "count-plugin: calls=SPEC and snapshot=OUT go together\n");
        return -1;
    }
    if (spec != NULL) {
        if (read_spec(spec) != 0) {
            fprintf(stderr, "count-plugin: cannot read %s\n", spec);
            return -1;
        }
        pthread_t thread;
        if (pthread_create(&thread, NULL, snapshots, NULL) != 0) return -1;
        pthread_detach(thread);
        qemu_plugin_register_vcpu_syscall_ret_cb(id, syscall_returned);
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
    qemu_plugin_register_atexit_cb(id, exited, NULL);
    return 0;
}
