/*
 * svc-spawn-floor METHOD N: the C floor of bench S0. Starts N `/bin/sleep 3600` the way the
 * spawner does (new session, fds 0-2 on /dev/null, cwd, a small environment) and prints
 * {"ms": <time until every child has a pid>}, then kills and reaps them.
 *
 * METHOD: fork (the spawner's default) | clone (CLONE_VM|CLONE_VFORK) | posix_spawn, each with the
 * spawner's own code (native/spawner/launch.c).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../spawner/launch.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fputs("usage: svc-spawn-floor posix_spawn|clone|fork N\n", stderr);
    return 2;
  }
  const char *method = argv[1];
  int n = atoi(argv[2]);
  if (n <= 0 || (strcmp(method, "posix_spawn") && strcmp(method, "clone") && strcmp(method, "fork"))) {
    fputs("svc-spawn-floor: bad method or N\n", stderr);
    return 2;
  }
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  char *args[] = {"/bin/sleep", "3600", NULL};
  char *env[] = {"PATH=/usr/bin:/bin", "SVC_FLOOR=1", NULL};
  char *paths[] = {"/bin/sleep", NULL};
  struct launch l = {.argv = args, .envp = env, .paths = paths, .cwd = "/", .fd0 = null, .fd1 = null, .fd2 = null, .errfd = -1, .cgroup_procs = -1};
  pid_t *pids = calloc((size_t)n, sizeof *pids);
  if (!pids) return 1;
  double t0 = now_ms();
  for (int i = 0; i < n; i++) {
    struct launch_error e;
    enum launch_method m = strcmp(method, "fork") == 0 ? METHOD_FORK : strcmp(method, "clone") == 0 ? METHOD_CLONE : METHOD_POSIX_SPAWN;
    pids[i] = launch(m, &l, &e);
    if (pids[i] < 0) {
      fprintf(stderr, "svc-spawn-floor: spawn %d failed: %s\n", i, strerror(e.err));
      n = i;
      break;
    }
  }
  double ms = now_ms() - t0;
  for (int i = 0; i < n; i++) kill(pids[i], SIGKILL);
  for (int i = 0; i < n; i++) waitpid(pids[i], NULL, 0);
  free(pids);
  printf("{\"ms\": %.3f, \"method\": \"%s\", \"n\": %d}\n", ms, method, n);
  return 0;
}
