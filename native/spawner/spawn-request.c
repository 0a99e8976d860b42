/* SPAWN: decode the request, open the log files, start the child, record it, then answer. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "spawner.h"
#include "../common/process-setup.h"

struct strv {
  char **v;
  size_t n, cap;
};

static void strv_init(struct strv *s) {
  s->cap = 16;
  s->n = 0;
  s->v = xrealloc(NULL, s->cap * sizeof *s->v);
  s->v[0] = NULL;
}

static void strv_push(struct strv *s, char *str) {
  if (s->n + 2 > s->cap) {
    s->cap *= 2;
    s->v = xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = str;
  s->v[s->n] = NULL;
}

struct spawn_req {
  struct strv argv; /* argv[0] is the file as given */
  struct strv env;
  char *cwd, *in, *out, *err, *tag, *cgroup;
  uint32_t flags;
  int set_uid, set_gid;
  uint32_t uid, gid;
  gid_t *groups;
  size_t ngroups, groups_cap;
  int set_nofile;
  uint64_t nofile;
};

static void req_free(struct spawn_req *r) {
  free_strv(r->argv.v);
  free_strv(r->env.v);
  free(r->cwd);
  free(r->in);
  free(r->out);
  free(r->err);
  free(r->tag);
  free(r->cgroup);
  free(r->groups);
}

/* Reads one string field into *dst (a later duplicate is refused). 0, or -1 after replying. */
static int take_str(struct buf *out, uint32_t seq, const struct field *f, char **dst) {
  if (*dst) {
    reply_error(out, seq, EINVAL, STAGE_REQUEST, "field %s given twice", field_name(f->key));
    return -1;
  }
  *dst = field_cstr(f);
  if (!*dst) {
    reply_error(out, seq, EINVAL, STAGE_REQUEST, "%s contains a NUL byte", field_name(f->key));
    return -1;
  }
  return 0;
}

static int parse(struct buf *out, uint32_t seq, const uint8_t *body, size_t len, struct spawn_req *r) {
  struct reader rd = {body, len};
  struct field f;
  char *file = NULL;
  int got, rc = 0;
  size_t nargs = 0, nenv = 0;
  strv_init(&r->argv);
  strv_init(&r->env);
  strv_push(&r->argv, xstrndup("", 0)); /* argv[0], set from file below */
  while (rc == 0 && (got = reader_next(&rd, &f)) == 1) {
    char *s = NULL;
    switch (f.key) {
      case F_FILE: rc = take_str(out, seq, &f, &file); break;
      case F_CWD: rc = take_str(out, seq, &f, &r->cwd); break;
      case F_STDIN: rc = take_str(out, seq, &f, &r->in); break;
      case F_STDOUT: rc = take_str(out, seq, &f, &r->out); break;
      case F_STDERR: rc = take_str(out, seq, &f, &r->err); break;
      case F_TAG: rc = take_str(out, seq, &f, &r->tag); break;
      case F_ARG:
        nargs++;
        if (!(s = field_cstr(&f))) {
          reply_error(out, seq, EINVAL, STAGE_REQUEST, "argument %zu contains a NUL byte", nargs);
          rc = -1;
        } else strv_push(&r->argv, s);
        break;
      case F_ENV:
        nenv++;
        if (!(s = field_cstr(&f)) || !strchr(s, '=') || s[0] == '=') {
          reply_error(out, seq, EINVAL, STAGE_REQUEST, "environment entry %zu %s", nenv, s ? "is not NAME=value" : "contains a NUL byte");
          free(s);
          rc = -1;
        } else strv_push(&r->env, s);
        break;
      case F_UID:
      case F_GID: {
        uint32_t v;
        if (field_u32(&f, &v) < 0) {
          reply_error(out, seq, EINVAL, STAGE_REQUEST, "field %s must be 4 bytes", field_name(f.key));
          rc = -1;
        } else if (f.key == F_UID) r->uid = v, r->set_uid = 1;
        else r->gid = v, r->set_gid = 1;
        break;
      }
      case F_GROUPS: {
        uint32_t v;
        if (field_u32(&f, &v) < 0 || r->ngroups == SVC_MAX_GROUPS) {
          reply_error(out, seq, EINVAL, STAGE_REQUEST, "field groups: each must be 4 bytes, at most %d of them", SVC_MAX_GROUPS);
          rc = -1;
          break;
        }
        if (r->ngroups == r->groups_cap) {
          r->groups_cap = r->groups_cap ? 2 * r->groups_cap : 16;
          r->groups = xrealloc(r->groups, r->groups_cap * sizeof *r->groups);
        }
        r->groups[r->ngroups++] = (gid_t)v;
        break;
      }
      case F_NOFILE:
        if (field_u64(&f, &r->nofile) < 0 || r->nofile == 0) {
          reply_error(out, seq, EINVAL, STAGE_REQUEST, "field nofile must be 8 bytes and above 0");
          rc = -1;
        } else r->set_nofile = 1;
        break;
      case F_FLAGS:
        if (field_u32(&f, &r->flags) < 0 || (r->flags & ~SPAWN_KNOWN_FLAGS)) {
          reply_error(out, seq, EINVAL, STAGE_REQUEST, "field flags: unknown or malformed");
          rc = -1;
        }
        break;
      case F_CGROUP: rc = take_str(out, seq, &f, &r->cgroup); break;
      default:
        reply_error(out, seq, EINVAL, STAGE_REQUEST, "unknown field %u in a spawn request", f.key);
        rc = -1;
    }
  }
  if (rc == 0 && got < 0) {
    reply_error(out, seq, EINVAL, STAGE_REQUEST, "malformed spawn request: a field runs past the frame");
    rc = -1;
  }
  if (rc == 0 && (!file || !file[0] || !r->cwd)) {
    reply_error(out, seq, EINVAL, STAGE_REQUEST, "a spawn request needs file and cwd");
    rc = -1;
  }
  if (file) {
    free(r->argv.v[0]);
    r->argv.v[0] = file;
  }
  return rc;
}

