// One certificate's revocation status: every source it names, asked in turn until one answers.
import FoundationEssentials

/// Asks the sources of one certificate of a path for its status, as `RevocationTrustEvaluator`'s
/// options say: OCSP (a staple first, for the leaf, then each responder the certificate names,
/// in order) and CRLs (each distribution point, in order), OCSP first unless `.preferCRL`.
///
/// The first usable answer decides. An unusable one (unreachable, a bad signature or signer,
/// stale, an unknown critical extension, "unknown") is recorded and the next source is asked
/// (RFC 5280 §6.3 and RFC 6960 allow several per certificate); only when all are spent is the
/// status unknown, with every reason. Answers come from the cache when it holds one still
/// valid, else from the trust's fetcher unless `.networkAccessDisabled`; usable answers with
/// a nextUpdate are cached until then.
struct RevocationStatusCheck {
    let options: RevocationTrustEvaluator.Options
    let trust: ServerTrust
    /// The instant answers are judged at.
    let now: Date
    /// The path being checked, leaf first: where a delegated OCSP responder's issuer is found.
    let path: [Certificate]

    /// The status of `certificate`, issued by `issuer`, with `staple` (the leaf's stapled OCSP
    /// response) asked first.
    func status(of certificate: Certificate, issuer: Certificate?, staple: [UInt8]?) -> RevocationOutcome {
        guard let issuer else { return .unknown("the issuer of \(certificate.subject) is unknown") }
        var methods: [RevocationRequest.Kind] = options.contains(.preferCRL) ? [.crl, .ocsp] : [.ocsp, .crl]
        methods.removeAll { !options.contains($0 == .crl ? .crl : .ocsp) }
        var details: [String] = []
        for method in methods {
            let outcome =
                method == .ocsp
                ? ocsp(certificate, issuer: issuer, staple: staple) : crl(certificate, issuer: issuer)
            guard case .unknown(let detail) = outcome else { return outcome }
            details.append(detail)
        }
        return .unknown(details.isEmpty ? "no revocation method is enabled" : details.joined(separator: "; "))
    }

    private func ocsp(_ certificate: Certificate, issuer: Certificate, staple: [UInt8]?) -> RevocationOutcome {
        let judge = { (bytes: [UInt8]) in
            OCSPBridge.check(
                response: bytes, for: certificate, issuer: issuer, intermediates: Array(path.dropFirst()),
                store: trust.trustStore, now: now)
        }
        var details: [String] = []
        if let staple {
            let outcome = judge(staple)
            guard case .unknown(let detail) = outcome else { return outcome }
            details.append("stapled: \(detail)")
        }
        guard !certificate.ocspResponderURLs.isEmpty else {
            return .unknown((details + ["OCSP: the certificate names no responder"]).joined(separator: "; "))
        }
        guard let request = OCSPBridge.request(for: certificate, issuer: issuer) else {
            return .unknown((details + ["OCSP: cannot build the request"]).joined(separator: "; "))
        }
        let digest = Base64.encode(X509Parsing.sha256(request))
        for url in certificate.ocspResponderURLs {
            let outcome = answer(
                RevocationRequest(kind: .ocsp, url: url, body: request), key: "ocsp \(url) \(digest)", judge: judge)
            guard case .unknown(let detail) = outcome else { return outcome }
            details.append(detail)
        }
        return .unknown(details.joined(separator: "; "))
    }

    private func crl(_ certificate: Certificate, issuer: Certificate) -> RevocationOutcome {
        guard !certificate.crlDistributionPoints.isEmpty else {
            return .unknown("CRL: the certificate names no distribution point")
        }
        var details: [String] = []
        for url in certificate.crlDistributionPoints {
            let outcome = answer(RevocationRequest(kind: .crl, url: url, body: nil), key: "crl \(url)") { bytes in
                CRLBridge.check(crl: bytes, from: url, for: certificate, issuer: issuer, now: now)
            }
            guard case .unknown(let detail) = outcome else { return outcome }
            details.append(detail)
        }
        return .unknown(details.joined(separator: "; "))
    }

    /// The answer to `request`, from the cache or the fetcher, judged by `judge`; usable answers
    /// are cached until their nextUpdate. Unknown outcomes name the request.
    private func answer(
        _ request: RevocationRequest, key: String, judge: ([UInt8]) -> RevocationOutcome
    ) -> RevocationOutcome {
        if let cached = trust.revocationCache.answer(for: key, at: now) { return judge(cached) }
        guard !options.contains(.networkAccessDisabled) else {
            return .unknown("\(request): network access is disabled and nothing is cached")
        }
        guard let fetcher = trust.revocationFetcher else { return .unknown("\(request): no fetcher is configured") }
        let bytes: [UInt8]
        do {
            bytes = try fetcher.fetch(request)
        } catch {
            return .unknown("\(request) failed: \(error)")
        }
        let outcome = judge(bytes)
        switch outcome {
        case .good(let next?), .revoked(_, let next?):
            trust.revocationCache.store(bytes, for: key, until: next)
        case .good(nil), .revoked(_, nil):
            break
        case .unknown(let detail):
            return .unknown("\(request): \(detail)")
        }
        return outcome
    }
}
