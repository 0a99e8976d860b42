/* What the spawner remembers: its live children (by pid) and the exits not yet acknowledged. */
#ifndef SPAWNER_CHILDREN_H
#define SPAWNER_CHILDREN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum { CAPTURE_MAX = 512 };

struct child {
  struct child *next; /* hash chain */
  pid_t pid;
  uint64_t start_time;    /* /proc/<pid>/stat field 22, clock ticks since boot */
  uint64_t started_at_ms; /* wall clock at spawn */
  uint32_t flags;         /* SPAWN_* */
  char *tag;
  int capture_fd; /* read end of the output pipe, or -1 */
  int32_t fail_err, fail_stage; /* set when a forked child reported that it could not exec */
  size_t capture_len;
  char capture[CAPTURE_MAX];
};

struct exit_rec {
  struct exit_rec *next;
  uint64_t serial;
  pid_t pid;
  uint64_t start_time;
  uint64_t started_at_ms;
  uint64_t ended_at_ms; /* when it was reaped, ms since the epoch: a daemon that was away learns when */
  char *tag;
  int32_t code;  /* exit status, or -1 when killed by a signal */
  int32_t signo; /* 0 unless killed by a signal */
  uint64_t utime_us, stime_us, maxrss_kb;
  int32_t fail_err, fail_stage; /* never exec'd: why (0 = it ran) */
  size_t output_len;
  char *output;
};

struct child *child_add(pid_t pid); /* zeroed record, capture_fd -1 */
struct child *child_find(pid_t pid);
/* Unlinks the record; the caller frees it with child_free. */
struct child *child_take(pid_t pid);
void child_free(struct child *c);
size_t child_count(void);
/* Calls fn for every live child (in no particular order). */
void child_each(void (*fn)(struct child *c, void *ctx), void *ctx);

/* Exits wait here, oldest first, until acknowledged. The queue owns the record. */
void exits_push(struct exit_rec *e);
struct exit_rec *exits_head(void);
size_t exits_count(void);
uint64_t exits_next_serial(void);
/* Drops every exit with serial <= upto. */
void exits_ack(uint64_t upto);
void exits_clear(void);

#endif
