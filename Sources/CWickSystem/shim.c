// Helpers for what Swift cannot call directly on Linux.
#include "CWickSystem.h"
#include <sys/prctl.h>

int cwick_errno(void) {
    return errno;
}

void cwick_set_thread_name(const char *name) {
    (void)prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
