// Wrappers for zlib macros that Swift cannot import.
#include "CWickZlib.h"

int cwick_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

int cwick_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}
