// CBenchNghttp2: nghttp2's HPACK API (Debian's libnghttp2-dev) for the `hpack` suite's peer. The
// header only exposes nghttp2_hd_* to Swift, which calls it directly; no benchmark logic here.
#ifndef CBENCH_NGHTTP2_H
#define CBENCH_NGHTTP2_H

#include <nghttp2/nghttp2.h>

#endif
