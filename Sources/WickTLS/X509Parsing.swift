// The OpenSSL bridge for certificates: DER/PEM in, `Certificate` values out, every X509 freed.
internal import CWickOpenSSL
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Conversions between `Certificate` values and OpenSSL's `X509` objects.
///
/// Invariant: every `X509*`, `BIO*`, stack and extension structure created here is freed before
/// the function that created it returns (a `defer` right after the creation), except the X509s
/// that `makeX509` hands to its caller and that `Certificate` values keep in an `X509Reference`.
enum X509Parsing {
    /// A new `X509` for `der`; the caller frees it with `X509_free`.
    static func makeX509(_ der: [UInt8]) throws(CertificateError) -> OpaquePointer {
        let result: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            // SAFETY: d2i_X509 reads at most `count` bytes from the buffer, which outlives the call,
            // and advances `cursor` past what it parsed.
            var cursor = buffer.baseAddress
            guard let x509 = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            guard let cursor, cursor == buffer.baseAddress! + buffer.count else {
                X509_free(x509)
                ERR_clear_error()
                return nil
            }
            return x509
        }
        guard let result else {
            let reason = OpenSSLErrorQueue.drain()
            throw .invalidDER(reason: reason.isEmpty ? "trailing bytes after the certificate" : reason)
        }
        return result
    }

    /// The DER of an `X509` the caller still owns.
    static func der(of x509: OpaquePointer) -> [UInt8] {
        // SAFETY: i2d_X509 with a NULL output pointer only measures; the second call writes exactly
        // that many bytes into our buffer.
        let length = i2d_X509(x509, nil)
        precondition(length > 0, "i2d_X509 failed on a certificate OpenSSL itself holds")
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509(x509, &cursor)
        }
        return bytes
    }

    /// The `Certificate` for an `X509` the caller still owns (the value takes its own reference).
    static func certificate(from x509: OpaquePointer) -> Certificate {
        certificate(sharing: X509Reference(retaining: x509))
    }

    /// The `Certificate` for a referenced `X509`.
    static func certificate(sharing reference: X509Reference) -> Certificate {
        let x509 = reference.pointer
        let der = der(of: x509)
        // SAFETY: every getter below returns a pointer into `x509`, which the caller keeps alive.
        // OBJ_nid2sn/OBJ_nid2ln return static strings.
        let flags = X509_get_extension_flags(x509)
        let key = X509_get0_pubkey(x509)
        let (dns, ips) = subjectAlternativeNames(x509)
        let subjectName = name(X509_get_subject_name(x509))
        let issuerName = name(X509_get_issuer_name(x509))
        return Certificate(
            derBytes: der,
            subject: subjectName,
            issuer: issuerName,
            serialNumber: serial(x509),
            notValidBefore: date(X509_get0_notBefore(x509)),
            notValidAfter: date(X509_get0_notAfter(x509)),
            dnsNames: dns,
            ipAddresses: ips,
            isCertificateAuthority: flags & UInt32(EXFLAG_CA) != 0,
            isSelfIssued: X509_NAME_cmp(X509_get_subject_name(x509), X509_get_issuer_name(x509)) == 0,
            sha256Fingerprint: sha256(der),
            publicKey: PublicKey(spkiSHA256: sha256(spki(x509))),
            publicKeyAlgorithm: key.map { String(cString: OBJ_nid2sn(EVP_PKEY_get_base_id($0))) } ?? "unknown",
            publicKeyBits: key.map { Int(EVP_PKEY_get_bits($0)) } ?? 0,
            signatureAlgorithm: String(cString: OBJ_nid2ln(X509_get_signature_nid(x509))),
            ocspResponderURLs: ocspURLs(x509),
            crlDistributionPoints: crlURLs(x509),
            x509: reference)
    }

    /// Parses `der` into a `Certificate`.
    static func certificate(fromDER der: [UInt8]) throws(CertificateError) -> Certificate {
        certificate(sharing: X509Reference(takingOwnershipOf: try makeX509(der)))
    }

    /// The DER of every `CERTIFICATE` block of a PEM text, in order.
    static func derBlocks(fromPEM pem: [UInt8]) throws(CertificateError) -> [[UInt8]] {
        var blocks: [[UInt8]] = []
        let failure: String? = pem.withUnsafeBufferPointer { buffer in
            // SAFETY: the memory BIO reads our buffer, which outlives it (freed by the defer).
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                return OpenSSLErrorQueue.drain()
            }
            defer { BIO_free(bio) }
            while true {
                guard let x509 = PEM_read_bio_X509(bio, nil, nil, nil) else {
                    let (library, reason, text) = OpenSSLErrorQueue.drainFirstReason()
                    // Running out of blocks is how the loop ends; anything else is damage.
                    let ended = library == ERR_LIB_PEM && reason == PEM_R_NO_START_LINE
                    return ended ? nil : text
                }
                blocks.append(der(of: x509))
                X509_free(x509)
            }
        }
        if let failure { throw .invalidPEM(reason: failure) }
        return blocks
    }

    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        // SAFETY: SHA256 reads `count` bytes and writes 32 into a 32-byte buffer.
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest
    }

    /// The DER SubjectPublicKeyInfo of the certificate's key.
    static func spki(_ x509: OpaquePointer) -> [UInt8] {
        // SAFETY: the X509_PUBKEY belongs to `x509`; i2d measures then writes exactly `length` bytes.
        guard let publicKey = X509_get_X509_PUBKEY(x509) else { return [] }
        let length = i2d_X509_PUBKEY(publicKey, nil)
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509_PUBKEY(publicKey, &cursor)
        }
        return bytes
    }

    /// The dotted text of an OID, e.g. `1.3.6.1.5.5.7.48.1.2`.
    static func oidText(_ object: OpaquePointer?) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        // SAFETY: OBJ_obj2txt writes at most `count` bytes, its NUL included, into our buffer.
        let length = Int(OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1))
        guard length > 0 else { return "(unreadable OID)" }
        return String(
            decoding: buffer.prefix(min(length, buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A distinguished name in RFC 2253 form.
    static func name(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        // SAFETY: X509_NAME_print_ex writes into the memory BIO; BIO_get_mem_data points into the
        // BIO's buffer, which we copy before the BIO is freed.
        X509_NAME_print_ex(bio, name, 0, cwick_XN_FLAG_RFC2253())
        var data: UnsafeMutablePointer<CChar>?
        let length = cwick_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    private static func serial(_ x509: OpaquePointer) -> String {
        // SAFETY: the ASN1_INTEGER belongs to x509; the BIGNUM and its hex string are ours and freed.
        guard let bignum = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x509), nil) else { return "" }
        defer { BN_free(bignum) }
        guard let hex = BN_bn2hex(bignum) else { return "" }
        defer { cwick_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var parts = tm()
        // SAFETY: ASN1_TIME_to_tm fills our stack `tm` from a time that belongs to the certificate.
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: Double(timegm(&parts)))
    }

    private static func string(_ asn1: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        // SAFETY: the string's bytes belong to the extension structure, alive during this call.
        guard let asn1, let bytes = ASN1_STRING_get0_data(asn1) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(asn1))), as: UTF8.self)
    }

    private static func subjectAlternativeNames(_ x509: OpaquePointer) -> (dns: [String], ips: [String]) {
        // SAFETY: X509_get_ext_d2i returns a new GENERAL_NAMES that we free; its entries are read
        // before that.
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, nil, nil) else { return ([], []) }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var dns: [String] = []
        var ips: [String] = []
        for index in 0..<cwick_sk_GENERAL_NAME_num(names) {
            // SAFETY: index < the stack's count, so `name` is an entry owned by `names`, live until the
            // defer frees them all; each union member is read only under the `type` that selects it
            // (dNSName for GEN_DNS, iPAddress for GEN_IPADD), and `string`/`ipText` copy its bytes out.
            guard let name = cwick_sk_GENERAL_NAME_value(names, index) else { continue }
            switch name.pointee.type {
            case GEN_DNS: dns.append(string(name.pointee.d.dNSName))
            case GEN_IPADD: ips.append(ipText(name.pointee.d.iPAddress))
            default: continue
            }
        }
        return (dns, ips)
    }

    private static func ipText(_ asn1: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        guard let asn1, let bytes = ASN1_STRING_get0_data(asn1) else { return "" }
        let length = Int(ASN1_STRING_length(asn1))
        let family: Int32
        switch length {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return ""
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        // SAFETY: inet_ntop reads 4 or 16 bytes (checked above) and writes at most INET6_ADDRSTRLEN.
        let ok = text.withUnsafeMutableBufferPointer { inet_ntop(family, bytes, $0.baseAddress, socklen_t($0.count)) }
        guard ok != nil else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func ocspURLs(_ x509: OpaquePointer) -> [String] {
        // SAFETY: X509_get1_ocsp returns a new stack of strings, freed with X509_email_free.
        guard let urls = X509_get1_ocsp(x509) else { return [] }
        defer { X509_email_free(urls) }
        return (0..<cwick_sk_OPENSSL_STRING_num(urls)).compactMap { index in
            cwick_sk_OPENSSL_STRING_value(urls, index).map { String(cString: $0) }
        }
    }

    private static func crlURLs(_ x509: OpaquePointer) -> [String] {
        // SAFETY: X509_get_ext_d2i returns a new CRL_DIST_POINTS that we free after reading it.
        guard let raw = X509_get_ext_d2i(x509, NID_crl_distribution_points, nil, nil) else { return [] }
        let points = OpaquePointer(raw)
        defer { CRL_DIST_POINTS_free(points) }
        var urls: [String] = []
        for index in 0..<cwick_sk_DIST_POINT_num(points) {
            urls += uris(in: cwick_sk_DIST_POINT_value(points, index)?.pointee.distpoint)
        }
        return urls
    }

    /// The URIs of a distribution point's name (of a certificate's CRL distribution point or a
    /// CRL's issuing distribution point). A full name (type 0) is a GENERAL_NAMES; a name
    /// relative to the issuer cannot hold a URI.
    static func uris(in pointName: UnsafeMutablePointer<DIST_POINT_NAME>?) -> [String] {
        // SAFETY: the name belongs to the extension structure the caller holds.
        guard let pointName, pointName.pointee.type == 0, let names = pointName.pointee.name.fullname else { return [] }
        return (0..<cwick_sk_GENERAL_NAME_num(names)).compactMap { index in
            guard let name = cwick_sk_GENERAL_NAME_value(names, index), name.pointee.type == GEN_URI else { return nil }
            return string(name.pointee.d.uniformResourceIdentifier)
        }
    }
}
