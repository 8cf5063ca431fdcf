// Helpers for what Swift cannot call directly on Linux.
#define _GNU_SOURCE
#include "CWickSystem.h"
#include <sys/prctl.h>

int cwick_errno(void) {
    return errno;
}

void cwick_set_thread_name(const char *name) {
    (void)prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

int cwick_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

/// Set once by each event loop's thread; a thread-local, so reading it takes no lock.
static __thread int cwick_loop_thread_mark;

void cwick_mark_loop_thread(void) {
    cwick_loop_thread_mark = 1;
}

int cwick_is_loop_thread(void) {
    return cwick_loop_thread_mark;
}

int cwick_ppoll(struct pollfd *descriptors, nfds_t count, const struct timespec *timeout) {
    return ppoll(descriptors, count, timeout, NULL);
}

int cwick_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}
