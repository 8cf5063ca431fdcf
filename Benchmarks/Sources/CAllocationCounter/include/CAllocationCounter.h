// CAllocationCounter: the process-wide allocation counters. malloc, calloc, realloc, free,
// posix_memalign, aligned_alloc, memalign, valloc and pvalloc are interposed for the whole
// process of the executable this target is linked into (wick-bench, and wick-bench-openapi in
// Benchmarks/Peers, whose CAllocationCounter is a symlink to this folder).
#ifndef CALLOCATION_COUNTER_H
#define CALLOCATION_COUNTER_H

#include <stdint.h>

/// Calls that allocated (malloc, calloc, realloc to a new block, the aligned allocators) since
/// the process started.
uint64_t bench_allocation_count(void);
/// Calls to free with a non-null pointer since the process started.
uint64_t bench_free_count(void);

#endif
