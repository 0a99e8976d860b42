/*
 * svc-cgroup-exec DIR FILE [ARG...]: joins the cgroup v2 directory DIR (writes "0" to its
 * cgroup.procs), then execs FILE with PATH lookup. svcd's child_process fallback
 * (controllers/os/linux.ts) starts programs through it when the isolation plugin gives them a
 * cgroup, so that, as with svc-spawner, nothing of the program runs outside its cgroup. Any
 * failure is one line on stderr (the program's log) and exit status 127, like a failed exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: svc-cgroup-exec DIR FILE [ARG...]\n");
    return 127;
  }
  if (join_cgroup(argv[1]) < 0) {
    fprintf(stderr, "svc-cgroup-exec: cannot join cgroup %s: %s\n", argv[1], strerror(errno));
    return 127;
  }
  execvp(argv[2], argv + 2);
  fprintf(stderr, "svc-cgroup-exec: %s: %s\n", argv[2], strerror(errno));
  return 127;
}
