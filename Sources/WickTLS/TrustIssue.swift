// One specific reason a certificate chain is not trusted.
public import FoundationEssentials

/// What is wrong with a presented chain, as found by chain verification and revocation
/// checking. Each case names the certificate concerned by its subject.
public enum TrustIssue: Sendable, Hashable, CustomStringConvertible {
    /// A certificate's validity ended.
    case expired(subject: String, notValidAfter: Date)
    /// A certificate's validity has not started.
    case notYetValid(subject: String, notValidBefore: Date)
    /// The leaf is not valid for the host (RFC 6125 name or IP check).
    case hostMismatch(host: String, dnsNames: [String], ipAddresses: [String])
    /// The leaf names no subjectAltName at all, so it identifies no host: RFC 9110 §4.3.4 and
    /// RFC 9525 §6.3 forbid a client to fall back to the subject's Common Name (a CN-ID),
    /// whatever it says. `subject` is the leaf's subject, CN included, for the reader.
    case noSubjectAlternativeName(host: String, subject: String)
    /// A certificate's policyConstraints require an explicit policy (RFC 5280 §4.2.1.11) and
    /// no acceptable policy is carried by every certificate of the path (RFC 5280 §6.1).
    case noExplicitPolicy(subject: String)
    /// The leaf is self-signed and not a trusted anchor.
    case selfSigned(subject: String)
    /// The chain ends in a root that is not trusted.
    case untrustedRoot(subject: String)
    /// The leaf's issuer is neither a trusted root nor sent by the server: the server did not
    /// send its intermediate (or it chains to an unknown CA).
    case missingIntermediate(issuer: String)
    /// A certificate is revoked.
    case revoked(subject: String, reason: String)
    /// Revocation status could not be established and a positive answer was required.
    case revocationStatusUnknown(subject: String, detail: String)
    /// A key is too weak for the security level (RSA under 2048 bits...).
    case weakKey(subject: String, algorithm: String, bits: Int)
    /// A signature uses a digest too weak for the security level (SHA-1, MD5).
    case weakSignature(subject: String, algorithm: String)
    /// A signature does not verify.
    case invalidSignature(subject: String)
    /// A certificate may not be used to authenticate a TLS server (key usage, CA flags).
    case invalidPurpose(subject: String, detail: String)
    /// Any other verification failure, with OpenSSL's code and text.
    case other(subject: String, code: Int, message: String)

    /// A readable account.
    public var description: String {
        switch self {
        case .expired(let subject, let date): "\(subject) expired at \(date)"
        case .notYetValid(let subject, let date): "\(subject) is not valid before \(date)"
        case .hostMismatch(let host, let names, let ips):
            "the certificate is not valid for \(host) (it names \((names + ips).joined(separator: ", ")))"
        case .noSubjectAlternativeName(let host, let subject):
            "the certificate (\(subject)) has no subjectAltName, so it is not valid for \(host): clients must not match the subject's CN (RFC 9110 §4.3.4, RFC 9525 §6.3)"
        case .noExplicitPolicy(let subject):
            "the path through \(subject) requires an explicit certificate policy and none is carried by every certificate (RFC 5280 §6.1)"
        case .selfSigned(let subject): "\(subject) is self-signed and not trusted"
        case .untrustedRoot(let subject): "the chain of \(subject) ends in an untrusted root"
        case .missingIntermediate(let issuer):
            "no trusted certificate for the issuer \(issuer): the server did not send its intermediate, or the CA is unknown"
        case .revoked(let subject, let reason): "\(subject) is revoked (\(reason))"
        case .revocationStatusUnknown(let subject, let detail):
            "the revocation status of \(subject) is unknown: \(detail)"
        case .weakKey(let subject, let algorithm, let bits): "\(subject) has a weak \(algorithm) key of \(bits) bits"
        case .weakSignature(let subject, let algorithm): "\(subject) has a weak signature (\(algorithm))"
        case .invalidSignature(let subject): "the signature on \(subject) does not verify"
        case .invalidPurpose(let subject, let detail): "\(subject) may not authenticate a TLS server: \(detail)"
        case .other(let subject, let code, let message): "\(subject): \(message) (X509 error \(code))"
        }
    }
}
