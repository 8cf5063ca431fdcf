// A bounded wait for a condition that another thread makes true, for tests that poll.
import WickCore

/// Waits (bounded, polling every 5 ms) until `condition` holds; returns whether it did.
/// - Throws: `CancellationError` when the task is cancelled while it sleeps.
public func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
    let end = Deadline.now() + timeout
    while !condition() {
        if end.hasPassed(at: .now()) { return false }
        try await Task.sleep(for: .milliseconds(5))
    }
    return true
}
