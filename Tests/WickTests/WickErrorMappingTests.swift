// How lower layers' errors become WickError's cases and Wick's own failure values: which case,
// which kind or cause, and the text people saw before these values existed.
import Testing
import WickHTTP1
import WickReactor
import WickTLS

@testable import Wick

struct WickErrorMappingTests {
    static let trust = ServerTrustError(host: "h", evaluator: "e", reason: .noCertificatesFound)

    /// The case a WickError is, with the kind, phase or cause it carries, as one line.
    static func summary(_ error: WickError) -> String {
        switch error {
        case .serverTrustEvaluationFailed: "serverTrustEvaluationFailed"
        case .sessionTaskFailed(.connectionFailed(let failure)): "connectionFailed \(failure.kind)"
        case .sessionTaskFailed(.proxyConnectFailed(let failure)): "proxyConnectFailed \(failure.kind)"
        case .sessionTaskFailed(.tlsUnavailable(let failure)): "tlsUnavailable \(failure.kind)"
        case .sessionTaskFailed(.proxyAuthenticationRequired(let proxy, let sent)):
            "proxyAuthenticationRequired \(proxy) \(sent)"
        case .sessionTaskFailed(.timedOut(let phase, let last)):
            "timedOut \(phase) \(last.map { "\($0.kind)" } ?? "nil")"
        default: "other: \(error)"
        }
    }

    /// (transport error, summary of its WickError)
    static let transportTable: [(TransportError, String)] = [
        (.connectFailed(.reactor(.unknownHost("h"))), "connectionFailed unknownHost"),
        (.connectFailed(.reactor(.resolutionFailed(host: "h", reason: "r"))), "connectionFailed resolutionFailed"),
        (.connectFailed(.reactor(.invalidAddress("x"))), "connectionFailed invalidAddress"),
        (.connectFailed(.tls(.handshakeFailed("alert"))), "connectionFailed tlsHandshakeFailed"),
        (.connectFailed(.tls(.serverTrustFailed(trust))), "serverTrustEvaluationFailed"),
        (
            .connectFailed(.proxy(.refused(proxy: "p:1", status: 407, reason: "r", credentialsSent: true))),
            "proxyAuthenticationRequired p:1 true"
        ),
        (
            .connectFailed(.proxy(.refused(proxy: "p:1", status: 403, reason: "r", credentialsSent: false))),
            "proxyConnectFailed proxyRefused"
        ),
        (.connectFailed(.proxy(.closedBeforeResponse(proxy: "p:1"))), "proxyConnectFailed proxyClosed"),
        (.connectFailed(.proxy(.timedOut(proxy: "p:1", after: .seconds(1)))), "proxyConnectFailed proxyTimedOut"),
        (
            .connectFailed(.tlsTimedOut(host: "h", phase: .handshake, after: .seconds(1))),
            "timedOut during the TLS handshake timedOut"
        ),
        (
            .connectFailed(.tlsTimedOut(host: "h", phase: .trustEvaluation, after: .seconds(1))),
            "timedOut during server trust evaluation timedOut"
        ),
        (
            .connectFailed(.reactor(.connectTimedOut(host: "h", timeout: .seconds(1), attempts: []))),
            "timedOut during the TCP connect timedOut"
        ),
        (
            .connectFailed(.reactor(.resolutionTimedOut(host: "h", timeout: .seconds(1)))),
            "timedOut during the TCP connect timedOut"
        ),
        // The request's deadline passed while a connection for it was still being made.
        (.timedOut(.connect(.connecting)), "timedOut during the TCP connect nil"),
        (.timedOut(.connect(.proxyConnect)), "timedOut while waiting for the proxy's answer to CONNECT nil"),
        (.timedOut(.connect(.tlsHandshake)), "timedOut during the TLS handshake nil"),
        (.poolWaitTimeout(lastConnectionFailure: nil), "timedOut while waiting for a connection nil"),
        (
            .poolWaitTimeout(lastConnectionFailure: .reactor(.connectionRefused)),
            "timedOut while waiting for a connection refused"
        ),
        (.poolWaitTimeout(lastConnectionFailure: .tls(.serverTrustFailed(trust))), "serverTrustEvaluationFailed"),
        (.tlsUnavailable(.invalidConfiguration("roots")), "tlsUnavailable tlsConfigurationInvalid"),
    ]

    @Test(arguments: transportTable)
    func transportErrors(error: TransportError, expected: String) {
        #expect(Self.summary(WickError(error)) == expected)
    }

