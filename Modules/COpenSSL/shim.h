// OpenSSL's libcrypto (OpenSSL 3) for Swift: EVP_MAC for HMAC, EVP digests, CRYPTO_memcmp,
// RAND_bytes and OPENSSL_cleanse.
#ifndef SWIFTY_COPENSSL_SHIM_H
#define SWIFTY_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#endif
