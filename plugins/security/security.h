/*
 * The security plugin's exports (ABI 1). svcd keeps the credential table here: the SHA-256
 * digest of the admin secret and whether it is usable, and each Access Token's id, role and
 * digest. It reloads the whole table after every change (clear, set_secret, add_token...), so
 * the plugin holds no state of its own beyond it. authenticate() decides a Bearer credential.
 */
#ifndef SVC_SECURITY_H
#define SVC_SECURITY_H

#include <stddef.h>
#include <stdint.h>

#include "../include/svc_plugin.h"

enum { SVC_ROLE_VIEWER = 1, SVC_ROLE_OPERATOR = 2, SVC_ROLE_ADMIN = 3 };
enum { SVC_SECRET_UNSET = 0, SVC_SECRET_ENABLED = 1, SVC_SECRET_DISABLED = 2 };
enum { SVC_AUTH_NONE = 0, SVC_AUTH_SECRET = 1, SVC_AUTH_SECRET_DISABLED = 2, SVC_AUTH_TOKEN = 3 };
#define SVC_TOKEN_ID_MAX 64

/* Empties the table (tokens and secret). */
SVC_EXPORT void svc_security_clear(void);
/* The admin secret's digest (32 bytes) and its state; 0, or -1 for a bad state. */
SVC_EXPORT int svc_security_set_secret(const uint8_t *digest, int32_t state);
/* Adds a token; 0, -1 for a bad id or role, -2 when out of memory. */
SVC_EXPORT int svc_security_add_token(const char *id, int32_t role, const uint8_t *digest);
SVC_EXPORT uint32_t svc_security_token_count(void);
/*
 * Decides a Bearer credential of len bytes. Returns SVC_AUTH_*; for SVC_AUTH_TOKEN writes the
 * role to *role_out and the NUL-terminated id to id_out (id_cap bytes). The digest of the
 * credential is compared with every entry in constant time: no early exit, no data-dependent
 * branch, so the time taken does not tell how much of a credential was right.
 */
SVC_EXPORT int32_t authenticate(const uint8_t *bearer, uint32_t len, int32_t *role_out, char *id_out, uint32_t id_cap);
/* SHA-256 of data, as used for the table (exported so tests can check it against node:crypto). */
SVC_EXPORT void svc_security_digest(const uint8_t *data, uint32_t len, uint8_t *out);
/* 1 when the len bytes at a and b are equal, in time that depends only on len. */
SVC_EXPORT int32_t svc_security_equal(const uint8_t *a, const uint8_t *b, uint32_t len);

#endif
