// CWickZstd: zstd's headers (Debian's libzstd-dev). Swift calls its functions directly; no logic
// lives here.
#ifndef CWICK_ZSTD_H
#define CWICK_ZSTD_H

#include <zstd.h>
#include <zstd_errors.h>

#endif
