// The rule for where trust evaluation runs: inline on the loop when it cannot block, else on a pool.

/// Where a TLS channel runs its trust evaluation.
///
/// The rule: an evaluation that may wait on the network (or on anything we cannot see) never
/// runs on an event loop.
/// - **Inline** (on the loop, right after the handshake): `DefaultTrustEvaluator`,
///   `PinnedCertificatesTrustEvaluator`, `PublicKeysTrustEvaluator`, `DisabledTrustEvaluator`,
///   and `RevocationTrustEvaluator` when it cannot fetch (`.networkAccessDisabled`, or the
///   context has no `revocationFetcher`): these verify a chain against the in-memory store and
///   compare bytes, CPU work of well under a millisecond.
/// - **Pool** (a `TrustEvaluationPool` thread, the result hopped back to the loop): a
///   `RevocationTrustEvaluator` that may fetch OCSP or a CRL, and every evaluator Wick does not
///   know (a custom type may do anything). A `CompositeTrustEvaluator` runs inline only if all
///   of its evaluators would.
///
/// One caveat of the inline rule: with `TrustRoots.system` and an `SSL_CERT_DIR`, OpenSSL may
/// read a hashed certificate file during chain building (from the page cache in practice).
enum TrustEvaluationSite: Equatable {
    case inline
    case pool

    /// Where `evaluator` runs for connections of `context`.
    static func of(_ evaluator: any ServerTrustEvaluating, context: TLSContext) -> TrustEvaluationSite {
        switch evaluator {
        case is DefaultTrustEvaluator, is PinnedCertificatesTrustEvaluator, is PublicKeysTrustEvaluator,
            is DisabledTrustEvaluator:
            return .inline
        case let revocation as RevocationTrustEvaluator:
            let canFetch = !revocation.options.contains(.networkAccessDisabled) && context.revocationFetcher != nil
            return canFetch ? .pool : .inline
        case let composite as CompositeTrustEvaluator:
            return composite.evaluators.allSatisfy { of($0, context: context) == .inline } ? .inline : .pool
        default:
            return .pool
        }
    }
}
