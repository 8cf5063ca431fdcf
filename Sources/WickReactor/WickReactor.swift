// WickReactor: epoll event loops, sockets, timers and connect. Arrives with the reactor issue.
