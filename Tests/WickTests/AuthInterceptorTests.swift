// AuthenticationInterceptor with a scripted authenticator: one refresh, queued requests in order, failures.
import Foundation
import Synchronization
import Testing
import WickCore
import WickReactor

@testable import Wick

/// An authenticator whose refreshes the test completes (`hold`) or that complete at once.
final class ScriptedAuthenticator: Authenticator {
    struct Credential: AuthenticationCredential, Equatable {
        var token: String
        var requiresRefresh = false
    }

    struct RefreshRefused: Error, Equatable {}

    enum Mode {
        /// Keep the completion until `completePending`.
        case hold
        /// Complete at once with `token + "+"`, requiring refresh when `stillExpired`.
        case succeedAtOnce(stillExpired: Bool)
        /// Fail at once with `RefreshRefused`.
        case failAtOnce
    }

    private struct State {
        var mode: Mode
        var refreshed: [String] = []
        var pending: [@Sendable (Result<Credential, any Error>) -> Void] = []
    }

    private let state: Locked<State>

    init(mode: Mode) { state = Locked(State(mode: mode)) }

    /// The tokens refreshed, in order.
    var refreshed: [String] { state.withLock { $0.refreshed } }

    func apply(_ credential: Credential, to request: inout HTTPRequest) {
        request.headers.update(name: "Authorization", value: "Bearer \(credential.token)")
    }

    func refresh(
        _ credential: Credential, for session: Session,
        completion: @escaping @Sendable (Result<Credential, any Error>) -> Void
    ) {
        let mode = state.withLock { state in
            state.refreshed.append(credential.token)
            if case .hold = state.mode { state.pending.append(completion) }
            return state.mode
        }
        switch mode {
        case .hold: break
        case .succeedAtOnce(let stillExpired):
            completion(.success(Credential(token: credential.token + "+", requiresRefresh: stillExpired)))
        case .failAtOnce: completion(.failure(RefreshRefused()))
        }
    }

    func didRequest(_ request: HTTPRequest, with response: HTTPResponse, failDueToAuthenticationError error: any Error)
        -> Bool
    {
        response.statusCode == 401
    }

    func isRequest(_ request: HTTPRequest, authenticatedWith credential: Credential) -> Bool {
        request.headers.value(for: "Authorization") == "Bearer \(credential.token)"
    }

    /// The held refresh completions, left held.
    var pendingCompletions: [@Sendable (Result<Credential, any Error>) -> Void] { state.withLock { $0.pending } }

    /// Completes every held refresh with `result`.
    func completePending(with result: Result<Credential, any Error>) {
        let pending = state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        for completion in pending { completion(result) }
    }
}

/// Collects completions from any thread.
final class Collected<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

@Suite struct AuthInterceptorTests {
    typealias AuthInterceptor = AuthenticationInterceptor<ScriptedAuthenticator>
    typealias Credential = ScriptedAuthenticator.Credential

    static func request(_ index: Int) -> HTTPRequest {
        HTTPRequest(
            method: .get, url: URL(string: "http://127.0.0.1:1/\(index)")!, headers: ["X-Index": "\(index)"], body: nil)
    }

    /// A request of `session` whose last attempt sent `token` and got `status`.
    static func failedRequest(_ session: Session, token: String?, status: HTTPStatus) -> Request {
        // Never started, so `request.request` is the request as created, with its token.
        let request = session.request(
            "http://127.0.0.1:1/", headers: token.map { ["Authorization": "Bearer \($0)"] } ?? HTTPHeaders())
        request.recordAttempt(
            status: status, error: .responseValidationFailed(reason: .unacceptableStatusCode(code: status.rawValue)))
        return request
    }

