// The OpenSSL bridge for chain building and verification: X509_STORE_CTX over our Swift chain.
internal import CWickOpenSSL
import FoundationEssentials

/// What chain verification asks for beyond "chains to a trusted root".
struct ChainVerificationPolicy {
    /// Check the leaf against this host name or IP literal (RFC 6125), or nil for no host check.
    var host: String?
    /// Anchors trusted for this verification only (pinned self-signed certificates).
    var additionalAnchors: [Certificate] = []
    /// The instant to verify at; nil means now.
    var time: Date? = nil
}

/// The outcome of one verification.
struct ChainVerification {
    /// The chain OpenSSL built, leaf first, anchor last (partial when verification failed).
    var verifiedChain: [Certificate]
    /// Every problem found, in the order OpenSSL found them; empty means trusted.
    var issues: [TrustIssue]
}

/// Runs `X509_verify_cert` with our store and policy, collecting every error instead of
/// stopping at the first.
///
/// Invariant: every X509, stack and X509_STORE_CTX made here is freed before `verify`
/// returns; the collector passed to the callback through app data lives on its stack frame.
enum ChainVerifier {
    /// Verifies `presented` (leaf first) against `store`.
    static func verify(presented: [Certificate], store: TrustStore, policy: ChainVerificationPolicy)
        -> ChainVerification
    {
        let first = verifyOnce(presented: presented, store: store.pointer, policy: policy)
        guard !first.issues.isEmpty, !policy.additionalAnchors.isEmpty,
            let anchors = try? TrustStore(roots: .certificates(policy.additionalAnchors))
        else { return first }
        // Anchors are "the store's roots or these": a chain to either is trusted.
        let second = verifyOnce(presented: presented, store: anchors.pointer, policy: policy)
        return second.issues.isEmpty ? second : first
    }

    private final class Collector {
        var failures: [(code: Int32, depth: Int32, certificate: Certificate?)] = []
    }

