// zlib macro wrappers, callgrind client requests, the heap's size and thread pinning for wick-bench.
#define _GNU_SOURCE
#include "CBenchSupport.h"

#include <malloc.h>
#include <pthread.h>
#include <sched.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAS_VALGRIND 1
#else
#define BENCH_HAS_VALGRIND 0
#endif

int bench_inflateInit2(z_streamp stream, int windowBits) { return inflateInit2(stream, windowBits); }

int bench_deflateInit2(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

int bench_running_on_valgrind(void) {
#if BENCH_HAS_VALGRIND
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}

void bench_callgrind_zero_stats(void) {
#if BENCH_HAS_VALGRIND
    CALLGRIND_ZERO_STATS;
#endif
}

void bench_callgrind_dump_stats(const char *name) {
#if BENCH_HAS_VALGRIND
    CALLGRIND_DUMP_STATS_AT(name);
#else
    (void)name;
#endif
}

void bench_escape(const void *pointer) { (void)pointer; }

int bench_pin_current_thread(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

size_t bench_heap_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
