// Carries a loop-bound, non-Sendable value through Sendable closures, checked on every access.

/// A value that may be used only on one event loop's thread, wrapped so that it can be captured
/// by `@Sendable` closures (`execute`, `schedule`, `Connector` completions) that run there.
///
/// Layers above the reactor (the TLS session, the HTTP connection driver) keep their state in
/// plain classes owned by a loop; this box lets them hop back onto the loop without making
/// those classes `Sendable`. Reading `value` anywhere else traps.
///
/// `@unchecked Sendable` proof: `storage` is only read through `value`, which first checks that
/// the caller is on `loop`'s thread, and the initialiser runs on that thread too; so the value
/// is never touched by two threads, only carried between them by reference.
public struct LoopBound<Value>: @unchecked Sendable {
    /// The loop whose thread may use the value.
    public let loop: EventLoop
    private let storage: Value

    /// Wraps `value`, which belongs to `loop`. Call on `loop`'s thread.
    public init(_ value: Value, loop: EventLoop) {
        loop.preconditionInEventLoop()
        self.loop = loop
        self.storage = value
    }

    /// The value. Traps unless called on `loop`'s thread.
    public var value: Value {
        loop.preconditionInEventLoop()
        return storage
    }
}
