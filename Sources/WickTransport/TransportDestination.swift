// Where a request goes, read from its URL (and optional socket path) in one place: http, https,
// and the Unix-socket URLs http+unix, https+unix and unix.
package import FoundationEssentials
import WickCore

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
package struct TransportDestination: Sendable {
    /// `http` or `https` (`http+unix` and `unix` are `http`, `https+unix` is `https`).
    package let scheme: TransportOrigin.Scheme
    /// The server's name or address, IPv6 without brackets; `unixSocketDefaultHost` for a
    /// Unix-socket URL. Made when asked for (the session's check of a URL never asks).
    package var host: String { parts?.host ?? Self.unixSocketDefaultHost }
    /// The port as the URL writes it; nil for the scheme's default.
    package let port: Int?
    /// The socket connections go to instead of `host:port`; nil for TCP.
    package let unixSocketPath: UnixSocketPath?
    /// The URL, for errors.
    private let url: URL
    /// An http or https URL's parts; nil for a Unix-socket URL.
    private let parts: AbsoluteURLParts?
    /// A Unix-socket URL's target; nil for http and https, whose parts give it.
    private let unixTarget: String?

    /// Reads `url`, and `unixSocketPath` if given (a socket for an ordinary URL).
    /// - Throws: `TransportPreparationError.invalidURL`: a scheme other than http, https,
    ///   http+unix, https+unix or unix; no host; a bad Unix-socket URL or socket path
    ///   (`UnixSocketError`'s description is the reason); a Unix-socket URL with a socket path.
    package init(url: URL, unixSocketPath: String?) throws(TransportPreparationError) {
        self.url = url
        let urlParts = AbsoluteURLParts(url)
        // http and https first: the common case decides without making the scheme a string.
        let webScheme = urlParts.webScheme
        if webScheme == nil, Self.unixSchemes.contains(urlParts.scheme?.lowercasedIfNeeded() ?? "") {
            guard unixSocketPath == nil else {
                throw .invalidURL(
                    url: url.absoluteString, reason: "a Unix-socket URL names its own socket; pass no unixSocketPath")
            }
            do throws(UnixSocketError) {
                let (parsedScheme, path, target) = try Self.parseUnixURL(url.absoluteString)
                self.scheme = parsedScheme
                self.unixSocketPath = path
                unixTarget = target
            } catch {
                throw .invalidURL(url: url.absoluteString, reason: error.description)
            }
            parts = nil
            port = nil
            return
        }
        guard let webScheme else {
            throw .invalidURL(
                url: url.absoluteString, reason: "the scheme must be http, https, http+unix, https+unix or unix")
        }
        guard urlParts.hasHost else {
            throw .invalidURL(url: url.absoluteString, reason: "the URL has no host")
        }
        self.scheme = webScheme
        parts = urlParts
        port = urlParts.port
        unixTarget = nil
        if let unixSocketPath {
            do throws(UnixSocketError) {
                self.unixSocketPath = try UnixSocketPath(unixSocketPath)
            } catch {
                throw .invalidURL(url: url.absoluteString, reason: error.description)
            }
        } else {
            self.unixSocketPath = nil
        }
    }

    /// The origin-form target: the percent-encoded path (`/` when empty) and query. Made when
    /// asked for.
    package var target: String { unixTarget ?? parts?.target ?? "/" }

    /// The port to connect to: the URL's, or the scheme's default.
    /// - Throws: `TransportPreparationError.invalidURL` when the URL's port is beyond 65535.
    package func checkedPort() throws(TransportPreparationError) -> UInt16 {
        guard let port = UInt16(exactly: port ?? Int(scheme.defaultPort)) else {
            throw .invalidURL(url: url.absoluteString, reason: "the port is out of range")
        }
        return port
    }
}
