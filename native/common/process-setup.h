/* What svc-spawner and svc-exec both do to a process before a program runs (listed in each native.json). */
#ifndef SVC_PROCESS_SETUP_H
#define SVC_PROCESS_SETUP_H

/* The most supplementary groups a process may have (NGROUPS_MAX of Linux). */
enum { SVC_MAX_GROUPS = 65536 };

/*
 * Closes every fd above 2 except `keep` (-1: none). svcd's LevelDB files are not close-on-exec,
 * so whatever svcd starts would otherwise hold its stores open. close_range, or a walk of
 * /proc/self/fd on kernels before 5.9.
 */
void close_fds_above_2(int keep);

/*
 * Sets the soft RLIMIT_NOFILE to `soft`, or to the hard limit when that is lower; the hard limit
 * stays. Node raises its own soft limit to the hard one at start, and everything svcd starts
 * would inherit that (systemd gives services 1024). Only system calls: safe in a vfork child.
 */
int set_open_files_limit(unsigned long long soft);

#endif
