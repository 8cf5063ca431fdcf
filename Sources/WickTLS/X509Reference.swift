// One reference to an OpenSSL X509, shared by the copies of a Certificate value.
internal import CWickOpenSSL

/// Holds one reference to a parsed `X509` and releases it when the last `Certificate` copy
/// that shares it dies. Keeping OpenSSL's parsed form next to the DER matters: `d2i_X509` costs
/// about 130 µs on OpenSSL 3.0 (its key decoders are slow), so verification must not re-parse.
final class X509Reference: @unchecked Sendable {
    // @unchecked Sendable: an X509 is never modified after parsing except for OpenSSL's
    // internal caches (extension flags), which OpenSSL 3 guards with the object's own lock; its
    // reference count is atomic. OpenSSL shares X509s between threads the same way (SSL_CTX
    // chains, X509_STORE contents).
    let pointer: OpaquePointer

    /// Takes over one reference the caller owns.
    init(takingOwnershipOf pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Takes a new reference to an X509 someone else owns.
    convenience init(retaining pointer: OpaquePointer) {
        X509_up_ref(pointer)
        self.init(takingOwnershipOf: pointer)
    }

    /// A new reference for a consumer that will release it (a stack freed with pop_free).
    func retainedPointer() -> OpaquePointer {
        X509_up_ref(pointer)
        return pointer
    }

    deinit {
        X509_free(pointer)
    }
}
