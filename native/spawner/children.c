#include "children.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire.h"

enum {
  BUCKETS = 4096,
  /* Held exits beyond this (no daemon acknowledging for a long time) drop the oldest. */
  MAX_HELD = 100000,
};

static struct child *buckets[BUCKETS];
static size_t live;

static struct child **slot(pid_t pid) {
  return &buckets[(unsigned)pid % BUCKETS];
}

struct child *child_add(pid_t pid) {
  struct child *c = xrealloc(NULL, sizeof *c);
  memset(c, 0, sizeof *c);
  c->pid = pid;
  c->capture_fd = -1;
  c->next = *slot(pid);
  *slot(pid) = c;
  live++;
  return c;
}

struct child *child_find(pid_t pid) {
  for (struct child *c = *slot(pid); c; c = c->next)
    if (c->pid == pid) return c;
  return NULL;
}

struct child *child_take(pid_t pid) {
  for (struct child **p = slot(pid); *p; p = &(*p)->next) {
    if ((*p)->pid != pid) continue;
    struct child *c = *p;
    *p = c->next;
    c->next = NULL;
    live--;
    return c;
  }
  return NULL;
}

void child_free(struct child *c) {
  if (!c) return;
  if (c->capture_fd >= 0) close(c->capture_fd);
  free(c->tag);
  free(c);
}

size_t child_count(void) {
  return live;
}

void child_each(void (*fn)(struct child *c, void *ctx), void *ctx) {
  for (size_t i = 0; i < BUCKETS; i++) {
    struct child *next;
    for (struct child *c = buckets[i]; c; c = next) {
      next = c->next; /* fn may take and free c */
      fn(c, ctx);
    }
  }
}

static struct exit_rec *head, *tail;
static size_t held;
static uint64_t serial = 1;

static void exit_free(struct exit_rec *e) {
  free(e->tag);
  free(e->output);
  free(e);
}

void exits_push(struct exit_rec *e) {
  e->serial = serial++;
  e->next = NULL;
  if (tail) tail->next = e;
  else head = e;
  tail = e;
  if (++held > MAX_HELD) {
    struct exit_rec *old = head;
    fprintf(stderr, "svc-spawner: more than %d exits unacknowledged; dropping the exit of pid %d\n", MAX_HELD, (int)old->pid);
    head = old->next;
    held--;
    exit_free(old);
  }
}

struct exit_rec *exits_head(void) {
  return head;
}

size_t exits_count(void) {
  return held;
}

uint64_t exits_next_serial(void) {
  return serial;
}

void exits_ack(uint64_t upto) {
  while (head && head->serial <= upto) {
    struct exit_rec *e = head;
    head = e->next;
    held--;
    exit_free(e);
  }
  if (!head) tail = NULL;
}

void exits_clear(void) {
  exits_ack(UINT64_MAX);
}
