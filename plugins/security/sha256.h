/* SHA-256 (FIPS 180-4): the digest of a presented credential, compared with the stored digests. */
#ifndef SVC_SHA256_H
#define SVC_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BYTES 32

void svc_sha256(const uint8_t *data, size_t len, uint8_t out[SHA256_BYTES]);

#endif
