// Why a Unix-socket target (a socket path or an `http+unix` URL) was refused before any I/O.

/// Why a Unix domain socket path or URL cannot be used. Thrown by `UnixSocketPath.init` and
/// `TransportDestination.parseUnixURL` (so by `TransportRequest.init(_:unixURL:...)`;
/// `TransportDestination.init` reports it as `invalidURL` with its description); nothing has been
/// sent when it is.
enum UnixSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The socket path is empty (also `http+unix:///path`, whose authority is empty).
    case emptyPath
    /// The socket path has `length` bytes of UTF-8, more than `limit` (`sun_path` less its NUL).
    case pathTooLong(String, length: Int, limit: Int)
    /// The socket path contains a NUL byte (the kernel would read a shorter path; Linux's
    /// abstract namespace, a leading NUL, is not supported).
    case pathContainsNUL(String)
    /// The URL's socket path has a `%` at `offset` (in bytes) not followed by two hex digits.
    case invalidPercentEncoding(String, offset: Int)
    /// The URL's socket path decodes to bytes that are not UTF-8.
    case pathNotUTF8(String)
    /// The URL is not `http+unix://`, `https+unix://` or `unix://` followed by the rest.
    case unsupportedURL(String)
    /// A `unix://` URL has a `?` or `#`: its whole rest is the socket path, so those must be
    /// percent-encoded.
    case queryInUnixURL(String)

    /// What is wrong, for people.
    var description: String {
        switch self {
        case .emptyPath:
            "the Unix socket path is empty"
        case .pathTooLong(let path, let length, let limit):
            "the Unix socket path \(path) has \(length) bytes, more than the limit of \(limit)"
        case .pathContainsNUL(let path):
            "the Unix socket path \(path.debugDescription) contains a NUL byte"
        case .invalidPercentEncoding(let text, let offset):
            "the Unix socket path \(text) has an invalid percent-encoding at byte \(offset)"
        case .pathNotUTF8(let text):
            "the Unix socket path \(text) does not decode to UTF-8"
        case .unsupportedURL(let url):
            "\(url) is not an http+unix://, https+unix:// or unix:// URL"
        case .queryInUnixURL(let url):
            "the unix:// URL \(url) has a query or fragment; its whole rest is the socket path"
        }
    }
}
