// Which certificates a client trusts as anchors.

/// The trust anchors a `TLSContext` loads once and every connection and evaluator shares.
public enum TrustRoots: Sendable, Hashable {
    /// The system store: OpenSSL's default file and directory, overridden by the `SSL_CERT_FILE`
    /// and `SSL_CERT_DIR` environment variables when set.
    case system
    /// Exactly these certificates; the system store is not loaded.
    case certificates([Certificate])
}
