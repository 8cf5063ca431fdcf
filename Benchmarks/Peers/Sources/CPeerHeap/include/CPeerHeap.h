// CPeerHeap: malloc's in-use bytes for the peer process (glibc's mallinfo2, which Swift's Glibc
// module does not export).
#ifndef CPEER_HEAP_H
#define CPEER_HEAP_H

#include <stddef.h>

/// Bytes malloc has handed out and not taken back: mallinfo2()'s uordblks (every arena) plus
/// hblkhd (mmapped blocks).
size_t peer_heap_bytes(void);

#endif
