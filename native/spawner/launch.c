#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/process-setup.h"
#include "wire.h"

enum { CHILD_STACK = 64 * 1024 };

struct child_ctx {
  const struct launch *l;
  /* /bin/sh, <the file>, argv[1..]: execvp's rule for a file without a #! line (as Node does). */
  char **sh_argv;
  /* Written by the child in the shared address space (CLONE_VM) before it exits. */
  volatile int err;
  volatile int stage;
};

static _Alignas(16) char child_stack[CHILD_STACK];

/*
 * Runs in the child, on child_stack, sharing the spawner's memory until execve. Only
 * async-signal-safe calls; no allocation. Signal dispositions are the child's own (no
 * CLONE_SIGHAND), so resetting SIGPIPE here does not touch the spawner. SIGPIPE is the only
 * signal the spawner ignores (main.c resets the rest at start) and the only one exec would keep.
 */
__attribute__((no_sanitize("address", "undefined"))) static int child_main(void *arg) {
  struct child_ctx *c = arg;
  const struct launch *l = c->l;
  int stage = STAGE_SETSID;
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGPIPE, &dfl, NULL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  if (setsid() < 0) goto fail;
  /* Into the program's cgroup before its first instruction: its children are born inside. */
  stage = STAGE_CGROUP;
  if (l->cgroup_procs >= 0 && write(l->cgroup_procs, "0", 1) != 1) goto fail;
  stage = STAGE_RLIMIT;
  if (l->set_nofile && set_open_files_limit(l->nofile) < 0) goto fail;
  stage = STAGE_DUP;
  if (dup2(l->fd0, 0) < 0 || dup2(l->fd1, 1) < 0 || dup2(l->fd2, 2) < 0) goto fail;
  stage = STAGE_CHDIR;
  if (l->cwd && chdir(l->cwd) < 0) goto fail;
  stage = STAGE_SETGROUPS;
  /* The user's groups, as initgroups would set them. None: as libuv (only root can, and only root
   * needs it), so a failure to drop them is not one. */
  if ((l->set_uid || l->set_gid) && setgroups(l->ngroups, l->groups) < 0 && l->ngroups > 0) goto fail;
  stage = STAGE_SETGID;
  if (l->set_gid && setgid(l->gid) < 0) goto fail;
  stage = STAGE_SETUID;
  if (l->set_uid && setuid(l->uid) < 0) goto fail;
  stage = STAGE_EXEC;
  int saw_eacces = 0;
  for (char *const *p = l->paths; *p; p++) {
    execve(*p, l->argv, l->envp);
    if (errno == ENOEXEC) {
      c->sh_argv[1] = *p;
      execve("/bin/sh", c->sh_argv, l->envp);
      break;
    }
    if (errno == EACCES) saw_eacces = 1;
    else if (errno != ENOENT && errno != ENOTDIR) break;
  }
  if (saw_eacces && (errno == ENOENT || errno == ENOTDIR)) errno = EACCES;
fail:
  c->err = errno ? errno : EINVAL;
  c->stage = stage;
  if (l->errfd >= 0) {
    /* A forked child shares no memory with the spawner: tell it through the pipe. */
    struct child_failure f = {.pid = getpid(), .err = c->err, .stage = stage};
    ssize_t ignored = write(l->errfd, &f, sizeof f);
    (void)ignored;
  }
  _exit(127);
}

static pid_t launch_clone(const struct launch *l, char **sh_argv, struct launch_error *e) {
  struct child_ctx ctx = {.l = l, .sh_argv = sh_argv, .err = 0, .stage = STAGE_NONE};
  pid_t pid = clone(child_main, child_stack + CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &ctx);
  if (pid < 0) {
    e->err = errno;
    e->stage = STAGE_CLONE;
    return -1;
  }
  /* CLONE_VFORK: we resume only once the child has exec'd or exited. */
  if (ctx.err) {
    e->err = ctx.err;
    e->stage = ctx.stage;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    return -1;
  }
  return pid;
}

/* The path execvp would run, checked now so that the usual failures are answered at once. */
static char *resolve_exec(const struct launch *l, struct launch_error *e) {
  int saw_eacces = 0;
  for (char *const *p = l->paths; *p; p++) {
    char *full = NULL;
    if ((*p)[0] != '/' && l->cwd) {
      /* Relative to the cwd the child will have (execve after chdir). */
      size_t a = strlen(l->cwd), b = strlen(*p);
      full = xrealloc(NULL, a + 1 + b + 1);
      memcpy(full, l->cwd, a);
      full[a] = '/';
      memcpy(full + a + 1, *p, b + 1);
    }
    struct stat st;
    const char *path = full ? full : *p;
    int ok = stat(path, &st) == 0;
    int err = ok ? (S_ISREG(st.st_mode) ? (access(path, X_OK) == 0 ? 0 : errno) : EACCES) : errno;
    free(full);
    if (err == 0) return xstrndup(*p, strlen(*p));
    if (err == EACCES) saw_eacces = 1;
    else if (err != ENOENT && err != ENOTDIR) {
      e->err = err;
      e->stage = STAGE_EXEC;
      return NULL;
    }
  }
  e->err = saw_eacces ? EACCES : ENOENT;
  e->stage = STAGE_EXEC;
  return NULL;
}