    @Test func aFailedConnectReadsAsItDidAndKeepsTheLowerError() throws {
        let lower = StreamChannelError.reactor(.unknownHost("example.invalid"))
        let error = WickError(.connectFailed(lower))
        #expect(error.description == "the request failed: could not connect: unknown host example.invalid")
        guard case .sessionTaskFailed(.connectionFailed(let failure)) = error else {
            Issue.record("expected connectionFailed, got \(error)")
            return
        }
        #expect(failure.underlyingError as? StreamChannelError == lower)
        let tls = WickError(.tlsUnavailable(.invalidConfiguration("roots")))
        #expect(tls.description == "the request failed: TLS is unavailable: invalid TLS configuration: roots")
    }

    @Test func everyClassifiedKindHasItsOwnPublicName() {
        let kinds = StreamChannelError.FailureKind.allCases
        #expect(Set(kinds.map { ConnectionFailure.Kind($0) }).count == kinds.count)
        for kind in kinds { #expect("\(ConnectionFailure.Kind(kind))" == "\(kind)") }
    }

    /// (exchange error, cause, response offset)
    static let lossTable: [(HTTP1ConnectionError, ConnectionLoss.Cause, Int?)] = [
        (.closedBeforeResponse, .closedBeforeResponse, nil),
        (.connectionClosedBeforeRequest, .closedBeforeResponse, nil),
        (.invalidResponse(HTTPParseError(.unexpectedEOF, at: 0)), .closedBeforeResponse, nil),
        (.invalidResponse(HTTPParseError(.unexpectedEOF, at: 40)), .closedDuringResponse, 40),
        (.invalidResponse(HTTPParseError(.invalidChunkSize, at: 58)), .invalidResponse, 58),
        (.writeFailed(StreamChannelError.reactor(.brokenPipe)), .writeFailed, nil),
        (.connectionFailed(StreamChannelError.reactor(.connectionReset)), .reset, nil),
        (.connectionFailed(StreamChannelError.reactor(.timedOut)), .reset, nil),
        (.connectionFailed(StreamChannelError.tls(.truncated)), .tlsFailed, nil),
        (.connectionFailed(StreamChannelError.reactor(.channelClosed)), .other, nil),
        (.unexpectedProtocolSwitch(status: 101), .unexpectedProtocolSwitch, nil),
        (.requestHeadRefused(.empty(.method)), .invalidRequest, nil),
        (.requestBodyTooShort(declared: 2, sent: 1), .invalidRequest, nil),
    ]

    @Test(arguments: lossTable)
    func lostConnections(error: HTTP1ConnectionError, cause: ConnectionLoss.Cause, offset: Int?) {
        for processed in [true, false] {
            let public_ = WickError(.requestFailed(error, requestMayHaveBeenProcessed: processed))
            guard case .sessionTaskFailed(.connectionLost(let loss)) = public_ else {
                Issue.record("expected connectionLost, got \(public_)")
                return
            }
            #expect(loss.cause == cause)
            #expect(loss.responseOffset == offset)
            #expect(loss.requestMayHaveBeenProcessed == processed)
            #expect(loss.reason == "\(error)")
            let tail =
                processed
                ? "the request may have been processed by the server" : "the server did not receive the request"
            #expect(public_.description == "the request failed: \(error); \(tail)")
        }
    }

    /// (decoder error, kind, coding, offset)
    static let decodingTable: [(ContentDecodingError, ContentDecodingFailure.Kind, String?, Int?)] = [
        (.invalidHeader(coding: .gzip, offset: 3), .corrupt, "gzip", 3),
        (.invalidData(coding: .deflate, offset: 9), .corrupt, "deflate", 9),
        (.checksumMismatch(coding: .gzip, offset: 100), .checksumMismatch, "gzip", 100),
        (.trailingGarbage(coding: .gzip, offset: 120), .trailingBytes, "gzip", 120),
        (.truncated(coding: .deflate, offset: 50), .truncated, "deflate", 50),
        (.tooManyCodings(count: 4, limit: 3), .tooManyCodings, nil, nil),
        (.expansionRatioLimitExceeded(limit: 100, encoded: 10, decoded: 2_000_000), .expansionRatioExceeded, nil, nil),
        (.decodedSizeLimitExceeded(limit: 1), .decodedSizeExceeded, nil, nil),
        (.outOfMemory, .outOfMemory, nil, nil),
    ]

    @Test(arguments: decodingTable)
    func undecodableBodies(
        error: ContentDecodingError, kind: ContentDecodingFailure.Kind, coding: String?, offset: Int?
    ) {
        let public_ = WickError(.requestFailed(.undecodableBody(error), requestMayHaveBeenProcessed: true))
        guard case .sessionTaskFailed(.contentDecodingFailed(let failure)) = public_ else {
            Issue.record("expected contentDecodingFailed, got \(public_)")
            return
        }
        #expect(failure.kind == kind)
        #expect(failure.coding == coding)
        #expect(failure.offset == offset)
        #expect(failure.underlyingError as? ContentDecodingError == error)
        #expect(public_.description == "the request failed: the response body could not be decoded: \(error)")
    }
}
