// OCSP and CRL fetching for revocation checks, through Wick's own plain-HTTP connections.
import Dispatch
import FoundationEssentials
import WickCore
import WickTLS

/// The `RevocationFetching` a `TransportClient` gives its TLS context: OCSP queries (POST) and
/// CRL downloads (GET) over plain HTTP through the client's own pool, each within `timeout`.
///
/// Only `http` URLs are fetched: an `https` responder would need a trust evaluation of its own
/// (which could need revocation data again), and RFC 5280 §4.2.1.13 and RFC 6960 expect plain
/// HTTP since the answers are signed. The connection being evaluated is never used: it is still
/// connecting, outside the pool, and its origin is https. `fetch` blocks its caller, the trust
/// evaluation thread, never an event loop.
struct TransportRevocationFetcher: RevocationFetching {
    /// Why a fetch failed; the evaluator treats any failure as "status unknown".
    enum FetchError: Error, CustomStringConvertible {
        /// The URL is not a plain `http` URL with a host.
        case unsupportedURL(String)
        /// The responder answered with a status other than 200.
        case status(Int)
        /// The transport failed (connect, timeout, a bad response).
        case transport(TransportError)

        var description: String {
            switch self {
            case .unsupportedURL(let url): "revocation data is fetched only over plain http, not from \(url)"
            case .status(let code): "the responder answered \(code)"
            case .transport(let error): "\(error)"
            }
        }
    }

    let runner: ConnectionPoolRunner
    /// The limit of one fetch, pool wait included.
    let timeout: Duration
    /// The `User-Agent` field the queries carry; nil sends none.
    var userAgent: String?
    /// The largest answer accepted (CRLs of big CAs run to megabytes).
    static let maximumAnswerBytes = 16 << 20

    /// The answer's body.
    /// - Throws: `FetchError`.
    func fetch(_ request: RevocationRequest) throws -> [UInt8] {
        guard let url = URL(string: request.url), url.scheme?.lowercased() == "http", let host = url.host(),
            !host.isEmpty, let port = UInt16(exactly: url.port ?? 80)
        else { throw FetchError.unsupportedURL(request.url) }
        let path = url.path(percentEncoded: true)
        let target = (path.isEmpty ? "/" : path) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        var headers = HTTPHeaders()
        if let userAgent { headers.add(name: "User-Agent", value: userAgent) }
        let method: HTTPMethod
        switch request.kind {
        case .ocsp:
            method = .post
            headers.add(name: "Content-Type", value: "application/ocsp-request")
            headers.add(name: "Accept", value: "application/ocsp-response")
        case .crl:
            method = .get
        }
        let transportRequest = TransportRequest(
            method, .http, host: host, port: port, target: target, headers: headers, body: request.body)
        let result = Self.await { completion in
            runner.start(runner.makeExchange(transportRequest), deadline: .now() + timeout, completion: completion)
        }
        let response: TransportResponse
        switch result {
        case .success(let received): response = received
        case .failure(let error): throw FetchError.transport(error)
        }
        guard response.status.rawValue == 200 else { throw FetchError.status(response.status.rawValue) }
        guard response.body.count <= Self.maximumAnswerBytes else {
            throw FetchError.transport(.responseBodyTooLarge(limit: Self.maximumAnswerBytes))
        }
        return [UInt8](response.body)
    }

    /// Blocks until `start`'s completion is called.
    private static func await(
        _ start: (@escaping @Sendable (consuming Result<TransportResponse, TransportError>) -> Void) -> Void
    ) -> Result<TransportResponse, TransportError> {
        let done = DispatchSemaphore(value: 0)
        let box = TransportResultBox()
        start { result in
            box.set(result)
            done.signal()
        }
        done.wait()
        return box.result
    }
}