static pid_t launch_fork(const struct launch *l, char **sh_argv, struct launch_error *e) {
  struct stat st;
  if (l->cwd) {
    int err = stat(l->cwd, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
    if (err) {
      e->err = err;
      e->stage = STAGE_CHDIR;
      return -1;
    }
  }
  char *exe = resolve_exec(l, e);
  if (!exe) return -1;
  char *paths[] = {exe, NULL};
  struct launch resolved = *l;
  resolved.paths = paths;
  struct child_ctx ctx = {.l = &resolved, .sh_argv = sh_argv, .err = 0, .stage = STAGE_NONE};
  pid_t pid = fork();
  if (pid == 0) child_main(&ctx); /* does not return */
  free(exe);
  if (pid < 0) {
    e->err = errno;
    e->stage = STAGE_CLONE;
  }
  return pid;
}

static pid_t launch_posix(const struct launch *l, struct launch_error *e) {
  if (l->cgroup_procs >= 0) {
    e->err = ENOTSUP;
    e->stage = STAGE_CGROUP;
    return -1;
  }
  if (l->set_uid || l->set_gid) {
    e->err = ENOTSUP;
    e->stage = STAGE_SETUID;
    return -1;
  }
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_init(&fa);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawn_file_actions_adddup2(&fa, l->fd0, 0);
  posix_spawn_file_actions_adddup2(&fa, l->fd1, 1);
  posix_spawn_file_actions_adddup2(&fa, l->fd2, 2);
  if (l->cwd) posix_spawn_file_actions_addchdir_np(&fa, l->cwd);
  pid_t pid = -1;
  int err = ENOENT, saw_eacces = 0;
  /* No hook between fork and exec: the child inherits the limit the spawner has meanwhile. */
  struct rlimit own;
  int lowered = l->set_nofile && getrlimit(RLIMIT_NOFILE, &own) == 0 && set_open_files_limit(l->nofile) == 0;
  for (char *const *p = l->paths; *p; p++) {
    err = posix_spawn(&pid, *p, &fa, &attr, l->argv, l->envp);
    if (err == 0) break;
    if (err == EACCES) saw_eacces = 1;
    else if (err != ENOENT && err != ENOTDIR) break;
  }
  if (lowered) setrlimit(RLIMIT_NOFILE, &own);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (err == 0) return pid;
  e->err = saw_eacces && (err == ENOENT || err == ENOTDIR) ? EACCES : err;
  e->stage = STAGE_EXEC; /* posix_spawn does not say whether chdir or exec failed */
  return -1;
}

static char **sh_argv_for(const struct launch *l) {
  size_t n = 0;
  while (l->argv[n]) n++;
  char **v = xrealloc(NULL, (n + 2) * sizeof *v);
  v[0] = "/bin/sh";
  v[1] = NULL; /* the file, filled in by the child */
  for (size_t i = 1; i <= n; i++) v[i + 1] = l->argv[i];
  return v;
}

pid_t launch(enum launch_method method, const struct launch *l, struct launch_error *e) {
  e->err = 0;
  e->stage = STAGE_NONE;
  if (method == METHOD_POSIX_SPAWN) return launch_posix(l, e);
  char **sh_argv = sh_argv_for(l);
  pid_t pid = method == METHOD_CLONE ? launch_clone(l, sh_argv, e) : launch_fork(l, sh_argv, e);
  free(sh_argv);
  return pid;
}

char **exec_candidates(const char *file, char *const *envp) {
  size_t flen = strlen(file);
  if (strchr(file, '/')) {
    char **v = xrealloc(NULL, 2 * sizeof *v);
    v[0] = xstrndup(file, flen);
    v[1] = NULL;
    return v;
  }
  const char *path = "/usr/bin:/bin"; /* libuv's default when the child has no PATH */
  for (char *const *e = envp; *e; e++)
    if (strncmp(*e, "PATH=", 5) == 0) path = *e + 5;
  size_t n = 1;
  for (const char *p = path; *p; p++) n += *p == ':';
  char **v = xrealloc(NULL, (n + 1) * sizeof *v);
  size_t i = 0;
  for (const char *p = path;; i++) {
    const char *end = strchrnul(p, ':');
    size_t dlen = (size_t)(end - p);
    const char *dir = dlen ? p : ".";
    if (!dlen) dlen = 1;
    char *full = xrealloc(NULL, dlen + 1 + flen + 1);
    memcpy(full, dir, dlen);
    full[dlen] = '/';
    memcpy(full + dlen + 1, file, flen + 1);
    v[i] = full;
    if (!*end) break;
    p = end + 1;
  }
  v[i + 1] = NULL;
  return v;
}

void free_strv(char **v) {
  if (!v) return;
  for (char **p = v; *p; p++) free(*p);
  free(v);
}

uint64_t proc_start_time(pid_t pid) {
  char path[64], text[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  char *p = strrchr(text, ')');
  if (!p) return 0;
  /* After ") " comes field 3; field 22 is 19 spaces further. */
  p += 2;
  for (int field = 3; field < 22 && p; field++) {
    p = strchr(p, ' ');
    if (p) p++;
  }
  return p ? strtoull(p, NULL, 10) : 0;
}

const char *stage_name(int stage) {
  static const char *const names[] = {
      [STAGE_NONE] = "spawn", [STAGE_REQUEST] = "request", [STAGE_STDOUT] = "stdout log file",
      [STAGE_STDERR] = "stderr log file", [STAGE_PIPE] = "pipe", [STAGE_CLONE] = "clone",
      [STAGE_SETSID] = "setsid", [STAGE_DUP] = "dup2", [STAGE_CHDIR] = "chdir",
      [STAGE_SETGROUPS] = "setgroups", [STAGE_SETGID] = "setgid", [STAGE_SETUID] = "setuid",
      [STAGE_EXEC] = "exec", [STAGE_CGROUP] = "cgroup", [STAGE_STDIN] = "stdin file",
      [STAGE_RLIMIT] = "setrlimit",
  };
  if (stage >= 0 && (size_t)stage < sizeof names / sizeof names[0] && names[stage]) return names[stage];
  return "spawn";
}
