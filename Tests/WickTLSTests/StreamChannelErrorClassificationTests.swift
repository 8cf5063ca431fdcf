// The classification of connect failures as a table: every StreamChannelError and ReactorError
// family, its kind, whether the pool tries again, and the timeout phase it names.
import Testing
import WickReactor
import WickTLS

struct StreamChannelErrorClassificationTests {
    typealias Kind = StreamChannelError.FailureKind
    typealias Phase = StreamChannelError.TimeoutPhase

    static let local = SocketAddress(numericHost: "127.0.0.1", port: 443)!
    static let v6 = SocketAddress(numericHost: "::1", port: 443)!

    static func attempt(_ error: ReactorError, at address: SocketAddress = local) -> ConnectAttemptFailure {
        ConnectAttemptFailure(address: address, error: error)
    }

    static let trust = ServerTrustError(host: "h", evaluator: "e", reason: .noCertificatesFound)

    /// (error, kind, retryable, phase)
    static let table: [(StreamChannelError, Kind, Bool, Phase?)] = [
        // The peer or the network: worth another attempt.
        (.reactor(.connectionRefused), .refused, true, nil),
        (.reactor(.unixSocketUnavailable), .refused, true, nil),
        (.reactor(.connectionReset), .reset, true, nil),
        (.reactor(.connectionAborted), .reset, true, nil),
        (.reactor(.brokenPipe), .reset, true, nil),
        (.reactor(.channelClosed), .reset, true, nil),
        (.reactor(.outputClosed), .reset, true, nil),
        (.reactor(.hostUnreachable), .hostUnreachable, true, nil),
        (.reactor(.timedOut), .hostUnreachable, true, nil),
        (.reactor(.networkUnreachable), .networkUnreachable, true, nil),
        (.reactor(.connectTimedOut(host: "h", timeout: .seconds(1), attempts: [])), .timedOut, true, .connect),
        (.reactor(.resolutionTimedOut(host: "h", timeout: .seconds(1))), .timedOut, true, .connect),
        (
            .reactor(.connectTimedOut(host: "h", timeout: .seconds(1), attempts: [attempt(.connectionRefused)])),
            .timedOut, true, .connect
        ),
        // Every attempt failed: the attempt that got furthest names the kind.
        (.reactor(.connectFailed(host: "h", attempts: [])), .hostUnreachable, true, nil),
        (.reactor(.connectFailed(host: "h", attempts: [attempt(.connectionRefused)])), .refused, true, nil),
        (
            .reactor(
                .connectFailed(
                    host: "h", attempts: [attempt(.networkUnreachable, at: v6), attempt(.connectionRefused)])),
            .refused, true, nil
        ),
        (
            .reactor(.connectFailed(host: "h", attempts: [attempt(.timedOut, at: v6), attempt(.connectionReset)])),
            .reset, true, nil
        ),
        (.reactor(.connectFailed(host: "h", attempts: [attempt(.networkUnreachable)])), .networkUnreachable, true, nil),
        // Every attempt failed in a way that cannot heal: so does the connect.
        (.reactor(.connectFailed(host: "h", attempts: [attempt(.permissionDenied)])), .permissionDenied, false, nil),
        (
            .reactor(.connectFailed(host: "h", attempts: [attempt(.invalidAddress("family")), attempt(.connectionRefused)])),
            .refused, true, nil
        ),
        (.reactor(.connectFailed(host: "h", attempts: [attempt(.invalidAddress("family"))])), .invalidAddress, false, nil),
        // Local shortages can pass.
        (.reactor(.addressInUse), .addressUnavailable, true, nil),
        (.reactor(.addressNotAvailable), .addressUnavailable, true, nil),
        (.reactor(.tooManyOpenFiles), .outOfResources, true, nil),
        (.reactor(.outOfResources), .outOfResources, true, nil),
        (.reactor(.writeBufferFull(limit: 1)), .outOfResources, true, nil),
        (.reactor(.system(call: "connect", errno: 71)), .other, true, nil),
        // The same again on every attempt.
        (.reactor(.addressFamilyNotSupported), .addressUnavailable, false, nil),
        (.reactor(.invalidAddress("too long")), .invalidAddress, false, nil),
        (.reactor(.permissionDenied), .permissionDenied, false, nil),
        (.reactor(.unknownHost("h")), .unknownHost, false, nil),
        (.reactor(.resolutionFailed(host: "h", reason: "EAI_AGAIN")), .resolutionFailed, false, nil),
        (.reactor(.loopShutDown), .other, false, nil),
        // TLS: never retried by the pool; its timeouts are, and name their phase.
        (.tls(.handshakeFailed("alert")), .tlsHandshakeFailed, false, nil),
        (.tls(.protocolError("bad record")), .tlsHandshakeFailed, false, nil),
        (.tls(.truncated), .tlsHandshakeFailed, false, nil),
        (.tls(.serverTrustFailed(trust)), .serverTrustRefused, false, nil),
        (.tls(.invalidConfiguration("roots")), .tlsConfigurationInvalid, false, nil),
        (.tlsTimedOut(host: "h", phase: .handshake, after: .seconds(1)), .timedOut, true, .tlsHandshake),
        (.tlsTimedOut(host: "h", phase: .trustEvaluation, after: .seconds(1)), .timedOut, true, .trustEvaluation),
        // The proxy: only its silence is retried, and it is a proxy failure, not a phase.
        (
            .proxy(
                .refused(proxy: "p:1", status: 407, reason: "Proxy Authentication Required", credentialsSent: false)),
            .proxyAuthenticationRequired, false, nil
        ),
        (
            .proxy(.refused(proxy: "p:1", status: 502, reason: "Bad Gateway", credentialsSent: true)),
            .proxyRefused, false, nil
        ),
        (.proxy(.invalidResponse(proxy: "p:1", reason: "invalidVersion at 0")), .proxyInvalidResponse, false, nil),
        (.proxy(.unexpectedBytes(proxy: "p:1", count: 5)), .proxyInvalidResponse, false, nil),
        (.proxy(.closedBeforeResponse(proxy: "p:1")), .proxyClosed, false, nil),
        (.proxy(.timedOut(proxy: "p:1", after: .seconds(1))), .proxyTimedOut, true, nil),
        // An HTTPS proxy's own TLS: a refused certificate and a failed handshake as the origin's
        // would be, a slow handshake as a silent proxy.
        (
            .proxy(
                .tlsFailed(
                    proxy: "p:1",
                    .serverTrustFailed(ServerTrustError(host: "p", evaluator: "E", reason: .noCertificatesFound)))),
            .serverTrustRefused, false, nil
        ),
        (.proxy(.tlsFailed(proxy: "p:1", .handshakeFailed("alert"))), .tlsHandshakeFailed, false, nil),
        (.proxy(.tlsFailed(proxy: "p:1", .invalidConfiguration("roots"))), .tlsConfigurationInvalid, false, nil),
        (.proxy(.tlsTimedOut(proxy: "p:1", phase: .handshake, after: .seconds(1))), .proxyTimedOut, true, nil),
    ]

    @Test(arguments: table)
    func classification(error: StreamChannelError, kind: Kind, retryable: Bool, phase: Phase?) {
        let classification = error.classification
        #expect(classification.kind == kind, "\(error)")
        #expect(classification.isRetryable == retryable, "\(error)")
        #expect(error.isRetryable == retryable, "\(error)")
        #expect(classification.timeoutPhase == phase, "\(error)")
    }

    @Test func theTableReachesEveryKindAndPhase() {
        #expect(Set(Self.table.map(\.1)) == Set(Kind.allCases))
        #expect(Set(Self.table.compactMap(\.3)) == Set(Phase.allCases))
    }
}
