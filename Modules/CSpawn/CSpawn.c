// Built with _GNU_SOURCE so that glibc declares the `_np` spawn file actions and `pipe2`.
#define _GNU_SOURCE
#include "CSpawn.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

int cspawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int cspawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int cspawn_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int cspawn_exited(int status) { return WIFEXITED(status); }

int cspawn_exit_code(int status) { return WEXITSTATUS(status); }

int cspawn_signaled(int status) { return WIFSIGNALED(status); }

int cspawn_signal(int status) { return WTERMSIG(status); }
