/* The framed protocol between svcd and svc-spawner (see PROTOCOL.md): buffers, frames, fields. */
#ifndef SPAWNER_WIRE_H
#define SPAWNER_WIRE_H

#include <stddef.h>
#include <stdint.h>

enum {
  WIRE_VERSION = 1,
  /* u32 length + u8 type + u32 seq */
  WIRE_HEADER = 9,
  WIRE_MAX_FRAME = 4 << 20,
};

enum msg_type {
  MSG_HELLO = 1,
  MSG_SPAWN = 2,
  MSG_SIGNAL = 3,
  MSG_ACK = 4,
  MSG_BYE = 5,
  MSG_OK = 16,
  MSG_SPAWNED = 17,
  MSG_ERROR = 18,
  MSG_LIVE = 19,
  MSG_EXIT = 20,
};

enum field_key {
  F_FILE = 1,
  F_ARG = 2,
  F_ENV = 3,
  F_CWD = 4,
  F_STDOUT = 5,
  F_STDERR = 6,
  F_UID = 7,
  F_GID = 8,
  F_TAG = 9,
  F_FLAGS = 10,
  F_CGROUP = 11,
  F_PID = 12,
  F_SIGNO = 13,
  F_GROUP = 14,
  F_SERIAL = 15,
  F_START_TIME = 16,
  F_STARTED_AT = 17,
  F_CODE = 18,
  F_UTIME_US = 19,
  F_STIME_US = 20,
  F_MAXRSS_KB = 21,
  F_OUTPUT = 22,
  F_ERRNO = 23,
  F_STAGE = 24,
  F_MESSAGE = 25,
  F_VERSION = 26,
  F_LIVE = 27,
  F_HELD = 28,
  F_STDIN = 29,
  F_ENDED_AT = 30,
  F_GROUPS = 31,
  F_FEATURES = 32,
  F_NOFILE = 33,
};

/* What this spawner understands beyond version 1's first fields, sent in HELLO's OK (FEATURES):
 * a newer svcd leaves out what an older spawner, still running its programs, would refuse. */
enum {
  FEATURE_GROUPS = 1u << 0,
  FEATURE_NOFILE = 1u << 1,
  WIRE_FEATURES = FEATURE_GROUPS | FEATURE_NOFILE,
};

/* SPAWN flags */
enum {
  SPAWN_KILL_GROUP_ON_EXIT = 1u << 0,
  SPAWN_CAPTURE = 1u << 1,
  SPAWN_KNOWN_FLAGS = SPAWN_KILL_GROUP_ON_EXIT | SPAWN_CAPTURE,
};

struct buf {
  uint8_t *data;
  size_t len;
  size_t cap;
};

void *xrealloc(void *p, size_t size);
char *xstrndup(const char *s, size_t n);
void buf_reserve(struct buf *b, size_t extra);
void buf_append(struct buf *b, const void *data, size_t n);
void buf_consume(struct buf *b, size_t n);
void buf_free(struct buf *b);

uint32_t get_u32(const uint8_t *p);

/* Frames are written in place: begin, fields, end (which fills in the length). */
size_t frame_begin(struct buf *b, uint8_t type, uint32_t seq);
void frame_end(struct buf *b, size_t start);
void put_u32(struct buf *b, uint16_t key, uint32_t v);
void put_i32(struct buf *b, uint16_t key, int32_t v);
void put_u64(struct buf *b, uint16_t key, uint64_t v);
void put_bytes(struct buf *b, uint16_t key, const void *data, size_t n);
void put_str(struct buf *b, uint16_t key, const char *s);

struct field {
  uint16_t key;
  uint32_t size;
  const uint8_t *value;
};

struct reader {
  const uint8_t *p;
  size_t left;
};

/* 1: a field was read; 0: end of body; -1: the body ends inside a field. */
int reader_next(struct reader *r, struct field *f);
/* 0 on success, -1 when the field does not have the integer's size. */
int field_u32(const struct field *f, uint32_t *out);
int field_i32(const struct field *f, int32_t *out);
int field_u64(const struct field *f, uint64_t *out);
/* A NUL-terminated copy; NULL (and errno EINVAL) when the value holds a NUL byte. */
char *field_cstr(const struct field *f);
const char *field_name(uint16_t key);

#endif
