/* State and helpers shared by the spawner's files (one process, one thread, one epoll loop). */
#ifndef SPAWNER_SPAWNER_H
#define SPAWNER_SPAWNER_H

#include <stdint.h>
#include <sys/types.h>

#include "children.h"
#include "launch.h"
#include "wire.h"

struct spawner {
  int epfd;
  int nullfd; /* /dev/null, stdin of every child */
  int errpipe[2]; /* forked children that fail to exec report here (struct child_failure) */
  enum launch_method method;
  int bye;       /* the daemon said goodbye: exit once no child is left */
  int terminate; /* SIGTERM/SIGINT: the same */
  uint64_t orphans_reaped;
};

extern struct spawner S;

/* The connected daemon's output buffer, or NULL when none is connected. */
struct buf *active_out(void);

/* requests.c */
void handle_frame(int conn, struct buf *out, uint8_t type, uint32_t seq, const uint8_t *body, size_t len);
void reply_ok(struct buf *out, uint32_t seq);
__attribute__((format(printf, 5, 6))) void reply_error(struct buf *out, uint32_t seq, int err, int stage, const char *fmt, ...);
void encode_exit(struct buf *out, const struct exit_rec *e);

/* spawn-request.c */
void handle_spawn(struct buf *out, uint32_t seq, const uint8_t *body, size_t len);

/* spawn-request.c: the wall clock in ms since the epoch (STARTED_AT, ENDED_AT). */
uint64_t now_ms(void);

/* reap.c */
void reap_children(void);
void capture_readable(pid_t pid);

/* main.c */
void conn_activate(int conn);
int watch_capture(int fd, pid_t pid);

#endif
