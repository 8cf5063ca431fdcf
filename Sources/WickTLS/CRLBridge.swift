// The OpenSSL bridge for CRLs: is this CRL usable for this certificate, and what does it say.
internal import CWickOpenSSL
import FoundationEssentials

/// Judges a downloaded CRL for one certificate by RFC 5280 §6.3, without `X509_verify_cert`
/// (which checks CRLs for the leaf only unless every certificate's CRL is at hand at once).
///
/// A CRL is used only if it was issued by the certificate's issuer (same name, signed by its
/// key, which may sign CRLs), covers the certificate (an issuingDistributionPoint that names
/// other distribution points than the one it was fetched from, or limits it to other kinds of
/// certificates, to some reasons, or to indirect entries makes it unusable), carries no
/// critical extension Wick does not understand (delta CRLs included), and is fresh
/// (`RevocationWindow`; a CRL without nextUpdate is non-conforming, §5.1.2.5).
///
/// Invariant: every X509_CRL, extension structure and ASN1 value made here is freed before
/// the function that made it returns.
enum CRLBridge {
    /// CRL extensions that may be critical and are handled here (RFC 5280 §5.2).
    private static let understoodExtensions: Set<Int32> = [
        NID_authority_key_identifier, NID_crl_number, NID_issuing_distribution_point, NID_issuer_alt_name,
    ]
    /// CRL entry extensions that may be critical and are understood (RFC 5280 §5.3); the
    /// certificateIssuer of indirect CRLs is not.
    private static let understoodEntryExtensions: Set<Int32> = [
        NID_crl_reason, NID_invalidity_date, NID_hold_instruction_code,
    ]

    /// What the DER or PEM CRL `bytes`, fetched from `url` (one of the certificate's
    /// distribution points), says about `certificate`, issued by `issuer`, at `now`.
    static func check(
        crl bytes: [UInt8], from url: String, for certificate: Certificate, issuer: Certificate, now: Date
    )
        -> RevocationOutcome
    {
        defer { ERR_clear_error() }
        guard let crl = makeCRL(bytes) else { return .unknown("the CRL is neither DER nor PEM") }
        defer { X509_CRL_free(crl) }
        // SAFETY: every pointer read below belongs to `crl` or to a certificate's X509, alive
        // until this function returns.
        guard X509_NAME_cmp(X509_CRL_get_issuer(crl), X509_get_subject_name(issuer.x509.pointer)) == 0 else {
            return .unknown("the CRL is issued by \(X509Parsing.name(X509_CRL_get_issuer(crl))), not \(issuer.subject)")
        }
        guard X509_get_key_usage(issuer.x509.pointer) & UInt32(KU_CRL_SIGN) != 0 else {
            return .unknown("\(issuer.subject) may not sign CRLs (its key usage lacks cRLSign)")
        }
        guard let key = X509_get0_pubkey(issuer.x509.pointer), X509_CRL_verify(crl, key) == 1 else {
            return .unknown("the CRL's signature does not verify with the key of \(issuer.subject)")
        }
        if let problem = unusableExtensions(crl, url: url, certificate: certificate) {
            return .unknown("the CRL \(problem)")
        }
        let this = X509Parsing.date(X509_CRL_get0_lastUpdate(crl))
        guard let nextTime = X509_CRL_get0_nextUpdate(crl) else {
            return .unknown("the CRL states no nextUpdate (RFC 5280 §5.1.2.5)")
        }
        let next = X509Parsing.date(nextTime)
        if let problem = RevocationWindow.problem(thisUpdate: this, nextUpdate: next, now: now) {
            return .unknown("the CRL is outside its thisUpdate/nextUpdate window: \(problem)")
        }
        var entry: OpaquePointer?
        // 1: listed; 2: listed as removeFromCRL (delta CRLs only, which are refused above).
        guard X509_CRL_get0_by_cert(crl, &entry, certificate.x509.pointer) == 1, let entry else {
            return .good(nextUpdate: next)
        }
        if let critical = unknownCriticalExtension(
            (0..<X509_REVOKED_get_ext_count(entry)).compactMap { X509_REVOKED_get_ext(entry, $0) },
            understood: understoodEntryExtensions)
        {
            return .unknown(
                "the CRL's entry for \(certificate.subject) has a critical extension Wick does not understand (\(critical))"
            )
        }
        return .revoked(reason: "CRL: \(reason(entry))", nextUpdate: next)
    }

