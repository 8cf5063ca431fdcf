// Hands one request's result from the runner's loop to the awaiting task.
import WickReactor

/// Holds the result of one `execute` call between the loop that completes it and the task that
/// awaits it. The mutex orders the write before the read (the continuation also does, but
/// ThreadSanitizer cannot see the runtime's synchronisation).
final class TransportResultBox: Sendable {
    private let storage = Locked<Result<TransportResponse, TransportError>?>(nil)

    /// Stores the result; the first one wins.
    func set(_ value: Result<TransportResponse, TransportError>) {
        storage.withLock { if $0 == nil { $0 = value } }
    }

    /// The stored result. Traps if none was stored: the caller awaits the completion first.
    var result: Result<TransportResponse, TransportError> {
        guard let value = storage.withLock({ $0 }) else {
            preconditionFailure("TransportResultBox: read before the request completed")
        }
        return value
    }

    /// The stored response, or its failure thrown (see `result`).
    func get() throws(TransportError) -> TransportResponse {
        try result.get()
    }
}
