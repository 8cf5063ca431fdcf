// Counts the process's allocations: every allocator entry point is defined here, counts with a
// relaxed atomic increment, and forwards to glibc's own implementation (__libc_*). Linked into
// the executable, these definitions take precedence over libc's for every library.
#include "CAllocationCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static _Atomic uint64_t allocations;
static _Atomic uint64_t frees;

static inline void count_allocation(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

uint64_t bench_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
uint64_t bench_free_count(void) { return atomic_load_explicit(&frees, memory_order_relaxed); }

void *malloc(size_t size) {
    count_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    // realloc(NULL, n) is malloc; growing in place still counts: the caller asked for memory.
    if (size != 0) count_allocation();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer != NULL) atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
    __libc_free(pointer);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_allocation();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    count_allocation();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    count_allocation();
    return __libc_pvalloc(size);
}