static void mkdir_parents(const char *path) {
  char *copy = xstrndup(path, strlen(path));
  for (char *p = copy + 1; (p = strchr(p, '/')); p++) {
    *p = '\0';
    mkdir(copy, 0777); /* EEXIST and the like show up when the file is opened */
    *p = '/';
  }
  free(copy);
}

static int open_log(const char *path) {
  int flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY;
  int fd = open(path, flags, 0640);
  if (fd >= 0 || errno != ENOENT) return fd;
  mkdir_parents(path); /* only when a directory is missing: one syscall per spawn otherwise */
  return open(path, flags, 0640);
}

uint64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Opens fds 0, 1 and 2 for the child: the stdin file (read-only), log files or a capture pipe;
 * -1 = /dev/null. */
static int open_outputs(struct buf *out, uint32_t seq, const struct spawn_req *r, int fds[3], int *capture) {
  fds[0] = fds[1] = fds[2] = -1;
  *capture = -1;
  if (r->in && (fds[0] = open(r->in, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0) {
    reply_error(out, seq, errno, STAGE_STDIN, "%s: %s", r->in, strerror(errno));
    return -1;
  }
  if (r->flags & SPAWN_CAPTURE) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
      reply_error(out, seq, errno, STAGE_PIPE, "pipe: %s", strerror(errno));
      return -1;
    }
    *capture = p[0];
    fds[1] = fds[2] = p[1];
    return 0;
  }
  if (r->out && (fds[1] = open_log(r->out)) < 0) {
    reply_error(out, seq, errno, STAGE_STDOUT, "%s: %s", r->out, strerror(errno));
    return -1;
  }
  if (r->err && r->out && strcmp(r->err, r->out) == 0) fds[2] = fds[1];
  else if (r->err && (fds[2] = open_log(r->err)) < 0) {
    reply_error(out, seq, errno, STAGE_STDERR, "%s: %s", r->err, strerror(errno));
    return -1;
  }
  return 0;
}

