// CWickBrotliEncoder: the brotli encoder's header (Debian's libbrotli-dev), for test bodies only.
#ifndef CWICK_BROTLI_ENCODER_H
#define CWICK_BROTLI_ENCODER_H

#include <brotli/encode.h>

#endif
