// CWickZlib: zlib's header plus C functions for its function-like macros (inflateInit2,
// deflateInit2), which Swift cannot import. No logic lives here.
#ifndef CWICK_ZLIB_H
#define CWICK_ZLIB_H

#include <zlib.h>

/// inflateInit2(stream, windowBits): 15+16 for gzip, 15 for zlib, -15 for raw deflate,
/// 15+32 to detect gzip or zlib from the header.
int cwick_inflateInit2(z_streamp stream, int windowBits);

/// deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY).
int cwick_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel);

#endif
