// RetryPolicy's decisions: method × status × failure tables, the limit, the backoff, failure kinds.
import Foundation
import Testing
import WickCore
import WickReactor
import WickTLS
import WickTestSupport

@testable import Wick

@Suite struct RetryPolicyTests {
    static let lost = WickError.sessionTaskFailed(
        error: .connectionLost(ConnectionLoss(cause: .reset, reason: "reset", requestMayHaveBeenProcessed: true)))
    static let lostUnsent = WickError.sessionTaskFailed(
        error: .connectionLost(
            ConnectionLoss(
                cause: .closedBeforeResponse, reason: "closed before the request", requestMayHaveBeenProcessed: false)))
    static let refused = WickError.sessionTaskFailed(
        error: .connectionFailed(ConnectionFailure(.reactor(.connectFailed(host: "h", attempts: [])))))
    static let exchangeTimeout = WickError.sessionTaskFailed(
        error: .timedOut(phase: .waitingForResponse, lastConnectionFailure: nil))
    static let connectTimeout = WickError.sessionTaskFailed(
        error: .timedOut(phase: .connect, lastConnectionFailure: nil))
    static let undecodable = WickError.sessionTaskFailed(
        error: .contentDecodingFailed(ContentDecodingFailure(kind: .corrupt, reason: "corrupt")))
    static let validation = WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: 503))

    /// (method, status, error, retried by the default policy)
    static let table: [(HTTPMethod?, Int?, WickError, Bool)] = [
        // Retryable statuses, on idempotent methods only.
        (.get, 503, validation, true), (.put, 500, validation, true), (.delete, 408, validation, true),
        (.head, 502, validation, true), (.options, 504, validation, true), (.trace, 503, validation, true),
        (.post, 503, validation, false), (.patch, 503, validation, false), (.connect, 503, validation, false),
        (.get, 501, validation, false), (.get, 404, validation, false), (.get, 401, validation, false),
        // Retryable failure kinds, on idempotent methods.
        (.get, nil, lost, true), (.get, nil, exchangeTimeout, true), (.get, nil, refused, true),
        (.get, nil, undecodable, false), (.put, nil, .explicitlyCancelled, false),
        (.get, nil, .sessionInvalidated, false),
        (.get, nil, .bodyTooLarge(limit: 1), false),
        // Non-idempotent methods: only failures that prove the server never saw the request.
        (.post, nil, lost, false), (.post, nil, exchangeTimeout, false),
        (.post, nil, lostUnsent, true), (.patch, nil, refused, true), (.post, nil, connectTimeout, true),
        // No request at all (it could not be built).
        (nil, 503, lost, false),
    ]

    @Test(arguments: table)
    func defaultDecisions(method: HTTPMethod?, status: Int?, error: WickError, retried: Bool) {
        #expect(RetryPolicy().shouldRetry(method: method, statusCode: status, error: error) == retried)
    }

    @Test func aBareSessionTaskFailureCountsLikeAWrappedOne() {
        let failure = SessionTaskFailure.connectionLost(
            ConnectionLoss(cause: .reset, reason: "x", requestMayHaveBeenProcessed: true))
        #expect(RetryPolicy().shouldRetry(method: .get, statusCode: nil, error: failure))
        struct Other: Error {}
        #expect(!RetryPolicy().shouldRetry(method: .get, statusCode: nil, error: Other()))
    }

    @Test func unsentRequestsOfAnyMethodCanBeLeftAlone() {
        let policy = RetryPolicy(retriesUnsentRequests: false)
        #expect(!policy.shouldRetry(method: .post, statusCode: nil, error: Self.lostUnsent))
        #expect(policy.shouldRetry(method: .get, statusCode: nil, error: Self.lostUnsent))
        // A non-retryable kind stays unretried even when unsent.
        let narrow = RetryPolicy(retryableFailureKinds: [.timedOut])
        #expect(!narrow.shouldRetry(method: .post, statusCode: nil, error: Self.lostUnsent))
    }

    @Test func customSetsReplaceTheDefaults() {
        let policy = RetryPolicy(
            retryableHTTPMethods: [.post], retryableHTTPStatusCodes: [429], retryableFailureKinds: [])
        #expect(policy.shouldRetry(method: .post, statusCode: 429, error: Self.validation))
        #expect(!policy.shouldRetry(method: .post, statusCode: 503, error: Self.validation))
        #expect(!policy.shouldRetry(method: .get, statusCode: 429, error: Self.validation))
        #expect(!policy.shouldRetry(method: .post, statusCode: nil, error: Self.lost))
    }

    @Test func connectionLostPolicyRetriesOnlyLostConnections() {
        let policy = ConnectionLostRetryPolicy()
        #expect(policy.retryableHTTPStatusCodes.isEmpty)
        #expect(policy.shouldRetry(method: .get, statusCode: nil, error: Self.lost))
        #expect(policy.shouldRetry(method: .post, statusCode: nil, error: Self.lostUnsent))
        #expect(!policy.shouldRetry(method: .post, statusCode: nil, error: Self.lost))
        #expect(!policy.shouldRetry(method: .get, statusCode: 503, error: Self.validation))
        #expect(!policy.shouldRetry(method: .get, statusCode: nil, error: Self.exchangeTimeout))
        #expect(!policy.shouldRetry(method: .get, statusCode: nil, error: Self.refused))
    }

    @Test func delaysGrowExponentially() {
        let policy = RetryPolicy()
        #expect(
            (0...3).map { policy.delay(forRetry: $0) } == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4)])
        let custom = RetryPolicy(exponentialBackoffBase: 3, exponentialBackoffScale: 1)
        #expect((0...2).map { custom.delay(forRetry: $0) } == [.seconds(1), .seconds(3), .seconds(9)])
        #expect(RetryPolicy(exponentialBackoffScale: 0).delay(forRetry: 5) == .zero)
    }

    @Test func defaultsAreAlamofires() {
        let policy: RetryPolicy = .retryPolicy
        #expect(policy.retryLimit == 2 && policy.exponentialBackoffBase == 2 && policy.exponentialBackoffScale == 0.5)
        #expect(policy.retryableHTTPMethods == [.delete, .get, .head, .options, .put, .trace])
        #expect(policy.retryableHTTPStatusCodes == [408, 500, 502, 503, 504])
        #expect(policy.retriesUnsentRequests)
        let lostPolicy: ConnectionLostRetryPolicy = .connectionLostRetryPolicy(retryLimit: 5)
        #expect(lostPolicy.retryLimit == 5 && lostPolicy.retryableFailureKinds == [.networkConnectionLost])
        let configured: RetryPolicy = .retryPolicy(retryLimit: 7, exponentialBackoffScale: 0.01)
        #expect(configured.retryLimit == 7 && configured.exponentialBackoffScale == 0.01)
    }

    /// The limit, on a real `Request`: retries 0 and 1 are allowed (with their delays), 2 is not.
    @Test func theLimitIsCheckedAgainstRetryCount() async throws {
        let session = Session()
        let request = session.request("http://127.0.0.1:1/")
        request.recordAttempt(status: HTTPStatus(rawValue: 503), error: Self.validation)
        let policy = RetryPolicy()
        var decisions: [RetryResult] = []
        for _ in 0..<3 {
            decisions.append(await Self.decision(policy, request, session, Self.validation))
            request.countRetry(after: Self.validation, delay: decisions.last?.delay ?? .zero)
        }
        #expect(decisions.map(\.delay) == [.milliseconds(500), .seconds(1), nil])
        #expect(decisions.map(\.retryRequired) == [true, true, false])
        let none = RetryPolicy(retryLimit: 0)
        #expect(
            await Self.decision(none, session.request("http://127.0.0.1:1/"), session, Self.lost).retryRequired == false
        )
        await session.shutdown()
    }

    static func decision(_ policy: RetryPolicy, _ request: Request, _ session: Session, _ error: any Error) async
        -> RetryResult
    {
        await withCheckedContinuation { continuation in
            policy.retry(request, for: session, dueTo: error) { continuation.resume(returning: $0) }
        }
    }

    static let kinds: [(SessionTaskFailure, SessionTaskFailure.Kind, Bool)] = [
        (
            .connectionLost(ConnectionLoss(cause: .reset, reason: "", requestMayHaveBeenProcessed: true)),
            .networkConnectionLost, false
        ),
        (
            .connectionLost(
                ConnectionLoss(cause: .closedBeforeResponse, reason: "", requestMayHaveBeenProcessed: false)),
            .networkConnectionLost, true
        ),
        (.timedOut(phase: .waitingForResponse, lastConnectionFailure: nil), .timedOut, false),
        (.timedOut(phase: .sendingRequest, lastConnectionFailure: nil), .timedOut, false),
        (.timedOut(phase: .idleTransfer, lastConnectionFailure: nil), .timedOut, false),
        (.timedOut(phase: .waitingForConnection, lastConnectionFailure: nil), .timedOut, true),
        (.timedOut(phase: .tlsHandshake, lastConnectionFailure: nil), .timedOut, true),
        (.connectionFailed(ConnectionFailure(.reactor(.connectionRefused))), .cannotConnectToHost, true),
        (.connectionFailed(ConnectionFailure(.reactor(.connectionReset))), .cannotConnectToHost, true),
        (.connectionFailed(ConnectionFailure(.reactor(.hostUnreachable))), .cannotConnectToHost, true),
        (.connectionFailed(ConnectionFailure(.reactor(.unixSocketUnavailable))), .cannotConnectToHost, true),
        (
            .connectionFailed(
                ConnectionFailure(.reactor(.connectTimedOut(host: "h", timeout: .seconds(1), attempts: [])))),
            .timedOut, true
        ),
        (.connectionFailed(ConnectionFailure(.reactor(.networkUnreachable))), .notConnectedToInternet, true),
        (.connectionFailed(ConnectionFailure(.reactor(.unknownHost("h")))), .cannotFindHost, true),
        (
            .connectionFailed(ConnectionFailure(.reactor(.resolutionFailed(host: "h", reason: "EAI_AGAIN")))),
            .dnsLookupFailed, true
        ),
        (.connectionFailed(ConnectionFailure(.reactor(.tooManyOpenFiles))), .localFailure, true),
        (.connectionFailed(ConnectionFailure(.reactor(.permissionDenied))), .localFailure, true),
        (.connectionFailed(ConnectionFailure(.tls(.handshakeFailed("alert")))), .secureConnectionFailed, true),
        (.connectionFailed(ConnectionFailure(.tls(.truncated))), .secureConnectionFailed, true),
        (
            .connectionFailed(
                ConnectionFailure(
                    .tls(.serverTrustFailed(ServerTrustError(host: "h", evaluator: "e", reason: .noCertificatesFound))))
            ),
            .serverTrustFailed, true
        ),
        (.connectionFailed(ConnectionFailure(.tls(.invalidConfiguration("x")))), .tlsUnavailable, true),
        (
            .connectionFailed(ConnectionFailure(.tlsTimedOut(host: "h", phase: .handshake, after: .seconds(1)))),
            .timedOut, true
        ),
        (.contentDecodingFailed(ContentDecodingFailure(kind: .truncated, reason: "")), .cannotDecodeContentData, false),
        (.tlsUnavailable(ConnectionFailure(.tls(.invalidConfiguration("x")))), .tlsUnavailable, true),
        (.proxyConnectFailed(ConnectionFailure(.proxy(.closedBeforeResponse(proxy: "p:1")))), .proxyFailed, true),
        (.proxyAuthenticationRequired(proxy: "p:1", credentialsSent: false), .proxyAuthenticationRequired, true),
        (.tooManyRedirects(limit: 1), .tooManyRedirects, false),
        (.invalidRedirect(location: "x", reason: "y"), .invalidRedirect, false),
    ]

    @Test(arguments: kinds)
    func failureKinds(failure: SessionTaskFailure, kind: SessionTaskFailure.Kind, unsent: Bool) {
        #expect(failure.kind == kind)
        #expect(failure.requestWasNotSent == unsent)
        #expect(
            RetryPolicy.defaultRetryableFailureKinds.contains(kind)
                == [
                    .networkConnectionLost, .timedOut, .cannotConnectToHost, .notConnectedToInternet, .cannotFindHost,
                    .dnsLookupFailed, .secureConnectionFailed,
                ].contains(kind))
    }
}
