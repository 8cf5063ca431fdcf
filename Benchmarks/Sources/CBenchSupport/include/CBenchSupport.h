// CBenchSupport: what wick-bench calls in C. picohttpparser's interface as Debian's libh2o-evloop
// exports it (that package ships no header, so the declarations are restated here), zlib macro
// wrappers, brotli's and zstd's decoder headers (the br and zstd peers) and callgrind's client
// requests. The allocation counters are CAllocationCounter's.
#ifndef CBENCH_SUPPORT_H
#define CBENCH_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/types.h>
#include <zlib.h>
#include <brotli/decode.h>
#include <zstd.h>

// MARK: picohttpparser (libh2o-evloop.so exports phr_*)

/// One header field as picohttpparser reports it: pointers into the caller's buffer.
struct phr_header {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
};

/// Parses a response head in `buf[0..<len]`. `last_len` is how much of the buffer the previous
/// call saw (0 the first time). Returns the head's length, -2 when incomplete, -1 on error.
int phr_parse_response(const char *buf, size_t len, int *minor_version, int *status, const char **msg,
                       size_t *msg_len, struct phr_header *headers, size_t *num_headers, size_t last_len);

/// The chunked decoder's state, zero-filled before the first call. The trailing words leave room
/// for the fields newer picohttpparser versions append, so either layout fits.
struct phr_chunked_decoder {
    size_t bytes_left_in_chunk;
    char consume_trailer;
    char hex_count;
    char state;
    uint64_t reserved[4];
};

/// Decodes chunked data in place; `*bufsz` becomes the decoded length. Returns the number of
/// undecoded bytes after the terminating chunk, -2 when more is needed, -1 on error.
ssize_t phr_decode_chunked(struct phr_chunked_decoder *decoder, char *buf, size_t *bufsz);

// MARK: zlib (macros Swift cannot call)

/// inflateInit2(stream, windowBits).
int bench_inflateInit2(z_streamp stream, int windowBits);
/// deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY).
int bench_deflateInit2(z_streamp stream, int level, int windowBits);

// MARK: callgrind client requests (no-ops when valgrind's header was missing at build time)

/// Whether the process runs under valgrind.
int bench_running_on_valgrind(void);
/// Zeroes callgrind's counters.
void bench_callgrind_zero_stats(void);
/// Writes callgrind's counters since the last zero or dump to a file tagged `name`.
void bench_callgrind_dump_stats(const char *name);

// MARK: Optimisation barrier

/// Does nothing with `pointer`, but the optimiser cannot know that: what it points to escapes.
void bench_escape(const void *pointer);

// MARK: Heap

/// Bytes malloc has handed out and not taken back: `mallinfo2()`'s uordblks (every arena) plus
/// hblkhd (mmapped blocks).
size_t bench_heap_bytes(void);

// MARK: CPU affinity

/// Pins the calling thread to `cpu`; returns 0 or an errno value.
int bench_pin_current_thread(int cpu);

#endif
