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

#endif
