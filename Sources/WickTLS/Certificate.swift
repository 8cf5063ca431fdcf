// An X.509 certificate as a Swift value: its DER and the fields trust decisions need.
public import FoundationEssentials

/// An X.509 certificate: the DER it was made from plus the parsed fields Wick's trust evaluators
/// and users look at. A value type that owns its bytes; no OpenSSL object outlives the
/// initialiser. Two certificates are equal when their DER is equal.
public struct Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The DER encoding, exactly as received or loaded.
    public let derBytes: [UInt8]
    /// The subject's distinguished name in RFC 2253 form, e.g. `CN=localhost`.
    public let subject: String
    /// The issuer's distinguished name in RFC 2253 form.
    public let issuer: String
    /// The serial number as uppercase hexadecimal.
    public let serialNumber: String
    /// The start of the validity period.
    public let notValidBefore: Date
    /// The end of the validity period.
    public let notValidAfter: Date
    /// The DNS names of the subject alternative name extension, as written (wildcards included).
    public let dnsNames: [String]
    /// The IP addresses of the subject alternative name extension, in text form
    /// (`127.0.0.1`, `::1`).
    public let ipAddresses: [String]
    /// Whether the basic constraints extension marks this certificate as a CA.
    public let isCertificateAuthority: Bool
    /// Whether subject and issuer are the same name (a root, or a self-signed leaf).
    public let isSelfIssued: Bool
    /// The SHA-256 of the DER.
    public let sha256Fingerprint: [UInt8]
    /// The subject public key: the SHA-256 of its SubjectPublicKeyInfo, the pinning identity.
    public let publicKey: PublicKey
    /// The public key's algorithm name (`RSA`, `EC`, `ED25519`...).
    public let publicKeyAlgorithm: String
    /// The public key's size in bits (2048 for RSA-2048, 256 for P-256).
    public let publicKeyBits: Int
    /// The signature algorithm's long name, e.g. `ecdsa-with-SHA256`.
    public let signatureAlgorithm: String
    /// The OCSP responder URLs of the authority information access extension.
    public let ocspResponderURLs: [String]
    /// The URIs of the CRL distribution points extension.
    public let crlDistributionPoints: [String]
    /// OpenSSL's parsed form, shared by copies (parsing again would cost ~130 µs).
    let x509: X509Reference

    /// Parses one DER-encoded certificate.
    /// - Throws: `CertificateError.invalidDER` if the bytes are not exactly one certificate.
    public init(derEncoded bytes: [UInt8]) throws(CertificateError) {
        self = try X509Parsing.certificate(fromDER: bytes)
    }

    /// Parses the first certificate of a PEM text.
    /// - Throws: `CertificateError.noCertificateInPEM` if there is none, `.invalidPEM` if a block
    ///   is damaged.
    public init(pemEncoded text: String) throws(CertificateError) {
        guard let first = try Self.chain(pemEncoded: text).first else { throw .noCertificateInPEM }
        self = first
    }

    /// Parses every certificate of a PEM bundle, in order (a chain file: leaf first; or a set of
    /// roots).
    /// - Throws: `CertificateError.noCertificateInPEM` if there is none, `.invalidPEM` if a block
    ///   is damaged.
    public static func chain(pemEncoded text: String) throws(CertificateError) -> [Certificate] {
        let ders = try X509Parsing.derBlocks(fromPEM: Array(text.utf8))
        guard !ders.isEmpty else { throw .noCertificateInPEM }
        var certificates: [Certificate] = []
        for der in ders { certificates.append(try Certificate(derEncoded: der)) }
        return certificates
    }

    /// The SHA-256 fingerprint as colon-separated uppercase hex, as browsers show it.
    public var sha256FingerprintHex: String {
        sha256Fingerprint.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// Whether `date` is inside the validity period.
    public func isValid(at date: Date) -> Bool {
        notValidBefore <= date && date <= notValidAfter
    }

    /// `subject` (issued by `issuer`).
    public var description: String { "\(subject) (issued by \(issuer))" }

    /// Equality is DER equality.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs.derBytes == rhs.derBytes }

    /// Hashes the fingerprint (equal DER, equal fingerprint).
    public func hash(into hasher: inout Hasher) { hasher.combine(sha256Fingerprint) }

    /// Memberwise, for the parser.
    init(
        derBytes: [UInt8], subject: String, issuer: String, serialNumber: String, notValidBefore: Date,
        notValidAfter: Date, dnsNames: [String], ipAddresses: [String], isCertificateAuthority: Bool,
        isSelfIssued: Bool, sha256Fingerprint: [UInt8], publicKey: PublicKey, publicKeyAlgorithm: String,
        publicKeyBits: Int, signatureAlgorithm: String, ocspResponderURLs: [String], crlDistributionPoints: [String],
        x509: X509Reference
    ) {
        self.derBytes = derBytes
        self.subject = subject
        self.issuer = issuer
        self.serialNumber = serialNumber
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
        self.isCertificateAuthority = isCertificateAuthority
        self.isSelfIssued = isSelfIssued
        self.sha256Fingerprint = sha256Fingerprint
        self.publicKey = publicKey
        self.publicKeyAlgorithm = publicKeyAlgorithm
        self.publicKeyBits = publicKeyBits
        self.signatureAlgorithm = signatureAlgorithm
        self.ocspResponderURLs = ocspResponderURLs
        self.crlDistributionPoints = crlDistributionPoints
        self.x509 = x509
    }
}

/// Why a certificate (or key) could not be loaded.
public enum CertificateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not one DER certificate; `reason` is OpenSSL's account.
    case invalidDER(reason: String)
    /// A PEM text holds no `CERTIFICATE` block.
    case noCertificateInPEM
    /// A PEM block is damaged; `reason` is OpenSSL's account.
    case invalidPEM(reason: String)
    /// A public key pin is not `sha256//` followed by the base64 of 32 bytes.
    case invalidPin(String)
    /// A private key could not be read or does not match its certificate.
    case invalidPrivateKey(reason: String)
    /// A public key file is neither a PEM `PUBLIC KEY` block nor a DER SubjectPublicKeyInfo.
    case invalidPublicKey(reason: String)

    /// A readable account.
    public var description: String {
        switch self {
        case .invalidDER(let reason): "not a DER certificate: \(reason)"
        case .noCertificateInPEM: "the PEM text holds no CERTIFICATE block"
        case .invalidPEM(let reason): "damaged PEM certificate: \(reason)"
        case .invalidPin(let pin): "not a sha256// public key pin: \(pin)"
        case .invalidPrivateKey(let reason): "unusable private key: \(reason)"
        case .invalidPublicKey(let reason): "unusable public key: \(reason)"
        }
    }
}
