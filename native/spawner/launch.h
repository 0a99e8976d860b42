/*
 * Starting one process: a new session, fds 0-2, cwd, identity, then exec. Three ways, measured
 * in bench/FINDINGS.md:
 *  - fork (the default): the spawner is small, so fork is cheap, and it never waits for the
 *    child to be scheduled and exec. The usual failures (no such command, cwd not a directory)
 *    are found before forking; a later one (exec format, a permission only the target user
 *    lacks) reaches the spawner through the error pipe and is reported with the child's exit.
 *  - clone(CLONE_VM | CLONE_VFORK) with our own child code: every failure is synchronous, with
 *    the failing step; the spawner waits for each child's exec.
 *  - glibc's posix_spawn (the same mechanism inside): no uid/gid switch, errors without the step.
 * With a cgroup (SPAWN field CGROUP), fork and clone children write "0" to its cgroup.procs
 * right after setsid, before anything of the program runs (no escape window); posix_spawn has no
 * hook for that and refuses the request (ENOTSUP).
 */
#ifndef SPAWNER_LAUNCH_H
#define SPAWNER_LAUNCH_H

#include <stdint.h>
#include <sys/types.h>

enum launch_stage {
  STAGE_NONE = 0,
  STAGE_REQUEST = 1, /* the request itself is invalid */
  STAGE_STDOUT = 2,  /* opening the stdout log file */
  STAGE_STDERR = 3,
  STAGE_PIPE = 4,
  STAGE_CLONE = 5,
  STAGE_SETSID = 6,
  STAGE_DUP = 7,
  STAGE_CHDIR = 8,
  STAGE_SETGROUPS = 9,
  STAGE_SETGID = 10,
  STAGE_SETUID = 11,
  STAGE_EXEC = 12,
  STAGE_CGROUP = 13,
  STAGE_STDIN = 14, /* opening the file given as stdin */
  STAGE_RLIMIT = 15, /* setting the open-files limit */
};

enum launch_method { METHOD_FORK, METHOD_CLONE, METHOD_POSIX_SPAWN };

struct launch {
  char *const *argv;
  char *const *envp;
  char *const *paths; /* exec candidates in order (see exec_candidates), NULL-terminated */
  const char *cwd;    /* NULL: keep the spawner's */
  int fd0, fd1, fd2;
  int set_uid, set_gid;
  uid_t uid;
  gid_t gid;
  const gid_t *groups; /* supplementary groups, set with set_uid or set_gid (0 of them: none) */
  size_t ngroups;
  int errfd; /* METHOD_FORK: where a failing child writes a struct child_failure; -1 = nowhere */
  int cgroup_procs; /* the cgroup.procs of the child's cgroup, opened for writing; -1 = stay put */
  int set_nofile;   /* set the soft open-files limit to nofile (capped at the hard limit) */
  unsigned long long nofile;
};

/* What a forked child that could not exec writes to errfd before _exit(127) (< PIPE_BUF). */
struct child_failure {
  int32_t pid;
  int32_t err;
  int32_t stage;
};

struct launch_error {
  int err;
  int stage;
};

/* The pid, or -1 with *e filled in (the failed child is already reaped). */
pid_t launch(enum launch_method method, const struct launch *l, struct launch_error *e);

/* execvp's search: `file` itself when it holds a '/', else each PATH entry of envp + "/" + file. */
char **exec_candidates(const char *file, char *const *envp);
void free_strv(char **v);

/* /proc/<pid>/stat field 22 (works for zombies too), or 0 when unreadable. */
uint64_t proc_start_time(pid_t pid);

const char *stage_name(int stage);

#endif
