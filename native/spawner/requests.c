/* Dispatch of one request frame, and the answers other than SPAWNED. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "spawner.h"

void reply_ok(struct buf *out, uint32_t seq) {
  if (seq == 0) return; /* seq 0: fire and forget, answered only on error */
  frame_end(out, frame_begin(out, MSG_OK, seq));
}

void reply_error(struct buf *out, uint32_t seq, int err, int stage, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t f = frame_begin(out, MSG_ERROR, seq);
  put_i32(out, F_ERRNO, err);
  put_u32(out, F_STAGE, (uint32_t)stage);
  put_str(out, F_MESSAGE, msg);
  frame_end(out, f);
}

void encode_exit(struct buf *out, const struct exit_rec *e) {
  size_t f = frame_begin(out, MSG_EXIT, 0);
  put_u64(out, F_SERIAL, e->serial);
  put_i32(out, F_PID, e->pid);
  put_u64(out, F_START_TIME, e->start_time);
  put_u64(out, F_STARTED_AT, e->started_at_ms);
  put_u64(out, F_ENDED_AT, e->ended_at_ms);
  put_str(out, F_TAG, e->tag);
  put_i32(out, F_CODE, e->code);
  put_i32(out, F_SIGNO, e->signo);
  put_u64(out, F_UTIME_US, e->utime_us);
  put_u64(out, F_STIME_US, e->stime_us);
  put_u64(out, F_MAXRSS_KB, e->maxrss_kb);
  if (e->output) put_bytes(out, F_OUTPUT, e->output, e->output_len);
  if (e->fail_err) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s: %s", stage_name(e->fail_stage), strerror(e->fail_err));
    put_i32(out, F_ERRNO, e->fail_err);
    put_u32(out, F_STAGE, (uint32_t)e->fail_stage);
    put_str(out, F_MESSAGE, msg);
  }
  frame_end(out, f);
}

static void encode_live(struct child *c, void *ctx) {
  struct buf *out = ctx;
  size_t f = frame_begin(out, MSG_LIVE, 0);
  put_i32(out, F_PID, c->pid);
  put_u64(out, F_START_TIME, c->start_time);
  put_u64(out, F_STARTED_AT, c->started_at_ms);
  put_str(out, F_TAG, c->tag);
  frame_end(out, f);
}

/* HELLO: this connection becomes the daemon's; replay what the spawner kept, then OK. */
static void handle_hello(int conn, struct buf *out, uint32_t seq, const uint8_t *body, size_t len) {
  struct reader rd = {body, len};
  struct field f;
  uint32_t version = 0;
  while (reader_next(&rd, &f) == 1)
    if (f.key == F_VERSION) field_u32(&f, &version);
  if (version != WIRE_VERSION) {
    reply_error(out, seq, EPROTO, STAGE_REQUEST, "protocol version %u is not supported (this spawner speaks %d)", version, WIRE_VERSION);
    return;
  }
  conn_activate(conn);
  S.bye = 0;
  child_each(encode_live, out);
  for (struct exit_rec *e = exits_head(); e; e = e->next) encode_exit(out, e);
  size_t fr = frame_begin(out, MSG_OK, seq);
  put_u32(out, F_VERSION, WIRE_VERSION);
  put_u32(out, F_FEATURES, WIRE_FEATURES);
  put_i32(out, F_PID, getpid());
  put_u64(out, F_LIVE, child_count());
  put_u64(out, F_HELD, exits_count());
  frame_end(out, fr);
}

/* SIGNAL: only to a live child of ours, so a reused pid is never hit. */
static void handle_signal(struct buf *out, uint32_t seq, const uint8_t *body, size_t len) {
  struct reader rd = {body, len};
  struct field f;
  int32_t pid = 0, signo = -1;
  uint32_t group = 0;
  int got, bad = 0;
  while ((got = reader_next(&rd, &f)) == 1) {
    if (f.key == F_PID) bad |= field_i32(&f, &pid);
    else if (f.key == F_SIGNO) bad |= field_i32(&f, &signo);
    else if (f.key == F_GROUP) bad |= field_u32(&f, &group);
    else bad = -1;
  }
  if (got < 0 || bad || pid <= 0 || signo < 0 || signo >= NSIG) {
    reply_error(out, seq, EINVAL, STAGE_REQUEST, "a signal request needs pid > 0 and a signal number");
    return;
  }
  if (!child_find(pid)) {
    reply_error(out, seq, ESRCH, STAGE_REQUEST, "pid %d is not a running child of the spawner", pid);
    return;
  }
  int rc = kill(group ? -pid : pid, signo);
  if (rc < 0 && errno == ESRCH && group) rc = kill(pid, signo); /* the leader left its group */
  if (rc < 0) reply_error(out, seq, errno, STAGE_REQUEST, "kill %d: %s", group ? -pid : pid, strerror(errno));
  else reply_ok(out, seq);
}

static void handle_ack(struct buf *out, uint32_t seq, const uint8_t *body, size_t len) {
  struct reader rd = {body, len};
  struct field f;
  uint64_t serial = 0;
  int got, bad = 0;
  while ((got = reader_next(&rd, &f)) == 1) bad |= f.key == F_SERIAL ? field_u64(&f, &serial) : -1;
  if (got < 0 || bad) {
    reply_error(out, seq, EINVAL, STAGE_REQUEST, "an ack needs one 8-byte serial");
    return;
  }
  exits_ack(serial);
  reply_ok(out, seq);
}

void handle_frame(int conn, struct buf *out, uint8_t type, uint32_t seq, const uint8_t *body, size_t len) {
  if (type == MSG_HELLO) {
    handle_hello(conn, out, seq, body, len);
    return;
  }
  if (active_out() != out) {
    reply_error(out, seq, EPROTO, STAGE_REQUEST, "send HELLO first");
    return;
  }
  switch (type) {
    case MSG_SPAWN: handle_spawn(out, seq, body, len); break;
    case MSG_SIGNAL: handle_signal(out, seq, body, len); break;
    case MSG_ACK: handle_ack(out, seq, body, len); break;
    case MSG_BYE:
      S.bye = 1;
      reply_ok(out, seq);
      break;
    default: reply_error(out, seq, EINVAL, STAGE_REQUEST, "unknown request type %u", type);
  }
}
