// CWickSystem: Linux headers that Glibc's Swift module does not export (epoll, eventfd, timerfd,
// TCP options), plus C functions for what Swift cannot call directly. No logic lives here.
#ifndef CWICK_SYSTEM_H
#define CWICK_SYSTEM_H

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <spawn.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

/// The thread's errno, for code paths that must read it right after a call.
int cwick_errno(void);

/// Names the calling thread (at most 15 bytes are kept); prctl is variadic, so Swift cannot call it.
void cwick_set_thread_name(const char *name);

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `from` on.
/// The header declares it only under _GNU_SOURCE, which Swift's Glibc module does not set.
int cwick_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int from);

/// posix_spawn_file_actions_addchdir_np: the child changes to `path` first (_GNU_SOURCE too).
int cwick_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// Marks the calling thread as an event loop's own, for the rest of its life.
void cwick_mark_loop_thread(void);

/// Whether the calling thread is an event loop's own (1) or not (0).
int cwick_is_loop_thread(void);

/// ppoll(2) with no signal mask: poll with a nanosecond timeout (_GNU_SOURCE too).
int cwick_ppoll(struct pollfd *descriptors, nfds_t count, const struct timespec *timeout);

#endif
