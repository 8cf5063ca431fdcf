// The URLSession peer of the requests suite: swift-corelibs-foundation's URLSession (libcurl
// underneath on Linux), the client most Linux Swift code uses today.
import Dispatch
import Foundation
import FoundationNetworking

/// A URLSession with an ephemeral configuration (no cache, no cookies), driven synchronously.
final class URLSessionClient: @unchecked Sendable {
    private let session: URLSession

    /// A session allowing `maximumConnections` connections per host.
    init(maximumConnections: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maximumConnections
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// One GET, waited for; returns the body's length.
    /// - Throws: `BenchError` if the request fails or the status is not 200.
    func get(_ url: URL) throws -> Int {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        session.dataTask(with: url) { data, response, error in
            outcome.set(data?.count ?? -1, (response as? HTTPURLResponse)?.statusCode ?? 0, error)
            done.signal()
        }.resume()
        done.wait()
        return try outcome.bodyLength()
    }

    /// `count` GETs over `lanes` chains, each starting its next request when one ends.
    /// - Throws: `BenchError` if any request fails.
    func concurrent(_ url: URL, lanes: Int, count: Int, expectedBytes: Int) throws {
        let group = DispatchGroup()
        let failures = Outcome()
        for lane in 0..<lanes {
            let share = count / lanes + (lane < count % lanes ? 1 : 0)
            guard share > 0 else { continue }
            group.enter()
            chain(url, remaining: share, expectedBytes: expectedBytes, failures: failures) { group.leave() }
        }
        group.wait()
        if let failure = failures.failure { throw failure }
    }

    private func chain(
        _ url: URL, remaining: Int, expectedBytes: Int, failures: Outcome, done: @escaping @Sendable () -> Void
    ) {
        session.dataTask(with: url) { [self] data, _, error in
            if error != nil || data?.count != expectedBytes {
                failures.fail(BenchError("URLSession GET: \(error.map { "\($0)" } ?? "\(data?.count ?? -1) bytes")"))
            }
            if remaining > 1 {
                chain(url, remaining: remaining - 1, expectedBytes: expectedBytes, failures: failures, done: done)
            } else {
                done()
            }
        }.resume()
    }

    /// A request's outcome handed from URLSession's queue to the waiting thread.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var length = -1
        private var status = 0
        private var error: (any Error)?
        private(set) var failure: BenchError?

        func set(_ length: Int, _ status: Int, _ error: (any Error)?) {
            lock.withLock { (self.length, self.status, self.error) = (length, status, error) }
        }

        func fail(_ failure: BenchError) {
            lock.withLock { if self.failure == nil { self.failure = failure } }
        }

        func bodyLength() throws -> Int {
            try lock.withLock {
                if let error { throw BenchError("URLSession GET: \(error)") }
                guard status == 200 else { throw BenchError("URLSession GET: status \(status)") }
                return length
            }
        }
    }
}
