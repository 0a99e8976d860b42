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

#endif
