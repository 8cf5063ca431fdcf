// Which stored responses an unsafe request makes stale (RFC 9111 §4.4).
import FoundationEssentials
import WickCore

/// The URLs whose stored responses a non-error response to an unsafe request invalidates
/// (RFC 9111 §4.4): the target URI, and the URIs of its `Location` and `Content-Location`
/// fields (resolved against the target) when they have the target's origin, "to help prevent
/// denial-of-service attacks".
enum CacheInvalidation {
    static func targets(of target: URL, responseHeaders: HTTPHeaders) -> [URL] {
        var urls = [target]
        for name in ["Location", "Content-Location"] {
            guard let value = responseHeaders.value(for: name), let url = URL(string: value, relativeTo: target)?.absoluteURL,
                isSameOrigin(url, target)
            else { continue }
            urls.append(url)
        }
        return urls
    }

    /// Same scheme, host and port (default ports made explicit), case-insensitively.
    static func isSameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int)? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            return (scheme, host, url.port ?? (scheme == "https" ? 443 : 80))
        }
        guard let left = origin(lhs), let right = origin(rhs) else { return false }
        return left == right
    }
}
