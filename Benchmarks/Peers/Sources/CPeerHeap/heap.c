// malloc's in-use bytes, from glibc's mallinfo2.
#include "CPeerHeap.h"

#include <malloc.h>

size_t peer_heap_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
