// OpenSSL's libcrypto (OpenSSL 3) for Swift: SHA-2 for HMAC and digests, EVP_MAC, CRYPTO_memcmp,
// RAND_bytes, OPENSSL_cleanse and the error queue. Every function RequestSigning calls is a real
// C function, so no inline wrappers are needed here.
#ifndef SWIFTY_COPENSSL_SHIM_H
#define SWIFTY_COPENSSL_SHIM_H
// HMAC keys and Content-Digest run the one-digest calls on states of their own
// (SHA256_Init, ...), which OpenSSL 3 marks deprecated in favour of EVP but still provides:
// through EVP every digest allocates and frees provider contexts.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#endif
