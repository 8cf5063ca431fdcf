// Bridges a callback that fires on a loop thread into an `await`, visibly to ThreadSanitizer.

/// Awaits the value that `start` delivers to its callback (once, from any thread).
///
/// The value also travels through a `Locked` box, not only through the continuation: on Linux
/// ThreadSanitizer cannot see the runtime's own continuation synchronisation, and would report
/// the caller's first use of, say, a freshly connected `Channel` as a race with its initialiser
/// on the loop thread. The pthread mutex gives it the happens-before edge that really exists.
public func awaitCallback<Value: Sendable>(_ start: (@escaping @Sendable (Value) -> Void) -> Void) async -> Value {
    let box = Locked<Value?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        start { value in
            box.withLock { $0 = value }
            continuation.resume()
        }
    }
    return box.withLock { value in
        guard let value else { preconditionFailure("awaitCallback: resumed without a value") }
        return value
    }
}
