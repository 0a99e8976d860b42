#include "wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q) {
    /* The spawner cannot keep its promises without memory; svcd sees EOF and falls back. */
    fputs("svc-spawner: out of memory\n", stderr);
    abort();
  }
  return q;
}

char *xstrndup(const char *s, size_t n) {
  char *out = xrealloc(NULL, n + 1);
  memcpy(out, s, n);
  out[n] = '\0';
  return out;
}

void buf_reserve(struct buf *b, size_t extra) {
  if (b->len + extra <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra) cap *= 2;
  b->data = xrealloc(b->data, cap);
  b->cap = cap;
}

void buf_append(struct buf *b, const void *data, size_t n) {
  buf_reserve(b, n);
  if (n) memcpy(b->data + b->len, data, n);
  b->len += n;
}

void buf_consume(struct buf *b, size_t n) {
  if (n >= b->len) {
    b->len = 0;
  } else {
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
  }
  /* Give memory back after a burst (a large HELLO replay). */
  if (b->len == 0 && b->cap > (1u << 20)) {
    free(b->data);
    b->data = NULL;
    b->cap = 0;
  }
}

void buf_free(struct buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

static void le32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

uint32_t get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

size_t frame_begin(struct buf *b, uint8_t type, uint32_t seq) {
  size_t start = b->len;
  uint8_t head[WIRE_HEADER];
  le32(head, 0);
  head[4] = type;
  le32(head + 5, seq);
  buf_append(b, head, sizeof head);
  return start;
}

void frame_end(struct buf *b, size_t start) {
  le32(b->data + start, (uint32_t)(b->len - start - 4));
}

void put_bytes(struct buf *b, uint16_t key, const void *data, size_t n) {
  uint8_t head[6] = {(uint8_t)key, (uint8_t)(key >> 8)};
  le32(head + 2, (uint32_t)n);
  buf_append(b, head, sizeof head);
  buf_append(b, data, n);
}

void put_u32(struct buf *b, uint16_t key, uint32_t v) {
  uint8_t p[4];
  le32(p, v);
  put_bytes(b, key, p, 4);
}

void put_i32(struct buf *b, uint16_t key, int32_t v) {
  put_u32(b, key, (uint32_t)v);
}

void put_u64(struct buf *b, uint16_t key, uint64_t v) {
  uint8_t p[8];
  le32(p, (uint32_t)v);
  le32(p + 4, (uint32_t)(v >> 32));
  put_bytes(b, key, p, 8);
}

void put_str(struct buf *b, uint16_t key, const char *s) {
  put_bytes(b, key, s, strlen(s));
}

int reader_next(struct reader *r, struct field *f) {
  if (r->left == 0) return 0;
  if (r->left < 6) return -1;
  f->key = (uint16_t)(r->p[0] | r->p[1] << 8);
  f->size = get_u32(r->p + 2);
  if (f->size > r->left - 6) return -1;
  f->value = r->p + 6;
  r->p += 6 + f->size;
  r->left -= 6 + f->size;
  return 1;
}

int field_u32(const struct field *f, uint32_t *out) {
  if (f->size != 4) return -1;
  *out = get_u32(f->value);
  return 0;
}

int field_i32(const struct field *f, int32_t *out) {
  uint32_t v;
  if (field_u32(f, &v) < 0) return -1;
  *out = (int32_t)v;
  return 0;
}

int field_u64(const struct field *f, uint64_t *out) {
  if (f->size != 8) return -1;
  *out = (uint64_t)get_u32(f->value) | (uint64_t)get_u32(f->value + 4) << 32;
  return 0;
}

char *field_cstr(const struct field *f) {
  if (memchr(f->value, '\0', f->size)) {
    errno = EINVAL;
    return NULL;
  }
  return xstrndup((const char *)f->value, f->size);
}

const char *field_name(uint16_t key) {
  static const char *const names[] = {
      [F_FILE] = "file", [F_ARG] = "arg", [F_ENV] = "env", [F_CWD] = "cwd", [F_STDOUT] = "stdout",
      [F_STDERR] = "stderr", [F_UID] = "uid", [F_GID] = "gid", [F_TAG] = "tag", [F_FLAGS] = "flags",
      [F_CGROUP] = "cgroup", [F_PID] = "pid", [F_SIGNO] = "signo", [F_GROUP] = "group", [F_SERIAL] = "serial",
      [F_STDIN] = "stdin", [F_GROUPS] = "groups", [F_FEATURES] = "features", [F_NOFILE] = "nofile",
  };
  if (key < sizeof names / sizeof names[0] && names[key]) return names[key];
  return "unknown";
}