    /// Why the CRL's extensions make it unusable for `certificate`, or nil.
    private static func unusableExtensions(_ crl: OpaquePointer, url: String, certificate: Certificate) -> String? {
        let extensions = (0..<X509_CRL_get_ext_count(crl)).compactMap { X509_CRL_get_ext(crl, $0) }
        if let critical = unknownCriticalExtension(extensions, understood: understoodExtensions) {
            return "has a critical extension Wick does not understand (\(critical))"
        }
        guard let raw = X509_CRL_get_ext_d2i(crl, NID_issuing_distribution_point, nil, nil) else { return nil }
        // SAFETY: for NID_issuing_distribution_point, X509_CRL_get_ext_d2i returns a newly decoded
        // ISSUING_DIST_POINT that we own; it is freed once by the defer, and `point` is used only
        // before.
        let point = raw.assumingMemoryBound(to: ISSUING_DIST_POINT.self)
        defer { ISSUING_DIST_POINT_free(point) }
        // RFC 5280 §6.3.3 (b)(2)(i): a distribution point named in the CRL must be the one used.
        // SAFETY: `point` is live until the defer frees it at return; distpoint (possibly nil) belongs
        // to it, and `uris(in:)` copies the names into Strings.
        let names = X509Parsing.uris(in: point.pointee.distpoint)
        if !names.isEmpty && !names.contains(url) {
            return "is for \(names.joined(separator: ", ")), not \(url) where it was fetched"
        }
        // SAFETY: `point` is live until the defer above frees it at return; these reads copy plain
        // integer fields of the ISSUING_DIST_POINT.
        if point.pointee.onlyuser != 0 && certificate.isCertificateAuthority {
            return "covers only end-entity certificates, and \(certificate.subject) is a CA"
        }
        if point.pointee.onlyCA != 0 && !certificate.isCertificateAuthority {
            return "covers only CA certificates, and \(certificate.subject) is not one"
        }
        if point.pointee.onlyattr != 0 { return "covers only attribute certificates" }
        // SAFETY: still before the defer's free; onlysomereasons is a pointer only compared with nil
        // (never followed), indirectCRL a plain integer.
        if point.pointee.onlysomereasons != nil { return "covers only some revocation reasons" }
        if point.pointee.indirectCRL != 0 { return "is indirect, which Wick does not support" }
        return nil
    }

    /// The OID of the first critical extension not in `understood`, or nil.
    private static func unknownCriticalExtension(_ extensions: [OpaquePointer], understood: Set<Int32>) -> String? {
        extensions.lazy.filter { X509_EXTENSION_get_critical($0) != 0 }
            .map { X509_EXTENSION_get_object($0) }
            .first { !understood.contains(OBJ_obj2nid($0)) }
            .map(X509Parsing.oidText)
    }

    /// The entry's reasonCode as RFC 5280 names it, or "no reason given".
    private static func reason(_ entry: OpaquePointer) -> String {
        guard let raw = X509_REVOKED_get_ext_d2i(entry, NID_crl_reason, nil, nil) else { return "no reason given" }
        // SAFETY: for NID_crl_reason, X509_REVOKED_get_ext_d2i returns a newly decoded ASN1_ENUMERATED
        // that we own; the defer frees it once, after ASN1_ENUMERATED_get has read it.
        let code = raw.assumingMemoryBound(to: ASN1_ENUMERATED.self)
        defer { ASN1_ENUMERATED_free(code) }
        // SAFETY: OCSP_crl_reason_str returns a static string.
        return String(cString: OCSP_crl_reason_str(Int(ASN1_ENUMERATED_get(code))))
    }

    /// A new X509_CRL from DER (or PEM), owned by the caller; nil if unreadable.
    static func makeCRL(_ bytes: [UInt8]) -> OpaquePointer? {
        let crl: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            // SAFETY: d2i reads at most `count` bytes; the PEM BIO reads our buffer and is freed.
            var cursor = buffer.baseAddress
            if let crl = d2i_X509_CRL(nil, &cursor, buffer.count) { return crl }
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_X509_CRL(bio, nil, nil, nil)
        }
        ERR_clear_error()
        return crl
    }
}
