/*
 * Drives the security plugin's C code under AddressSanitizer and UBSan
 * (test/unit/plugins/security-asan.test.ts compiles and runs it): SHA-256 test vectors,
 * table growth and reloads, every authenticate() outcome, id truncation, and no leak at exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../plugins/security/security.h"
#include "../../plugins/security/sha256.h"

static int failures;
#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                    \
    }                                                                \
  } while (0)

static void hex(const uint8_t *d, char *out) {
  for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

static void check_sha(const char *input, size_t len, const char *expected) {
  uint8_t d[32];
  char h[65];
  svc_sha256((const uint8_t *)input, len, d);
  hex(d, h);
  if (strcmp(h, expected) != 0) {
    fprintf(stderr, "sha256 of %zu bytes: got %s, expected %s\n", len, h, expected);
    failures++;
  }
}

static void digest_of(const char *s, uint8_t out[32]) { svc_security_digest((const uint8_t *)s, (uint32_t)strlen(s), out); }

static int32_t auth(const char *bearer, int32_t *role, char *id, uint32_t cap) {
  return authenticate((const uint8_t *)bearer, (uint32_t)strlen(bearer), role, id, cap);
}

int main(void) {
  /* FIPS 180-2 vectors, and lengths around the padding boundary (55, 56, 64 bytes). */
  check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  check_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  char *million = malloc(1000000);
  CHECK(million != NULL);
  memset(million, 'a', 1000000);
  check_sha(million, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  free(million);
  check_sha("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  check_sha("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");

  uint8_t a[32], b[32];
  digest_of("x", a);
  memcpy(b, a, 32);
  CHECK(svc_security_equal(a, b, 32) == 1);
  b[31] ^= 1;
  CHECK(svc_security_equal(a, b, 32) == 0);
  b[31] ^= 1;
  b[0] ^= 0x80;
  CHECK(svc_security_equal(a, b, 32) == 0);
  CHECK(svc_security_equal(a, b, 0) == 1);

  int32_t role = -1;
  char id[SVC_TOKEN_ID_MAX];
  CHECK(auth("anything", &role, id, sizeof id) == SVC_AUTH_NONE && role == 0 && id[0] == '\0');
  CHECK(authenticate(NULL, 0, &role, id, sizeof id) == SVC_AUTH_NONE);

  uint8_t secret[32];
  digest_of("admin secret", secret);
  CHECK(svc_security_set_secret(secret, SVC_SECRET_ENABLED) == 0);
  CHECK(svc_security_set_secret(secret, 7) == -1);
  CHECK(svc_security_set_secret(NULL, SVC_SECRET_ENABLED) == -1);
  CHECK(auth("admin secret", &role, id, sizeof id) == SVC_AUTH_SECRET);
  CHECK(auth("admin secreT", &role, id, sizeof id) == SVC_AUTH_NONE);

  /* Grow the table past its first allocations, reload it twice, and find every token. */
  for (int round = 0; round < 3; round++) {
    svc_security_clear();
    CHECK(svc_security_set_secret(secret, SVC_SECRET_DISABLED) == 0);
    for (int i = 0; i < 100; i++) {
      char tid[32], sec[32];
      uint8_t d[32];
      snprintf(tid, sizeof tid, "tok_%012d", i);
      snprintf(sec, sizeof sec, "sk-%d-%d", round, i);
      digest_of(sec, d);
      CHECK(svc_security_add_token(tid, 1 + i % 3, d) == 0);
    }
    CHECK(svc_security_token_count() == 100);
    for (int i = 0; i < 100; i += 7) {
      char tid[32], sec[32];
      snprintf(tid, sizeof tid, "tok_%012d", i);
      snprintf(sec, sizeof sec, "sk-%d-%d", round, i);
      CHECK(auth(sec, &role, id, sizeof id) == SVC_AUTH_TOKEN);
      CHECK(role == 1 + i % 3);
      CHECK(strcmp(id, tid) == 0);
    }
    CHECK(auth("admin secret", &role, id, sizeof id) == SVC_AUTH_SECRET_DISABLED);
    if (round > 0) CHECK(auth("sk-0-7", &role, id, sizeof id) == SVC_AUTH_NONE); /* an old secret is gone */
  }

  /* A short id buffer is truncated and still terminated. */
  char small[5];
  CHECK(auth("sk-2-7", &role, small, sizeof small) == SVC_AUTH_TOKEN && strcmp(small, "tok_") == 0);
  CHECK(auth("sk-2-7", NULL, NULL, 0) == SVC_AUTH_TOKEN);

  /* Bad table entries are refused. */
  char longid[SVC_TOKEN_ID_MAX + 1];
  memset(longid, 'x', SVC_TOKEN_ID_MAX);
  longid[SVC_TOKEN_ID_MAX] = '\0';
  CHECK(svc_security_add_token(longid, 1, secret) == -1);
  CHECK(svc_security_add_token("", 1, secret) == -1);
  CHECK(svc_security_add_token("t", 0, secret) == -1);
  CHECK(svc_security_add_token("t", 4, secret) == -1);
  CHECK(svc_security_add_token(NULL, 1, secret) == -1);

  CHECK(svc_plugin_abi() == SVC_PLUGIN_ABI);
  CHECK(strcmp(svc_plugin_name(), "security") == 0);

  svc_security_clear(); /* everything freed: LeakSanitizer checks at exit */
  if (failures) return 1;
  puts("ok");
  return 0;
}
