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

int cwick_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}
