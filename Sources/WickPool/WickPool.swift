// WickPool: the connection pool's decisions as a pure state machine. Arrives with the transport issue.
