// Helpers for what Swift cannot call directly on Linux.
#include "CWickSystem.h"

int cwick_errno(void) {
    return errno;
}
