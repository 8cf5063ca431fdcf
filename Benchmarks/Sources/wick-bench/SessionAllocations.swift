// Allocations per whole request through `Session`, against an in-process server that allocates
// nothing per request: the allocation gate's end-to-end figure, cheap enough for Scripts/test.
import Dispatch
import Wick

/// Counts the process's allocations over sequential keep-alive GETs through a `Session`.
enum SessionAllocations {
    /// Requests measured per form, after a warm-up.
    static let requests = 500

    /// Allocations per request: `async` (`serializingData().value`) and `callback` (`responseData`).
    /// - Throws: `SocketError` if the server cannot listen, `BenchError` or `WickError` if a request fails.
    static func perRequest() throws -> [String: Double] {
        let server = try FixedResponseServer()
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        let session = Session(configuration: configuration)
        defer { try? blocking { await session.shutdown() } }
        let url = "http://127.0.0.1:\(server.port)/bytes/1k"
        _ = try RequestsBenchmark.wickSequentialAsync(session, url: url, count: 50)
        _ = try RequestsBenchmark.wickSequentialCallback(session, url: url, count: 50)
        let async = try RequestsBenchmark.wickSequentialAsync(session, url: url, count: requests)
        let callback = try RequestsBenchmark.wickSequentialCallback(session, url: url, count: requests)
        return [
            "async": Double(async.allocations) / Double(requests),
            "callback": Double(callback.allocations) / Double(requests),
        ]
    }
}
