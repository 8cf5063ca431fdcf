// Unix domain socket destinations from `http+unix://`, `https+unix://` and `unix://` URLs.
import WickCore

extension TransportDestination {
    /// The schemes of Unix-socket URLs, lowercased.
    package static let unixSchemes: Set<String> = ["http+unix", "https+unix", "unix"]

    /// The socket path's host name when the URL gives none: the `Host` field and, for
    /// `https+unix`, the SNI name and the name trust is evaluated for.
    package static let unixSocketDefaultHost = "localhost"

    /// Splits a Unix-socket URL, in async-http-client's spellings, into its scheme, socket path
    /// and target:
    ///
    /// - `http+unix://<percent-encoded socket path><target>`, e.g.
    ///   `http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.43/info?all=1`: the authority (up to the
    ///   first `/`, `?` or `#`) is the socket path, percent-decoded; the rest is the target (`/`
    ///   when empty, a fragment dropped).
    /// - `https+unix://...`: the same, with TLS over the socket.
    /// - `unix://<socket path>`, e.g. `unix:///run/app.sock`: the whole rest, percent-decoded,
    ///   is the socket path and the target is `/`, for sockets whose service answers at its root.
    ///
    /// The scheme is matched without regard to case.
    /// - Throws: `UnixSocketError`: `.unsupportedURL`, `.invalidPercentEncoding`, `.pathNotUTF8`,
    ///   `.queryInUnixURL`, and `UnixSocketPath.init`'s `.emptyPath`, `.pathTooLong`,
    ///   `.pathContainsNUL`.
    static func parseUnixURL(
        _ url: String
    ) throws(UnixSocketError) -> (TransportOrigin.Scheme, UnixSocketPath, target: String) {
        guard let separator = url.firstRange(of: "://") else { throw .unsupportedURL(url) }
        let rest = url[separator.upperBound...]
        switch url[..<separator.lowerBound].lowercased() {
        case "unix":
            guard !rest.contains(where: { $0 == "?" || $0 == "#" }) else { throw .queryInUnixURL(url) }
            return (.http, try socketPath(percentEncoded: rest), "/")
        case let scheme where scheme == "http+unix" || scheme == "https+unix":
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            let path = try socketPath(percentEncoded: rest[..<authorityEnd])
            var target = rest[authorityEnd...]
            if let fragment = target.firstIndex(of: "#") { target = target[..<fragment] }
            return (scheme == "http+unix" ? .http : .https, path, target.hasPrefix("/") ? String(target) : "/" + target)
        default:
            throw .unsupportedURL(url)
        }
    }

    /// Percent-decodes a socket path (`%2F` is `/`; every other byte stands for itself).
    /// - Throws: `UnixSocketError.invalidPercentEncoding`, `.pathNotUTF8`, and
    ///   `UnixSocketPath.init`'s errors.
    static func socketPath(percentEncoded text: Substring) throws(UnixSocketError) -> UnixSocketPath {
        let decoded: [UInt8]
        do throws(PercentDecoding.BadEscape) {
            decoded = try PercentDecoding.bytes(text)
        } catch {
            throw .invalidPercentEncoding(String(text), offset: error.offset)
        }
        guard let path = String(validating: decoded, as: UTF8.self) else { throw .pathNotUTF8(String(text)) }
        return try UnixSocketPath(path)
    }
}

extension TransportRequest {
    /// A request to a Unix domain socket from a Unix-socket URL (`TransportDestination
    /// .parseUnixURL` reads it). `host` names the server behind the socket (`Host` field, TLS
    /// name), `localhost` by default; the port is the scheme's default, so it does not appear in
    /// the `Host` field.
    /// - Throws: `UnixSocketError` (see `parseUnixURL`).
    init(
        _ method: HTTPMethod, unixURL url: String, host: String = TransportDestination.unixSocketDefaultHost,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]? = nil, expectContinue: Bool = false,
        tls: TransportTLS? = nil
    ) throws(UnixSocketError) {
        let (scheme, path, target) = try TransportDestination.parseUnixURL(url)
        self.init(
            method, scheme, host: host, target: target, headers: headers, body: body, expectContinue: expectContinue,
            tls: tls, unixSocketPath: path)
    }
}
