// The parts of the system's OpenSSL 3 libcrypto that the reference RSA-2048 signer uses.
#ifndef FLEETAUTH_BENCHMARKS_OPENSSL_SHIM_H
#define FLEETAUTH_BENCHMARKS_OPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/rsa.h>
#endif
