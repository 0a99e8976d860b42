/*
 * The isolation plugin's exports (ABI 1): the cgroup v2 file operations svcd needs, each a thin
 * system call. Every decision (what to write where, when to clean up, what a host allows) is in
 * TypeScript (controllers/isolation/); these only touch the files. Paths are NUL-terminated.
 * Functions return 0 or a positive errno value (never -1), so svcd can say exactly why.
 */
#ifndef SVC_ISOLATION_H
#define SVC_ISOLATION_H

#include <stdint.h>

#include "../include/svc_plugin.h"

/* What statfs says a directory is. */
enum { SVC_FS_OTHER = 0, SVC_FS_CGROUP2 = 1, SVC_FS_CGROUP1 = 2, SVC_FS_TMPFS = 3 };

/* SVC_FS_* of the file system holding path, or -errno when it cannot be read. */
SVC_EXPORT int32_t svc_isolation_fs_kind(const char *path);
/* 0 when svcd may create entries in the directory path; EROFS (read-only mount), EACCES... */
SVC_EXPORT int32_t svc_isolation_writable(const char *path);
/* mkdir(path, 0755); an existing directory is 0. */
SVC_EXPORT int32_t svc_isolation_mkdir(const char *path);
/* Writes text to the file in one write(2), as `echo text > path` does (cgroup files take one write). */
SVC_EXPORT int32_t svc_isolation_write(const char *path, const char *text);
/* Reads up to cap-1 bytes into buf (NUL-terminated); returns the length, or -errno. */
SVC_EXPORT int32_t svc_isolation_read(const char *path, char *buf, uint32_t cap);
/*
 * Removes the cgroup directory. On cgroupfs rmdir does it (EBUSY while processes remain). On any
 * other file system (a tree that stands in for cgroupfs: tests, dry runs) the plain files the
 * kernel would have provided are unlinked first.
 */
SVC_EXPORT int32_t svc_isolation_remove(const char *path);

#endif
