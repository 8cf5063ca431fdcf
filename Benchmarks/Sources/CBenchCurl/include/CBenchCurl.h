// CBenchCurl: libcurl (Debian's libcurl4-openssl-dev) for the `tls` suite's libcurl peer. Only
// what Swift cannot call lives here: curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt
// are variadic, and the write callback asks OpenSSL whether the session was resumed while the
// connection is still in use. The rest of libcurl's API is called from Swift through this header.
#ifndef CBENCH_CURL_H
#define CBENCH_CURL_H

#include <curl/curl.h>
#include <stddef.h>

/// What the write callback records about one transfer.
struct bench_curl_transfer {
    /// The easy handle the transfer runs on (the callback asks it for the TLS session).
    CURL *handle;
    /// Body bytes received (discarded).
    size_t body_bytes;
    /// Set to -1 before the transfer; the first body bytes set it to 1 when OpenSSL reports the
    /// TLS session as resumed (`SSL_session_reused`), 0 when not (it stays -1 without a body or
    /// when libcurl gives no OpenSSL handle).
    int session_reused;
    /// Nonzero: the body is also kept, in `collected`, grown by `realloc` on every write as
    /// libcurl's getinmemory.c example does; the owner frees it.
    int collects;
    /// The body kept so far (with `collects`), or NULL.
    char *collected;
};

/// curl_easy_setopt with a long argument.
CURLcode bench_curl_setopt_long(CURL *handle, CURLoption option, long value);
/// curl_easy_setopt with a pointer argument (strings are copied by libcurl).
CURLcode bench_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
/// Sets the write callback that counts the body into `transfer`, and keeps it in
/// `transfer->collected` when `transfer->collects`, else discards it (and records resumption on
/// its first call). `transfer` must outlive the handle's transfers.
CURLcode bench_curl_set_body_writer(CURL *handle, struct bench_curl_transfer *transfer);
/// curl_easy_getinfo for a long result.
CURLcode bench_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// curl_easy_setopt with a curl_off_t argument (CURLOPT_INFILESIZE_LARGE).
CURLcode bench_curl_setopt_offset(CURL *handle, CURLoption option, long long value);
/// curl_multi_setopt with a long argument.
CURLMcode bench_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

#endif
