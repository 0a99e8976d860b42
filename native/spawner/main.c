/*
 * svc-spawner: starts svcd's programs on request and reports their exits (PROTOCOL.md).
 *
 *   svc-spawner --socket PATH [--method fork|clone|posix_spawn]
 *
 * Binds PATH (mode 0600; one instance per PATH by an flock on PATH.lock, which holds its pid),
 * prints "ready <pid>" on stdout and closes it, then serves one daemon at a time. It is the
 * child subreaper of everything it starts. It outlives a daemon that dies without BYE and keeps
 * the children and their exits for the next one; it exits once no child is left and (a) the
 * daemon said BYE, (b) SIGTERM/SIGINT came, or (c) no daemon is connected and no exit is
 * waiting to be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "spawner.h"
#include "../common/process-setup.h"

enum {
  MAX_CONNS = 4,
  /* A daemon that does not read its exits this far behind is dropped (it looks hung). */
  MAX_PENDING_OUT = 64 << 20,
  /* Started but never contacted (the daemon died in between): give up after this long. */
  FIRST_CONTACT_MS = 60 * 1000,
  LOCK_WAIT_MS = 3000,
};

enum kind { K_LISTEN = 1, K_SIGNAL, K_CONN, K_CAPTURE };

struct conn {
  int fd;
  struct buf in, out;
  int want_out; /* EPOLLOUT armed */
};

struct spawner S = {.epfd = -1, .nullfd = -1, .errpipe = {-1, -1}, .method = METHOD_FORK};
static struct conn conns[MAX_CONNS];
static int active = -1;
static int ever_active;
static int listen_fd = -1, sig_fd = -1, lock_fd = -1;
static const char *socket_path;

static uint64_t ev_data(enum kind k, uint32_t v) {
  return (uint64_t)k << 32 | v;
}

static int epoll_add(int fd, uint32_t events, uint64_t data) {
  struct epoll_event ev = {.events = events, .data.u64 = data};
  return epoll_ctl(S.epfd, EPOLL_CTL_ADD, fd, &ev);
}

int watch_capture(int fd, pid_t pid) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return -1;
  return epoll_add(fd, EPOLLIN, ev_data(K_CAPTURE, (uint32_t)pid));
}

struct buf *active_out(void) {
  return active >= 0 ? &conns[active].out : NULL;
}

static void conn_close(int i) {
  struct conn *c = &conns[i];
  if (c->fd < 0) return;
  close(c->fd);
  c->fd = -1;
  buf_free(&c->in);
  buf_free(&c->out);
  c->want_out = 0;
  if (active == i) active = -1; /* without BYE: the daemon crashed; keep everything for the next */
}

void conn_activate(int i) {
  /* A new HELLO means a new daemon (the store lock allows one per root): the old one is gone. */
  if (active >= 0 && active != i) conn_close(active);
  active = i;
  ever_active = 1;
}

static void conn_flush(int i) {
  struct conn *c = &conns[i];
  while (c->fd >= 0 && c->out.len > 0) {
    ssize_t n = send(c->fd, c->out.data, c->out.len, MSG_NOSIGNAL);
    if (n > 0) {
      buf_consume(&c->out, (size_t)n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) break;
    conn_close(i);
    return;
  }
  if (c->fd < 0) return;
  if (c->out.len > MAX_PENDING_OUT) {
    fprintf(stderr, "svc-spawner: dropping a daemon connection that does not read (%zu bytes pending)\n", c->out.len);
    conn_close(i);
    return;
  }
  int want = c->out.len > 0;
  if (want != c->want_out) {
    struct epoll_event ev = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.u64 = ev_data(K_CONN, (uint32_t)i)};
    epoll_ctl(S.epfd, EPOLL_CTL_MOD, c->fd, &ev);
    c->want_out = want;
  }
}

/* Sends what the socket takes now. Unlike conn_flush it never closes the connection: frames of a
 * daemon that is gone are still handled (a SPAWN it sent is a child it will look for), and the
 * connection is closed after them. */
static void conn_send_now(struct conn *c) {
  while (c->out.len > 0) {
    ssize_t n = send(c->fd, c->out.data, c->out.len, MSG_NOSIGNAL);
    if (n > 0) buf_consume(&c->out, (size_t)n);
    else if (n < 0 && errno == EINTR) continue;
    else return;
  }
}

