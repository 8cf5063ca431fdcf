// The demo's second half: Alamofire's API on Wick, against httpbin and nginx.
import FoundationEssentials
import Synchronization
import Wick

extension DemoTour {
    /// A value httpbin's `/json` returns.
    struct Slideshow: Decodable, Sendable {
        struct Show: Decodable, Sendable {
            let title: String
            let author: String
        }

        let slideshow: Show
    }

    /// Parameters, validation, Decodable, redirects, retries, authentication, an upload, a Unix
    /// socket, and the pool's counters.
    func alamofireTour() async throws {
        let session = Session()

        section("6. Parameters encoded, validate(), a Decodable response")
        struct Search: Encodable, Sendable { let q: String; let page: Int }
        let query = session.request("\(httpbin)/get", parameters: Search(q: "wick demo", page: 2))
        _ = try await query.validate().serializingData().value
        print("GET with parameters → \(query.request?.url.absoluteString ?? "")")
        let show = try await session.request("\(httpbin)/json").validate().serializingDecodable(Slideshow.self).value
        print("GET \(httpbin)/json → Slideshow(title: \"\(show.slideshow.title)\", author: \"\(show.slideshow.author)\")")
        let refused = await session.request("\(httpbin)/status/404").validate().serializingData().result
        if case .failure(let error) = refused { print("GET /status/404 with validate() → \(error)") }

        section("7. Redirects followed (RFC 9110 rules), each hop a transaction in the metrics")
        let redirected = session.request("\(httpbin)/redirect/2")
        _ = try await redirected.serializingData().value
        print("GET /redirect/2 → \(redirected.requests.map(\.url.path).joined(separator: " → "))")
        if let metrics = await redirected.serializingData().response.metrics {
            for transaction in metrics.transactions { print("  \(transaction)") }
        }

        section("8. RetryPolicy against /status/503 (validated), then Basic and Digest authentication")
        let retried = session.request(
            "\(httpbin)/status/503", interceptor: RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.05)
        ).validate()
        let retriedResult = await retried.serializingData().result
        print("GET /status/503 → retried \(retried.retryCount) times, then: \(retriedResult.failureDescription)")
        for path in ["basic-auth/wick/secret", "digest-auth/auth/wick/secret/SHA-256"] {
            let answered = session.request("\(httpbin)/\(path)").authenticate(username: "wick", password: "secret")
            let status = await answered.serializingData().response.response?.statusCode ?? 0
            let scheme = answered.request?.headers["Authorization"]?.split(separator: " ").first ?? "none"
            print("GET /\(path) → 401 answered with \(scheme), then \(status)")
        }

        section("9. An upload from a file, read in pieces (flat memory), stored by nginx's PUT")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wick-demo-\(UUID()).bin")
        try Data(repeating: 0x5A, count: 4 << 20).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let progress = DemoProgress()
        let upload = await session.upload(file, to: "\(nginx)/upload/demo.bin", method: .put)
            .uploadProgress { progress.record($0) }
            .serializingData(emptyResponseCodes: [201, 204]).response
        print("PUT \(nginx)/upload/demo.bin (4 MiB, Expect: 100-continue) → \(upload.response?.statusCode ?? 0), "
            + "\(progress.reports) progress reports, last: \(progress.last.map { "\($0)" } ?? "none")")

        if let nginxUnixSocket {
            section("10. The same nginx over its Unix domain socket (http+unix://)")
            let encoded = nginxUnixSocket.split(separator: "/", omittingEmptySubsequences: false).joined(separator: "%2F")
            try await get(session, "http+unix://\(encoded)/bytes/1k", showHeaders: false)
            try await get(session, "http+unix://\(encoded)/bytes/1k", showHeaders: false)
        }

        section("11. The session's pools: gauges and counters per origin")
        let statistics = await session.poolStatistics()
        for (origin, counts) in statistics.origins.sorted(by: { $0.key < $1.key }) {
            print("  \(origin): \(counts.idle) idle, \(counts.created) created, \(counts.reused) of \(counts.leases) leases reused")
        }
        await session.shutdown()
    }
}

/// Counts upload progress reports (they arrive on the session's queue).
final class DemoProgress: Sendable {
    private let state = Mutex<(count: Int, last: TransferProgress?)>((0, nil))

    func record(_ progress: TransferProgress) {
        state.withLock { $0 = ($0.count + 1, progress) }
    }

    var reports: Int { state.withLock { $0.count } }
    var last: TransferProgress? { state.withLock { $0.last } }
}

extension Result {
    /// The error's description, or "success".
    var failureDescription: String {
        if case .failure(let error) = self { "\(error)" } else { "success" }
    }
}
