// Wrappers for OpenSSL macros that Swift cannot import.
#include "CWickOpenSSL.h"

unsigned long cwick_openssl_header_version_number(void) {
    return OPENSSL_VERSION_NUMBER;
}
