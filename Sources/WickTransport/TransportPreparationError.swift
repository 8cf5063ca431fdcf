// Why a request could not be put into transport terms; nothing was sent.
package import WickTLS

/// Why `TransportDestination` or `TransportClient.prepare` refused a request, before any
/// connection was looked for. The caller maps it to its public error.
package enum TransportPreparationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL (or the socket path given with it) cannot be sent to; `reason` says why, for
    /// people.
    case invalidURL(url: String, reason: String)
    /// The proxy rules could not be read (a proxy environment variable in use is unusable).
    case invalidProxyConfiguration(ProxyConfigurationError)
    /// The TLS context for https could not be built (unreadable trust roots).
    case tlsUnavailable(TLSError)

    package var description: String {
        switch self {
        case .invalidURL(let url, let reason): "invalid URL \(url): \(reason)"
        case .invalidProxyConfiguration(let error): "invalid proxy configuration: \(error)"
        case .tlsUnavailable(let error): "TLS is unavailable: \(error)"
        }
    }
}
