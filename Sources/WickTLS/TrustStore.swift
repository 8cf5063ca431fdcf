// The set of trust anchors chains are verified against: an OpenSSL X509_STORE, loaded once.
internal import CWickOpenSSL

/// Trust anchors for chain verification, loaded once and shared (an OpenSSL `X509_STORE`).
/// A `TLSContext` owns one (`context.trustStore`); tests and tools can make their own.
public final class TrustStore: @unchecked Sendable {
    // @unchecked Sendable: the store is filled in init and only read afterwards; OpenSSL's
    // X509_STORE locks its own lookups, so concurrent verifications are safe.

    /// The `X509_STORE`, one reference owned.
    let pointer: OpaquePointer

    /// A store holding `roots` plus `additional`.
    /// - Throws: `TLSError.invalidConfiguration` if the system store cannot be loaded or a root
    ///   is unusable.
    public init(roots: TrustRoots, additional: [Certificate] = []) throws(TLSError) {
        guard let store = X509_STORE_new() else {
            throw .invalidConfiguration("X509_STORE_new: \(OpenSSLErrorQueue.drain())")
        }
        pointer = store
        switch roots {
        case .system:
            guard X509_STORE_set_default_paths(store) == 1 else {
                throw .invalidConfiguration("system trust store: \(OpenSSLErrorQueue.drain())")
            }
            Self.add(additional, to: store)
        case .certificates(let certificates):
            Self.add(certificates + additional, to: store)
        }
    }

    /// Shares a store OpenSSL already holds (a context's), taking a reference.
    init(retaining store: OpaquePointer) {
        X509_STORE_up_ref(store)
        pointer = store
    }

    deinit {
        X509_STORE_free(pointer)
    }

    static func add(_ certificates: [Certificate], to store: OpaquePointer) {
        for certificate in certificates {
            // SAFETY: the store takes its own reference. A duplicate is harmless.
            if X509_STORE_add_cert(store, certificate.x509.pointer) != 1 { ERR_clear_error() }
        }
    }
}
