// Where a request the transport could not prepare (a bad URL, proxy settings, TLS) becomes a
// public `WickError`.
import WickTransport

extension WickError {
    /// The public form of a request the transport could not prepare.
    init(preparing error: TransportPreparationError) {
        switch error {
        case .invalidURL(let url, let reason): self = .invalidURL(url: url, reason: reason)
        case .invalidProxyConfiguration(let failure): self = .invalidProxyConfiguration(failure)
        case .tlsUnavailable(let failure): self.init(TransportError.tlsUnavailable(failure))
        }
    }
}
