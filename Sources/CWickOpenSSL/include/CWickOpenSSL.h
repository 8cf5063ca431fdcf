// CWickOpenSSL: the OpenSSL headers Wick uses, plus C functions for what Swift cannot call
// directly (OpenSSL's function-like macros and its typed-stack macros). No logic lives here.
#ifndef CWICK_OPENSSL_H
#define CWICK_OPENSSL_H

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ocsp.h>
#include <openssl/opensslv.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/// The OpenSSL version number this shim was compiled against (OPENSSL_VERSION_NUMBER).
unsigned long cwick_openssl_header_version_number(void);

// MARK: SSL_CTX and SSL control macros

int cwick_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version);
int cwick_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version);
long cwick_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode);
int cwick_SSL_CTX_set_tlsext_status_cb(SSL_CTX *ctx, int (*callback)(SSL *, void *));
int cwick_SSL_set_tlsext_host_name(SSL *ssl, const char *name);
int cwick_SSL_set_tlsext_status_type_ocsp(SSL *ssl);
/// The stapled OCSP response the server sent (NULL and 0 when none); the bytes belong to `ssl`.
long cwick_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **response);
/// Staples `response` (which must come from OPENSSL_malloc; `ssl` takes ownership).
int cwick_SSL_set_tlsext_status_ocsp_resp(SSL *ssl, unsigned char *response, long length);
int cwick_SSL_set_app_data(SSL *ssl, void *data);
void *cwick_SSL_get_app_data(const SSL *ssl);
int cwick_SSL_CTX_set_app_data(SSL_CTX *ctx, void *data);
void *cwick_SSL_CTX_get_app_data(const SSL_CTX *ctx);

/// SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION (built with a macro Swift cannot import).
uint64_t cwick_SSL_OP_client_defaults(void);
/// SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE.
long cwick_SSL_SESS_CACHE_client_external(void);

// MARK: BIO and error macros

int cwick_BIO_set_retry_read(BIO *bio);
void cwick_BIO_clear_retry_flags(BIO *bio);
long cwick_BIO_get_mem_data(BIO *bio, char **data);
int cwick_ERR_GET_REASON(unsigned long code);
int cwick_ERR_GET_LIB(unsigned long code);
void cwick_OPENSSL_free(void *pointer);
void *cwick_OPENSSL_malloc(size_t size);
unsigned long cwick_XN_FLAG_RFC2253(void);

// MARK: typed stacks

int cwick_sk_X509_num(const STACK_OF(X509) *stack);
X509 *cwick_sk_X509_value(const STACK_OF(X509) *stack, int index);
STACK_OF(X509) *cwick_sk_X509_new_null(void);
int cwick_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate);
/// Frees the stack and releases one reference to each certificate in it.
void cwick_sk_X509_pop_free(STACK_OF(X509) *stack);
int cwick_sk_GENERAL_NAME_num(const GENERAL_NAMES *names);
GENERAL_NAME *cwick_sk_GENERAL_NAME_value(const GENERAL_NAMES *names, int index);
int cwick_sk_DIST_POINT_num(const CRL_DIST_POINTS *points);
DIST_POINT *cwick_sk_DIST_POINT_value(const CRL_DIST_POINTS *points, int index);
int cwick_sk_OPENSSL_STRING_num(const STACK_OF(OPENSSL_STRING) *strings);
const char *cwick_sk_OPENSSL_STRING_value(const STACK_OF(OPENSSL_STRING) *strings, int index);

STACK_OF(ASN1_OBJECT) *cwick_sk_ASN1_OBJECT_new_null(void);
int cwick_sk_ASN1_OBJECT_push(STACK_OF(ASN1_OBJECT) *stack, ASN1_OBJECT *object);
/// Frees the stack and each object in it (static objects, such as OBJ_nid2obj's, are left alone).
void cwick_sk_ASN1_OBJECT_pop_free(STACK_OF(ASN1_OBJECT) *stack);

#endif
