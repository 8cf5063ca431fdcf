// Types that can name a request's URL: String, URL, URLComponents.
public import FoundationEssentials

/// A value that can be turned into a URL for `Session.request`.
public protocol URLConvertible: Sendable {
    /// The URL.
    /// - Throws: `WickError.invalidURL` when the value does not parse as a URL.
    func asURL() throws(WickError) -> URL
}

extension String: URLConvertible {
    /// Parses the string (RFC 3986).
    /// - Throws: `WickError.invalidURL` when it does not parse.
    public func asURL() throws(WickError) -> URL {
        guard let url = URL(string: self) else { throw .invalidURL(url: self, reason: "it does not parse as a URL") }
        return url
    }
}

extension URL: URLConvertible {
    /// The URL itself; never throws.
    public func asURL() throws(WickError) -> URL { self }
}

extension URLComponents: URLConvertible {
    /// The components' URL.
    /// - Throws: `WickError.invalidURL` when the components make no URL.
    public func asURL() throws(WickError) -> URL {
        guard let url else { throw .invalidURL(url: "\(self)", reason: "the components make no URL") }
        return url
    }
}