    static func retry(_ interceptor: AuthInterceptor, _ request: Request, _ session: Session) async -> RetryResult {
        let error = WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: 401))
        return await withCheckedContinuation { continuation in
            interceptor.retry(request, for: session, dueTo: error) { continuation.resume(returning: $0) }
        }
    }

    static func adapt(_ interceptor: AuthInterceptor, _ request: HTTPRequest, _ session: Session) async -> Result<
        HTTPRequest, any Error
    > {
        await withCheckedContinuation { continuation in
            interceptor.adapt(request, for: session) { continuation.resume(returning: $0) }
        }
    }

    @Test func aValidCredentialIsAppliedWithoutRefresh() async throws {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .hold)
        let interceptor = AuthInterceptor(authenticator: authenticator, credential: Credential(token: "t"))
        let adapted = try await Self.adapt(interceptor, Self.request(0), session).get()
        #expect(adapted.headers.value(for: "Authorization") == "Bearer t")
        #expect(adapted.headers.value(for: "X-Index") == "0")
        #expect(authenticator.refreshed.isEmpty)
        await session.shutdown()
    }

    @Test func requestsArrivingDuringARefreshWaitAndAreAdaptedInOrder() async throws {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .hold)
        let interceptor = AuthInterceptor(
            authenticator: authenticator, credential: Credential(token: "old", requiresRefresh: true))
        let results = Collected<(Int, String?)>()
        for index in 0..<5 {
            interceptor.adapt(Self.request(index), for: session) { result in
                results.append((index, (try? result.get())?.headers.value(for: "Authorization")))
            }
        }
        #expect(authenticator.refreshed == ["old"])
        #expect(results.all.isEmpty)
        authenticator.completePending(with: .success(Credential(token: "new")))
        #expect(results.all.map(\.0) == [0, 1, 2, 3, 4])
        #expect(results.all.allSatisfy { $0.1 == "Bearer new" })
        #expect(interceptor.credential == Credential(token: "new"))
        await session.shutdown()
    }

    @Test func concurrentAdaptationsShareOneRefresh() async throws {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .hold)
        let interceptor = AuthInterceptor(
            authenticator: authenticator, credential: Credential(token: "old", requiresRefresh: true))
        let results = Collected<String?>()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    interceptor.adapt(Self.request(index), for: session) { result in
                        results.append((try? result.get())?.headers.value(for: "Authorization"))
                    }
                }
            }
        }
        #expect(authenticator.refreshed == ["old"])
        authenticator.completePending(with: .success(Credential(token: "new")))
        #expect(results.all.count == 64)
        #expect(results.all.allSatisfy { $0 == "Bearer new" })
        await session.shutdown()
    }

    @Test func concurrentAuthenticationFailuresShareOneRefreshAndAllRetry() async throws {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .hold)
        let interceptor = AuthInterceptor(authenticator: authenticator, credential: Credential(token: "old"))
        let requests = (0..<16).map { _ in Self.failedRequest(session, token: "old", status: .unauthorized) }
        let decisions = Collected<Bool>()
        let error = WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: 401))
        await withTaskGroup(of: Void.self) { group in
            for request in requests {
                group.addTask {
                    interceptor.retry(request, for: session, dueTo: error) { decisions.append($0.retryRequired) }
                }
            }
        }
        #expect(authenticator.refreshed == ["old"])
        #expect(decisions.all.isEmpty)
        authenticator.completePending(with: .success(Credential(token: "new")))
        #expect(decisions.all == Array(repeating: true, count: 16))
        await session.shutdown()
    }

    @Test func aRefreshFailureFailsEveryoneWaiting() async throws {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .hold)
        let interceptor = AuthInterceptor(
            authenticator: authenticator, credential: Credential(token: "old", requiresRefresh: true))
        let adaptErrors = Collected<Bool>()
        for index in 0..<3 {
            interceptor.adapt(Self.request(index), for: session) { result in
                guard case .failure(let error) = result else { return adaptErrors.append(false) }
                adaptErrors.append(error is ScriptedAuthenticator.RefreshRefused)
            }
        }
        let retryErrors = Collected<Bool>()
        let failed = Self.failedRequest(session, token: "old", status: .unauthorized)
        let error = WickError.responseValidationFailed(reason: .unacceptableStatusCode(code: 401))
        interceptor.retry(failed, for: session, dueTo: error) { result in
            retryErrors.append(result.error is ScriptedAuthenticator.RefreshRefused)
        }
        #expect(authenticator.refreshed == ["old"])
        authenticator.completePending(with: .failure(ScriptedAuthenticator.RefreshRefused()))
        #expect(adaptErrors.all == [true, true, true])
        #expect(retryErrors.all == [true])
        // The credential is kept; the next adaptation tries a refresh again.
        #expect(interceptor.credential == Credential(token: "old", requiresRefresh: true))
        await session.shutdown()
    }

    @Test func aRequestSentWithAnOlderCredentialIsRetriedWithoutRefresh() async {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .hold)
        let interceptor = AuthInterceptor(authenticator: authenticator, credential: Credential(token: "new"))
        let result = await Self.retry(
            interceptor, Self.failedRequest(session, token: "old", status: .unauthorized), session)
        guard case .retry = result else {
            Issue.record("expected an immediate retry, got \(result)")
            return
        }
        #expect(authenticator.refreshed.isEmpty)
        await session.shutdown()
    }

    @Test func otherFailuresAreNotRetried() async {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .hold)
        let interceptor = AuthInterceptor(authenticator: authenticator, credential: Credential(token: "t"))
        let serverError = Self.failedRequest(session, token: "t", status: HTTPStatus(rawValue: 500))
        guard case .doNotRetry = await Self.retry(interceptor, serverError, session) else {
            Issue.record("a 500 is not an authentication failure")
            return
        }
        // No response at all (the attempt failed in the transport).
        let noResponse = session.request("http://127.0.0.1:1/")
        guard case .doNotRetry = await Self.retry(interceptor, noResponse, session) else {
            Issue.record("a request without a response is not retried")
            return
        }
        #expect(authenticator.refreshed.isEmpty)
        await session.shutdown()
    }

    @Test func aMissingCredentialFailsAdaptationAndRetry() async {
        let session = Session()
        let interceptor = AuthInterceptor(authenticator: ScriptedAuthenticator(mode: .hold))
        let adapted = await Self.adapt(interceptor, Self.request(0), session)
        guard case .failure(let error as AuthenticationError) = adapted, error == .missingCredential else {
            Issue.record("expected missingCredential, got \(adapted)")
            return
        }
        let retried = await Self.retry(
            interceptor, Self.failedRequest(session, token: nil, status: .unauthorized), session)
        #expect(retried.error as? AuthenticationError == .missingCredential)
        interceptor.credential = Credential(token: "set")
        #expect(
            (try? await Self.adapt(interceptor, Self.request(0), session).get())?.headers.value(for: "Authorization")
                == "Bearer set")
        await session.shutdown()
    }

    /// Through a Session: the adaptation error fails the request before anything is sent.
    @Test func aMissingCredentialFailsTheRequestUnsent() async {
        let session = Session()
        let interceptor = AuthInterceptor(authenticator: ScriptedAuthenticator(mode: .hold))
        let request = session.request("http://127.0.0.1:1/", interceptor: interceptor)
        let result = await request.serializingData().result
        guard case .failure(.requestAdaptationFailed(let error as AuthenticationError)) = result,
            error == .missingCredential
        else {
            Issue.record("expected requestAdaptationFailed(missingCredential), got \(result)")
            return
        }
        #expect(request.requests.isEmpty)
        await session.shutdown()
    }

    /// `maximumAttempts` refreshes pass within the window; the next one is refused.
    @Test(arguments: [1, 2, 3])
    func theRefreshWindowAllowsItsMaximumThenRefuses(maximum: Int) async {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .succeedAtOnce(stillExpired: false))
        let interceptor = AuthInterceptor(
            authenticator: authenticator, credential: Credential(token: "t"),
            refreshWindow: .init(interval: .seconds(60), maximumAttempts: maximum))
        var results: [RetryResult] = []
        for _ in 0...maximum {
            let token = interceptor.credential?.token
            results.append(
                await Self.retry(interceptor, Self.failedRequest(session, token: token, status: .unauthorized), session)
            )
        }
        #expect(results.prefix(maximum).allSatisfy { $0.retryRequired })
        #expect(results.last?.error as? AuthenticationError == .excessiveRefresh)
        #expect(authenticator.refreshed.count == maximum)
        await session.shutdown()
    }

    @Test func refreshesOlderThanTheWindowNoLongerCount() async throws {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .succeedAtOnce(stillExpired: false))
        let interceptor = AuthInterceptor(
            authenticator: authenticator, credential: Credential(token: "t"),
            refreshWindow: .init(interval: .milliseconds(100), maximumAttempts: 1))
        func attempt() async -> RetryResult {
            let token = interceptor.credential?.token
            return await Self.retry(
                interceptor, Self.failedRequest(session, token: token, status: .unauthorized), session)
        }
        #expect(await attempt().retryRequired)
        #expect(await attempt().error as? AuthenticationError == .excessiveRefresh)
        try await Task.sleep(for: .milliseconds(250))
        #expect(await attempt().retryRequired)
        #expect(authenticator.refreshed.count == 2)
        await session.shutdown()
    }

    /// A refresh that returns an already expired credential would loop; the window ends it.
    @Test func theWindowEndsARefreshLoop() async {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .succeedAtOnce(stillExpired: true))
        let interceptor = AuthInterceptor(
            authenticator: authenticator, credential: Credential(token: "t", requiresRefresh: true),
            refreshWindow: .init(interval: .seconds(60), maximumAttempts: 3))
        let adapted = await Self.adapt(interceptor, Self.request(0), session)
        guard case .failure(let error as AuthenticationError) = adapted, error == .excessiveRefresh else {
            Issue.record("expected excessiveRefresh, got \(adapted)")
            return
        }
        #expect(authenticator.refreshed == ["t", "t+", "t++"])
        await session.shutdown()
    }

    @Test func withoutAWindowRefreshesAreUnlimited() async {
        let session = Session()
        let authenticator = ScriptedAuthenticator(mode: .succeedAtOnce(stillExpired: false))
        let interceptor = AuthInterceptor(
            authenticator: authenticator, credential: Credential(token: "t"), refreshWindow: nil)
        for _ in 0..<10 {
            let token = interceptor.credential?.token
            #expect(
                await Self.retry(interceptor, Self.failedRequest(session, token: token, status: .unauthorized), session)
                    .retryRequired)
        }
        #expect(authenticator.refreshed.count == 10)
        await session.shutdown()
    }

    @Test func aSynchronousRefreshFailureFailsTheAdaptation() async {
        let session = Session()
        let interceptor = AuthInterceptor(
            authenticator: ScriptedAuthenticator(mode: .failAtOnce),
            credential: Credential(token: "t", requiresRefresh: true))
        let adapted = await Self.adapt(interceptor, Self.request(0), session)
        guard case .failure(let error) = adapted, error is ScriptedAuthenticator.RefreshRefused else {
            Issue.record("expected the refresh's error, got \(adapted)")
            return
        }
        await session.shutdown()
    }

    /// An authenticator that calls its refresh completion twice breaks the contract: a trap
    /// naming the refresh, not a silent second credential.
    @Test func aRefreshCompletedTwiceTraps() async {
        await #expect(processExitsWith: .failure) {
            let session = Session()
            let authenticator = ScriptedAuthenticator(mode: .hold)
            let interceptor = AuthenticationInterceptor(
                authenticator: authenticator, credential: .init(token: "t", requiresRefresh: true))
            interceptor.adapt(AuthInterceptorTests.request(0), for: session) { _ in }
            let completion = authenticator.pendingCompletions[0]
            completion(.success(.init(token: "a")))
            completion(.success(.init(token: "b")))
        }
    }
}
