// A value behind a pthread mutex, for test-support state shared across threads.
import Foundation

/// A value guarded by `NSLock` (a pthread mutex), so ThreadSanitizer sees every hand-over:
/// on Linux it cannot see `Synchronization.Mutex`'s, and would report false races in tests
/// that share a fault server's records across threads.
final class PthreadLocked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
