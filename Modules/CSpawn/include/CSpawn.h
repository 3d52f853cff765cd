// What ServiceTesting's ChildProcess needs from glibc that Swift cannot import as it is: the
// `posix_spawn` file actions and `pipe2`, declared only with `_GNU_SOURCE` (which the Glibc
// module is not built with), and the function-like macros that decode a wait status.
#ifndef SWIFTY_CSPAWN_H
#define SWIFTY_CSPAWN_H

#include <spawn.h>

/// `posix_spawn_file_actions_addchdir_np`: the child changes to `path` before it executes.
int cspawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// `posix_spawn_file_actions_addclosefrom_np`: the child closes every descriptor from `lowest` up.
int cspawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/// `pipe2(fds, O_CLOEXEC)`: a pipe whose two ends are closed on exec.
int cspawn_pipe_cloexec(int fds[2]);

/// `WIFEXITED(status)`.
int cspawn_exited(int status);

/// `WEXITSTATUS(status)`.
int cspawn_exit_code(int status);

/// `WIFSIGNALED(status)`.
int cspawn_signaled(int status);

/// `WTERMSIG(status)`.
int cspawn_signal(int status);

#endif
