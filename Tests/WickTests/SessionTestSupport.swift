// Helpers for the Session tests: a handler's response awaited, and JSON from httpbin read.
import Dispatch
import Foundation
import Synchronization
import Testing
import WickReactor
import Wick

extension DataRequest {
    /// Awaits `responseData`'s handler; `queue` nil uses the session's queue.
    func awaitResponseData(queue: DispatchQueue? = nil) async -> DataResponse<Data, WickError> {
        await withCheckedContinuation { continuation in
            responseData(queue: queue) { continuation.resume(returning: $0) }
        }
    }
}

/// The JSON object httpbin answered with.
func httpbinJSON(_ data: Data?) throws -> [String: Any] {
    let data = try #require(data)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A session whose configuration `configure` adjusts.
func makeSession(
    serverTrustManager: ServerTrustManager? = nil, _ configure: (inout Session.Configuration) -> Void = { _ in }
) -> Session {
    var configuration = Session.Configuration()
    configure(&configuration)
    return Session(configuration: configuration, serverTrustManager: serverTrustManager)
}

/// A value shared between a test and the handlers it installs. Behind `Locked`'s pthread
/// mutex, which ThreadSanitizer sees (it cannot see `Synchronization.Mutex`).
final class Shared<Value: Sendable>: Sendable {
    private let lock: Locked<Value>

    init(_ value: Value) { lock = Locked(value) }

    /// Runs `body` with the value locked.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&$0) }
    }
}