/* Handles every complete frame in the input buffer. A bad length cannot be skipped: close. */
static void conn_frames(int i) {
  struct conn *c = &conns[i];
  size_t off = 0;
  while (c->fd >= 0 && c->in.len - off >= 4) {
    uint32_t len = get_u32(c->in.data + off);
    if (len < WIRE_HEADER - 4 || len > WIRE_MAX_FRAME) {
      reply_error(&c->out, 0, EPROTO, STAGE_REQUEST, "bad frame length %u; closing the connection", len);
      conn_flush(i);
      conn_close(i);
      return;
    }
    if (c->in.len - off - 4 < len) break;
    const uint8_t *frame = c->in.data + off;
    const uint8_t type = frame[4];
    handle_frame(i, &c->out, type, get_u32(frame + 5), frame + WIRE_HEADER, len - (WIRE_HEADER - 4));
    off += 4 + (size_t)len;
    /* A spawn costs a few hundred microseconds: answer it now, so the daemon records each child
     * while the next ones start, instead of all of them after the whole burst it sent. */
    if (type == MSG_SPAWN && c->fd >= 0) conn_send_now(c);
  }
  if (c->fd >= 0) buf_consume(&c->in, off);
}

static void conn_readable(int i) {
  struct conn *c = &conns[i];
  for (;;) {
    buf_reserve(&c->in, 64 * 1024);
    ssize_t n = recv(c->fd, c->in.data + c->in.len, c->in.cap - c->in.len, 0);
    if (n > 0) {
      c->in.len += (size_t)n;
      conn_frames(i);
      if (c->fd < 0) return;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    conn_close(i); /* EOF or error */
    return;
  }
}

static void accept_conns(void) {
  for (;;) {
    int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    struct ucred cred;
    socklen_t clen = sizeof cred;
    int slot = -1;
    for (int i = 0; i < MAX_CONNS && slot < 0; i++)
      if (conns[i].fd < 0) slot = i;
    /* Only our own user (or root) may drive the spawner; the socket's mode says the same. */
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0 || (cred.uid != 0 && cred.uid != getuid()) || slot < 0) {
      close(fd);
      continue;
    }
    conns[slot].fd = fd;
    if (epoll_add(fd, EPOLLIN, ev_data(K_CONN, (uint32_t)slot)) < 0) conn_close(slot);
  }
}

static void signals_readable(void) {
  struct signalfd_siginfo si;
  int chld = 0;
  while (read(sig_fd, &si, sizeof si) == (ssize_t)sizeof si) {
    if (si.ssi_signo == SIGCHLD) chld = 1;
    else if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT) S.terminate = 1;
  }
  if (chld) reap_children();
}

static uint64_t mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* -1: keep running; otherwise ms to wait before checking again (0: exit now). */
static int should_exit(uint64_t started) {
  if (child_count() > 0) return -1;
  if (S.terminate || S.bye) return 0;
  if (active >= 0) return -1;
  if (!ever_active) {
    uint64_t waited = mono_ms() - started;
    return waited >= FIRST_CONTACT_MS ? 0 : (int)(FIRST_CONTACT_MS - waited);
  }
  return exits_count() == 0 ? 0 : -1; /* exits are kept until a daemon reads them */
}

static int die(const char *what) {
  fprintf(stderr, "svc-spawner: %s: %s\n", what, strerror(errno));
  return 1;
}

static int take_lock(const char *path) {
  char lock_path[sizeof(struct sockaddr_un) + 8];
  snprintf(lock_path, sizeof lock_path, "%s.lock", path);
  lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd < 0) return -1;
  /* An old spawner may be on its way out (BYE): wait for it a little. */
  for (uint64_t t0 = mono_ms(); flock(lock_fd, LOCK_EX | LOCK_NB) < 0;) {
    if (errno != EWOULDBLOCK || mono_ms() - t0 > LOCK_WAIT_MS) return -1;
    nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
  }
  /* The lock file names the holder, for operators and tests. */
  if (ftruncate(lock_fd, 0) < 0 || dprintf(lock_fd, "%d\n", (int)getpid()) < 0) return -1;
  return 0;
}

static int bind_socket(const char *path) {
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof addr.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  strcpy(addr.sun_path, path);
  listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd < 0) return -1;
  unlink(path); /* a stale socket: we hold the lock, so no live spawner owns it */
  mode_t old = umask(077);
  int rc = bind(listen_fd, (struct sockaddr *)&addr, sizeof addr);
  umask(old);
  if (rc < 0) return -1;
  return listen(listen_fd, 16);
}

