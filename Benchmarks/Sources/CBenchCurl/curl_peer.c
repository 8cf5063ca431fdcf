// Wrappers for libcurl's variadic calls and the write callback of the libcurl peer.
#include "CBenchCurl.h"

#include <openssl/ssl.h>
#include <stdlib.h>
#include <string.h>

CURLcode bench_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode bench_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode bench_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode bench_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static size_t body_writer(char *data, size_t size, size_t count, void *user) {
    struct bench_curl_transfer *transfer = user;
    if (transfer->collects) {
        // libcurl's getinmemory.c: grow by what arrived (and a terminating zero), then copy.
        char *grown = realloc(transfer->collected, transfer->body_bytes + size * count + 1);
        if (grown == NULL) return 0;
        transfer->collected = grown;
        memcpy(grown + transfer->body_bytes, data, size * count);
        grown[transfer->body_bytes + size * count] = 0;
    }
    if (transfer->session_reused == -1) {
        // Asked during the transfer: the connection, and so its SSL object, is alive.
        struct curl_tlssessioninfo *info = NULL;
        if (curl_easy_getinfo(transfer->handle, CURLINFO_TLS_SSL_PTR, &info) == CURLE_OK && info != NULL
            && info->backend == CURLSSLBACKEND_OPENSSL && info->internals != NULL) {
            transfer->session_reused = SSL_session_reused((SSL *)info->internals) ? 1 : 0;
        }
    }
    transfer->body_bytes += size * count;
    return size * count;
}

CURLcode bench_curl_set_body_writer(CURL *handle, struct bench_curl_transfer *transfer) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, body_writer);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_WRITEDATA, transfer);
}

CURLcode bench_curl_setopt_offset(CURL *handle, CURLoption option, long long value) {
    return curl_easy_setopt(handle, option, (curl_off_t)value);
}
