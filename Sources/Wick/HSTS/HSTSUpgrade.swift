// The URL an http request to a known HSTS host is sent to (RFC 6797 §8.3).
import FoundationEssentials

/// RFC 6797 §8.3's replacement of an http URL to a known HSTS host: the scheme becomes https,
/// an explicit port 80 becomes 443, any other explicit port is kept, the rest is unchanged.
enum HSTSUpgrade {
    /// The https URL `url` becomes under `storage` at `now`, or nil when it stays as it is (not
    /// http, no host, the host unknown to the store, or an empty store).
    static func upgraded(_ url: URL, storage: any HSTSStorage, now: Date) -> URL? {
        guard !storage.isEmpty, url.scheme?.lowercased() == "http", let host = url.host,
            storage.requiresHTTPS(forHost: host, now: now),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        components.scheme = "https"
        if components.port == 80 { components.port = 443 }
        return components.url
    }
}