/* Dispositions inherited from svcd (Node ignores SIGPIPE) must not reach the programs. */
static void reset_signals(sigset_t *blocked) {
  struct sigaction dfl = {.sa_handler = SIG_DFL}, ign = {.sa_handler = SIG_IGN};
  for (int s = 1; s < NSIG; s++) sigaction(s, s == SIGPIPE ? &ign : &dfl, NULL);
  sigemptyset(blocked);
  sigaddset(blocked, SIGCHLD);
  sigaddset(blocked, SIGTERM);
  sigaddset(blocked, SIGINT);
  sigaddset(blocked, SIGHUP);
  sigprocmask(SIG_SETMASK, blocked, NULL);
}

static int setup(void) {
  sigset_t blocked;
  close_fds_above_2(-1); /* what svcd did not mean to hand over; our own fds are all O_CLOEXEC */
  reset_signals(&blocked);
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) return die("prctl(PR_SET_CHILD_SUBREAPER)");
  setsid(); /* already a session leader when svcd started us detached (EPERM) */
  if ((S.nullfd = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0) return die("/dev/null");
  /* Non-blocking both ways: a child never waits on a full pipe to report its failure. */
  if (pipe2(S.errpipe, O_CLOEXEC | O_NONBLOCK) < 0) return die("pipe");
  if (take_lock(socket_path) < 0) return die("another spawner holds the lock of this socket");
  if (bind_socket(socket_path) < 0) return die(socket_path);
  if ((sig_fd = signalfd(-1, &blocked, SFD_NONBLOCK | SFD_CLOEXEC)) < 0) return die("signalfd");
  if ((S.epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) return die("epoll");
  if (epoll_add(listen_fd, EPOLLIN, ev_data(K_LISTEN, 0)) < 0 || epoll_add(sig_fd, EPOLLIN, ev_data(K_SIGNAL, 0)) < 0) return die("epoll_ctl");
  return 0;
}

static void loop(void) {
  uint64_t started = mono_ms();
  struct epoll_event events[64];
  for (;;) {
    int wait = should_exit(started);
    if (wait == 0) return;
    int n = epoll_wait(S.epfd, events, 64, wait);
    if (n < 0 && errno != EINTR) {
      die("epoll_wait");
      return;
    }
    for (int i = 0; i < n; i++) {
      uint32_t v = (uint32_t)events[i].data.u64;
      switch ((enum kind)(events[i].data.u64 >> 32)) {
        case K_LISTEN: accept_conns(); break;
        case K_SIGNAL: signals_readable(); break;
        case K_CAPTURE: capture_readable((pid_t)v); break;
        case K_CONN:
          if (conns[v].fd < 0) break;
          if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) conn_readable((int)v);
          if (conns[v].fd >= 0 && (events[i].events & EPOLLOUT)) conn_flush((int)v);
          break;
      }
    }
    for (int i = 0; i < MAX_CONNS; i++)
      if (conns[i].fd >= 0 && conns[i].out.len > 0) conn_flush(i);
  }
}

static void free_child(struct child *c, void *ctx) {
  (void)ctx;
  child_free(child_take(c->pid));
}

static void teardown(void) {
  for (int i = 0; i < MAX_CONNS; i++) conn_close(i);
  if (listen_fd >= 0) {
    unlink(socket_path); /* before the lock goes: a new spawner may bind at once */
    close(listen_fd);
  }
  child_each(free_child, NULL);
  exits_clear();
  if (sig_fd >= 0) close(sig_fd);
  if (S.epfd >= 0) close(S.epfd);
  if (S.nullfd >= 0) close(S.nullfd);
  for (int i = 0; i < 2; i++)
    if (S.errpipe[i] >= 0) close(S.errpipe[i]);
  if (lock_fd >= 0) close(lock_fd);
}

static int usage(void) {
  fputs("usage: svc-spawner --socket PATH [--method fork|clone|posix_spawn]\n", stderr);
  return 2;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) socket_path = argv[++i];
    else if (strcmp(argv[i], "--method") == 0 && i + 1 < argc) {
      const char *m = argv[++i];
      if (strcmp(m, "fork") == 0) S.method = METHOD_FORK;
      else if (strcmp(m, "clone") == 0) S.method = METHOD_CLONE;
      else if (strcmp(m, "posix_spawn") == 0) S.method = METHOD_POSIX_SPAWN;
      else return usage();
    } else return usage();
  }
  if (!socket_path) return usage();
  for (int i = 0; i < MAX_CONNS; i++) conns[i].fd = -1;
  int rc = setup();
  if (rc == 0) {
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    dup2(S.nullfd, STDOUT_FILENO); /* svcd reads up to EOF: the pipe closes here */
    loop();
  }
  teardown();
  return rc;
}
