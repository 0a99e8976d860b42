/* Reaping: every exit of a child becomes a held exit record, sent to the daemon if connected. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawner.h"

/* Keeps the first CAPTURE_MAX bytes of a capture pipe, reads (and drops) the rest. */
static void drain(struct child *c) {
  char scratch[4096];
  for (;;) {
    char *dst = c->capture_len < CAPTURE_MAX ? c->capture + c->capture_len : scratch;
    size_t room = c->capture_len < CAPTURE_MAX ? CAPTURE_MAX - c->capture_len : sizeof scratch;
    ssize_t n = read(c->capture_fd, dst, room);
    if (n > 0) {
      if (dst != scratch) c->capture_len += (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 || errno != EAGAIN) {
      close(c->capture_fd); /* also leaves the epoll set */
      c->capture_fd = -1;
    }
    return;
  }
}

void capture_readable(pid_t pid) {
  struct child *c = child_find(pid);
  if (c && c->capture_fd >= 0) drain(c);
}

static uint64_t tv_us(struct timeval tv) {
  return (uint64_t)tv.tv_sec * 1000000 + (uint64_t)tv.tv_usec;
}

static void record_exit(struct child *c, int status, const struct rusage *ru) {
  /* systemd's control-group mode for a process group: the leader's end ends the rest. */
  if (c->flags & SPAWN_KILL_GROUP_ON_EXIT) kill(-c->pid, SIGKILL);
  struct exit_rec *e = xrealloc(NULL, sizeof *e);
  memset(e, 0, sizeof *e);
  e->pid = c->pid;
  e->start_time = c->start_time;
  e->started_at_ms = c->started_at_ms;
  e->ended_at_ms = now_ms();
  e->tag = c->tag;
  c->tag = NULL;
  e->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  e->signo = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  e->utime_us = tv_us(ru->ru_utime);
  e->stime_us = tv_us(ru->ru_stime);
  e->maxrss_kb = (uint64_t)ru->ru_maxrss;
  e->fail_err = c->fail_err;
  e->fail_stage = c->fail_stage;
  if (c->flags & SPAWN_CAPTURE) {
    /* What is in the pipe now; a grandchild holding it open does not delay the exit. */
    if (c->capture_fd >= 0) drain(c);
    e->output = xstrndup(c->capture, c->capture_len);
    e->output_len = c->capture_len;
  }
  exits_push(e);
  struct buf *out = active_out();
  if (out) encode_exit(out, e);
}

/* Written by a child before its _exit, so read before its exit is recorded. */
static void read_failures(void) {
  struct child_failure f;
  while (read(S.errpipe[0], &f, sizeof f) == (ssize_t)sizeof f) {
    struct child *c = child_find(f.pid);
    if (c) {
      c->fail_err = f.err;
      c->fail_stage = f.stage;
    }
  }
}

void reap_children(void) {
  read_failures();
  for (;;) {
    int status;
    struct rusage ru;
    pid_t pid = wait4(-1, &status, WNOHANG, &ru);
    if (pid < 0 && errno == EINTR) continue;
    if (pid <= 0) return; /* 0: none ready; ECHILD: no children at all */
    struct child *c = child_take(pid);
    if (!c) {
      S.orphans_reaped++; /* a grandchild reparented to us as the subreaper */
      continue;
    }
    record_exit(c, status, &ru);
    child_free(c);
  }
}
