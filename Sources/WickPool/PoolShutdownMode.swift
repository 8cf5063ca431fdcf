// How the pool shuts down: drain in-flight requests or cancel them.

/// How `PoolStateMachine.shutdownRequested(_:at:)` treats the work in the pool.
public enum PoolShutdownMode: Hashable, Sendable {
    /// Refuse new requests, fail waiting ones, close idle and connecting connections, and let
    /// leased connections finish their request; each is closed when it comes back.
    case drain
    /// Like `drain`, but close leased connections too: their requests fail in the runner.
    case cancel
}