/*
 * The cgroup.procs of a cgroup directory, opened by the spawner so that a missing or forbidden
 * cgroup fails the request at once; the child writes "0" to it (itself) after setsid. O_CREAT
 * as `echo 0 > cgroup.procs` does: on cgroupfs the file is always there.
 */
static int open_cgroup_procs(const char *dir) {
  size_t n = strlen(dir);
  char *path = xrealloc(NULL, n + sizeof "/cgroup.procs");
  memcpy(path, dir, n);
  memcpy(path + n, "/cgroup.procs", sizeof "/cgroup.procs");
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
  int err = errno;
  free(path);
  errno = err;
  return fd;
}

static void close_outputs(int fds[3]) {
  if (fds[0] >= 0) close(fds[0]);
  if (fds[1] >= 0) close(fds[1]);
  if (fds[2] >= 0 && fds[2] != fds[1]) close(fds[2]);
}

void handle_spawn(struct buf *out, uint32_t seq, const uint8_t *body, size_t len) {
  struct spawn_req r;
  memset(&r, 0, sizeof r);
  int fds[3], capture = -1;
  char **paths = NULL;
  if (parse(out, seq, body, len, &r) < 0) goto done;
  if (open_outputs(out, seq, &r, fds, &capture) < 0) {
    close_outputs(fds);
    if (capture >= 0) close(capture);
    goto done;
  }
  int procs = -1;
  if (r.cgroup && (procs = open_cgroup_procs(r.cgroup)) < 0) {
    reply_error(out, seq, errno, STAGE_CGROUP, "cgroup %s: %s", r.cgroup, strerror(errno));
    close_outputs(fds);
    if (capture >= 0) close(capture);
    goto done;
  }
  paths = exec_candidates(r.argv.v[0], r.env.v);
  struct launch l = {
      .argv = r.argv.v, .envp = r.env.v, .paths = paths, .cwd = r.cwd,
      .fd0 = fds[0] >= 0 ? fds[0] : S.nullfd, .fd1 = fds[1] >= 0 ? fds[1] : S.nullfd, .fd2 = fds[2] >= 0 ? fds[2] : S.nullfd,
      .set_uid = r.set_uid, .set_gid = r.set_gid, .uid = r.uid, .gid = r.gid, .groups = r.groups, .ngroups = r.ngroups,
      .errfd = S.method == METHOD_FORK ? S.errpipe[1] : -1, .cgroup_procs = procs,
      .set_nofile = r.set_nofile, .nofile = r.nofile,
  };
  struct launch_error e;
  pid_t pid = launch(S.method, &l, &e);
  close_outputs(fds);
  if (procs >= 0) close(procs);
  if (pid < 0) {
    if (capture >= 0) close(capture);
    const char *subject = e.stage == STAGE_CHDIR ? r.cwd : e.stage == STAGE_CGROUP ? r.cgroup : r.argv.v[0];
    reply_error(out, seq, e.err, e.stage, "%s %s: %s", stage_name(e.stage), subject, strerror(e.err));
    goto done;
  }
  /* Recorded before the answer: a daemon that dies now finds this child on reconnect. */
  struct child *c = child_add(pid);
  c->start_time = proc_start_time(pid);
  c->started_at_ms = now_ms();
  c->flags = r.flags;
  c->tag = r.tag ? r.tag : xstrndup("", 0);
  r.tag = NULL;
  if (capture >= 0) {
    c->capture_fd = capture;
    if (watch_capture(capture, pid) < 0) {
      close(capture);
      c->capture_fd = -1;
    }
  }
  size_t f = frame_begin(out, MSG_SPAWNED, seq);
  put_i32(out, F_PID, pid);
  put_u64(out, F_START_TIME, c->start_time);
  put_u64(out, F_STARTED_AT, c->started_at_ms);
  frame_end(out, f);
done:
  free_strv(paths);
  req_free(&r);
}
