// How revocation answers are fetched: injected, so that WickTLS never opens a connection itself.

/// A request for revocation data: an OCSP query (HTTP POST of a DER `OCSPRequest`,
/// `Content-Type: application/ocsp-request`) or a CRL download (HTTP GET).
public struct RevocationRequest: Sendable, Hashable, CustomStringConvertible {
    /// What is asked for.
    public enum Kind: Sendable, Hashable {
        /// An OCSP response; `body` is the DER request to POST.
        case ocsp
        /// A CRL (DER or PEM) to GET.
        case crl
    }

    /// What is asked for.
    public let kind: Kind
    /// The responder or distribution point URL, from the certificate.
    public let url: String
    /// The body to POST (OCSP), or nil (CRL).
    public let body: [UInt8]?

    /// A request.
    public init(kind: Kind, url: String, body: [UInt8]?) {
        self.kind = kind
        self.url = url
        self.body = body
    }

    /// `OCSP POST <url>` or `CRL GET <url>`.
    public var description: String { kind == .ocsp ? "OCSP POST \(url)" : "CRL GET \(url)" }
}

/// Fetches revocation data. The transport provides the real one (plain HTTP through Wick's
/// own connections); tests provide one that answers from a local CA.
///
/// `fetch` blocks until the answer arrives or fails; it is called from trust evaluation,
/// which the transport runs off the event loops.
public protocol RevocationFetching: Sendable {
    /// The response body for `request`.
    /// - Throws: any error; the evaluator treats it as "status unknown".
    func fetch(_ request: RevocationRequest) throws -> [UInt8]
}

/// A fetcher made from a closure.
public struct ClosureRevocationFetcher: RevocationFetching {
    private let body: @Sendable (RevocationRequest) throws -> [UInt8]

    /// A fetcher that calls `body`.
    public init(_ body: @escaping @Sendable (RevocationRequest) throws -> [UInt8]) {
        self.body = body
    }

    /// Calls the closure.
    /// - Throws: what the closure throws.
    public func fetch(_ request: RevocationRequest) throws -> [UInt8] { try body(request) }
}
