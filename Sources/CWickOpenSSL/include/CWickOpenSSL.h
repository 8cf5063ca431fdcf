// CWickOpenSSL: the OpenSSL headers Wick uses, plus C functions for what Swift cannot call
// directly (OpenSSL's function-like macros). No logic lives here.
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

#endif
