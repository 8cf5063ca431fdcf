// Where a Session's requests meet its HSTS store: http upgraded to https before a byte is sent,
// Strict-Transport-Security recorded from trusted https responses.
import FoundationEssentials
import WickTLS
import WickTransport

extension Session {
    /// `request` with its http URL turned https when the session's HSTS store knows the host
    /// (RFC 6797 §8.3: the scheme becomes https, an explicit port 80 becomes 443, any other
    /// port is kept); `request` itself otherwise. Runs before every send (a first attempt, a
    /// redirect hop, a retry), so no byte goes to a known host in the clear. Unix-socket
    /// requests are never changed. An empty store costs a lock and a count. (A redirect's
    /// `Location` is upgraded earlier, by `RedirectRules`, so an https page redirecting to
    /// `http://` a known host is followed, not refused as insecure.)
    func upgradedForHSTS(_ request: HTTPRequest) -> HTTPRequest {
        // An empty store is asked first: no clock read.
        guard let storage = configuration.hstsStorage, !storage.isEmpty, request.unixSocketPath == nil,
            let upgraded = HSTSUpgrade.upgraded(request.url, storage: storage, now: Date())
        else { return request }
        var secure = request
        secure.url = upgraded
        return secure
    }

    /// Records the `Strict-Transport-Security` field of `response` to `request` (the first
    /// one, §8.1) when it came over https from a server whose certificate was trusted: an
    /// evaluation took place and was not `DisabledTrustEvaluator` (§8.1: "no underlying secure
    /// transport errors or warnings"). Plain http responses' fields are ignored (§8.1).
    func recordHSTS(from response: TransportResponse, for request: HTTPRequest) {
        // The field first: a response without one (most) is told by the field list's name
        // summary without a walk, and the connection's trust, a copy of the evaluated chain,
        // is read only when the field is there.
        guard let storage = configuration.hstsStorage,
            let field = response.headers.value(for: "Strict-Transport-Security"),
            let trust = response.metrics.connection?.serverTrust, trust.evaluator != Self.disabledEvaluatorName,
            request.unixSocketPath == nil, request.url.scheme?.lowercased() == "https", let host = request.url.host,
            let policy = StrictTransportSecurity(field)
        else { return }
        storage.record(policy, forHost: host, now: Date())
    }

    /// The name an evaluation by `DisabledTrustEvaluator` records (`EvaluatedServerTrust.evaluator`).
    private static let disabledEvaluatorName = "\(DisabledTrustEvaluator.self)"
}
