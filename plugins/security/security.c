#include "security.h"

#include <stdlib.h>
#include <string.h>

#include "sha256.h"

SVC_PLUGIN("security", "1.0.0")

struct token {
  char id[SVC_TOKEN_ID_MAX];
  int32_t role;
  uint8_t digest[SHA256_BYTES];
};

static struct token *tokens;
static size_t count, capacity;
static uint8_t secret_digest[SHA256_BYTES];
static int32_t secret_state = SVC_SECRET_UNSET;

void svc_security_clear(void) {
  free(tokens);
  tokens = NULL;
  count = capacity = 0;
  memset(secret_digest, 0, sizeof secret_digest);
  secret_state = SVC_SECRET_UNSET;
}

int svc_security_set_secret(const uint8_t *digest, int32_t state) {
  if (state < SVC_SECRET_UNSET || state > SVC_SECRET_DISABLED) return -1;
  if (state != SVC_SECRET_UNSET && digest == NULL) return -1;
  if (digest) memcpy(secret_digest, digest, SHA256_BYTES);
  secret_state = state;
  return 0;
}

int svc_security_add_token(const char *id, int32_t role, const uint8_t *digest) {
  if (id == NULL || digest == NULL || role < SVC_ROLE_VIEWER || role > SVC_ROLE_ADMIN) return -1;
  size_t id_len = strlen(id);
  if (id_len == 0 || id_len >= SVC_TOKEN_ID_MAX) return -1;
  if (count == capacity) {
    size_t next = capacity ? capacity * 2 : 16;
    struct token *grown = realloc(tokens, next * sizeof *grown);
    if (grown == NULL) return -2;
    tokens = grown;
    capacity = next;
  }
  struct token *t = &tokens[count++];
  memset(t, 0, sizeof *t);
  memcpy(t->id, id, id_len);
  t->role = role;
  memcpy(t->digest, digest, SHA256_BYTES);
  return 0;
}

uint32_t svc_security_token_count(void) { return (uint32_t)count; }

int32_t svc_security_equal(const uint8_t *a, const uint8_t *b, uint32_t len) {
  uint8_t diff = 0;
  for (uint32_t i = 0; i < len; i++) diff |= (uint8_t)(a[i] ^ b[i]);
  /* 1 when diff == 0, without a branch: (diff - 1) has its top bits set only for diff == 0. */
  return (int32_t)(((uint32_t)diff - 1u) >> 31);
}

void svc_security_digest(const uint8_t *data, uint32_t len, uint8_t *out) { svc_sha256(data, len, out); }

int32_t authenticate(const uint8_t *bearer, uint32_t len, int32_t *role_out, char *id_out, uint32_t id_cap) {
  if (role_out) *role_out = 0;
  if (id_out && id_cap > 0) id_out[0] = '\0';
  if (bearer == NULL || len == 0) return SVC_AUTH_NONE;
  uint8_t digest[SHA256_BYTES];
  svc_sha256(bearer, len, digest);

  /* Every entry is compared; the match (if any) is selected with masks, not branches. */
  uint32_t matched = 0, index = 0;
  for (size_t i = 0; i < count; i++) {
    uint32_t eq = (uint32_t)svc_security_equal(digest, tokens[i].digest, SHA256_BYTES);
    uint32_t mask = 0u - eq;
    index = (index & ~mask) | ((uint32_t)i & mask);
    matched |= eq;
  }
  uint32_t secret_eq = (uint32_t)svc_security_equal(digest, secret_digest, SHA256_BYTES);

  if (secret_state != SVC_SECRET_UNSET && secret_eq) {
    return secret_state == SVC_SECRET_ENABLED ? SVC_AUTH_SECRET : SVC_AUTH_SECRET_DISABLED;
  }
  if (!matched) return SVC_AUTH_NONE;
  if (role_out) *role_out = tokens[index].role;
  if (id_out && id_cap > 0) {
    size_t n = strlen(tokens[index].id);
    if (n >= id_cap) n = id_cap - 1;
    memcpy(id_out, tokens[index].id, n);
    id_out[n] = '\0';
  }
  return SVC_AUTH_TOKEN;
}
