// The parts of the system's OpenSSL 3 libcrypto that FleetTokens signs tokens with on Linux.
#ifndef FLEETAUTH_COPENSSL_SHIM_H
#define FLEETAUTH_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/err.h>
#endif
