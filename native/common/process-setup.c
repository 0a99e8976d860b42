#include "process-setup.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static int close_between(unsigned lo, unsigned hi) {
  return lo > hi ? 0 : close_range(lo, hi, 0);
}

void close_fds_above_2(int keep) {
  unsigned k = (unsigned)keep;
  if (keep < 0 ? close_between(3, ~0U) == 0 : close_between(3, k - 1) == 0 && close_between(k + 1, ~0U) == 0) return;
  DIR *d = opendir("/proc/self/fd");
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    int fd = atoi(e->d_name);
    if (fd > 2 && fd != keep && fd != dirfd(d)) close(fd);
  }
  closedir(d);
}

int set_open_files_limit(unsigned long long soft) {
  struct rlimit lim;
  if (getrlimit(RLIMIT_NOFILE, &lim) < 0) return -1;
  lim.rlim_cur = soft < lim.rlim_max ? (rlim_t)soft : lim.rlim_max;
  return setrlimit(RLIMIT_NOFILE, &lim);
}
