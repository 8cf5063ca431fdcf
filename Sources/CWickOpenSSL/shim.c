// Wrappers for OpenSSL macros that Swift cannot import. Each is one call; no logic lives here.
#include "CWickOpenSSL.h"

unsigned long cwick_openssl_header_version_number(void) { return OPENSSL_VERSION_NUMBER; }

int cwick_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
int cwick_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}
long cwick_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}
int cwick_SSL_CTX_set_tlsext_status_cb(SSL_CTX *ctx, int (*callback)(SSL *, void *)) {
    return (int)SSL_CTX_set_tlsext_status_cb(ctx, callback);
}
int cwick_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}
int cwick_SSL_set_tlsext_status_type_ocsp(SSL *ssl) {
    return (int)SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp);
}
long cwick_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **response) {
    unsigned char *bytes = NULL;
    long length = SSL_get_tlsext_status_ocsp_resp(ssl, &bytes);
    *response = bytes;
    return length;
}
int cwick_SSL_set_tlsext_status_ocsp_resp(SSL *ssl, unsigned char *response, long length) {
    return (int)SSL_set_tlsext_status_ocsp_resp(ssl, response, length);
}
int cwick_SSL_set_app_data(SSL *ssl, void *data) { return SSL_set_app_data(ssl, data); }
void *cwick_SSL_get_app_data(const SSL *ssl) { return SSL_get_app_data(ssl); }
int cwick_SSL_CTX_set_app_data(SSL_CTX *ctx, void *data) { return SSL_CTX_set_app_data(ctx, data); }
void *cwick_SSL_CTX_get_app_data(const SSL_CTX *ctx) { return SSL_CTX_get_app_data(ctx); }

uint64_t cwick_SSL_OP_client_defaults(void) { return SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION; }
long cwick_SSL_SESS_CACHE_client_external(void) { return SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE; }

int cwick_BIO_set_retry_read(BIO *bio) {
    BIO_set_retry_read(bio);
    return 1;
}
void cwick_BIO_clear_retry_flags(BIO *bio) { BIO_clear_retry_flags(bio); }
long cwick_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
int cwick_ERR_GET_REASON(unsigned long code) { return ERR_GET_REASON(code); }
int cwick_ERR_GET_LIB(unsigned long code) { return ERR_GET_LIB(code); }
void cwick_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }
void *cwick_OPENSSL_malloc(size_t size) { return OPENSSL_malloc(size); }
unsigned long cwick_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

int cwick_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
X509 *cwick_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
STACK_OF(X509) *cwick_sk_X509_new_null(void) { return sk_X509_new_null(); }
int cwick_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate) { return sk_X509_push(stack, certificate); }
void cwick_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }
int cwick_sk_GENERAL_NAME_num(const GENERAL_NAMES *names) { return sk_GENERAL_NAME_num(names); }
GENERAL_NAME *cwick_sk_GENERAL_NAME_value(const GENERAL_NAMES *names, int index) {
    return sk_GENERAL_NAME_value(names, index);
}
int cwick_sk_DIST_POINT_num(const CRL_DIST_POINTS *points) { return sk_DIST_POINT_num(points); }
DIST_POINT *cwick_sk_DIST_POINT_value(const CRL_DIST_POINTS *points, int index) {
    return sk_DIST_POINT_value(points, index);
}
int cwick_sk_OPENSSL_STRING_num(const STACK_OF(OPENSSL_STRING) *strings) {
    return sk_OPENSSL_STRING_num(strings);
}
const char *cwick_sk_OPENSSL_STRING_value(const STACK_OF(OPENSSL_STRING) *strings, int index) {
    return sk_OPENSSL_STRING_value(strings, index);
}
STACK_OF(ASN1_OBJECT) *cwick_sk_ASN1_OBJECT_new_null(void) { return sk_ASN1_OBJECT_new_null(); }
int cwick_sk_ASN1_OBJECT_push(STACK_OF(ASN1_OBJECT) *stack, ASN1_OBJECT *object) {
    return sk_ASN1_OBJECT_push(stack, object);
}
void cwick_sk_ASN1_OBJECT_pop_free(STACK_OF(ASN1_OBJECT) *stack) { sk_ASN1_OBJECT_pop_free(stack, ASN1_OBJECT_free); }
