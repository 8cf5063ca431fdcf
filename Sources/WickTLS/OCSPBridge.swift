// The OpenSSL bridge for OCSP and CRL answers: build requests, verify responses, read windows.
internal import CWickOpenSSL
import FoundationEssentials

/// OCSP requests and responses (RFC 6960).
///
/// Invariant: every OCSP_*, X509 and stack made here is freed before the function that made it
/// returns.
enum OCSPBridge {
    /// The DER OCSP request for `certificate` issued by `issuer` (no nonce, so answers can be cached).
    static func request(for certificate: Certificate, issuer: Certificate) -> [UInt8]? {
        guard let request = OCSP_REQUEST_new() else { return nil }
        defer { OCSP_REQUEST_free(request) }
        // SAFETY: add0 hands the id to the request, freed with it.
        guard let id = OCSP_cert_to_id(nil, certificate.x509.pointer, issuer.x509.pointer),
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

    /// The extensions an OCSP response may mark critical and still be used: the nonce
    /// (RFC 6960 §4.4.1), which Wick never sends but a responder may echo.
    private static let understoodExtensions: Set<Int32> = [NID_id_pkix_OCSP_Nonce]

    /// What the DER OCSP `response` says about `certificate`: its status must be successful,
    /// its signature must verify and its signer be authorized (RFC 6960 §4.2.2.2: `issuer`
    /// itself, or a responder `issuer` issued with id-kp-OCSPSigning, chaining to `store`),
    /// it must carry no critical extension Wick does not understand, and `now` must lie
    /// within thisUpdate...nextUpdate (`RevocationWindow`).
    static func check(
        response: [UInt8], for certificate: Certificate, issuer: Certificate, intermediates: [Certificate],
        store: TrustStore, now: Date
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
        // Flags 0: verify the signature, the signer's chain to `store`, and (ocsp_check_issuer)
        // that the signer is the certificate's issuer or a delegate of it with OCSPSigning.
        guard OCSP_basic_verify(basic, certificates, store.pointer, 0) == 1 else {
            return .unknown("the OCSP response's signature or signer does not verify: \(OpenSSLErrorQueue.drain())")
        }
        guard let id = OCSP_cert_to_id(nil, certificate.x509.pointer, issuer.x509.pointer) else {
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
        else { return .unknown("the OCSP response does not cover \(certificate.subject)") }
        if let critical = unknownCriticalExtension(basic, id: id) {
            return .unknown("the OCSP response has a critical extension Wick does not understand (\(critical))")
        }
        let next = nextUpdate.map { X509Parsing.date(UnsafePointer($0)) }
        guard let this = thisUpdate.map({ X509Parsing.date(UnsafePointer($0)) }) else {
            return .unknown("the OCSP response has no thisUpdate")
        }
        if let problem = RevocationWindow.problem(thisUpdate: this, nextUpdate: next, now: now) {
            return .unknown("the OCSP response is outside its thisUpdate/nextUpdate window: \(problem)")
        }
        switch certificateStatus {
        case V_OCSP_CERTSTATUS_GOOD:
            return .good(nextUpdate: next)
        case V_OCSP_CERTSTATUS_REVOKED:
            // SAFETY: OCSP_crl_reason_str returns a static string.
            let text = reason >= 0 ? String(cString: OCSP_crl_reason_str(Int(reason))) : "no reason given"
            return .revoked(reason: "OCSP: \(text)", nextUpdate: next)
        default:
            return .unknown("the OCSP responder does not know \(certificate.subject)")
        }
    }

    /// The OID of the first critical extension of the response data or of `id`'s single
    /// response that is not in `understoodExtensions`, or nil.
    private static func unknownCriticalExtension(_ basic: OpaquePointer, id: OpaquePointer) -> String? {
        var extensions: [OpaquePointer] = (0..<OCSP_BASICRESP_get_ext_count(basic)).compactMap {
            OCSP_BASICRESP_get_ext(basic, $0)
        }
        let index = OCSP_resp_find(basic, id, -1)
        if index >= 0, let single = OCSP_resp_get0(basic, index) {
            extensions += (0..<OCSP_SINGLERESP_get_ext_count(single)).compactMap { OCSP_SINGLERESP_get_ext(single, $0) }
        }
        // SAFETY: the extensions belong to `basic`, alive for the caller's whole check.
        return extensions.lazy.filter { X509_EXTENSION_get_critical($0) != 0 }
            .map { X509_EXTENSION_get_object($0) }
            .first { !understoodExtensions.contains(OBJ_obj2nid($0)) }
            .map(X509Parsing.oidText)
    }
}
