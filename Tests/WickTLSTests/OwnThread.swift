// Blocking test work (openssl runs, blocking sockets) on a thread of its own, off Swift's cooperative pool.
import Foundation

/// Runs `body` on a new thread and suspends until it returns. A test that runs `openssl` or
/// waits on a blocking socket would otherwise hold one of the cooperative pool's threads (two
/// on a 2-core machine) and stall every other test in the process.
/// - Throws: what `body` throws.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
