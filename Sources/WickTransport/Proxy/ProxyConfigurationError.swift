// Why a proxy URL, a proxy environment variable or an HTTPS proxy's trust cannot be used.
public import WickTLS

/// Why a proxy setting was refused. Nothing is sent through, or around, a proxy that is
/// configured wrongly: a request that would use it fails with
/// `WickError.invalidProxyConfiguration` rather than going direct. Passwords never appear in
/// the messages.
public indirect enum ProxyConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The proxy URL's scheme is not one `ProxyScheme` names (`https`, `socks`...). `url` is the
    /// URL with any password masked.
    case unsupportedScheme(String, url: String)
    /// The proxy URL does not parse: `reason` says why. `url` is masked as above.
    case malformedURL(String, reason: String)
    /// The environment variable `name` holds an unusable proxy URL.
    case environmentVariable(name: String, error: ProxyConfigurationError)
    /// The `https` proxy `proxy` (`scheme://host:port`)'s `tlsTrust` could not be made into a
    /// TLS context: `error` says why (the system store could not be loaded).
    case unusableTLSTrust(proxy: String, error: TLSError)

    /// What is wrong, for people.
    public var description: String {
        switch self {
        case .unsupportedScheme(let scheme, let url):
            "unsupported proxy scheme \(scheme) in \(url): the schemes supported are "
                + ProxyScheme.allCases.map { "\($0)://" }.joined(separator: ", ")
        case .malformedURL(let url, let reason): "invalid proxy URL \(url): \(reason)"
        case .environmentVariable(let name, let error): "\(name): \(error)"
        case .unusableTLSTrust(let proxy, let error): "the trust of proxy \(proxy) cannot be used: \(error)"
        }
    }
}
