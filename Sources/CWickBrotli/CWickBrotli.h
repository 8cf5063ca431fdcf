// CWickBrotli: the brotli decoder's header (Debian's libbrotli-dev). Swift calls its functions
// directly; no logic lives here.
#ifndef CWICK_BROTLI_H
#define CWICK_BROTLI_H

#include <brotli/decode.h>

#endif
