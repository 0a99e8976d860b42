/*
 * svc-exec [--status-fd N] [--cgroup DIR] [--nofile N] [--uid N] [--gid N] [--groups N,N,...] -- FILE [ARG...]
 *
 * What svcd's child_process fallback (controllers/os/linux.ts) cannot do between fork and exec,
 * done here before the program is exec-ed in place (same pid, session, cwd and fds 0 to 2), in
 * the order svc-spawner's child follows (native/spawner/launch.c):
 *   - joins the cgroup v2 directory DIR (writes "0" to its cgroup.procs), so that nothing of the
 *     program runs outside it;
 *   - with --nofile: sets the soft open-files limit to N, or to the hard limit when that is lower
 *     (Node raised svcd's soft limit to the hard one; systemd gives services 1024);
 *   - closes every fd above 2 (svcd's LevelDB files are not close-on-exec);
 *   - with --uid or --gid: sets the supplementary groups (--groups, none when absent), then the
 *     gid, then the uid (Node's own uid/gid options always drop supplementary groups).
 * Then execvp FILE. Any failure is one line on stderr (the program's log) and exit status 127,
 * like a failed exec; with --status-fd it is also written to fd N as "<errno> <step>" (step:
 * cgroup, setrlimit, setgroups, setgid, setuid or exec). Fd N is kept open, close-on-exec, so the parent
 * reads end-of-file without a word once the program runs (svc-spawner's fork method does the
 * same through a pipe).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/process-setup.h"

static int status_fd = -1;

static int fail(const char *step, const char *what, const char *subject) {
  int err = errno;
  fprintf(stderr, "svc-exec: %s%s%s: %s\n", what, subject ? " " : "", subject ? subject : "", strerror(err));
  if (status_fd >= 0) dprintf(status_fd, "%d %s", err, step);
  return 127;
}

static int join_cgroup(const char *dir) {
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/cgroup.procs", dir);
  if (n < 0 || (size_t)n >= sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
  if (fd < 0) return -1;
  ssize_t w = write(fd, "0", 1);
  int err = errno;
  close(fd);
  errno = err;
  return w == 1 ? 0 : -1;
}

/* A decimal id (0 to 2^31 - 1, what the kernel and svcd accept); -1 when malformed. */
static long parse_id(const char *s, const char **end) {
  if (*s < '0' || *s > '9') return -1;
  errno = 0;
  char *e;
  unsigned long v = strtoul(s, &e, 10);
  if (errno || v > INT_MAX) return -1;
  *end = e;
  return (long)v;
}

/* "N,N,..." (or "") into groups; the count, or -1 when malformed. */
static int parse_groups(const char *s, gid_t *groups) {
  int n = 0;
  while (*s) {
    const char *end;
    long v = parse_id(s, &end);
    if (v < 0 || n == SVC_MAX_GROUPS || (*end && *end != ',')) return -1;
    groups[n++] = (gid_t)v;
    s = *end ? end + 1 : end;
  }
  return n;
}

static int usage(void) {
  fputs("usage: svc-exec [--status-fd N] [--cgroup DIR] [--nofile N] [--uid N] [--gid N] [--groups N,N,...] -- FILE [ARG...]\n", stderr);
  return 127;
}

int main(int argc, char **argv) {
  const char *cgroup = NULL, *groups_arg = NULL;
  long uid = -1, gid = -1, nofile = -1;
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
    if (i + 1 >= argc) return usage();
    const char *opt = argv[i], *value = argv[i + 1], *end = "";
    if (strcmp(opt, "--status-fd") == 0) {
      long fd = parse_id(value, &end);
      if (fd < 3 || *end || fcntl((int)fd, F_SETFD, FD_CLOEXEC) < 0) return usage();
      status_fd = (int)fd;
    } else if (strcmp(opt, "--cgroup") == 0) cgroup = value;
    else if (strcmp(opt, "--groups") == 0) groups_arg = value;
    else if (strcmp(opt, "--uid") == 0) {
      if ((uid = parse_id(value, &end)) < 0 || *end) return usage();
    } else if (strcmp(opt, "--gid") == 0) {
      if ((gid = parse_id(value, &end)) < 0 || *end) return usage();
    } else if (strcmp(opt, "--nofile") == 0) {
      if ((nofile = parse_id(value, &end)) <= 0 || *end) return usage();
    } else return usage();
  }
  if (i + 1 >= argc) return usage();
  char **program = argv + i + 1;
  if (cgroup && join_cgroup(cgroup) < 0) return fail("cgroup", "cannot join cgroup", cgroup);
  if (nofile > 0 && set_open_files_limit((unsigned long long)nofile) < 0) return fail("setrlimit", "setrlimit", NULL);
  close_fds_above_2(status_fd);
  if (uid >= 0 || gid >= 0) {
    static gid_t groups[SVC_MAX_GROUPS];
    int n = groups_arg ? parse_groups(groups_arg, groups) : 0;
    if (n < 0) return usage();
    if (setgroups((size_t)n, groups) < 0) return fail("setgroups", "setgroups", NULL);
    if (gid >= 0 && setgid((gid_t)gid) < 0) return fail("setgid", "setgid", NULL);
    if (uid >= 0 && setuid((uid_t)uid) < 0) return fail("setuid", "setuid", NULL);
  }
  execvp(program[0], program);
  return fail("exec", program[0], NULL);
}