    private static func verifyOnce(presented: [Certificate], store: OpaquePointer, policy: ChainVerificationPolicy)
        -> ChainVerification
    {
        guard let leafCertificate = presented.first else {
            return ChainVerification(
                verifiedChain: [], issues: [.other(subject: "(none)", code: 0, message: "no leaf")])
        }
        let leaf = leafCertificate.x509.pointer
        guard let untrusted = cwick_sk_X509_new_null(), let context = X509_STORE_CTX_new() else {
            preconditionFailure("out of memory: \(OpenSSLErrorQueue.drain())")
        }
        defer {
            X509_STORE_CTX_free(context)
            cwick_sk_X509_pop_free(untrusted)
        }
        for certificate in presented.dropFirst() {
            // SAFETY: the stack owns each pushed reference; pop_free releases them.
            _ = cwick_sk_X509_push(untrusted, certificate.x509.retainedPointer())
        }
        guard X509_STORE_CTX_init(context, store, leaf, untrusted) == 1 else {
            preconditionFailure("X509_STORE_CTX_init failed: \(OpenSSLErrorQueue.drain())")
        }
        let parameters = X509_STORE_CTX_get0_param(context)
        _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER)
        X509_VERIFY_PARAM_set_auth_level(parameters, OpenSSLContextSetup.securityLevel)
        if let time = policy.time { X509_VERIFY_PARAM_set_time(parameters, time_t(time.timeIntervalSince1970)) }
        acceptAnyPolicy(parameters)
        if let host = policy.host.flatMap(HostAddress.unbracketed) {
            if HostAddress.isIPLiteral(host) {
                // An IP literal matches iPAddress subjectAltNames only (never a dNSName, never the CN).
                _ = X509_VERIFY_PARAM_set1_ip_asc(parameters, host)
            } else {
                // RFC 9110 §4.3.4 and RFC 9525 §6.3: a client MUST NOT use a CN-ID. OpenSSL falls
                // back to the subject's CN when the certificate has no dNSName unless told never to.
                X509_VERIFY_PARAM_set_hostflags(
                    parameters, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT))
                _ = X509_VERIFY_PARAM_set1_host(parameters, host, host.utf8.count)
            }
        }
        let collector = Collector()
        // SAFETY: app data is the collector, alive on this frame until X509_verify_cert returns.
        withExtendedLifetime(collector) {
            _ = X509_STORE_CTX_set_ex_data(context, 0, Unmanaged.passUnretained(collector).toOpaque())
            X509_STORE_CTX_set_verify_cb(context, verifyCallback)
            _ = X509_verify_cert(context)
        }
        ERR_clear_error()
        var chain: [Certificate] = []
        if let built = X509_STORE_CTX_get0_chain(context) {
            // The built chain holds the very X509s we passed in: reuse their Certificate values.
            chain = (0..<cwick_sk_X509_num(built)).compactMap { index in
                cwick_sk_X509_value(built, index).map { x509 in
                    presented.first { $0.x509.pointer == x509 } ?? X509Parsing.certificate(from: x509)
                }
            }
        }
        var issues: [TrustIssue] = []
        for failure in collector.failures {
            let issue = issue(
                code: failure.code, depth: failure.depth, certificate: failure.certificate ?? leafCertificate,
                host: policy.host, presentedCount: presented.count)
            if !issues.contains(issue) { issues.append(issue) }
        }
        return ChainVerification(verifiedChain: chain, issues: issues)
    }

    /// RFC 5280 §6.1: process certificate policies, so that a requireExplicitPolicy in any
    /// certificate's policyConstraints fails a path on which no acceptable policy is carried
    /// all the way down. OpenSSL skips policy processing unless asked, and with an empty
    /// user-initial-policy-set it fails every path that requires an explicit policy; RFC 5280's
    /// default set is {anyPolicy}, so that is what it gets. The flag is set explicitly: whether
    /// setting policies implies it has varied (CVE-2023-0466). Policy processing needs the fix
    /// for CVE-2023-0464 (exponential work on crafted policy constraints): OpenSSL 3.0.9 or
    /// later, or a distribution's build with it backported (the version number does not show it).
    private static func acceptAnyPolicy(_ parameters: OpaquePointer?) {
        guard let policies = cwick_sk_ASN1_OBJECT_new_null() else {
            preconditionFailure("out of memory: \(OpenSSLErrorQueue.drain())")
        }
        defer { cwick_sk_ASN1_OBJECT_pop_free(policies) }
        // SAFETY: OBJ_nid2obj returns OpenSSL's static object, which pop_free leaves alone;
        // set1_policies copies the stack and its objects.
        _ = cwick_sk_ASN1_OBJECT_push(policies, OBJ_nid2obj(NID_any_policy))
        guard X509_VERIFY_PARAM_set1_policies(parameters, policies) == 1,
            X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_POLICY_CHECK)) == 1
        else {
            preconditionFailure("cannot set the policy parameters: \(OpenSSLErrorQueue.drain())")
        }
    }

    /// Records each error and lets verification go on, so that all of them are reported.
    private static let verifyCallback: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, context in
        guard ok == 0, let context, let data = X509_STORE_CTX_get_ex_data(context, 0) else { return ok }
        // SAFETY: app data is the Collector kept alive by `verifyOnce` (see the invariant).
        let collector = Unmanaged<Collector>.fromOpaque(data).takeUnretainedValue()
        let certificate = X509_STORE_CTX_get_current_cert(context).map(X509Parsing.certificate(from:))
        collector.failures.append(
            (X509_STORE_CTX_get_error(context), X509_STORE_CTX_get_error_depth(context), certificate))
        return 1
    }

    /// The issue an X509_V_ERR code means for `certificate` at `depth`.
    private static func issue(code: Int32, depth: Int32, certificate: Certificate, host: String?, presentedCount: Int)
        -> TrustIssue
    {
        let subject = certificate.subject
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return .expired(subject: subject, notValidAfter: certificate.notValidAfter)
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return .notYetValid(subject: subject, notValidBefore: certificate.notValidBefore)
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            if certificate.dnsNames.isEmpty && certificate.ipAddresses.isEmpty {
                return .noSubjectAlternativeName(host: host ?? "", subject: subject)
            }
            return .hostMismatch(host: host ?? "", dnsNames: certificate.dnsNames, ipAddresses: certificate.ipAddresses)
        case X509_V_ERR_NO_EXPLICIT_POLICY:
            return .noExplicitPolicy(subject: subject)
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
            return .selfSigned(subject: subject)
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
            return .untrustedRoot(subject: subject)
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            // The leaf's issuer missing: the server sent no intermediate. Further up: the chain
            // runs into a CA nobody trusts.
            return depth == 0 && presentedCount == 1
                ? .missingIntermediate(issuer: certificate.issuer)
                : .untrustedRoot(subject: certificate.issuer)
        case X509_V_ERR_EE_KEY_TOO_SMALL, X509_V_ERR_CA_KEY_TOO_SMALL:
            return .weakKey(
                subject: subject, algorithm: certificate.publicKeyAlgorithm, bits: certificate.publicKeyBits)
        case X509_V_ERR_CA_MD_TOO_WEAK:
            return .weakSignature(subject: subject, algorithm: certificate.signatureAlgorithm)
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE:
            return .invalidSignature(subject: subject)
        case X509_V_ERR_INVALID_PURPOSE, X509_V_ERR_INVALID_CA, X509_V_ERR_KEYUSAGE_NO_CERTSIGN:
            return .invalidPurpose(subject: subject, detail: errorString(code))
        default:
            return .other(subject: subject, code: Int(code), message: errorString(code))
        }
    }

    private static func errorString(_ code: Int32) -> String {
        // SAFETY: returns a static string.
        String(cString: X509_verify_cert_error_string(Int(code)))
    }
}
