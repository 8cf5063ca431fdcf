// Where a request goes, read from its URL (and optional socket path) in one place: http, https,
// and the Unix-socket URLs http+unix, https+unix and unix.
package import FoundationEssentials
import WickCore
import WickHTTP1

/// The scheme, host, port, target and Unix socket of a request, read from its URL and the
/// socket path it may carry: the one reading of a request URL, used where a request is made
/// (to refuse a bad URL before anything runs), where it is sent (`TransportClient.prepare`) and
/// by the curl description.
///
/// - `http://host[:port]/path?query` and `https://...`: the host as the URL has it, an IPv6
///   literal without its brackets; the target is the percent-encoded path (`/` when empty) and
///   query; the fragment is dropped. With `unixSocketPath`, connections go to that socket and
///   the host and port only name the server (`Host` field, TLS name).
/// - `http+unix://`, `https+unix://`, `unix://` (see `init(unixURL:)`): the socket comes from
///   the URL, the host is `unixSocketDefaultHost`, the port the scheme's default; such a URL
///   with a `unixSocketPath` as well is refused.
///
/// The port is read as written and checked for range only when the request is sent
/// (`checkedPort()`), as it always was.
///
/// The reading is kept in one immutable object, so a copy is one reference: a request's
/// destination is made once (or taken from the session's memo of its last URL) and handed from
/// the request to the transport, and as inline fields (a URL, its parts, strings) every copy
/// and destroy retained and released each of them, some thirty reference-count operations a
/// request.
package struct TransportDestination: Sendable {
    /// `http` or `https` (`http+unix` and `unix` are `http`, `https+unix` is `https`).
    package var scheme: TransportOrigin.Scheme { storage.scheme }
    /// The server's name or address, IPv6 without brackets; `unixSocketDefaultHost` for a
    /// Unix-socket URL.
    package var host: String { storage.host }
    /// The port as the URL writes it; nil for the scheme's default.
    package var port: Int? { storage.port }
    /// The socket connections go to instead of `host:port`; nil for TCP.
    package var unixSocketPath: UnixSocketPath? { storage.unixSocketPath }
    /// The origin-form target: the percent-encoded path (`/` when empty) and query.
    package var target: String { storage.target }
    /// The `Host` field value for the checked port (`TransportRequest.hostFieldValue(host:port:scheme:)`),
    /// made with the reading; nil when the port is out of range.
    var hostFieldValue: String? { storage.hostFieldValue }
    /// Whether `target` and `hostFieldValue` pass the HTTP/1 encoder's checks
    /// (`HTTPRequestEncoder.isVettedOrigin(target:host:)`), checked once with the reading: a
    /// request sent to it is not checked for them again.
    var isVettedForHTTP1: Bool { storage.isVettedForHTTP1 }

    private let storage: Storage

    /// The fields, set once in `init` and only read after.
    private final class Storage: Sendable {
        let scheme: TransportOrigin.Scheme
        let host: String
        let port: Int?
        let unixSocketPath: UnixSocketPath?
        let target: String
        /// The URL, for errors.
        let url: URL
        let hostFieldValue: String?
        let isVettedForHTTP1: Bool

        init(
            scheme: TransportOrigin.Scheme, host: String, port: Int?, unixSocketPath: UnixSocketPath?,
            target: String, url: URL
        ) {
            self.scheme = scheme
            self.host = host
            self.port = port
            self.unixSocketPath = unixSocketPath
            self.target = target
            self.url = url
            let hostFieldValue = UInt16(exactly: port ?? Int(scheme.defaultPort)).map { port in
                TransportRequest.hostFieldValue(host: host, port: port, scheme: scheme)
            }
            self.hostFieldValue = hostFieldValue
            isVettedForHTTP1 =
                hostFieldValue.map { HTTPRequestEncoder.isVettedOrigin(target: target, host: $0) } ?? false
        }
    }

    /// Reads `url`, and `unixSocketPath` if given (a socket for an ordinary URL).
    /// - Throws: `TransportPreparationError.invalidURL`: a scheme other than http, https,
    ///   http+unix, https+unix or unix; no host; a bad Unix-socket URL or socket path
    ///   (`UnixSocketError`'s description is the reason); a Unix-socket URL with a socket path.
    package init(url: URL, unixSocketPath: String?) throws(TransportPreparationError) {
        let urlParts = AbsoluteURLParts(url)
        // http and https first: the common case decides without making the scheme a string.
        let webScheme = urlParts.webScheme
        if webScheme == nil, Self.unixSchemes.contains(urlParts.scheme?.lowercasedIfNeeded() ?? "") {
            guard unixSocketPath == nil else {
                throw .invalidURL(
                    url: url.absoluteString, reason: "a Unix-socket URL names its own socket; pass no unixSocketPath")
            }
            do throws(UnixSocketError) {
                let (scheme, path, target) = try Self.parseUnixURL(url.absoluteString)
                storage = Storage(
                    scheme: scheme, host: Self.unixSocketDefaultHost, port: nil, unixSocketPath: path, target: target,
                    url: url)
            } catch {
                throw .invalidURL(url: url.absoluteString, reason: error.description)
            }
            return
        }
        guard let webScheme else {
            throw .invalidURL(
                url: url.absoluteString, reason: "the scheme must be http, https, http+unix, https+unix or unix")
        }
        guard urlParts.hasHost else {
            throw .invalidURL(url: url.absoluteString, reason: "the URL has no host")
        }
        var socket: UnixSocketPath?
        if let unixSocketPath {
            do throws(UnixSocketError) {
                socket = try UnixSocketPath(unixSocketPath)
            } catch {
                throw .invalidURL(url: url.absoluteString, reason: error.description)
            }
        }
        storage = Storage(
            scheme: webScheme, host: urlParts.host, port: urlParts.port, unixSocketPath: socket,
            target: urlParts.target, url: url)
    }

    /// Whether `other` is this same reading, not an equal one made again (the session's memo
    /// of its last URL hands one reading to every request to that URL).
    package func isSameReading(as other: TransportDestination) -> Bool { storage === other.storage }

    /// The port to connect to: the URL's, or the scheme's default.
    /// - Throws: `TransportPreparationError.invalidURL` when the URL's port is beyond 65535.
    package func checkedPort() throws(TransportPreparationError) -> UInt16 {
        guard let port = UInt16(exactly: port ?? Int(scheme.defaultPort)) else {
            throw .invalidURL(url: storage.url.absoluteString, reason: "the port is out of range")
        }
        return port
    }
}
