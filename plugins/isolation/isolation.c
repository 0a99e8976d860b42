#include "isolation.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

SVC_PLUGIN("isolation", "1.0.0")

/* linux/magic.h values, spelled out so that no kernel headers are needed. */
#define CGROUP2_MAGIC 0x63677270L
#define CGROUP1_MAGIC 0x27e0ebL
#define TMPFS_MAGIC_NUM 0x01021994L

SVC_EXPORT int32_t svc_isolation_fs_kind(const char *path) {
  struct statfs s;
  if (!path || statfs(path, &s) < 0) return path ? -errno : -EINVAL;
  if ((long)s.f_type == CGROUP2_MAGIC) return SVC_FS_CGROUP2;
  if ((long)s.f_type == CGROUP1_MAGIC) return SVC_FS_CGROUP1;
  if ((long)s.f_type == TMPFS_MAGIC_NUM) return SVC_FS_TMPFS;
  return SVC_FS_OTHER;
}

SVC_EXPORT int32_t svc_isolation_writable(const char *path) {
  struct statvfs v;
  if (!path) return EINVAL;
  if (statvfs(path, &v) < 0) return errno;
  if (v.f_flag & ST_RDONLY) return EROFS;
  if (access(path, W_OK | X_OK) < 0) return errno;
  return 0;
}

SVC_EXPORT int32_t svc_isolation_mkdir(const char *path) {
  if (!path) return EINVAL;
  if (mkdir(path, 0755) == 0) return 0;
  int err = errno;
  struct stat st;
  if (err == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
  return err;
}

SVC_EXPORT int32_t svc_isolation_write(const char *path, const char *text) {
  if (!path || !text) return EINVAL;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
  if (fd < 0) return errno;
  size_t len = strlen(text);
  ssize_t n;
  do n = write(fd, text, len);
  while (n < 0 && errno == EINTR);
  int err = n < 0 ? errno : (size_t)n != len ? EIO : 0;
  if (close(fd) < 0 && err == 0 && errno != EINTR) err = errno;
  return err;
}

SVC_EXPORT int32_t svc_isolation_read(const char *path, char *buf, uint32_t cap) {
  if (!path || !buf || cap == 0) return -EINVAL;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return -errno;
  size_t got = 0;
  while (got < cap - 1) {
    ssize_t n = read(fd, buf + got, cap - 1 - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      close(fd);
      return -err;
    }
    if (n == 0) break;
    got += (size_t)n;
  }
  close(fd);
  buf[got] = '\0';
  return (int32_t)got;
}

/* Unlinks the regular files directly in path (never recursing: a child cgroup is a directory). */
static int unlink_plain_files(const char *path) {
  DIR *d = opendir(path);
  if (!d) return errno;
  int err = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_type == DT_DIR) continue;
    if (unlinkat(dirfd(d), e->d_name, 0) < 0 && errno != ENOENT) err = errno;
  }
  closedir(d);
  return err;
}

SVC_EXPORT int32_t svc_isolation_remove(const char *path) {
  if (!path) return EINVAL;
  if (rmdir(path) == 0 || errno == ENOENT) return 0;
  int err = errno;
  if (err != ENOTEMPTY && err != EEXIST) return err;
  if (svc_isolation_fs_kind(path) == SVC_FS_CGROUP2) return err;
  int unlinked = unlink_plain_files(path);
  if (unlinked) return unlinked;
  return rmdir(path) == 0 ? 0 : errno;
}
