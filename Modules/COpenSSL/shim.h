// OpenSSL's libcrypto (OpenSSL 3) for Swift: EVP_MAC for HMAC, EVP digests, CRYPTO_memcmp,
// RAND_bytes, OPENSSL_cleanse and the error queue. Every function RequestSigning calls is a real
// C function, so no inline wrappers are needed here.
#ifndef SWIFTY_COPENSSL_SHIM_H
#define SWIFTY_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#endif
