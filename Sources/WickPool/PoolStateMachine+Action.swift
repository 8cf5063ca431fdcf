// What the pool asks its runner to do, and the vocabulary of its events.
public import WickCore

extension PoolStateMachine {
    /// One thing the runner must do. Every input returns its actions in order; the runner
    /// performs them in that order in one exhaustive `switch`.
    public enum Action: Sendable {
        /// Open a connection to `origin`: resolve, connect, TLS handshake, trust evaluation. Answer
        /// with exactly one `connectionEstablished` or `connectionAttemptFailed` for this id.
        case createConnection(PoolConnectionID, origin: Origin)
        /// Give the connection to the request, which now owns it until the runner reports
        /// `connectionBecameIdle` or `connectionClosed`. `isReused` says whether the connection
        /// carried a request before, which `ReplayPolicy` needs if it fails.
        case leaseConnection(PoolConnectionID, to: PoolRequestID, isReused: Bool)
        /// The request waits in its origin's FIFO queue; a `scheduleTimer` for its pool-wait
        /// deadline follows.
        case enqueueRequest(PoolRequestID)
        /// Complete the request with this failure; the pool has forgotten it.
        case failRequest(PoolRequestID, RequestFailure)
        /// Close the connection (or abandon the attempt), then report `connectionClosed` once,
        /// normally `by: .local` (or `.peer`/`.error` if the server or an error got there first).
        /// Other reports about it that race the close are ignored.
        case closeConnection(PoolConnectionID, PoolCloseReason)
        /// Arm the timer; report `timerFired` when its deadline passes, unless it is cancelled.
        case scheduleTimer(Timer)
        /// Disarm the timer. A fire that has already happened may still be reported: it is ignored.
        case cancelTimer(Timer)
        /// The pool was shut down and its last connection is gone. Reported exactly once.
        case shutdownComplete
    }

    /// Why a request that wanted a connection did not get one.
    public enum RequestFailure: Sendable {
        /// The request's pool-wait deadline passed while it waited. `lastConnectionFailure` is
        /// the origin's latest failed attempt if no attempt has succeeded since: then the cause
        /// is the origin, not a busy pool.
        case poolWaitTimeout(lastConnectionFailure: Failure?)
        /// A connection attempt to the origin failed with an error that retrying cannot fix
        /// (the runner said `isRetryable: false`), so every waiter of the origin fails with it.
        case connectionFailed(Failure)
        /// The pool is shutting down or shut down.
        case shutdown
        /// The runner reported `requestCancelled` while the request waited.
        case cancelled
    }

    /// Who ended a connection that the runner reports closed.
    public enum ClosedBy: Sendable {
        /// The server closed it (EOF, or `EPOLLRDHUP` on an idle socket).
        case peer
        /// A read, write or protocol error ended it.
        case error(Failure)
        /// The close the pool asked for with `closeConnection` is done. Only a connection the pool
        /// is closing may end this way.
        case local
    }

    /// A timer the runner arms for the pool.
    public struct Timer: Hashable, Sendable, CustomStringConvertible {
        /// What the timer is for.
        public enum Purpose: Hashable, Sendable {
            /// Retire an idle connection: its idle timeout, the server's keep-alive timeout or
            /// its lifetime, whichever comes first.
            case idleConnection(PoolConnectionID)
            /// Fail a waiting request whose pool-wait deadline has passed.
            case poolWait(PoolRequestID)
            /// End the pause after failed connection attempts to an origin.
            case backoff(Origin)
        }

        /// This scheduling's identity; `timerFired` is matched by it.
        public let id: PoolTimerID
        /// What the timer is for.
        public let purpose: Purpose
        /// When it fires.
        public let deadline: Deadline

        @inlinable init(id: PoolTimerID, purpose: Purpose, deadline: Deadline) {
            self.id = id
            self.purpose = purpose
            self.deadline = deadline
        }

        /// `T<id>(<purpose>@<deadline>)`.
        public var description: String { "\(id)(\(purpose)@\(deadline))" }
    }
}

extension PoolStateMachine.Action: Equatable where Failure: Equatable {}
extension PoolStateMachine.RequestFailure: Equatable where Failure: Equatable {}
