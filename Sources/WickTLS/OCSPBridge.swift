// The OpenSSL bridge for OCSP and CRL answers: build requests, verify responses, read windows.
internal import CWickOpenSSL
import FoundationEssentials

/// What one revocation source said about a certificate.
enum RevocationOutcome: Equatable {
    /// Not revoked; the answer is good until `nextUpdate` (nil: no stated end).
    case good(nextUpdate: Date?)
    /// Revoked, with the reason given.
    case revoked(reason: String, nextUpdate: Date?)
    /// No usable answer, and why.
    case unknown(String)
}

/// OCSP requests and responses and CRL windows.
///
/// Invariant: every OCSP_*, X509, X509_CRL and stack made here is freed before the function
/// that made it returns.
enum OCSPBridge {
    /// The DER OCSP request for `leaf` issued by `issuer` (no nonce, so answers can be cached).
    static func request(leaf: Certificate, issuer: Certificate) -> [UInt8]? {
        guard let request = OCSP_REQUEST_new() else { return nil }
        defer { OCSP_REQUEST_free(request) }
        // SAFETY: add0 hands the id to the request, freed with it.
        guard let id = OCSP_cert_to_id(nil, leaf.x509.pointer, issuer.x509.pointer),
            OCSP_request_add0_id(request, id) != nil
        else {
            ERR_clear_error()
            return nil
        }
        // SAFETY: measure, then write exactly that many bytes into our buffer.
        let length = i2d_OCSP_REQUEST(request, nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_OCSP_REQUEST(request, &cursor)
        }
        return bytes
    }

    /// Clock skew tolerated around an OCSP response's thisUpdate...nextUpdate window.
    static let allowedClockSkew: Double = 300

    /// What the DER OCSP `response` says about `leaf`: its signature must verify (the issuer
    /// or a delegated responder chaining to `store`), its status must be successful, and `now`
    /// must lie within thisUpdate...nextUpdate (`allowedClockSkew` either side).
    static func check(
        response: [UInt8], leaf: Certificate, issuer: Certificate, intermediates: [Certificate], store: TrustStore,
        now: Date
    ) -> RevocationOutcome {
        defer { ERR_clear_error() }
        let parsed: OpaquePointer? = response.withUnsafeBufferPointer { buffer in
            // SAFETY: d2i reads at most `count` bytes of our buffer.
            var cursor = buffer.baseAddress
            return d2i_OCSP_RESPONSE(nil, &cursor, buffer.count)
        }
        guard let parsed else { return .unknown("the OCSP response is not DER") }
        defer { OCSP_RESPONSE_free(parsed) }
        let status = OCSP_response_status(parsed)
        guard status == OCSP_RESPONSE_STATUS_SUCCESSFUL else {
            return .unknown("the OCSP responder answered \(String(cString: OCSP_response_status_str(Int(status))))")
        }
        guard let basic = OCSP_response_get1_basic(parsed) else {
            return .unknown("the OCSP response has no basic response")
        }
        defer { OCSP_BASICRESP_free(basic) }
        guard let certificates = cwick_sk_X509_new_null() else { return .unknown("out of memory") }
        defer { cwick_sk_X509_pop_free(certificates) }
        for certificate in [issuer] + intermediates {
            _ = cwick_sk_X509_push(certificates, certificate.x509.retainedPointer())
        }
        guard OCSP_basic_verify(basic, certificates, store.pointer, 0) == 1 else {
            return .unknown("the OCSP response's signature does not verify: \(OpenSSLErrorQueue.drain())")
        }
        guard let id = OCSP_cert_to_id(nil, leaf.x509.pointer, issuer.x509.pointer) else {
            return .unknown("cannot make the OCSP id")
        }
        defer { OCSP_CERTID_free(id) }
        var certificateStatus: Int32 = -1
        var reason: Int32 = -1
        var revoked: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        // SAFETY: the times point into `basic`, alive until the defer frees it.
        guard OCSP_resp_find_status(basic, id, &certificateStatus, &reason, &revoked, &thisUpdate, &nextUpdate) == 1
        else { return .unknown("the OCSP response does not cover \(leaf.subject)") }
        let next = nextUpdate.map { X509Parsing.date(UnsafePointer($0)) }
        guard let this = thisUpdate.map({ X509Parsing.date(UnsafePointer($0)) }),
            this.timeIntervalSince(now) <= Self.allowedClockSkew,
            next.map({ now.timeIntervalSince($0) <= Self.allowedClockSkew }) ?? true
        else {
            return .unknown("the OCSP response is outside its thisUpdate/nextUpdate window at \(now)")
        }
        switch certificateStatus {
        case V_OCSP_CERTSTATUS_GOOD:
            return .good(nextUpdate: next)
        case V_OCSP_CERTSTATUS_REVOKED:
            // SAFETY: OCSP_crl_reason_str returns a static string.
            let text = reason >= 0 ? String(cString: OCSP_crl_reason_str(Int(reason))) : "no reason given"
            return .revoked(reason: "OCSP: \(text)", nextUpdate: next)
        default:
            return .unknown("the OCSP responder does not know \(leaf.subject)")
        }
    }

    /// The nextUpdate of a DER or PEM CRL, if it is readable and states one.
    static func nextUpdate(ofCRL bytes: [UInt8]) -> Date? {
        guard let crl = ChainVerifier.makeCRL(bytes) else { return nil }
        defer { X509_CRL_free(crl) }
        // SAFETY: the time belongs to the CRL, alive until the defer.
        return X509_CRL_get0_nextUpdate(crl).map { X509Parsing.date($0) }
    }
}
